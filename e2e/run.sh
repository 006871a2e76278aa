#!/usr/bin/env bash
# The Python suites against the real gatehouse binary: the browser suite in real Chromium
# (Debian's chromium + chromium-driver), and third-party clients (supabase-auth, gql,
# schemathesis). Installs what it needs; pytest arguments pass through.
set -euo pipefail
cd "$(dirname "$0")/.."
# The scale-out tests need a private PostgreSQL; start one unless a caller already did.
if [ -z "${GATEHOUSE_TEST_POSTGRES_URL:-}" ]; then exec ./scripts/with-postgres.sh "$0" "$@"; fi
./scripts/setup.sh chromium chromium-driver fonts-dejavu-core python3-venv nginx-light postgresql-client kannel kannel-extras
swift build --product gatehouse
swift build --product gatehouse-server
# One venv for the browser suite and the third-party clients; reinstalled when the pins change.
if [ ! -x .venv/bin/pytest ] || ! cmp -s e2e/requirements.txt .venv/requirements.txt; then
  [ -x .venv/bin/python ] || python3 -m venv .venv
  .venv/bin/pip install -q -r e2e/requirements.txt
  cp e2e/requirements.txt .venv/requirements.txt
fi
# oidc-provider-mock 0.4.8, the Google tests' OpenID provider, in a Python 3.12 venv of its own.
OIDC_MOCK_PYTHON=$(./scripts/oidc-provider.sh)
export OIDC_MOCK_PYTHON
# A current axe-core 4.x, taken out of the axe-playwright-python wheel (never committed).
axe=.build-e2e/axe.min.js
if [ ! -s "$axe" ]; then
  mkdir -p .build-e2e
  .venv/bin/pip download -q --no-deps axe-playwright-python==0.1.8 -d .build-e2e
  .venv/bin/python -c "import zipfile,glob,sys; z=zipfile.ZipFile(glob.glob('.build-e2e/axe_playwright_python-*.whl')[0]); open(sys.argv[1],'wb').write(z.read('axe_playwright_python/axe.min.js'))" "$axe"
fi
export GATEHOUSE_BIN="$PWD/.build/debug/gatehouse" AXE_JS="$PWD/$axe"
# Without a test file among the arguments, the whole suite; with one (e2e/test_x.py), just that.
for argument in "$@"; do
  case "$argument" in e2e/*) exec .venv/bin/pytest -q -p no:cacheprovider "$@" ;; esac
done
exec .venv/bin/pytest -q -p no:cacheprovider e2e "$@"
