# frozen_string_literal: true

# Patch for tests/oracle/divergences.json `concession-lock-at-bankruptcy-sale`.
#
# Rule: 1841 §7.5 (before phase 4 the presidency of a historical corporation never changes:
# the concession lock, rules doc §4.3), §14 (a bankrupt player's sales: "presidencies may end
# in the pool — historical ones before phase 4 keep no president").
#
# 18xx.games passes `allow_president_change: pres_change_ok?(corporation)` on every sale path
# (stock round, corporate sales, emergency money raising in the trains and token steps) but
# one: the first loop of `G1841::Step::Bankrupt#process_bankrupt` (the bankrupt player's
# largest legal bundle of each corporation) calls `sell_shares_and_change_price(bundle)` with
# the default `true`. So when a historical corporation's president's certificate already lies
# in the pool (an earlier bankruptcy in phase 2 or 3, §7.4: frozen), another bankrupt holder's
# sale hands its presidency to any holder of 20% there and thaws it in phase 3. What this
# changes: within `process_bankrupt`, a sale of a historical corporation's shares before
# phase 4 makes no presidency change (as `pres_change_ok?` says). Nothing else. Recorded as a
# correction when the presidency would have changed (the pool or a player holding less than
# another holder with at least the president's percentage).

module OraclePatchConcessionLockAtBankruptcySale
  ID = 'concession-lock-at-bankruptcy-sale'

  module Bankrupt
    def process_bankrupt(action)
      @game.oracle_patch_bankruptcy_sale = true
      super
    ensure
      @game.oracle_patch_bankruptcy_sale = false
    end
  end

  module Game
    attr_accessor :oracle_patch_bankruptcy_sale

    def sell_shares_and_change_price(bundle, allow_president_change: true, swap: nil, movement: nil)
      corp = bundle.corporation
      unless oracle_patch_bankruptcy_sale && allow_president_change && !pres_change_ok?(corp)
        return super
      end

      seller = bundle.owner
      result = super(bundle, allow_president_change: false, swap: swap, movement: movement)
      president = corp.owner
      held = ->(h) { h.shares_of(corp).sum(&:percent) }
      mine = president&.player? || president&.corporation? ? held.call(president) : 0
      top = corp.player_share_holders.keys.reject { |h| h == president }.max_by { |h| held.call(h) }
      if top && held.call(top) >= corp.presidents_percent && held.call(top) > mine
        OraclePatches.record(ID, "#{corp.name} (historical, phase #{phase.name}) keeps its president " \
                                 "#{president&.name} when bankrupt #{seller.name} sells " \
                                 "#{bundle.percent}% (18xx.games hands it to #{top.name})")
      end
      result
    end
  end
end

Engine::Game::G1841::Step::Bankrupt.prepend(OraclePatchConcessionLockAtBankruptcySale::Bankrupt)
Engine::Game::G1841::Game.prepend(OraclePatchConcessionLockAtBankruptcySale::Game)
OraclePatches.loaded!(OraclePatchConcessionLockAtBankruptcySale::ID)
