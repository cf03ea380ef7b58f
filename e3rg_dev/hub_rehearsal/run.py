"""The rehearsal's steps: prepare(root) writes the private hub cache (root/hub; DICE-Talk's emotion priors are
the package's own); check_loaders(root) loads each full engine from them by its own loader, on the CPU, with
the network off; full_turn(root) boots app.py on them (E3RG_TIER=full on the CPU) and checks that one turn
with text, a voice clip and a video clip was served by every full engine; degraded_turn(root) removes one
repository from the cache, boots again and checks that only that engine's stage fell back to its lite
counterpart, with a notice naming the engine and why; rehearse(root) runs them all and returns the report
that __main__ prints as one JSON line.

Run in a process whose environment is rehearsal_environment(root) from the start (huggingface_hub reads
HF_HUB_CACHE and HF_HUB_OFFLINE once, at import): __main__.py arranges that.
"""
from __future__ import annotations

import contextlib
import ipaddress
import re
import shutil
import socket
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import torch

from e3rg_core.errors import describe
from e3rg_core.generation.dicetalk.checkpoints import DICETALK_REPO
from . import HUB_FOLDER
from .app_run import RehearsalError, RunningApp, TurnResult, app_environment, send_turn, write_turn_video
from .cache import repo_folder


def is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:          # a host name: only localhost stays on this machine
        return host == "localhost"


@contextlib.contextmanager
def network_off() -> Iterator[None]:
    """Refuse every connection that leaves this machine (a loader reaching GitHub or the hub fails loudly)."""
    connect = socket.socket.connect

    def local_only(sock, address):
        if isinstance(address, tuple) and not is_loopback(str(address[0])):
            raise ConnectionRefusedError(f"the hub rehearsal runs offline: connection to {address[0]} refused")
        return connect(sock, address)

    socket.socket.connect = local_only
    try:
        yield
    finally:
        socket.socket.connect = connect


def require_rehearsal_environment(root: Path) -> None:
    """Refuse to load unless huggingface_hub reads the rehearsal's cache offline (else a loader could read
    the machine's own cache, or the hub)."""
    from huggingface_hub import constants
    cache = Path(root) / HUB_FOLDER
    if Path(constants.HF_HUB_CACHE) != cache or not constants.HF_HUB_OFFLINE:
        raise RuntimeError(f"check_loaders needs a process started with rehearsal_environment({root}); "
                           f"huggingface_hub reads {constants.HF_HUB_CACHE} (offline: {constants.HF_HUB_OFFLINE}).")


def quantized_layers(engine: object) -> int:
    """How many 4-bit Linear layers the engine's model holds (0 for an engine without one)."""
    model = getattr(engine, "model", None)
    if not isinstance(model, torch.nn.Module):
        return 0
    return sum(type(module).__name__ == "Linear4bit" for module in model.modules())


def check_loaders(root: Path, device: str = "cpu") -> dict[str, dict]:
    """Load every full engine from root's files with the full tier's own loaders (tiers.full.LOADERS), each on
    its own: engine name -> {"engine": class, "name": the engine's own name, if it has one, "seconds": load time,
    "linear4bit": quantised layers}, or {"error": "<what>: <why>"} for one that did not load."""
    from e3rg_core.tiers.full import LOADERS
    require_rehearsal_environment(root)
    results = {}
    with network_off():
        for _, name, load in LOADERS:
            started = time.perf_counter()
            try:
                engine = load(device)
            except Exception as error:      # each loader is reported, whatever stopped it
                results[name] = {"error": describe(error)}
                continue
            results[name] = {"engine": type(engine).__name__, "name": getattr(engine, "name", None),
                             "seconds": round(time.perf_counter() - started, 2),
                             "linear4bit": quantized_layers(engine)}
    return results


def prepare(root: Path, files=None) -> dict:
    """The rehearsal's files: the hub cache holding `files` (default hub_files()); DICE-Talk's emotion priors are
    the package's own, as on the Space. Returns what the cache holds (repos, files, bytes, seconds, written:
    repo -> names)."""
    from .cache import timed_build
    return timed_build(Path(root) / HUB_FOLDER, files)


# -- the app, booted on the rehearsal's files --------------------------------------------------------------------
# The repository the second boot goes without. DICE-Talk's stage, the video, is the last of the GPU call: the call
# still runs understanding, writing and speech on the full engines, and only the video falls to the lite portrait.
REMOVED_REPO = DICETALK_REPO
TURN_VIDEO_NAME = "turn_video.mp4"     # root/turn_video.mp4: the turns' clip (app_run.write_turn_video)
REMOVED_ENGINE_ATTRIBUTE = "video"          # its FullEngines attribute in tiers.full.LOADERS
# Every notice of a stage handed to the lite engines says so ("the lite (CPU) engines ...", "the lite portrait").
FALLBACK_NOTICE = re.compile(r"\blite\b", re.IGNORECASE)


@dataclass(frozen=True)
class Serving:
    """The engine names a turn's reply should carry: every voter's, and the writer's, speech's and video's."""
    voters: tuple[str, ...]
    writer: str | None
    speech: str | None
    video: str | None


def full_serving(loaders: dict[str, dict]) -> Serving:
    """The full engines' names, from their classes (OpenVoice names itself by its converter, once loaded)."""
    from e3rg_core.generation.dicetalk import DiceTalkVideoEngine
    from e3rg_core.understanding.ola.engine import OlaEmotionVoter, OlaReplyWriter
    from e3rg_core.understanding.qwen_omni_voter import QwenOmniVoter
    return Serving((OlaEmotionVoter.name, QwenOmniVoter.name), OlaReplyWriter.name,
                   loaders.get("OpenVoice", {}).get("name"), DiceTalkVideoEngine.name)


def removed_engine() -> str:
    """The page name of the engine REMOVED_REPO holds (as tiers.full names it in its notices)."""
    from e3rg_core.tiers.full import LOADERS
    return next(name for attribute, name, _ in LOADERS if attribute == REMOVED_ENGINE_ATTRIBUTE)


def served_problems(turn: TurnResult, expected: Serving) -> list[str]:
    """How the turn's engines differ from those expected, and outputs that are missing or empty."""
    engines, problems = turn.emotion_json.get("engines", {}), []
    missing_voters = [voter for voter in expected.voters if voter not in turn.voters()]
    if missing_voters:
        problems.append(f"no vote from {', '.join(missing_voters)} (votes from {', '.join(turn.voters())})")
    for stage, name in (("text", expected.writer), ("speech", expected.speech), ("video", expected.video)):
        if engines.get(stage) != name:
            problems.append(f"the {stage} was made by {engines.get(stage)!r}, not {name!r}")
    if not turn.text.strip():
        problems.append("the reply has no text")
    for output in (turn.wav, turn.mp4, turn.bundle):
        if not output.is_file() or output.stat().st_size == 0:
            problems.append(f"the reply's {output.suffix} is missing or empty")
    return problems


def timings(turn: TurnResult, boot_seconds: float) -> dict:
    """The turn's seconds as the client waited, the app's boot, each stage as the app measured it, and the length
    of the reply's speech (the video's cost grows with it)."""
    return {"seconds": round(turn.seconds, 1), "boot_seconds": round(boot_seconds, 1),
            "stage_seconds": turn.emotion_json.get("seconds", {}), "speech_seconds": turn.speech_seconds()}


def boot_and_turn(root: Path, name: str) -> tuple[TurnResult, float]:
    """app.py booted on root's files, one turn sent to it, the app stopped: the turn and the boot's seconds."""
    video = root / TURN_VIDEO_NAME
    if not video.is_file():
        write_turn_video(video)
    with RunningApp.start(app_environment(root), root / f"app-{name}.log") as app:
        return send_turn(app, root / f"downloads-{name}", video), app.boot_seconds


def fallbacks(notices: list[str]) -> list[str]:
    """The notices that say a stage was handed to the lite engines."""
    return [notice for notice in notices if FALLBACK_NOTICE.search(notice)]


def missing_engine_notice(notices: list[str], engine: str, repo: str) -> str | None:
    """The one notice that says `engine` is not available and names `repo` in why; None when not exactly one."""
    found = [notice for notice in notices if notice.startswith(f"{engine} is not available (") and repo in notice]
    return found[0] if len(found) == 1 else None


def full_turn(root: Path, expected: Serving) -> tuple[dict, list[str]]:
    """The turn on the whole cache: every stage served by its full engine, no stage handed to the lite tier.

    The notices tell the handing over, not only the names: with OpenVoice's files in the cache, the lite tier's
    speech engine is OpenVoice too."""
    turn, boot_seconds = boot_and_turn(root, "full")
    problems = served_problems(turn, expected)
    notices = turn.emotion_json.get("notices", [])
    if fallbacks(notices):
        problems.append(f"a stage fell back to the lite engines: {fallbacks(notices)}")
    if "Engines: **full**" not in turn.page or "is not available" in turn.page:
        problems.append(f"the page does not say that every full engine serves: {turn.page!r}")
    engines = turn.emotion_json.get("engines", {})
    summary = {"voters": turn.voters(), "writer": engines.get("text"), "speech": engines.get("speech"),
               "video": engines.get("video"), **timings(turn, boot_seconds), "notices": notices}
    return summary, [f"full turn: {problem}" for problem in problems]


def degraded_turn(root: Path, expected: Serving) -> tuple[dict, list[str]]:
    """The turn with REMOVED_REPO gone from the cache: answered, only its engine's stage on the lite engine, and a
    notice naming the engine and why it is missing."""
    from e3rg_core.generation.lite_video import LiteTalkingPortrait
    shutil.rmtree(repo_folder(Path(root) / HUB_FOLDER, REMOVED_REPO))
    turn, boot_seconds = boot_and_turn(root, "degraded")
    problems = served_problems(turn, replace(expected, video=LiteTalkingPortrait.name))
    engine, notices = removed_engine(), turn.emotion_json.get("notices", [])
    notice = missing_engine_notice(notices, engine, REMOVED_REPO)
    if notice is None:
        problems.append(f"no one notice says that {engine} is missing for want of {REMOVED_REPO}: {notices}")
    elif notice not in turn.page:
        problems.append(f"the page does not say that {engine} is missing and why: {turn.page!r}")
    others = [other for other in fallbacks(notices) if other != notice]
    if others:
        problems.append(f"more than the {engine} stage fell back to the lite engines: {others}")
    summary = {"missing": REMOVED_REPO, "served_by": {"voters": turn.voters(), **turn.emotion_json.get("engines", {})},
               "notice": notice, **timings(turn, boot_seconds), "notices": notices}
    return summary, [f"degraded turn: {problem}" for problem in problems]


def rehearse(root: Path) -> dict:
    """prepare, check_loaders, the full turn and the degraded turn: the report, whether all passed, and what did
    not (problems). A boot or turn that failed outright is a problem, with the end of the app's log."""
    root = Path(root)
    seconds, problems, report = {}, [], {}
    started = time.perf_counter()
    cache = prepare(root)
    seconds["cache"] = time.perf_counter() - started
    report["cache"] = {key: value for key, value in cache.items() if key != "written"}
    begun = time.perf_counter()
    report["loaders"] = check_loaders(root)
    seconds["loaders"] = time.perf_counter() - begun
    problems += [f"{name} did not load: {result['error']}" for name, result in report["loaders"].items()
                 if "error" in result]
    try:
        expected = full_serving(report["loaders"])
    except Exception as error:      # without the engines' names no turn can be checked
        expected = None
        problems.append(f"the full engines' names could not be read: {describe(error)}")
    for key, turn in (("full_turn", full_turn), ("degraded_turn", degraded_turn)):
        report[key] = None
        if expected is None:
            continue
        begun = time.perf_counter()
        try:
            report[key], found = turn(root, expected)
        except RehearsalError as error:
            print(f"{error}; the app's log ends:\n{error.log}", file=sys.stderr, flush=True)
            found = [f"{key.replace('_', ' ')}: {error}"]
        seconds[key] = time.perf_counter() - begun
        problems += found
    seconds["total"] = time.perf_counter() - started
    return {"full_turn": report["full_turn"], "degraded_turn": report["degraded_turn"], "cache": report["cache"],
            "loaders": report["loaders"], "seconds": {key: round(value, 1) for key, value in seconds.items()},
            "passed": not problems, "problems": problems}
