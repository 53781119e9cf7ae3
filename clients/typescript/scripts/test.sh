#!/usr/bin/env bash
# Tests of @referee/client: npm ci, then `npm test` (buf generate, tsc --noEmit, node tests
# against the real server over gRPC and gRPC-Web, the Node example bot playing a whole game of
# Autobahn, and the browser example in headless Chromium), then scripts/package-check.sh: the
# npm package built (npm pack), installed from its tarball into a fresh project and used from
# `import` and `require`, tsc and esbuild against a real server.
#
#   clients/typescript/scripts/test.sh
#
# Chromium comes from Debian's package: installed here with apt-get when it is missing (CI runs
# on a fresh machine, as root). Set CHROMIUM_PATH to use another build.
# Environment: REFEREE_BIN (server binary; default $CARGO_TARGET_DIR/debug/referee or
# target/debug/referee at the repository root).
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ -z "${CHROMIUM_PATH:-}" ]] && ! command -v chromium >/dev/null 2>&1; then
  if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
    echo "test.sh: installing chromium (apt-get) for the browser example test"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq chromium >/dev/null
  else
    echo "test.sh: chromium is missing and cannot be installed here (needs root and apt-get):" \
         "install it or set CHROMIUM_PATH" >&2
    exit 1
  fi
fi
export REFEREE_REQUIRE_BROWSER=1

npm ci --no-audit --no-fund
npm test
scripts/package-check.sh
