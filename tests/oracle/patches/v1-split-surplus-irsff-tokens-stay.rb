# frozen_string_literal: true

# Patch for tests/oracle/divergences.json `v1-split-surplus-irsff-tokens-stay`.
#
# Rule: 1841 §12.4, §15.1 (Version 1 Ferdinandea split: SFV and SFL end with exactly two tokens
# each; IRSFF's surplus tokens are dropped), §3.4 (a closed corporation is gone).
#
# In Version 1, 18xx.games' Game#secession_replace_other_tokens skips IRSFF's placed tokens beyond
# two per successor without removing them, and the closed IRSFF keeps them on the map for the
# rest of the game (filling city slots, making cities 'tokened'). What this changes, only in
# Version 1 and only at the split: after 18xx.games has given each successor its tokens, every
# token IRSFF still has on the map is taken off (`Token#remove!`), as Referee drops them
# (operating_round::events::split). The successors' tokens are 18xx.games' own choice. Recorded
# as a correction when a token was taken off.

module OraclePatchV1SplitSurplusTokens
  ID = 'v1-split-surplus-irsff-tokens-stay'

  def secession_replace_other_tokens(old, newa, newb)
    super
    return unless version == 1

    surplus = old.tokens.select(&:used)
    return if surplus.empty?

    hexes = surplus.map { |t| t.city.hex.id }
    surplus.each(&:remove!)
    OraclePatches.record(ID, "#{old.name}'s surplus tokens on #{hexes.join(', ')} taken off the map " \
                             '(18xx.games leaves them there)')
  end
end

Engine::Game::G1841::Game.prepend(OraclePatchV1SplitSurplusTokens)
OraclePatches.loaded!(OraclePatchV1SplitSurplusTokens::ID)
