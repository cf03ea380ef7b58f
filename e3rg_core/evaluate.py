"""Command line: E3RG's evaluation on an AvaMERG-format file.

    python -m e3rg_core.evaluate DATA.json [--limit N] [--emotion-only] [--k-shot K] [--media-dir D] --out REPORT.json

The vote's HIT (as E3RG defines it), fine accuracy and coarse confusions; the replies' diversity, length, speech and
stance; every turn's reply. Gold labels that name no known emotion are counted and left out of HIT.
"""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path

from .contracts import (AudioClip, Dialogue, EmotionResult, EngineSet, GenerationSettings, Turn, UnderstandingRequest,
                        VideoClip)
from .dialogue import load_dialogues
from .emotions import coarse_of, normalise_label
from .errors import CheckpointMismatchError, EngineUnavailableError, InputError
from .media import load_audio, load_video
from .metrics import (coarse_confusion, corpus_distinct_n, distinct_n, fine_accuracy, hit_rate, mean_words,
                      repeated_opening_share)
from .runner import TurnJob, understand, write
from .understanding.prompts import (FITTING_SHARE, LISTENER_STANCE, SHOT_CHOICES, STANCES, ListenerStance,
                                    listener_stance, sample_examples, stance_fit)

NEGATIVE_COARSE = frozenset({"sad", "angry", "fear", "disgusted", "contempt"})


def _turn_media(dialogue: Dialogue, turn: Turn, media_dir: Path | None) -> tuple[AudioClip | None, VideoClip | None]:
    """AvaMERG's clips of the turn's last utterance (diaXXXXXuttN_ID.wav/.mp4), when a media folder is given."""
    if media_dir is None:
        return None, None
    last = turn.history[-1]
    profile = dialogue.speaker_profile if last.role == "speaker" else dialogue.listener_profile
    stem = f"dia{dialogue.conversation_id}utt{last.index}_{profile.id}"
    audio = video = None
    try:
        if (media_dir / f"{stem}.wav").is_file():
            audio = load_audio(media_dir / f"{stem}.wav")
        if (media_dir / f"{stem}.mp4").is_file():
            video, _ = load_video(media_dir / f"{stem}.mp4")
    except InputError:
        pass    # an unusable clip leaves that modality out, as if it were missing
    return audio, video


def evaluate(engines: EngineSet, example_pool: list[Dialogue], dialogues: list[Dialogue], k_shot: int,
             emotion_only: bool, media_dir: Path | None = None, progress: bool = True) -> dict:
    from tqdm import tqdm
    predicted, gold, unmapped, written, voted_emotions = [], [], [], [], []
    for dialogue in tqdm(dialogues, desc="evaluating", unit="dialogue", disable=not progress):
        if not dialogue.turns:
            continue
        turns = dialogue.turns if not emotion_only else dialogue.turns[-1:]
        for turn in turns:
            audio, video = _turn_media(dialogue, turn, media_dir) if turn is dialogue.turns[-1] else (None, None)
            query = UnderstandingRequest(history=turn.history, context=turn.context, audio=audio, video=video)
            query = replace(query, examples=sample_examples(example_pool, k_shot, query,
                                                            dialogue.conversation_id))
            # The runner's own understanding and writing stages; nothing is spoken or animated here.
            job = TurnJob(query, avatar=None, portrait=None, settings=GenerationSettings(), workdir=Path("."))
            (voted,) = understand(job, engines)
            emotion = voted.emotion
            if turn is dialogue.turns[-1]:
                label = normalise_label(turn.speaker_emotion or "")
                if label is None:
                    unmapped.append(turn.speaker_emotion)
                else:
                    predicted.append(emotion.fine)
                    gold.append(label)
                    voted_emotions.append(emotion)
            if not emotion_only:
                *_, reply = write(replace(job, emotion=emotion), engines)
                written.append({"conversation_id": dialogue.conversation_id, "turn_id": turn.turn_id,
                                "said": turn.history[-1].utterance, "emotion": emotion.fine,
                                "stance": listener_stance(emotion).name, "gold": turn.speaker_emotion,
                                "reply": reply.text})
    report = {"n": len(gold), "hit": hit_rate(predicted, gold), "fine_accuracy": fine_accuracy(predicted, gold),
              "unmapped_gold": len(unmapped), "unmapped_gold_labels": sorted({str(u) for u in unmapped}),
              "confusion": coarse_confusion(predicted, gold), "k_shot": k_shot,
              "voters": [v.name for v in engines.voters], "stances": stance_valence(voted_emotions, gold)}
    if not emotion_only:
        report |= reply_measures(written, engines) | {"writer": engines.writer.name, "turns": written}
    return report


def stance_valence(emotions: list[EmotionResult], gold: list[str]) -> dict:
    """How often the listener's stance has the wrong kind of feeling for the gold label, over the last turns: it
    cheers while the gold coarse class is negative, or it does not (and does not hedge either) while the gold is
    happy; for the voted winner's stance, and for the stance the reply is written with (prompts.listener_stance,
    which hedges when the vote is torn), with the share of turns that hedge."""
    n = len(gold) or 1
    used = [listener_stance(emotion) for emotion in emotions]
    winner = [LISTENER_STANCE[emotion.fine] for emotion in emotions]

    def wrong(stances: list[ListenerStance]) -> dict[str, float]:
        coarse = [coarse_of(label) for label in gold]
        hedge = STANCES["acknowledge"]
        return {"cheer_at_negative": sum(s.cheer and c in NEGATIVE_COARSE for s, c in zip(stances, coarse)) / n,
                "no_cheer_at_happy": sum(not s.cheer and s is not hedge and c == "happy"
                                         for s, c in zip(stances, coarse)) / n}

    return {"hedged": sum(s is STANCES["acknowledge"] for s in used) / n, "winner": wrong(winner), "used": wrong(used)}


def reply_measures(written: list[dict], engines: EngineSet) -> dict:
    """The reply measures over turns written by evaluate() ("reply", the voted "emotion" and the "stance" it was
    written with, of each); adds each turn's "speech_s", "stance_fit" and "stance_fit_word_head" to its entry.

    The stance is read by both trained text heads; the written (template) replies were checked against the MiniLM
    head's reading, so the word head is the more independent reader."""
    from .memory.avatars import AvatarStore
    from .understanding.text_emotion import TextEmotionHead
    from .understanding.word_emotion import WordEmotionHead
    replies = [turn["reply"] for turn in written]
    avatar, settings = AvatarStore().get(""), GenerationSettings()
    for turn in written:
        speech = engines.speech.synthesize(turn["reply"], coarse_of(turn["emotion"]), avatar, settings)
        turn["speech_s"] = round(len(speech.samples) / speech.sample_rate, 2)
    seconds = [turn["speech_s"] for turn in written]
    measures = {"dist1": distinct_n(replies, 1), "dist2": distinct_n(replies, 2), "replies": len(replies),
                "corpus_dist1": corpus_distinct_n(replies, 1), "corpus_dist2": corpus_distinct_n(replies, 2),
                "repeated_openings": repeated_opening_share(replies), "mean_words": mean_words(replies),
                "mean_speech_s": sum(seconds) / len(seconds) if seconds else 0.0,
                "max_speech_s": max(seconds, default=0.0),
                "hedged": sum(turn["stance"] == "acknowledge" for turn in written) / len(written) if written else 0.0}
    for measure, head_class in (("stance_fit", TextEmotionHead), ("stance_fit_word_head", WordEmotionHead)):
        try:
            head = head_class.from_pretrained()
        except (EngineUnavailableError, CheckpointMismatchError):
            measures[measure] = None
            continue
        for turn in written:
            turn[measure] = round(stance_fit(head.read_text(turn["reply"]), STANCES[turn["stance"]]), 3)
        measures[measure] = (sum(turn[measure] >= FITTING_SHARE for turn in written) / len(written)
                             if written else None)
    return measures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m e3rg_core.evaluate", description=__doc__.split("\n")[0])
    parser.add_argument("data", help="AvaMERG-format JSON")
    parser.add_argument("--limit", type=int, default=None, help="evaluate the first N conversations")
    parser.add_argument("--emotion-only", action="store_true", help="skip reply writing (HIT only)")
    parser.add_argument("--k-shot", type=int, default=0, choices=SHOT_CHOICES)
    parser.add_argument("--media-dir", type=Path, default=None, help="folder of AvaMERG clips for the last turns")
    parser.add_argument("--out", required=True, type=Path)
    args = parser.parse_args(argv)

    from .tiers.lite import lite_engines
    try:
        dialogues = load_dialogues(args.data)[: args.limit]
    except InputError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    # k-shot examples come from the evaluated data itself, never from the query conversation
    report = evaluate(lite_engines(), dialogues, dialogues, args.k_shot, args.emotion_only, args.media_dir)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2), encoding="utf-8")
    summary = {k: (round(v, 4) if isinstance(v, float) else v) for k, v in report.items()
               if k in ("n", "hit", "fine_accuracy", "dist1", "dist2", "corpus_dist1", "corpus_dist2",
                        "repeated_openings", "mean_words", "mean_speech_s", "hedged", "stance_fit",
                        "stance_fit_word_head", "stances", "unmapped_gold")}
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
