# frozen_string_literal: true

# Patch for tests/oracle/divergences.json `concession-purchase-stale-frozen`.
#
# Rule: 1841 §7.4 (a corporation is frozen while no player is at the top of its chain of
# control; "it becomes unfrozen as soon as someone acquires its presidency"), §5.5 (at the end
# of the stock round a sold-out corporation that is not frozen moves up one row), §3.2 (from SR2 a
# player may buy a bank-held concession; if its corporation's president's certificate lies in
# the pool he pays for it and receives it).
#
# 18xx.games keeps the frozen flag that `Game#update_frozen!` last stored, and calls
# `update_frozen!` after share purchases and sales, trains, tokens and bankruptcies, but not in
# `G1841::Step::BuySellParShares#process_buy_company`, which moves the pool's president's
# certificate to the buyer of the concession (`transfer_shares(..., allow_president_change:
# false)`, `corporation.owner = entity`). Until some later action calls `update_frozen!`, the
# corporation still counts as frozen: when the stock round ends with passes only,
# `Round::Stock#finish_round` leaves a sold-out corporation where it is (and drops one in the
# pool two rows) though a player now controls it. What this changes: after a concession purchase
# that handed over a president's certificate, `update_frozen!` runs (what every share purchase
# does). Nothing else. Recorded as a correction when it thaws a corporation.

module OraclePatchConcessionPurchaseStaleFrozen
  ID = 'concession-purchase-stale-frozen'

  module BuySellParShares
    def process_buy_company(action)
      pres = company_president_share(action.company)
      super
      return unless pres

      stale = @game.frozen_corporations
      @game.update_frozen!
      (stale - @game.frozen_corporations).each do |corp|
        OraclePatches.record(ID, "#{corp.name} thaws when #{action.entity.name} buys the concession " \
                                 "#{action.company.sym} with its president's certificate " \
                                 '(18xx.games keeps it frozen until its next update_frozen!)')
      end
    end
  end
end

Engine::Game::G1841::Step::BuySellParShares.prepend(OraclePatchConcessionPurchaseStaleFrozen::BuySellParShares)
OraclePatches.loaded!(OraclePatchConcessionPurchaseStaleFrozen::ID)
