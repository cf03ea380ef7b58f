"""Command line: one empathetic reply (emotion + votes, text, speech, talking-head video) for one turn.

    python -m e3rg_core.respond --text "I lost my job" --out out/
    python -m e3rg_core.respond --audio turn.wav --dialogue history.json --avatar ava --k-shot 3 --out out/

Writes OUT/reply.json, OUT/reply.wav and OUT/reply.mp4. Bad input exits with code 2 and a one-line message.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .dialogue import load_dialogue_so_far
from .contracts import GenerationSettings
from .errors import EngineUnavailableError, InputError
from .runner import ResponseRequest
from .understanding.prompts import SHOT_CHOICES


def build_request(args: argparse.Namespace) -> ResponseRequest:
    history, context, conversation_id = load_dialogue_so_far(args.dialogue) if args.dialogue else ((), "", "")
    text = args.text or ""
    if not (text or args.audio or args.video) and history and history[-1].role == "speaker":
        text, history = history[-1].utterance, history[:-1]
    settings = GenerationSettings(emotion_intensity=args.intensity, speech_speed=args.speed, seed=args.seed)
    return ResponseRequest(history=history, text=text, audio_path=args.audio, video_path=args.video,
                           avatar=args.avatar, k_shot=args.k_shot, context=context, settings=settings,
                           conversation_id=conversation_id)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m e3rg_core.respond", description=__doc__.split("\n")[0])
    parser.add_argument("--text", help="the speaker's latest turn as text")
    parser.add_argument("--audio", help="the latest turn as an audio file")
    parser.add_argument("--video", help="the latest turn as a video file")
    parser.add_argument("--dialogue", help="the dialogue so far: a [{role, utterance}] list or an AvaMERG JSON")
    parser.add_argument("--avatar", default="", help="listener avatar name (default: ava)")
    parser.add_argument("--k-shot", type=int, default=0, choices=SHOT_CHOICES)
    parser.add_argument("--intensity", type=float, default=1.0, help="emotion intensity, 0..1")
    parser.add_argument("--speed", type=float, default=1.0, help="speech speed factor")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", required=True, help="output folder")
    args = parser.parse_args(argv)

    from .tiers import lite_runner
    try:
        request = build_request(args)
        reply = lite_runner().run(request, Path(args.out))
    except InputError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except EngineUnavailableError as error:
        print(f"error: an engine is unavailable: {error}", file=sys.stderr)
        return 3
    emotion = reply.emotion
    print(f"emotion: {emotion.fine} ({emotion.coarse}; {emotion.decided_by}; "
          f"{len(emotion.votes)} vote(s))\nreply: {reply.text}\nwrote {args.out}/reply.json, reply.wav, reply.mp4")
    return 0


if __name__ == "__main__":
    sys.exit(main())
