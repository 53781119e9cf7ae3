//! Pass 3 of the optimizer, the combination (1841 §9.3): branch and bound over the trains,
//! largest first, each taking one of its routes sharing no segment with those taken, or none;
//! at most one route stopping at yellow Milano; identical trains take routes in list order.

use super::candidates::Store;
use super::graph::Graph;
use super::*;

/// Branch and bound over the trains; returns (train index, route) pairs and the total.
pub(super) fn combine(
    g: &Graph,
    s: &Store,
    trains: &[TrainSpec],
    b: &mut Budget,
) -> (Vec<(usize, usize)>, i64) {
    // Candidate lists per distinct (cap, passes_free), by revenue (highest first).
    let mut lists: Vec<((u32, bool), Vec<usize>)> = Vec::new();
    let mut of_train = Vec::new();
    for t in trains {
        let key = (t.cap, t.passes_free);
        let li = match lists.iter().position(|(k, _)| *k == key) {
            Some(i) => i,
            None => {
                let mut l: Vec<usize> = (0..s.len())
                    .filter(|&r| {
                        let c = if t.passes_free {
                            s.counted8[r]
                        } else {
                            s.counted[r]
                        };
                        c <= t.cap && s.revenue[r] > 0
                    })
                    .collect();
                l.sort_by(|&x, &y| s.revenue[y].cmp(&s.revenue[x]).then(x.cmp(&y)));
                lists.push((key, l));
                lists.len() - 1
            }
        };
        of_train.push(li);
    }
    let best: Vec<i64> = of_train
        .iter()
        .map(|&li| lists[li].1.first().map_or(0, |&r| s.revenue[r]))
        .collect();
    let mut suffix = vec![0; trains.len() + 1];
    for k in (0..trains.len()).rev() {
        suffix[k] = suffix[k + 1] + best[k];
    }
    let mut bb = Bb {
        s,
        lists: lists.into_iter().map(|(_, l)| l).collect(),
        of_train,
        suffix,
        used: vec![0; g.words],
        pick: vec![None; trains.len()],
        best: Vec::new(),
        best_total: 0,
        greedy_done: false,
    };
    bb.search(0, 0, b);
    let chosen = bb.best.clone();
    (chosen, bb.best_total)
}

struct Bb<'a> {
    s: &'a Store,
    lists: Vec<Vec<usize>>,
    of_train: Vec<usize>,
    suffix: Vec<i64>,
    used: Vec<u64>,
    /// Position in its list of each train's route so far.
    pick: Vec<Option<usize>>,
    best: Vec<(usize, usize)>,
    best_total: i64,
    /// The first descent is completed even when the budget has run out.
    greedy_done: bool,
}

impl Bb<'_> {
    fn tick(&mut self, b: &mut Budget) -> bool {
        if self.greedy_done {
            b.tick()
        } else {
            b.used += 1;
            true
        }
    }

    fn search(&mut self, k: usize, cur: i64, b: &mut Budget) {
        if k == self.pick.len() {
            if cur > self.best_total {
                self.best_total = cur;
                self.best = self
                    .pick
                    .iter()
                    .enumerate()
                    .filter_map(|(t, p)| p.map(|p| (t, self.lists[self.of_train[t]][p])))
                    .collect();
            }
            self.greedy_done = true;
            return;
        }
        if !self.tick(b) || (self.greedy_done && cur + self.suffix[k] <= self.best_total) {
            return;
        }
        let li = self.of_train[k];
        // Identical trains take routes in increasing list order; after one runs nothing,
        // the next identical ones run nothing too.
        let start = match k.checked_sub(1) {
            Some(p) if self.of_train[p] == li => self.pick[p].map(|pos| pos + 1),
            _ => Some(0),
        };
        if let Some(start) = start {
            let s = self.s;
            for pos in start..self.lists[li].len() {
                let r = self.lists[li][pos];
                let rev = s.revenue[r];
                if self.greedy_done && cur + rev + self.suffix[k + 1] <= self.best_total {
                    break;
                }
                if !self.tick(b) {
                    return;
                }
                let bits = s.bits(r);
                if self.used.iter().zip(bits).any(|(u, x)| u & x != 0) {
                    continue;
                }
                for (u, x) in self.used.iter_mut().zip(bits) {
                    *u |= x;
                }
                self.pick[k] = Some(pos);
                self.search(k + 1, cur + rev, b);
                self.pick[k] = None;
                for (u, x) in self.used.iter_mut().zip(bits) {
                    *u &= !x;
                }
                if b.cut {
                    return;
                }
            }
        }
        if cur + self.suffix[k + 1] > self.best_total || !self.greedy_done {
            self.search(k + 1, cur, b);
        }
    }
}
