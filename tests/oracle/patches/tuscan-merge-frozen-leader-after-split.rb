# frozen_string_literal: true

# Patch for tests/oracle/divergences.json `tuscan-merge-frozen-leader-after-split` (and
# `tuscan-merge-frozen-leader-and-operator`, the same crash one step further).
#
# Rule: 1841 §12.3 (the Tuscan merge is carried out by the president of the participant with the
# best stock value; it cannot fail), §7.4 (a frozen corporation has no president), §11 (the
# Tuscan merge waits for the Ferdinandea split to complete).
#
# 18xx.games' Game#tuscan_merge_start takes `decider.player || @round.current_entity.player`:
# with a frozen best participant, the operating corporation's player. When the merge was deferred
# behind the split, it starts while the split's last choice is processed, with no step active:
# `@round.current_entity` is nil and the engine raises NoMethodError. And when the active entity
# has no player either — the buyer of the first 4-train is itself frozen (its chain of control
# ends in the pool), or it was IRSFF, restarted by the split before the deferred merge — the
# decider is nil and the engine raises NoMethodError on the next line (`@tuscan_merge_decider.name`).
# (The active entity is also another corporation than the buyer while a train discard of the new
# phase is pending: 18xx's DiscardTrain step.) What this changes, only then (frozen best
# participant and the active entity not the operating corporation with a player), and only while
# 18xx.games' `tuscan_merge_start` runs (the only reader of `current_entity` in it):
# the round answers `current_entity` with the operating corporation (the round's entity at its
# index, the first 4-train's buyer) when it has a player, whose player decides — what 18xx.games
# means to do — and otherwise with the priority deal's player (18xx's `priority_deal_player`, the
# first player of the operating round's order; the rulebook names no one). Referee does the same
# (operating_round::events::merger::begin_tuscan: the leader's controller, else the operating
# corporation's, else the first in player order). Recorded as a correction when taken.

module OraclePatchTuscanMergeFrozenLeader
  ID = 'tuscan-merge-frozen-leader-after-split'

  def tuscan_merge_start(sflp, sfma, ssfl, sfli, holding, will_run)
    decider = best_stock_value([sflp, sfma, ssfl])
    round = @round
    operating = round.entities[round.entity_index]
    return super if decider.player

    stand_in = operating&.player ? operating : priority_deal_player
    current = round.current_entity
    return super if stand_in.nil? || current&.player == stand_in.player

    active = if current.nil? then 'no step is active'
             elsif current.player then "#{current.name}'s step is active"
             else "#{current.name} has no player"
             end
    OraclePatches.record(ID, "#{decider.name} is frozen and #{active}: " \
                             "#{operating&.player ? "#{operating.name}'s player" : 'the priority deal'} " \
                             "#{stand_in.player.name} decides " \
                             "(18xx.games: #{current&.player ? current.player.name : 'NoMethodError'})")
    round.define_singleton_method(:current_entity) { stand_in }
    begin
      super
    ensure
      round.singleton_class.send(:remove_method, :current_entity)
    end
  end
end

Engine::Game::G1841::Game.prepend(OraclePatchTuscanMergeFrozenLeader)
OraclePatches.loaded!(OraclePatchTuscanMergeFrozenLeader::ID)
