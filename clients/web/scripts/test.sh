#!/usr/bin/env bash
# The reference web client's tests in headless Chromium (Debian's `chromium`, driven by
# playwright-core; no browser download), against the real server:
#
#   clients/web/scripts/test.sh
#
# Installs chromium with apt-get when /usr/bin/chromium is missing, only as root with CI=true; runs
# npm ci in clients/typescript (generated client) and clients/web, type-checks, builds the
# page and runs test/*.test.ts. REFEREE_BIN: the server binary (default target/debug/referee,
# built by the caller). REFEREE_WEB_SCREENSHOTS=1 rewrites docs/web-1841.png and
# docs/web-autobahn.png.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
root="$(cd "$here/../.." && pwd)"

if [[ ! -x /usr/bin/chromium && -z "${CHROMIUM_PATH:-}" ]]; then
  if [[ "$(id -u)" == 0 && "${CI:-}" == "true" ]]; then
    echo "install: apt-get install chromium (web client tests)"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "test.sh: /usr/bin/chromium missing (apt-get install chromium)" >&2
  fi
fi
if [[ -n "${REFEREE_BIN:-}" && "${REFEREE_BIN}" != /* ]]; then export REFEREE_BIN="$PWD/$REFEREE_BIN"; fi
export REFEREE_REQUIRE_BROWSER=1

echo "install: npm ci (clients/typescript/node_modules: the generated client)"
(cd "$root/clients/typescript" && npm ci --no-audit --no-fund --loglevel=error && npx buf generate)
cd "$here"
echo "install: npm ci (clients/web/node_modules)"
npm ci --no-audit --no-fund --loglevel=error
npx tsc --noEmit
npx vite build --logLevel warn
node --import tsx --test --test-reporter=spec --test-concurrency=1 test/*.test.ts
