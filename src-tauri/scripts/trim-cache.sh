#!/usr/bin/env bash
# Keeps a cargo target dir under ~/.cache within a size budget, so repeated builds on one machine cannot fill its disk
# (stale artifacts of every earlier build pile up in deps/ and incremental/). It only ever deletes build output that
# cargo rebuilds; it never touches anything outside the directory it is given.
# Usage: src-tauri/scripts/trim-cache.sh DIR BUDGET_GIB
set -euo pipefail
dir=$1
budget_gib=$2
[ -d "$dir" ] || exit 0
size_gib() { du -sx --block-size=1G "$dir" | cut -f1; }
size=$(size_gib)
[ "$size" -le "$budget_gib" ] && exit 0
echo "trim-cache: $dir holds ${size} GiB (budget ${budget_gib}); dropping incremental state"
find "$dir" -maxdepth 3 -type d -name incremental -prune -exec rm -rf {} +
size=$(size_gib)
[ "$size" -le "$budget_gib" ] && exit 0
echo "trim-cache: still ${size} GiB; removing the build output, cargo rebuilds it"
find "$dir" -mindepth 1 -maxdepth 1 ! -name CACHEDIR.TAG -exec rm -rf {} +
