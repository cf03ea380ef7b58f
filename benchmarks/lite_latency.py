"""Lite tier latency on the CPU: the warm text-only turn (the one every visitor gets), the cold command line,
per-stage times for text, audio and video turns, and peak memory.

    .venv/bin/python benchmarks/lite_latency.py [--repeats 2] [--seed N] [--out benchmarks/results/lite_latency.json]

Targets (2 cores, speech and video included): a warm text-only turn through the app's /respond, as an API caller
sends it, median <= 2.0 s; the reply text shown in the chat (the runner's stream, as the UI gets it) <= 1.5 s,
before speech and video are made; 8 turns sent to /respond at once all done <= 10 s; the app's peak memory
<= 2 GiB; the cold command line <= 12 s; a whole ~5 s reply <= 15 s. Every turn's text is new: made up for this
run from a seeded draw (the seed is printed), so no cache of an earlier run can answer it. How many replies came
from the writer's fallback (reflective listening) rather than the topic writer is counted. The
machine's load average is printed with the figures: on a shared machine every stage runs slower.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

STAGES = ("transcript", "emotion", "text", "memory", "speech", "video", "self-check")
WARM_API_TARGET_S = 2.0
TEXT_SHOWN_TARGET_S = 1.5
CONCURRENT_TURNS = 8
CONCURRENT_TARGET_S = 10.0
PEAK_MEMORY_TARGET_GIB = 2.0
COLD_CLI_TARGET_S = 12.0
# Parts of new text turns, one kind of news each (a loss, good news, a grievance, a worry, a memory, small talk).
WHO = ("my sister", "my neighbour", "my best friend", "my uncle", "my coworker", "my son", "my grandmother",
       "my landlord", "our dog", "my cousin", "my roommate", "my teacher")
NEWS = ("passed away {when}", "won a {thing} {when}", "forgot my {thing} {when}",
        "has been in the hospital since {when}",
        "gave me an old {thing} {when}", "broke my {thing} {when}", "surprised me with a {thing} {when}",
        "took my {thing} without asking {when}", "finally fixed the {thing} {when}", "moved away {when}")
THINGS = ("bike", "guitar", "camera", "birthday", "lamp", "painting", "watch", "scarf", "ticket", "record player",
          "kettle", "tent", "piano", "phone", "quilt", "trophy")
WHEN = ("yesterday", "last night", "this morning", "on Sunday", "last week", "two days ago", "after lunch",
        "on my birthday", "last month", "this weekend")
TAILS = ("", " I don't know what to think.", " I keep going over it.", " I didn't see it coming.",
         " I'm still thinking about it.", " It's been on my mind all day.")


def fresh_texts(count: int, rng: random.Random) -> list[str]:
    """`count` different text turns never sent before (the draw's seed changes every run unless it is given)."""
    texts: set[str] = set()
    while len(texts) < count:
        news = rng.choice(NEWS).format(thing=rng.choice(THINGS), when=rng.choice(WHEN))
        texts.add(f"{rng.choice(WHO).capitalize()} {news}.{rng.choice(TAILS)}")
    return sorted(texts, key=lambda _: rng.random())


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
    return {"text": request.text, "text_shown_s": round(text_s, 2), "text_before_speech": not spoken,
            "total_s": round(total, 2),
            "speech_s": round(speech, 2), "words": len(reply.text.split()), "reply": reply.text,
            **{stage: round(reply.seconds.get(stage, 0.0), 3) for stage in STAGES}}


def api_turns(texts: list[str], concurrent: list[str]) -> tuple[list[float], float, float]:
    """Warm text-only turns as an API caller sends them: `python app.py` on the lite tier, offline, on localhost,
    each turn one gradio_client call to /respond (upload, queue, every stage and the reply's downloads included),
    one after another; then `concurrent` turns sent at once, each from its own client. Returns each sequential
    turn's seconds, the seconds until every concurrent turn was done, and the app's peak memory (GiB)."""
    from gradio_client import Client

    from e3rg_dev.hub_rehearsal.app_run import RunningApp
    from e3rg_core.settings import TIER_VARIABLE
    environment = {**os.environ, TIER_VARIABLE: "lite", "HF_HUB_OFFLINE": "1", "GRADIO_ANALYTICS_ENABLED": "False"}
    with tempfile.TemporaryDirectory() as folder, RunningApp.start(environment, Path(folder) / "app.log") as app:
        def send(text: str) -> float:
            client = Client(app.url, verbose=False, download_files=folder)
            started = time.perf_counter()
            client.predict(text=text, api_name="/respond")
            seconds = time.perf_counter() - started
            client.close()
            return seconds

        send("Warming up: the first turn loads the engines.")
        seconds = [round(send(text), 2) for text in texts]
        started = time.perf_counter()
        with ThreadPoolExecutor(len(concurrent)) as pool:
            list(pool.map(send, concurrent))
        all_done = time.perf_counter() - started
        peak = app_peak_gib(app.process.pid)
    return seconds, all_done, peak


def app_peak_gib(pid: int) -> float:
    """The process's peak resident memory so far (VmHWM), in GiB."""
    status = Path(f"/proc/{pid}/status").read_text()
    kib = next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmHWM:"))
    return kib / 2**20


def fallback_count(runner, texts: list[str]) -> int:
    """How many of the texts the writer answers from its fallback (reflective listening), not the topic writer."""
    from e3rg_core.contracts import UnderstandingRequest, Utterance
    from e3rg_core.runner import cast_votes, tally
    engines, count = runner.tier.engines, 0
    for text in texts:
        request = UnderstandingRequest(history=(Utterance(0, "speaker", text),))
        count += not engines.writer.reply(request, tally(cast_votes(engines.voters, request, [])))[1]
    return count


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
    parser.add_argument("--seed", type=int, default=None, help="the texts' draw (default: new every run)")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "lite_latency.json")
    args = parser.parse_args()
    load_before = os.getloadavg()[0]
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "little")
    rng = random.Random(seed)
    per_pass = 5
    texts = fresh_texts(2 + 2 * per_pass * args.repeats + CONCURRENT_TURNS, rng)
    cold_text, warm_up, texts = texts[0], texts[1], texts[2:]
    warm_texts, api_texts = texts[:per_pass * args.repeats], texts[per_pass * args.repeats:2 * per_pass * args.repeats]
    concurrent_texts = texts[2 * per_pass * args.repeats:]

    cold_cli = cold_cli_seconds(cold_text)

    from e3rg_core.runner import ResponseRequest
    from e3rg_core.tiers import lite_runner

    started = time.perf_counter()
    runner = lite_runner()
    load_seconds = time.perf_counter() - started
    timed_turn(runner, ResponseRequest(text=warm_up))       # the first turn pays for lazy set-up
    warm = [{"turn": "text", **timed_turn(runner, ResponseRequest(text=text))} for text in warm_texts]
    examples = ROOT / "examples"
    media = [{"turn": name, **timed_turn(runner, request)}
             for name, request in (("audio", ResponseRequest(audio_path=str(examples / "turn_audio.wav"))),
                                   ("video", ResponseRequest(video_path=str(examples / "turn_video.mp4"))))
             for _ in range(args.repeats)]
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

    fallbacks = fallback_count(runner, [*warm_texts, *api_texts, *concurrent_texts])
    api_seconds, concurrent_s, app_peak = api_turns(api_texts, concurrent_texts)
    warm_totals = [r["total_s"] for r in warm]
    summary = {"seed": seed, "load_average_at_start": round(load_before, 2),
               "load_average_at_end": round(os.getloadavg()[0], 2),
               "cold_cli_s": round(cold_cli, 2), "engines_load_s": round(load_seconds, 2),
               "warm_text_median_s": statistics.median(warm_totals), "warm_text_max_s": max(warm_totals),
               "warm_api_respond_median_s": statistics.median(api_seconds), "warm_api_respond_max_s": max(api_seconds),
               "warm_text_shown_median_s": statistics.median(r["text_shown_s"] for r in warm),
               "warm_text_writer_median_s": statistics.median(r["text"] for r in warm),
               "text_before_speech": all(r["text_before_speech"] for r in rows),
               "concurrent_turns": CONCURRENT_TURNS, "concurrent_all_done_s": round(concurrent_s, 2),
               "app_peak_rss_gib": round(app_peak, 2), "fallback_replies": fallbacks,
               "replies_counted_for_fallback": len(warm_texts) + len(api_texts) + len(concurrent_texts),
               "peak_rss_gib": round(peak_self, 2), "peak_child_rss_gib": round(peak_children, 2)}
    header = ["turn", "speech_s", *STAGES, "text_shown_s", "total_s"]
    print(f"texts drawn with seed {seed}; load average {load_before:.2f} at start; engines loaded in "
          f"{load_seconds:.1f} s")
    print(" | ".join(f"{h:>12}" for h in header))
    for row in rows:
        print(" | ".join(f"{row[h]!s:>12}" for h in header))
    print(f"warm text-only turn through the runner: median {summary['warm_text_median_s']:.2f} s, max "
          f"{max(warm_totals):.2f} s; reply text shown after {summary['warm_text_shown_median_s']:.2f} s (median, "
          f"target <= {TEXT_SHOWN_TARGET_S} s), before speech and video: {summary['text_before_speech']}")
    print(f"warm text-only turn through the app's /respond (gradio_client): median "
          f"{summary['warm_api_respond_median_s']:.2f} s, max {max(api_seconds):.2f} s "
          f"(target <= {WARM_API_TARGET_S} s)")
    print(f"{CONCURRENT_TURNS} turns sent to /respond at once: all done after {concurrent_s:.2f} s "
          f"(target <= {CONCURRENT_TARGET_S} s); the app's peak memory {app_peak:.2f} GiB "
          f"(target <= {PEAK_MEMORY_TARGET_GIB} GiB)")
    print(f"replies from the writer's fallback: {fallbacks} of {summary['replies_counted_for_fallback']}")
    print(f"cold command line: {cold_cli:.1f} s (target <= {COLD_CLI_TARGET_S} s)")
    print(f"a {speech.seconds:.1f} s reply: slowest understanding+writing {understanding:.2f} s + speech "
          f"{speech_seconds:.2f} s + video {video_seconds:.2f} s = {five_second_reply:.2f} s (target <= 15 s)")
    print(f"peak RSS of this process (runner in-process): {peak_self:.2f} GiB (largest child process "
          f"{peak_children:.2f} GiB)")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"summary": summary, "rows": rows, "api_respond_s": api_seconds,
                                    "five_second_reply": {"speech_s": speech.seconds, "understanding_s": understanding,
                                                          "speech_synthesis_s": speech_seconds,
                                                          "video_render_s": video_seconds,
                                                          "total_s": five_second_reply}}, indent=2))


if __name__ == "__main__":
    main()
