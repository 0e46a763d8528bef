#!/usr/bin/env bash
# Runs the official MCP conformance suite's client scenarios against plugboard-conformance, which runs every
# scenario's server as a servers.json entry through Plugboard's supervisor, calls and logins included, the way the
# app does (probing for 2026-07-28, falling back to 2025-11-25):
#  1. both frozen requirement sets (`--requirements 2025-11-25`: 18 scored scenarios; `--requirements 2026-07-28`:
#     32), each with the extension and later scenarios the suite runs beside it unscored (client credentials,
#     enterprise-managed authorization, DPoP with and without nonces, WIF, JSON Schema 2020-12): each must pass too;
#  2. scenarios of other revisions whose behaviour Plugboard also keeps at the 2025-11-25 wire (EXTRA), one by one.
# One line per scenario with its checks; exits non-zero if any scenario that must pass fails.
# Needs what `install-deps.sh --for-tests` installs: the suite in tests/node_modules and Node 22 in the tools folder.
# Usage: conformance.sh [scenario ...]   (default: all of the above; named scenarios run one by one)
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD

TOOLS_DIR=${PLUGBOARD_TOOLS_DIR:-$root/.tools}
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$HOME/.cache/plugboard/target}
REQUIREMENT_SETS=(2025-11-25 2026-07-28)
# The wire of the EXTRA scenarios, run one by one.
WIRE=2025-11-25
EXTRA=(
  auth/2025-03-26-oauth-metadata-backcompat auth/2025-03-26-oauth-endpoint-fallback
  auth/resource-mismatch auth/offline-access-scope auth/offline-access-not-supported
  # 2026-07-28's login checks: RFC 9207 `iss`, the metadata's issuer, a resource moving to another authorization server.
  auth/iss-supported auth/iss-not-advertised auth/iss-supported-missing auth/iss-wrong-issuer auth/iss-unexpected
  auth/iss-normalized auth/metadata-issuer-mismatch auth/authorization-server-migration
)
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
plain() { sed 's/\x1b\[[0-9;]*m//g' "$1"; }

# One scenario at the 2025-11-25 wire (--force: some belong to other revisions' sets).
run_one() {
  local scenario=$1 log=$OUT/${1//\//_}.log status=0 start ms checks
  start=$(date +%s%N)
  "$node" "$SUITE" client --command "$client" --scenario "$scenario" --spec-version "$WIRE" --force \
    --timeout 30000 -o "$OUT/${scenario//\//_}" >"$log" 2>&1 || status=$?
  ms=$(( ($(date +%s%N) - start) / 1000000 ))
  checks=$(plain "$log" | sed -n 's/^Passed: \([0-9]*\/[0-9]*\).*/\1/p' | tail -1)
  if [ "$status" -eq 0 ]; then
    passed=$((passed + 1))
    printf 'conformance PASS %-44s %s checks  %5d ms\n' "$scenario" "${checks:-?}" "$ms"
  else
    failed=$((failed + 1))
    printf 'conformance FAIL %-44s %s checks  %5d ms  (log: %s)\n' "$scenario" "${checks:-?}" "$ms" "$log"
    plain "$log" | grep -E 'FAILURE|Failed|EXITED|error|Error' | head -20 | sed 's/^/    /' || true
  fi
}

if [ $# -gt 0 ]; then
  for scenario in "$@"; do run_one "$scenario"; done
  echo "conformance: $passed passed, $failed failed"
  [ "$failed" -eq 0 ]
  exit
fi

# 1. A requirement set, as the suite scores it; its summary has a line per scenario: "✓ NAME: N passed, M failed".
run_set() {
  local requirements=$1 log=$OUT/requirements-$1.log start ms status=0 summary line mark rest scenario checks
  start=$(date +%s%N)
  "$node" "$SUITE" client --command "$client" --requirements "$requirements" --timeout 30000 \
    -o "$OUT/requirements-$requirements" >"$log" 2>&1 || status=$?
  ms=$(( ($(date +%s%N) - start) / 1000000 ))
  summary=$(plain "$log" | sed -n '/=== SUITE SUMMARY ===/,/^Total:/p' | grep -E '^[✓✗] ' || true)
  [ -n "$summary" ] || { plain "$log" | tail -40; fail "the suite printed no summary for --requirements $requirements (log: $log)"; }
  while IFS= read -r line; do
    mark=${line%% *}
    rest=${line#* }
    scenario=${rest%%:*}
    checks=$(sed -n 's/.*: \([0-9]*\) passed, \([0-9]*\) failed.*/\1 passed, \2 failed/p' <<<"$rest")
    if [ "$mark" = "✓" ]; then
      passed=$((passed + 1))
      printf 'conformance PASS %-10s %-44s %s\n' "$requirements" "$scenario" "$checks"
    else
      failed=$((failed + 1))
      printf 'conformance FAIL %-10s %-44s %s  (log: %s)\n' "$requirements" "$scenario" "$checks" "$log"
    fi
  done <<<"$summary"
  # The suite's own verdict on the scored set, beside ours on every line.
  if [ "$status" -ne 0 ]; then
    failed=$((failed + 1))
    printf 'conformance FAIL the %s requirement set, as the suite scores it (log: %s)\n' "$requirements" "$log"
  fi
  printf 'conformance: the %s requirement set ran in %d ms\n' "$requirements" "$ms"
}
for requirements in "${REQUIREMENT_SETS[@]}"; do run_set "$requirements"; done

# 2. The scenarios beyond the set.
for scenario in "${EXTRA[@]}"; do run_one "$scenario"; done

echo "conformance: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
