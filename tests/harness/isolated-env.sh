#!/usr/bin/env bash
# Runs a command the way the app runs on a person's desktop, but isolated and disposable: a temporary HOME and XDG
# dirs, a private D-Bus session with an unlocked gnome-keyring Secret Service and, on request, an Xvfb display
# (--display) and tauri-driver over WebKitWebDriver (--webdriver, exported as WEBDRIVER_PORT).
# Usage: tests/harness/isolated-env.sh [--display] [--webdriver] -- COMMAND [ARGS…]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

if [ "${1:-}" != "--inside-session" ]; then
  want_display=0 want_webdriver=0
  while [ $# -gt 0 ]; do
    case "$1" in
      --display) want_display=1 ;;
      --webdriver) want_display=1 want_webdriver=1 ;;
      --) shift; break ;;
      *) echo "isolated-env: unknown option $1" >&2; exit 2 ;;
    esac
    shift
  done
  [ $# -gt 0 ] || { echo "usage: $0 [--display] [--webdriver] -- COMMAND" >&2; exit 2; }
  for tool in dbus-run-session gnome-keyring-daemon; do
    command -v "$tool" >/dev/null || { echo "isolated-env: $tool is missing: run make deps" >&2; exit 1; }
  done

  sandbox=$(mktemp -d "${TMPDIR:-/tmp}/plugboard-test.XXXXXX")
  # Toolchains keep their real homes; everything the app and WebKit write goes to the sandbox.
  export CARGO_HOME=${CARGO_HOME:-$HOME/.cargo} RUSTUP_HOME=${RUSTUP_HOME:-$HOME/.rustup}
  export npm_config_cache=${npm_config_cache:-$HOME/.npm}
  # uvx's downloads outlive the sandbox too, like npm's: the presets' start-up test fetches real packages.
  export UV_CACHE_DIR=${UV_CACHE_DIR:-$HOME/.cache/uv}
  export PLUGBOARD_TEST_SANDBOX=$sandbox HOME=$sandbox/home
  export XDG_CONFIG_HOME=$HOME/.config XDG_DATA_HOME=$HOME/.local/share XDG_CACHE_HOME=$HOME/.cache
  export XDG_RUNTIME_DIR=$sandbox/run
  mkdir -p "$XDG_CONFIG_HOME" "$XDG_DATA_HOME" "$XDG_CACHE_HOME" && install -d -m 0700 "$XDG_RUNTIME_DIR"
  unset DBUS_SESSION_BUS_ADDRESS DISPLAY WAYLAND_DISPLAY PLUGBOARD_CONFIG_DIR PLUGBOARD_DATA_DIR GNOME_KEYRING_CONTROL
  export HARNESS_DISPLAY=$want_display HARNESS_WEBDRIVER=$want_webdriver
  status=0
  dbus-run-session -- "$0" --inside-session "$@" || status=$?
  if [ "${PLUGBOARD_KEEP_SANDBOX:-0}" = 1 ]; then echo "isolated-env: kept $sandbox" >&2; else rm -rf "$sandbox"; fi
  exit $status
fi
shift

pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap cleanup EXIT

# An unlocked "login" keyring, created on first use with a throwaway password, serving org.freedesktop.secrets.
eval "$(printf 'plugboard-test' | gnome-keyring-daemon --unlock --components=secrets)"
export GNOME_KEYRING_CONTROL
for _ in $(seq 50); do
  dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
    org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null | grep -q 'boolean true' && break
  sleep 0.1
done

if [ "$HARNESS_DISPLAY" = 1 ]; then
  display_file="$PLUGBOARD_TEST_SANDBOX/display"
  Xvfb -displayfd 4 -screen 0 1280x800x24 -nolisten tcp 4>"$display_file" 2>"$PLUGBOARD_TEST_SANDBOX/xvfb.log" &
  pids+=($!)
  for _ in $(seq 100); do [ -s "$display_file" ] && break; sleep 0.05; done
  [ -s "$display_file" ] || { echo "isolated-env: Xvfb did not start: $(cat "$PLUGBOARD_TEST_SANDBOX/xvfb.log")" >&2; exit 1; }
  export DISPLAY=":$(tr -d '\n' <"$display_file")"
  # No real browser may start under the test display (xdg-open would launch Debian's Chromium and finish a login on
  # its own): tests play the browser themselves, and the app reports that it could not open one.
  export BROWSER=/nonexistent/browser-disabled-by-the-test-harness
fi

if [ "$HARNESS_WEBDRIVER" = 1 ]; then
  command -v tauri-driver >/dev/null || { echo "isolated-env: tauri-driver is missing: run make deps" >&2; exit 1; }
  free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
  export WEBDRIVER_PORT=$(free_port)
  tauri-driver --port "$WEBDRIVER_PORT" --native-port "$(free_port)" --native-driver /usr/bin/WebKitWebDriver \
    >"$PLUGBOARD_TEST_SANDBOX/tauri-driver.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 100); do curl -fsS "http://127.0.0.1:$WEBDRIVER_PORT/status" >/dev/null 2>&1 && break; sleep 0.1; done
  curl -fsS "http://127.0.0.1:$WEBDRIVER_PORT/status" >/dev/null 2>&1 \
    || { echo "isolated-env: tauri-driver did not start: $(cat "$PLUGBOARD_TEST_SANDBOX/tauri-driver.log")" >&2; exit 1; }
fi

"$@"
