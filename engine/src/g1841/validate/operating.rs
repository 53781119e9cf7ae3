//! Checks of the operating round and its material (1841 §8–§10): the round's progress (the
//! operating corporation, the finished ones, the hexes built this turn), tiles that fit their
//! hexes within the manifest (§9.1, the upgrade chains worked out once per map in
//! `HexTiles`), train ids held once (§9.6), tokens on existing cities within their slots.

use super::events::check_events;
use super::*;

/// The operating round's progress (1841 §8): the operating corporation is started and has
/// not yet operated; finished corporations are started and listed once; hexes built on this
/// turn exist.
pub(super) fn check_operating_round(state: &State, or: &OperatingRound) -> Result<(), StateError> {
    check_events(state, or)?;
    check_drops(state, "operating_round.pending_drops", &or.pending_drops)?;
    if let Some(p) = or.split_slot
        && crate::g1841::market::price_at(p.row, p.col).is_none()
    {
        return Err(err(
            "operating_round.split_slot",
            "not a cell of the stock market",
        ));
    }
    if !or.corporate_sales.is_empty() && !state.options.no_corporate_rebuy_after_sale() {
        return Err(err(
            "operating_round.corporate_sales",
            "only with the option no_corporate_rebuy_after_sale",
        ));
    }
    for (i, x) in or.corporate_sales.iter().enumerate() {
        if state.corporation(&x.seller).is_none() || state.corporation(&x.corporation).is_none() {
            return Err(err(
                format!("operating_round.corporate_sales[{i}]"),
                "must name corporations of these rules",
            ));
        }
    }
    let started = |sym: &str| state.corporation(sym).is_some_and(|c| c.started());
    if let Some(c) = &or.current {
        if !started(c) {
            return Err(err("operating_round.current", "not a started corporation"));
        }
        if or.done.contains(c) {
            return Err(err("operating_round.current", "has already operated"));
        }
    }
    let mut seen = BTreeSet::new();
    for (i, d) in or.done.iter().enumerate() {
        if !started(d) || !seen.insert(d) {
            return Err(err(
                format!("operating_round.done[{i}]"),
                "must be a started corporation, listed once",
            ));
        }
    }
    for (i, c) in or.crowded.iter().enumerate() {
        let over = state.operations.trains.get(c).map_or(0, Vec::len) as u32
            > crate::g1841::operating_round::train_limit(state, c);
        if !started(c) || !over || or.crowded[..i].contains(c) {
            return Err(err(
                format!("operating_round.crowded[{i}]"),
                "must be a started corporation over its train limit, listed once",
            ));
        }
    }
    if let Some(start) = &or.start {
        let ok = or.current.as_ref().is_some_and(|cur| {
            or.step == OperatingStep::Shares
                && state.corporation(&start.corporation).is_some_and(|c| {
                    !c.historical
                        && c.started()
                        && c.president() == Some(&ShareOwner::Corporation(cur.clone()))
                })
        });
        if !ok {
            return Err(err(
                "operating_round.start.corporation",
                "must be a started non-historical corporation whose president is the operating corporation, in its share step",
            ));
        }
    }
    let m = map::map(&state.options);
    for (i, h) in or.laid_hexes.iter().enumerate() {
        if !m.hexes.contains_key(h) {
            return Err(err(
                format!("operating_round.laid_hexes[{i}]"),
                "no such hex",
            ));
        }
    }
    if or.used_bases.len() > 8 || or.laid_hexes.len() > 8 {
        return Err(err("operating_round.used_bases", "too many tile actions"));
    }
    // Revenue awaits a dividend decision only in that step; bounded far above any route set.
    if or.revenue < 0
        || or.revenue > 100_000
        || (or.revenue != 0 && or.step != OperatingStep::Dividend)
    {
        return Err(err(
            "operating_round.revenue",
            "must be 0 outside the dividend step and a plausible amount in it",
        ));
    }
    Ok(())
}

/// Which tiles may stand on each hex of a map (1841 §9.1): a hex's first tiles and every
/// tile reachable from them through upgrades. Worked out once per map, so validating a state
/// does not walk the upgrade chains of every laid tile.
struct HexTiles {
    /// Words per hex.
    words: usize,
    /// By hex index ([`map::Map::hex_ids`]), `words` words: bit `t` for tile index `t`
    /// ([`map::Map::tile_list`]).
    bits: Vec<u64>,
}

impl HexTiles {
    fn new(m: &map::Map) -> Self {
        let tiles = m.tile_list.len();
        let words = tiles.div_ceil(64);
        let mut bits = vec![0u64; words * m.hex_list.len()];
        let mut reached = vec![false; tiles];
        let mut frontier = Vec::new();
        for (h, hex) in m.hex_list.iter().enumerate() {
            reached.fill(false);
            frontier.clear();
            frontier.extend(hex.first_tiles.iter().filter_map(|t| m.tile_lookup.get(t)));
            while let Some(t) = frontier.pop() {
                if !std::mem::replace(&mut reached[t], true) {
                    let row = &mut bits[h * words..(h + 1) * words];
                    row[t / 64] |= 1 << (t % 64);
                    frontier.extend(
                        m.tile_list[t]
                            .upgrades_to
                            .iter()
                            .filter_map(|u| m.tile_lookup.get(u)),
                    );
                }
            }
        }
        Self { words, bits }
    }

    /// Whether tile index `tile` may stand on hex index `hex`.
    fn fits(&self, hex: usize, tile: usize) -> bool {
        self.bits
            .get(hex * self.words + tile / 64)
            .is_some_and(|w| w & (1 << (tile % 64)) != 0)
    }
}

/// [`HexTiles`] of `m` (one of the three rulesets' maps), computed on first use.
fn hex_tiles(m: &map::Map) -> &'static HexTiles {
    static V2: OnceLock<HexTiles> = OnceLock::new();
    static V1: OnceLock<HexTiles> = OnceLock::new();
    static LITE: OnceLock<HexTiles> = OnceLock::new();
    let cell = match m.ruleset {
        "v1" => &V1,
        "lite" => &LITE,
        _ => &V2,
    };
    debug_assert!(matches!(m.ruleset, "v1" | "lite" | "v2"));
    cell.get_or_init(|| HexTiles::new(m))
}

/// Tiles, trains and tokens on the map (1841 §9, §10): tiles exist, fit their hex (a legal
/// first tile or an upgrade chain of one) within the manifest counts, rotations 0–5; train ids
/// `<type>-<n>` below the depot's sales, each in one place; tokens on existing cities, never
/// more than the slots.
pub(super) fn check_operations<'a>(state: &'a State) -> Result<(), StateError> {
    let m = map::map(&state.options);
    let ops = &state.operations;
    let rules = data::ruleset(&state.options);
    let fits = hex_tiles(m);
    // Copies laid, by tile index (`Map::tile_list` order: tile-number order).
    let mut counts = vec![0u32; m.tile_list.len()];
    for (hex, p) in &ops.tiles {
        let path = || format!("operations.tiles.{hex}");
        let Some(h) = m.hex_index(hex) else {
            return Err(err(path(), "no such hex"));
        };
        let Some(t) = m.tile_lookup.get(&p.tile) else {
            return Err(err(path(), "no such tile"));
        };
        if p.rotation > 5 {
            return Err(err(path(), "rotation must be 0–5"));
        }
        // Reachable from a first tile through upgrades.
        if !fits.fits(h, t) {
            return Err(err(path(), "tile does not fit this hex"));
        }
        counts[t] += 1;
    }
    for (t, &n) in counts.iter().enumerate() {
        if n > m.tile_manifest.get(t).copied().unwrap_or(0) {
            return Err(err(
                "operations.tiles",
                format!("more copies of {} than exist", m.tile_list[t].id),
            ));
        }
    }
    let mut ids: BTreeSet<&str> = BTreeSet::new();
    let mut check_id = |path: &dyn Fn() -> String, id: &'a str| -> Result<(), StateError> {
        let (t, n) = id
            .split_once('-')
            .ok_or_else(|| err(path(), "train id must be <type>-<n>"))?;
        let n: u32 = n
            .parse()
            .map_err(|_| err(path(), "train id must be <type>-<n>"))?;
        if rules.train(t).is_none() || n >= ops.depot_sold.get(t).copied().unwrap_or(0) {
            return Err(err(path(), "train not sold by the depot"));
        }
        if !ids.insert(id) {
            return Err(err(path(), "train listed twice"));
        }
        Ok(())
    };
    for (t, n) in &ops.depot_sold {
        if rules.train(t).is_none_or(|d| *n > d.count) {
            return Err(err(
                format!("operations.depot_sold.{t}"),
                "unknown type or more than exist",
            ));
        }
    }
    for (sym, list) in &ops.trains {
        let Some(c) = state.corporation(sym) else {
            return Err(err(
                format!("operations.trains.{sym}"),
                "no such corporation",
            ));
        };
        if !c.started() && !list.is_empty() {
            return Err(err(format!("operations.trains.{sym}"), "not started"));
        }
        // At most the largest limit (4); a merger may briefly hold both corporations' trains
        // until the excess is discarded (1841 §9.6, §12.1).
        if list.len() > 8 {
            return Err(err(format!("operations.trains.{sym}"), "too many trains"));
        }
        for (i, id) in list.iter().enumerate() {
            check_id(&|| format!("operations.trains.{sym}[{i}]"), id)?;
        }
    }
    for (i, id) in ops.pool_trains.iter().enumerate() {
        check_id(&|| format!("operations.pool_trains[{i}]"), id)?;
    }
    for (i, id) in ops.rusted.iter().enumerate() {
        check_id(&|| format!("operations.rusted[{i}]"), id)?;
    }
    let sold: u32 = ops.depot_sold.values().sum();
    if ids.len() != sold as usize {
        return Err(err(
            "operations",
            "every train sold must be owned, pooled or rusted",
        ));
    }
    for (ci, c) in state.corporations.iter().enumerate() {
        for (ti, t) in c.tokens.iter().enumerate() {
            let path = || format!("corporations[{ci}].tokens[{ti}]");
            let Some(v) = track::hex_view(state, &t.hex) else {
                return Err(err(path(), "no such hex"));
            };
            let Some(node) = track::city_node(v.nodes, t.city) else {
                return Err(err(path(), "no such city"));
            };
            if track::token_count_at(state, &t.hex, t.city) as u32 > v.nodes[node].slots {
                return Err(err(path(), "more tokens than slots"));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::g1841::validate::tests::fresh;

    /// 1841 §9.1, §9.6: operating material is checked — a tile that does not fit its hex, a
    /// train the depot never sold, a train in two places.
    #[test]
    fn s9_operations_are_checked() {
        use crate::g1841::state::PlacedTile;
        let mut s = fresh();
        s.operations.tiles.insert(
            "F16".into(),
            PlacedTile {
                tile: "9".into(),
                rotation: 0,
            },
        );
        assert_eq!(validate(&s).unwrap_err().path, "operations.tiles.F16");
        s.operations.tiles.insert(
            "F16".into(),
            PlacedTile {
                tile: "601".into(),
                rotation: 0,
            },
        );
        assert_eq!(validate(&s), Ok(()));
        s.operations.pool_trains.push("2-0".into());
        assert_eq!(validate(&s).unwrap_err().path, "operations.pool_trains[0]");
        s.operations.depot_sold.insert("2".into(), 1);
        assert_eq!(validate(&s), Ok(()));
        s.operations.rusted.push("2-0".into());
        assert_eq!(validate(&s).unwrap_err().path, "operations.rusted[0]");
    }

    /// The walk of the upgrade chains that `HexTiles` replaces: the tiles reachable from the
    /// hex's first tiles.
    fn fits_by_walking(m: &map::Map, hex: &str, tile: &str) -> bool {
        let mut frontier: Vec<&str> = m.hexes[hex]
            .first_tiles
            .iter()
            .map(String::as_str)
            .collect();
        let mut reached = BTreeSet::new();
        while let Some(t) = frontier.pop() {
            if reached.insert(t)
                && let Some(tile) = m.tiles.get(t)
            {
                frontier.extend(tile.upgrades_to.iter().map(String::as_str));
            }
        }
        reached.contains(tile)
    }

    #[test]
    fn s9_1_hex_tiles_agree_with_the_upgrade_chains_on_every_map() {
        let options = crate::g1841::options::each_ruleset();
        for o in options {
            let m = map::map(&o);
            let fits = hex_tiles(m);
            let mut fitting = 0;
            for (h, hex) in m.hex_ids.iter().enumerate() {
                for (t, tile) in m.tile_list.iter().enumerate() {
                    let walked = fits_by_walking(m, hex, &tile.id);
                    assert_eq!(fits.fits(h, t), walked, "{} {hex} {}", m.ruleset, tile.id);
                    fitting += usize::from(walked);
                }
            }
            assert!(fitting > 100, "{}: {fitting}", m.ruleset);
            assert!(!fits.fits(m.hex_ids.len(), 0));
        }
    }

    #[test]
    fn s9_1_laid_tiles_are_checked_against_hex_and_manifest() {
        use crate::g1841::state::PlacedTile;
        let lay = |s: &mut State, hex: &str, tile: &str, rotation| {
            s.operations.tiles.insert(
                hex.into(),
                PlacedTile {
                    tile: tile.into(),
                    rotation,
                },
            );
        };
        let mut s = fresh();
        lay(&mut s, "Z99", "601", 0);
        let e = validate(&s).unwrap_err();
        assert_eq!(
            (e.path.as_str(), e.message.as_str()),
            ("operations.tiles.Z99", "no such hex")
        );
        let mut s = fresh();
        lay(&mut s, "F16", "99999", 0);
        assert_eq!(validate(&s).unwrap_err().message, "no such tile");
        let mut s = fresh();
        lay(&mut s, "F16", "601", 6);
        assert_eq!(validate(&s).unwrap_err().message, "rotation must be 0–5");
        let mut s = fresh();
        lay(&mut s, "F16", "9", 0);
        assert_eq!(
            validate(&s).unwrap_err().message,
            "tile does not fit this hex"
        );
        // More copies of a tile than the manifest has: the first such tile in tile order.
        let m = map::map(&s.options);
        let (tile, hexes) = m
            .tile_list
            .iter()
            .find_map(|t| {
                let hexes: Vec<&String> = m
                    .hex_ids
                    .iter()
                    .filter(|h| m.hexes[*h].first_tiles.contains(&t.id))
                    .collect();
                (hexes.len() > m.tile_count(&t.id) as usize).then(|| (t.id.clone(), hexes))
            })
            .expect("a first tile with fewer copies than hexes");
        let copies = m.tile_count(&tile);
        let mut s = fresh();
        for h in &hexes[..=copies as usize] {
            lay(&mut s, h, &tile, 0);
        }
        let e = validate(&s).unwrap_err();
        assert_eq!(
            (e.path.as_str(), e.message),
            (
                "operations.tiles",
                format!("more copies of {tile} than exist")
            )
        );
    }
}
