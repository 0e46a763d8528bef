#!/usr/bin/env bash
# Runs a command beside a private Docker engine: its own dockerd (vfs storage, no bridge network and no iptables,
# since tests may send traffic to loopback only) with its data root and socket in a temp dir, DOCKER_HOST pointing
# at it, and the test images loaded. No registry is reachable, so the images are made from what this machine has:
# Node and server-everything's package from tests/node_modules, imported as a root filesystem (cached as a tarball
# under ~/.cache/plugboard/docker-images, keyed by what went into it). The engine is stopped and its data removed
# after COMMAND, whatever its outcome; it never touches another engine (it only ever talks to its own socket).
#   plugboard-test/everything-stdio:1  server-everything over stdio (its default command)
#   plugboard-test/everything-http:1   server-everything in streamableHttp mode, port 3001 exposed, stdin ignored
# Usage: tests/harness/docker-engine.sh -- COMMAND [ARGS…]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

[ "${1:-}" = "--" ] && shift
[ $# -gt 0 ] || { echo "usage: $0 -- COMMAND" >&2; exit 2; }
for tool in dockerd docker node; do
  command -v "$tool" >/dev/null || { echo "docker-engine: $tool is missing: run make deps" >&2; exit 1; }
done
# dockerd needs root: as root (CI), or through sudo without a password, the socket then given to our group.
as_root=() group=()
if [ "$(id -u)" -ne 0 ]; then
  sudo -n true 2>/dev/null || { echo "docker-engine: dockerd needs root: run as root or with passwordless sudo" >&2; exit 1; }
  as_root=(sudo -n) group=(--group "$(id -g)")
fi

cache=${PLUGBOARD_DOCKER_CACHE:-$HOME/.cache/plugboard/docker-images}
engine=$(mktemp -d "${TMPDIR:-/tmp}/plugboard-docker.XXXXXX")
export DOCKER_HOST=unix://$engine/docker.sock
unset DOCKER_CONTEXT DOCKER_CONFIG DOCKER_CERT_PATH DOCKER_TLS_VERIFY

dockerd_pid=
stop_engine() {
  if [ -n "$dockerd_pid" ]; then
    "${as_root[@]}" kill "$dockerd_pid" 2>/dev/null || true
    # dockerd stops its containers and its containerd before it exits.
    for _ in $(seq 150); do "${as_root[@]}" kill -0 "$dockerd_pid" 2>/dev/null || break; sleep 0.1; done
    "${as_root[@]}" kill -9 "$dockerd_pid" 2>/dev/null || true
  fi
  # Unmount anything the engine left mounted (overlay layers, its exec root) before removing its folder.
  grep -o " $engine[^ ]*" /proc/mounts | sort -r | while read -r m; do "${as_root[@]}" umount -l "$m" 2>/dev/null || true; done
  "${as_root[@]}" rm -rf "$engine"
}
trap stop_engine EXIT

# No --storage-driver: dockerd picks overlay2 where the kernel has it (a container starts in ~1 s) and falls back to
# vfs (~15 s: it copies the image per container); PLUGBOARD_DOCKER_STORAGE forces one.
"${as_root[@]}" dockerd ${PLUGBOARD_DOCKER_STORAGE:+--storage-driver="$PLUGBOARD_DOCKER_STORAGE"} \
  --iptables=false --ip6tables=false --bridge=none --ip-forward=false "${group[@]}" \
  --data-root "$engine/data" --exec-root "$engine/exec" --pidfile "$engine/dockerd.pid" \
  -H "$DOCKER_HOST" >"$engine/dockerd.log" 2>&1 &
for _ in $(seq 100); do [ -s "$engine/dockerd.pid" ] && break; sleep 0.1; done
dockerd_pid=$(cat "$engine/dockerd.pid" 2>/dev/null || echo $!)
for _ in $(seq 300); do docker version >/dev/null 2>&1 && break; sleep 0.1; done
docker version >/dev/null 2>&1 || { echo "docker-engine: dockerd did not start:" >&2; tail -20 "$engine/dockerd.log" >&2; exit 1; }

# The root filesystem: node and its shared libraries at their paths, server-everything and its dependency closure
# (hoisted or nested, as npm laid it out) under /app/node_modules.
modules=$(readlink -f "$root/tests/node_modules")
node_bin=$(readlink -f "$(command -v node)")
everything=$modules/@modelcontextprotocol/server-everything
key=$( { "$node_bin" --version; cat "$everything/package.json" "$0"; } | sha256sum | cut -c1-16)
rootfs=$cache/everything-$key.tar
if [ ! -s "$rootfs" ]; then
  stage=$engine/rootfs
  mkdir -p "$stage/app" "$stage/tmp" "$stage/etc" "$cache"
  chmod 1777 "$stage/tmp"
  printf 'root:x:0:0:root:/root:/bin/false\nnobody:x:65534:65534:nobody:/:/bin/false\n' >"$stage/etc/passwd"
  { echo "$node_bin"; ldd "$node_bin" | grep -o '/[^ ]*'; } | sort -u | while read -r file; do
    mkdir -p "$stage$(dirname "$file")" && cp -L "$file" "$stage$file"
  done
  [ "$node_bin" = /usr/bin/node ] || { mkdir -p "$stage/usr/bin" && cp -L "$node_bin" "$stage/usr/bin/node"; }
  # shellcheck disable=SC2016
  "$node_bin" -e '
    const fs = require("fs"), path = require("path");
    const [modules, start] = process.argv.slice(1), top = path.dirname(modules), seen = new Set();
    const find = (from, name) => {
      for (let dir = from; dir.startsWith(top); dir = path.dirname(dir)) {
        const candidate = path.join(dir, "node_modules", name);
        if (fs.existsSync(path.join(candidate, "package.json"))) return candidate;
        if (dir === top) break;
      }
      return null;
    };
    const walk = (dir) => {
      if (seen.has(dir)) return;
      seen.add(dir);
      const pkg = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
      const optional = pkg.optionalDependencies || {};
      for (const dep of Object.keys({ ...pkg.dependencies, ...optional })) {
        const found = find(dir, dep);
        if (found) walk(found);
        else if (!(dep in optional)) throw new Error(`${dep} (needed by ${pkg.name}) is not installed`);
      }
    };
    walk(start);
    for (const dir of seen) console.log(path.relative(top, dir));
  ' "$modules" "$everything" | while read -r dir; do
    mkdir -p "$stage/app/$(dirname "$dir")" && cp -a "$(dirname "$modules")/$dir" "$stage/app/$(dirname "$dir")/"
  done
  rm -f "$cache"/everything-*.tar
  tar -C "$stage" -cf "$rootfs.part" . && mv "$rootfs.part" "$rootfs"
  rm -rf "$stage"
fi
entry='"/usr/bin/node", "/app/node_modules/@modelcontextprotocol/server-everything/dist/index.js"'
docker import --change "CMD [$entry, \"stdio\"]" --change 'WORKDIR /app' \
  "$rootfs" plugboard-test/everything-stdio:1 >/dev/null
# The HTTP image is the same layer with another command and an exposed port (a commit adds no copy of the files).
docker create --name plugboard-test-image-base plugboard-test/everything-stdio:1 >/dev/null
docker commit --change "CMD [$entry, \"streamableHttp\"]" --change 'EXPOSE 3001' \
  plugboard-test-image-base plugboard-test/everything-http:1 >/dev/null
docker rm plugboard-test-image-base >/dev/null
export PLUGBOARD_TEST_DOCKER=$DOCKER_HOST

status=0
"$@" || status=$?
exit $status
