//! Issue #22: the patched oracle. Each Ruby patch of `tests/oracle/patches/` corrects
//! 18xx.games (the oracle, REFEREE_ORACLE_18XX) at one entry of
//! `tests/oracle/divergences.json`; `tests/oracle/patched_oracle.rb` loads the unmodified
//! `oracle.rb` and the patches. For each patch, its example game (an export of this engine,
//! `tests/oracle/fixtures/`) stops in the unmodified oracle at the listed divergence and, with
//! only that patch, replays to the end with the result and end reason this engine wrote, the
//! driver naming the correction. The game-end patch's example has no stop to show (the
//! unmodified oracle finishes it with another result): its own test, at the end. Skips with a
//! notice without Ruby or the oracle.

mod common;
use common::g1841::oracle;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The patched driver's report on `file`: with the patches of the entries `patches` only, or
/// with none.
fn replay(oracle_dir: &Path, patches: &[&str], file: &Path) -> Value {
    let mut cmd = std::process::Command::new("ruby");
    cmd.arg(root().join("tests/oracle/patched_oracle.rb"))
        .env("REFEREE_ORACLE_18XX", oracle_dir)
        .arg("--no-snapshots");
    if patches.is_empty() {
        cmd.arg("--no-patches");
    }
    for id in patches {
        cmd.arg("--patch")
            .arg(root().join(format!("tests/oracle/patches/{id}.rb")));
    }
    let out = cmd.arg(file).output().unwrap();
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{}: {e}: {}",
            file.display(),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// A patch (named by its divergence entry, the id its corrections carry), its example game,
/// where the unmodified oracle stops on it, and how far the patched oracle goes: `None` to
/// the end with the game's result, `Some(id)` to the last action of an export cut there
/// (a later, unrelated stop follows in the full game).
struct Case {
    entry: &'static str,
    fixture: &'static str,
    stop_at: i64,
    stop_message: &'static str,
    patched_to: Option<i64>,
    /// Patches of other entries the example game needs before this one's stop (loaded in both
    /// replays).
    with: &'static [&'static str],
}

const CASES: &[Case] = &[
    // FAQ-Q13, 1841 §8, §14: a bankruptcy's sales (id 704) re-order the corporations still to
    // operate; 18xx keeps the old order and waits for ILTF's track step where RATF operates.
    Case {
        entry: "operating-order-after-bankruptcy",
        fixture: "operating-order-after-bankruptcy-lite-random-5p-s5015.json",
        stop_at: 705,
        stop_message: "Blocking step Lay/Upgrade Track cannot process action",
        patched_to: None,
        with: &[],
    },
    // FAQ-Q5, 1841 §12.2, §14: CGTF (transformed, L.50 short) sells an SFTN share and one of
    // its IPO shares before the count; 18xx's BuyNewTokens step refuses the first sale.
    Case {
        entry: "transform-token-president-pays-first",
        fixture: "transform-token-president-pays-first-v2-random-5p-s5011.json",
        stop_at: 432,
        stop_message: "Blocking step Buy New Tokens cannot process action sell_shares",
        patched_to: None,
        with: &[],
    },
    // 1841 §12.1, FAQ-C19: ATFA's merger with every token on the map and a two-city removal
    // (id 648): 18xx counts the removal twice and runs out of tokens replacing the last one.
    Case {
        entry: "merger-two-city-tile-duplicate-counted-twice",
        fixture: "merger-two-city-tile-duplicate-counted-twice-lite-random-4p-s4015.json",
        stop_at: 648,
        stop_message: "undefined method `place' for nil",
        patched_to: None,
        with: &[],
    },
    // 1841 §12.4, rules doc §17 item 9: the split with IRSFF's president's certificate in the
    // pool (id 723); 18xx skips the pairs and asks for a single exchange Referee does not ask.
    Case {
        entry: "split-irsff-president-in-pool",
        fixture: "split-irsff-president-in-pool-version_1-random-4p-s4014.json",
        stop_at: 725,
        stop_message: "Blocking step Choose share to exchange IRSFF share for",
        patched_to: None,
        with: &[],
    },
    // 1841 §12.4, §15.1: the Version 1 split (id 295) leaves IRSFF's surplus token on Milano
    // D8 in 18xx, which refuses a minor's home there (id 1024). Cut after id 1067: the
    // export's id 1068, written before I57, ran two routes over the S13/T12 hexside (1841
    // §9.3), which the strict route check refuses.
    Case {
        entry: "v1-split-surplus-irsff-tokens-stay",
        fixture: "v1-split-surplus-irsff-tokens-stay-version_1-heuristic-4p-s4011-to1067.json",
        stop_at: 1024,
        stop_message: "Cannot place token on D8 as the hex is not available",
        patched_to: Some(1067),
        with: &[],
    },
    // 1841 §12.3: the Tuscan merge deferred behind the split with a frozen SFLP (id 579);
    // 18xx crashes on `@round.current_entity.player`. (The full game stops later, id 684, on
    // another cause.)
    Case {
        entry: "tuscan-merge-frozen-leader-after-split",
        fixture: "tuscan-merge-frozen-leader-after-split-version_1-random-4p-s4011-to683.json",
        stop_at: 579,
        stop_message: "undefined method `player' for nil",
        patched_to: Some(683),
        with: &[],
    },
    // 1841 §12.3, §12.2, §7.4: the Tuscan merge (started by SB's token purchase ending the
    // split, id 283) transforms SFLP, frozen since player 3's bankruptcy (id 273), into AFI;
    // 18xx rotates its player list at SFLP's player, nil, and crashes.
    Case {
        entry: "tuscan-transform-of-a-frozen-minor",
        fixture: "tuscan-transform-of-a-frozen-minor-v2-random-5p-s5102.json",
        stop_at: 283,
        stop_message: "no implicit conversion from nil to integer",
        patched_to: None,
        with: &[],
    },
    // FAQ-Q23, 1841 §7.4: SFTC and SFTN control each other; in SFTC's frozen turn (after id
    // 869) it sells its 20% of SFTN, which 18xx never does (its circular flag is never set);
    // the unmodified oracle then refuses the purchase of an SFTN pool share. (The full game
    // agrees to the end with game-end-after-the-last-bankruptcy patched too.)
    Case {
        entry: "circular-control-never-flagged",
        fixture: "circular-control-never-flagged-lite-random-4p-s4014-to900.json",
        stop_at: 883,
        stop_message: "Cannot buy a share of SFTN",
        patched_to: Some(900),
        with: &[],
    },
    // 1841 §4 (the concession's lock), §12.2: CTLP's SSFL share moves to CTS at its
    // transformation (id 511, phase 3); 18xx hands historical SSFL's presidency to player 3,
    // whose sale of three shares it then refuses (id 557).
    Case {
        entry: "concession-lock-at-asset-move",
        fixture: "concession-lock-at-asset-move-v2-random-7p-s7013.json",
        stop_at: 557,
        stop_message: "All shares must be owned by the same owner",
        patched_to: None,
        with: &[],
    },
    // 1841 §15.3, §7.3: player 1 (40% of SLDV) buys 20% of player 3's 40% president's
    // certificate (id 1301: 60%, president); 18xx judges the whole certificate (80%) and refuses.
    // The game needs transform-token-president-pays-first before (id 724).
    Case {
        entry: "p2p-partial-president-certificate-limit",
        fixture: "p2p-partial-president-certificate-limit-p2p_purchases-heuristic-3p-s3011.json",
        stop_at: 1301,
        stop_message: "Cannot purchase these shares",
        patched_to: None,
        with: &["transform-token-president-pays-first"],
    },
    // 1841 §5.2, §5.1: player 5 sells RSFS (id 552) with nothing legal left; by 18xx's
    // corporation order IRSFF's holdings (SFMA first, an SSFL 10% at L.13) keep his turn open
    // and the export writes his pass (id 553); IRSFF's hash, SSFL first (sold by him this
    // round), ends it.
    Case {
        entry: "ipo-check-in-hash-order",
        fixture: "ipo-check-in-hash-order-version_1+sfli-random-6p-s6012.json",
        stop_at: 553,
        stop_message: "Blocking step Sell then Buy Shares or Concessions cannot process action pass",
        patched_to: None,
        with: &[],
    },
    // 1841 §12.4, §7.4: at the first 4-train (id 710) player 1 becomes SFMA's president while
    // SFMA's frozen flag stays set; 18xx lists IRSFF's odd-share holders as SFTN, SFMA, SFMA and
    // asks SFMA a second time (id 714) for a share it no longer holds.
    Case {
        entry: "split-exchange-stale-frozen-holder",
        fixture: "split-exchange-stale-frozen-holder-p2p_purchases-random-4p-s4103.json",
        stop_at: 714,
        stop_message: "Blocking step Choose share to exchange IRSFF share for",
        patched_to: None,
        with: &[],
    },
    // 1841 §12.1, §12.3, FAQ-T: the Tuscan merge (id 566) merges SFLP (L.9) and SFMA (L.8),
    // average 8.5, into CFCC; 18xx's search gives L.72 (row 0, column 0), so SFLi starts at
    // L.106 instead of L.53, the payments differ and 18xx refuses an ATFA purchase (id 616).
    Case {
        entry: "minor-merger-price-at-the-market-bottom",
        fixture: "minor-merger-price-at-the-market-bottom-version_1-random-8p-s8103.json",
        stop_at: 616,
        stop_message: "Cannot buy a share of ATFA",
        patched_to: None,
        with: &[],
    },
    // 1841 §12.4: at the split (id 606) IRSFF's certificates of equal price (CGTF_0, SFTC_5,
    // SSFL_2 at L.32) go to SB and SFL in the order of a Ruby hash's keys; loaded with no
    // snapshot, 18xx hands SFTC_5 to SB, RATF's emergency sale of it at id 638 sweeps player
    // 4's cash, and player 4's par at id 674 meets another player's stock turn.
    Case {
        entry: "split-treasury-ties-in-hash-order",
        fixture: "split-treasury-ties-in-hash-order-v2-random-5p-s5106.json",
        stop_at: 674,
        stop_message: "Blocking step Sell then Buy Shares or Concessions cannot process action par",
        patched_to: None,
        with: &[],
    },
    // 1841 §12.4, §7.4: IRSFF's president's certificate lies in the pool; RATF spends all its
    // cash on the first 4-train (id 722) and has nothing left to do, so no step is active
    // during the split and 18xx crashes on `@round.current_entity.player`; patched, RATF's
    // controller (player 1) decides, as in Referee.
    Case {
        entry: "split-decider-after-last-train-buy",
        fixture: "split-decider-after-last-train-buy-p2p_purchases-random-5p-s7001.json",
        stop_at: 722,
        stop_message: "undefined method `player' for nil",
        patched_to: None,
        with: &["split-irsff-president-in-pool"],
    },
    // 1841 §12.1, §12.3, §7.4: the Tuscan merge's second step (AFI and SSFL into SFLi, id
    // 979) lists SFTN and CTDA, player 6's through SSFL but still flagged frozen, twice; after
    // their odd shares 18xx asks CTDA again (id 986) for a share it no longer holds.
    Case {
        entry: "merger-exchange-stale-frozen-holder",
        fixture: "merger-exchange-stale-frozen-holder-v2-random-8p-s8183.json",
        stop_at: 986,
        stop_message: "Inconsistant share count",
        patched_to: None,
        with: &[],
    },
    // 1841 §14, §12.2: player 2 goes bankrupt for ATFA's second token after its
    // transformation (id 472); 18xx's token branch builds its G1841 Token step instead of a
    // token and raises.
    Case {
        entry: "token-bankruptcy-token-step-constant",
        fixture: "token-bankruptcy-token-step-constant-v2-random-3p-s3128.json",
        stop_at: 472,
        stop_message: "wrong number of arguments (given 1, expected 2)",
        patched_to: None,
        with: &["transform-token-president-pays-first"],
    },
    // 1841 §12.4 (entry split-decider-during-a-train-discard): IRSFF's president's
    // certificate lies in the pool; RATF (player 2's) buys the first 4-train (id 663) and
    // SFTN (player 4's) must discard: 18xx takes the discarding corporation's player as the
    // decider and asks SFTN first for its odd share where Referee asks SFLP (id 665);
    // patched, player 2 decides, as in Referee.
    Case {
        entry: "split-decider-after-last-train-buy",
        fixture: "split-decider-after-last-train-buy-v2-random-5p-s5144.json",
        stop_at: 665,
        stop_message: "Blocking step Choose share to exchange IRSFF share for",
        patched_to: None,
        with: &["split-irsff-president-in-pool"],
    },
    // 1841 §12.3 (entry tuscan-merge-frozen-leader-and-operator): AFI, frozen (its chain of
    // control ends in the pool), buys the first 4-train; SB's token count (id 657) ends the
    // split and starts the deferred merge, SFMA, the best participant, is frozen too: 18xx's
    // decider is nil and it crashes on its name; patched, the priority deal (player 5)
    // decides, as in Referee.
    Case {
        entry: "tuscan-merge-frozen-leader-after-split",
        fixture: "tuscan-merge-frozen-leader-after-split-v2-random-5p-s5171.json",
        stop_at: 657,
        stop_message: "undefined method `name' for nil",
        patched_to: None,
        with: &["tuscan-transform-of-a-frozen-minor"],
    },
    // 1841 §7.5, §14 (entry concession-lock-at-bankruptcy-sale): phase 3, SSFL's president's
    // certificate lies in the pool since player 3's bankruptcy (id 908); player 2's
    // bankruptcy sells his 20% SSFL (id 916) and 18xx hands the presidency to SFTG (20%),
    // so SSFL operates where Referee's SSFL, still frozen, does not (id 924).
    Case {
        entry: "concession-lock-at-bankruptcy-sale",
        fixture: "concession-lock-at-bankruptcy-sale-v2-random-8p-s8114-to960.json",
        stop_at: 924,
        stop_message: "Blocking step Lay/Upgrade Track cannot process action destination_connection",
        patched_to: Some(960),
        with: &["transform-token-president-pays-first"],
    },
    // 1841 §9.7, §7.4 (entry corporate-buy-historical-president-from-pool): phase 3, SFMA
    // (historical) frozen with its president's certificate in the pool; SFTG (L.22) passes its
    // train step (id 245) and 18xx offers it that certificate in its corporate share step,
    // where Referee's operating round ends: the stock round's first pass (id 246) is refused.
    Case {
        entry: "corporate-buy-historical-president-from-pool",
        fixture: "corporate-buy-historical-president-from-pool-version_1-random-4p-s4114-to260.json",
        stop_at: 246,
        stop_message: "Blocking step Corporate Sell then Buy Shares cannot process action pass",
        patched_to: Some(260),
        with: &[],
    },
    // 1841 §7.4, §5.5 (entry concession-purchase-stale-frozen): SFMA, frozen since its
    // president's bankruptcy (id 363) and sold out, is bought back with its concession and
    // president's certificate by player 7 (id 541); the stock round ends with passes (id 544):
    // 18xx still has SFMA frozen and leaves it at L.8 where Referee moves it up to L.11, so the
    // operating order differs and 18xx refuses SFMA's destination_connection (id 585).
    Case {
        entry: "concession-purchase-stale-frozen",
        fixture: "concession-purchase-stale-frozen-version_1-random-7p-s7139-to600.json",
        stop_at: 585,
        stop_message: "Blocking step Lay/Upgrade Track cannot process action destination_connection",
        patched_to: Some(600),
        with: &[],
    },
    // 1841 §12.2, §8 (entry transform-into-a-corporation-done-earlier-in-the-round): Version
    // 1, OR 5.2, every other corporation of the round's list closed; SFTC, the last, transforms
    // into AFI (id 290), the Tuscan merge's holding earlier in the round: 18xx's stale done flag
    // ends the round, drops the purchase questions and refuses the first answer (id 291) in the
    // stock round; patched, the questions and AFI's token count (ids 291-297) are played.
    Case {
        entry: "transform-into-a-corporation-done-earlier-in-the-round",
        fixture: "transform-into-a-corporation-done-earlier-in-the-round-version_1-heuristic-7p-s7131-to300.json",
        stop_at: 291,
        stop_message: "Blocking step Sell then Buy Shares or Concessions cannot process action choose",
        patched_to: Some(300),
        with: &[],
    },
    // 1841 §12.1 (entry merger-pool-pairs-after-new-shares-run-out): ILTF and ICSF merge into
    // AFI (L.14, ids 1140-1141); player 7 claims the presidency (id 1142), SFLi and CGTF take a
    // new share each and the pool six, and the pool's seventh pair finds none left: 18xx's bank
    // pays it out to the share pool and crashes; patched, the pool is paid nothing, as in
    // Referee.
    Case {
        entry: "merger-pool-pairs-after-new-shares-run-out",
        fixture: "merger-pool-pairs-after-new-shares-run-out-v2-random-8p-s8012-to1150.json",
        stop_at: 1142,
        stop_message: "undefined method `spender' for <Engine::SharePool>",
        patched_to: Some(1150),
        with: &[],
    },
    // 1841 §5.2, §7.1 (entry ipo-purchase-hidden-by-a-treasury-holding): SFLP (L.117, one 20%
    // IPO share left) buys SFTN's 10% at L.158 (id 103); player 2 (L.134) buys SFLP's IPO share
    // (id 104): 18xx judges SFLP's IPO by SFTN's 10%, the smallest certificate in its treasury,
    // and lists no purchase. (The full game stops at id 548 without the Version 1 split patch.)
    Case {
        entry: "ipo-purchase-hidden-by-a-treasury-holding",
        fixture: "ipo-purchase-hidden-by-a-treasury-holding-version_1-heuristic-3p-s3003-to120.json",
        stop_at: 104,
        stop_message: "Blocking step Sell then Buy Shares or Concessions cannot process action buy_shares",
        patched_to: Some(120),
        with: &[],
    },
    // 1841 §9.2, §5.4 (entry home-token-keeps-a-stale-region-graph): SFLP reaches O13's only
    // free slot after its tile at S11 (id 129); SSFL's par (id 138) places SSFL's home token
    // there, and 18xx's token graph, not cleared by a home token, still says SFLP can token:
    // in SFLP's next turn (track pass, id 155) 18xx holds it in "Place a Token" where Referee,
    // with no city to token, wrote its routes (id 156). Patched, the graph is cleared at the
    // par, the correction is named there and the game runs on.
    Case {
        entry: "home-token-keeps-a-stale-region-graph",
        fixture: "home-token-keeps-a-stale-region-graph-v2-heuristic-3p-s3151-to170.json",
        stop_at: 156,
        stop_message: "Blocking step Place a Token cannot process action run_routes",
        patched_to: Some(170),
        with: &[],
    },
];

#[test]
fn each_patch_carries_its_example_game_past_the_listed_stop() {
    let Some(dir) = oracle() else {
        println!("SKIPPED: no ruby or no 18xx.games oracle (REFEREE_ORACLE_18XX)");
        return;
    };
    for case in CASES {
        let file = root().join("tests/oracle/fixtures").join(case.fixture);
        let export: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();

        let plain = replay(&dir, case.with, &file);
        println!("{} unpatched: {}", case.entry, plain["error"]);
        assert_eq!(plain["error"]["action_id"], case.stop_at, "{}", case.entry);
        let message = plain["error"]["message"].as_str().unwrap_or_default();
        assert!(
            message.contains(case.stop_message),
            "{}: {message}",
            case.entry
        );
        assert!(
            plain["corrections"]
                .as_array()
                .unwrap()
                .iter()
                .all(|c| c["id"] != case.entry),
            "{}",
            case.entry
        );

        let mut all = case.with.to_vec();
        all.push(case.entry);
        let patched = replay(&dir, &all, &file);
        println!("{} patched: {}", case.entry, patched["corrections"]);
        assert_eq!(patched["error"], Value::Null, "{}", case.entry);
        assert_eq!(patched["patches"], serde_json::json!(all));
        match case.patched_to {
            None => {
                assert_eq!(patched["finished"], true, "{}", case.entry);
                assert_eq!(patched["result"], export["result"], "{}", case.entry);
                assert_eq!(
                    patched["game_end_reason"], export["game_end_reason"],
                    "{}",
                    case.entry
                );
            }
            Some(last) => assert_eq!(patched["last_ok_action"], last, "{}", case.entry),
        }
        let corrections = patched["corrections"].as_array().unwrap();
        assert!(
            corrections.iter().any(|c| c["id"] == case.entry
                && c["action_id"].as_i64().is_some_and(|at| at <= case.stop_at)),
            "{}: {corrections:?}",
            case.entry
        );
    }
}

/// 1841 §13, §14 (entry game-end-after-the-last-bankruptcy): the game ends at once when all
/// players but one are bankrupt. Version 1, 4 players: player 3 resigns for RATF's train (id
/// 497, the file's last action), leaving player 4. The unmodified oracle has no stop to show:
/// it plays the frozen turns of the corporations after RATF first (each price two columns left)
/// and ends with player 4 at L.122 where Referee ends at once with L.123; patched, it ends in
/// the bankruptcy's action with Referee's result, naming the correction at id 497.
#[test]
fn the_game_end_patch_ends_the_example_game_at_the_last_bankruptcy() {
    let Some(dir) = oracle() else {
        println!("SKIPPED: no ruby or no 18xx.games oracle (REFEREE_ORACLE_18XX)");
        return;
    };
    let entry = "game-end-after-the-last-bankruptcy";
    let file = root()
        .join("tests/oracle/fixtures")
        .join("game-end-after-the-last-bankruptcy-version_1-random-4p-s13173.json");
    let export: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let ours = serde_json::json!({"1": 0, "2": 0, "3": 0, "4": 123});
    assert_eq!(export["result"], ours);
    assert_eq!(export["game_end_reason"], "bankrupt");

    let plain = replay(&dir, &[], &file);
    assert_eq!(plain["error"], Value::Null);
    assert_eq!(plain["finished"], true);
    assert_eq!(plain["last_ok_action"], 497);
    assert_eq!(plain["game_end_reason"], "bankrupt");
    assert_eq!(
        plain["result"],
        serde_json::json!({"1": 0, "2": 0, "3": 0, "4": 122})
    );
    assert_eq!(plain["corrections"], serde_json::json!([]));

    let patched = replay(&dir, &[entry], &file);
    println!("{entry} patched: {}", patched["corrections"]);
    assert_eq!(patched["error"], Value::Null);
    assert_eq!(patched["finished"], true);
    assert_eq!(patched["patches"], serde_json::json!([entry]));
    assert_eq!(patched["game_end_reason"], "bankrupt");
    assert_eq!(patched["result"], ours);
    let corrections = patched["corrections"].as_array().unwrap();
    assert_eq!(corrections.len(), 1, "{corrections:?}");
    assert_eq!(corrections[0]["id"], entry);
    assert_eq!(corrections[0]["action_id"], 497);
    assert!(
        corrections[0]["detail"]
            .as_str()
            .unwrap()
            .contains("frozen turns of CTDA,"),
        "{corrections:?}"
    );
}
