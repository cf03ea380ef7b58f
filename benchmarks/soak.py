"""Soak: many distinct turns against one server as users get it, watching what the server keeps.

    nice -n 5 .venv/bin/python benchmarks/soak.py [--turns 1000] [--callers 3] [--out benchmarks/results/soak.json]

`python app.py` on the lite tier, offline, on localhost, its temporary folder a private one (TMPDIR) so that
what it leaves on disk can be told from the rest of the machine's. Several gradio_client callers send turns to
/respond at once: text, audio and video mixed in a fixed pattern (every 50 turns hold the same mix), each turn
distinct (its text and dialogue so far composed from parts; its audio cut and scaled from the example clip), and
every ten turns of a caller come from a new visitor (a new client: a new session on the server).
After the warm-up, every 50 turns, once they are all done, it records the resident memory of the server's process
tree, its open files, the disk used under its temporary folder and the latency of those turns; it prints a table
and writes JSON.

Targets (issue 25; 2 cores): from turn 100 to the last, resident memory grows by less than 50 MiB; the disk
under the temporary folder stays under settings.TEMP_FILES_CAP_BYTES; open files stay flat; the median latency
of the last 100 turns is within 10 % of the first 100's; no error.
"""
from __future__ import annotations

import argparse
import json
import os
import queue
import signal
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
EVERY = 50
TURNS_PER_VISITOR = 10
MEMORY_GROWTH_LIMIT_MIB = 50
LATENCY_DRIFT_LIMIT = 0.10
# Nine turns in ten carry text, audio or video in this order; a pattern of ten keeps every 50 turns' mix the same.
KINDS = ("text", "text", "audio", "text", "video", "text", "text", "audio", "text", "video")
VIDEOS = ("turn_video.mp4", "turn_video_angry.mp4", "turn_video_happy.mp4")

# Parts the turns are composed from: written for this benchmark (no dataset's sentences).
OPENINGS = ("Honestly,", "So,", "You know what,", "Guess what,", "Ugh,", "Well,", "I have to tell someone:",
            "Okay so", "This week", "Last night")
EVENTS = ("my sister {verb} the old bakery on {street} Street", "our team {verb} the regional chess final",
          "my landlord {verb} the rent again", "the vet {verb} my cat's X-ray results",
          "my neighbour {verb} the tree that shaded our garden", "my best friend {verb} her wedding plans",
          "the school {verb} my son's art project", "my manager {verb} the project I led",
          "our band {verb} the gig at the {street} pub", "my grandfather {verb} his birthday letter")
VERBS = ("talked about", "changed", "cancelled", "sent me", "showed everyone", "forgot", "praised", "lost")
STREETS = ("Maple", "Harbour", "Station", "Orchard", "Mill", "Church", "Bridge", "Elm", "Castle", "Meadow")
FEELINGS = ("and I can't stop smiling.", "and I feel completely let down.", "and I'm scared of what comes next.",
            "and I'm so angry I could scream.", "and honestly I feel a bit ashamed.", "and I'm really proud.",
            "and it makes me nervous.", "and I miss how things used to be.", "and I'm grateful beyond words.",
            "and I don't know whether to laugh or cry.")
LISTENER_LINES = ("Oh wow, how did that happen?", "That sounds like a lot to take in.", "Tell me more about it.",
                  "How are you holding up?", "That must have been a surprise.")


def turn_text(index: int) -> str:
    """A distinct sentence for each index up to 10 x 10 x 8 x 10 x 10 turns."""
    rest, opening = divmod(index, len(OPENINGS))
    rest, event = divmod(rest, len(EVENTS))
    rest, verb = divmod(rest, len(VERBS))
    rest, feeling = divmod(rest, len(FEELINGS))
    street = STREETS[rest % len(STREETS)]
    return (f"{OPENINGS[opening]} {EVENTS[event].format(verb=VERBS[verb], street=street)} "
            f"{FEELINGS[(feeling + event) % len(FEELINGS)]}")


def history_json(index: int) -> str:
    """The dialogue so far: none, or one or two exchanges composed like the turns (different for each index)."""
    exchanges = index % 3
    rows = []
    for step in range(exchanges):
        rows += [{"role": "speaker", "utterance": turn_text(index * 7 + step + 1)},
                 {"role": "listener", "utterance": LISTENER_LINES[(index + step) % len(LISTENER_LINES)]}]
    return json.dumps(rows)


def audio_variant(index: int, folder: Path) -> Path:
    """The example clip with a different start cut off and a different level for each index."""
    import soundfile
    samples, rate = soundfile.read(str(EXAMPLES / "turn_audio.wav"), dtype="float32")
    start = int(rate * 0.02 * (index % 40))
    path = folder / f"turn_{index}.wav"
    soundfile.write(str(path), samples[start:] * (0.6 + 0.4 * ((index * 37) % 100) / 100), rate)
    return path


@dataclass(frozen=True)
class Turn:
    index: int
    kind: str
    history: str
    text: str


def turns(count: int, first: int = 0) -> list[Turn]:
    return [Turn(i, KINDS[i % len(KINDS)], history_json(i), "" if KINDS[i % len(KINDS)] != "text" else turn_text(i))
            for i in range(first, first + count)]


@dataclass
class Done:
    index: int
    kind: str
    seconds: float
    error: str = ""


def send(client, turn: Turn, folder: Path) -> None:
    from gradio_client import handle_file
    audio = video = None
    if turn.kind == "audio":
        audio = handle_file(str(audio_variant(turn.index, folder)))
    elif turn.kind == "video":
        video = handle_file(str(EXAMPLES / VIDEOS[turn.index % len(VIDEOS)]))
    client.predict(turn.text, audio, video, turn.history, "", "listener" if turn.index % 4 else "mirror",
                   api_name="/respond")


def caller(url: str, work: queue.Queue, done: queue.Queue, folder: Path) -> None:
    """One API caller: turns from the shared queue until it is empty, as a new visitor (a new client, so a new
    session on the server) every TURNS_PER_VISITOR turns; its downloads deleted as it goes (they are the client's,
    not the server's)."""
    from gradio_client import Client
    folder.mkdir(parents=True, exist_ok=True)
    client, served = None, 0
    try:
        while True:
            try:
                turn = work.get_nowait()
            except queue.Empty:
                return
            if served % TURNS_PER_VISITOR == 0:
                if client is not None:
                    client.close()
                client = Client(url, verbose=False, download_files=str(folder), analytics_enabled=False)
            served += 1
            started, error = time.perf_counter(), ""
            try:
                send(client, turn, folder)
            except Exception as failure:        # recorded, and the soak goes on: every error counts against it
                error = f"{type(failure).__name__}: {failure}"[:300]
            done.put(Done(turn.index, turn.kind, time.perf_counter() - started, error))
            for item in folder.iterdir():
                _remove(item)
    finally:
        if client is not None:
            client.close()


def _remove(path: Path) -> None:
    import shutil
    if path.is_dir():
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)


def process_tree(pid: int):
    import psutil
    root = psutil.Process(pid)
    return [root, *root.children(recursive=True)]


def tree_rss_mib(pid: int) -> float:
    import psutil
    total = 0
    for process in process_tree(pid):
        try:
            total += process.memory_info().rss
        except psutil.NoSuchProcess:
            pass
    return total / 2**20


def tree_open_files(pid: int) -> int:
    import psutil
    total = 0
    for process in process_tree(pid):
        try:
            total += process.num_fds()
        except psutil.NoSuchProcess:
            pass
    return total


def tree_cpu_seconds(pid: int) -> float:
    """CPU time the server has used, its finished children (ffmpeg) included: what a turn costs it, whatever else
    the machine is doing."""
    import psutil
    root, *children = process_tree(pid)
    times = root.cpu_times()
    total = times.user + times.system + times.children_user + times.children_system
    for child in children:
        try:
            times = child.cpu_times()
            total += times.user + times.system
        except psutil.NoSuchProcess:
            pass
    return total


def disk_used(folder: Path) -> tuple[int, int]:
    """Bytes allocated under folder, and its files' count."""
    size = files = 0
    for root, _, names in os.walk(folder):
        for name in names:
            try:
                size += os.lstat(os.path.join(root, name)).st_blocks * 512
                files += 1
            except FileNotFoundError:
                pass
    return size, files


def run_turns(url: str, batch: list[Turn], callers: int, folder: Path, on_done) -> None:
    work, done = queue.Queue(), queue.Queue()
    for turn in batch:
        work.put(turn)
    threads = [threading.Thread(target=caller, args=(url, work, done, folder / f"caller{n}"), daemon=True)
               for n in range(callers)]
    for thread in threads:
        thread.start()
    for _ in batch:
        on_done(done.get())
    for thread in threads:
        thread.join()


def _mean_cpu(rows: list[dict], after: int, upto: int) -> float:
    """The server's CPU seconds a turn over the recorded windows ending after `after` and by `upto` turns."""
    picked, previous = [], 0
    for row in rows:
        if after < row["turns"] <= upto:
            picked.append((row["cpu_s_per_turn"], row["turns"] - previous))
        previous = row["turns"]
    return round(sum(cpu * count for cpu, count in picked) / max(1, sum(count for _, count in picked)), 2)


def summarise(rows: list[dict], results: list[Done], cap_bytes: int) -> dict:
    by_order = results
    first, last = by_order[:100], by_order[-100:]
    at_100 = next(row for row in rows if row["turns"] >= min(100, rows[-1]["turns"]))
    first_median = statistics.median(r.seconds for r in first)
    last_median = statistics.median(r.seconds for r in last)
    summary = {
        "turns": len(results), "errors": sum(bool(r.error) for r in results),
        "rss_at_100_mib": at_100["rss_mib"], "rss_at_end_mib": rows[-1]["rss_mib"],
        "rss_max_after_100_mib": max(row["rss_mib"] for row in rows if row["turns"] >= at_100["turns"]),
        "rss_growth_after_100_mib": round(rows[-1]["rss_mib"] - at_100["rss_mib"], 1),
        "disk_max_mib": max(row["disk_mib"] for row in rows), "disk_cap_mib": round(cap_bytes / 2**20, 1),
        "open_files_min": min(row["open_files"] for row in rows),
        "open_files_max": max(row["open_files"] for row in rows),
        "latency_first_100_median_s": round(first_median, 2), "latency_last_100_median_s": round(last_median, 2),
        "latency_drift": round(last_median / first_median - 1, 3),
        # the server's own CPU time a turn, which the machine's other load does not change
        "cpu_s_per_turn_first_100": _mean_cpu(rows, 0, 100),
        "cpu_s_per_turn_last_100": _mean_cpu(rows, len(results) - 100, len(results)),
    }
    summary["met"] = {
        "memory": summary["rss_growth_after_100_mib"] < MEMORY_GROWTH_LIMIT_MIB,
        "disk": summary["disk_max_mib"] < summary["disk_cap_mib"],
        "open_files": summary["open_files_max"] - summary["open_files_min"] <= 10,
        "latency": abs(summary["latency_drift"]) <= LATENCY_DRIFT_LIMIT,
        "errors": summary["errors"] == 0,
    }
    return summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--turns", type=int, default=1000)
    parser.add_argument("--callers", type=int, default=3)
    parser.add_argument("--warmup", type=int, default=20, help="turns before the measured ones (not recorded)")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "soak.json")
    args = parser.parse_args()
    # stopped from outside (kill), the server is stopped too, by the context managers below
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("soak stopped"))

    from e3rg_core import settings
    from e3rg_dev.hub_rehearsal.app_run import RunningApp

    with tempfile.TemporaryDirectory(prefix="e3rg-soak-") as scratch:
        server_tmp, client_tmp = Path(scratch) / "server-tmp", Path(scratch) / "client"
        server_tmp.mkdir()
        environment = {**os.environ, settings.TIER_VARIABLE: "lite", "HF_HUB_OFFLINE": "1",
                       "TRANSFORMERS_OFFLINE": "1", "GRADIO_ANALYTICS_ENABLED": "False", "TMPDIR": str(server_tmp)}
        environment.pop("GRADIO_TEMP_DIR", None)
        with RunningApp.start(environment, Path(scratch) / "app.log") as app:
            pid = app.process.pid
            run_turns(app.url, turns(args.warmup, first=10**6), args.callers, client_tmp, lambda _: None)
            results: list[Done] = []
            rows: list[dict] = []
            window: list[Done] = []
            started, cpu_before = time.perf_counter(), [tree_cpu_seconds(pid)]
            print(f"{'turns':>6} {'rss MiB':>8} {'files':>6} {'disk MiB':>9} {'tmp files':>9} {'median s':>8} "
                  f"{'p90 s':>6} {'cpu s/turn':>10} {'errors':>6} {'load':>5}", flush=True)

            def collect(result: Done) -> None:
                results.append(result)
                window.append(result)
                if result.error:
                    print(f"turn {result.index} ({result.kind}) failed: {result.error}", flush=True)

            def reading() -> None:
                seconds = sorted(r.seconds for r in window)
                disk, files = disk_used(server_tmp)
                cpu = tree_cpu_seconds(pid)
                row = {"turns": len(results), "elapsed_s": round(time.perf_counter() - started),
                       "rss_mib": round(tree_rss_mib(pid), 1), "open_files": tree_open_files(pid),
                       "disk_mib": round(disk / 2**20, 1), "temp_files": files,
                       "latency_median_s": round(statistics.median(seconds), 2),
                       "latency_p90_s": round(seconds[int(0.9 * (len(seconds) - 1))], 2),
                       "cpu_s_per_turn": round((cpu - cpu_before[0]) / len(window), 2),
                       **{f"latency_{kind}_median_s": round(statistics.median(r.seconds for r in window
                                                                               if r.kind == kind), 2)
                          for kind in sorted(set(KINDS)) if any(r.kind == kind for r in window)},
                       "errors": sum(bool(r.error) for r in window), "load_average": round(os.getloadavg()[0], 2)}
                rows.append(row)
                window.clear()
                cpu_before[0] = cpu
                print(f"{row['turns']:>6} {row['rss_mib']:>8} {row['open_files']:>6} {row['disk_mib']:>9} "
                      f"{row['temp_files']:>9} {row['latency_median_s']:>8} {row['latency_p90_s']:>6} "
                      f"{row['cpu_s_per_turn']:>10} "
                      f"{row['errors']:>6} {row['load_average']:>5}", flush=True)

                write(args, rows, results, app)    # after every row, so a soak cut short leaves its figures

            # Each reading waits for its EVERY turns to finish: read mid-turn, memory and open files would count
            # whatever the turns in flight hold at that instant.
            measured = turns(args.turns)
            for start in range(0, args.turns, EVERY):
                run_turns(app.url, measured[start:start + EVERY], args.callers, client_tmp, collect)
                reading()
            print(json.dumps(write(args, rows, results, app), indent=2))


def write(args, rows: list[dict], results: list[Done], app) -> dict:
    """The soak so far as JSON at args.out; its summary."""
    from e3rg_core.settings import TEMP_FILES_CAP_BYTES
    summary = summarise(rows, results, TEMP_FILES_CAP_BYTES)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"callers": args.callers, "warmup": args.warmup, "cores": os.cpu_count(),
                                    "turns_asked": args.turns, "summary": summary, "rows": rows,
                                    "errors": [asdict(r) for r in results if r.error],
                                    "app_log_tail": app.log.read_text(encoding="utf-8", errors="replace")[-4000:]},
                                   indent=2))
    return summary


if __name__ == "__main__":
    main()
