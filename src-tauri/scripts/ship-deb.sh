#!/usr/bin/env bash
# Makes the .deb Tauri's bundler wrote into what ships, as Debian's own packaging does (dh_strip, dpkg-deb -Zxz):
# the binaries lose their symbol tables (the release profile keeps them for backtraces and perf), the md5sums and
# Installed-Size are written again for the stripped files, and the data is compressed with xz instead of gzip.
# It never changes a file's path, mode or owner, and replaces the .deb only once the new one is complete and readable.
set -euo pipefail
deb=${1:?usage: ship-deb.sh PATH-TO-.deb}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

dpkg-deb --raw-extract "$deb" "$work/root"
for binary in "$work"/root/usr/bin/*; do
  # Debian's dh_strip removes the same sections from executables.
  strip --strip-all --remove-section=.comment --remove-section=.note "$binary"
done
(cd "$work/root" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | LC_ALL=C sort -z | xargs -0 md5sum) \
  >"$work/root/DEBIAN/md5sums"
installed_kib=$(du -sk --exclude=DEBIAN "$work/root" | cut -f1)
sed -i "s/^Installed-Size: .*/Installed-Size: $installed_kib/" "$work/root/DEBIAN/control"

dpkg-deb --root-owner-group -Zxz -z9 --build "$work/root" "$work/shipped.deb" >/dev/null
dpkg-deb --info "$work/shipped.deb" >/dev/null
before=$(stat -c %s "$deb")
mv "$work/shipped.deb" "$deb"
echo "ship-deb: $(basename "$deb"): $before → $(stat -c %s "$deb") bytes (stripped, xz)"
