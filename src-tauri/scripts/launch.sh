#!/usr/bin/env bash
# Launches the built app; with no display (a server, a container, CI) it runs under a virtual X server and says so.
set -euo pipefail
app=${1:?usage: launch.sh PATH-TO-PLUGBOARD}
if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
  exec "$app"
fi
echo "No display found (DISPLAY and WAYLAND_DISPLAY are unset): running Plugboard under xvfb-run, where it is invisible." >&2
echo "Take a look with: DISPLAY=<the Xvfb display> import -window root shot.png, or run 'make run' from a desktop session." >&2
exec xvfb-run -a -s "-screen 0 1280x800x24" "$app"
