"""Lite tier latency on the CPU: the warm text-only turn (the one every visitor gets), the cold command line,
per-stage times for text, audio and video turns, and peak memory.

    .venv/bin/python benchmarks/lite_latency.py [--repeats 2] [--out benchmarks/results/lite_latency.json]

Targets (2 cores, speech and video included): a warm text-only turn <= 2.5 s, through the runner and through the
app's /respond as an API caller sends it, its reply text shown before speech and video are made; the cold command
line <= 12 s; a whole ~5 s reply <= 15 s; peak RSS <= 4 GiB. The machine's load average is printed with the
figures: on a shared machine every stage runs slower.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

STAGES = ("transcript", "emotion", "text", "memory", "speech", "video", "self-check")
WARM_TEXT_TARGET_S = 2.5
COLD_CLI_TARGET_S = 12.0
# Text turns written for this benchmark, one per broad stance; the first also warms the engines.
TEXT_TURNS = (
    "I just lost my job and I don't know how to tell my family.",
    "We finally got tickets to the concert I have wanted to see for years!",
    "Someone scratched my car in the parking lot and drove away.",
    "I have a job interview tomorrow morning and I can't sleep.",
    "My grandmother's old recipe book turned up in a box today.",
)


def timed_turn(runner, request) -> dict:
    """One turn through the runner as the app streams it: seconds until the reply text is complete (before
    speech and video), until the whole turn is done, and each stage's own time."""
    from e3rg_core.runner import Stage
    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        text_s = None
        for reply in runner.respond(request, Path(folder)):
            if text_s is None and Stage.TEXT in reply.finished:
                text_s = time.perf_counter() - started
                spoken = Stage.SPEECH in reply.finished
        total = time.perf_counter() - started
        import soundfile
        speech = soundfile.info(str(reply.wav_path)).duration
    return {"text_shown_s": round(text_s, 2), "text_before_speech": not spoken, "total_s": round(total, 2),
            "speech_s": round(speech, 2), "words": len(reply.text.split()), "reply": reply.text,
            **{stage: round(reply.seconds.get(stage, 0.0), 3) for stage in STAGES}}


def api_turn_seconds(texts: tuple[str, ...], repeats: int) -> list[float]:
    """Warm text-only turns as an API caller sends them: `python app.py` on the lite tier, offline, on localhost,
    each turn one gradio_client call to /respond (upload, queue, every stage and the reply's downloads included)."""
    from gradio_client import Client

    from e3rg_dev.hub_rehearsal.app_run import RunningApp
    from e3rg_core.settings import TIER_VARIABLE
    environment = {**os.environ, TIER_VARIABLE: "lite", "HF_HUB_OFFLINE": "1", "GRADIO_ANALYTICS_ENABLED": "False"}
    with tempfile.TemporaryDirectory() as folder, RunningApp.start(environment, Path(folder) / "app.log") as app:
        client = Client(app.url, verbose=False, download_files=folder)
        client.predict(text=texts[0], api_name="/respond")    # loads the engines
        seconds = []
        for _ in range(repeats):
            for text in texts:
                started = time.perf_counter()
                client.predict(text=text, api_name="/respond")
                seconds.append(round(time.perf_counter() - started, 2))
        client.close()
    return seconds


def cold_cli_seconds(text: str) -> float:
    """Wall time of `python -m e3rg_core.respond --text ...` in a fresh process (models loaded from disk)."""
    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        subprocess.run([sys.executable, "-m", "e3rg_core.respond", "--text", text, "--out", folder],
                       cwd=ROOT, check=True, capture_output=True)
        return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "lite_latency.json")
    args = parser.parse_args()
    load_before = os.getloadavg()[0]

    cold_cli = cold_cli_seconds(TEXT_TURNS[0])

    from e3rg_core.runner import ResponseRequest
    from e3rg_core.tiers import lite_runner

    started = time.perf_counter()
    runner = lite_runner()
    load_seconds = time.perf_counter() - started
    timed_turn(runner, ResponseRequest(text=TEXT_TURNS[0]))       # the first turn pays for lazy set-up
    warm = [{"turn": "text", "repeat": repeat, **timed_turn(runner, ResponseRequest(text=text))}
            for repeat in range(args.repeats) for text in TEXT_TURNS]
    examples = ROOT / "examples"
    media = [{"turn": name, "repeat": repeat, **timed_turn(runner, request)}
             for name, request in (("audio", ResponseRequest(audio_path=str(examples / "turn_audio.wav"))),
                                   ("video", ResponseRequest(video_path=str(examples / "turn_video.mp4"))))
             for repeat in range(args.repeats)]
    rows = warm + media

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

    api_seconds = api_turn_seconds(TEXT_TURNS, args.repeats)
    warm_totals = [r["total_s"] for r in warm]
    summary = {"load_average_at_start": round(load_before, 2), "load_average_at_end": round(os.getloadavg()[0], 2),
               "cold_cli_s": round(cold_cli, 2), "engines_load_s": round(load_seconds, 2),
               "warm_text_median_s": statistics.median(warm_totals), "warm_text_max_s": max(warm_totals),
               "warm_api_respond_median_s": statistics.median(api_seconds), "warm_api_respond_max_s": max(api_seconds),
               "warm_text_shown_median_s": statistics.median(r["text_shown_s"] for r in warm),
               "warm_text_writer_median_s": statistics.median(r["text"] for r in warm),
               "text_before_speech": all(r["text_before_speech"] for r in rows),
               "peak_rss_gib": round(peak_self, 2), "peak_child_rss_gib": round(peak_children, 2)}
    header = ["turn", "speech_s", *STAGES, "text_shown_s", "total_s"]
    print(f"load average {load_before:.2f} at start; engines loaded in {load_seconds:.1f} s")
    print(" | ".join(f"{h:>12}" for h in header))
    for row in rows:
        print(" | ".join(f"{row[h]!s:>12}" for h in header))
    print(f"warm text-only turn: median {summary['warm_text_median_s']:.2f} s, max {max(warm_totals):.2f} s "
          f"(target <= {WARM_TEXT_TARGET_S} s); reply text shown after {summary['warm_text_shown_median_s']:.2f} s "
          f"(median), before speech and video: {summary['text_before_speech']}")
    print(f"warm text-only turn through the app's /respond (gradio_client): median "
          f"{summary['warm_api_respond_median_s']:.2f} s, max {max(api_seconds):.2f} s (target <= {WARM_TEXT_TARGET_S} s)")
    print(f"cold command line: {cold_cli:.1f} s (target <= {COLD_CLI_TARGET_S} s)")
    print(f"a {speech.seconds:.1f} s reply: slowest understanding+writing {understanding:.2f} s + speech "
          f"{speech_seconds:.2f} s + video {video_seconds:.2f} s = {five_second_reply:.2f} s (target <= 15 s)")
    print(f"peak RSS: {peak_self:.2f} GiB (largest child process {peak_children:.2f} GiB; target <= 4 GiB)")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"summary": summary, "rows": rows, "api_respond_s": api_seconds,
                                    "five_second_reply": {"speech_s": speech.seconds, "understanding_s": understanding,
                                                          "speech_synthesis_s": speech_seconds,
                                                          "video_render_s": video_seconds,
                                                          "total_s": five_second_reply}}, indent=2))


if __name__ == "__main__":
    main()
