#!/usr/bin/env bash
# Installs the app and test dependencies, then runs the whole test suite (golden port tests included when
# ../shared is present). "No tests collected" counts as a failure.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh --test || exit 1
export GRADIO_ANALYTICS_ENABLED=False HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
unset SPACES_ZERO_GPU
.venv/bin/python -m pytest -q -p no:cacheprovider "$@"
status=$?
if [[ $status == 5 ]]; then echo "error: pytest collected no tests" >&2; exit 1; fi
exit $status
