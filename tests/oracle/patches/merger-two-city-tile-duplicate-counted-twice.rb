# frozen_string_literal: true

# Patch for tests/oracle/divergences.json `merger-two-city-tile-duplicate-counted-twice` and its
# twin `merger-two-city-tile-duplicate-counted-twice-crash` (the same cause, seen at the merger
# itself when every token is on the map).
#
# Rule: 1841 §12.1 merger tokens (rule 4.7.4; FAQ-C19): the new corporation owns
# N = min((placed + charter tokens of both) - duplicates removed, 5); it loses one token for each
# city or pass hex where two predecessor markers become one, the two cities of one tile (yellow
# Torino H4, yellow Firenze R14) included.
#
# 18xx.games counts the two-city removal twice: `Game#merger_tokens_start` adds 1 to
# @merger_dup_tokens for it and queues the removal; `Step::RemoveTokens#process_remove_token`
# then `destroy!`s the token, which deletes it from its corporation's `tokens`; and
# `Game#merger_tokens_finish` computes `tokens.size + tokens.size - @merger_dup_tokens`. What
# this changes: in a (non-Tuscan) merger whose two-city removal was made, @merger_dup_tokens is
# lowered by one before `merger_tokens_finish` counts, so the removed token is subtracted once.
# Nothing else (a same-city duplicate, taken off with `remove!`, stays in `tokens` and is
# subtracted once, as before). Recorded as a correction when the count or the removal bounds
# come out different from 18xx.games' own.

module OraclePatchMergerTwoCityTile
  ID = 'merger-two-city-tile-duplicate-counted-twice'

  # Step::RemoveTokens: the two-city removal (`oo`) is about to destroy a token.
  module RemoveTokens
    def process_remove_token(action)
      @game.oracle_patch_oo_removal = true if pending_oo
      super
    end
  end

  # Game: count the destroyed two-city token once.
  module Game
    attr_accessor :oracle_patch_oo_removal

    def merger_tokens_finish
      removal = @oracle_patch_oo_removal
      @oracle_patch_oo_removal = nil
      if removal && !@merger_tuscan
        before = oracle_patch_token_bounds(@merger_dup_tokens)
        @merger_dup_tokens -= 1
        after = oracle_patch_token_bounds(@merger_dup_tokens)
        if after != before
          OraclePatches.record(ID,
                               "#{@merger_target.name} gets #{after[0]} tokens, removes #{after[1]}..#{after[2]} " \
                               "(18xx.games: #{before[0]}, #{before[1]}..#{before[2]})")
        end
      end
      super
    end

    # [token count, min removals, max removals] as merger_tokens_finish computes them (non-Tuscan).
    def oracle_patch_token_bounds(dup)
      total = @merger_corpa.tokens.size + @merger_corpb.tokens.size - dup
      count = [total, 5].min
      on_map = @merger_corpa.tokens.count(&:used) + @merger_corpb.tokens.count(&:used)
      max_unplaced = [total - on_map, count - 1].min
      min_unplaced = [count - on_map, 0].max
      [count, on_map - (count - min_unplaced), on_map - (count - max_unplaced)]
    end
  end
end

Engine::Game::G1841::Step::RemoveTokens.prepend(OraclePatchMergerTwoCityTile::RemoveTokens)
Engine::Game::G1841::Game.prepend(OraclePatchMergerTwoCityTile::Game)
OraclePatches.loaded!(OraclePatchMergerTwoCityTile::ID)
