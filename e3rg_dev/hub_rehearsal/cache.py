"""A private Hugging Face hub cache holding the fake repositories, laid out as huggingface_hub lays out the real
one, so that the loaders' own hf_hub_download(...) calls resolve it offline (HF_HUB_CACHE pointing there,
HF_HUB_OFFLINE=1), exactly as they resolve the files a Space preloads:

    models--<org>--<name>/blobs/<sha256 of a large file, or git blob id of a small one>
    models--<org>--<name>/snapshots/<commit>/<path in the repository>  -> ../../blobs/<id> (relative symlink)
    models--<org>--<name>/refs/main                                   (the commit)
"""
from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
import time
from collections.abc import Iterable, Mapping
from pathlib import Path

from .fake_repos import FAKE_REPOS

# Files the hub stores with Git LFS, named in the cache by their sha256 (others by their git blob id).
LFS_SUFFIXES = (".safetensors", ".pt", ".pth", ".pkl", ".bin")


class FakeHubError(RuntimeError):
    """The fake hub cannot hold a file it was asked for."""


def repo_folder(cache: Path, repo_id: str) -> Path:
    return Path(cache) / f"models--{repo_id.replace('/', '--')}"


def blob_id(path: Path) -> str:
    data = path.read_bytes()
    if path.name.endswith(LFS_SUFFIXES):
        return hashlib.sha256(data).hexdigest()
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def add_snapshot(cache: Path, repo_id: str, staged: Path, names: Iterable[str]) -> str:
    """Move the named files of a staged repository into the cache as one snapshot on refs/main."""
    names = sorted(names)
    commit = hashlib.sha1("\n".join([repo_id, *names]).encode()).hexdigest()     # a stable 40-hex revision
    folder = repo_folder(cache, repo_id)
    for name in names:
        source = staged / name
        blob = folder / "blobs" / blob_id(source)
        blob.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(source, blob)
        link = folder / "snapshots" / commit / name
        link.parent.mkdir(parents=True, exist_ok=True)
        link.symlink_to(os.path.relpath(blob, link.parent))
    (folder / "refs").mkdir(parents=True, exist_ok=True)
    (folder / "refs" / "main").write_text(commit)
    return commit


def staged_names(folder: Path) -> set[str]:
    return {path.relative_to(folder).as_posix() for path in folder.rglob("*") if path.is_file()}


def full_tier_hub_files() -> list[tuple[str, str | None]]:
    from e3rg_core.tiers.full import hub_files
    return hub_files()


def link_or_copy(source: str, target: str) -> None:
    try:
        os.link(source, target)
    except OSError:         # another file system
        shutil.copy2(source, target)


def build_cache(cache: Path, files: Iterable[tuple[str, str | None]] | None = None, seed: int = 0,
                written_folders: Mapping[str, Path] | None = None) -> dict[str, list[str]]:
    """Write a hub cache at `cache` holding `files` (default: every file the full tier reads, hub_files()) and
    nothing else; a None file name stands for every file of that repository. Returns repo -> file names.
    written_folders maps repositories to folders that their FAKE_REPOS writer already filled with this seed:
    their files are hard-linked from there, not written again (the fake Ola-7b holds a full-size OryxViT).
    Raises FakeHubError for a repository or file the fake hub does not make."""
    wanted: dict[str, set[str] | None] = {}
    for repo, name in files if files is not None else full_tier_hub_files():
        if name is None:
            wanted[repo] = None
        elif wanted.get(repo, set()) is not None:
            wanted.setdefault(repo, set()).add(name)
    writers = {repo.repo_id: repo.write for repo in FAKE_REPOS}
    unknown = sorted(set(wanted) - set(writers))
    if unknown:
        raise FakeHubError(f"The fake hub has no repository {', '.join(unknown)}.")
    written = {}
    with tempfile.TemporaryDirectory(prefix="e3rg-fake-repo-") as scratch:
        for repo, names in wanted.items():
            staged = Path(scratch) / repo.replace("/", "--")
            if written_folders and repo in written_folders:
                shutil.copytree(written_folders[repo], staged, copy_function=link_or_copy)
            else:
                staged.mkdir()
                writers[repo](staged, seed)
            made = staged_names(staged)
            names = made if names is None else names
            if names - made:
                raise FakeHubError(f"The fake {repo} does not make {', '.join(sorted(names - made))}.")
            add_snapshot(cache, repo, staged, names)
            written[repo] = sorted(names)
    return written


def cache_bytes(cache: Path) -> int:
    return sum(path.stat().st_size for path in Path(cache).rglob("*") if path.is_file() and not path.is_symlink())


def timed_build(cache: Path, files=None, written_folders: Mapping[str, Path] | None = None) -> dict:
    """build_cache and what it made: repositories, files, bytes on disk, seconds."""
    started = time.perf_counter()
    written = build_cache(cache, files, written_folders=written_folders)
    return {"repos": len(written), "files": sum(map(len, written.values())), "bytes": cache_bytes(cache),
            "seconds": round(time.perf_counter() - started, 2), "written": written}
