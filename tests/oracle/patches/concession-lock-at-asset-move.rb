# frozen_string_literal: true

# Patch for tests/oracle/divergences.json `concession-lock-at-asset-move`.
#
# Rule: 1841 §4 (rules doc §4.3: a used concession locks the presidency: before phase 4 the
# presidency of a historical corporation cannot change hands; the first 4-train removes the
# concessions and triggers the delayed presidency changes, §11), §12.1/§12.2 (a merger's or a
# transformation's treasury certificates move to the new corporation).
#
# 18xx.games refuses every presidency change of a historical corporation before phase 4 in
# its sales and purchases (`pres_change_ok?`), but `G1841::Game#move_assets` (a transformation's
# or a merger's treasury certificates of other corporations moving to the new corporation) calls
# `@share_pool.transfer_shares(bundle, target, allow_president_change: !is_pres)` without it, so
# a player holding more than the president takes a historical corporation's presidency in
# phase 2 or 3 when such a certificate moves. What this changes: within `move_assets`, a transfer
# of certificates of a historical corporation before phase 4 makes no presidency change (as
# `pres_change_ok?` says). Nothing else. Recorded as a correction when a holder other than the
# president then holds more than the president (18xx.games would have handed it the presidency).

module OraclePatchConcessionLockAtAssetMove
  ID = 'concession-lock-at-asset-move'

  module Game
    attr_reader :oracle_patch_moving_assets

    def move_assets(from, other, target)
      @oracle_patch_moving_assets = true
      super
    ensure
      @oracle_patch_moving_assets = false
    end
  end

  module SharePool
    def transfer_shares(bundle, to_entity, **kwargs)
      corp = bundle.corporation
      locked = @game.respond_to?(:oracle_patch_moving_assets) && @game.oracle_patch_moving_assets &&
               kwargs.fetch(:allow_president_change, true) && !@game.pres_change_ok?(corp)
      return super unless locked

      result = super(bundle, to_entity, **kwargs.merge(allow_president_change: false))
      president = corp.owner
      held = ->(h) { h.shares_of(corp).sum(&:percent) }
      top = corp.player_share_holders.keys.reject { |h| h == president }.max_by { |h| held.call(h) }
      if president && top && held.call(top) > held.call(president)
        OraclePatches.record(ID, "#{corp.name} (historical, phase #{@game.phase.name}) keeps its president " \
                                 "when #{bundle.percent}% moves to #{to_entity.name} (18xx.games hands it to " \
                                 "#{top.respond_to?(:player?) && top.player? ? top.id : top.name})")
      end
      result
    end
  end
end

Engine::Game::G1841::Game.prepend(OraclePatchConcessionLockAtAssetMove::Game)
Engine::SharePool.prepend(OraclePatchConcessionLockAtAssetMove::SharePool)
OraclePatches.loaded!(OraclePatchConcessionLockAtAssetMove::ID)
