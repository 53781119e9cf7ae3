#!/usr/bin/env bash
# The OpenAPI description of the HTTP/JSON routes (proto/openapi/referee.v1.openapi.json,
# served at GET /v1/openapi.json):
#   1. it is what the proto files generate now and valid OpenAPI 3.1 (proto/openapi: `npm run check`,
#      @seriousme/openapi-schema-validator);
#   2. the running server serves it, and every route it lists answers as it says
#      (scripts/openapi_check.py: starts $REFEREE_BIN, default target/debug/referee).
# Usage: scripts/openapi-check.sh      (suite "openapi" of scripts/test-all.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
export REFEREE_BIN=${REFEREE_BIN:-${CARGO_TARGET_DIR:-$root/target}/debug/referee}
(
  cd proto/openapi
  echo "install: npm ci in proto/openapi (buf and protobuf-es, for the generator)"
  npm ci --no-audit --no-fund --silent
  npm run --silent check
)
python3 scripts/openapi_check.py
