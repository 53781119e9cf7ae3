//! Setting up a game of 1841 (1841 §1, §2, §4).

use super::concession::Concession;
use super::data;
use super::options::Options;
use super::state::{ConcessionRound, Player, Round, SealedBid, State};
use crate::{Seat, SetupError};

/// The concessions of the ruleset chosen by `options`, in concession number order:
/// 8 in the full game, 5 in lite (1841 §1, §3.2; data `concession_round.concessions_in_order`).
pub fn concessions_of(options: &Options) -> Vec<Concession> {
    data::ruleset(options)
        .concession_round
        .concessions_in_order
        .iter()
        .filter_map(|s| s.parse().ok())
        .collect()
}

/// Creates the state at the start of the concession round.
///
/// * every player receives the starting cash for the player count from the bank (1841 §2:
///   full 3–8 players 1120/840/672/560/480/420, lite 3–6 players 840/630/504/420);
/// * the bank keeps the rest of L.14,400 (full) or L.10,900 (lite) (1841 §1);
/// * the player order is the seat order (1841 §2); the phase is `2`;
/// * the concession round starts with every concession for sale, seat 0 to nominate
///   (Version 2, 1841 §4.1 step 1) or every seat to submit a sealed bid (Version 1, §4.2 step 1).
///
/// Errors: [`SetupError::PlayerCount`] outside 3–8 players (3–6 with `lite`).
pub fn setup(options: &Options, seats: u32) -> Result<State, SetupError> {
    let rules = data::ruleset(options);
    let range_error = || SetupError::PlayerCount {
        game: "1841",
        min: rules.players.min,
        max: rules.players.max,
        got: seats,
    };
    if seats < rules.players.min || seats > rules.players.max {
        return Err(range_error());
    }
    let cash = rules.starting_cash(seats).ok_or_else(range_error)?;
    let players: Vec<Player> = (0..seats)
        .map(|seat| Player {
            bankrupt: false,
            loan: 0,
            seat,
            cash,
            concessions: Vec::new(),
        })
        .collect();
    let sealed_bids = if options.sealed_bids() {
        (0..seats)
            .map(|seat| SealedBid {
                seat,
                submitted: false,
                amounts: Vec::new(),
            })
            .collect()
    } else {
        Vec::new()
    };
    Ok(State {
        options: *options,
        bank_cash: rules.bank_cash_total - cash * i64::from(seats),
        players,
        player_order: (0..seats).collect::<Vec<Seat>>(),
        bank_concessions: Vec::new(),
        phase: rules
            .phases
            .first()
            .map(|p| p.name.clone())
            .unwrap_or_else(|| "2".to_string()),
        round: Round::ConcessionRound(ConcessionRound {
            remaining: concessions_of(options),
            nominating_seat: 0,
            consecutive_passes: 0,
            auction: None,
            sealed_bids,
            pending_tie_auctions: Vec::new(),
        }),
        corporations: super::corporation::initial_corporations(options),
        next_market_arrival: 0,
        operations: Default::default(),
        game_end: Default::default(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn full() -> Options {
        Options::default()
    }

    fn lite() -> Options {
        Options {
            lite: true,
            ..Options::default()
        }
    }

    #[test]
    fn s2_starting_cash_full() {
        for (n, cash) in [(3, 1120), (4, 840), (5, 672), (6, 560), (7, 480), (8, 420)] {
            let s = setup(&full(), n).unwrap();
            assert_eq!(s.players.len(), n as usize);
            assert!(s.players.iter().all(|p| p.cash == cash), "{n} players");
            assert_eq!(s.bank_cash, 14_400 - cash * i64::from(n), "{n} players");
            assert_eq!(s.total_money(), 14_400);
        }
    }

    #[test]
    fn s15_2_starting_cash_lite() {
        for (n, cash) in [(3, 840), (4, 630), (5, 504), (6, 420)] {
            let s = setup(&lite(), n).unwrap();
            assert!(s.players.iter().all(|p| p.cash == cash), "{n} players");
            assert_eq!(s.bank_cash, 10_900 - cash * i64::from(n), "{n} players");
            assert_eq!(s.total_money(), 10_900);
        }
        // Version 1 with lite: lite's cash, bank and concessions (docs/games/1841.md I6).
        let s = setup(
            &Options {
                lite: true,
                version_1: true,
                ..Options::default()
            },
            4,
        )
        .unwrap();
        assert_eq!(s.players[0].cash, 630);
        assert_eq!(s.concession_round().unwrap().remaining.len(), 5);
    }

    #[test]
    fn s1_bank_after_starting_cash_4p() {
        assert_eq!(setup(&full(), 4).unwrap().bank_cash, 11_040);
        assert_eq!(setup(&lite(), 4).unwrap().bank_cash, 8_380);
    }

    #[test]
    fn s1_player_range_full_3_to_8_lite_3_to_6() {
        for n in [0, 1, 2, 9, 100] {
            assert_eq!(
                setup(&full(), n),
                Err(SetupError::PlayerCount {
                    game: "1841",
                    min: 3,
                    max: 8,
                    got: n
                })
            );
        }
        for n in [2, 7, 8] {
            assert_eq!(
                setup(&lite(), n),
                Err(SetupError::PlayerCount {
                    game: "1841",
                    min: 3,
                    max: 6,
                    got: n
                })
            );
        }
    }

    #[test]
    fn s1_concessions_full_8_lite_5() {
        let s = setup(&full(), 3).unwrap();
        assert_eq!(s.concession_round().unwrap().remaining, Concession::ALL);
        let s = setup(&lite(), 3).unwrap();
        assert_eq!(
            s.concession_round().unwrap().remaining,
            [
                Concession::Bayard,
                Concession::Sftc,
                Concession::Sftn,
                Concession::Sftg,
                Concession::Irsff
            ]
        );
    }

    #[test]
    fn s4_start_state() {
        let s = setup(&full(), 5).unwrap();
        assert_eq!(s.player_order, [0, 1, 2, 3, 4]);
        assert_eq!(s.phase, "2");
        assert!(s.bank_concessions.is_empty());
        let r = s.concession_round().unwrap();
        assert_eq!((r.nominating_seat, r.consecutive_passes), (0, 0));
        assert!(r.auction.is_none() && r.sealed_bids.is_empty());
        let v1 = setup(
            &Options {
                version_1: true,
                ..Options::default()
            },
            3,
        )
        .unwrap();
        let r = v1.concession_round().unwrap();
        assert_eq!(r.sealed_bids.len(), 3);
        assert!(
            r.sealed_bids
                .iter()
                .all(|b| !b.submitted && b.amounts.is_empty())
        );
    }
}
