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
# then (frozen best participant and no current entity): the operating corporation (the round's
# entity at its index, the first 4-train's buyer) stands in for the current entity, whose player
# decides — what 18xx means to do and what Referee does
# (operating_round::events::merger::begin_tuscan). The method is 18xx.games' own otherwise, line
# for line (it cannot be wrapped: the failing line is in its middle). Recorded as a correction
# when that fallback is taken.

module OraclePatchTuscanMergeFrozenLeader
  ID = 'tuscan-merge-frozen-leader-after-split'

  def tuscan_merge_start(sflp, sfma, ssfl, sfli, holding, will_run)
    decider = best_stock_value([sflp, sfma, ssfl])
    return super if decider.player || @round.current_entity

    @tuscan_merge_sfli = sfli
    @tuscan_merge_holding = holding
    @tuscan_merge_run = will_run

    @log << "#{decider.name} has best stock value"
    operating = @round.entities[@round.entity_index]
    @tuscan_merge_decider = operating.player
    OraclePatches.record(ID, "#{decider.name} is frozen and no step is active: #{operating.name}'s player " \
                             "#{@tuscan_merge_decider&.name} decides (18xx.games: NoMethodError)")
    @log << "#{@tuscan_merge_decider.name} will perform Tuscan Merge operations"
    @tuscan_merge_ssfl = ssfl
    @corporation_info[sfli][:startable] = true

    if sflp.floated? && sfma.floated? && ssfl.floated?
      merger_start(sflp, sfma, holding, tuscan_merge: true)
    elsif !sflp.floated?
      transform_start(sfma, holding, tuscan_merge: true)
    elsif !sfma.floated?
      transform_start(sflp, holding, tuscan_merge: true)
    else
      @tuscan_merge_ssfl = nil
      merger_start(sflp, sfma, sfli, tuscan_merge: true)
    end
  end
end

Engine::Game::G1841::Game.prepend(OraclePatchTuscanMergeFrozenLeader)
OraclePatches.loaded!(OraclePatchTuscanMergeFrozenLeader::ID)
