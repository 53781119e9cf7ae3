# frozen_string_literal: true

# Patch for tests/oracle/divergences.json `ipo-purchase-hidden-by-a-treasury-holding`.
#
# Rule: 1841 §5.2 (a player may buy one share from a corporation's IPO at its market price;
# shares of corporation X held in the treasury of another corporation are never for sale), §7.1
# (corporations hold certificates of other corporations).
#
# 18xx.games lists `buy_shares` from an IPO only when
# Engine::Step::BuySellParShares#can_buy_any_from_ipo? (step/buy_sell_par_shares.rb:266-273)
# says so, and that asks can_buy_shares?(player, corporation.shares) (lines 237-256) of ALL the
# certificates the corporation holds: its own IPO shares and its holdings of other corporations
# alike. can_buy_shares? makes the sale check (§5.1) and can_buy_multiple? on the first
# certificate's corporation and judges the price and can_gain? by the first certificate of the
# smallest size. When that is another corporation's certificate (never for sale,
# G1841::Step::BaseBuySellParShares#can_buy?, base_buy_sell_par_shares.rb:37-45) that the player
# cannot afford, may not gain or sold this round, 18xx.games lists no purchase from that IPO and
# refuses a legal purchase of the corporation's own share ("Blocking step Sell then Buy Shares
# or Concessions cannot process action buy_shares").
#
# What this patch changes: in G1841's player stock step, where can_buy_shares? answers no for a
# corporation's treasury that mixes its own IPO certificates with other corporations', it asks
# again of the corporation's own IPO certificates alone and answers yes if they can be bought.
# 18xx.games' yes stays a yes (the opposite case, a turn kept open by a certificate nobody may
# buy, is left as it is: the export writes the player's pass, `ipo-check-in-hash-order`); lists
# of one corporation (the pool's, a player's) and the corporate share step are untouched.
# Recorded as a correction where that opens a player's stock turn 18xx.games would have ended,
# or where the player then makes a purchase 18xx.games would not have listed.

module OraclePatchIpoPurchaseHiddenByATreasuryHolding
  ID = 'ipo-purchase-hidden-by-a-treasury-holding'

  module Step
    def can_buy_shares?(entity, shares)
      theirs = super
      return theirs if theirs || @oracle_patch_unpatched

      own = oracle_patch_own_ipo_of_mixed_treasury(shares)
      own ? super(entity, own) : theirs
    end

    def actions(entity)
      fixed = super
      theirs = oracle_patch_unpatched { super }
      if fixed.empty? != theirs.empty?
        OraclePatches.record(ID, "#{entity.name}'s stock turn stays open for an IPO share 18xx.games judges " \
                                 'by a treasury holding (18xx.games ends it)')
      end
      fixed
    end

    def process_buy_shares(action)
      bundle = action.bundle
      if bundle.owner == bundle.corporation && !oracle_patch_unpatched { can_buy_any?(action.entity) }
        OraclePatches.record(ID, "#{action.entity.name} buys #{bundle.corporation.name}'s IPO share, a purchase " \
                                 "18xx.games does not list (it judges #{bundle.corporation.name}'s IPO by a " \
                                 'treasury holding)')
      end
      super
    end

    # 18xx.games' own answer (this patch's correction off) inside the block.
    def oracle_patch_unpatched
      saved = @oracle_patch_unpatched
      @oracle_patch_unpatched = true
      yield
    ensure
      @oracle_patch_unpatched = saved
    end

    # The corporation's own IPO certificates when `shares` is a corporation's treasury holding
    # them and certificates of other corporations too; else nil.
    def oracle_patch_own_ipo_of_mixed_treasury(shares)
      owner = shares.first&.owner
      return unless owner&.corporation?
      return unless shares.all? { |s| s.owner == owner }

      own = shares.select { |s| s.corporation == owner }
      own unless own.empty? || own.size == shares.size
    end
  end
end

Engine::Game::G1841::Step::BuySellParShares.prepend(OraclePatchIpoPurchaseHiddenByATreasuryHolding::Step)
OraclePatches.loaded!(OraclePatchIpoPurchaseHiddenByATreasuryHolding::ID)
