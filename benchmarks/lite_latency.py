"""Per-stage and end-to-end CPU time of the lite tier, and peak memory, for text, audio and video turns.

    .venv/bin/python benchmarks/lite_latency.py [--repeats 2] [--out benchmarks/results/lite_latency.json]

Targets (2 cores): a whole ~5 s reply in <= 15 s, peak RSS <= 4 GiB.
"""
from __future__ import annotations

import argparse
import json
import resource
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

STAGES = ("transcript", "emotion", "text", "memory", "speech", "video")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "lite_latency.json")
    args = parser.parse_args()

    from e3rg_core.runner import ResponseRequest
    from e3rg_core.tiers import lite_runner

    started = time.perf_counter()
    runner = lite_runner()
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
                reply = runner.run(request, Path(folder))
                total = time.perf_counter() - started
                import soundfile
                speech = soundfile.info(str(reply.wav_path)).duration
            rows.append({"turn": name, "repeat": repeat, "speech_s": round(speech, 2), "total_s": round(total, 2),
                         **{stage: round(reply.seconds.get(stage, 0.0), 3) for stage in STAGES}})
    # Generation scales with the length of the reply; time it for a fixed reply of about five seconds.
    from e3rg_core.contracts import GenerationSettings
    from e3rg_core.media import render_video
    engines, avatar = runner.tier.engines, runner.avatars.get("")
    five_seconds = "I'm so sorry to hear that. I'm right here, and we can talk whenever you like."
    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        speech = engines.speech.synthesize(five_seconds, "sad", avatar, GenerationSettings())
        speech_seconds = time.perf_counter() - started
        started = time.perf_counter()
        render_video(engines.video, avatar.portrait(), speech, "sad", GenerationSettings(), Path(folder) / "five.mp4")
        video_seconds = time.perf_counter() - started
    understanding = max(r["transcript"] + r["emotion"] + r["text"] for r in rows)
    five_second_reply = understanding + speech_seconds + video_seconds
    peak_self = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
    peak_children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 2**20
    header = ["turn", "speech_s", *STAGES, "total_s"]
    print(f"engines loaded in {load_seconds:.1f} s")
    print(" | ".join(f"{h:>10}" for h in header))
    for row in rows:
        print(" | ".join(f"{row[h]:>10}" for h in header))
    print(f"a {speech.seconds:.1f} s reply: slowest understanding+writing {understanding:.2f} s + speech "
          f"{speech_seconds:.2f} s + video {video_seconds:.2f} s = {five_second_reply:.2f} s (target <= 15 s)")
    print(f"peak RSS: {peak_self:.2f} GiB (largest child process {peak_children:.2f} GiB; target <= 4 GiB)")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"load_s": load_seconds, "rows": rows, "peak_rss_gib": peak_self,
                                    "peak_child_rss_gib": peak_children,
                                    "five_second_reply": {"speech_s": speech.seconds, "understanding_s": understanding,
                                                          "speech_synthesis_s": speech_seconds,
                                                          "video_render_s": video_seconds,
                                                          "total_s": five_second_reply}}, indent=2))


if __name__ == "__main__":
    main()
