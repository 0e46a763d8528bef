#!/usr/bin/env bash
# Runs every fuzz target of plugboard-core for SECONDS seconds each (default 10), seeded with the committed seeds
# (fuzz/seeds/<target>/, which also keep every crash found as a regression input) and the importer fixtures. New
# inputs go to the scratch corpus (fuzz/corpus/, not committed). A crash fails the run and leaves the input under
# src-tauri/crates/plugboard-core/fuzz/artifacts/: fix it, then copy it into seeds/<target>/.
# Usage: src-tauri/scripts/fuzz.sh [SECONDS] [TARGET…]
set -euo pipefail
cd "$(dirname "$0")/../crates/plugboard-core/fuzz"
seconds=${1:-10}
shift || true
# cargo-fuzz needs nightly-only flags; this machine has one stable toolchain, which accepts them this way.
export RUSTC_BOOTSTRAP=1
export CARGO_TARGET_DIR=${PLUGBOARD_FUZZ_TARGET_DIR:-$HOME/.cache/plugboard/fuzz-target}
# Fuzz builds are rebuilt whole after any core change; incremental state would only pile up on disk.
export CARGO_INCREMENTAL=0
targets=("$@")
[ ${#targets[@]} -gt 0 ] || mapfile -t targets < <(cargo fuzz list)
cargo fuzz build --dev
fixtures=../tests/fixtures/import
for target in "${targets[@]}"; do
  corpus="corpus/$target"
  mkdir -p "$corpus"
  client=${target#import_}
  client=${client//_/-}
  [ -d "$fixtures/$client" ] && cp -n "$fixtures/$client"/* "$corpus"/ 2>/dev/null || true
  [ "$target" = config_file ] && cp -n "$fixtures"/*/* "$corpus"/ 2>/dev/null || true
  seeds=()
  [ -d "seeds/$target" ] && seeds=("seeds/$target")
  echo "fuzz: $target for ${seconds}s"
  log=$(mktemp)
  if ! cargo fuzz run --dev "$target" "$corpus" "${seeds[@]}" -- -max_total_time="$seconds" -rss_limit_mb=2048 >"$log" 2>&1; then
    tail -40 "$log" >&2
    echo "fuzz: $target crashed; the input is under src-tauri/crates/plugboard-core/fuzz/artifacts/$target" >&2
    exit 1
  fi
  grep -E '^#[0-9]+ *DONE' "$log" || tail -1 "$log"
  rm -f "$log"
done
echo "fuzz: ${#targets[@]} targets ran ${seconds}s each without a crash"
