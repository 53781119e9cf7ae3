#!/usr/bin/env bash
# Tests of @referee/client: npm ci, then `npm test` (buf generate, tsc --noEmit, node tests
# against the real server over gRPC and gRPC-Web, the Node example bot playing a whole game of
# Autobahn, and the browser example in headless Chromium).
#
#   clients/typescript/scripts/test.sh
#
# Chromium comes from Debian's package: installed here with apt-get when it is missing only as
# root with CI=true (CI runs on a fresh machine); elsewhere the browser test is skipped with a
# printed notice. Set CHROMIUM_PATH to use another build.
# Environment: REFEREE_BIN (server binary; default $CARGO_TARGET_DIR/debug/referee or
# target/debug/referee at the repository root).
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ -z "${CHROMIUM_PATH:-}" ]] && ! command -v chromium >/dev/null 2>&1; then
  if [[ "${CI:-}" == "true" && $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
    echo "install: apt-get update && apt-get install -y chromium (browser example test)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends chromium >/dev/null
    export REFEREE_REQUIRE_BROWSER=1
  else
    echo "test.sh: chromium is missing (apt-get install chromium, or set CHROMIUM_PATH):" \
         "the browser example test is skipped"
  fi
else
  export REFEREE_REQUIRE_BROWSER=1
fi

echo "install: npm ci (clients/typescript/node_modules)"
npm ci --no-audit --no-fund
npm test
