#!/usr/bin/env bash
# Refreshes the pictures in the repository, from the real server in headless Chromium, with
# animations stopped at their first frame so an unchanged screen gives unchanged files:
#   docs/screenshots/  the README's login screen states at 375×667, light and dark;
#   docs/screens/      the gallery: every state of every example, light and dark, 390 and
#                      1280 px wide, with docs/screens/index.html (e2e/gallery.py).
set -euo pipefail
cd "$(dirname "$0")/.."
GATEHOUSE_SCREENSHOTS_DIR="$PWD/docs/screenshots" ./e2e/run.sh e2e/test_screenshots.py -k test_screenshot_of_every_state
GATEHOUSE_GALLERY_DIR="$PWD/docs/screens" ./e2e/run.sh e2e/gallery.py
