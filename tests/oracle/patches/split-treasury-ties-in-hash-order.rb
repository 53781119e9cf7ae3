# frozen_string_literal: true

# Patch for tests/oracle/divergences.json `split-treasury-ties-in-hash-order`.
#
# Rule: 1841 §12.4 (at the Ferdinandea split IRSFF's certificates of other corporations
# alternate SB, SFL by descending price). The rule is silent on certificates of equal price.
#
# 18xx.games' G1841::Game#secession_move_treasury_shares takes `old.corporate_shares`
# (`shares_by_corporation.values.flatten`: IRSFF's holdings corporation by corporation in the
# insertion order of that Ruby hash's keys), sorts them by price (`sort_by`, stable in the
# oracle's Ruby) and reverses the list. Of equal prices the certificate of the corporation whose
# key IRSFF's hash received LAST goes first. A key is inserted by any look-up, not only by a
# purchase (player_controlled_percentage in every can_gain? scan, emr_bundles_all, payouts, the
# oracle driver's round-change snapshots; see `ipo-check-in-hash-order`), so the order is a
# by-product of which code read IRSFF's holdings first: lite random 6 players seed 8002, split at
# id 665: IRSFF holds CFCC_2 (L.62), SFTN_1 and SFTC_8 (L.10 each); its hash has SFTC's key
# before SFTN's (a can_gain? scan of player 6's purchase of SFTC before IRSFF's first full scan),
# so SB gets CFCC_2 and SFTC_8, SFL SFTN_1, where the corporation order (SFTG, SFTN, SFTC, ...)
# gives SB SFTN's share and SFL SFTC's.
#
# What this patch changes: the certificates are taken in 18xx.games' corporation order
# (`@corporations`, the order a full scan inserts, which Referee's split and its export's share
# ledger follow: engine/src/g1841/operating_round/events/split.rs, share_ledger.rs
# `split_treasury`), each corporation's in the order IRSFF received them; then sorted and
# reversed as 18xx.games does. Everything else of the move (transfers, presidency checks, log)
# is 18xx.games' own. Recorded as a correction where a certificate goes to another successor
# than 18xx.games' hash order would have sent it.

module OraclePatchSplitTreasuryTiesInHashOrder
  ID = 'split-treasury-ties-in-hash-order'

  module Game
    def secession_move_treasury_shares(old, newa, newb)
      theirs = old.corporate_shares.sort_by(&:price).reverse
      fixed = oracle_patch_treasury_in_fixed_order(old)
      sides = ->(list) { list.each_with_index.to_h { |s, i| [s.id, i.even?] } }
      if sides.call(fixed) != sides.call(theirs)
        OraclePatches.record(ID, "#{old.name}'s certificates to #{newa.name}: " \
                                 "#{fixed.each_with_index.select { |_, i| i.even? }.map { |s, _| s.id }.join(', ')} " \
                                 "(18xx.games' hash order: " \
                                 "#{theirs.each_with_index.select { |_, i| i.even? }.map { |s, _| s.id }.join(', ')})")
      end
      fixed.each_with_index do |share, i|
        target = i.even? ? newa : newb
        @log << "Moving #{share.percent}% share of #{share.corporation.name} from #{old.name} to #{target.name} treasury"
        @share_pool.transfer_shares(share.to_bundle, target, allow_president_change: true, corporate_transfer: true)
      end
    end

    # IRSFF's certificates of other corporations in 18xx.games' corporation order (keys not in
    # that list, if any, after them by name), each corporation's in the order received, sorted
    # by price (stable) and reversed. Reads the hash without inserting keys.
    def oracle_patch_treasury_in_fixed_order(old)
      by_corp = old.shares_by_corporation
      rank = @corporations.each_with_index.to_h
      listed = by_corp.keys.reject { |c| c == old }
                      .sort_by { |c| [rank.fetch(c, rank.size), c.name] }
                      .flat_map { |c| by_corp.fetch(c, []) }
      listed.each_with_index.sort_by { |s, i| [s.price, i] }.map(&:first).reverse
    end
  end
end

Engine::Game::G1841::Game.prepend(OraclePatchSplitTreasuryTiesInHashOrder::Game)
OraclePatches.loaded!(OraclePatchSplitTreasuryTiesInHashOrder::ID)
