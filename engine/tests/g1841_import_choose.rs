//! 18xx.games' `choose` answers of corporate events that this engine asks in another order or
//! not at all (issue #21, import direction; `import18xx/choose.rs`). Excerpts of games
//! 18xx.games' own engine played (`scripts/oracle_random.rb --mode MODE --players N --seed S`,
//! cut after the id in the name, each loaded strictly by the oracle) in
//! `tests/fixtures/1841/oracle-played/`.

use referee_engine::g1841::import18xx::{FailureKind, ReplaySettings, Replayed, replay};
use referee_engine::g1841::{Action, OddShareChoice, Round, ShareOwner};

mod common;
use common::fixture;

fn import(name: &str) -> Replayed {
    replay(
        &fixture(&format!("oracle-played/{name}.json")),
        &ReplaySettings::default(),
    )
}

/// The engine actions imported for record `id`, with their seats.
fn actions_of(r: &Replayed, id: i64) -> Vec<(u32, Action)> {
    r.action_ids
        .iter()
        .zip(&r.actions)
        .filter(|(x, _)| **x == Some(id))
        .map(|(_, (s, a))| (*s, a.clone()))
        .collect()
}

/// The reasons of the records dropped with id `id`.
fn dropped_at(r: &Replayed, id: i64) -> Vec<&str> {
    r.dropped
        .iter()
        .filter(|d| d.action_id == Some(id))
        .map(|d| d.reason)
        .collect()
}

fn odd(choice: OddShareChoice) -> Action {
    Action::ExchangeOddShare { choice }
}

/// 1841 §12.1, pass 2 of a merger's exchange. Version 2, 8 players (seed 20010), up to id 378:
/// IFAI and CTDA merge into RATF (373, 374); nobody claims the presidency in pass 1. In pass 2
/// 18xx.games asks in holder order: player 1 (seat 0) sells his odd share (`cash`, 375), SFMA
/// (seat 0's) pays for a full share (`full`, 376), then player 4 (seat 3) claims the
/// presidency with his single share (`pres`, 377). This engine asks the single-share claims
/// before the odd shares: seat 3's claim is played at 377, the two earlier answers when it
/// asks the odd shares, before RATF's token pass (378).
#[test]
fn s12_1_odd_shares_answered_before_a_pass_2_claim_are_played_after_it() {
    let r = import("v2-8p-s20010-to378");
    assert_eq!(r.failure, None, "imports to the end of the excerpt");
    let kept = "odd merger share answered before the presidency (played at the odd shares)";
    assert_eq!(dropped_at(&r, 375), vec![kept]);
    assert_eq!(dropped_at(&r, 376), vec![kept]);
    assert_eq!(
        actions_of(&r, 377),
        vec![(3, Action::ClaimPresidency { claim: true })]
    );
    assert_eq!(
        actions_of(&r, 378),
        vec![
            (0, odd(OddShareChoice::Cash)),
            (0, odd(OddShareChoice::FullShare)),
            (3, Action::Pass),
        ]
    );
    assert_eq!(r.choices_inserted, 2);
}

/// 1841 §12.3, the Tuscan merge. Version 2, 3 players (seed 20005), up to id 189: SFTN buys
/// the first 4-train (186); SFLP transforms into the holding AFI, and 18xx.games offers AFI
/// shares in the transformation's two purchase rounds (§12.2, `share_offer`): player 3
/// declines in both (`no`, 187 and 188). This engine offers them too (since the Tuscan
/// transformation's purchase rounds of 2026-12-06): both declines are its seat 2's passes.
/// Then AFI and SSFL merge into SFLi and SFTG's odd share is its controller's (seat 1)
/// choice: cash (189).
#[test]
fn s12_3_declined_tuscan_offers_are_passes_and_the_odd_share_is_played() {
    let r = import("v2-3p-s20005-to189");
    assert_eq!(r.failure, None, "imports to the end of the excerpt");
    assert_eq!(actions_of(&r, 187), vec![(2, Action::Pass)]);
    assert_eq!(actions_of(&r, 188), vec![(2, Action::Pass)]);
    assert!(dropped_at(&r, 187).is_empty() && dropped_at(&r, 188).is_empty());
    assert_eq!(actions_of(&r, 189), vec![(1, odd(OddShareChoice::Cash))]);
    assert_eq!(r.choices_inserted, 0);
}

/// 1841 §12.3 with §12.2. Version 2, 6 players (seed 20032), up to id 295: in the Tuscan
/// merge's transformation 18xx.games offers AFI shares; the offer declined at 294 is seat 2's
/// pass here, and player 6's purchase (`yes`, 295) is seat 5's purchase of a 10% AFI share
/// from the IPO, as in 18xx (a rules divergence before the transformation's purchase rounds
/// of 2026-12-06).
#[test]
fn s12_3_a_tuscan_offer_taken_is_a_purchase() {
    let r = import("v2-6p-s20032-to295");
    assert_eq!(r.failure, None, "imports to the end of the excerpt");
    assert_eq!(
        dropped_at(&r, 293),
        vec!["another round of split purchases this engine closed itself"]
    );
    assert_eq!(actions_of(&r, 294), vec![(2, Action::Pass)]);
    assert_eq!(
        actions_of(&r, 295),
        vec![(
            5,
            Action::BuyShares {
                corporation: "AFI".into(),
                from_pool: false,
                percent: 10
            }
        )]
    );
}

/// 1841 §12.4, the split's purchase rounds. Lite, 4 players (seed 20002), up to id 232: after
/// the first round of SB purchases, in which SFTN declines (227, played), 18xx.games asks the
/// split's decider (player 2) whether another round follows: `y` (228 and 230), each round
/// declined by SFTN (229, 231), then `n` (232). This engine closes a successor's purchases
/// after a round without a sale, asking nothing: the questions and declines are dropped.
#[test]
fn s12_4_further_split_rounds_without_a_sale_are_dropped() {
    let r = import("lite-4p-s20002-to232");
    assert_eq!(r.failure, None, "imports to the end of the excerpt");
    assert_eq!(actions_of(&r, 227), vec![(2, Action::Pass)]);
    let again = "another round of split purchases this engine closed itself";
    let declined = "declined offer or question this engine does not make";
    assert_eq!(dropped_at(&r, 228), vec![again]);
    assert_eq!(dropped_at(&r, 229), vec![declined]);
    assert_eq!(dropped_at(&r, 230), vec![again]);
    assert_eq!(dropped_at(&r, 231), vec![declined]);
    assert_eq!(dropped_at(&r, 232), vec![again]);
}

/// 1841 §7.4. Version 2, 7 players (seed 20009), up to id 371: CTS buys the first 4-train
/// (357); in the split its president's certificate goes to SB, which nobody controls, so CTS
/// is frozen in the middle of its turn. 18xx.games lets it buy another train (371); this
/// engine ends a frozen corporation's turn: a rules divergence, reported as a refusal naming
/// the rule (it was a reading error, "no controlling player").
#[test]
fn s7_4_an_action_of_a_frozen_corporation_is_a_rules_divergence() {
    let r = import("v2-7p-s20009-to371");
    let f = r.failure.expect("stops at the purchase");
    assert_eq!(f.kind, FailureKind::Refused);
    assert_eq!(f.action_id, Some(371));
    assert_eq!(f.action_type.as_deref(), Some("buy_train"));
    assert!(
        f.reason
            .starts_with("rules divergence: CTS has no controlling player")
    );
    assert_eq!(f.rejection.expect("with the rule").rule, "1841 §7.4");
}

/// 1841 §12.1 odd shares (Tuscan merge, §12.3). Version 2, 7 players (seed 20027), up to id
/// 423: the split (412–422) defers the Tuscan merge, which 18xx.games settles without a
/// question: SB, whose presidency SFLi took over with SSFL's treasury, has no player and sells
/// its odd share. This engine follows the presidency too (§7.5, §12.1: the holdings gathered
/// in SFLi's treasury exceed SB's president's), so it asks nothing either and inserts no
/// choice (before, it asked SB's controller, seat 3, and filled in cash). IFAI, frozen with
/// that chain in its own turn, ends it here (§7.4); 18xx's pass of its train step (423) is
/// dropped (divergence `frozen-mid-turn-train-step`).
#[test]
fn s12_1_an_odd_share_18xx_settled_by_itself_is_filled_in_as_cash() {
    let r = import("v2-7p-s20027-to423");
    assert_eq!(r.failure, None, "imports to the end of the excerpt");
    assert_eq!(actions_of(&r, 423), vec![]);
    assert_eq!(
        dropped_at(&r, 423),
        vec!["operating turn this engine ended itself (nothing legal)"]
    );
    assert_eq!(r.choices_inserted, 0);
}

/// 1841 §12.1, the presidency of a merger's new corporation: "the first holder to accumulate
/// 20% of the new corporation receives its president's certificate" (R4). Version 1, 7
/// players (seed 20003), up to id 209: CGTF and AFI merge into RSFS at L.106 (205, 206).
/// Player 4 (seat 3, 30% of the old shares, L.62) declines the claim in pass 1 (`no`, 207),
/// exchanges his pair, and in pass 2 pays L.53 for a full share for his odd one (`full`,
/// 208): with 20% he is RSFS's president; SFTG pays for a full share too (209). This engine
/// asks a holder of 30% in its sweep over odd shares (18xx `merger_next_exchange`, pass 2)
/// and his full share makes him president. Before, it gave the presidency only on 40% or a
/// claim, undid the merger, and the import stopped at 208 (the listed divergence
/// `merger-backed-out-before-18xx-pass-2`). Values as the oracle has them after 209.
#[test]
fn s12_1_a_holder_of_30_percent_presides_with_a_full_share_for_his_odd_one() {
    let r = import("version_1-7p-s20003-to209");
    assert_eq!(r.failure, None, "imports to the end of the excerpt");
    assert_eq!(
        actions_of(&r, 207),
        vec![(3, Action::ClaimPresidency { claim: false })]
    );
    assert_eq!(
        actions_of(&r, 208),
        vec![(3, odd(OddShareChoice::FullShare))]
    );
    let s = r.state.expect("a state");
    let rsfs = s.corporation("RSFS").expect("RSFS");
    assert_eq!(rsfs.price(), Some(106));
    assert_eq!(rsfs.president(), Some(&ShareOwner::Player(3)));
    assert_eq!(rsfs.percent_of(&ShareOwner::Player(3)), 20);
    assert_eq!(s.player(3).unwrap().cash, 9);
    assert_eq!(rsfs.percent_of(&ShareOwner::Player(0)), 10);
    assert_eq!(rsfs.percent_of(&ShareOwner::Corporation("SSFL".into())), 10);
    assert_eq!(rsfs.percent_of(&ShareOwner::Corporation("SFTG".into())), 10);
    assert_eq!(rsfs.percent_of(&ShareOwner::Ipo), 50);
    assert_eq!(rsfs.cash, 178);
    assert_eq!(s.corporation("SFTG").unwrap().cash, 55);
}

/// The same rule (R4) where this engine undid the merger on the decline itself. `lite`, 3
/// players (seed 40005), up to id 191: CGTF (player 2: 30%, L.63) merges with CTS (IRSFF's)
/// into CFCC at L.95 (188, 189); player 2 declines the claim (`no`, 190) and pays L.47 for a
/// full share for his odd one (`full`, 191): 20% of CFCC and its presidency, L.27 → L.16
/// (with the import stopping at 191 before, "merger goes on in 18xx after this engine undid
/// it"). Values as the oracle has them after 191.
#[test]
fn s12_1_a_full_share_after_a_declined_claim_makes_the_president() {
    let r = import("lite-3p-s40005-to191");
    assert_eq!(r.failure, None, "imports to the end of the excerpt");
    assert_eq!(
        actions_of(&r, 190),
        [(1, Action::ClaimPresidency { claim: false })]
    );
    assert_eq!(
        actions_of(&r, 191),
        vec![(1, odd(OddShareChoice::FullShare))]
    );
    let s = r.state.expect("a state");
    let cfcc = s.corporation("CFCC").expect("CFCC");
    assert_eq!(cfcc.price(), Some(95));
    assert_eq!(cfcc.president(), Some(&ShareOwner::Player(1)));
    assert_eq!(cfcc.percent_of(&ShareOwner::Player(1)), 20);
    assert_eq!(s.player(1).unwrap().cash, 16);
    assert_eq!(
        cfcc.percent_of(&ShareOwner::Corporation("IRSFF".into())),
        10
    );
    assert_eq!(cfcc.percent_of(&ShareOwner::Ipo), 70);
    assert_eq!(cfcc.cash, 50);
}

/// 1841 §12.2 ("emergency money raising allowed" for the second token), FAQ-Q5: a minor
/// without the second token's L.50 may transform (the listed divergence
/// `D1-transform-token-money` until this engine did so). `lite`, 5 players (seed 40011), up to
/// id 220: CTLP, the last to operate in OR 3.2, pays out its L.50 (213; its only token, L.0
/// left) and transforms into AFI (214); SFTG buys an AFI share (216) and AFI pays the L.50
/// token from the L.54 it then holds (18xx's count, 218); the stock round follows.
#[test]
fn s12_2_a_minor_without_the_token_money_transforms() {
    let r = import("lite-5p-s40011-to220");
    assert_eq!(r.failure, None);
    assert_eq!(
        actions_of(&r, 214),
        [(
            4,
            Action::Transform {
                corporation: "AFI".into()
            }
        )]
    );
    let state = r.state.expect("a state");
    let afi = state.corporation("AFI").expect("AFI");
    assert_eq!((afi.cash, afi.tokens_total), (4, 2));
    assert!(matches!(state.round, Round::StockRound(_)));
}

/// The listed divergence `transform-token-president-pays-first` (1841 §12.2, §14, FAQ-Q5),
/// named at the record. `lite`, 3 players (seed 40017), up to id 141: FTP (L.3, one token)
/// transforms into ILTF (137), SFTC declines its share (138); ILTF must raise L.47 of the
/// L.50 token. This engine has it sell first, at half price, the ATFA share FTP bought at 136
/// (1841 §14: other corporations' certificates before its own IPO shares); 18xx.games
/// takes the count (139), sweeping the L.47 from the president, and then still has ILTF sell
/// 20% (140: its `TokenEmergencyMoney` step stays open after the token is paid).
#[test]
fn s12_2_the_token_paid_before_the_majors_sales_is_a_rules_divergence() {
    let r = import("lite-3p-s40017-to141");
    let f = r.failure.clone().expect("stops at the token count");
    assert_eq!(f.kind, FailureKind::Refused);
    assert_eq!(
        (f.action_id, f.action_type.as_deref()),
        (Some(139), Some("choose"))
    );
    assert_eq!(
        f.reason,
        "rules divergence (transform-token-president-pays-first): 18xx.games takes ILTF's \
         compulsory second token and sweeps the missing money from its president, while ILTF \
         (L.3) must first sell at half price for it (emergency money raising, FAQ-Q5)"
    );
    assert_eq!(f.rejection.expect("with the rule").rule, "1841 §12.2, §14");
    let state = r.state.expect("a state");
    use referee_engine::Game;
    let seat = referee_engine::g1841::G1841::to_act(&state)[0];
    assert_eq!(
        referee_engine::g1841::G1841::legal(&state, seat).actions,
        [Action::EmergencySell {
            seller: Some("ILTF".into()),
            corporation: "ATFA".into(),
            percent: 10
        }]
    );
}

/// 1841 §12.1 with §7.4, on a Referee export (`referee-exports/`, Referee's writer read back).
/// Version 1 with `sfli_run_variant`, random 4 players (seed 4180), up to id 490: in OR 6.1
/// ICSF's 4-train (472) brings the merger forming SFV, ICSF's president. 18xx.games asks the
/// odd shares first (CTDA `cash` 484, player 3 `full` 485, SFL `full` 486), then player 1 pays
/// for a full share for his odd one (`full`, 487); this engine asks player 1 first. The odd
/// shares read before are played with 487, not at the next record: SFV's president's
/// certificate ends in the pool, so ICSF, presided by SFV, has no controlling player, and the
/// two passes 18xx records for its open train and share steps (488, 489) are the ones the
/// writer added for a corporation frozen mid-turn, dropped. Read at the next record, they
/// were ICSF's own passes: "corporation ICSF has no controlling player" (the import stopped).
#[test]
fn s12_1_odd_shares_read_before_a_full_share_are_played_with_it() {
    let r = replay(
        &fixture("referee-exports/version_1-sfli-4p-s4180-to490.json"),
        &ReplaySettings::default(),
    );
    assert_eq!(r.failure, None, "imports to the end of the excerpt");
    for id in 484..=486 {
        assert_eq!(
            dropped_at(&r, id),
            ["odd merger share answered before the presidency (played at the odd shares)"]
        );
    }
    assert_eq!(
        actions_of(&r, 487),
        vec![
            (0, odd(OddShareChoice::FullShare)),
            (3, odd(OddShareChoice::Cash)),
            (1, odd(OddShareChoice::FullShare)),
            (1, odd(OddShareChoice::FullShare)),
        ]
    );
    for id in [488, 489] {
        assert_eq!(
            dropped_at(&r, id),
            ["operating turn this engine ended itself (nothing legal)"]
        );
    }
    assert_eq!(
        actions_of(&r, 490),
        [(
            2,
            Action::LayTile {
                hex: "K13".into(),
                tile: "15".into(),
                rotation: 4
            }
        )]
    );
    let s = r.state.expect("a state");
    let sfv = s.corporation("SFV").expect("SFV");
    assert_eq!(sfv.president(), Some(&ShareOwner::Pool));
    assert_eq!((sfv.price(), sfv.cash), (Some(160), 895));
    let icsf = s.corporation("ICSF").expect("ICSF");
    assert_eq!(
        icsf.president(),
        Some(&ShareOwner::Corporation("SFV".into()))
    );
    assert_eq!((icsf.price(), icsf.cash), (Some(159), 212));
    let Round::OperatingRound(or) = &s.round else {
        panic!("an operating round: {:?}", s.round);
    };
    assert_eq!((or.stock_round, or.number), (6, 1));
    assert_eq!(or.current.as_deref(), Some("RSFS"));
    assert_eq!(or.done, ["ILTF", "SFTN", "SFV", "SFL", "ICSF"]);
}

/// 1841 §12.1 with §7.4, on a Referee export: the odd shares read before are played with the
/// last presidency decline too. p2p_purchases, random 7 players (seed 7135), up to id 1130:
/// CGTF's 4-train (1105) brings the split and the Tuscan merge; in the merge of ATFA and SSFL
/// into SFLi 18xx.games asks the odd shares (player 7 `full`, 1126; SFTN `cash`, 1127), this
/// engine first the presidency: player 7 (seat 6) declines with 1126, player 4 (seat 3, SFTN's
/// president) with 1127, and then player 7's full share, read at 1126, is played with 1127.
/// The merger's end leaves CGTF without a controlling player and ends its turn, and the two
/// passes the writer added for its open steps (1128, 1129) are dropped; read at the next
/// record, the full share waited and 1128 was CGTF's own pass: "corporation CGTF has no
/// controlling player" (the import stopped).
#[test]
fn s12_1_odd_shares_read_before_the_last_decline_are_played_with_it() {
    let r = replay(
        &fixture("referee-exports/p2p_purchases-7p-s7135-to1130.json"),
        &ReplaySettings::default(),
    );
    assert_eq!(r.failure, None, "imports to the end of the excerpt");
    assert_eq!(
        actions_of(&r, 1126),
        vec![(6, Action::ClaimPresidency { claim: false })]
    );
    assert_eq!(
        actions_of(&r, 1127),
        vec![
            (3, Action::ClaimPresidency { claim: false }),
            (6, odd(OddShareChoice::FullShare)),
        ]
    );
    for id in [1128, 1129] {
        assert_eq!(
            dropped_at(&r, id),
            ["operating turn this engine ended itself (nothing legal)"]
        );
    }
    assert_eq!(r.choices_inserted, 1);
}
