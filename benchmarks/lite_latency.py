"""Per-stage and end-to-end CPU time of the lite tier, and peak memory, for text, audio and video turns.

    .venv/bin/python benchmarks/lite_latency.py [--repeats 2] [--out benchmarks/results/lite_latency.json]

Targets (2 cores): a whole ~5 s reply in <= 15 s, peak RSS <= 4 GiB.
"""
from __future__ import annotations

import argparse
import json
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

STAGES = ("transcript", "emotion", "text", "memory", "speech", "video")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "lite_latency.json")
    args = parser.parse_args()

    from e3rg_core.pipeline import ResponseRequest
    from e3rg_core.tiers import lite_pipeline

    started = time.perf_counter()
    pipeline = lite_pipeline()
    load_seconds = time.perf_counter() - started
    examples = ROOT / "examples"
    turns = {"text": ResponseRequest(text="I just lost my job and I don't know how to tell my family."),
             "audio": ResponseRequest(audio_path=str(examples / "turn_audio.wav")),
             "video": ResponseRequest(video_path=str(examples / "turn_video.mp4"))}
    rows = []
    for name, request in turns.items():
        for repeat in range(args.repeats):
            with tempfile.TemporaryDirectory() as folder:
                started = time.perf_counter()
                reply = pipeline.run(request, Path(folder))
                total = time.perf_counter() - started
                import soundfile
                speech = soundfile.info(str(reply.wav_path)).duration
            rows.append({"turn": name, "repeat": repeat, "speech_s": round(speech, 2), "total_s": round(total, 2),
                         **{stage: round(reply.seconds.get(stage, 0.0), 3) for stage in STAGES}})
    peak_self = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
    peak_children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 2**20
    header = ["turn", "speech_s", *STAGES, "total_s"]
    print(f"engines loaded in {load_seconds:.1f} s")
    print(" | ".join(f"{h:>10}" for h in header))
    for row in rows:
        print(" | ".join(f"{row[h]:>10}" for h in header))
    per_speech_second = max(r["total_s"] / r["speech_s"] for r in rows)
    print(f"worst total per second of reply speech: {per_speech_second:.2f} s "
          f"(a 5 s reply: {5 * per_speech_second:.1f} s; target <= 15 s)")
    print(f"peak RSS: {peak_self:.2f} GiB (largest child process {peak_children:.2f} GiB; target <= 4 GiB)")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"load_s": load_seconds, "rows": rows, "peak_rss_gib": peak_self,
                                    "peak_child_rss_gib": peak_children,
                                    "five_second_reply_s": 5 * per_speech_second}, indent=2))


if __name__ == "__main__":
    main()
