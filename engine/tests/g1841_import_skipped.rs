//! Imports of games 18xx.games' own engine played (`scripts/oracle_random.rb`, excerpts in
//! `tests/fixtures/1841/oracle-played/`, each loaded strictly by the oracle): every record of a
//! step this engine skips, or of a decision it takes itself, is accepted and dropped, counted
//! and listed ([`Replayed::dropped`]), and the replay goes on to the end of the excerpt
//! (issue #21).

use referee_engine::Seat;
use referee_engine::g1841::import18xx::{DroppedRecord, ReplaySettings, Replayed, replay};
use referee_engine::g1841::{Action, CorporateEvent, MapToken, MergerStage, Round, ShareOwner};

mod common;
use common::fixture;

fn import(name: &str) -> Replayed {
    replay(
        &fixture(&format!("oracle-played/{name}.json")),
        &ReplaySettings::default(),
    )
}

fn map_token(hex: &str) -> MapToken {
    MapToken {
        hex: hex.into(),
        city: 0,
    }
}

fn dropped(r: &Replayed) -> Vec<(Option<i64>, &str, bool, &str)> {
    r.dropped
        .iter()
        .map(|d: &DroppedRecord| (d.action_id, d.action_type.as_str(), d.auto, d.reason))
        .collect()
}

fn assert_to_the_end(r: &Replayed, applied: usize) {
    assert_eq!(r.failure, None, "the excerpt imports to its end");
    assert!(!r.stopped_at_limit);
    assert_eq!(r.actions.len(), applied, "engine actions applied");
}

/// Version 2, 7 players (seed 11), actions up to id 487:
/// * 384 `merge` FTP → CFCC is a transformation; 18xx asks CFCC's president for the number
///   of additional tokens (`choose` "1", id 387) where this engine settles the single
///   possible count itself;
/// * 471 player 1 sells SFTN_4, then `pass` (472): 18xx waits for the pass, this engine ended
///   the turn with the sale (nothing else was possible); likewise player 5 after selling
///   SFTC_7 (477/478);
/// * 486 player 5's `pass` in a turn this engine passed by itself (nothing legal for them).
#[test]
fn s18_v2_choices_and_stock_round_passes_this_engine_settles_are_dropped() {
    let r = import("v2-7p-s11-to487");
    assert_to_the_end(&r, 494);
    assert_eq!(r.actions_total, 498);
    assert_eq!(
        dropped(&r),
        vec![
            (
                Some(387),
                "choose",
                false,
                "token count this engine settled itself"
            ),
            (
                Some(472),
                "pass",
                false,
                "end of a stock-round turn this engine ended after a sale"
            ),
            (
                Some(478),
                "pass",
                false,
                "end of a stock-round turn this engine ended after a sale"
            ),
            (
                Some(486),
                "pass",
                false,
                "stock-round turn this engine passed itself (nothing legal)"
            ),
        ]
    );
    assert_eq!(r.passes_dropped, 0);
    assert_eq!(r.records_dropped, 4);
}

/// lite, 6 players (seed 12), actions up to id 270: IRSFF (a major in phase 2 with three
/// bases) lays B8 and C11 (266, 267); 18xx's track step allows one lay per base and waits for
/// a `pass` (268); this engine has no further legal lay and is in the routes step.
#[test]
fn s18_lite_pass_ending_further_track_lays_is_dropped() {
    let r = import("lite-6p-s12-to270");
    assert_to_the_end(&r, 275);
    assert_eq!(
        dropped(&r),
        vec![(
            Some(268),
            "pass",
            false,
            "further track lays with no legal lay"
        )]
    );
    assert_eq!(r.passes_dropped, 1);
}

/// Version 1 + SFLi variant, 3 players (seed 13), actions up to id 151: track passes at the
/// start of a turn (42) and after a lay (113), and ILTF's lone `pass` (150) for an operating
/// turn this engine ended by itself (nothing legal: 18xx's track step waits for a pass even
/// then).
#[test]
fn s18_v1_sfli_pass_of_an_operating_turn_this_engine_ended_is_dropped() {
    let r = import("version_1+sfli-3p-s13-to151");
    assert_to_the_end(&r, 161);
    assert_eq!(
        dropped(&r),
        vec![
            (Some(42), "pass", false, "track step with no legal lay"),
            (
                Some(113),
                "pass",
                false,
                "further track lays with no legal lay"
            ),
            (
                Some(150),
                "pass",
                false,
                "operating turn this engine ended itself (nothing legal)"
            ),
        ]
    );
    assert_eq!((r.passes_dropped, r.records_dropped), (2, 1));
}

/// Version 2, 8 players (seed 102), actions up to id 160: SFLP buys a 3-train (157) and ends
/// its train step (158); 18xx.games has nothing more to offer SFLP (its corporate share step
/// lists no `par`: SFLP cannot pay a president's certificate at L.136, interpretation I35)
/// and goes on to SFTC, whose track-step `pass` (159) is the next record. This engine ends
/// SFLP's turn there too since I35 follows 18xx's listing (2026-12-06); before, it kept SFLP
/// in its share step, and the replay inserted SFLP's pass while taking record 159.
#[test]
fn s18_v2_optional_step_18xx_did_not_open_is_not_opened() {
    let settings = ReplaySettings {
        stop_at_action_id: Some(158),
        ..ReplaySettings::default()
    };
    let before = replay(&fixture("oracle-played/v2-8p-s102-to160.json"), &settings);
    let state = before.state.as_ref().unwrap();
    let Round::OperatingRound(or) = &state.round else {
        panic!("an operating round")
    };
    assert_eq!(or.current.as_deref(), Some("SFTC"));
    assert!(or.done.iter().any(|c| c == "SFLP"));

    let r = import("v2-8p-s102-to160");
    assert_to_the_end(&r, 163);
    assert_eq!(r.passes_inserted, 0);
    assert_eq!(dropped(&r), vec![]);
}

/// Version 2, 6 players (seed 202), actions up to id 443: ILTF buys the first 4-train (430):
/// the Ferdinandea split asks the corporations holding odd IRSFF shares (SFMA, SFLP, SFTN:
/// `choose` a/b, 431–433) through their controllers, as this engine does (1841 §12.4,
/// holder's choice): SFMA takes SB, SFLP SFL, SFTN SB. The Tuscan merge follows, SFLi removes
/// two tokens (440, 441) and ends the optional removal with a `pass` (442): SFLi's president
/// may remove any token outside Pisa and Firenze (1841 §12.3: "the president decides which
/// other tokens stay on the map"), so this engine waits for that pass too (before 2026-12-06
/// its removal ended at two and the pass was dropped); ILTF's `pass` (443) then passes
/// ILTF's open optional step.
#[test]
fn s18_v2_split_choices_of_corporations_are_taken_and_the_tuscan_removal_pass_read() {
    let r = import("v2-6p-s202-to443");
    assert_to_the_end(&r, 461);
    assert_eq!(
        dropped(&r),
        vec![
            (Some(177), "pass", false, "track step with no legal lay"),
            (
                Some(380),
                "pass",
                false,
                "optional second home token with no free city"
            ),
        ]
    );
    assert_eq!(
        (r.passes_dropped, r.records_dropped, r.passes_inserted),
        (2, 0, 0)
    );
    // After the two removals SFLi's president (seat 0) may still remove its token in Lucca
    // (P12) or pass; Firenze (R14) and Pisa (Q11) stay.
    let at = replay(
        &fixture("oracle-played/v2-6p-s202-to443.json"),
        &ReplaySettings {
            stop_at_action_id: Some(441),
            ..ReplaySettings::default()
        },
    );
    let state = at.state.as_ref().unwrap();
    let Round::OperatingRound(or) = &state.round else {
        panic!("operating round")
    };
    let Some(CorporateEvent::Merger(m)) = or.event.as_deref() else {
        panic!("the Tuscan merge waits")
    };
    let sfli = state.corporation("SFLi").unwrap();
    let seat = <referee_engine::g1841::G1841 as referee_engine::Game>::to_act(state);
    assert_eq!(
        (
            m.tuscan,
            m.stage,
            m.tokens_min_removal,
            m.tokens_max_removal,
            sfli.tokens.clone(),
            sfli.tokens_total,
            seat.clone()
        ),
        (
            true,
            MergerStage::Tokens,
            0,
            1,
            // SFLP first (its Lucca token P12), then SFMA's (1841 §12.3: SFLP is the first
            // corporation of the first step, whoever leads).
            vec![map_token("P12"), map_token("R14"), map_token("Q11")],
            5,
            vec![0]
        )
    );
    assert_eq!(
        referee_engine::g1841::G1841::legal(state, seat[0]).actions,
        vec![
            Action::RemoveToken {
                hex: "P12".into(),
                city: 0
            },
            Action::Pass
        ]
    );
    let taken: Vec<(Seat, Action)> = [431, 432, 433]
        .iter()
        .map(|id| {
            let i = r.action_ids.iter().position(|x| *x == Some(*id)).unwrap();
            r.actions[i].clone()
        })
        .collect();
    let exchange = |s: &str| Action::ExchangeSplitShare {
        corporation: s.to_string(),
    };
    assert_eq!(
        taken.iter().map(|(_, a)| a.clone()).collect::<Vec<_>>(),
        vec![exchange("SB"), exchange("SFL"), exchange("SB")]
    );
    // After the choices (the Tuscan merge then changes the holders).
    let at = replay(
        &fixture("oracle-played/v2-6p-s202-to443.json"),
        &ReplaySettings {
            stop_at_action_id: Some(433),
            ..ReplaySettings::default()
        },
    );
    let state = at.state.as_ref().unwrap();
    let held = |holder: &str, sym: &str| {
        state
            .corporation(sym)
            .unwrap()
            .percent_of(&ShareOwner::Corporation(holder.into()))
    };
    assert_eq!(
        [
            held("SFMA", "SB"),
            held("SFMA", "SFL"),
            held("SFLP", "SB"),
            held("SFLP", "SFL"),
            held("SFTN", "SB"),
            held("SFTN", "SFL"),
        ],
        [10, 0, 0, 10, 10, 0]
    );
}

/// lite, 3 players (seed 301), actions up to id 160: CTLP transforms into CGTF (1841 §12.2);
/// CGTF had one token, so this engine buys the compulsory second one (L.50) when the token
/// step begins, and 18xx's count (`choose` "2", id 153: `transform_tokens` with `min` 1)
/// includes it: 3 tokens in all, not 4.
#[test]
fn s21_lite_a_transformations_count_includes_the_compulsory_token() {
    let r = import("lite-3p-s301-to160");
    // 175 before a minor without the second token's L.50 could transform (1841 §12.2): a
    // transform step's pass, dropped before, is played now.
    assert_to_the_end(&r, 176);
    let i = r.action_ids.iter().position(|id| *id == Some(153)).unwrap();
    assert_eq!(r.actions[i].1, Action::BuyTokens { count: 3 });
    let state = r.state.as_ref().unwrap();
    assert_eq!(state.corporation("CGTF").unwrap().tokens_total, 3);
}

/// Version 2, 5 players (seed 309), actions up to id 278: at the first 4-train (SFTG, id
/// 276) the Tuscan merge's last step gives SFLi the holding's and SSFL's trains before the
/// presidency question; SFLi, with no president yet, is over its train limit. 18xx.games
/// records SFLi's `discard_train` (3-2, id 277) before player 4's presidency `choose`
/// (id 278); this engine takes it as the discard of the Tuscan merge's decider (1841 §12.3,
/// §9.6; D2 part 3) — it was dropped as an automatic discard (I26) before the assets moved
/// first.
#[test]
fn s21_v2_sflis_discard_before_its_presidency_is_the_tuscan_deciders() {
    let r = import("v2-5p-s309-to278");
    assert_to_the_end(&r, 293);
    let i = r.action_ids.iter().position(|id| *id == Some(277)).unwrap();
    // Seat 3 decides: the Tuscan merge's decider (18xx's `@tuscan_merge_decider`).
    assert_eq!(r.actions[i].0, 3);
    assert_eq!(
        r.actions[i].1,
        Action::DiscardTrain {
            corporation: "SFLi".into(),
            train: "3-2".into()
        }
    );
    assert!(!dropped(&r).iter().any(|d| d.0 == Some(277)));
}

/// lite, 5 players (seed 311), actions up to id 170: player 1 sells (160) and passes (161,
/// the end of the turn 18xx keeps open after a sale); the others pass; this engine passes
/// player 1's next turn itself (nothing legal), which ends the stock round, where 18xx.games
/// records player 1's `pass` (166) before the operating round: dropped.
#[test]
fn s21_lite_the_last_pass_of_a_stock_round_this_engine_made_is_dropped() {
    let r = import("lite-5p-s311-to170");
    assert_to_the_end(&r, 171);
    assert_eq!(
        dropped(&r),
        vec![
            (
                Some(161),
                "pass",
                false,
                "end of a stock-round turn this engine ended after a sale"
            ),
            (
                Some(166),
                "pass",
                false,
                "stock-round turn this engine passed itself (nothing legal), the round's end"
            ),
        ]
    );
}

/// Version 2, 3 players (seed 331), actions up to id 187: in the Ferdinandea split 18xx.games
/// asks whether a successor's purchases go on (`choose` "n", id 186) where this engine has
/// closed them (1841 §12.4): the "no" it took itself, dropped.
#[test]
fn s21_v2_a_declined_further_split_purchase_round_is_dropped() {
    let r = import("v2-3p-s331-to187");
    // SFTN's and SFTC's odd IRSFF shares (`choose` "a", 180 and 181) are their controllers'
    // choices (1841 §12.4), applied.
    assert_to_the_end(&r, 198);
    assert_eq!(
        dropped(&r).last(),
        Some(&(
            Some(186),
            "choose",
            false,
            "another round of split purchases this engine closed itself"
        ))
    );
}

// ----- Certificates 18xx moves without naming them (importer gaps of issue #22) -----------

/// The imported action with record id `id` (the first, when a record gives several).
fn action_of(r: &Replayed, id: i64) -> &Action {
    let i = r.action_ids.iter().position(|x| *x == Some(id)).unwrap();
    &r.actions[i].1
}

fn state_at(name: &str, id: i64) -> referee_engine::g1841::State {
    replay(
        &fixture(&format!("oracle-played/{name}.json")),
        &ReplaySettings {
            stop_at_action_id: Some(id),
            ..ReplaySettings::default()
        },
    )
    .state
    .unwrap()
}

/// 1841 §5.4 step 4: lite, 4 players (seed 302), actions up to id 190. SFTN starts IFAI at
/// L.68 (178) and buys 2 tokens (`choose` "2", 181) its treasury cannot pay: IFAI sells its
/// IPO shares to the pool at half price at once, which 18xx.games records inside the
/// `choose` (`auto_emr`), naming no ids. SFTG's purchase of IFAI_1 (185) therefore comes from
/// the pool — IFAI's IPO is empty (the oracle at 185: pool IFAI 70%, IFAI's IPO 0%, L.8,
/// price L.10; SFTG holds 10%). The importer bought it from the IPO and stopped there.
#[test]
fn s5_4_a_purchase_of_a_share_a_start_sold_comes_from_the_pool() {
    let r = import("lite-4p-s302-to190");
    assert_to_the_end(&r, 202);
    assert_eq!(
        action_of(&r, 185),
        &Action::BuyShares {
            corporation: "IFAI".into(),
            from_pool: true,
            percent: 10
        }
    );
    let state = state_at("lite-4p-s302-to190", 185);
    let ifai = state.corporation("IFAI").unwrap();
    assert_eq!(
        (
            ifai.percent_of(&ShareOwner::Pool),
            ifai.percent_of(&ShareOwner::Ipo),
            ifai.cash,
            ifai.price()
        ),
        (70, 0, 8, Some(10))
    );
    assert_eq!(ifai.percent_of(&ShareOwner::Corporation("SFTG".into())), 10);
}

/// 1841 §5.4 and §14: Version 2, 6 players (seed 112), actions up to id 292. Player 6 buys
/// CTDA_1 (215), which CTDA's start (SFTN's `par`, 191) sold into the pool; CTDA's controller
/// goes bankrupt (245): 18xx.games sells all his certificates to the pool without naming
/// them, SFTN_4 (bought at 151) among them, which player 6 buys (290). Both purchases come
/// from the pool (the oracle at 290: pool SFTN 20%, SFTN's IPO 0%). The importer bought
/// CTDA_1 from the IPO, its certificates drifted from 18xx's, and it stopped at CTDA's
/// emergency sale of CTDA_4 (243).
#[test]
fn s14_a_purchase_of_a_bankrupt_players_share_comes_from_the_pool() {
    let r = import("v2-6p-s112-to292");
    assert_to_the_end(&r, 313);
    let from_pool = |sym: &str| Action::BuyShares {
        corporation: sym.into(),
        from_pool: true,
        percent: 10,
    };
    assert_eq!(action_of(&r, 215), &from_pool("CTDA"));
    assert_eq!(action_of(&r, 290), &from_pool("SFTN"));
    assert_eq!(
        action_of(&r, 243),
        &Action::EmergencySell {
            seller: Some("CTDA".into()),
            corporation: "CTDA".into(),
            percent: 10
        }
    );
    let state = state_at("v2-6p-s112-to292", 290);
    let sftn = state.corporation("SFTN").unwrap();
    assert_eq!(
        (
            sftn.percent_of(&ShareOwner::Pool),
            sftn.percent_of(&ShareOwner::Ipo)
        ),
        (20, 0)
    );
}

/// 1841 §14: 18xx.games records a chain corporation's emergency sale in the train step with
/// the operating corporation as entity; the seller is the bundle's owner. lite, 5 players
/// (seed 103), actions up to id 199, and the game's next record (200: `sell_shares` by CGTF of
/// CGTF_1, which SFTG bought at 38), with the ids CGTF_1 and CGTF_8 swapped throughout (18xx's
/// ids drift from this engine's certificate indices after presidency swaps and exchanges):
/// the seller is the corporation the record shows holding the share (SFTG), not the holder of
/// this engine's certificate with that index (the pool, after CGTF's own sales 198–199).
#[test]
fn s14_an_emergency_sale_is_the_bundle_owners_whatever_the_id() {
    let text = fixture("oracle-played/lite-5p-s103-to199.json");
    let mut export: serde_json::Value = serde_json::from_str(&text).unwrap();
    let actions = export["actions"].as_array_mut().unwrap();
    actions.push(serde_json::json!({"type": "sell_shares", "entity": "CGTF",
        "entity_type": "corporation", "id": 200, "created_at": 1796508484,
        "shares": ["CGTF_1"], "percent": 10, "share_price": 5.5}));
    let swapped = serde_json::to_string(&export)
        .unwrap()
        .replace("\"CGTF_1\"", "\"CGTF_x\"")
        .replace("\"CGTF_8\"", "\"CGTF_1\"")
        .replace("\"CGTF_x\"", "\"CGTF_8\"");
    let r = replay(&swapped, &ReplaySettings::default());
    assert_eq!(r.failure, None);
    assert_eq!(
        action_of(&r, 200),
        &Action::EmergencySell {
            seller: Some("SFTG".into()),
            corporation: "CGTF".into(),
            percent: 10
        }
    );
    let state = r.state.as_ref().unwrap();
    let cgtf = state.corporation("CGTF").unwrap();
    assert_eq!(cgtf.percent_of(&ShareOwner::Corporation("SFTG".into())), 20);
}

/// 1841 §12.3 with §12.2: in the Tuscan merge the one of SFLP and SFMA present "transforms
/// into the holding", and the transformation's two purchase rounds are offered, as 18xx.games
/// does (`transform_start` with `tuscan_merge`: `offer1`, `offer2`; then a free second token,
/// `transform_tokens`). Version 2, 3 players (seed 20005), up to id 229: SFTN buys the first
/// 4-train (186); SFMA was never started, so SFLP (L.77, best value; player id 3, seat 2,
/// 60%) transforms into AFI; seat 2 alone can pay AFI's L.77 and declines both rounds
/// (`choose` "no", 187 and 188); AFI and SSFL then merge into SFLi (SFTG's odd share for cash,
/// 189; SFLi's removals, 190–191). Before 2026-12-06 this engine skipped the rounds and the
/// import stopped at 187 ("choice \"no\" does not fit the merger"); it now stops at 230 (a
/// train id of a later merger's discard).
#[test]
fn s12_3_the_tuscan_transformation_offers_its_purchase_rounds() {
    let r = import("v2-3p-s20005-to229");
    assert_eq!(r.failure, None, "the excerpt imports to its end");
    let at = replay(
        &fixture("oracle-played/v2-3p-s20005-to229.json"),
        &ReplaySettings {
            stop_at_action_id: Some(186),
            ..ReplaySettings::default()
        },
    );
    let state = at.state.as_ref().unwrap();
    let Round::OperatingRound(or) = &state.round else {
        panic!("operating round")
    };
    let Some(CorporateEvent::Transformation(t)) = or.event.as_deref() else {
        panic!("the Tuscan transformation waits: {:?}", or.event)
    };
    let seat = <referee_engine::g1841::G1841 as referee_engine::Game>::to_act(state);
    assert_eq!(
        (t.minor.as_str(), t.major.as_str(), t.stage, seat.clone()),
        ("SFLP", "AFI", 1, vec![2])
    );
    let afi = state.corporation("AFI").unwrap();
    assert_eq!((afi.price(), afi.tokens_total), (Some(77), 1));
    assert_eq!(
        referee_engine::g1841::G1841::legal(state, 2).actions,
        vec![
            Action::BuyShares {
                corporation: "AFI".into(),
                from_pool: false,
                percent: 10
            },
            Action::Pass
        ]
    );
    assert_eq!(
        (
            r.passes_dropped,
            r.records_dropped,
            r.passes_inserted,
            r.actions.len()
        ),
        (1, 1, 0, 247)
    );
}

fn import_to(name: &str, id: i64) -> Replayed {
    replay(
        &fixture(&format!("oracle-played/{name}.json")),
        &ReplaySettings {
            check: false,
            stop_at_action_id: Some(id),
        },
    )
}

/// `p2p_purchases`, 3 players (seed 80005), up to id 219: Player 3 (seat 2) buys ATFA_4 for
/// L.45 (`total_price`) at id 218 from Player 2 (seat 1), to whom the merger of FTP into ATFA
/// (id 182, exchanges without recorded ids) gave it. Followed by the share ledger, it is a
/// purchase from that player (1841 §15.3), not one from the IPO at ATFA's L.52, which Player
/// 3's L.48 could not pay (the import stopped there).
#[test]
fn s15_3_a_purchase_of_a_share_a_merger_handed_out_is_from_its_holder() {
    let before = import_to("p2p_purchases-3p-s80005-to219", 217);
    assert_eq!(before.failure, None);
    let s = before.state.unwrap();
    assert_eq!(
        (s.player(2).unwrap().cash, s.player(1).unwrap().cash),
        (48, 40)
    );
    let r = import_to("p2p_purchases-3p-s80005-to219", 218);
    assert_eq!(r.failure, None);
    let n = r.actions.len();
    assert!(matches!(
        &r.actions[n - 2],
        (
            2,
            Action::OfferPurchase {
                seller: 1,
                price: 45,
                ..
            }
        )
    ));
    assert_eq!(r.actions[n - 1], (1, Action::AnswerOffer { accept: true }));
    let s = r.state.unwrap();
    assert_eq!(
        (s.player(2).unwrap().cash, s.player(1).unwrap().cash),
        (3, 85)
    );
    let atfa = s.corporation("ATFA").unwrap();
    assert_eq!(atfa.cash, 182, "nothing paid into ATFA's treasury");
    let percent = |owner: &ShareOwner| -> u32 {
        atfa.certificates
            .iter()
            .filter(|c| c.owner == *owner)
            .map(|c| c.percent)
            .sum()
    };
    assert_eq!(
        (
            percent(&ShareOwner::Player(2)),
            percent(&ShareOwner::Player(1)),
            percent(&ShareOwner::Ipo)
        ),
        (30, 20, 30)
    );
    assert_to_the_end(&import("p2p_purchases-3p-s80005-to219"), 276);
}

/// A game 18xx.games played follows none of the FAQ rulings (18xx.games implements none,
/// `1841-faq.md` §7): its import turns every FAQ option off, the Version 1 defaults included.
/// Version 1 with `sfli_run_variant`, 7 players (seed 80003), up to id 84: Player 4 (seat 3)
/// sells 20% of SFTN at L.90 (id 79; SFTN drops to L.78) and 10% more at L.78 (id 80; SFTN
/// drops to L.68), then starts RATF at L.100 (id 81): L.30 + 180 + 78 − 200 = L.88. With
/// `price_drops_lowest_first` (FAQ-Q2, on by the Version 1 default) both sales were paid
/// L.90 a share and the start left him L.100; the import stopped at RATF's token (id 82).
#[test]
fn s0_2_an_18xx_games_import_has_no_faq_options() {
    let r = import_to("version_1+sfli-7p-s80003-to84", 81);
    assert_eq!(r.failure, None);
    let s = r.state.unwrap();
    assert!(!s.options.price_drops_lowest_first());
    assert!(!s.options.merger_presidency_for_companies());
    assert_eq!(s.player(3).unwrap().cash, 88);
    assert_eq!(s.corporation("SFTN").unwrap().price(), Some(68));
    assert_eq!(s.corporation("RATF").unwrap().cash, 200);
    assert_to_the_end(&import("version_1+sfli-7p-s80003-to84"), 86);
}

/// Lite, 5 players (seed 40003, played with the driver's half-price president sales of
/// 2026-12-06), up to id 486: Player 1 received CTS_3 in the merger that formed CTS (id 301,
/// exchanges without recorded ids) and went bankrupt at id 416, his certificates sold to the
/// pool (1841 §14, no record of their ids). IFAI buys CTS_3 at id 485 from the pool, as 18xx
/// had it, for L.35 to the bank: CTS keeps L.53 and 60% in its IPO, the pool goes from 20%
/// to 10% of CTS. Before, the unrecorded pool knew only the ids the record showed Player 1
/// holding, and the purchase came from the IPO (CTS L.88, IPO 50%).
#[test]
fn s14_a_purchase_of_a_share_a_bankrupt_got_in_an_exchange_comes_from_the_pool() {
    let r = import_to("lite-5p-s40003-to486", 485);
    assert_eq!(r.failure, None);
    let s = r.state.unwrap();
    let cts = s.corporation("CTS").unwrap();
    let percent = |owner: &ShareOwner| -> u32 {
        cts.certificates
            .iter()
            .filter(|c| c.owner == *owner)
            .map(|c| c.percent)
            .sum()
    };
    assert_eq!(cts.cash, 53);
    assert_eq!(
        (
            percent(&ShareOwner::Ipo),
            percent(&ShareOwner::Pool),
            percent(&ShareOwner::Corporation("IFAI".into()))
        ),
        (60, 10, 10)
    );
    assert_eq!(s.corporation("IFAI").unwrap().cash, 15);
}
