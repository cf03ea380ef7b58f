#!/usr/bin/env bash
# The full tier's hub rehearsal (issue 14): writes every file the full tier's loaders read, as tiny random
# models under the official repository ids, names and layouts, into a private temporary hub cache, then loads
# each full engine from it with its real loader on the CPU, offline. No network, no GPU. The last output line
# is one JSON object; the exit status is non-zero when any step failed. Needs the README's install first.
set -uo pipefail
cd "$(dirname "$0")/.."
unset SPACES_ZERO_GPU E3RG_TIER
export GRADIO_ANALYTICS_ENABLED=False
exec .venv/bin/python -m e3rg_core.hub_rehearsal "$@"
