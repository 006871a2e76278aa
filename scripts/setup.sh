#!/usr/bin/env bash
# Installs the system packages Gatehouse needs to build, when they are missing.
# Debian/Ubuntu: libsodium-dev and libargon2-dev (argon2id), libqrencode-dev (authenticator-app QR
# codes), libphonenumber-dev (phone numbers; no pkg-config file, so Package.swift links it and
# protobuf by name) and pkg-config (how SwiftPM finds argon2 and qrencode).
set -euo pipefail

missing=()
for package in libsodium-dev libargon2-dev libqrencode-dev libphonenumber-dev pkg-config "$@"; do
  dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
echo "setup: installing ${missing[*]}" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
