#!/usr/bin/env bash
# Runs every client scenario of the official MCP conformance suite (the 4 basic ones and the 22 auth ones) against
# plugboard-conformance, which connects and logs in through Plugboard's core the way the app does. One line per
# scenario with its checks and time; exits non-zero if any fails.
# Needs what `install-deps.sh --for-tests` installs: the suite in tests/node_modules and Node 22 in the tools folder.
# Usage: conformance.sh [scenario ...]   (default: every scenario below)
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD

TOOLS_DIR=${PLUGBOARD_TOOLS_DIR:-$root/.tools}
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$HOME/.cache/plugboard/target}
SCENARIOS=(
  initialize tools_call elicitation-sep1034-client-defaults sse-retry
  auth/metadata-default auth/metadata-var1 auth/metadata-var2 auth/metadata-var3 auth/basic-cimd
  auth/scope-from-www-authenticate auth/scope-from-scopes-supported auth/scope-omitted-when-undefined
  auth/scope-step-up auth/scope-retry-limit
  auth/token-endpoint-auth-basic auth/token-endpoint-auth-post auth/token-endpoint-auth-none auth/pre-registration
  auth/2025-03-26-oauth-metadata-backcompat auth/2025-03-26-oauth-endpoint-fallback
  auth/resource-mismatch auth/offline-access-scope auth/offline-access-not-supported
  auth/client-credentials-jwt auth/client-credentials-basic auth/cross-app-access-complete-flow
)
[ $# -gt 0 ] && SCENARIOS=("$@")
SUITE=tests/node_modules/.bin/conformance
OUT=tests/output/conformance

fail() { printf 'error: %s\n' "$*" >&2; exit 1; }

# The suite wants Node >= 22: the PATH's node if it is recent enough, else the one install-deps.sh put in the tools.
node_major() { "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }
node=$(command -v node || true)
if [ -z "$node" ] || [ "$(node_major "$node")" -lt 22 ]; then node=$TOOLS_DIR/node22/bin/node; fi
[ -x "$node" ] && [ "$(node_major "$node")" -ge 22 ] || fail "Node >= 22 not found: run src-tauri/scripts/install-deps.sh --for-tests"
[ -e "$SUITE" ] || fail "the conformance suite is not installed: run src-tauri/scripts/install-deps.sh --for-tests"

cargo build --quiet -p plugboard-conformance
client=$CARGO_TARGET_DIR/debug/plugboard-conformance
# The suite splits --command on spaces (and runs it through a shell).
[[ "$client" =~ ^[A-Za-z0-9_./+-]+$ ]] || fail "the client path must not contain spaces or shell characters: $client"

rm -rf "$OUT" && mkdir -p "$OUT"
passed=0 failed=0
for scenario in "${SCENARIOS[@]}"; do
  log=$OUT/${scenario//\//_}.log
  start=$(date +%s%N)
  status=0
  "$node" "$SUITE" client --command "$client" --scenario "$scenario" --timeout 30000 -o "$OUT/${scenario//\//_}" >"$log" 2>&1 \
    || status=$?
  ms=$(( ($(date +%s%N) - start) / 1000000 ))
  checks=$(sed -n 's/^Passed: \([0-9]*\/[0-9]*\).*/\1/p' "$log" | tail -1)
  if [ "$status" -eq 0 ]; then
    passed=$((passed + 1))
    printf 'conformance PASS %-44s %s checks  %5d ms\n' "$scenario" "${checks:-?}" "$ms"
  else
    failed=$((failed + 1))
    printf 'conformance FAIL %-44s %s checks  %5d ms  (log: %s)\n' "$scenario" "${checks:-?}" "$ms" "$log"
    sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -E 'FAILURE|Failed|EXITED|error|Error' | head -20 | sed 's/^/    /' || true
  fi
done
echo "conformance: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
