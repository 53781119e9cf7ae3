# frozen_string_literal: true

# Patch for tests/oracle/divergences.json `split-irsff-president-in-pool` and its three symptoms
# `split-irsff-president-in-pool-single-exchange`, `-no-question-asked` and
# `-successor-president` (the same cause).
#
# Rule: 1841 §12.4 (every remaining pair of IRSFF shares becomes one SB and one SFL share; each
# odd share one of either; with IRSFF's president's certificate in the pool both successors'
# presidencies go to the pool), §7.4 (a corporation whose president's certificate lies in the
# pool is frozen); rules doc §17 item 9.
#
# 18xx.games' Game#secession_start, when IRSFF's president's certificate lies in the pool, moves
# SB's president's certificate to the pool twice and SFL's never, and goes straight to the single
# exchanges ("by definition, no one else has a pair"), where every holder, the pool with its
# president's certificate included, exchanges one share. What this changes, only in that branch
# (IRSFF's president's certificate in the pool when the single exchanges would start without the
# pair exchange having run): SFL's president's certificate goes to the pool too, IRSFF's
# president's certificate in the pool is exchanged for the two (it leaves the pool for IRSFF), and
# 18xx's own pair exchange (`secession_exchange_pairs`) runs before the single exchanges, as after
# any other presidency choice — what Referee does (operating_round::events::split). Recorded as a
# correction every time that branch is taken.

module OraclePatchSplitPresidentInPool
  ID = 'split-irsff-president-in-pool'

  module Game
    def secession_start(old, newa, newb)
      @oracle_patch_pairs_done = false
      super
    end

    def secession_exchange_pairs(other)
      @oracle_patch_pairs_done = true
      super
    end

    def secession_exchange_singles
      old_pres = @share_pool.shares_of(@secession_old).find(&:president)
      return super if @oracle_patch_pairs_done || !old_pres

      @oracle_patch_pairs_done = true
      presb = @secession_newb.shares_of(@secession_newb).find(&:president)
      if presb
        @share_pool.transfer_shares(presb.to_bundle, @share_pool, allow_president_change: true)
        @log << "#{@secession_newb.name} president share moved to share pool (oracle patch #{ID})"
      end
      simple_transfer_share(old_pres, @secession_old)
      OraclePatches.record(ID,
                           "#{@secession_newb.name}'s president's certificate to the pool too and the " \
                           "pool's pairs of #{@secession_old.name} exchanged (18xx.games: #{@secession_newa.name}'s " \
                           'twice, single exchanges only)')
      secession_exchange_pairs(@secession_newb)
    end
  end
end

Engine::Game::G1841::Game.prepend(OraclePatchSplitPresidentInPool::Game)
OraclePatches.loaded!(OraclePatchSplitPresidentInPool::ID)
