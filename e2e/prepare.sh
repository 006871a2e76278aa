#!/usr/bin/env bash
# What the Python suites need besides the server: Debian's packages (Chromium, its headless
# shell and its driver, nginx, Kannel, the PostgreSQL client), the venv with the pinned clients,
# oidc-provider-mock's own Python 3.12 venv, and axe-core. Idempotent; scripts/test.sh runs it
# beside the Swift build.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh chromium chromium-headless-shell chromium-driver fonts-dejavu-core python3-venv nginx-light postgresql-client kannel kannel-extras
# One venv for the browser suite and the third-party clients; reinstalled when the pins change.
# --no-compile: Python compiles the modules it imports when it first does; compiling every one
# at install took 30 of the install's 71 CPU-seconds, beside the Swift build.
if [ ! -x .venv/bin/pytest ] || ! cmp -s e2e/requirements.txt .venv/requirements.txt; then
  [ -x .venv/bin/python ] || python3 -m venv .venv
  .venv/bin/pip install -q --no-compile -r e2e/requirements.txt
  cp e2e/requirements.txt .venv/requirements.txt
fi
# oidc-provider-mock 0.4.8, the Google tests' OpenID provider, in a Python 3.12 venv of its own.
./scripts/oidc-provider.sh >/dev/null
# A current axe-core 4.x, taken out of the axe-playwright-python wheel (never committed).
axe=.build-e2e/axe.min.js
if [ ! -s "$axe" ]; then
  mkdir -p .build-e2e
  .venv/bin/pip download -q --no-deps axe-playwright-python==0.1.8 -d .build-e2e
  .venv/bin/python -c "import zipfile,glob,sys; z=zipfile.ZipFile(glob.glob('.build-e2e/axe_playwright_python-*.whl')[0]); open(sys.argv[1],'wb').write(z.read('axe_playwright_python/axe.min.js'))" "$axe"
fi
