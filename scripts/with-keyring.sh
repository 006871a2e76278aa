#!/usr/bin/env bash
# Runs a command inside a private D-Bus session with an unlocked GNOME Keyring (a real Secret
# Service), keyrings in a temporary folder. The bus, the daemon and the folder go away after.
#   scripts/with-keyring.sh swift test
# Only the daemon this script started is stopped, by its PID: a desktop's own keyring is never
# touched.
set -euo pipefail
if [ -z "${GATEHOUSE_KEYRING_SESSION:-}" ]; then
  export GATEHOUSE_KEYRING_SESSION=1
  # In containers dbus-daemon may print a harmless "Failed to set fd limit" notice.
  exec dbus-run-session -- "$0" "$@"
fi
scratch=$(mktemp -d)
keyring_pid=""
cleanup() {
  if [ -n "$keyring_pid" ]; then kill "$keyring_pid" 2>/dev/null || true; wait "$keyring_pid" 2>/dev/null || true; fi
  rm -rf "$scratch"
}
trap cleanup EXIT
export XDG_DATA_HOME="$scratch/data" XDG_RUNTIME_DIR="$scratch/run" XDG_CONFIG_HOME="$scratch/config"
mkdir -p "$XDG_DATA_HOME" "$XDG_CONFIG_HOME" "$XDG_RUNTIME_DIR"
chmod 700 "$XDG_RUNTIME_DIR"
printf 'gatehouse-test-keyring' | gnome-keyring-daemon --unlock --components=secrets --foreground >/dev/null 2>&1 &
keyring_pid=$!
# Wait until the Secret Service has its name on this private bus.
for _ in $(seq 200); do
  if dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
      org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null | grep -q true; then
    break
  fi
  kill -0 "$keyring_pid" 2>/dev/null || { echo "with-keyring: gnome-keyring-daemon exited" >&2; exit 1; }
  sleep 0.05
done
export GATEHOUSE_REQUIRE_KEYRING=1
"$@"
