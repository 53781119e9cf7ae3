//! Checks of the concession round (1841 §4): its progress (concessions left, the first
//! phase) and the auction being bid on (§4.1, FAQ-C1: two bidders at least, the seat to act
//! after the high bidder, a high bid its bidder can pay). The sealed bids of Version 1 (§4.2)
//! are checked with the round in [`validate`].

use super::*;

/// The concession round is the game's first round (1841 §4): it goes on while a concession
/// is for sale — it ends when the last one is sold or goes to the bank (§4.1 step 4, §4.2
/// step 3, §4.3), so `remaining` is never empty in it — and no train can have been bought
/// before it, so the game is in its first phase (§10: phase 2). (Review of issue #24,
/// finding E: both were accepted.)
pub(super) fn check_concession_round_progress(
    state: &State,
    cr: &crate::g1841::state::ConcessionRound,
) -> Result<(), StateError> {
    if cr.remaining.is_empty() {
        return Err(err(
            "concession_round.remaining",
            "empty: the concession round ends when no concession is left for sale (1841 §4.3)",
        ));
    }
    let first = data::ruleset(&state.options)
        .phases
        .first()
        .map(|p| p.name.as_str());
    if first.is_some_and(|f| f != state.phase) {
        return Err(err(
            "phase",
            format!(
                "phase `{}` in the concession round: the game begins in phase `{}` and no train \
                 is bought before the first stock round (1841 §4, §10)",
                state.phase,
                first.unwrap_or_default()
            ),
        ));
    }
    Ok(())
}

/// The auction being bid on now (1841 §4.1, FAQ-C1): at least two bidders (with one left
/// the auction is decided at once), and the seat to act is the bidder after the high bidder
/// — never the high bidder itself, who cannot raise its own bid. Such states passed before
/// issue #24.
pub(super) fn check_open_auction(path: &str, a: &Auction) -> Result<(), StateError> {
    if a.bidders.len() < 2 {
        return Err(err(
            format!("{path}.bidders"),
            "an open auction has at least two bidders (with one left it is decided)",
        ));
    }
    let after_high = a
        .bidders
        .iter()
        .position(|s| *s == a.high_bidder)
        .map(|i| a.bidders[(i + 1) % a.bidders.len()]);
    if after_high != Some(a.to_act) {
        return Err(err(
            format!("{path}.to_act"),
            format!(
                "must be the bidder after the high bidder (seat {}), not seat {}",
                a.high_bidder, a.to_act
            ),
        ));
    }
    Ok(())
}

pub(super) fn check_auction(
    path: &str,
    a: &Auction,
    state: &State,
    remaining: &[crate::g1841::Concession],
) -> Result<(), StateError> {
    let n = state.players.len() as u32;
    if !remaining.contains(&a.concession) {
        return Err(err(
            format!("{path}.concession"),
            format!("{} is not for sale", a.concession),
        ));
    }
    if a.bidders.is_empty() {
        return Err(err(
            format!("{path}.bidders"),
            "an auction has at least one bidder",
        ));
    }
    let mut distinct = BTreeSet::new();
    for (i, &s) in a.bidders.iter().enumerate() {
        if s >= n || !distinct.insert(s) {
            return Err(err(
                format!("{path}.bidders[{i}]"),
                "not a seat at the table, or listed twice",
            ));
        }
    }
    for (field, s) in [
        ("nominator", a.nominator),
        ("high_bidder", a.high_bidder),
        ("to_act", a.to_act),
    ] {
        if s >= n {
            return Err(err(format!("{path}.{field}"), "not a seat at the table"));
        }
    }
    if !a.bidders.contains(&a.to_act) {
        return Err(err(format!("{path}.to_act"), "must be one of the bidders"));
    }
    if !a.bidders.contains(&a.high_bidder) {
        return Err(err(
            format!("{path}.high_bidder"),
            "must be one of the bidders",
        ));
    }
    if a.high_bid < 0 {
        return Err(err(format!("{path}.high_bid"), "must not be negative"));
    }
    // The standing high bid is a commitment its bidder can pay (1841 §4.1: a bid never
    // exceeds the bidder's cash).
    let cash = state
        .players
        .get(a.high_bidder as usize)
        .map_or(0, |p| p.cash);
    if a.high_bid > cash {
        return Err(err(
            format!("{path}.high_bid"),
            format!(
                "L.{} exceeds the high bidder's cash of L.{cash} (1841 §4.1)",
                a.high_bid
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Game;
    use crate::g1841::validate::tests::fresh;
    use crate::g1841::{G1841, Options};

    /// 1841 §4.1 (issue #24): in the open auction the bidder after the high bidder acts, never
    /// the high bidder itself; an auction with one bidder left is decided, not open.
    #[test]
    fn s4_1_the_high_bidder_is_not_the_one_to_act() {
        let mut s = fresh();
        <G1841 as crate::Game>::apply(
            &mut s,
            0,
            &crate::g1841::Action::Bid {
                concession: "SFTG".into(),
                price: 20,
            },
        )
        .unwrap();
        assert_eq!(validate(&s), Ok(()));
        let mut high_acts = s.clone();
        if let Round::ConcessionRound(cr) = &mut high_acts.round {
            let a = cr.auction.as_mut().unwrap();
            assert_ne!(a.to_act, a.high_bidder);
            a.to_act = a.high_bidder;
        }
        let e = validate(&high_acts).unwrap_err();
        assert_eq!(e.path, "concession_round.auction.to_act");
        assert!(e.message.contains("after the high bidder"), "{}", e.message);
        let mut lone = s.clone();
        if let Round::ConcessionRound(cr) = &mut lone.round {
            let a = cr.auction.as_mut().unwrap();
            a.bidders = vec![a.high_bidder];
            a.to_act = a.high_bidder;
        }
        assert_eq!(
            validate(&lone).unwrap_err().path,
            "concession_round.auction.bidders"
        );
    }

    /// 1841 §4.3, §10 (review of issue #24, finding E): a concession round with nothing left
    /// for sale has ended, and no phase but the first is possible in it.
    #[test]
    fn s4_3_a_concession_round_has_concessions_left_and_is_in_the_first_phase() {
        let s = fresh();
        assert!(matches!(s.round, Round::ConcessionRound(_)));
        assert_eq!(s.phase, "2");
        let mut empty = s.clone();
        if let Round::ConcessionRound(cr) = &mut empty.round {
            // The concessions go to the bank, as at the end of the round: still conserved.
            empty.bank_concessions.append(&mut cr.remaining);
            empty.bank_concessions.sort();
        }
        let e = validate(&empty).unwrap_err();
        assert_eq!(e.path, "concession_round.remaining");
        assert!(e.message.contains("1841 §4.3"), "{}", e.message);
        for phase in ["3", "8"] {
            let mut later = s.clone();
            later.phase = phase.into();
            let e = validate(&later).unwrap_err();
            assert_eq!(e.path, "phase", "{phase}");
            assert!(
                e.message
                    .contains(&format!("phase `{phase}` in the concession round")),
                "{}",
                e.message
            );
        }
        // Version 1 (sealed bids) alike.
        let o = Options {
            version_1: true,
            ..Options::default()
        };
        let mut v1 = G1841::setup(&o, 4, 0).unwrap();
        assert_eq!(validate(&v1), Ok(()));
        v1.phase = "8".into();
        assert_eq!(validate(&v1).unwrap_err().path, "phase");
    }

    /// 1841 §4.1: a standing high bid its bidder cannot pay is refused (it would make a later
    /// purchase drive his cash negative).
    #[test]
    fn s4_1_high_bid_within_the_high_bidders_cash() {
        let mut s = fresh();
        <G1841 as crate::Game>::apply(
            &mut s,
            0,
            &crate::g1841::Action::Bid {
                concession: "SFTG".into(),
                price: 20,
            },
        )
        .unwrap();
        assert_eq!(validate(&s), Ok(()));
        if let Round::ConcessionRound(cr) = &mut s.round {
            cr.auction.as_mut().unwrap().high_bid = 5000;
        }
        let e = validate(&s).unwrap_err();
        assert_eq!(e.path, "concession_round.auction.high_bid");
        assert!(e.message.contains("L.840"), "{}", e.message);
    }
}
