//! Checks of the corporations (1841 §3.3, §3.4, §6, §7.1): the roster of the ruleset,
//! certificates of the right sizes held by existing holders (a corporation holder another
//! corporation of these rules), unstarted corporations untouched, started ones on a market
//! cell.

use super::*;

/// The corporations: exactly the roster of the ruleset (1841 §3.3, §3.4), certificates of the
/// right sizes held by existing holders, unstarted corporations untouched, started ones on a
/// market cell (1841 §6).
pub(super) fn check_corporations(state: &State) -> Result<(), StateError> {
    let roster = crate::g1841::corporation::roster(&state.options);
    if state.corporations.len() != roster.len() {
        return Err(err(
            "corporations",
            format!(
                "{} corporations; these rules have {}",
                state.corporations.len(),
                roster.len()
            ),
        ));
    }
    let n = state.players.len() as u32;
    // A corporation of these rules: a roster symbol (found by its index, not a set built here).
    let is_roster =
        |sym: &str| crate::g1841::corporation::roster_index(&state.options, sym).is_some();
    for (i, (c, fresh)) in state.corporations.iter().zip(roster).enumerate() {
        // Field paths are built only for an error.
        let path = |field: &str| format!("corporations[{i}]{field}");
        if c.sym != fresh.sym || c.kind != fresh.kind || c.historical != fresh.historical {
            return Err(err(
                path(".sym"),
                format!("must be {} ({:?})", fresh.sym, fresh.kind),
            ));
        }
        if c.certificates.len() != fresh.certificates.len() {
            return Err(err(
                path(".certificates"),
                format!("{} has {} certificates", c.sym, fresh.certificates.len()),
            ));
        }
        for (j, (cert, f)) in c.certificates.iter().zip(&fresh.certificates).enumerate() {
            let cpath = |field: &str| format!("corporations[{i}].certificates[{j}]{field}");
            if cert.percent != f.percent || cert.president != f.president {
                return Err(err(
                    cpath(""),
                    format!(
                        "must be a {}% {}certificate",
                        f.percent,
                        if f.president { "president's " } else { "" }
                    ),
                ));
            }
            match &cert.owner {
                ShareOwner::Player(s) if *s >= n => {
                    return Err(err(cpath(".owner"), "not a seat at the table"));
                }
                ShareOwner::Corporation(o) if !is_roster(o) || *o == c.sym => {
                    return Err(err(
                        cpath(".owner"),
                        "not another corporation of these rules",
                    ));
                }
                _ => {}
            }
        }
        if c.cash < 0 {
            return Err(err(path(".cash"), "must not be negative"));
        }
        if c.closed && (!c.historical || c.started()) {
            return Err(err(
                path(".closed"),
                "only an unstarted historical corporation is closed (1841 §11, §12)",
            ));
        }
        if c.ipo_first_share_ordinary && !c.closed {
            return Err(err(
                path(".ipo_first_share_ordinary"),
                "only a closed corporation has it (interpretation I35)",
            ));
        }
        match c.share_price {
            None => {
                if c.certificates.iter().any(|x| x.owner != ShareOwner::Ipo)
                    || c.cash != 0
                    || !c.tokens.is_empty()
                    || c.tokens_total != 0
                    || c.operated
                {
                    return Err(err(
                        path(".share_price"),
                        "an unstarted corporation has no holders, cash, tokens or history",
                    ));
                }
            }
            Some(p) => {
                if !market::exists(p.row, p.col) {
                    return Err(err(path(".share_price"), "not a cell of the stock market"));
                }
                if p.arrival >= state.next_market_arrival {
                    return Err(err(
                        path(".share_price.arrival"),
                        "must be below next_market_arrival",
                    ));
                }
                // 1841 §12.4: during the split's presidency choice the successors' president's
                // certificates wait in their IPOs.
                let choosing = matches!(
                    &state.round,
                    Round::OperatingRound(OperatingRound {
                        event: Some(ev),
                        ..
                    }) if matches!(&**ev, crate::g1841::state::CorporateEvent::Split(x) if x.stage
                        == crate::g1841::state::SplitStage::Presidency)
                        && data::ruleset(&state.options)
                            .ferdinandea_split
                            .successors
                            .contains(&c.sym)
                );
                // 1841 §12.1: a merger's new corporation has its assets before its president.
                let claiming = matches!(
                    &state.round,
                    Round::OperatingRound(OperatingRound {
                        event: Some(ev),
                        ..
                    }) if matches!(&**ev, crate::g1841::state::CorporateEvent::Merger(m)
                        if m.target == c.sym && m.moved.is_some())
                );
                // 1841 §12.3, FAQ-R4: an unclaimed SFLi's certificate waits in its IPO until
                // the odd shares are exchanged (a holder of 20% takes it, else the pool); so
                // does a merger's whose holder of 30% chose a full share for his odd one
                // (§12.1: the first holder of 20% presides, R4).
                let odd_shares = matches!(
                    &state.round,
                    Round::OperatingRound(OperatingRound {
                        event: Some(ev),
                        ..
                    }) if matches!(&**ev, crate::g1841::state::CorporateEvent::Merger(m)
                        if m.target == c.sym && m.president.is_none()
                            && (m.tuscan || m.pass2.iter().any(|(_, x)| {
                                *x == crate::g1841::action::OddShareChoice::FullShare
                            }))
                            && m.stage == crate::g1841::state::MergerStage::OddShares)
                );
                if c.president() == Some(&ShareOwner::Ipo) && !choosing && !claiming && !odd_shares
                {
                    return Err(err(
                        path(".certificates[0].owner"),
                        "a started corporation's president's certificate is not in its IPO",
                    ));
                }
            }
        }
        // 1841 §12.1: while the president removes the surplus after a merger the new
        // corporation may have both old corporations' map tokens (at most 10).
        let removing = matches!(
            &state.round,
            Round::OperatingRound(OperatingRound {
                event: Some(ev),
                ..
            }) if matches!(&**ev, crate::g1841::state::CorporateEvent::Merger(m) if m.target == c.sym)
        );
        let cap = if removing { 10 } else { 5 };
        if c.tokens.len() > c.tokens_total as usize || c.tokens_total > cap {
            return Err(err(
                path(".tokens_total"),
                "at least the tokens on the map and at most 5",
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::g1841::validate::tests::fresh;

    #[test]
    fn s7_1_a_corporation_holder_is_another_corporation_of_these_rules() {
        let s = fresh();
        let sym = s.corporations[1].sym.clone();
        for (owner, ok) in [
            (sym.clone(), true),
            (s.corporations[0].sym.clone(), false),
            ("XYZ".to_string(), false),
            (String::new(), false),
        ] {
            let mut t = s.clone();
            t.corporations[0].certificates[1].owner = ShareOwner::Corporation(owner.clone());
            let r = validate(&t);
            if ok {
                // Another corporation of the roster passes this check (an unstarted
                // corporation's certificates stay in its IPO, which fails later).
                assert!(r.is_err_and(|e| !e.message.contains("another corporation")));
            } else {
                let e = r.unwrap_err();
                assert_eq!(
                    (e.path.as_str(), e.message.as_str()),
                    (
                        "corporations[0].certificates[1].owner",
                        "not another corporation of these rules"
                    ),
                    "{owner}"
                );
            }
        }
    }
}
