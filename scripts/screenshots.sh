#!/usr/bin/env bash
# Refreshes the README's pictures in docs/screenshots: every state of the login screen at
# 375×667, light and dark, from the real server in headless Chromium. Animations are stopped
# at their first frame, so an unchanged screen gives unchanged files.
set -euo pipefail
cd "$(dirname "$0")/.."
GATEHOUSE_SCREENSHOTS_DIR="$PWD/docs/screenshots" ./e2e/run.sh -k test_screenshot_of_every_state
