# frozen_string_literal: true

# Patch for tests/oracle/divergences.json `tuscan-merge-frozen-leader-after-split`.
#
# Rule: 1841 §12.3 (the Tuscan merge is carried out by the president of the participant with the
# best stock value; it cannot fail), §7.4 (a frozen corporation has no president), §11 (the
# Tuscan merge waits for the Ferdinandea split to complete).
#
# 18xx.games' Game#tuscan_merge_start takes `decider.player || @round.current_entity.player`:
# with a frozen best participant, the operating corporation's player. When the merge was deferred
# behind the split, it starts while the split's last choice is processed, with no step active:
# `@round.current_entity` is nil and the engine raises NoMethodError. What this changes, only
# then (frozen best participant and no current entity), and only while 18xx.games'
# `tuscan_merge_start` runs (the only reader of `current_entity` in it): the round answers
# `current_entity` with the operating corporation (the round's entity at its index, the first
# 4-train's buyer), whose player decides — what 18xx.games means to do and what Referee does
# (operating_round::events::merger::begin_tuscan). Recorded as a correction when that fallback is
# taken.

module OraclePatchTuscanMergeFrozenLeader
  ID = 'tuscan-merge-frozen-leader-after-split'

  def tuscan_merge_start(sflp, sfma, ssfl, sfli, holding, will_run)
    decider = best_stock_value([sflp, sfma, ssfl])
    return super if decider.player || @round.current_entity

    round = @round
    operating = round.entities[round.entity_index]
    OraclePatches.record(ID, "#{decider.name} is frozen and no step is active: #{operating.name}'s player " \
                             "#{operating.player&.name} decides (18xx.games: NoMethodError)")
    round.define_singleton_method(:current_entity) { operating }
    begin
      super
    ensure
      round.singleton_class.send(:remove_method, :current_entity)
    end
  end
end

Engine::Game::G1841::Game.prepend(OraclePatchTuscanMergeFrozenLeader)
OraclePatches.loaded!(OraclePatchTuscanMergeFrozenLeader::ID)
