"""The full tier's hub rehearsal: every file its loaders read, written as tiny random models under the official
repository ids, names, formats and layouts into a private hub cache; each full engine loaded from that cache by
its real loader on the CPU, with the network off; then app.py booted on it with the full tier on the CPU, one
turn (text, voice clip, video clip) sent through gradio_client's /respond and checked to be served by every full
engine; and app.py booted again with one repository removed, the turn checked to be answered with only that
engine's stage on its lite counterpart and a notice naming the engine and why.

    bash scripts/rehearse_full_tier.sh          (= .venv/bin/python -m e3rg_dev.hub_rehearsal)

- tiny.py: the tiny configurations, and the local-folder checkpoint writers the tests and gpu_smoke use;
- qwen_tokenizer.py: Qwen2.5 tokenizer files cut from a BPE that ships in a package;
- fake_repos.py: one writer per hub repository;
- cache.py: build_cache(cache) writes hub_files() (or any list of files) in huggingface_hub's cache layout;
- app_run.py: app.py in a subprocess on the rehearsal's files (RunningApp) and the turn sent to it (send_turn);
- run.py: prepare(root) writes the cache, check_loaders(root) loads every full engine
  from them with the full tier's own loaders, full_turn / degraded_turn boot the app and check the turn,
  rehearse(root) runs them all; __main__.py prints its report.

This module imports nothing heavy: rehearsal_environment() must be applied before huggingface_hub is imported,
which reads its variables once.
"""
from __future__ import annotations

from pathlib import Path

HUB_FOLDER = "hub"          # root/hub: the private hub cache
DATA_FOLDER = "data"        # root/data: the app's data folder (avatars and their cached features)


def rehearsal_environment(root: Path) -> dict[str, str]:
    """The variables under which the app and the loaders read only the rehearsal's files: the private hub cache
    (offline), and the rehearsal's own data folder."""
    from e3rg_core.settings import DATA_DIR_VARIABLE
    root = Path(root)
    return {"HF_HUB_CACHE": str(root / HUB_FOLDER), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
            "HF_HUB_DISABLE_TELEMETRY": "1", DATA_DIR_VARIABLE: str(root / DATA_FOLDER)}
