#!/usr/bin/env bash
# The full tier's hub rehearsal (issue 14): writes every file the full tier's loaders read, as tiny random
# models under the official repository ids, names and layouts, into a private temporary hub cache; loads each
# full engine from it with its real loader on the CPU, offline; boots app.py on it (E3RG_TIER=full,
# E3RG_FULL_DEVICE=cpu), sends one turn with text, a voice clip and a video clip through gradio_client's
# /respond and checks every stage was served by its full engine; boots again without EEEELY/DICE-Talk and
# checks that only the video fell back to the lite portrait, with a notice saying why. No network, no GPU.
# The last output line is one JSON object; the exit status is non-zero when any step failed. Needs the
# README's install first. --root DIR keeps the files, the app's logs and the turns' outputs there.
set -uo pipefail
cd "$(dirname "$0")/.."
unset SPACES_ZERO_GPU E3RG_TIER
export GRADIO_ANALYTICS_ENABLED=False
exec .venv/bin/python -m e3rg_dev.hub_rehearsal "$@"
