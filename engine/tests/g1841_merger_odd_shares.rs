//! A merger's odd old shares (1841 §12.1, pass 2): each holder answers at his turn in the
//! order of the holders (issue #22).

mod common;
use common::g1841::{data, index_of, oracle_accepts, records_between, reexport_text};

/// 1841 §12.1: pass 2 goes through the holders in order; a corporation's controller answers
/// for it (§7.2). v2, 7 players, random, seed 7176: SFTC (player 2's) merges with AFI into
/// CTDA at id 900; the merger moves SFTC's president's certificate of SFLi to CTDA, which
/// has no president. SFLi, holding an odd SFTC share, comes before player 4 in the order:
/// at its turn nobody controls it and it takes cash (18xx.games: `:full` only with
/// `entity.player`, so no question). Player 4 then claims CTDA's presidency (id 901). This
/// engine asked SFLi after the claim, of player 4, and the export wrote SFLi's `choose`
/// where 18xx asks player 4 ("Blocking step Choose share upgrade cannot process action
/// choose at 901").
#[test]
fn s12_1_an_odd_share_is_answered_at_its_turn_before_a_later_claim() {
    let name = "v2-7p-random-s7176-to903.json";
    let written = reexport_text(name, &data(name));
    assert_eq!(index_of(&written, 900), 885);
    assert_eq!(index_of(&written, 901), 886);
    assert_eq!(
        records_between(&written, 900, 903),
        ["merge SFTC", "choose 4", "choose ILTF", "remove_token CTDA"]
    );
    assert_eq!(written.json["actions"][900]["choice"], "pres");
    oracle_accepts(name, &written.json, 903, true);
}
