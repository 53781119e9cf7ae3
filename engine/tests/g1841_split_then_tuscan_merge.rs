//! The Ferdinandea split (1841 §12.4) ending in the action that starts the Tuscan merge
//! queued behind it (§11, §12.3), as the export writes it for 18xx.games (issue #22): the
//! questions of the split are judged where 18xx asks them, before the merge.

mod common;
use common::g1841::{data, index_of, oracle_accepts, records_between, reexport_text};

/// 18xx.games asks each successor's extra tokens (`secession_tokens`) of the successor when
/// a player controls it, else of IRSFF's president; this engine asks only the former, and
/// the export writes the latter's `choose 0`. v2, 5 players, random, seed 5153: SFL (its
/// president SFLP, player 5's) declines its tokens at id 493 (our index 485 of the re-import); the split ends
/// and the Tuscan merge moves SFL's presidency to SFLi, which has no president yet. Judged
/// after the merge, SFL looked president-less and the export wrote a second answer, a
/// `choose 0` of player 4 at id 494, where 18xx asks player 5 about SFLi's presidency
/// ("Blocking step Choose share upgrade cannot process action choose at 494"; likewise
/// seeds 6121, 6163, 7115 and 7150 of the same run).
#[test]
fn s12_4_split_tokens_are_judged_before_the_tuscan_merge() {
    let name = "v2-5p-random-s5153-to496.json";
    let written = reexport_text(name, &data(name));
    assert_eq!(index_of(&written, 493), 485);
    assert_eq!(
        records_between(&written, 492, 496),
        [
            "choose SB",
            "choose SFL",
            "choose 5",
            "choose SFTC",
            "choose CFCC"
        ]
    );
    assert_eq!(written.json["actions"][493]["choice"], "pres");
    oracle_accepts(name, &written.json, 496, false);
}
