"""python -m e3rg_dev.hub_rehearsal [--root DIR]: the full tier's hub rehearsal (see __init__.py). Its last
output line is one JSON object, {"full_turn": {...}, "degraded_turn": {...}, "cache", "loaders", "seconds",
"passed", "problems"}; it exits 1 when any step failed (the app's log, when the app failed, goes to stderr)."""
from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import traceback
from pathlib import Path

from . import rehearsal_environment


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Rehearse the full tier from a fake hub, offline: its loaders, and "
                                                 "the app serving a turn with every full engine, then without one.")
    parser.add_argument("--root", type=Path, help="an empty folder to work in, kept with the app's logs and the "
                                                  "turns' outputs (default: a temporary one, removed)")
    args = parser.parse_args(argv)
    root = args.root or Path(tempfile.mkdtemp(prefix="e3rg-rehearsal-"))
    os.environ.update(rehearsal_environment(root))     # before anything imports huggingface_hub
    try:
        from .run import rehearse
        report = rehearse(root)
    except Exception as error:      # the last line stays the report, whatever stopped the rehearsal
        traceback.print_exc()
        report = {"full_turn": None, "degraded_turn": None, "passed": False,
                  "problems": [f"the rehearsal stopped: {type(error).__name__}: {error}"]}
    finally:
        if args.root is None:
            shutil.rmtree(root, ignore_errors=True)
    print(json.dumps(report), flush=True)
    return 0 if report["passed"] else 1


if __name__ == "__main__":
    sys.exit(main())
