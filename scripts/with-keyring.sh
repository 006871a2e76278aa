#!/usr/bin/env bash
# Runs a command inside a private D-Bus session with an unlocked GNOME Keyring (a real Secret
# Service), keyrings in a temporary folder. The bus, the daemon and the folder go away after.
#   scripts/with-keyring.sh swift test
set -euo pipefail
if [ -z "${GATEHOUSE_KEYRING_SESSION:-}" ]; then
  export GATEHOUSE_KEYRING_SESSION=1
  # In containers dbus-daemon may print a harmless "Failed to set fd limit" notice.
  exec dbus-run-session -- "$0" "$@"
fi
scratch=$(mktemp -d)
trap 'pkill -u "$(id -u)" -f "gnome-keyring-daemon.*--components=secrets" 2>/dev/null || true; rm -rf "$scratch"' EXIT
export XDG_DATA_HOME="$scratch/data" XDG_RUNTIME_DIR="$scratch/run" XDG_CONFIG_HOME="$scratch/config"
mkdir -p "$XDG_DATA_HOME" "$XDG_CONFIG_HOME" "$XDG_RUNTIME_DIR"
chmod 700 "$XDG_RUNTIME_DIR"
eval "$(printf 'gatehouse-test-keyring' | gnome-keyring-daemon --unlock --components=secrets --daemonize)" >/dev/null
export GATEHOUSE_REQUIRE_KEYRING=1
"$@"
