"""The full tier: the ported GPU engines (Ola-Omni voter and writer, Qwen2.5-Omni voter, OpenVoice speech,
DICE-Talk video) loaded from the hub into one EngineSet when this module is imported.

That is how ZeroGPU wants models: loaded at import, after `import spaces`, each placed on cuda by its loader.
On a ZeroGPU Space, CUDA is only emulated outside @spaces.GPU calls; what is "on cuda" now is packed when the
app launches and moved onto a real GPU inside each GPU worker. Off a Space the same code uses a real GPU when
there is one; without one the full tier is left out and the lite tier serves alone.

E3RG_TIER picks: "auto" (the default: the full tier when a GPU is present), "full" (load it even without a
visible GPU, and say why when that fails) or "lite" (never load it).
"""
import spaces  # noqa: F401  (first: on ZeroGPU it patches torch before any model is placed on cuda)

import glob
import logging
import os
from collections.abc import Callable
from dataclasses import dataclass

from .engines import EngineSet, GenerationSettings, UnderstandingRequest
from .errors import EngineUnavailableError

log = logging.getLogger(__name__)

TIER_VARIABLE = "E3RG_TIER"
TIER_CHOICES = ("auto", "full", "lite")

# Estimated GPU seconds (docs/zerogpu.md says how they were derived; nothing here was measured on a GPU).
WORKER_START_SECONDS = 15.0         # a fresh ZeroGPU worker: fork, CUDA init, ~23 GB of packed weights moved in
SPEECH_FIXED_SECONDS = 2.0          # OpenVoice: text front end, and the avatar's tone colour when not yet cached
SPEECH_SECONDS_PER_SECOND = 0.1     # OpenVoice: VITS base speaker + tone colour conversion, per second of speech


@dataclass(frozen=True)
class TierCosts:
    """GPU seconds of each stage of one turn, priced from the request before the GPU call."""
    understanding: Callable[[UnderstandingRequest], float]     # every GPU voter and the reply writer
    speech: Callable[[float], float]                           # seconds of speech -> GPU seconds
    video: Callable[[float, GenerationSettings], float]        # seconds of speech -> GPU seconds
    startup: float = WORKER_START_SECONDS


@dataclass(frozen=True)
class FullTier:
    """The loaded full-tier engines and their prices, or why they could not load."""
    engines: EngineSet | None
    costs: TierCosts | None
    device: str
    problem: str = ""


def describe(error: BaseException) -> str:
    """One line about an error, fit for a notice: its title or class, then the first line of its message."""
    title = getattr(error, "title", None) or type(error).__name__
    message = str(error).strip().splitlines()[0] if str(error).strip() else ""
    return f"{title}: {message}"[:240] if message else title


def openvoice_gpu_seconds(speech_seconds: float) -> float:
    return SPEECH_FIXED_SECONDS + SPEECH_SECONDS_PER_SECOND * speech_seconds


def requested_tier() -> str:
    choice = (os.environ.get(TIER_VARIABLE) or "auto").strip().lower()
    if choice not in TIER_CHOICES:
        raise ValueError(f"{TIER_VARIABLE} must be one of {', '.join(TIER_CHOICES)}, not {choice!r}.")
    return choice


def cuda_present() -> bool:
    """True on a machine with a CUDA GPU, and on ZeroGPU, where `spaces` makes torch report one.

    Without NVIDIA device nodes (and off ZeroGPU) there is no GPU to ask torch about; not importing torch then
    keeps the lite app's start-up short."""
    if not os.environ.get("SPACES_ZERO_GPU") and not glob.glob("/dev/nvidia[0-9]*"):
        return False
    import torch
    return torch.cuda.is_available()


def assemble(ola, qwen, speech, video) -> tuple[EngineSet, TierCosts]:
    """The full EngineSet from loaded engines (an OlaRuntime serving as voter and writer, a QwenOmniVoter, an
    OpenVoiceSpeechEngine, a DiceTalkVideoEngine), and the prices of its stages."""
    from .generation.dicetalk import estimate_gpu_seconds
    from .understanding.ola.engine import OlaEmotionVoter, OlaReplyWriter
    engines = EngineSet(voters=[OlaEmotionVoter(ola), qwen], writer=OlaReplyWriter(ola), speech=speech, video=video,
                        tier="full")
    costs = TierCosts(understanding=lambda query: ola.estimate(query).seconds + qwen.estimate_seconds(query),
                      speech=openvoice_gpu_seconds,
                      video=lambda seconds, settings: estimate_gpu_seconds(seconds, settings.video_steps))
    return engines, costs


def load_full_engines(device: str = "cuda") -> tuple[EngineSet, TierCosts]:
    """Every full-tier engine from the hub, placed on device by its own loader (the LLMs in 4-bit NF4).

    Raises EngineUnavailableError (no device, files missing) or CheckpointMismatchError (files that do not fit).
    """
    if device.startswith("cuda") and not cuda_present():
        raise EngineUnavailableError("no CUDA device is available")
    from .generation.dicetalk import DiceTalkVideoEngine
    from .generation.openvoice import OpenVoiceSpeechEngine
    from .understanding.ola.engine import OlaRuntime
    from .understanding.qwen_omni_voter import QwenOmniVoter
    return assemble(OlaRuntime.from_pretrained(device=device, quantize=True),
                    QwenOmniVoter.from_pretrained(device=device, quantize=True),
                    OpenVoiceSpeechEngine.from_pretrained(device=device),
                    DiceTalkVideoEngine.from_pretrained(device=device))


def load_tier(choice: str | None = None) -> FullTier | None:
    """The full tier as E3RG_TIER (or choice) asks: None when it is not wanted, else loaded or with its problem."""
    choice = choice or requested_tier()
    if choice == "lite" or (choice == "auto" and not cuda_present()):
        return None
    try:
        engines, costs = load_full_engines("cuda")
    except Exception as error:      # whatever stops the full tier, the lite tier must still serve
        log.warning("the full tier could not load", exc_info=True)
        return FullTier(None, None, "cuda", describe(error))
    return FullTier(engines, costs, "cuda")


def hub_files() -> list[tuple[str, str | None]]:
    """Every (repository, file) the full tier reads; None stands for a whole repository."""
    from .generation.dicetalk import hub_files as dicetalk_files
    from .generation.openvoice import required_hub_files
    from .understanding.ola.loading import BEATS_FILE, OLA_REPO, SPEECH_REPO, WHISPER_FILE
    from .understanding.qwen_omni_voter import QWEN_OMNI_REPO, THINKER_FILES
    # Ola's loader takes every *.json / *.safetensors / *.txt of its repository (it holds nothing else large).
    return [(OLA_REPO, None), (SPEECH_REPO, WHISPER_FILE), (SPEECH_REPO, BEATS_FILE),
            *((QWEN_OMNI_REPO, name) for name in THINKER_FILES),
            *((file.repo_id, file.filename) for file in required_hub_files()), *dicetalk_files()]


def preload_from_hub() -> list[str]:
    """hub_files() as the lines of a Space README's preload_from_hub list ('repo' or 'repo file1,file2')."""
    by_repo: dict[str, list[str]] = {}
    for repo, name in hub_files():
        names = by_repo.setdefault(repo, [])
        if name is not None:
            names.append(name)
    return [f"{repo} {','.join(names)}" if names else repo for repo, names in by_repo.items()]


FULL_TIER = load_tier()
