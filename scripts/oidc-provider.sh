#!/usr/bin/env bash
# Makes the venv for oidc-provider-mock 0.4.8 (the OpenID provider the Google tests sign in
# with; it needs Python 3.12) in .build-e2e/oidc-venv, and prints its Python.
set -euo pipefail
cd "$(dirname "$0")/.."
oidc=.build-e2e/oidc-venv
if [ ! -x "$oidc/bin/python" ] || ! "$oidc/bin/python" -c "import oidc_provider_mock" 2>/dev/null; then
  py312=""
  if PYENV_VERSION=3.12.1 python3.12 --version >/dev/null 2>&1; then
    py312=$(PYENV_VERSION=3.12.1 python3.12 -c "import sys; print(sys.executable)")
  elif command -v python3.12 >/dev/null 2>&1; then
    py312=$(command -v python3.12)
  fi
  if [ -z "$py312" ]; then
    echo "scripts/oidc-provider.sh: oidc-provider-mock needs Python 3.12 and none was found (try: pyenv install 3.12.1)" >&2
    exit 1
  fi
  mkdir -p .build-e2e
  rm -rf "$oidc"
  "$py312" -m venv "$oidc" >&2
  "$oidc/bin/pip" install -q --no-compile oidc-provider-mock==0.4.8 >&2
fi
echo "$PWD/$oidc/bin/python"
