"""DICE-Talk speed: the tiny random-weight pipeline on CPU, and the official-size UNet per 25-frame window on CUDA.

    python benchmarks/dicetalk_speed.py [--seconds 2] [--steps 2] [--repeats 3] [--threads N] [--out PATH]

CPU row: the whole tiny pipeline (whisper windows, sampler, VAE, RIFE) for a clip of --seconds speech at
64x64, --steps steps; it times the machinery, not the real models. CUDA row (skipped without CUDA): one
UNet call of the official SVD-xt-size DICE-Talk UNet (random weights, fp16) on the three-way guidance batch of
one 25-frame window at 512x512 (latents 64x64) with both adapter streams and the face mask, i.e. the unit that
cost.estimate_gpu_seconds counts. Prints a table and writes JSON.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

import numpy as np
import torch

from e3rg_core.generation.dicetalk.cost import UNET_SECONDS_PER_CALL, unet_calls
from e3rg_core.generation.dicetalk.pipeline import output_frame_count
from e3rg_core.generation.dicetalk.sampler import (ADAPTER_SCALES, EXPRESSION_BUCKET_ID, FPS,
                                                   MOTION_BUCKET_ID, WINDOW_FRAMES, SamplerSettings)
from e3rg_core.generation.dicetalk.speech_features import SAMPLE_RATE
from e3rg_core.generation.dicetalk.tiny import TINY_SHORT_SIDE, tiny_pipeline
from e3rg_core.generation.dicetalk.unet import AdapterContext, DiceTalkUNet

DEFAULT_OUT = Path(__file__).resolve().parent / "results" / "dicetalk_speed.json"
OFFICIAL_SIDE = 512
ADAPTER_TOKENS = 32


def timed(action, repeats: int, synchronize=lambda: None) -> float:
    """Median wall time of repeats runs after one warm-up run."""
    action()
    synchronize()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        action()
        synchronize()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def tiny_cpu_row(seconds: float, steps: int, repeats: int) -> dict:
    from skimage import data
    pipeline = tiny_pipeline(seed=0)
    portrait = data.astronaut()
    samples = (0.1 * np.random.default_rng(0).standard_normal(int(seconds * SAMPLE_RATE))).astype(np.float32)
    prior = np.ones(256, np.float32)

    def render() -> None:
        frames = list(pipeline.render_frames(portrait, samples, prior, SamplerSettings(steps=steps), seed=0,
                                             short_side=TINY_SHORT_SIDE))
        assert len(frames) == output_frame_count(len(samples))

    total = timed(render, repeats)
    return {"case": "tiny pipeline, random weights", "device": "cpu", "dtype": "float32",
            "size": f"{TINY_SHORT_SIDE}x{TINY_SHORT_SIDE}", "speech_seconds": seconds, "steps": steps,
            "unet_calls": unet_calls(seconds, steps), "seconds": total,
            "seconds_per_speech_second": total / seconds}


def official_unet_cuda_row(repeats: int) -> dict:
    device, dtype = torch.device("cuda"), torch.float16
    with torch.device("meta"):
        unet = DiceTalkUNet()       # the class defaults are SVD-xt's UNet configuration
    unet = unet.to_empty(device=device).to(dtype).eval()
    generator = torch.Generator(device).manual_seed(0)
    with torch.no_grad():
        for parameter in unet.parameters():
            parameter.normal_(0.0, 0.02, generator=generator)
    parameters = sum(parameter.numel() for parameter in unet.parameters())
    latent = OFFICIAL_SIDE // 8
    rows = 3 * WINDOW_FRAMES
    width = unet.config.cross_attention_dim

    def randn(*shape):
        return torch.randn(*shape, device=device, dtype=dtype, generator=generator)

    sample = randn(3, WINDOW_FRAMES, 8, latent, latent)
    context = AdapterContext(randn(rows, 1, width), (randn(rows, ADAPTER_TOKENS, width),
                                                     randn(rows, ADAPTER_TOKENS, width)), ADAPTER_SCALES,
                             torch.ones(1, 1, OFFICIAL_SIDE, OFFICIAL_SIDE, device=device, dtype=dtype))
    time_ids = torch.tensor([[FPS, MOTION_BUCKET_ID, EXPRESSION_BUCKET_ID]] * 3, device=device, dtype=dtype)
    pose = randn(unet.config.block_out_channels[0], latent, latent)
    timestep = torch.tensor(1.6378, device=device)

    def call() -> None:
        with torch.inference_mode():
            unet(sample, timestep, context, time_ids, pose)

    torch.cuda.reset_peak_memory_stats(device)
    seconds = timed(call, repeats, torch.cuda.synchronize)
    return {"case": "official-size UNet, one 25-frame window x 3 branches, random weights",
            "device": torch.cuda.get_device_name(device), "dtype": "float16",
            "size": f"{OFFICIAL_SIDE}x{OFFICIAL_SIDE}", "parameters": parameters, "seconds": seconds,
            "peak_memory_gib": torch.cuda.max_memory_allocated(device) / 2 ** 30,
            "estimate_seconds_per_call": UNET_SECONDS_PER_CALL}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="speech length of the tiny CPU run")
    parser.add_argument("--steps", type=int, default=2, help="denoising steps of the tiny CPU run")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs per measurement (after a warm-up)")
    parser.add_argument("--threads", type=int, default=torch.get_num_threads(), help="torch CPU threads")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="where to write the JSON results")
    args = parser.parse_args(argv)

    torch.set_num_threads(args.threads)

    rows, skipped = [tiny_cpu_row(args.seconds, args.steps, args.repeats)], []
    if torch.cuda.is_available():
        rows.append(official_unet_cuda_row(args.repeats))
    else:
        skipped.append("official-size UNet per window on CUDA: no CUDA device")

    print(f"DICE-Talk speed, median of {args.repeats} after a warm-up")
    print(f"{'case':<70} | {'device':<24} | {'size':>9} | {'seconds':>8}")
    for row in rows:
        print(f"{row['case']:<70} | {row['device']:<24} | {row['size']:>9} | {row['seconds']:8.3f}")
    for reason in skipped:
        print(f"skipped: {reason}")
    if len(rows) > 1:
        print(f"cost model assumes {UNET_SECONDS_PER_CALL:.2f} s per window call; measured {rows[1]['seconds']:.3f} s")

    result = {"benchmark": "dicetalk speed", "repeats": args.repeats, "cpu_count": os.cpu_count(),
              "threads": torch.get_num_threads(), "platform": platform.platform(), "torch": torch.__version__,
              "rows": rows, "skipped": skipped}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
