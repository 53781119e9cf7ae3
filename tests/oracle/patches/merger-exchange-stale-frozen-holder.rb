# frozen_string_literal: true

# Patch for tests/oracle/divergences.json `merger-exchange-stale-frozen-holder`.
#
# Rule: 1841 §12.1 (each holder of the merging corporations exchanges its shares once: every
# pair for a share of the new corporation, then the odd share, in order from the merger's
# decider), §12.3 (the Tuscan merge's mergers follow §12.1), §7.4 (a corporation is frozen when
# no player is at the top of its chain of control).
#
# 18xx.games' Game#merger_share_holder_list lists the holders in exchange order: the players
# from the decider, each followed by the corporations he controls (live:
# controlled_corporations), then the pool, then `frozen_corporations`, which reads the frozen
# flag `update_frozen!` last stored. The Tuscan merge runs inside the first 4-train's purchase
# (after the split, or in its place), and its two mergers change the chains of control
# (the first merger's new corporation takes over presidencies) without `update_frozen!` being
# called before the second merger's list is built. A corporation still flagged frozen whose
# chain now leads to a player is listed twice, under its player and again as frozen, and once
# its odd share is exchanged 18xx asks it again for a share it no longer holds (answering raises
# "Inconsistant share count" in `merger_do_exchange`). The twin of
# `split-exchange-stale-frozen-holder` (Game#secession_share_holder_list). What this changes:
# the frozen part of the list takes a corporation frozen now (`ipoed` and no player at the top
# of its chain, what `update_frozen!` stores) and not already listed. Recorded as a correction
# when the list comes out different from 18xx.games' own.

module OraclePatchMergerStaleFrozenHolder
  ID = 'merger-exchange-stale-frozen-holder'

  module Game
    def merger_share_holder_list(corpa, corpb, percent)
      theirs = super
      sh_list = []
      @players.rotate(@players.index(@merger_decider)).each do |p|
        sh_list << p if total_percent(p, corpa, corpb) >= percent
        controlled_corporations(p).each do |c|
          next if c == corpa || c == corpb

          sh_list << c if total_percent(c, corpa, corpb) >= percent
        end
      end
      sh_list << @share_pool if total_percent(@share_pool, corpa, corpb) >= percent
      corporations.each do |c|
        next if c == corpa || c == corpb || sh_list.include?(c)
        next unless c.ipoed && !controller(c)&.player?

        sh_list << c if total_percent(c, corpa, corpb) >= percent
      end
      if sh_list != theirs
        OraclePatches.record(ID,
                             "holders of #{corpa.name} and #{corpb&.name} (#{percent}%) " \
                             "#{sh_list.map(&:name).join(', ')} (18xx.games: #{theirs.map(&:name).join(', ')})")
      end
      sh_list
    end
  end
end

Engine::Game::G1841::Game.prepend(OraclePatchMergerStaleFrozenHolder::Game)
OraclePatches.loaded!(OraclePatchMergerStaleFrozenHolder::ID)
