# frozen_string_literal: true

# Patch for tests/oracle/divergences.json `split-exchange-stale-frozen-holder`.
#
# Rule: 1841 §12.4 (each holder exchanges its IRSFF shares: every pair for one SB and one SFL
# share, each odd share for one of either, the holder's choice), §7.4 (a corporation is frozen
# when no player is at the top of its chain of control).
#
# 18xx.games' Game#secession_share_holder_list lists the holders of IRSFF in exchange order:
# the players from the decider, each followed by the corporations he controls (live:
# controlled_corporations), then the pool, then `frozen_corporations`, which reads the frozen
# flag `update_frozen!` last stored. The split starts inside the first 4-train's purchase, after
# the phase change closed the concessions (deferred_president_change) and after IRSFF's treasury
# certificates moved to SB and SFL, and nothing calls `update_frozen!` before the list is built.
# A corporation frozen until then whose presidency has just moved to a controlled holder (SFTG
# to SFLP, SFMA to player 2, SFTC to SFL) is listed twice, under its player and again as frozen,
# and after its one odd share is exchanged 18xx asks it again (it holds no IRSFF share left;
# answering raises in `secession_do_exchange`). What this changes: the frozen part of the list
# takes a corporation frozen now (`ipoed` and no player at the top of its chain, what
# `update_frozen!` stores) and not already listed. Recorded as a correction when the list comes
# out different from 18xx.games' own.

module OraclePatchSplitStaleFrozenHolder
  ID = 'split-exchange-stale-frozen-holder'

  module Game
    def secession_share_holder_list(owner, old, percent)
      theirs = super
      sh_list = []
      @players.rotate(@players.index(owner)).each do |p|
        sh_list << p if p.percent_of(old) >= percent
        controlled_corporations(p).each do |c|
          next if c == old

          sh_list << c if c.percent_of(old) >= percent
        end
      end
      sh_list << @share_pool if @share_pool.percent_of(old) >= percent
      corporations.each do |c|
        next if c == old || sh_list.include?(c)
        next unless c.ipoed && !controller(c)&.player?

        sh_list << c if c.percent_of(old) >= percent
      end
      if sh_list != theirs
        OraclePatches.record(ID,
                             "holders of #{old.name} (#{percent}%) #{sh_list.map(&:name).join(', ')} " \
                             "(18xx.games: #{theirs.map(&:name).join(', ')})")
      end
      sh_list
    end
  end
end

Engine::Game::G1841::Game.prepend(OraclePatchSplitStaleFrozenHolder::Game)
OraclePatches.loaded!(OraclePatchSplitStaleFrozenHolder::ID)
