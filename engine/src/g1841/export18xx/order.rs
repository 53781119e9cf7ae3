//! Records put in 18xx.games' order once written: Version 1 sealed bids in player order (1841
//! §4.2), a merger's corporation named before its price, and the pass-2 answers of a merger
//! in holder order (§12.1).

use std::collections::BTreeSet;

use serde_json::Value;

use super::top_level::player_id_json;
use crate::g1841::action::Action;
use crate::g1841::import18xx::ExportPlayer;
use crate::g1841::state::{CorporateEvent, MergerStage, Round, State};

/// Version 1 sealed bids (1841 §4.2) in player order, as 18xx.games asks for them: each run of
/// consecutive `blind_bid` records is cut where a player bids again (the next bidding) and
/// each part sorted by seat; the ids keep their places.
pub(super) fn in_player_order(out: &mut [Value], players: &[ExportPlayer]) {
    let seat = |a: &Value| {
        players
            .iter()
            .position(|p| player_id_json(&p.id) == a["entity"])
            .unwrap_or(usize::MAX)
    };
    let mut i = 0;
    while i < out.len() {
        if out[i]["type"] != "blind_bid" {
            i += 1;
            continue;
        }
        let mut j = i;
        let mut seen = BTreeSet::new();
        while j < out.len() && out[j]["type"] == "blind_bid" && seen.insert(seat(&out[j])) {
            j += 1;
        }
        let ids: Vec<Value> = out[i..j].iter().map(|a| a["id"].clone()).collect();
        out[i..j].sort_by_key(|a| seat(a));
        for (a, id) in out[i..j].iter_mut().zip(ids) {
            a["id"] = id;
        }
        i = j;
    }
}

/// A merger of two majors both above L.250 (1841 §12.1) in 18xx.games' order: the new
/// corporation is named (`merge`) before the price is chosen (`choose "first"|"last"`), where
/// this engine asks the price first ([`MergerStage::Price`] before
/// [`MergerStage::Corporation`]). 18xx's `Step::Merge#process_merge` calls `merger_start`
/// with the corporation to form, which only then asks for the price when `merger_values`
/// gives two (`pending_options` type `:price`) before `merger_exchange_start`. Each price
/// `choose` directly followed by a `merge` is swapped with it; the ids keep their places.
/// The importer swaps them back ([`crate::g1841::import18xx`]).
pub(super) fn merger_price_after_form(out: &mut [Value]) {
    let is_price =
        |a: &Value| a["type"] == "choose" && matches!(a["choice"].as_str(), Some("first" | "last"));
    let mut i = 0;
    while i + 1 < out.len() {
        if is_price(&out[i]) && out[i + 1]["type"] == "merge" {
            let (a, b) = (out[i]["id"].clone(), out[i + 1]["id"].clone());
            out.swap(i, i + 1);
            out[i]["id"] = a;
            out[i + 1]["id"] = b;
            i += 2;
        } else {
            i += 1;
        }
    }
}

/// The temporary field that marks a merger's pass-2 record (a presidency claimed with an odd
/// share, or an odd share's answer) with its holder's place in the exchange order, until
/// [`pass_2_claim_in_holder_order`] has put the claims in their place.
pub(super) const PASS_2_TAG: &str = "_referee_pass_2";
/// Marks a pass-2 `full` that settles the presidency (written in the presidency stage).
pub(super) const PASS_2_PRES_TAG: &str = "_referee_pass_2_pres";

/// The holder's place in the merger's exchange order when `action` is a pass-2 answer in
/// `pre` (1841 §12.1): a presidency claimed in the sweep over single old shares
/// ([`MergerStage::Presidency`] past the pairs), or an odd share's answer
/// ([`MergerStage::OddShares`]).
pub(super) fn pass_2_position(pre: &State, action: &Action) -> Option<u64> {
    let Round::OperatingRound(r) = &pre.round else {
        return None;
    };
    let Some(CorporateEvent::Merger(m)) = r.event.as_deref() else {
        return None;
    };
    let (next, len) = (m.next as usize, m.holders.len());
    match (m.stage, action) {
        (
            MergerStage::Presidency,
            Action::ClaimPresidency { claim: true } | Action::ExchangeOddShare { .. },
        ) if next >= len => u64::try_from(next - len).ok(),
        (MergerStage::OddShares, Action::ExchangeOddShare { .. }) => u64::try_from(next).ok(),
        _ => None,
    }
}

/// The holder's place in the merger's exchange order while `pre` is in the presidency stage's
/// sweep over odd shares (1841 §12.1 pass 2).
pub(super) fn sweep_place(pre: &State) -> Option<u64> {
    let Round::OperatingRound(r) = &pre.round else {
        return None;
    };
    let Some(CorporateEvent::Merger(m)) = r.event.as_deref() else {
        return None;
    };
    let (next, len) = (m.next as usize, m.holders.len());
    (m.stage == MergerStage::Presidency && next >= len)
        .then(|| u64::try_from(next - len).ok())
        .flatten()
}

/// Whether `action` in `pre` is a full share answered in the presidency stage's sweep over
/// odd shares: a holder of 30% whose 20% will make him president (1841 §12.1, R4), placed
/// like a claim by [`pass_2_claim_in_holder_order`] (not an odd share of stage `OddShares`).
pub(super) fn pass_2_full_president(pre: &State, action: &Action) -> bool {
    let Round::OperatingRound(r) = &pre.round else {
        return false;
    };
    matches!(r.event.as_deref(), Some(CorporateEvent::Merger(m))
        if m.stage == MergerStage::Presidency)
        && matches!(action, Action::ExchangeOddShare { .. })
}

/// A merger's pass 2 in 18xx.games' order (1841 §12.1 pass 2: each holder of an odd share in
/// turn sells it, pays for a full share, or, while nobody presides, pays for the president's
/// certificate; 18xx `merger_next_exchange` in `:exchange_pass2`, one question per holder in
/// the exchange order): this engine asks the claims and declines of the holders of odd shares
/// first (the presidency stage's sweep) and their odd shares after the exchange of pairs, so
/// each run of pass-2 records (tagged with the holder's place) is put in holder order, the
/// ids keeping their places. The importer plays such answers at the odd shares
/// ([`crate::g1841::import18xx`]). Version 1, 6 players, random, seed 6011, id 433: player 6
/// claimed ATFA's presidency before player 2's odd share, which 18xx asks first; Version 1 + SFLi,
/// 3 players, seed 3011, ids 264–265: SFTG (30%, a full share open) declined in the sweep
/// before CTDA's odd share, which 18xx asks first.
pub(super) fn pass_2_claim_in_holder_order(out: &mut [Value]) {
    let position = |a: &Value| a.get(PASS_2_TAG).and_then(Value::as_u64);
    let mut i = 0;
    while i < out.len() {
        if position(&out[i]).is_none() {
            i += 1;
            continue;
        }
        let mut j = i + 1;
        while j < out.len() && position(&out[j]).is_some() {
            j += 1;
        }
        if j > i + 1 {
            let ids: Vec<Value> = out[i..j].iter().map(|a| a["id"].clone()).collect();
            out[i..j].sort_by_key(|a| position(a));
            for (a, id) in out[i..j].iter_mut().zip(ids) {
                a["id"] = id;
            }
        }
        i = j;
    }
    for a in out.iter_mut() {
        if let Some(obj) = a.as_object_mut() {
            obj.remove(PASS_2_TAG);
            obj.remove(PASS_2_PRES_TAG);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// 1841 §12.1 pass 2 in 18xx.games' order (version_1, 6 players, random, seed 6011, ids
    /// 433–435): this engine's claim by the holder at place 5 comes before the odd shares of
    /// the holders at places 3 and 6; the export puts it after place 3's answer and before
    /// place 6's, the ids staying where they were, and drops the marks.
    #[test]
    fn a_claim_with_an_odd_share_follows_the_odd_shares_before_it() {
        let rec = |id: i64, choice: &str, place: Option<u64>| {
            let mut a = json!({"type": "choose", "id": id, "choice": choice});
            if let Some(p) = place {
                a[PASS_2_TAG] = json!(p);
            }
            a
        };
        let mut out = vec![
            rec(432, "no", None),
            rec(433, "pres", Some(5)),
            rec(434, "cash", Some(3)),
            rec(435, "full", Some(6)),
        ];
        pass_2_claim_in_holder_order(&mut out);
        assert_eq!(
            out,
            vec![
                json!({"type": "choose", "id": 432, "choice": "no"}),
                json!({"type": "choose", "id": 433, "choice": "cash"}),
                json!({"type": "choose", "id": 434, "choice": "pres"}),
                json!({"type": "choose", "id": 435, "choice": "full"}),
            ]
        );
    }
}
