#!/usr/bin/env bash
# Checks the wire API in proto/ with buf (from npm: @bufbuild/buf, pinned in
# clients/typescript/package.json; no system buf, no BSR, no remote plugins):
#   1. buf lint            (STANDARD, except SERVICE_SUFFIX; see proto/buf.yaml)
#   2. buf format          (no diff allowed)
#   3. buf breaking        (FILE) against the committed baseline image proto/baseline/referee.binpb
#   4. buf breaking        (FILE) against proto/ of the previous git commit, when there is one
# Every step runs; the script prints what it checked and exits non-zero if any step failed.
#
# Usage: scripts/proto-check.sh            (from anywhere)
#        BUF=/path/to/buf scripts/proto-check.sh   (use another buf binary)
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

TS_DIR="clients/typescript"
BASELINE="proto/baseline/referee.binpb"

# --- buf --------------------------------------------------------------------------------------
if [[ -z "${BUF:-}" ]]; then
  BUF="$ROOT/$TS_DIR/node_modules/.bin/buf"
  if [[ ! -x "$BUF" ]]; then
    echo "install: npm ci in $TS_DIR (node_modules, for buf)"
    (cd "$TS_DIR" && npm ci --no-audit --no-fund) || { echo "proto-check: npm ci failed" >&2; exit 1; }
  fi
fi
if ! BUF_VERSION="$("$BUF" --version 2>&1)"; then
  echo "proto-check: cannot run buf at $BUF: $BUF_VERSION" >&2
  exit 1
fi
echo "proto-check: buf $BUF_VERSION ($BUF)"

failures=()
step() { # step NAME CMD...
  local name="$1"; shift
  echo "proto-check: [$name] $*"
  if "$@"; then
    echo "proto-check: [$name] ok"
  else
    echo "proto-check: [$name] FAILED" >&2
    failures+=("$name")
  fi
}

echo "proto-check: files:"
"$BUF" ls-files proto | sed 's/^/  /'

# --- 1. lint, 2. format -----------------------------------------------------------------------
step lint "$BUF" lint proto
step format "$BUF" format proto --diff --exit-code

# --- 3. breaking vs the committed baseline ------------------------------------------------------
if [[ -f "$BASELINE" ]]; then
  step breaking-baseline "$BUF" breaking proto --against "$BASELINE"
else
  echo "proto-check: [breaking-baseline] FAILED: $BASELINE is missing" >&2
  failures+=("breaking-baseline")
fi

# --- 4. breaking vs the previous commit ---------------------------------------------------------
breaking_prev() {
  local out rc tmp
  echo "  $BUF breaking proto --against '.git#ref=HEAD~1,subdir=proto'"
  out="$("$BUF" breaking proto --against '.git#ref=HEAD~1,subdir=proto' 2>&1)"; rc=$?
  [[ -n "$out" ]] && printf '%s\n' "$out"
  # 0 = compatible, 100 = breaking changes found; anything else is buf failing to read the git
  # input (seen in some clones): retry with a plain export of HEAD~1:proto.
  if [[ $rc -eq 0 || $rc -eq 100 ]]; then return $rc; fi
  echo "proto-check: [breaking-previous] git input failed (exit $rc); retrying with git archive"
  tmp="$(mktemp -d)"
  if git archive HEAD~1 proto | tar -x -C "$tmp"; then
    "$BUF" breaking proto --against "$tmp/proto"; rc=$?
  else
    rc=1
  fi
  rm -rf "$tmp"
  return $rc
}

if ! git rev-parse --git-dir >/dev/null 2>&1; then
  echo "proto-check: [breaking-previous] skipped: not a git work tree"
elif ! git rev-parse --verify -q 'HEAD~1^{commit}' >/dev/null; then
  if [[ "$(git rev-parse --is-shallow-repository 2>/dev/null)" == "true" ]]; then
    echo "proto-check: [breaking-previous] skipped: shallow clone, HEAD~1 not available (baseline check still ran)"
  else
    echo "proto-check: [breaking-previous] skipped: no previous commit"
  fi
elif ! git cat-file -e 'HEAD~1:proto' 2>/dev/null; then
  echo "proto-check: [breaking-previous] skipped: HEAD~1 ($(git rev-parse --short HEAD~1)) has no proto/ directory"
else
  echo "proto-check: [breaking-previous] against HEAD~1 = $(git rev-parse --short HEAD~1)"
  step breaking-previous breaking_prev
fi

# --- summary -------------------------------------------------------------------------------------
if ((${#failures[@]})); then
  echo "proto-check: FAILED: ${failures[*]}" >&2
  exit 1
fi
echo "proto-check: all checks passed"
