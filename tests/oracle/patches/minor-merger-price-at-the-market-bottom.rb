# frozen_string_literal: true

# Patch for tests/oracle/divergences.json `minor-merger-price-at-the-market-bottom`.
#
# Rule: 1841 §12.1 (minors: the new corporation's marker goes to the cell furthest right whose
# price is strictly less than the average of the two prices, not rounded; ties in a column:
# the topmost), FAQ-T (the merger price table: the cell furthest right strictly below the input),
# §12.3 (the Tuscan merge uses the normal price rules, also for SFLP + SFMA into the holding or
# into SFLi).
#
# 18xx.games' Game#find_rightmost_share_price starts every row's search at that row's column-0
# cell whatever its price (`row_best = row.first`) and takes a row only when its best column is
# further right than the best so far, so when no cell of column 1 or further right is below the
# input (a minor average of L.9 or less: SFLP at L.9 and SFMA at L.8 give 8.5) it returns the
# first row's column-0 cell, L.72 — a price above both old minors and above the input, which the
# rule excludes (1841-data.md §9 lists the L.72 results of merger_price_minors.csv as a defect;
# docs/games/1841.md I31). What this changes, only when 18xx.games' result is not strictly below
# the input: the cell furthest right strictly below it, the topmost in that column (L.8, row 12,
# column 0, the only such cell for 8 < input <= 9), or the market's lowest cell when none is
# below (both minors at L.8), as Referee does (g1841::market::cell_below). Recorded as a
# correction when taken.

module OraclePatchMinorMergerPriceAtTheMarketBottom
  ID = 'minor-merger-price-at-the-market-bottom'

  def find_rightmost_share_price(value)
    found = super
    return found if found && found.price < value

    cells = @stock_market.market.flat_map { |row| row.compact }
    below = cells.select { |sp| sp.price < value }
    fixed = if below.empty?
              cells.min_by { |sp| [sp.price, sp.coordinates] }
            else
              below.min_by { |sp| [-sp.coordinates[1], sp.coordinates[0]] }
            end
    OraclePatches.record(ID, "merger price for an input of #{value}: " \
                             "#{format_currency(fixed.price)} (18xx.games: " \
                             "#{found ? format_currency(found.price) : 'none'})")
    fixed
  end
end

Engine::Game::G1841::Game.prepend(OraclePatchMinorMergerPriceAtTheMarketBottom)
OraclePatches.loaded!(OraclePatchMinorMergerPriceAtTheMarketBottom::ID)
