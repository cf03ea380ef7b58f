"""The full tier: the ported GPU engines (Ola-Omni voter and writer, Qwen2.5-Omni voter, OpenVoice, DICE-Talk),
loaded from the hub by load_tier() at start-up (serving.load_engines), after `import spaces`, as ZeroGPU wants.

Each engine loads on its own: a missing one leaves its stages to the lite engines and the page says why.
settings.TIER_VARIABLE picks the tier ("auto": full when a GPU is present), settings.FULL_DEVICE_VARIABLE its device.
"""
import spaces  # noqa: F401  (first: on ZeroGPU it patches torch before any model is placed on cuda)

import glob
import logging
from dataclasses import dataclass, field

from ..contracts import EngineSet
from ..errors import describe
from ..generation.openvoice.cost import openvoice_gpu_seconds
from ..runner import Stage, Tier
from ..settings import full_tier_device, on_zero_gpu, requested_tier
from .zerogpu import TierCosts, ZeroGpuCall

log = logging.getLogger(__name__)


@dataclass
class FullEngines:
    """The full-tier engines that loaded (None where one did not), and why the others did not."""
    device: str
    ola: object = None                  # an OlaRuntime: the omni voter and the reply writer
    qwen: object = None                 # a QwenOmniVoter
    speech: object = None               # an OpenVoiceSpeechEngine
    video: object = None                # a DiceTalkVideoEngine
    problems: dict[str, str] = field(default_factory=dict)     # engine -> why it is missing

    @property
    def any_loaded(self) -> bool:
        return any(engine is not None for engine in (self.ola, self.qwen, self.speech, self.video))


def cuda_present() -> bool:
    """True on a machine with a CUDA GPU, and on ZeroGPU, where `spaces` makes torch report one.

    Without NVIDIA device nodes (and off ZeroGPU) there is no GPU to ask torch about; not importing torch then
    keeps the lite app's start-up short."""
    if not on_zero_gpu() and not glob.glob("/dev/nvidia[0-9]*"):
        return False
    import torch
    return torch.cuda.is_available()


def _load_ola(device: str):
    from ..understanding.ola.engine import OlaRuntime
    return OlaRuntime.from_pretrained(device=device, quantize=True)


def _load_qwen(device: str):
    from ..understanding.qwen_omni_voter import QwenOmniVoter
    return QwenOmniVoter.from_pretrained(device=device, quantize=True)


def _load_openvoice(device: str):
    from ..generation.openvoice import OpenVoiceSpeechEngine
    return OpenVoiceSpeechEngine.from_pretrained(device=device)


# The CPU placement exists for rehearsals without a GPU (scripts/rehearse_full_tier.sh): there DICE-Talk renders at
# the smallest size its VAE, UNet and RIFE take (portrait.SIDE_MULTIPLE), not 512 px, so a turn's video takes
# seconds; on a GPU it renders at its trained 512.
CPU_VIDEO_SHORT_SIDE = 64


def _load_dicetalk(device: str):
    import torch

    from ..generation.dicetalk import DiceTalkVideoEngine
    # fp16 is DICE-Talk's GPU precision; a CPU has no fast fp16 kernels.
    if device == "cpu":
        return DiceTalkVideoEngine.from_pretrained(device=device, dtype=torch.float32,
                                                   short_side=CPU_VIDEO_SHORT_SIDE)
    return DiceTalkVideoEngine.from_pretrained(device=device, dtype=torch.float16)


# attribute of FullEngines, the engine's name on the page, its loader
LOADERS = (("ola", "Ola-Omni", _load_ola), ("qwen", "Qwen2.5-Omni", _load_qwen),
           ("speech", "OpenVoice", _load_openvoice), ("video", "DICE-Talk", _load_dicetalk))


def load_full_engines(device: str) -> FullEngines:
    """Every full-tier engine from the hub, each on its own, placed on device by its loader (LLMs in 4-bit NF4)."""
    loaded = FullEngines(device)
    if device.startswith("cuda") and not cuda_present():
        loaded.problems = {"every engine": "no CUDA device is available"}
        return loaded
    for attribute, name, load in LOADERS:
        try:
            setattr(loaded, attribute, load(device))
        except Exception as error:      # one engine failing must leave the others serving
            log.warning("%s could not load", name, exc_info=True)
            loaded.problems[name] = describe(error)
    return loaded


def assemble(loaded: FullEngines, lite: EngineSet) -> tuple[EngineSet, tuple[Stage, ...], TierCosts]:
    """The tier's engines (the full ones that loaded, lite ones for the rest), the stages its GPU call runs, and
    their prices.

    The GPU call runs one unbroken run of stages served by full engines, from the first; what follows a missing
    engine runs on the CPU after the call (a second GPU call per turn would cost a second worker start)."""
    from ..generation.dicetalk import estimate_gpu_seconds
    from ..understanding.ola.engine import OlaEmotionVoter, OlaReplyWriter
    ola, qwen = loaded.ola, loaded.qwen
    voters = ([OlaEmotionVoter(ola)] if ola else []) + ([qwen] if qwen else [])
    engines = EngineSet(voters=voters, writer=OlaReplyWriter(ola) if ola else lite.writer,
                        speech=loaded.speech or lite.speech, video=loaded.video or lite.video)
    served = {Stage.EMOTION: bool(voters), Stage.TEXT: ola is not None, Stage.SPEECH: loaded.speech is not None,
              Stage.VIDEO: loaded.video is not None}
    stages: list[Stage] = []
    for stage in Stage:
        if served[stage]:
            stages.append(stage)
        elif stages:
            break
    costs = TierCosts(
        understanding=lambda query: ((ola.estimate(query).seconds if ola else 0.0)
                                     + (qwen.estimate_seconds(query) if qwen else 0.0)),
        speech=openvoice_gpu_seconds,
        video=lambda seconds, settings: estimate_gpu_seconds(seconds, settings.video_steps))
    return engines, tuple(stages), costs


def full_tier(loaded: FullEngines, lite: EngineSet) -> Tier:
    """The full tier as a Tier: its engines, the stages its one GPU call runs, and that call."""
    engines, stages, costs = assemble(loaded, lite)
    notices = tuple(f"{name} is not available ({why}); the lite (CPU) engines do its part."
                    for name, why in loaded.problems.items())
    call = ZeroGpuCall(engines, costs, loaded.device) if stages else None
    return Tier("full", engines, stages, call, notices)


def full_tier_wanted(choice: str | None = None) -> bool:
    """Whether E3RG_TIER (or choice) asks for the full tier ("auto": when a GPU is present); loads nothing."""
    choice = choice or requested_tier()
    return choice == "full" or (choice == "auto" and cuda_present())


def load_tier(choice: str | None = None) -> FullEngines | None:
    """The full tier's engines as E3RG_TIER (or choice) asks: None when the tier is not wanted."""
    return load_full_engines(full_tier_device()) if full_tier_wanted(choice) else None


def hub_files() -> list[tuple[str, str]]:
    """Every (repository, file) the full tier reads, each named (never a whole repository: THUdyh/Ola-7b also
    holds a 3.45 GB copy of the speech encoders that is read from THUdyh/Ola_speech_encoders)."""
    from ..generation.dicetalk import hub_files as dicetalk_files
    from ..generation.openvoice import required_hub_files
    from ..understanding.ola.loading import BEATS_FILE, OLA_FILES, OLA_REPO, SPEECH_REPO, WHISPER_FILE
    from ..understanding.qwen_omni_voter import QWEN_OMNI_REPO, THINKER_FILES
    return [*((OLA_REPO, name) for name in OLA_FILES), (SPEECH_REPO, WHISPER_FILE), (SPEECH_REPO, BEATS_FILE),
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

