#!/usr/bin/env bash
# Test the Python client against the real server.
#
#   clients/python/scripts/test.sh [pytest args...]
#
# Creates/updates a venv ($REFEREE_PY_VENV, default clients/python/.venv) with the pinned
# dependencies (requirements-dev.txt), builds and installs the package non-editably (which
# generates the protobuf code from proto/), then runs pytest in clients/python, then (when no
# pytest arguments were given) scripts/package-check.sh: the wheel and sdist built, installed
# into fresh venvs and exercised against a real server.
#
# Environment:
#   REFEREE_BIN     server binary (default: target/debug/referee at the repository root)
#   REFEREE_TARGET  host:port of an already running server, instead of starting REFEREE_BIN
#   REFEREE_PY_VENV venv directory
#   PYTHON          interpreter used to create the venv (default: python3)
#
# pytest's exit code 5 ("no tests collected") is turned into a failure.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# Relative paths given by the caller are relative to the caller's directory.
if [[ -n "${REFEREE_BIN:-}" && "${REFEREE_BIN}" != /* ]]; then
  export REFEREE_BIN="$PWD/$REFEREE_BIN"
fi
venv="${REFEREE_PY_VENV:-$here/.venv}"
if [[ "$venv" != /* ]]; then venv="$PWD/$venv"; fi

if [[ ! -x "$venv/bin/python" ]]; then
  echo "test.sh: creating venv $venv"
  "${PYTHON:-python3}" -m venv "$venv"
fi
py="$venv/bin/python"
pipq=(-m pip install --quiet --disable-pip-version-check)

"$py" "${pipq[@]}" -r "$here/requirements-dev.txt"
# Non-editable install: the hatch build hook regenerates src/referee_client/_gen from proto/.
"$py" "${pipq[@]}" --force-reinstall --no-deps "$here"
# Fail early if the installed trio does not work together (the generated code checks versions).
"$py" -c 'import referee_client, grpc, google.protobuf as p; print(f"referee-client {referee_client.__version__}: grpcio {grpc.__version__}, protobuf {p.__version__}")'

cd "$here"
set +e
"$py" -m pytest "$@"
rc=$?
set -e
if [[ $rc -eq 5 ]]; then
  echo "test.sh: pytest collected no tests: failing" >&2
  exit 1
fi
if [[ $rc -ne 0 ]]; then exit $rc; fi
# The packages as users get them: wheel + sdist built by `python -m build`, installed into
# fresh venvs, the quickstart example run against a real server (scripts/package-check.sh).
# Skipped when pytest was given arguments (a selection of tests).
if [[ $# -eq 0 ]]; then
  REFEREE_PY_VENV="$venv" "$here/scripts/package-check.sh"
fi
