//! Steps 5–6 of a merger, the tokens (1841 §12.1, §12.3): the old map tokens become the new
//! corporation's, the choice on a two-city tile (yellow Torino H4, yellow Firenze), the token
//! count (FAQ-C19) and the tokens its president removes; SFLi keeps Pisa and Firenze, a frozen
//! SFLi removes automatically (FAQ-R4).

use super::tuscan::is_tuscan_first_step;
use super::*;

/// Steps 5–6 (tokens): the old map tokens become the new corporation's; a second one in the
/// same city is destroyed (the second corporation's, as 18xx.games' `merger_tokens_start`);
/// a second one in the other city of the same tile stays until the choice of stage
/// `TwoCityTile` (1841 §12.1), kept in `m.two_city`. Each such hex costs one token, once
/// (FAQ-C19; 18xx.games counts the two-city one twice, divergence
/// `merger-two-city-tile-duplicate-counted-twice`). Then the count N and the removal bounds,
/// as if the two-city choices were made (each leaves one token in its hex).
/// Tokens the Tuscan merge's holding owns after its first step (1841 §12.3: "up to 4 tokens";
/// 18xx `merger_tokens_finish`).
const HOLDING_TOKENS: u32 = 4;

pub(super) fn transfer_tokens(state: &mut State, m: &mut Merger, events: &mut Vec<Event>) {
    let target = m.target.clone();
    let mut list: Vec<MapToken> = Vec::new();
    let mut two_city: Vec<MapToken> = Vec::new();
    let mut owned = 0u32;
    let mut charter = 0u32;
    let mut destroyed = 0u32;
    for old in [&m.initiator, &m.partner] {
        let Some(c) = state.corporation(old).cloned() else {
            continue;
        };
        owned += c.tokens_total;
        charter += c.tokens_total.saturating_sub(c.tokens.len() as u32);
        for t in &c.tokens {
            if list.iter().any(|x| x.hex == t.hex && x.city == t.city) {
                destroyed += 1;
                events.push(Event::TokenRemoved {
                    corporation: old.clone(),
                    hex: t.hex.clone(),
                    city: t.city,
                });
            } else if list.iter().any(|x| x.hex == t.hex) {
                // The other city of the same tile: one of the two goes, chosen later.
                destroyed += 1;
                if !two_city.iter().any(|x| x.hex == t.hex) {
                    two_city.push(t.clone());
                }
                list.push(t.clone());
            } else {
                list.push(t.clone());
            }
        }
        if let Some(c) = corp_mut(state, old) {
            c.tokens.clear();
        }
    }
    let rules = data::ruleset(&state.options);
    let max = rules.token_counts.major_max;
    let first_step = is_tuscan_first_step(m);
    let n = if m.tuscan {
        max
    } else if first_step {
        HOLDING_TOKENS
    } else {
        owned.saturating_sub(destroyed).clamp(2, max)
    };
    // Map tokens once every two-city choice is made.
    let on_map = (list.len() - two_city.len()) as u32;
    let min_removal = on_map.saturating_sub(n);
    let max_removal = if first_step {
        // 1841 §12.3: the holding simply keeps the map tokens (18xx `merger_tokens_finish`:
        // "just replace tokens and bring total to four").
        0
    } else if m.tuscan {
        // 1841 §12.3: SFLi keeps Pisa and Firenze and "the president decides which other
        // tokens stay on the map (the rest go to the charter)": any of them may go (18xx
        // `merger_tokens_finish`: at most every token outside Pisa and Firenze, at least
        // those beyond 5).
        let protected = rules.city_set("TUSCAN_TOKEN_HEXES");
        let in_protected = |t: &&MapToken| protected.contains(&t.hex);
        let kept =
            list.iter().filter(in_protected).count() - two_city.iter().filter(in_protected).count();
        on_map.saturating_sub(kept as u32).max(min_removal)
    } else {
        let keep_at_least = n.saturating_sub(charter).max(1);
        on_map.saturating_sub(keep_at_least).max(min_removal)
    };
    m.token_count = n;
    m.tokens_min_removal = min_removal;
    m.tokens_max_removal = max_removal;
    // 18xx's `@merger_decider`: the initiator's player when the merger began; in either
    // step of the Tuscan merge its decider, set when the step began ([`tuscan_merger`]).
    // The initiator is still in place here.
    if !(m.tuscan || first_step) || m.decider.is_none() {
        m.decider = m
            .moved
            .as_ref()
            .and_then(|x| x.decider)
            .or_else(|| controller(state, &m.initiator));
    }
    m.two_city = two_city;
    if let Some(c) = corp_mut(state, &target) {
        c.tokens_total = n.max(list.len() as u32);
        c.tokens = list;
    }
}

/// The seat choosing on a two-city tile (1841 §12.1: "the new president, or the initiator's
/// president if there is none"; 18xx.games: the new corporation when a player controls it,
/// else `@merger_decider`).
pub(super) fn two_city_chooser(state: &State, m: &Merger) -> Option<Seat> {
    controller(state, &m.target).or(m.decider)
}

/// Whether `t` is the corporation's only base (of `bases`, [`track::bases`]): 18xx's
/// `RemoveTokens` keeps the last non-pass token ("Cannot remove last non-pass token").
fn is_last_base(bases: &[(String, usize, u32)], t: &MapToken) -> bool {
    bases.len() <= 1
        && bases
            .iter()
            .any(|(h, _, city)| *h == t.hex && *city == t.city)
}

/// The new corporation's tokens in `hex` that may be removed in stage `TwoCityTile`: both
/// cities' tokens, except the last non-pass token (18xx `RemoveTokens`: "Cannot remove last
/// non-pass token").
pub(super) fn two_city_choices(state: &State, m: &Merger, hex: &str) -> Vec<MapToken> {
    let Some(c) = state.corporation(&m.target) else {
        return Vec::new();
    };
    let bases = track::bases(state, &m.target);
    c.tokens
        .iter()
        .filter(|t| t.hex == hex)
        .filter(|t| !is_last_base(&bases, t))
        .cloned()
        .collect()
}

/// Removes the new corporation's token in city `city` of `hex` (a two-city choice, or one
/// of [`remove_token`]'s).
pub(super) fn drop_target_token(
    state: &mut State,
    m: &Merger,
    hex: &str,
    city: u32,
    events: &mut Vec<Event>,
) {
    if let Some(c) = corp_mut(state, &m.target)
        && let Some(i) = c.tokens.iter().position(|t| t.hex == hex && t.city == city)
    {
        c.tokens.remove(i);
        events.push(Event::TokenRemoved {
            corporation: m.target.clone(),
            hex: hex.to_string(),
            city,
        });
    }
}

/// The two-city choices nobody makes (no chooser; the first, automatic step of the Tuscan
/// merge): the second corporation's token goes, as this engine did before it asked.
pub(super) fn auto_two_city(state: &mut State, m: &mut Merger, events: &mut Vec<Event>) {
    for t in std::mem::take(&mut m.two_city) {
        if let Some(c) = corp_mut(state, &m.target)
            && let Some(i) = c.tokens.iter().position(|x| *x == t)
        {
            c.tokens.remove(i);
            events.push(Event::TokenRemoved {
                corporation: m.partner.clone(),
                hex: t.hex.clone(),
                city: t.city,
            });
        }
    }
}

/// The seat removing tokens: the new president's controller, else the initiator's
/// (1841 §12.1); `None` → automatic (frozen SFLi, §12.3).
pub(super) fn token_decider(state: &State, m: &Merger) -> Option<Seat> {
    if m.tuscan {
        return controller(state, &m.target);
    }
    controller(state, &m.target).or_else(|| controller(state, &m.initiator))
}

/// Map tokens of the new corporation that may be removed now: not in Pisa/Firenze for SFLi
/// (1841 §12.3), never the last non-pass token.
pub(super) fn removable(state: &State, m: &Merger) -> Vec<MapToken> {
    if m.tokens_max_removal == 0 {
        return Vec::new();
    }
    let Some(c) = state.corporation(&m.target) else {
        return Vec::new();
    };
    let protected = if m.tuscan {
        data::ruleset(&state.options)
            .city_set("TUSCAN_TOKEN_HEXES")
            .to_vec()
    } else {
        Vec::new()
    };
    let bases = track::bases(state, &m.target);
    c.tokens
        .iter()
        .filter(|t| !protected.contains(&t.hex))
        .filter(|t| !is_last_base(&bases, t))
        .cloned()
        .collect()
}

pub(super) fn remove_token(
    state: &mut State,
    m: &mut Merger,
    hex: &str,
    city: u32,
    events: &mut Vec<Event>,
) {
    drop_target_token(state, m, hex, city, events);
    m.tokens_min_removal = m.tokens_min_removal.saturating_sub(1);
    m.tokens_max_removal = m.tokens_max_removal.saturating_sub(1);
}

/// Automatic token removal of a frozen SFLi (1841 §12.3, FAQ-R4): only Pisa and Firenze stay
/// (or, with neither, the alphabetically first non-pass city).
pub(super) fn auto_tokens(state: &mut State, m: &mut Merger, events: &mut Vec<Event>) {
    let protected = data::ruleset(&state.options)
        .city_set("TUSCAN_TOKEN_HEXES")
        .to_vec();
    let Some(c) = state.corporation(&m.target).cloned() else {
        return;
    };
    let mut keep: Vec<MapToken> = c
        .tokens
        .iter()
        .filter(|t| protected.contains(&t.hex))
        .cloned()
        .collect();
    if keep.is_empty() {
        let mut bases: Vec<(String, usize, u32)> = track::bases(state, &m.target);
        bases.sort();
        if let Some((h, _, city)) = bases.first() {
            keep.push(MapToken {
                hex: h.clone(),
                city: *city,
            });
        }
    }
    for t in &c.tokens {
        if !keep.contains(t) {
            events.push(Event::TokenRemoved {
                corporation: m.target.clone(),
                hex: t.hex.clone(),
                city: t.city,
            });
        }
    }
    if let Some(c) = corp_mut(state, &m.target) {
        c.tokens = keep;
    }
    m.tokens_max_removal = 0;
    m.tokens_min_removal = 0;
}
