#!/usr/bin/env python3
"""Runs the examples of the docs against a real server, so they cannot drift.

    scripts/doc_examples.py [--list] [FILE...]

Reads the fenced blocks of README.md, docs/API.md, docs/CLIENTS.md, clients/python/README.md
and clients/typescript/README.md (or the FILEs given) and runs every ```sh, ```python and ```ts
block, in that order, in one scratch directory (so a file one block writes, like `game.json`
or the recorded game `132002.json`, is there for the next), against one server started here (`$REFEREE_BIN serve` on
a free port; `127.0.0.1:50051` and `localhost:50051` in a block are rewritten to it; a second
server in sealed mode, with a fresh key, answers for `127.0.0.1:50052`). Fails
when a block exits non-zero, printing its output. Blocks without one of those languages
(signatures, pseudo-code) are not examples and are left alone.

A block is marked with an HTML comment on the line just before its fence (invisible on GitHub):

    <!-- doc-example: skip: REASON -->    not run; REASON is printed (every skip needs one)
    <!-- doc-example: file NAME -->       written to NAME in the scratch directory, not run
    <!-- doc-example: cwd DIR -->         run in DIR (relative to the repository) instead

How a block runs:
* sh: `bash -euo pipefail`, in a scratch directory that links every top-level entry of the
  repository (so `./clients/python`, `proto`, `tests/...` work), with the test venv
  (clients/python/.venv, $REFEREE_PY_VENV) first on the PATH (so `pip install` stays
  project-local), then clients/typescript/node_modules/.bin (buf), then the server binary's
  directory (`referee`, as after `cargo install --path service`). `curl` fails on an HTTP
  error (--fail-with-body); `curl https://18xx.games/api/game/ID` (not reachable here) answers
  the recorded game tests/fixtures/1841/ID.json; `cargo run --release --bin referee -- serve`
  (the README's server command) is the server already running. A one-line command followed by
  a comment line that states its output (`# 17`, `# {"text": ...}`: a number, a JSON value or
  a quoted string, without `...` or `…`) must print exactly that (JSON compared as values).
* python: the venv's python, same directory.
* ts: `tsx` of clients/typescript, as an ES module placed in that folder (so `@referee/client`
  resolves to the client), run from the scratch directory.

Needs the venv with the client installed (`clients/python/scripts/test.sh` makes it) and
`npm ci` done in clients/typescript; `jq`. Suite "doc examples" of scripts/test-all.sh.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = [
    "README.md",
    "docs/API.md",
    "docs/CLIENTS.md",
    "clients/python/README.md",
    "clients/typescript/README.md",
]
LANGS = {"sh": "sh", "bash": "sh", "shell": "sh", "python": "python", "py": "python", "ts": "ts", "typescript": "ts"}
MARK = re.compile(r"<!--\s*doc-example:\s*(.*?)\s*-->")

SH_PRELUDE = r"""
curl() {
  local a
  for a in "$@"; do
    if [[ $a =~ ^https://18xx\.games/api/game/([0-9]+)$ ]]; then
      echo "doc-examples: $a answered from tests/fixtures/1841/${BASH_REMATCH[1]}.json" >&2
      cat "$REFEREE_ROOT/tests/fixtures/1841/${BASH_REMATCH[1]}.json"
      return
    fi
  done
  command curl --fail-with-body "$@"
}
__doc_expect() {  # __doc_expect OUTPUT, the stated output on stdin
  local want
  want=$(cat)
  python3 - "$1" "$want" <<'__DOC_PY__'
import json, sys
got, want = sys.argv[1].strip(), sys.argv[2].strip()
def value(text):
    try:
        return json.loads(text)
    except ValueError:
        return text
if value(got) != value(want):
    sys.exit(f"doc-examples: the output differs from the one the document states\n  stated: {want}\n  got:    {got}")
__DOC_PY__
}
cargo() {
  if [[ "$*" == "run --release --bin referee -- serve"* ]]; then
    echo "doc-examples: the server is already running at $REFEREE_DOC_ADDR" >&2
    return 0
  fi
  command cargo "$@"
}
"""


STATED = re.compile(r"^# ([0-9\[{\"].*)$")


def with_output_checks(text: str) -> tuple[str, int]:
    """An sh block where each one-line command followed by a comment stating its output (see
    the module doc) prints that output and then compares it; the number of such checks."""
    lines = text.split("\n")
    out, checks = [], 0
    for i, line in enumerate(lines):
        nxt = STATED.match(lines[i + 1]) if i + 1 < len(lines) else None
        prev = lines[i - 1].rstrip() if i > 0 else ""
        one_line = (line.strip() and not line.lstrip().startswith("#")
                    and not prev.endswith(("\\", "|", "&&"))
                    and not line.rstrip().endswith(("\\", "|", "&&", "&")))
        if nxt and one_line and "..." not in nxt.group(1) and "…" not in nxt.group(1):
            out += [f"__doc_out=$({line})", 'printf "%s\\n" "$__doc_out"',
                    "__doc_expect \"$__doc_out\" <<'__DOC_STATED__'", nxt.group(1), "__DOC_STATED__"]
            checks += 1
        else:
            out.append(line)
    return "\n".join(out), checks


@dataclass
class Block:
    doc: str
    line: int
    lang: str
    text: str
    mark: str


def blocks(doc: str) -> list[Block]:
    lines = (ROOT / doc).read_text().split("\n")
    out, i = [], 0
    while i < len(lines):
        m = re.match(r"^(\s*)```(\S*)\s*$", lines[i])
        if not m:
            i += 1
            continue
        indent, lang = m.group(1), m.group(2).lower()
        j = i + 1
        while j < len(lines) and not lines[j].strip().startswith("```"):
            j += 1
        prev = lines[i - 1] if i > 0 else ""
        mark = MARK.search(prev)
        if lang in LANGS:
            body = "\n".join(line[len(indent):] if line.startswith(indent) else line for line in lines[i + 1 : j])
            out.append(Block(doc, i + 1, LANGS[lang], body + "\n", mark.group(1) if mark else ""))
        i = j + 1
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--list", action="store_true", help="list the blocks and what would happen")
    ap.add_argument("files", nargs="*", help=f"documents (default: {' '.join(DOCS)})")
    args = ap.parse_args()
    docs = args.files or DOCS

    if args.list:
        for doc in docs:
            for b in blocks(doc):
                print(f"{b.doc}:{b.line} {b.lang:6} {b.mark or 'run'}")
        return 0

    venv = Path(os.environ.get("REFEREE_PY_VENV") or ROOT / "clients" / "python" / ".venv")
    if not (venv / "bin" / "python").exists():
        print(f"doc-examples: no Python venv at {venv}: run clients/python/scripts/test.sh first", file=sys.stderr)
        return 1
    tsx = ROOT / "clients" / "typescript" / "node_modules" / ".bin" / "tsx"
    if not tsx.exists():
        print("doc-examples: clients/typescript/node_modules is missing: run npm ci there first", file=sys.stderr)
        return 1
    binary = Path(os.environ.get("REFEREE_BIN") or ROOT / "target" / "debug" / "referee")
    if not binary.exists():
        print(f"doc-examples: no server binary at {binary} (cargo build, or set REFEREE_BIN)", file=sys.stderr)
        return 1

    server = subprocess.Popen([binary, "serve", "--addr", "127.0.0.1:0"], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True)
    first = server.stdout.readline() if server.stdout else ""
    if "listening on " not in first:
        server.kill()
        print(f"doc-examples: the server did not start: {first!r}", file=sys.stderr)
        return 1
    addr = first.rsplit(" ", 1)[-1].strip()
    print(f"doc-examples: server {binary} at {addr}")
    # Sealed mode (docs/CLIENTS.md "Seat credentials"): a second server with a fresh key.
    key_dir = Path(tempfile.mkdtemp(prefix="referee-doc-keys-"))
    (key_dir / "keys").write_text("doc:" + os.urandom(32).hex() + "\n")
    (key_dir / "keys").chmod(0o600)
    sealed = subprocess.Popen([binary, "serve", "--addr", "127.0.0.1:0", "--seal-key-file", key_dir / "keys"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    first = sealed.stdout.readline() if sealed.stdout else ""
    if "listening on " not in first:
        sealed.kill()
        server.kill()
        print(f"doc-examples: the sealed server did not start: {first!r}", file=sys.stderr)
        return 1
    sealed_addr = first.rsplit(" ", 1)[-1].strip()
    print(f"doc-examples: sealed-mode server at {sealed_addr} (for 127.0.0.1:50052)")

    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(venv / "bin"), str(tsx.parent), str(binary.parent), env["PATH"]])
    env["VIRTUAL_ENV"] = str(venv)
    env["REFEREE_ROOT"] = str(ROOT)
    env["REFEREE_DOC_ADDR"] = addr
    env.pop("PYTHONPATH", None)

    ran, skipped, failed = 0, [], []
    # One scratch directory for the whole run: a file an earlier document's block writes (the
    # recorded game 132002.json, mybots.py) is there for the later ones, as for a reader who
    # went through the docs in order.
    scratch = Path(tempfile.mkdtemp(prefix="referee-doc-"))
    for entry in ROOT.iterdir():
        if entry.name != ".git":
            (scratch / entry.name).symlink_to(entry)
    env["REFEREE_DOC_SCRATCH"] = str(scratch)
    try:
        for doc in docs:
            for b in blocks(doc):
                where = f"{b.doc}:{b.line}"
                if b.mark.startswith("skip"):
                    reason = b.mark.partition(":")[2].strip()
                    if not reason:
                        failed.append(f"{where}: `skip` without a reason")
                        print(f"doc-examples: {where} FAILED: a skip needs a reason")
                        continue
                    skipped.append(f"{where}: {reason}")
                    print(f"doc-examples: {where} ({b.lang}) not run: {reason}")
                    continue
                text = b.text.replace("127.0.0.1:50051", addr).replace("localhost:50051", addr)
                text = text.replace("127.0.0.1:50052", sealed_addr)
                if b.mark.startswith("file "):
                    name = b.mark.split(None, 1)[1]
                    (scratch / name).write_text(text)
                    print(f"doc-examples: {where} ({b.lang}) written to {name}")
                    continue
                # A recorded game a block reads (`132002.json`) is there even when the block
                # that downloads it (docs/API.md) is not part of this run: `FILE...` alone works.
                for fixture in (ROOT / "tests" / "fixtures" / "1841").glob("*.json"):
                    if fixture.name in text and not (scratch / fixture.name).exists():
                        shutil.copyfile(fixture, scratch / fixture.name)
                cwd = scratch
                if b.mark.startswith("cwd "):
                    cwd = ROOT / b.mark.split(None, 1)[1]
                t0 = time.monotonic()
                if b.lang == "sh":
                    text, checks = with_output_checks(text)
                    cmd = ["bash", "-euo", "pipefail", "-c", SH_PRELUDE + text]
                elif b.lang == "python":
                    cmd = [str(venv / "bin" / "python"), "-c", text]
                else:
                    # In the client's folder, so `@referee/client` resolves to it; run
                    # from the scratch directory like the other blocks.
                    src = ROOT / "clients" / "typescript" / f".doc-example-{os.getpid()}.mts"
                    src.write_text(text)
                    cmd = [str(tsx), str(src)]
                try:
                    res = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                                         stderr=subprocess.STDOUT, text=True, timeout=600)
                    rc, output = res.returncode, res.stdout
                except subprocess.TimeoutExpired as e:
                    rc, output = -1, f"{e.output or ''}\n(timed out after 600 s)"
                finally:
                    if b.lang == "ts":
                        src.unlink(missing_ok=True)
                secs = time.monotonic() - t0
                ran += 1
                if rc == 0:
                    stated = f", {checks} stated output(s) matched" if b.lang == "sh" and checks else ""
                    print(f"doc-examples: {where} ({b.lang}) ok, {secs:.1f} s{stated}")
                else:
                    failed.append(where)
                    print(f"doc-examples: {where} ({b.lang}) FAILED (exit {rc}, {secs:.1f} s):")
                    print("  | " + text.rstrip().replace("\n", "\n  | "))
                    print("  output (last 40 lines):")
                    print("  > " + "\n  > ".join(output.rstrip().split("\n")[-40:]))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
        server.terminate()
        sealed.terminate()
        server.wait(timeout=10)
        sealed.wait(timeout=10)
        shutil.rmtree(key_dir, ignore_errors=True)

    print(f"doc-examples: {ran} blocks run, {len(skipped)} not run (each with its reason above), "
          f"{len(failed)} failed")
    if failed:
        print("doc-examples: FAILED: " + ", ".join(failed), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
