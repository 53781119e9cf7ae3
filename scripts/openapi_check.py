#!/usr/bin/env python3
"""Checks the OpenAPI description of the HTTP/JSON routes against a running server.

    scripts/openapi_check.py [--server HOST:PORT]

Without --server it starts `$REFEREE_BIN serve` (default target/debug/referee) on a free port
and stops it at the end. Checks, failing with a message on the first difference:

1. `GET /v1/openapi.json` serves exactly proto/openapi/referee.v1.openapi.json (the document
   generated from the proto files; `npm run check` in proto/openapi checks that it is current);
2. every operation it lists answers on the server: a real call (a new game of each kind, then
   its legal actions, views, a move, a replay, a playout, ...) answers 200 with a body that
   matches the operation's response schema (every field the server sends is described, with
   its type), and an empty request answers 200 or a documented JSON error, never 404 or 405;
3. a path outside the document answers 404.

Standard library only (scripts/openapi-check.sh runs it from the test command).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC_PATH = ROOT / "proto" / "openapi" / "referee.v1.openapi.json"


def fail(msg: str) -> None:
    print(f"openapi-check: FAILED: {msg}", file=sys.stderr)
    sys.exit(1)


def start_server() -> tuple[subprocess.Popen, str]:
    binary = os.environ.get("REFEREE_BIN") or str(ROOT / "target" / "debug" / "referee")
    if not Path(binary).exists():
        fail(f"no server binary at {binary} (cargo build, or set REFEREE_BIN)")
    proc = subprocess.Popen(
        [binary, "serve", "--addr", "127.0.0.1:0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    line = proc.stdout.readline() if proc.stdout else ""
    if "listening on " not in line:
        proc.kill()
        fail(f"the server did not start: {line!r}")
    return proc, line.rsplit(" ", 1)[-1].strip()


def call(base: str, method: str, path: str, body: object | None = None) -> tuple[int, str, bytes]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method)
    if data is not None:
        req.add_header("content-type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=120) as r:
            return r.status, r.headers.get("content-type", ""), r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get("content-type", ""), e.read()


class Checker:
    """Checks JSON values against the document's schemas (the subset the generator writes)."""

    def __init__(self, doc: dict):
        self.schemas = doc["components"]["schemas"]
        self.checked_fields: set[str] = set()

    def resolve(self, schema: dict) -> dict:
        while "$ref" in schema:
            schema = self.schemas[schema["$ref"].rsplit("/", 1)[-1]]
        return schema

    def check(self, value: object, schema: dict, where: str) -> None:
        name = schema.get("$ref", "").rsplit("/", 1)[-1]
        schema = self.resolve(schema)
        if "oneOf" in schema:
            errors = []
            for alt in schema["oneOf"]:
                try:
                    self.check(value, alt, where)
                    return
                except ValueError as e:
                    errors.append(str(e))
            raise ValueError(f"{where}: matches no alternative: {errors}")
        types = schema.get("type")
        types = types if isinstance(types, list) else [types]
        ok = {
            "object": isinstance(value, dict),
            "array": isinstance(value, list),
            "string": isinstance(value, str),
            "integer": isinstance(value, int) and not isinstance(value, bool),
            "number": isinstance(value, (int, float)) and not isinstance(value, bool),
            "boolean": isinstance(value, bool),
        }
        if not any(ok.get(t, False) for t in types):
            raise ValueError(f"{where}: {json.dumps(value)[:80]} is not of type {types}")
        if "enum" in schema and value not in schema["enum"]:
            raise ValueError(f"{where}: {value!r} is not one of the enum's values ({name})")
        if isinstance(value, dict) and "properties" in schema:
            for key, v in value.items():
                if key not in schema["properties"]:
                    raise ValueError(f"{where}: field `{key}` is not in the schema {name}")
                self.checked_fields.add(f"{name}.{key}")
                self.check(v, schema["properties"][key], f"{where}.{key}")
        elif isinstance(value, dict) and "additionalProperties" in schema:
            for key, v in value.items():
                self.check(v, schema["additionalProperties"], f"{where}[{key}]")
        if isinstance(value, list) and "items" in schema:
            for i, v in enumerate(value):
                self.check(v, schema["items"], f"{where}[{i}]")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--server", help="HOST:PORT of a running server (default: start one)")
    args = ap.parse_args()

    proc = None
    if args.server:
        addr = args.server
    else:
        proc, addr = start_server()
    base = f"http://{addr}"
    try:
        run(base)
    finally:
        if proc:
            proc.terminate()
            proc.wait(timeout=10)


def run(base: str) -> None:
    committed = DOC_PATH.read_bytes()
    doc = json.loads(committed)
    status, ctype, served = call(base, "GET", "/v1/openapi.json")
    if status != 200 or not ctype.startswith("application/json"):
        fail(f"GET /v1/openapi.json answered {status} {ctype}")
    if served != committed:
        fail("the served /v1/openapi.json differs from proto/openapi/referee.v1.openapi.json")
    print(f"openapi-check: GET /v1/openapi.json serves the generated document ({len(served)} bytes)")

    checker = Checker(doc)
    called: set[tuple[str, str]] = {("GET", "/v1/openapi.json")}
    ops = {(m.upper(), p): op for p, item in doc["paths"].items() for m, op in item.items()}

    def real(method: str, path: str, body: object | None = None) -> object:
        op = ops.get((method, path.split("?", 1)[0]))
        if op is None:
            fail(f"{method} {path} is not in the document")
        status, ctype, raw = call(base, method, path, body)
        if status != 200:
            fail(f"{method} {path} answered {status}: {raw[:300]!r}")
        content = op["responses"]["200"]["content"]
        kind = next(iter(content))
        if not ctype.startswith(kind):
            fail(f"{method} {path}: content type {ctype}, the document says {kind}")
        schema = content[kind]["schema"]
        values = [json.loads(line) for line in raw.splitlines() if line.strip()] if kind == "application/x-ndjson" else [json.loads(raw)]
        for v in values:
            try:
                checker.check(v, schema, path)
            except ValueError as e:
                fail(f"{method} {path}: the response does not match the document: {e}")
        print(f"openapi-check: {method} {path}: 200, {len(values)} message(s) match the schema")
        called.add((method, path.split("?", 1)[0]))
        return values[0]

    real("GET", "/v1/ListGames")
    real("POST", "/v1/ListGames", {})
    real("POST", "/v1/GetGameData", {"game": "autobahn"})
    real("GET", "/v1/GameData?game=1841&lite=true")
    for game, seats in (("autobahn", 3), ("1841", 4)):
        new = real("POST", "/v1/NewGame", {"game": game, "seats": seats, "seed": "7"})
        state = new["state"]
        seat = (real("POST", "/v1/LegalActions", {"state": state, "seat": 0}).get("toAct") or [0])[0]
        legal = real("POST", "/v1/LegalActions", {"state": state, "seat": seat})
        real("POST", "/v1/View", {"state": state, "seat": seat})
        real("POST", "/v1/DefaultAction", {"state": state, "seat": seat,
                                           "policy": "DEFAULT_ACTION_POLICY_RANDOM_LEGAL", "seed": "3"})
        real("POST", "/v1/Playout", {"state": state, "games": 1, "seed": "1", "maxActions": 200,
                                     "policy": "PLAYOUT_POLICY_RANDOM_LEGAL"})
        if game == "autobahn":
            action = {"autobahn": legal["autobahn"]["actions"][0]}
            real("POST", "/v1/Describe", {"state": state, "seat": seat, "action": action})
            real("POST", "/v1/Apply", {"state": state, "seat": seat, "action": action})
            real("POST", "/v1/ApplyBatch", {"state": state, "actions": [{"seat": seat, "action": action}]})
        replay = {"game": game, "seats": seats, "seed": "7"}
        real("POST", "/v1/Replay", replay)
        real("POST", "/v1/StreamReplay", {"game": replay})
        if game == "1841":
            real("POST", "/v1/ExportGame", {"game": replay})
    fixture = ROOT / "tests" / "fixtures" / "1841" / "132002.json"
    if fixture.exists():
        real("POST", "/v1/ImportGame", {"exportJson": fixture.read_text(), "stopAtActionId": "40"})

    # Every operation answers: the ones called above with 200, the others (and every one with
    # an empty body) with 200 or a documented JSON error, never 404/405.
    for (method, path), op in sorted(ops.items()):
        body = None if method == "GET" else {}
        status, ctype, raw = call(base, method, path, body)
        if status in (404, 405):
            fail(f"{method} {path} (in the document) answered {status}")
        if status != 200:
            try:
                checker.check(json.loads(raw), {"$ref": "#/components/schemas/referee.v1.Error"}, path)
            except (ValueError, json.JSONDecodeError) as e:
                fail(f"{method} {path} with an empty body: not a documented error ({status}): {e}")
        print(f"openapi-check: {method} {path} with an empty body: {status}"
              + ("" if (method, path) in called else " (not called with a real request)"))

    status, _, _ = call(base, "POST", "/v1/NoSuchMethod", {})
    if status != 404:
        fail(f"POST /v1/NoSuchMethod (not in the document) answered {status}, not 404")
    print(f"openapi-check: ok: {len(ops)} operations answer, {len(called)} called with real requests, "
          f"{len(checker.checked_fields)} distinct response fields matched the document")


if __name__ == "__main__":
    main()
