"""Where DICE-Talk's weights live on the hub, and strict loading of them.

Only the files inference reads are fetched: from SVD-xt (gated) the fp16 VAE and CLIP image encoder, the
scheduler config and the UNet *config* (DICE-Talk's unet.pth is a full UNet state dict, so SVD's UNet weights
are never needed); DICE-Talk's four module checkpoints and RIFE's flow network; whisper-tiny.
"""
from __future__ import annotations

import pickle
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import torch
from torch import nn

from ...errors import CheckpointMismatchError, EngineUnavailableError
from .audio_projection import AudioProjectionConfig
from .emotion_model import EmotionModelConfig
from .pose_guider import PoseGuiderConfig

SVD_REPO = "stabilityai/stable-video-diffusion-img2vid-xt"
DICETALK_REPO = "EEEELY/DICE-Talk"
WHISPER_REPO = "openai/whisper-tiny"

SVD_UNET_CONFIG = "unet/config.json"
SVD_SCHEDULER_CONFIG = "scheduler/scheduler_config.json"
SVD_FILES = (SVD_UNET_CONFIG, SVD_SCHEDULER_CONFIG, "vae/config.json", "vae/diffusion_pytorch_model.fp16.safetensors",
             "image_encoder/config.json", "image_encoder/model.fp16.safetensors")
UNET_WEIGHTS = "DICE-Talk/unet.pth"
POSE_GUIDER_WEIGHTS = "DICE-Talk/pose_guider.pth"
AUDIO_PROJECTION_WEIGHTS = "DICE-Talk/audio_linear.pth"
EMOTION_MODEL_WEIGHTS = "DICE-Talk/emo_model.pth"
INTERPOLATOR_WEIGHTS = "RIFE/flownet.pkl"
DICETALK_FILES = (UNET_WEIGHTS, POSE_GUIDER_WEIGHTS, AUDIO_PROJECTION_WEIGHTS, EMOTION_MODEL_WEIGHTS,
                  INTERPOLATOR_WEIGHTS)
WHISPER_FILES = ("config.json", "model.safetensors", "preprocessor_config.json")


def hub_files() -> list[tuple[str, str]]:
    """Every (repo id, filename) the full video engine reads, e.g. for a Space's preload_from_hub."""
    return ([(SVD_REPO, name) for name in SVD_FILES] + [(DICETALK_REPO, name) for name in DICETALK_FILES]
            + [(WHISPER_REPO, name) for name in WHISPER_FILES])


@dataclass(frozen=True)
class ModuleConfigs:
    pose_guider: PoseGuiderConfig
    audio_projection: AudioProjectionConfig
    emotion_model: EmotionModelConfig


def module_configs(unet_config: Mapping, whisper_config) -> ModuleConfigs:
    """The sizes of DICE-Talk's own modules. Upstream writes them as constants; three are the sizes of the
    models they plug into and are read from those models' configs here (the official files give upstream's
    constants): the pose guider's output is added to the UNet's first activations, the audio projection reads
    every whisper-tiny encoder state (the embeddings and each layer, d_model wide), and the audio and emotion
    tokens enter the UNet's cross-attention."""
    width = int(unet_config["cross_attention_dim"])
    return ModuleConfigs(
        PoseGuiderConfig(conditioning_embedding_channels=int(unet_config["block_out_channels"][0])),
        AudioProjectionConfig(blocks=int(whisper_config.encoder_layers) + 1, channels=int(whisper_config.d_model),
                              output_dim=width),
        EmotionModelConfig(width=width))


def fetch(local_files_only: bool = False) -> dict[tuple[str, str], Path]:
    """Local paths of hub_files(), downloading what the cache lacks (SVD-xt needs an accepted licence + token)."""
    from huggingface_hub import hf_hub_download
    from huggingface_hub.errors import HfHubHTTPError, LocalEntryNotFoundError
    paths = {}
    for repo, name in hub_files():
        try:
            paths[repo, name] = Path(hf_hub_download(repo, name, local_files_only=local_files_only))
        except (LocalEntryNotFoundError, HfHubHTTPError, OSError) as error:
            raise EngineUnavailableError(f"{repo}/{name} is not available ({type(error).__name__}).") from None
    return paths


def snapshot_root(paths: Mapping[tuple[str, str], Path], repo: str) -> Path:
    """The local snapshot folder of a repo, for loaders that take a folder and a subfolder."""
    repo_files = [(path, name) for (owner, name), path in paths.items() if owner == repo]
    path, name = repo_files[0]
    return path.parents[len(Path(name).parts) - 1]


def read_state_dict(path: Path) -> dict[str, torch.Tensor]:
    """A torch checkpoint's tensors, without running pickled code; a "module." (DataParallel) prefix is dropped."""
    try:
        try:
            state = torch.load(path, map_location="cpu", weights_only=True, mmap=True)
        except RuntimeError:    # checkpoints saved before torch's zip format cannot be memory-mapped
            state = torch.load(path, map_location="cpu", weights_only=True)
    except pickle.UnpicklingError as error:
        raise CheckpointMismatchError(f"{Path(path).name} holds more than tensors ({error}).") from None
    except Exception as error:      # truncated download, not a torch file
        raise CheckpointMismatchError(f"{Path(path).name} is not a readable torch checkpoint ({error}).") from None
    if not isinstance(state, Mapping) or not all(isinstance(value, torch.Tensor) for value in state.values()):
        raise CheckpointMismatchError(f"{Path(path).name} is not a plain state dict.")
    return {key.removeprefix("module."): value for key, value in state.items()}


def load_strict(module: nn.Module, state_dict: Mapping[str, torch.Tensor], what: str) -> nn.Module:
    """Load a state dict whose keys and shapes equal the module's exactly (assigning its tensors).

    The module may be built on the meta device: its tensors are replaced by the checkpoint's.
    """
    expected = module.state_dict()
    missing = sorted(set(expected) - set(state_dict))
    unexpected = sorted(set(state_dict) - set(expected))
    reshaped = sorted(key for key in set(expected) & set(state_dict) if expected[key].shape != state_dict[key].shape)
    if missing or unexpected or reshaped:
        def some(keys: list[str]) -> str:
            return ", ".join(keys[:5]) + (f" (+{len(keys) - 5} more)" if len(keys) > 5 else "")
        problems = [f"{label}: {some(keys)}" for label, keys in
                    (("missing", missing), ("unexpected", unexpected), ("shape differs", reshaped)) if keys]
        raise CheckpointMismatchError(f"{what} does not match its module; " + "; ".join(problems))
    module.load_state_dict(dict(state_dict), strict=True, assign=True)
    if any(tensor.is_meta for tensor in module.state_dict().values()):
        raise CheckpointMismatchError(f"{what} left tensors of its module unloaded.")
    return module


def check_loading_info(info: Mapping[str, list], what: str) -> None:
    """Reject a library from_pretrained load that reported missing, unexpected or reshaped weights."""
    problems = {key: info.get(key) for key in ("missing_keys", "unexpected_keys", "mismatched_keys")
                if info.get(key)}
    if problems:
        raise CheckpointMismatchError(f"{what} does not match its module: {problems}")
