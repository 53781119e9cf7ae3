# frozen_string_literal: true

# Patch for tests/oracle/divergences.json `game-end-after-the-last-bankruptcy`.
#
# Rule: 1841 §13 (trigger "all players but one bankrupt": the game ends immediately), §14 ("The
# game ends when all but one player are bankrupt").
#
# 18xx.games' own constant says so (G1841 GAME_END_CHECK bankrupt: :immediate, game.rb:231), but
# Game::Base#process_single_action (game/base.rb:899-904) asks game_end_check only after the round
# has processed the `bankrupt` action. G1841::Step::Bankrupt#process_bankrupt
# (g_1841/step/bankrupt.rb:86-89) ends the bankrupt corporation's turn, so
# G1841::Round::Operating#after_process (g_1841/round/operating.rb:24-38) calls next_entity!
# (round/operating.rb:71-80) and #start_operating (g_1841/round/operating.rb:40-51) plays the
# turns of the frozen corporations next in operating order (frozen_operation, lines 59-75: each
# price moves left twice; a circular one also sells its shares of its chain) until it reaches a
# corporation with a player's turn; only then does the game end, with those prices.
#
# What this patch changes: in G1841's operating round, when the action processed is a `bankrupt`
# that leaves one player (Game::Base#bankruptcy_limit_reached?, game/base.rb:2356), the round
# does not move on to the next corporation (its next_entity!, called by after_process, returns at
# once); 18xx.games' own end check in process_single_action then ends the game (bankrupt,
# :immediate) as it did before. Nothing else: every other bankruptcy, and every other move to the
# next corporation, is 18xx.games' own. Recorded as a correction when 18xx.games would have
# played a frozen corporation's turn before ending (the corporations following in the round, as
# skip_entity? and frozen? see them at the bankruptcy; a circular one's sales could change
# whether the next is frozen, not followed further).

module OraclePatchGameEndAfterTheLastBankruptcy
  ID = 'game-end-after-the-last-bankruptcy'

  module Round
    def after_process(action)
      @oracle_patch_last_bankruptcy = action.type == 'bankrupt' && @game.bankruptcy_limit_reached?
      super
    ensure
      @oracle_patch_last_bankruptcy = false
    end

    def next_entity!
      return super unless @oracle_patch_last_bankruptcy

      @oracle_patch_last_bankruptcy = false
      frozen = oracle_patch_frozen_turns_next
      unless frozen.empty?
        OraclePatches.record(ID, "the game ends at the last bankruptcy where 18xx.games first plays the frozen " \
                                 "turns of #{frozen.map(&:name).join(', ')}")
      end
      nil
    end

    # The corporations whose frozen turns 18xx.games' next_entity! would play, in order, before
    # the first one it would start for a player.
    def oracle_patch_frozen_turns_next
      out = []
      ((@entity_index + 1)...@entities.size).each do |i|
        entity = @entities[i]
        next if skip_entity?(entity)
        break unless @game.frozen?(entity)

        out << entity
      end
      out
    end
  end
end

Engine::Game::G1841::Round::Operating.prepend(OraclePatchGameEndAfterTheLastBankruptcy::Round)
OraclePatches.loaded!(OraclePatchGameEndAfterTheLastBankruptcy::ID)
