# frozen_string_literal: true

# Patch for tests/oracle/divergences.json `corporate-buy-historical-president-from-pool`.
#
# Rule: 1841 §9.7 (a corporation's purchase in its turn: "a president's certificate in the pool
# can be bought directly only from phase 4 or for non-historical corporations", rule 4.7.2,
# 18xx #9379), §7.4 (a frozen corporation is thawed by buying its president's certificate from
# the pool: non-historical corporations at any time, historical ones from phase 4), §7.5 (the
# concession lock: before phase 4 a historical corporation's presidency never changes).
#
# 18xx.games' players' step (G1841::Step::BuySellParShares) refuses such a purchase
# (`pres_change_ok?` in its flexible purchase checks), but the corporations' step,
# G1841::Step::CorporateBuySellParShares, inherits Engine::Step::BuySellParShares#can_buy?,
# which never looks at the president's certificate: a corporation with the cash is offered
# the pool's president's certificate of a frozen historical corporation in phase 2 or 3, so
# 18xx opens the corporate share step (and would sell it the certificate without the
# presidency) where the rules, and Referee, have nothing to offer. What this changes: in that
# step, a bundle holding the president's certificate of a corporation whose presidency may not
# change yet (`pres_change_ok?` false) cannot be bought. Recorded as a correction when the
# step then offers no purchase where 18xx.games would have offered one.

module OraclePatchCorporateBuyHistoricalPresident
  ID = 'corporate-buy-historical-president-from-pool'

  module Step
    def can_buy?(entity, bundle)
      allowed = super
      return allowed if @oracle_patch_off || !allowed || !bundle&.presidents_share

      @game.pres_change_ok?(bundle.corporation) ? allowed : false
    end

    # Records the correction where it changes what the step offers: a purchase 18xx.games
    # would have offered and the patched step does not.
    def actions(entity)
      patched = super
      return patched if patched.include?('buy_shares')

      @oracle_patch_off = true
      plain = begin
        super
      ensure
        @oracle_patch_off = false
      end
      if plain.include?('buy_shares')
        OraclePatches.record(ID, "no purchase for #{entity.name}: the pool's president's certificates of " \
                                 'historical corporations are not for sale before phase 4 (18xx.games offers them)')
      end
      patched
    end
  end
end

Engine::Game::G1841::Step::CorporateBuySellParShares.prepend(OraclePatchCorporateBuyHistoricalPresident::Step)
OraclePatches.loaded!(OraclePatchCorporateBuyHistoricalPresident::ID)
