"""Emotion priors: the 256-d vectors that tell DICE-Talk which emotion to render.

DICE-Talk publishes them only in its GitHub repository, which a Space build cannot reach, so the package ships them
(SHIPPED_PRIORS; CC BY-NC-SA 4.0, credited in assets/README.md). This module's command rebuilds them from the
official files, checked by SHA-256, reading each vector from the pickle's opcode listing: nothing is unpickled.

    python -m e3rg_core.generation.dicetalk.emotion_priors [--from FOLDER_WITH_THE_8_NPY] [--data-dir DIR]
"""
from __future__ import annotations

import argparse
import hashlib
import io
import os
import pickletools
import sys
import tempfile
import urllib.error
import urllib.request
from collections.abc import Mapping
from pathlib import Path

import numpy as np

from ...emotions import COARSE_TO_DICETALK_EMOTION
from ...errors import CheckpointMismatchError, EngineUnavailableError, InputError

PRIOR_DIM = 256
SOURCE_COMMIT = "a8a92b164a3f552414d06a463a2b2e8eeb92db0b"
SOURCE_URL = f"https://raw.githubusercontent.com/toto222/DICE-Talk/{SOURCE_COMMIT}/examples/emo/{{name}}.npy"
SHA256: dict[str, str] = {
    "angry": "ba5a185d63a31a0c0a3eacac79e843985ff05c4605199d459d00377719b968e3",
    "contempt": "0cb2b27282f1e63149d24415ebefaf59d8ff7c567971ed809588ee00f30cb988",
    "disgusted": "097068dd93b0c5fc955740355847c8b23c2ab752abb67ac880b5f60a2048fb0e",
    "fear": "0767fa00bbea51406bfc92962b16b7cb003954b353f5b26ab7a267835a43b5a2",
    "happy": "ce84e8456729a227cb2d629b4c37c4de274800a427aa5f35b10e0fda79fec549",
    "neutral": "2cb35601ae8de98aba9293187b45f34c9cfec5f5bf3efd41d5948bc229cae21e",
    "sad": "9d323ad9b1c42a1c1ed8a8f05e6c0b7344be20e86ed48a855c657d7812545a98",
    "surprised": "0aaae02af23b5874e8407d93cf7fe89a44077efb4a7159f91e51d469c97f400e",
}
CACHE_NAME = f"dicetalk-emotion-priors-{SOURCE_COMMIT[:12]}.npz"
# Written by this module's command from the files at SOURCE_COMMIT; sha256 in assets/README.md.
SHIPPED_PRIORS = Path(__file__).with_name(CACHE_NAME)
_DOWNLOAD_TIMEOUT_S = 30


def prior_vector(values) -> np.ndarray:
    """A custom emotion prior as float32 (256,), from any array-like of 256 finite numbers."""
    try:
        vector = np.asarray(values, dtype=np.float32).reshape(-1)
    except (TypeError, ValueError):
        raise InputError(f"An emotion prior must be {PRIOR_DIM} numbers.") from None
    if vector.shape != (PRIOR_DIM,) or not np.isfinite(vector).all():
        raise InputError(f"An emotion prior must be {PRIOR_DIM} finite numbers (got {vector.size}).")
    return vector


def parse_official_prior(raw: bytes, what: str) -> np.ndarray:
    """The 'mu' vector of an official prior file, read from its pickle opcodes without unpickling."""
    stream = io.BytesIO(raw)
    try:
        version = np.lib.format.read_magic(stream)
        read_header = (np.lib.format.read_array_header_1_0 if version == (1, 0)
                       else np.lib.format.read_array_header_2_0)
        shape, _, dtype = read_header(stream)
        opcodes = list(pickletools.genops(stream.read()))
    except ValueError as error:
        raise CheckpointMismatchError(f"{what} is not a readable .npy file ({error}).") from None
    strings = {arg for opcode, arg, _ in opcodes if isinstance(arg, str)}
    buffers = [arg for opcode, arg, _ in opcodes if isinstance(arg, bytes) and len(arg) == PRIOR_DIM * 4]
    if dtype != np.dtype(object) or shape != () or "mu" not in strings or "f4" not in strings \
            or "<" not in strings or len(buffers) != 1:
        raise CheckpointMismatchError(f"{what} does not hold a {{'mu': float32 (1, {PRIOR_DIM})}} prior.")
    return np.frombuffer(buffers[0], dtype="<f4").astype(np.float32)


def _download(name: str) -> bytes:
    url = SOURCE_URL.format(name=name)
    try:
        with urllib.request.urlopen(url, timeout=_DOWNLOAD_TIMEOUT_S) as response:
            return response.read()
    except (urllib.error.URLError, TimeoutError) as error:
        raise EngineUnavailableError(f"The DICE-Talk emotion prior {name} could not be downloaded ({error}).") \
            from None


def official_prior(name: str, source: Path | None = None) -> np.ndarray:
    """One official prior, from source/<name>.npy or downloaded at the pinned commit, checked by SHA-256."""
    raw = (Path(source) / f"{name}.npy").read_bytes() if source is not None else _download(name)
    if hashlib.sha256(raw).hexdigest() != SHA256[name]:
        raise CheckpointMismatchError(f"The emotion prior {name}.npy does not match its pinned SHA-256 "
                                      f"(DICE-Talk commit {SOURCE_COMMIT}).")
    return parse_official_prior(raw, f"The emotion prior {name}")


def store_emotion_priors(priors: Mapping[str, np.ndarray], data_dir: Path) -> Path:
    """Write priors (name -> 256 floats) as the plain .npz that load_emotion_priors reads."""
    cache = Path(data_dir) / CACHE_NAME
    cache.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(dir=cache.parent, suffix=".npz", delete=False) as handle:
        np.savez(handle, **{name: prior_vector(values) for name, values in priors.items()})
    os.replace(handle.name, cache)
    return cache


def install_emotion_priors(data_dir: Path, source: Path | None = None) -> Path:
    """The build step: the eight official priors (from source, else downloaded) stored in data_dir."""
    return store_emotion_priors({name: official_prior(name, source) for name in SHA256}, data_dir)


def load_emotion_priors(data_dir: Path) -> dict[str, np.ndarray]:
    """The priors by DICE-Talk emotion name, each float32 (256,): the data folder's, else the shipped ones. Never
    downloads."""
    cache = Path(data_dir) / CACHE_NAME
    if not cache.is_file():
        cache = SHIPPED_PRIORS
    if not cache.is_file():
        raise EngineUnavailableError(
            "DICE-Talk's emotion priors are missing: run `python -m e3rg_core.generation.dicetalk."
            f"emotion_priors` before start-up (no {Path(data_dir) / CACHE_NAME}).")
    with np.load(cache, allow_pickle=False) as stored:
        priors = {name: prior_vector(stored[name]) for name in stored.files}
    missing = set(COARSE_TO_DICETALK_EMOTION.values()) - set(priors)
    if missing:
        raise CheckpointMismatchError(f"The emotion prior cache {cache} lacks {', '.join(sorted(missing))}.")
    return priors


def main(argv: list[str] | None = None) -> int:
    from ...settings import DATA_DIR_VARIABLE, data_dir
    parser = argparse.ArgumentParser(description="Install DICE-Talk's eight emotion priors for the full tier.")
    parser.add_argument("--from", dest="source", type=Path,
                        help="a folder holding the eight official <emotion>.npy files (default: download them)")
    parser.add_argument("--data-dir", type=Path, help=f"where to store them (default: ${DATA_DIR_VARIABLE} "
                                                      "or ~/.cache/e3rg)")
    args = parser.parse_args(argv)
    try:
        path = install_emotion_priors(args.data_dir or data_dir(), args.source)
    except (EngineUnavailableError, CheckpointMismatchError, OSError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(f"DICE-Talk emotion priors installed: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
