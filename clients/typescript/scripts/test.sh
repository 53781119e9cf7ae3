#!/usr/bin/env bash
# Tests of @referee/client: npm ci, then `npm test` (buf generate, tsc --noEmit, node tests
# against the real server over gRPC and gRPC-Web, the Node example bot playing a whole game of
# Autobahn), then scripts/package-check.sh: the npm package built (npm pack), installed from its
# tarball into a fresh project and used from `import` and `require`, tsc and esbuild against a
# real server. The browser client is clients/web, tested in Chromium by clients/web/scripts/test.sh.
#
#   clients/typescript/scripts/test.sh
#
# Environment: REFEREE_BIN (server binary; default $CARGO_TARGET_DIR/debug/referee or
# target/debug/referee at the repository root).
set -euo pipefail
cd "$(dirname "$0")/.."


npm ci --no-audit --no-fund
npm test
scripts/package-check.sh
