"""GPU smoke test of the full tier: tiny random configurations of every ported model on CUDA, then one whole
full-tier turn through the turn runner (one GPU call), with timings. Ola-Omni, the Qwen2.5-Omni thinker and
OpenVoice are written in their published file layouts and loaded through their real loaders (the two LLMs in bf16
and in 4-bit NF4); DICE-Talk's miniature is built in place, placed and typed as its loader places the real one.

    .venv/bin/python scripts/gpu_smoke.py

Needs no hub access: every weight is random and lives in a temporary folder. Without CUDA it says so and runs the
same tiny models on the CPU (bitsandbytes has CPU 4-bit kernels). Exits 1 if any step fails.

The tiny checkpoint writers (write_tiny_omni, write_tiny_ola, write_tiny_openvoice) live in the package
(e3rg_dev/hub_rehearsal/tiny.py), shared with the tests; DICE-Talk's miniature is the port's own
(generation/dicetalk/tiny.py).
"""
from __future__ import annotations

import os
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from pathlib import Path

import numpy as np
import torch

from e3rg_dev.hub_rehearsal.tiny import write_tiny_ola, write_tiny_omni, write_tiny_openvoice
from e3rg_core.settings import TIER_VARIABLE


# -- DICE-Talk ---------------------------------------------------------------------------------------------
def tiny_dicetalk(device: str, seed: int = 0):
    """A DICE-Talk engine on the port's own miniature pipeline (dicetalk.tiny), fp16 on CUDA as the real one."""
    from e3rg_core.emotions import COARSE_TO_DICETALK_EMOTION
    from e3rg_core.generation.dicetalk import DiceTalkVideoEngine
    from e3rg_core.generation.dicetalk.tiny import TINY_SHORT_SIDE, tiny_pipeline
    pipeline = tiny_pipeline(seed, device, torch.float16 if device == "cuda" else torch.float32)
    rng = np.random.default_rng(seed)
    priors = {name: rng.standard_normal(256) for name in COARSE_TO_DICETALK_EMOTION.values()}
    return DiceTalkVideoEngine(pipeline, priors, short_side=TINY_SHORT_SIDE)


# -- inputs ------------------------------------------------------------------------------------------------
def sample_request(seconds: float = 2.0, frames: int = 6):
    """A text + audio + video understanding request with synthetic media (a voiced tone, noise frames)."""
    from e3rg_core.contracts import Utterance
    from e3rg_core.contracts import AudioClip, UnderstandingRequest, VideoClip
    rng = np.random.default_rng(0)
    t = np.arange(int(seconds * 16_000)) / 16_000
    voice = 0.3 * np.sin(2 * np.pi * 180 * t) * (0.6 + 0.4 * np.sin(2 * np.pi * 3 * t))
    audio = AudioClip(voice.astype(np.float32), 16_000)
    video = VideoClip(rng.integers(0, 256, (frames, 72, 128, 3), dtype=np.uint8),
                      np.arange(frames) / frames * seconds, seconds, frames / seconds)
    return UnderstandingRequest(history=(Utterance(0, "speaker", "I finally got the job I wanted!"),),
                                audio=audio, video=video)


# -- the run -----------------------------------------------------------------------------------------------
class Smoke:
    def __init__(self, device: str):
        self.device, self.rows, self.failed = device, [], False

    def step(self, name: str, action: Callable[[], object]) -> object:
        if self.device == "cuda":
            torch.cuda.synchronize()
        started = time.perf_counter()
        try:
            result = action()
            if self.device == "cuda":
                torch.cuda.synchronize()
        except Exception:
            self.failed = True
            self.rows.append((name, time.perf_counter() - started, "FAILED"))
            print(f"[FAILED] {name}\n{traceback.format_exc()}", flush=True)
            return None
        self.rows.append((name, time.perf_counter() - started, "ok"))
        print(f"[ok] {name}: {time.perf_counter() - started:.2f} s", flush=True)
        return result


def whole_turn(smoke: Smoke, loaded, workdir: Path) -> None:
    """One full-tier turn through the turn runner: it decodes and transcribes on the CPU, the GPU call runs the tiny
    full engines; prints the stage timings, the ZeroGPU duration asked for and the GPU calls made."""
    from e3rg_core.contracts import GenerationSettings
    from e3rg_core.media import write_mp4, write_wav
    from e3rg_core.memory.avatars import AvatarStore
    from e3rg_core.runner import ResponseRequest, TurnRunner
    from e3rg_core.tiers.full import full_tier
    from e3rg_core.tiers.lite import example_pool, lite_tier, transcriber
    from e3rg_core.tiers.zerogpu import gpu_duration
    request = sample_request()
    audio = write_wav(workdir / "turn.wav", request.audio.samples, request.audio.sample_rate)
    video = write_mp4(list(request.video.frames), request.video.fps, audio, workdir / "turn.mp4")
    lite = lite_tier()
    tier = smoke.step("the full tier over the lite tier", lambda: full_tier(loaded, lite.engines))
    if tier is None:
        return
    calls, durations, gpu_call = [], [], tier.gpu_call.call

    def counted(job):
        calls.append(job)
        durations.append(gpu_duration(job))
        return gpu_call(job)

    tier.gpu_call.call = counted
    runner = TurnRunner(tier, AvatarStore(), example_pool(), transcriber(), lite)
    turn = ResponseRequest(video_path=str(video), settings=GenerationSettings(video_steps=2, seed=0))
    reply = smoke.step("whole full-tier turn (video + its audio, text transcribed)",
                       lambda: runner.run(turn, workdir / "turn"))
    if reply is not None:
        print(f"  GPU calls: {len(calls)}; duration asked: {durations}; engines: {reply.engines}")
        print("  seconds: " + ", ".join(f"{k} {v:.2f}" for k, v in reply.seconds.items()))
        for notice in reply.notices:
            print(f"  notice: {notice}")
        if len(calls) != 1 or not reply.done:
            smoke.failed = True
            print("[FAILED] the turn did not make exactly one GPU call and finish", flush=True)


def joyful():
    """An EmotionResult to write a reply for."""
    from e3rg_core.contracts import Vote
    from e3rg_core.understanding.voting import decide
    return decide([Vote("smoke", "text", "joyful", None)], {})


def main() -> int:
    # The script builds its own tiny engines; importing tiers.full must not load the real ones from the hub.
    os.environ[TIER_VARIABLE] = "lite"
    device = "cuda" if torch.cuda.is_available() else "cpu"
    if device == "cuda":
        print(f"CUDA: {torch.cuda.get_device_name(0)}, torch {torch.__version__}")
    else:
        print("No CUDA device here: running the tiny models on the CPU instead (4-bit through bitsandbytes' CPU "
              "kernels). This checks the code paths, not CUDA.")
    from e3rg_core.tiers.full import FullEngines
    from e3rg_core.generation.openvoice import OpenVoiceSpeechEngine
    from e3rg_core.understanding.ola.engine import OlaEmotionVoter, OlaReplyWriter, OlaRuntime
    from e3rg_core.understanding.qwen_omni_voter import QwenOmniVoter
    smoke = Smoke(device)
    request = sample_request()
    with tempfile.TemporaryDirectory(prefix="e3rg-gpu-smoke-") as temp:
        root = Path(temp)
        for name in ("omni", "ola", "hub"):
            (root / name).mkdir()
        omni_dir = write_tiny_omni(root / "omni")
        ola_files = write_tiny_ola(root / "ola")
        hub = write_tiny_openvoice(root / "hub")
        engines = {}
        for quantize in (False, True):
            label = "4-bit NF4" if quantize else "bf16"
            qwen = smoke.step(f"Qwen2.5-Omni thinker load ({label})", lambda: QwenOmniVoter.from_pretrained(
                omni_dir, device=device, quantize=quantize))
            if qwen is not None:
                smoke.step(f"Qwen2.5-Omni vote ({label})", lambda: print("  ", qwen.vote(request)))
            ola = smoke.step(f"Ola-Omni load ({label})", lambda: OlaRuntime.from_pretrained(
                ola_files, device=device, quantize=quantize))
            if ola is not None:
                smoke.step(f"Ola-Omni vote ({label})", lambda: print("  ", OlaEmotionVoter(ola).vote(request)))
                smoke.step(f"Ola-Omni reply ({label})", lambda: print("  ", repr("".join(OlaReplyWriter(ola).write(
                    request, joyful(), 24)))))
            engines.update(qwen=qwen, ola=ola)
        speech = smoke.step("OpenVoice load", lambda: OpenVoiceSpeechEngine.from_pretrained(
            device=device, converter_version="v1", weights_dir=hub))
        video = smoke.step("DICE-Talk build", lambda: tiny_dicetalk(device))
        if all(engine is not None for engine in (engines["ola"], engines["qwen"], speech, video)):
            whole_turn(smoke, FullEngines(device, engines["ola"], engines["qwen"], speech, video), root)
        else:
            smoke.failed = True
            print("[FAILED] the whole turn needs every engine")
    print("\nstep".ljust(64) + "seconds  result")
    for name, seconds, result in smoke.rows:
        print(f"{name:<63} {seconds:7.2f}  {result}")
    return 1 if smoke.failed else 0


if __name__ == "__main__":
    sys.exit(main())
