//! The undo/redo/message filter of an export's records (18xx `filtered_actions`, see the
//! [`super`] documentation): the effective actions, in time linear in the records.

use rustc_hash::FxHashMap;
use serde_json::Value;

use super::ImportError;

/// Applies the undo/redo/message filter to raw actions and returns the effective ones, in
/// order (see the module documentation).
///
/// Errors: [`ImportError::UndoTargetMissing`] for an `undo` to an id that is not effective.
pub fn filter_actions(actions: &[Value]) -> Result<Vec<Value>, ImportError> {
    fn head(a: &Value) -> Head<'_> {
        Head {
            kind: skipped_undo(
                a.get("type").and_then(Value::as_str).unwrap_or_default(),
                a.get(crate::g1841::export18xx::MERGER_BACKED_OUT),
            ),
            action_id: a.get("action_id").and_then(Value::as_i64),
            id: a.get("id").and_then(Value::as_i64),
        }
    }
    Ok(effective_indices(actions, head)?
        .into_iter()
        .filter_map(|i| actions.get(i).cloned())
        .collect())
}

/// The record type the undo/redo filter sees: an `undo` a Referee export wrote after a
/// merger this engine backed out ([`crate::g1841::export18xx::MERGER_BACKED_OUT`] `true`) counts as
/// a `message` (no effect): the proposal and the declines stay, and replaying them backs the
/// merger out again (1841 §12.1).
pub(super) fn skipped_undo<'a>(kind: &'a str, mark: Option<&Value>) -> &'a str {
    if kind == "undo" && mark.and_then(Value::as_bool) == Some(true) {
        "message"
    } else {
        kind
    }
}

/// What the undo/redo filter reads of a recorded action: `type` (empty when it is not a
/// text), `action_id` and `id` (when integers).
pub(super) struct Head<'a> {
    pub(super) kind: &'a str,
    pub(super) action_id: Option<i64>,
    pub(super) id: Option<i64>,
}

/// [`filter_actions`] as indices into `actions` (no action is copied), reading each action
/// through `head`.
///
/// Linear in the number of records whatever they are (issue #24: a 4 MiB export of
/// alternating `undo` to the first action and `redo` cost minutes of CPU when each undo
/// split the active list off and each redo copied it back). The active actions are a prefix
/// `buf[..len]` of one buffer: an `undo` only shortens the prefix (and remembers the old
/// length), a `redo` restores the remembered length (the buffer beyond the prefix is
/// untouched until an ordinary action, which cuts it off and forgets every undo). An `undo`
/// to an action id finds the id's last position in the prefix through an index of positions
/// per id (kept in step with the buffer: amortized constant work per record, a binary search
/// per undo).
pub(super) fn effective_indices<T>(
    actions: &[T],
    head: impl Fn(&T) -> Head<'_>,
) -> Result<Vec<usize>, ImportError> {
    // Record indices of the effective actions so far (and, past `len`, of undone ones).
    let mut buf: Vec<usize> = Vec::new();
    let mut len = 0usize;
    // The lengths before each undo still redoable, newest last.
    let mut undone: Vec<usize> = Vec::new();
    // Per action id, the positions in `buf` holding it, ascending.
    let mut positions: FxHashMap<i64, Vec<usize>> = FxHashMap::default();
    for (index, action) in actions.iter().enumerate() {
        let action = head(action);
        match action.kind {
            "message" => {}
            "undo" => {
                let keep = match action.action_id {
                    Some(0) => 0,
                    Some(target) => {
                        let at = positions
                            .get(&target)
                            .and_then(|list| {
                                let below = list.partition_point(|&p| p < len);
                                below.checked_sub(1).map(|i| list[i])
                            })
                            .ok_or(ImportError::UndoTargetMissing(target))?;
                        at + 1
                    }
                    None => len.saturating_sub(1),
                };
                undone.push(len);
                len = keep.min(len);
            }
            "redo" => {
                if let Some(restored) = undone.pop() {
                    len = restored;
                }
            }
            _ => {
                // Everything undone is forgotten: cut it off the buffer and the index.
                for &dropped in buf.get(len..).unwrap_or_default() {
                    if let Some(id) = actions.get(dropped).and_then(|a| head(a).id)
                        && let Some(list) = positions.get_mut(&id)
                    {
                        while list.last().is_some_and(|&p| p >= len) {
                            list.pop();
                        }
                    }
                }
                buf.truncate(len);
                undone.clear();
                if let Some(id) = action.id {
                    positions.entry(id).or_default().push(buf.len());
                }
                buf.push(index);
                len = buf.len();
            }
        }
    }
    buf.truncate(len);
    Ok(buf)
}

#[cfg(test)]
mod undo_redo_tests {
    use super::*;
    use std::cell::Cell;

    /// (type, id, action_id) of a test record.
    type Rec = (&'static str, Option<i64>, Option<i64>);

    fn head_of(r: &Rec) -> Head<'_> {
        Head {
            kind: r.0,
            id: r.1,
            action_id: r.2,
        }
    }

    /// The filter as first written (split off the undone actions, copy them back on a
    /// redo): the reference the linear one must agree with.
    fn reference(actions: &[Rec]) -> Result<Vec<usize>, ImportError> {
        let mut active: Vec<usize> = Vec::new();
        let mut undone: Vec<Vec<usize>> = Vec::new();
        for (index, a) in actions.iter().enumerate() {
            match a.0 {
                "message" => {}
                "undo" => {
                    let keep = match a.2 {
                        Some(0) => 0,
                        Some(t) => {
                            active
                                .iter()
                                .rposition(|&i| actions[i].1 == Some(t))
                                .ok_or(ImportError::UndoTargetMissing(t))?
                                + 1
                        }
                        None => active.len().saturating_sub(1),
                    };
                    undone.push(active.split_off(keep));
                }
                "redo" => {
                    if let Some(r) = undone.pop() {
                        active.extend(r);
                    }
                }
                _ => {
                    active.push(index);
                    undone.clear();
                }
            }
        }
        Ok(active)
    }

    /// Random sequences of actions (ids reused on purpose), undos (plain, to 0, to an id,
    /// to a missing id), redos and messages: the linear filter gives the reference's answer.
    #[test]
    fn the_linear_filter_agrees_with_the_reference() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut rnd = |n: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % n
        };
        for _ in 0..3000 {
            let n = 1 + rnd(40) as usize;
            let recs: Vec<Rec> = (0..n)
                .map(|_| match rnd(10) {
                    0..=3 => ("pass", Some(1 + rnd(12) as i64), None),
                    4 => ("undo", None, None),
                    5 => ("undo", None, Some(rnd(13) as i64)),
                    6 | 7 => ("redo", None, None),
                    8 => ("message", Some(1 + rnd(12) as i64), None),
                    _ => ("bid", None, None),
                })
                .collect();
            assert_eq!(
                effective_indices(&recs, head_of),
                reference(&recs),
                "{recs:?}"
            );
        }
    }

    /// The undo/redo bomb of issue #24 (one action, then alternating `undo` to it and `redo`
    /// after many actions): the filter reads each record a bounded number of times (counted),
    /// where the first version read the whole active list at every undo.
    #[test]
    fn an_undo_redo_bomb_costs_linear_work() {
        let mut recs: Vec<Rec> = vec![("pass", Some(1), None)];
        recs.extend((2..20_002).map(|id| ("pass", Some(id), None)));
        for _ in 0..20_000 {
            recs.push(("undo", None, Some(1)));
            recs.push(("redo", None, None));
            recs.push(("undo", None, Some(0)));
            recs.push(("redo", None, None));
        }
        fn counting(reads: &Cell<u64>) -> impl for<'a> Fn(&'a Rec) -> Head<'a> + '_ {
            move |r| {
                reads.set(reads.get() + 1);
                head_of(r)
            }
        }
        let reads = Cell::new(0u64);
        let active = effective_indices(&recs, counting(&reads)).unwrap();
        assert_eq!(active.len(), 20_001);
        let n = recs.len() as u64;
        assert!(
            reads.get() <= 3 * n,
            "{} reads of {n} records (quadratic: the undo scans)",
            reads.get()
        );
    }
}
