# frozen_string_literal: true

# Patch for tests/oracle/divergences.json `tuscan-transform-of-a-frozen-minor`.
#
# Rule: 1841 §12.3 (the Tuscan merge cannot fail; the present minor, SFLP or SFMA, transforms
# into the holding with the transformation's purchase rounds, and the participant with the best
# stock value's president carries the merge out), §12.2 (the rounds go "from the president on"),
# §7.4 (a corporation whose president's certificate lies in the pool is frozen and has no
# president).
#
# 18xx.games' Game#transform_start anchors three player lists at the transforming corporation's
# player: transform_shares (`@players.rotate(@players.index(corp.player))`), the first purchase
# round (`active_share_holder_list(target.player, ...)`) and the second (transform_2nd_offer,
# `@players.index(@share_offer_corp.player)`). When the Tuscan merge transforms a frozen minor
# (its president's certificate in the pool, e.g. after its president's bankruptcy) that player is
# nil and the engine raises TypeError ("no implicit conversion from nil to integer"): no export
# can go on. What this changes, only then (a Tuscan transformation whose minor or holding has no
# player): the lists start at the Tuscan merge's decider (@tuscan_merge_decider), as 18xx.games
# itself does for a presidentless corporation in the split (`corp.player || @secession_decider`)
# and for the holding's token purchase here (`@tuscan_merge_decider`); Referee the same
# (operating_round::events::transform). Recorded as a correction when that fallback is taken.

module OraclePatchTuscanTransformFrozenMinor
  ID = 'tuscan-transform-of-a-frozen-minor'

  def transform_shares(corp, target)
    return super if corp.player || !@transform_tuscan || !@tuscan_merge_decider

    OraclePatches.record(ID, "#{corp.name} has no player: its shares are exchanged from " \
                             "#{@tuscan_merge_decider.name} on (18xx.games: TypeError)")
    decider = @tuscan_merge_decider
    corp.define_singleton_method(:player) { decider }
    begin
      super
    ensure
      corp.singleton_class.send(:remove_method, :player)
    end
  end

  def active_share_holder_list(priority, corp, include_corporations: nil)
    if priority.nil? && @transform_tuscan && @transform_state == :offer1 && @tuscan_merge_decider
      OraclePatches.record(ID, "#{corp.name} has no player: the first purchase round starts at " \
                               "#{@tuscan_merge_decider.name} (18xx.games: TypeError)")
      priority = @tuscan_merge_decider
    end
    super
  end

  def transform_2nd_offer
    corp = @share_offer_corp
    return super if corp.player || !@transform_tuscan || !@tuscan_merge_decider

    OraclePatches.record(ID, "#{corp.name} has no player: the second purchase round starts at " \
                             "#{@tuscan_merge_decider.name} (18xx.games: TypeError)")
    decider = @tuscan_merge_decider
    corp.define_singleton_method(:player) { decider }
    begin
      super
    ensure
      corp.singleton_class.send(:remove_method, :player) if corp.singleton_class.method_defined?(:player, false)
    end
  end
end

Engine::Game::G1841::Game.prepend(OraclePatchTuscanTransformFrozenMinor)
OraclePatches.loaded!(OraclePatchTuscanTransformFrozenMinor::ID)
