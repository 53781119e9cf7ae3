#!/usr/bin/env bash
# Build the Python packages the way a release would and prove they work from a clean place:
#
#   clients/python/scripts/package-check.sh
#
# 1. `python -m build` (the dev venv's `build`, isolated build environments): the sdist, then
#    the wheel built FROM the sdist, into clients/python/dist/. Both must carry the generated
#    protobuf/gRPC code (src/referee_client/_gen) and the licence files.
# 2. The wheel is installed into a FRESH venv (not the dev venv) with its runtime dependencies
#    from the package index; the sdist into a second fresh venv holding only hatchling (no
#    build isolation), which proves it builds without protoc/grpcio-tools. Neither venv may
#    contain grpcio-tools.
# 3. From outside the source tree, each installed package runs examples/quickstart.py against a
#    real server, and the wheel's `referee-tournament` entry point answers --help.
# 4. The sdist, unpacked below an unrelated `proto/` folder, still builds from its shipped code.
#
# Environment: REFEREE_BIN (default target/debug/referee), REFEREE_TARGET (host:port of a
# running server instead), REFEREE_PY_VENV (dev venv, default clients/python/.venv; made by
# scripts/test.sh), PYTHON (interpreter for the fresh venvs, default python3).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
root="$(cd "$here/../.." && pwd)"
dev_venv="${REFEREE_PY_VENV:-$here/.venv}"
if [[ "$dev_venv" != /* ]]; then dev_venv="$PWD/$dev_venv"; fi
pipq=(-m pip install --quiet --disable-pip-version-check)
unset REFEREE_PROTO_DIR   # the sdist must not find proto/ by accident

work="$(mktemp -d "${TMPDIR:-/tmp}/referee-pycheck.XXXXXX")"
server_pid=""
cleanup() {
  if [[ -n "$server_pid" ]]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

echo "package-check: python -m build (sdist, then the wheel from the sdist)"
rm -rf "$here/dist"
"$dev_venv/bin/python" -m build --outdir "$here/dist" "$here" > "$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
wheel="$(ls "$here"/dist/referee_client-*.whl)"
sdist="$(ls "$here"/dist/referee_client-*.tar.gz)"
echo "package-check: built $(basename "$wheel") ($(wc -c < "$wheel") bytes), $(basename "$sdist") ($(wc -c < "$sdist") bytes)"

"$dev_venv/bin/python" - "$wheel" "$sdist" <<'PY'
import sys, tarfile, zipfile
wheel, sdist = sys.argv[1:3]
need = ["referee_client/_gen/referee/v1/referee_pb2.py", "referee_client/_gen/referee/v1/referee_pb2_grpc.py",
        "referee_client/_gen/referee/v1/referee_pb2.pyi", "referee_client/_gen/referee/g1841/v1/g1841_pb2.py",
        "referee_client/_gen/referee/autobahn/v1/autobahn_pb2.py", "referee_client/py.typed",
        "referee_client/client.py"]
w = zipfile.ZipFile(wheel).namelist()
s = tarfile.open(sdist).getnames()
for kind, names, prefix in (("wheel", w, ""), ("sdist", s, "src/")):
    for n in need:
        if not any(x.endswith(prefix + n) for x in names):
            sys.exit(f"package-check: {kind} lacks {prefix}{n}")
    for lic in ("LICENSE-MIT", "LICENSE-APACHE"):
        if not any(x.endswith(lic) for x in names):
            sys.exit(f"package-check: {kind} lacks {lic}")
meta = zipfile.ZipFile(wheel).read(next(x for x in w if x.endswith(".dist-info/METADATA"))).decode()
if "License-Expression: MIT OR Apache-2.0" not in meta:
    sys.exit("package-check: wheel METADATA lacks License-Expression: MIT OR Apache-2.0")
if any(l.startswith("Requires-Dist: grpcio-tools") for l in meta.splitlines()):
    sys.exit("package-check: the wheel must not depend on grpcio-tools")
print(f"package-check: wheel and sdist carry the generated code ({sum('/_gen/' in x for x in w)} files in the wheel) and the licences")
PY

# A server for the examples.
if [[ -n "${REFEREE_TARGET:-}" ]]; then
  target="$REFEREE_TARGET"
else
  bin="${REFEREE_BIN:-$root/target/debug/referee}"
  if [[ "$bin" != /* ]]; then bin="$PWD/$bin"; fi
  [[ -x "$bin" ]] || { echo "package-check: no server binary at $bin (cargo build, or set REFEREE_BIN)" >&2; exit 1; }
  "$bin" serve --addr 127.0.0.1:0 > "$work/server.log" 2>&1 &
  server_pid=$!
  for _ in $(seq 1 300); do
    target="$(sed -n 's/.*referee listening on \([0-9.]*:[0-9]*\).*/\1/p' "$work/server.log" | head -n1)"
    [[ -n "$target" ]] && break
    kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.log"; echo "package-check: server exited" >&2; exit 1; }
    sleep 0.1
  done
  [[ -n "$target" ]] || { cat "$work/server.log"; echo "package-check: server did not start" >&2; exit 1; }
fi
echo "package-check: server at $target"

run_example() {  # $1: venv, $2: what was installed
  local venv="$1" what="$2"
  if "$venv/bin/python" -c 'import grpc_tools' 2>/dev/null; then
    echo "package-check: grpcio-tools is installed in the $what venv: the package must not need it" >&2; exit 1
  fi
  # From an empty directory, so only the installed package can be imported.
  (cd "$work" && "$venv/bin/python" -c 'import referee_client, sys; assert "site-packages" in referee_client.__file__, referee_client.__file__; print(f"package-check: {sys.argv[1]}: referee_client {referee_client.__version__} from {referee_client.__file__}")' "$what")
  (cd "$work" && "$venv/bin/python" "$here/examples/quickstart.py" --target "$target") > "$work/quickstart-$what.out"
  grep -q "^New 1841 game: bank L\." "$work/quickstart-$what.out" \
    && grep -q "rejected: REJECTION_CODE_" "$work/quickstart-$what.out" \
    || { cat "$work/quickstart-$what.out"; echo "package-check: quickstart output unexpected ($what)" >&2; exit 1; }
  echo "package-check: $what: examples/quickstart.py ran against the server ($(grep -c . "$work/quickstart-$what.out") lines, a bid accepted and one rejected)"
}

echo "package-check: fresh venv, pip install the wheel"
"${PYTHON:-python3}" -m venv "$work/venv-wheel"
"$work/venv-wheel/bin/python" "${pipq[@]}" "$wheel"
run_example "$work/venv-wheel" wheel
(cd "$work" && "$work/venv-wheel/bin/referee-tournament" --help > /dev/null)
echo "package-check: wheel: referee-tournament --help ok"

echo "package-check: fresh venv with hatchling only, pip install the sdist without build isolation"
"${PYTHON:-python3}" -m venv "$work/venv-sdist"
"$work/venv-sdist/bin/python" "${pipq[@]}" "hatchling==1.33.0"
"$work/venv-sdist/bin/python" "${pipq[@]}" --no-build-isolation "$sdist"
run_example "$work/venv-sdist" sdist

# An unpacked sdist uses its shipped code even where a `proto/` happens to sit two levels up
# (pip unpacks into /tmp/pip-…/NAME/, so that would be /tmp/proto, anyone's to create).
echo "package-check: the sdist unpacked below an unrelated proto/ folder builds from its shipped code"
mkdir -p "$work/decoy/proto" "$work/decoy/unpacked"
echo 'syntax = "proto3"; package decoy;' > "$work/decoy/proto/decoy.proto"
tar xzf "$sdist" -C "$work/decoy/unpacked"
"$work/venv-sdist/bin/python" -m pip wheel --quiet --disable-pip-version-check --no-build-isolation --no-deps \
  -w "$work/decoy/wheel" "$work/decoy/unpacked"/referee_client-* > "$work/decoy.log" 2>&1 \
  || { cat "$work/decoy.log"; echo "package-check: the unpacked sdist looked for ../../proto" >&2; exit 1; }
echo "package-check: ok"
