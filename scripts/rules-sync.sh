#!/usr/bin/env bash
# Refresh the rule text of docs/rules/*.md from the developers' shared rules folder
# (../shared/rules beside the repository, or $REFEREE_SHARED_RULES), keeping each file's
# header: everything up to and including its "end of header" line. tests/tests/rules_docs.rs
# checks the result.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
shared="${REFEREE_SHARED_RULES:-$root/../shared/rules}"
if [ ! -d "$shared" ]; then
  echo "rules-sync: no shared rules folder at $shared: nothing to do" >&2
  exit 1
fi
for doc in "$root"/docs/rules/*.md; do
  name="$(basename "$doc")"
  [ "$name" = README.md ] && continue
  if [ ! -f "$shared/$name" ]; then
    echo "rules-sync: $name is not in $shared (kept as it is)" >&2
    continue
  fi
  line="$(grep -n -m1 '^<!-- end of header:' "$doc" | cut -d: -f1)"
  if [ -z "$line" ]; then
    echo "rules-sync: $name has no end-of-header line" >&2
    exit 1
  fi
  tmp="$(mktemp)"
  { head -n "$line" "$doc"; echo; cat "$shared/$name"; } > "$tmp"
  if cmp -s "$tmp" "$doc"; then rm "$tmp"; else mv "$tmp" "$doc"; echo "rules-sync: updated docs/rules/$name"; fi
done
