"""Empathy memory: the listener avatar's identity, kept between requests.

An avatar is a profile, a portrait and a reference voice, plus features that engines derive from them once
(a voice embedding, a face box) and cache beside the avatar, keyed by engine and by the source file's hash.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from ..contracts import AudioClip, Profile
from ..dialogue import AGES, GENDERS, TIMBRES
from ..errors import InputError, UnknownAvatarError
from ..media import load_audio, load_image
from ..faces import largest_face
from ..settings import MAX_REFERENCE_VOICE_SECONDS
from .. import settings

BUILTIN_AVATAR_DIR = Path(__file__).resolve().parents[2] / "assets" / "avatars"
DEFAULT_AVATAR = "luis"
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 _-]{0,39}$")


def _file_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


@dataclass(frozen=True)
class Avatar:
    name: str
    profile: Profile
    portrait_path: Path
    voice_path: Path
    cache_dir: Path
    source: str = ""

    def portrait(self) -> np.ndarray:
        return load_image(self.portrait_path, "portrait")

    def reference_voice(self, sample_rate: int) -> AudioClip:
        return load_audio(self.voice_path, sample_rate, MAX_REFERENCE_VOICE_SECONDS, "The reference voice")

    def feature(self, key: str, compute: Callable[[], np.ndarray]) -> np.ndarray:
        """A cached array derived from the avatar's files (recomputed when the files change)."""
        digest = hashlib.sha256(
            f"{key}|{_file_digest(self.voice_path)}|{_file_digest(self.portrait_path)}".encode()).hexdigest()[:20]
        path = self.cache_dir / f"{re.sub(r'[^A-Za-z0-9_.-]', '_', key)}-{digest}.npy"
        if path.is_file():
            return np.load(path, allow_pickle=False)
        value = np.asarray(compute())
        self.cache_dir.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=self.cache_dir, suffix=".npy", delete=False) as handle:
            np.save(handle, value, allow_pickle=False)
        os.replace(handle.name, path)
        return value


def _read_avatar(directory: Path, cache_root: Path) -> Avatar:
    meta = json.loads((directory / "avatar.json").read_text(encoding="utf-8"))
    return Avatar(name=meta["name"], profile=Profile(**meta.get("profile", {})),
                  portrait_path=directory / meta["portrait"], voice_path=directory / meta["voice"],
                  cache_dir=cache_root / "features" / directory.name, source=meta.get("source", ""))


def _check_profile(profile: Profile) -> Profile:
    for value, allowed, field in ((profile.age, AGES, "age"), (profile.gender, GENDERS, "gender"),
                                  (profile.timbre, TIMBRES, "timbre")):
        if value is not None and value not in allowed:
            raise InputError(f"Avatar {field} must be one of {', '.join(allowed)}.")
    return profile


class AvatarStore:
    """Built-in avatars from assets/, plus avatars saved under a data directory."""

    def __init__(self, data_dir: Path | None = None, builtin_dir: Path = BUILTIN_AVATAR_DIR):
        self.data_dir = Path(data_dir) if data_dir else settings.data_dir()
        self.builtin_dir = builtin_dir

    def _directories(self) -> dict[str, Path]:
        found = {}
        for root in (self.builtin_dir, self.data_dir / "avatars"):
            if root.is_dir():
                for child in sorted(root.iterdir()):
                    if (child / "avatar.json").is_file():
                        found.setdefault(child.name, child)
        return found

    def names(self) -> list[str]:
        return list(self._directories())

    def get(self, name: str | None) -> Avatar:
        name = (name or "").strip() or DEFAULT_AVATAR
        directory = self._directories().get(name)
        if directory is None:
            raise UnknownAvatarError(f"There is no avatar called '{name}' (choose from {', '.join(self.names())}).")
        return _read_avatar(directory, self.data_dir)

    def create(self, name: str, portrait: str | Path, voice: str | Path, profile: Profile = Profile(),
               root: Path | None = None, source: str = "uploaded by the user") -> Avatar:
        """Check and copy a portrait and a reference voice into a new avatar (under root, or the data dir)."""
        if not _NAME.match(name or ""):
            raise InputError("An avatar name has 1-40 letters, digits, spaces, '-' or '_'.")
        _check_profile(profile)
        largest_face(load_image(portrait, "portrait"))
        load_audio(voice, 16_000, MAX_REFERENCE_VOICE_SECONDS, "The reference voice")
        directory = (root or self.data_dir / "avatars") / name
        directory.mkdir(parents=True, exist_ok=True)
        portrait_name = "portrait" + Path(portrait).suffix.lower()
        voice_name = "voice" + Path(voice).suffix.lower()
        shutil.copyfile(portrait, directory / portrait_name)
        shutil.copyfile(voice, directory / voice_name)
        meta = {"name": name, "profile": {k: v for k, v in asdict(profile).items() if v is not None},
                "portrait": portrait_name, "voice": voice_name, "source": source}
        (directory / "avatar.json").write_text(json.dumps(meta, indent=2), encoding="utf-8")
        return _read_avatar(directory, self.data_dir if root is None else root)
