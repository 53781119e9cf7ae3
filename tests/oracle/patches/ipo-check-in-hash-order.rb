# frozen_string_literal: true

# Patch for tests/oracle/divergences.json `ipo-check-in-hash-order`.
#
# Rule: 1841 §5.2 (a player buys shares from a corporation's IPO or from the pool; the
# certificates of other corporations a corporation holds in its treasury, §7.1, are never for
# sale), §5.1 (a player with no legal action passes).
#
# 18xx.games lists `buy_shares` in a stock turn when Engine::Step::BuySellParShares
# #can_buy_any_from_ipo? says so, which asks can_buy_shares?(player, corporation.shares) of every
# started corporation. `corporation.shares` is `shares_by_corporation.values.flatten`: the
# corporation's own IPO certificates, then those it holds of other corporations, in the
# insertion order of the keys of that Ruby hash. Two of can_buy_shares?'s answers depend on that
# order: the sale check (§5.1, `players_sold`) and `can_buy_multiple?` are made on the
# corporation of the FIRST certificate, and the price and can_gain? on the first certificate of
# the smallest size. A key is inserted by any look-up (`percent_of`, `shares_of`,
# `common_percent_of`), not only by a purchase: player_controlled_percentage in every can_gain?
# scan, every payout (the payer is looked up in every corporation), the corporate share step,
# and code outside the game that reads the holdings (the oracle driver's snapshots look up every
# corporation in every holder at each round change; 18xx.games' page views may too, not
# checked: they are not part of the oracle). The same file can thus
# keep a turn open in one 18xx.games load and close it in another (version_1 random 4 players
# seed 4001 stops at id 324 with `--no-snapshots` and agrees to the end with snapshots). No rule
# decides it: none of those certificates can be bought (G1841's can_buy? refuses them) and the
# game is the same; only whether 18xx.games asks for the player's explicit `pass` changes.
#
# What this patch changes: can_buy_any_from_ipo? of G1841's player stock step takes each
# corporation's certificates in a fixed order: its own IPO certificates, then its holdings of
# other corporations in 18xx.games' corporation order (`@game.corporations`, the order the
# driver's snapshots insert them in and the export follows: export18xx/stock_turns.rs
# `holdings_in_18xx_order`). Everything else of can_buy_shares? is 18xx.games' own (it still
# judges a corporation's IPO by certificates nobody may buy; the export writes the pass that
# asks for). Recorded as a correction where that opens or ends a player's stock turn that
# 18xx.games' own hash order would have ended or kept open, or lists a purchase the player
# then makes that the hash order would not have listed.

module OraclePatchIpoCheckInHashOrder
  ID = 'ipo-check-in-hash-order'

  module Step
    def actions(entity)
      fixed = super
      theirs = begin
        # 18xx.games' own answer: can_buy_any_from_ipo? in the hash's order.
        @oracle_patch_hash_order = true
        super
      ensure
        @oracle_patch_hash_order = false
      end
      if fixed.empty? != theirs.empty?
        OraclePatches.record(ID, "#{entity.name}'s stock turn #{fixed.empty? ? 'ends' : 'stays open'} " \
                                 "(18xx.games' hash order: #{theirs.empty? ? 'ends' : 'stays open'})")
      end
      @oracle_patch_buy_unlisted = fixed.include?('buy_shares') && !theirs.include?('buy_shares')
      fixed
    end

    # A purchase 18xx.games' hash order would not have listed (a legal IPO purchase hidden by
    # a treasury holding there, `ipo-purchase-hidden-by-a-treasury-holding`, not here).
    def process_buy_shares(action)
      if @oracle_patch_buy_unlisted
        OraclePatches.record(ID, "#{action.entity.name} buys #{action.bundle.corporation.name}, " \
                                 "a purchase 18xx.games' hash order does not list")
      end
      super
    end

    def can_buy_any_from_ipo?(entity)
      return super if @oracle_patch_hash_order

      @game.corporations.any? do |corporation|
        corporation.ipoed && can_buy_shares?(entity, oracle_patch_shares_in_fixed_order(corporation))
      end
    end

    # The certificates `corporation` holds: its own first, then the others by 18xx.games'
    # corporation order (keys not in that list, if any, after them by name). Reads the hash
    # without inserting keys.
    def oracle_patch_shares_in_fixed_order(corporation)
      by_corp = corporation.shares_by_corporation
      rank = @game.corporations.each_with_index.to_h
      others = by_corp.keys.reject { |c| c == corporation }
                      .sort_by { |c| [rank.fetch(c, rank.size), c.name] }
      by_corp.fetch(corporation, []) + others.flat_map { |c| by_corp.fetch(c, []) }
    end
  end
end

Engine::Game::G1841::Step::BuySellParShares.prepend(OraclePatchIpoCheckInHashOrder::Step)
OraclePatches.loaded!(OraclePatchIpoCheckInHashOrder::ID)
