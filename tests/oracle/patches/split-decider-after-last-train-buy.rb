# frozen_string_literal: true

# Patch for tests/oracle/divergences.json `split-decider-after-last-train-buy` (and
# `split-decider-during-a-train-discard`, the same reader taking another entity).
#
# Rule: 1841 §12.4 (with IRSFF's president's certificate in the pool, its choices in the split —
# the open presidencies, the pool's odd shares, the purchase rounds of a presidentless successor
# — need a decider; the rulebook names none), §7.4 (IRSFF is then frozen and has no president),
# §11 (the split runs while the first 4-train is bought, in the buying corporation's turn).
#
# 18xx.games' Game#secession_start takes `old.player || @round.current_entity.player # in case
# IRSFF is frozen`: the player of the corporation whose train purchase started the split. But
# `@round.current_entity` is the active step's entity, which is that corporation only while one
# of its own steps is active:
# * when that purchase leaves the buying corporation nothing more to do in its turn (no cash for
#   another train, no share action), no step is active while the events run, current_entity is
#   nil and the engine raises NoMethodError (`undefined method 'player' for nil:NilClass`): no
#   export can go on;
# * when the new phase's train limit leaves another corporation with a train too many, the
#   DiscardTrain step is active for that corporation, and its player becomes the decider: the
#   split's questions (the pool's odd shares) then start from him.
# What this changes, only then (IRSFF without a player and the active entity not the operating
# corporation): the decider is the player of the operating corporation (`@round.current_operator`,
# else the round's entity at its index: the train's buyer) — the player 18xx.games means by its
# own comment and takes whenever the buyer still has an action; with no player there (a frozen
# buyer), the priority deal's (18xx `priority_deal_player`, the first of the round's player
# order). Referee the same (operating_round::events::split, `split_decider`, and its callers'
# fallback to the first in player order). Only while 18xx.games' `secession_start` runs (its only
# reader of `current_entity` there) does the round answer `current_entity` with that entity.
# Recorded as a correction when taken.

module OraclePatchSplitDeciderAfterLastTrainBuy
  ID = 'split-decider-after-last-train-buy'

  def secession_start(old, newa, newb)
    return super if old.player

    round = @round
    operator = (round.current_operator if round.respond_to?(:current_operator)) ||
               (round.entities[round.entity_index] if round.respond_to?(:entity_index))
    return super unless operator

    stand_in = operator.player ? operator : priority_deal_player
    current = round.current_entity
    return super if stand_in.nil? || current&.player == stand_in.player

    active = current ? "#{current.name}'s step is active" : 'no entity is active'
    whose = operator.player ? "#{operator.name}'s player" : "#{operator.name} has no player: the priority deal"
    OraclePatches.record(ID, "#{old.name} has no player and #{active} after #{operator.name}'s " \
                             "train purchase: #{whose} #{stand_in.player.name} decides " \
                             "(18xx.games: #{current&.player ? current.player.name : 'NoMethodError'})")
    round.define_singleton_method(:current_entity) { stand_in }
    begin
      super
    ensure
      round.singleton_class.send(:remove_method, :current_entity)
    end
  end
end

Engine::Game::G1841::Game.prepend(OraclePatchSplitDeciderAfterLastTrainBuy)
OraclePatches.loaded!(OraclePatchSplitDeciderAfterLastTrainBuy::ID)
