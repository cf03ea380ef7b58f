"""Where OpenVoice's official files live on the Hugging Face hub, and loading them safely and strictly.

Every pickle is read with torch.load(weights_only=True). A state dict must match the module built from its
config key for key and shape (CheckpointMismatchError otherwise): upstream loads with strict=False and only
prints what did not fit, which hides a wrong config behind plausible-sounding noise.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import torch
from torch import nn

from ...errors import CheckpointMismatchError, EngineUnavailableError

V1_REPO = "myshell-ai/OpenVoice"
V2_REPO = "myshell-ai/OpenVoiceV2"


@dataclass(frozen=True)
class HubFile:
    repo_id: str
    filename: str


@dataclass(frozen=True)
class ConverterFiles:
    config: HubFile
    checkpoint: HubFile


@dataclass(frozen=True)
class BaseSpeakerFiles:
    config: HubFile
    checkpoint: HubFile
    default_se: HubFile     # tone colour of the 'default' style, in the V1 converter's embedding space
    style_se: HubFile       # tone colour shared by the eight expressive styles, same space

    def all(self) -> tuple[HubFile, ...]:
        return self.config, self.checkpoint, self.default_se, self.style_se


CONVERTER_FILES: dict[str, ConverterFiles] = {
    "v1": ConverterFiles(HubFile(V1_REPO, "checkpoints/converter/config.json"),
                         HubFile(V1_REPO, "checkpoints/converter/checkpoint.pth")),
    "v2": ConverterFiles(HubFile(V2_REPO, "converter/config.json"),
                         HubFile(V2_REPO, "converter/checkpoint.pth")),
}
EN_BASE_SPEAKER_FILES = BaseSpeakerFiles(
    HubFile(V1_REPO, "checkpoints/base_speakers/EN/config.json"),
    HubFile(V1_REPO, "checkpoints/base_speakers/EN/checkpoint.pth"),
    HubFile(V1_REPO, "checkpoints/base_speakers/EN/en_default_se.pth"),
    HubFile(V1_REPO, "checkpoints/base_speakers/EN/en_style_se.pth"),
)

FileResolver = Callable[[HubFile], Path]


def hub_resolver(local_files_only: bool = False) -> FileResolver:
    """Files from the hub (or only from its local cache), as hf_hub_download fetches them."""
    def resolve(file: HubFile) -> Path:
        from huggingface_hub import hf_hub_download
        try:
            return Path(hf_hub_download(file.repo_id, file.filename, local_files_only=local_files_only))
        except Exception as error:  # offline, not cached, gated, renamed: all mean the engine cannot run
            where = "in the local cache" if local_files_only else "on the hub"
            raise EngineUnavailableError(
                f"OpenVoice file {file.repo_id}/{file.filename} is not available {where} "
                f"({type(error).__name__}).") from error
    return resolve


def directory_resolver(root: str | Path) -> FileResolver:
    """Files laid out as root/<repo_id>/<filename> (an offline copy of the hub repositories)."""
    def resolve(file: HubFile) -> Path:
        path = Path(root) / file.repo_id / file.filename
        if not path.is_file():
            raise EngineUnavailableError(f"OpenVoice file {path} does not exist.")
        return path
    return resolve


def _load_pickle(path: Path) -> object:
    try:
        return torch.load(path, map_location="cpu", weights_only=True)
    except Exception as error:  # truncated download, foreign pickle content, not a torch file
        raise CheckpointMismatchError(f"{path}: cannot be read as a weights-only torch file ({error}).") from None


def read_model_state(path: str | Path) -> dict[str, torch.Tensor]:
    """The network weights of an OpenVoice checkpoint.pth ({'model': state_dict, ...training extras})."""
    checkpoint = _load_pickle(Path(path))
    state = checkpoint.get("model") if isinstance(checkpoint, dict) else None
    if not isinstance(state, dict) or not all(isinstance(value, torch.Tensor) for value in state.values()):
        raise CheckpointMismatchError(f"{path}: expected a dict whose 'model' entry is a state dict.")
    return state


def read_speaker_embedding(path: str | Path, gin_channels: int) -> torch.Tensor:
    """A stored tone-colour embedding as [1, gin_channels, 1] float32."""
    embedding = _load_pickle(Path(path))
    if not isinstance(embedding, torch.Tensor) or embedding.numel() != gin_channels:
        shape = tuple(embedding.shape) if isinstance(embedding, torch.Tensor) else type(embedding).__name__
        raise CheckpointMismatchError(f"{path}: expected a tone-colour embedding of {gin_channels} values, "
                                      f"found {shape}.")
    return embedding.reshape(1, gin_channels, 1).float()


def load_strict(model: nn.Module, state: dict[str, torch.Tensor], source: str) -> nn.Module:
    """Load state into model (typically built on the meta device) only if keys and shapes match exactly."""
    expected = {key: tuple(value.shape) for key, value in model.state_dict().items()}
    found = {key: tuple(value.shape) for key, value in state.items()}
    missing = sorted(expected.keys() - found.keys())
    unexpected = sorted(found.keys() - expected.keys())
    reshaped = sorted(key for key in expected.keys() & found.keys() if expected[key] != found[key])
    if missing or unexpected or reshaped:
        problems = []
        if missing:
            problems.append(f"{len(missing)} missing (e.g. {', '.join(missing[:3])})")
        if unexpected:
            problems.append(f"{len(unexpected)} unexpected (e.g. {', '.join(unexpected[:3])})")
        if reshaped:
            problems.append("shape mismatch: " + ", ".join(
                f"{key} {list(found[key])} vs {list(expected[key])}" for key in reshaped[:3]))
        raise CheckpointMismatchError(f"{source} does not fit the model built from its config: "
                                      + "; ".join(problems) + ".")
    model.load_state_dict(state, strict=True, assign=True)
    return model


def required_hub_files(converter_version: str = "v1") -> tuple[HubFile, ...]:
    """Every hub file the OpenVoice speech engine reads: the EN base speaker, its two source tone colours and
    the chosen converter (no watermark model)."""
    converter = CONVERTER_FILES[converter_version]
    return (*EN_BASE_SPEAKER_FILES.all(), converter.config, converter.checkpoint)


def preload_from_hub(converter_version: str = "v1") -> list[str]:
    """The same files as lines of a Space README's preload_from_hub list ('repo file1,file2')."""
    by_repo: dict[str, list[str]] = {}
    for file in required_hub_files(converter_version):
        by_repo.setdefault(file.repo_id, []).append(file.filename)
    return [f"{repo} {','.join(names)}" for repo, names in by_repo.items()]
