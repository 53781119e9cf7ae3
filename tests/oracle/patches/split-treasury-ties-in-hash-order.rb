# frozen_string_literal: true

# Patch for tests/oracle/divergences.json `split-treasury-ties-in-hash-order`.
#
# Rule: 1841 §12.4 (the Ferdinandea split: IRSFF's treasury certificates alternate SB, SFL by
# descending price). The rule does not say how certificates of equal price are ordered.
#
# 18xx.games' G1841::Game#secession_move_treasury_shares takes `old.corporate_shares`
# (`shares_by_corporation.values.flatten`: IRSFF's holdings in the insertion order of that Ruby
# hash's keys), sorts them by price and reverses the list. Among certificates of equal price
# the order is the reverse of the hash's key order, and the keys are inserted by any look-up
# (`percent_of`, `shares_of`), the oracle driver's snapshots included: the same file hands a
# certificate to SB in one 18xx.games load and to SFL in another (v2 random 5 players seed
# 5106, id 606: IRSFF holds CGTF_0, SFTC_5 and SSFL_2 at L.32 each; loaded with no snapshot,
# SFTC_5 goes to SB and SSFL_2 to SFL, the other way round with one snapshot after id 86;
# RATF's emergency sale of SFTC_5 at id 638 is then SB's, and SB's owner SFL and its president
# player 4 are swept of their cash, L.196, in one load and not in the other).
#
# What this patch changes: the certificates are taken with the hash's keys in 18xx.games'
# corporation order (`@game.corporations`, the order a full scan inserts them in), each
# corporation's own list as it is, then sorted by price (stable) and reversed, as 18xx.games
# does: of equal prices, the later corporation in the list goes first — Referee's order
# (operating_round::events::split). Recorded as a correction where that order differs from
# the one 18xx.games' own hash gives.

module OraclePatchSplitTreasuryTiesInHashOrder
  ID = 'split-treasury-ties-in-hash-order'

  module Game
    def secession_move_treasury_shares(old, newa, newb)
      theirs = old.corporate_shares.sort_by(&:price).reverse
      by_corp = old.shares_by_corporation
      rank = corporations.each_with_index.to_h
      keys = by_corp.keys.reject { |c| c == old }.sort_by { |c| [rank.fetch(c, rank.size), c.name] }
      fixed = keys.flat_map { |c| by_corp.fetch(c, []) }
      ours = fixed.each_with_index.sort_by { |s, i| [s.price, i] }.map(&:first).reverse
      if ours.map(&:id) != theirs.map(&:id)
        OraclePatches.record(ID, "#{old.name}'s treasury in the order #{ours.map(&:id).join(', ')} " \
                                 "(18xx.games' hash order: #{theirs.map(&:id).join(', ')})")
      end
      ours.each_with_index do |share, i|
        to = i.even? ? newa : newb
        @log << "Moving #{share.percent}% share of #{share.corporation.name} from #{old.name} to #{to.name} treasury"
        @share_pool.transfer_shares(share.to_bundle, to, allow_president_change: true, corporate_transfer: true)
      end
    end
  end
end

Engine::Game::G1841::Game.prepend(OraclePatchSplitTreasuryTiesInHashOrder::Game)
OraclePatches.loaded!(OraclePatchSplitTreasuryTiesInHashOrder::ID)
