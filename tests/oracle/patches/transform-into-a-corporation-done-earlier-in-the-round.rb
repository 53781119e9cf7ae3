# frozen_string_literal: true

# Patch for tests/oracle/divergences.json `transform-into-a-corporation-done-earlier-in-the-round`.
#
# Rule: 1841 §12.2 (a minor transforms into a major: its holders exchange their shares, then
# the rounds of optional purchases of one IPO share each, then the major's tokens, the second
# one compulsory at L.50), §8 (a corporation formed during an operating round does not operate
# in it; the round ends after the last corporation's turn).
#
# 18xx.games' G1841::Game#transform_start swaps the major into the round's list where the minor
# was and asks the purchase questions as `pending_options` of the round; the major is marked
# done only at `transform_finish`. But G1841::Round::Operating#finished? is
# `super || !any_to_act?`, and `any_to_act?` skips every closed corporation and every one in
# `@done_this_round`. When the major is a non-historical corporation that already served as
# an intermediate in this round — AFI, the Tuscan merge's holding (§12.3: SFLP + SFMA → AFI,
# AFI + SSFL → SFLi; G1841::Game#merger_finish marks it done, then it closes and is available
# again) — its stale done flag makes it skipped at once. If every other corporation of the
# round's list is closed too (Version 1: IRSFF split, the Tuscan participants merged, SFTG and
# SFTN merged), the round ends in the middle of the transformation: the next round's
# ChooseOption step clears `pending_options`, the purchase questions and the token count are
# lost, and `transform_state` stays at :offer1; the first answer is then refused.
# What this changes, only there: `transform_start` forgets the target's done flag of its
# earlier life before the swap, so the round waits for the transformation like any other
# (`transform_finish` marks the major done). Recorded as a correction where the flag was set and
# nobody else in the round's list was left to act (where 18xx.games ended the round).

module OraclePatchTransformIntoDoneCorporation
  ID = 'transform-into-a-corporation-done-earlier-in-the-round'

  module Game
    def transform_start(corp, target, tuscan_merge: false)
      if @done_this_round[target]
        @done_this_round.delete(target)
        # Only where 18xx.games would have ended the round: nobody else left to act.
        others = @round.entities.reject { |e| e == corp }
        if others.all? { |e| e.closed? || @done_this_round[e] }
          OraclePatches.record(ID,
                               "#{target.name} (done earlier in this round) no longer ends the round " \
                               "while #{corp.name}'s transformation asks its questions")
        end
      end
      super
    end
  end
end

Engine::Game::G1841::Game.prepend(OraclePatchTransformIntoDoneCorporation::Game)
OraclePatches.loaded!(OraclePatchTransformIntoDoneCorporation::ID)
