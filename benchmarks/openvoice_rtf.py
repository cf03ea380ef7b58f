"""CPU real-time factor of the OpenVoice tone colour converter at the official (V2) size, random weights.

    python benchmarks/openvoice_rtf.py [--seconds 2 5] [--repeats 2] [--threads N] [--out PATH]

For each clip length it times convert() (spectrogram -> posterior -> flows -> HiFi-GAN) with weight norm
folded, as the engine runs it, and once with weight norm still applied, plus extract_se(). RTF = compute
seconds / audio seconds (below 1 is faster than real time). Prints a table and writes JSON.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import time
from functools import partial
from pathlib import Path

import numpy as np
import torch

from e3rg_core.generation.openvoice.config import ConverterConfig
from e3rg_core.generation.openvoice.converter import ToneColorConverter, ToneColorConverterNet
from e3rg_core.generation.openvoice.modules import fold_weight_norm

DEFAULT_OUT = Path(__file__).resolve().parent / "results" / "openvoice_rtf.json"
# The published myshell-ai/OpenVoiceV2 converter/config.json (the fields that shape the network).
OFFICIAL_V2_CONFIG = {
    "_version_": "v2",
    "data": {"sampling_rate": 22050, "filter_length": 1024, "hop_length": 256, "win_length": 1024, "n_speakers": 0},
    "model": {"zero_g": True, "inter_channels": 192, "hidden_channels": 192, "resblock": "1",
              "resblock_kernel_sizes": [3, 7, 11], "resblock_dilation_sizes": [[1, 3, 5]] * 3,
              "upsample_rates": [8, 8, 2, 2], "upsample_initial_channel": 512,
              "upsample_kernel_sizes": [16, 16, 4, 4], "gin_channels": 256},
}


def speech_like(seconds: float, sample_rate: int, seed: int) -> np.ndarray:
    """A gliding harmonic tone with a syllable envelope and a little noise (content does not change cost)."""
    rng = np.random.default_rng(seed)
    t = np.arange(int(seconds * sample_rate)) / sample_rate
    phase = 2 * np.pi * np.cumsum(150 * (1 + 0.2 * np.sin(2 * np.pi * 0.5 * t))) / sample_rate
    tone = sum(np.sin(k * phase) / k for k in range(1, 8)) * (0.3 + 0.7 * np.abs(np.sin(2 * np.pi * 2.5 * t)))
    return (0.2 * tone + 0.01 * rng.standard_normal(len(t))).astype(np.float32)


def timed(action, repeats: int) -> float:
    """Median wall time of repeats runs after one warm-up run."""
    action()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, nargs="+", default=[2.0, 5.0], help="clip lengths to time")
    parser.add_argument("--repeats", type=int, default=2, help="timed runs per measurement (after a warm-up)")
    parser.add_argument("--threads", type=int, default=torch.get_num_threads(), help="torch CPU threads")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="where to write the JSON results")
    args = parser.parse_args(argv)

    torch.set_num_threads(args.threads)
    torch.manual_seed(0)
    config = ConverterConfig.from_dict(OFFICIAL_V2_CONFIG, "official V2 converter config")
    unfolded = ToneColorConverter(ToneColorConverterNet(config), config, "cpu")
    folded_net = ToneColorConverterNet(config)
    folded_net.load_state_dict(unfolded.net.state_dict())
    folded = ToneColorConverter(fold_weight_norm(folded_net), config, "cpu")
    parameters = sum(p.numel() for p in unfolded.net.parameters())

    rate = config.audio.sampling_rate
    rows = []
    for seconds in args.seconds:
        audio = speech_like(seconds, rate, seed=int(seconds * 1000))
        source, target = torch.randn(1, config.gin_channels, 1), torch.randn(1, config.gin_channels, 1)
        row = {"audio_seconds": seconds}
        for label, converter in (("convert_folded", folded), ("convert_weight_norm", unfolded)):
            row[f"{label}_s"] = timed(partial(converter.convert, audio, source, target, tau=0.3, seed=0),
                                      args.repeats)
            row[f"{label}_rtf"] = row[f"{label}_s"] / seconds
        row["extract_se_s"] = timed(partial(folded.extract_se, [audio]), args.repeats)
        row["extract_se_rtf"] = row["extract_se_s"] / seconds
        rows.append(row)

    print(f"OpenVoice converter, official V2 size ({parameters:,} parameters, random weights), "
          f"CPU, {args.threads} thread(s), median of {args.repeats}")
    print(f"{'audio s':>8} | {'convert s':>9} {'RTF':>6} | {'with WN s':>9} {'RTF':>6} | "
          f"{'extract_se s':>12} {'RTF':>6}")
    for row in rows:
        print(f"{row['audio_seconds']:8.1f} | {row['convert_folded_s']:9.2f} {row['convert_folded_rtf']:6.2f} | "
              f"{row['convert_weight_norm_s']:9.2f} {row['convert_weight_norm_rtf']:6.2f} | "
              f"{row['extract_se_s']:12.2f} {row['extract_se_rtf']:6.2f}")

    result = {
        "benchmark": "openvoice converter CPU real-time factor",
        "config": "myshell-ai/OpenVoiceV2 converter/config.json (published values), random weights",
        "parameters": parameters,
        "threads": args.threads,
        "repeats": args.repeats,
        "cpu_count": os.cpu_count(),
        "platform": platform.platform(),
        "processor": platform.processor(),
        "torch": torch.__version__,
        "rows": rows,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
