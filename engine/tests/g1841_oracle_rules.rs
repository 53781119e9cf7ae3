//! Rules checked against games 18xx.games' own engine played (issue #22): excerpts of
//! `scripts/oracle_random.rb` games in `tests/fixtures/1841/oracle-played/`, each loaded
//! strictly by the oracle, imported past the action where Referee used to stop
//! (tests/oracle/divergences-import.md), or stopping exactly where a reviewed divergence
//! (tests/oracle/divergences.json) says it must.

use referee_engine::g1841::import18xx::{ReplaySettings, Replayed, replay};
use referee_engine::g1841::{PlacedTile, State};

mod common;
use common::fixture;

fn import(name: &str) -> Replayed {
    replay(
        &fixture(&format!("oracle-played/{name}.json")),
        &ReplaySettings::default(),
    )
}

/// The excerpt imported to its last action, with `applied` engine actions; its final state.
fn to_the_end(name: &str, applied: usize) -> State {
    let r = import(name);
    assert_eq!(r.failure, None, "{name} imports to its end");
    assert_eq!(r.actions.len(), applied, "{name}: engine actions applied");
    r.state.expect("a state")
}

fn tile(state: &State, hex: &str) -> Option<PlacedTile> {
    state.operations.tiles.get(hex).cloned()
}

fn placed(tile: &str, rotation: u8) -> Option<PlacedTile> {
    Some(PlacedTile {
        tile: tile.into(),
        rotation,
    })
}

/// 1841 §9.1 (phase 2): a new exit may face an active province border and end there; the
/// border limits what the corporation's track search reaches, not where an exit points.
/// Version 2, 3 players (seed 103), id 90: IRSFF, reaching Como (D8) from Milano, lays tile
/// 6 in rotation 0 (exits 0 toward Milano and 2 toward Lugano C7, across the set-2 Swiss
/// border). Referee used to refuse it ("rotations that fit: 4").
#[test]
fn s9_1_phase_2_exit_toward_the_lugano_border_como() {
    let s = to_the_end("v2-3p-s103-to91", 92);
    assert_eq!(s.phase, "2");
    assert_eq!(tile(&s, "D8"), placed("6", 0));
}

/// 1841 §9.1: the same on a home hex. Lite, 4 players (seed 106), id 38: SFTG lays tile 6 on
/// Alessandria (J6) in rotation 2 (exits 2 and 4; J6/4 faces I7 across the set-2 border,
/// the position of FAQ-Q14's example). Referee used to offer rotations 0, 1, 3 and 5 only.
#[test]
fn s9_1_phase_2_exit_toward_a_border_on_a_home_hex_alessandria() {
    let s = to_the_end("lite-4p-s106-to39", 42);
    assert_eq!(s.phase, "2");
    assert_eq!(tile(&s, "J6"), placed("6", 2));
}

/// 1841 §9.1: lite, 3 players (seed 105), id 46: IRSFF lays the straight city tile 57 on
/// Busto Arsizio (E7) in rotation 1 (exits 1 and 4, one of them at the E7/F6 province
/// border). Referee used to offer only tiles 5 and 6 there.
#[test]
fn s9_1_phase_2_straight_city_across_busto_arsizio() {
    let s = to_the_end("lite-3p-s105-to47", 48);
    assert_eq!(s.phase, "2");
    assert_eq!(tile(&s, "E7"), placed("57", 1));
}

/// Listed divergence `I3-G3-impassable-side` (tests/oracle/divergences.json): the side
/// between I3 and G3 is impassable (1841-data: recorded on both hexes; 18xx.games defines it
/// on G3 alone, so its I3 takes track running into it). Version 2, 5 players (seed 105), id
/// 155: SFTG lays tile 7 on I3 in rotation 3 (exits 3 and 4; edge 3 faces G3 across the
/// impassable side): Referee refuses it (FAQ-R2, FAQ-C10: no new track may point at a border
/// or off the map), naming the one rotation that fits.
#[test]
fn listed_divergence_i3_track_into_the_impassable_side_is_refused() {
    let r = import("v2-5p-s105-to155");
    let f = r.failure.expect("the import stops");
    assert_eq!(f.action_id, Some(155));
    assert_eq!(f.action_type.as_deref(), Some("lay_tile"));
    let rejection = f.rejection.expect("a rejection");
    assert_eq!(rejection.rule, "1841 §9.1");
    assert_eq!(
        rejection.message,
        "Tile 7 does not fit on I3 in rotation 3 (its track must reach SFTG's, keep the old \
         track and lead to neighbouring hexes); rotations that fit: 4."
    );
    assert_eq!(r.actions.len(), 166);
}

/// Listed divergence `V1-tie-auction-bid-on-another-concession` (tests/oracle/divergences.json):
/// 1841 §4.2 step 2, FAQ-C1 — a tie after the sealed bids is settled among the tied players
/// on that concession. Version 1 + `sfli_run_variant`, 7 players (seed 113): Bayard is tied
/// (players 1 and 5 at L.30) and is resolved first; 18xx.games takes player 5's bid of L.65 on
/// SFTC (id 8). Referee refuses it and keeps Bayard's tie auction open.
#[test]
fn listed_divergence_v1_tie_auction_takes_bids_on_that_concession_only() {
    let r = import("version_1+sfli-7p-s113-to9");
    let f = r.failure.expect("the import stops");
    assert_eq!(f.action_id, Some(8));
    assert_eq!(f.action_type.as_deref(), Some("bid"));
    let rejection = f.rejection.expect("a rejection");
    assert_eq!(rejection.rule, "1841 §4.2");
    assert_eq!(
        rejection.message,
        "Only Bayard is being auctioned now; raise on it or pass."
    );
    // The seven sealed bids were applied.
    assert_eq!(r.actions.len(), 7);
}

/// 1841 §9.1: each tile action is traced to a different base, whichever way the earlier
/// lays are traced. Version 2, 8 players (seed 108), OR in phase 3: SFTG (bases Torino H4
/// and Alessandria J6) lays G5 (tile 626, id 508), which both bases reach, then I3 (tile 7,
/// rotation 4, id 509), which only Torino reaches: G5 is traced to Alessandria and I3 to
/// Torino. Referee used to keep G5 on Torino, the first base, and refuse I3.
#[test]
fn s9_1_an_earlier_lay_is_traced_anew_to_free_a_base() {
    let r = import("v2-8p-s108-to510");
    assert_eq!(r.failure, None, "the excerpt imports to its end");
    let s = r.state.expect("a state");
    assert_eq!(tile(&s, "G5"), placed("626", 1));
    assert_eq!(tile(&s, "I3"), placed("7", 4));
    // Id 510 (SFTG's routes) is the last record: SFTG is past its track step.
    let referee_engine::g1841::Round::OperatingRound(or) = &s.round else {
        panic!("an operating round")
    };
    assert_eq!(or.current.as_deref(), Some("SFTG"));
    assert_eq!(or.laid_hexes, vec!["G5".to_string(), "I3".to_string()]);
    let bases: Vec<(&str, u32)> = or
        .used_bases
        .iter()
        .map(|b| (b.hex.as_str(), b.city))
        .collect();
    assert_eq!(bases, vec![("J6", 0), ("H4", 0)]);
}

/// Listed divergence `p2p-concession-after-selling` (tests/oracle/divergences.json): 1841
/// §5.1 — a player may not buy a share of a corporation he sold earlier in the stock round,
/// and the president's certificate that comes with a locked concession is such a share
/// (§3.2, §5.2: player-to-player purchases are subject to the same limits). `p2p_purchases`,
/// 7 players (seed 101), SR 2: player 5 sells SFTG_3 (id 589), then buys the SFTG concession
/// from player 4 with its president's certificate (id 612). 18xx.games checks the sale for
/// purchases of shares from players but not for the concession; Referee refuses the offer.
#[test]
fn listed_divergence_p2p_concession_with_the_presidency_after_selling_is_refused() {
    let r = import("p2p_purchases-7p-s101-to612");
    let f = r.failure.expect("the import stops");
    assert_eq!(f.action_id, Some(612));
    assert_eq!(f.action_type.as_deref(), Some("buy_company"));
    let rejection = f.rejection.expect("a rejection");
    assert_eq!(rejection.rule, "1841 §5.1");
    assert_eq!(
        rejection.message,
        "Seat 4 sold SFTG this round and may not buy it."
    );
    assert_eq!(r.actions.len(), 904);
}

/// Listed divergence `bankruptcy-without-train-obligation` (tests/oracle/divergences.json):
/// 1841 §14 — bankruptcy ends an emergency money raising for a compulsory train purchase;
/// 18xx.games accepts `bankrupt` in any step once the president's money and the treasury are
/// below the cheapest depot train. 132002 before action 386: SB, owning the 3-1, in its track
/// step; its president's L.12 and SB's cash moved to the bank. Referee refuses.
#[test]
fn listed_divergence_bankruptcy_without_a_train_obligation_is_refused() {
    use referee_engine::Game;
    use referee_engine::g1841::{Action, G1841, OperatingStep, Round};
    let mut state = common::before_in("132002", 386);
    let Round::OperatingRound(r) = &state.round else {
        panic!("an operating round")
    };
    assert_eq!(
        (r.current.as_deref(), r.step),
        (Some("SB"), OperatingStep::Track)
    );
    assert_eq!(state.operations.trains["SB"], ["3-1"]);
    let seat = G1841::to_act(&state)[0];
    let cash = state.players[seat as usize].cash + state.corporation("SB").unwrap().cash;
    state.players[seat as usize].cash = 0;
    state.corporation_mut("SB").unwrap().cash = 0;
    state.bank_cash += cash;
    let bankrupt = Action::DeclareBankruptcy { loan: false };
    assert!(!G1841::legal_actions(&state, seat).contains(&bankrupt));
    let r = G1841::apply(&mut state.clone(), seat, &bankrupt).unwrap_err();
    assert_eq!(
        (r.code, r.message.as_str()),
        (
            referee_engine::RejectionCode::WrongStep,
            "SB is in its track step; `declare bankruptcy` is not possible now."
        )
    );
}

/// Listed divergence `v1-split-surplus-irsff-tokens-stay` (tests/oracle/divergences.json):
/// 1841 §12.4, §15.1 — in Version 1 each split successor ends with exactly two tokens and
/// IRSFF's surplus tokens are dropped; 18xx.games skips them (`secession_replace_other_tokens`:
/// `next if version == 1 && newb.tokens.size > 1`) but never takes them off the map, so the
/// closed IRSFF keeps them (its `close!` removes no token). Version 1, 3 players, heuristic
/// seed 3001 (a Referee export cut after the split's decisions, id 263): SSFL buys the first
/// 4-train (id 256); IRSFF held D8, E9, F16, F8 and G15. Referee: SFV F16 and G15, SFL D8 and
/// F8, E9 empty; the oracle, at the same id, shows IRSFF closed with its token on E9, which
/// later keeps CTLP's home out of Bergamo (id 943, a minor's home city must have no token).
#[test]
fn listed_divergence_v1_split_drops_irsffs_surplus_tokens() {
    let r = replay(
        &fixture("exported/version_1-3p-heuristic-s3001-to263.json"),
        &ReplaySettings::default(),
    );
    assert_eq!(r.failure, None);
    let s = r.state.expect("a state");
    let tokens = |sym: &str| {
        let mut t: Vec<String> = s
            .corporation(sym)
            .unwrap()
            .tokens
            .iter()
            .map(|t| t.hex.clone())
            .collect();
        t.sort();
        t
    };
    let irsff = s.corporation("IRSFF").unwrap();
    assert!(irsff.closed);
    assert!(tokens("IRSFF").is_empty());
    assert_eq!(tokens("SFV"), ["F16", "G15"]);
    assert_eq!(tokens("SFL"), ["D8", "F8"]);
    assert_eq!(s.corporation("SFV").unwrap().tokens_total, 2);
    assert_eq!(s.corporation("SFL").unwrap().tokens_total, 2);
    assert!(
        s.corporations
            .iter()
            .all(|c| c.tokens.iter().all(|t| t.hex != "E9")),
        "no token left on Bergamo"
    );
}

/// Listed divergence `ipo-purchase-hidden-by-a-treasury-holding` (1841 §5.2, §7.1): a player
/// may buy a share from a corporation's IPO whatever certificates of other corporations its
/// treasury holds (those are never for sale). 18xx.games' `can_buy_any_from_ipo?` asks
/// `can_buy_shares?` of all the certificates the corporation holds and judges them by the
/// smallest: when that is another corporation's certificate the player cannot afford, it
/// lists no `buy_shares` and refuses the purchase. Version 1, heuristic, 3 players, seed 3003
/// (a Referee export cut after id 104): SFLP bought SFTN's 10% (L.158) in its share step (id
/// 103); in Stock Round 5 player 2 (L.134) buys SFLP's 20% IPO share at L.117 (id 104), which
/// the oracle refuses ("Blocking step ... cannot process action buy_shares").
#[test]
fn listed_divergence_ipo_purchase_beside_a_treasury_holding_is_allowed() {
    use referee_engine::Game;
    use referee_engine::g1841::{Action, G1841, ShareOwner};
    let text = fixture("exported/version_1-3p-heuristic-s3003-to104.json");
    let before = replay(
        &text,
        &ReplaySettings {
            check: false,
            stop_at_action_id: Some(103),
        },
    );
    assert_eq!(before.failure, None);
    let s = before.state.expect("a state");
    let sflp = s.corporation("SFLP").unwrap();
    assert_eq!(sflp.price(), Some(117));
    let in_ipo: Vec<u32> = sflp
        .certificates
        .iter()
        .filter(|c| c.owner == ShareOwner::Ipo)
        .map(|c| c.percent)
        .collect();
    assert_eq!(in_ipo, [20]);
    let sftn = s.corporation("SFTN").unwrap();
    assert_eq!(sftn.price(), Some(158));
    assert_eq!(
        sftn.certificates
            .iter()
            .filter(|c| c.owner == ShareOwner::Corporation("SFLP".into()))
            .map(|c| c.percent)
            .sum::<u32>(),
        10
    );
    // Player 2 is seat 1; he holds L.134 and is the first to act.
    assert_eq!(G1841::to_act(&s), [1]);
    assert_eq!(s.players[1].cash, 134);
    let buy = Action::BuyShares {
        corporation: "SFLP".into(),
        from_pool: false,
        percent: 20,
    };
    assert!(G1841::legal_actions(&s, 1).contains(&buy));
    let after = replay(&text, &ReplaySettings::default());
    assert_eq!(after.failure, None);
    let s = after.state.expect("a state");
    assert_eq!(s.players[1].cash, 134 - 117);
}

/// 1841 §12.3, §12.2, §7.4 (reviewed divergence `tuscan-transform-of-a-frozen-minor`): the
/// Tuscan merge transforms a frozen minor into the holding. Version 2, 5 players (seed 5102,
/// Referee's export, which the patched oracle replays): player 3's bankruptcy (id 273) put
/// SFLP's president's certificate in the pool; CGTF buys the first 4-train (id 281), and SB's
/// token purchase (id 283, player 4) ends the split and starts the merge, SSFL (player 1's)
/// leading: SFLP transforms into AFI, frozen. The purchase rounds go "from the president on"
/// (§12.2); AFI has none, and they start at the merge's decider, player 1, as 18xx.games starts
/// a presidentless split successor's at its decider (`corp.player || @secession_decider`).
/// Here every player still in the game is given L.1000 from the bank, with player order player 4 first, so that the second
/// round asks: player 1 first (before 2026-12-06 the first in player order, player 4).
#[test]
fn s12_3_a_frozen_minors_tuscan_transformation_starts_its_rounds_at_the_decider() {
    use referee_engine::g1841::corporation::frozen;
    use referee_engine::g1841::{Action, CorporateEvent, G1841, Round};
    use referee_engine::{Game, Seat};
    let r = replay(
        &fixture("oracle-played/v2-5p-s5102-to286.json"),
        &ReplaySettings {
            check: false,
            stop_at_action_id: Some(282),
        },
    );
    assert_eq!(r.failure, None);
    let mut state = r.state.expect("a state");
    assert!(frozen(&state, "SFLP"));
    let (p1, p2, p4): (Seat, Seat, Seat) = (0, 1, 3);
    state.player_order = vec![3, 4, 0, 1, 2];
    for p in state.players.iter_mut().filter(|p| !p.bankrupt) {
        state.bank_cash -= 1000 - p.cash;
        p.cash = 1000;
    }
    let stage = |state: &State| match &state.round {
        Round::OperatingRound(r) => match r.event.as_deref() {
            Some(CorporateEvent::Transformation(t)) => Some((t.major.clone(), t.stage)),
            _ => None,
        },
        _ => None,
    };
    let asked = |state: &State| -> Vec<Seat> {
        (0..5)
            .filter(|s| !G1841::legal(state, *s).actions.is_empty())
            .collect()
    };
    assert_eq!(asked(&state), vec![p4], "SB's token purchase");
    G1841::apply(&mut state, p4, &Action::BuyTokens { count: 2 }).expect("SB's tokens");
    // The first round: SFTC (player 2's, 10% of AFI) only.
    assert_eq!(stage(&state), Some(("AFI".to_string(), 1)));
    assert!(frozen(&state, "AFI"));
    assert_eq!(asked(&state), vec![p2]);
    G1841::apply(&mut state, p2, &Action::Pass).expect("SFTC declines");
    // The second round: every player from the decider, player 1.
    assert_eq!(stage(&state), Some(("AFI".to_string(), 2)));
    assert_eq!(asked(&state), vec![p1]);
}

/// 1841 §12.4 with §7.5 (the presidency moves to a holder with strictly more): the split
/// gives IRSFF's treasury certificates to SB and SFL one by one. Lite, 5 players (seed 5102,
/// Referee's export, which the oracle replays), id 575: RSFS buys the first 4-train; the
/// concessions close and IRSFF, with 30% of SFTN against player 2's 20%, becomes SFTN's
/// president; the split gives SB IRSFF's president's certificate of SFTN (SB 20%, player 2
/// 20%: player 2 presides) and then its 10% share: SB, with 30%, presides, and SFTN, under
/// frozen SB, is frozen (18xx.games: "SB becomes the president of SFTN"). Before 2026-12-06
/// player 2 kept it, and SFTN, taken as his, chose a full share in a later merger where
/// 18xx.games pays its odd share out (id 611).
#[test]
fn s12_4_a_successor_with_more_than_the_president_takes_the_presidency() {
    use referee_engine::g1841::ShareOwner;
    use referee_engine::g1841::corporation::frozen;
    let r = replay(
        &fixture("oracle-played/lite-5p-s5102-to580.json"),
        &ReplaySettings {
            check: false,
            stop_at_action_id: Some(575),
        },
    );
    assert_eq!(r.failure, None);
    let state = r.state.expect("a state");
    let sftn = state.corporation("SFTN").expect("SFTN");
    let sb = ShareOwner::Corporation("SB".into());
    assert_eq!(sftn.president(), Some(&sb));
    assert_eq!(sftn.percent_of(&sb), 30);
    assert_eq!(sftn.percent_of(&ShareOwner::Player(1)), 20);
    assert!(frozen(&state, "SB"));
    assert!(frozen(&state, "SFTN"));
}
