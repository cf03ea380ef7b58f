"""The rehearsal's steps: prepare(root) writes the private hub cache (root/hub) and the data folder's emotion
priors (root/data); check_loaders(root) loads each full engine from them by its own loader, on the CPU, with
the network off; rehearse(root) runs both and returns the report that __main__ prints as one JSON line.

Run in a process whose environment is rehearsal_environment(root) from the start (huggingface_hub reads
HF_HUB_CACHE and HF_HUB_OFFLINE once, at import): __main__.py arranges that.
"""
from __future__ import annotations

import contextlib
import ipaddress
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import torch

from . import DATA_FOLDER, HUB_FOLDER


def is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:          # a host name: only localhost stays on this machine
        return host == "localhost"


@contextlib.contextmanager
def network_off() -> Iterator[None]:
    """Refuse every connection that leaves this machine (a loader reaching GitHub or the hub fails loudly)."""
    connect = socket.socket.connect

    def local_only(sock, address):
        if isinstance(address, tuple) and not is_loopback(str(address[0])):
            raise ConnectionRefusedError(f"the hub rehearsal runs offline: connection to {address[0]} refused")
        return connect(sock, address)

    socket.socket.connect = local_only
    try:
        yield
    finally:
        socket.socket.connect = connect


def write_emotion_priors(data_dir: Path, seed: int = 0) -> Path:
    """Random DICE-Talk emotion priors, installed where the app's data folder keeps the official ones."""
    from ..generation.dicetalk.emotion_priors import PRIOR_DIM, SHA256, store_emotion_priors
    rng = np.random.default_rng(seed)
    return store_emotion_priors({name: rng.standard_normal(PRIOR_DIM) for name in SHA256}, data_dir)


def require_rehearsal_environment(root: Path) -> None:
    """Refuse to load unless huggingface_hub reads the rehearsal's cache offline (else a loader could read
    the machine's own cache, or the hub)."""
    from huggingface_hub import constants
    cache = Path(root) / HUB_FOLDER
    if Path(constants.HF_HUB_CACHE) != cache or not constants.HF_HUB_OFFLINE:
        raise RuntimeError(f"check_loaders needs a process started with rehearsal_environment({root}); "
                           f"huggingface_hub reads {constants.HF_HUB_CACHE} (offline: {constants.HF_HUB_OFFLINE}).")


def quantized_layers(engine: object) -> int:
    """How many 4-bit Linear layers the engine's model holds (0 for an engine without one)."""
    model = getattr(engine, "model", None)
    if not isinstance(model, torch.nn.Module):
        return 0
    return sum(type(module).__name__ == "Linear4bit" for module in model.modules())


def check_loaders(root: Path, device: str = "cpu") -> dict[str, dict]:
    """Load every full engine from root's files with the full tier's own loaders (tiers.full.LOADERS), each on
    its own: engine name -> {"engine": class, "seconds": load time, "linear4bit": quantised layers}, or
    {"error": "<what>: <why>"} for one that did not load."""
    from ..errors import describe
    from ..tiers.full import LOADERS
    require_rehearsal_environment(root)
    results = {}
    with network_off():
        for _, name, load in LOADERS:
            started = time.perf_counter()
            try:
                engine = load(device)
            except Exception as error:      # each loader is reported, whatever stopped it
                results[name] = {"error": describe(error)}
                continue
            results[name] = {"engine": type(engine).__name__, "seconds": round(time.perf_counter() - started, 2),
                             "linear4bit": quantized_layers(engine)}
    return results


def prepare(root: Path, files=None) -> dict:
    """The rehearsal's files: the hub cache holding `files` (default hub_files()) and the emotion priors.
    Returns what the cache holds (repos, files, bytes, seconds, written: repo -> names)."""
    from .cache import timed_build
    report = timed_build(Path(root) / HUB_FOLDER, files)
    write_emotion_priors(Path(root) / DATA_FOLDER)
    return report


def rehearse(root: Path) -> dict:
    """prepare, then check_loaders: the report, and whether every loader loaded."""
    cache = prepare(root)
    loaders = check_loaders(root)
    return {"cache": {key: value for key, value in cache.items() if key != "written"}, "loaders": loaders,
            "passed": all("error" not in result for result in loaders.values())}
