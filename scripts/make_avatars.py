"""Rebuild the built-in avatars in assets/avatars/ from package-shipped sources (see assets/README.md).

    .venv/bin/python scripts/make_avatars.py [--hopper PATH]

ava:   scikit-image's astronaut photo (Eileen Collins, NASA, public domain), whose broad grin is closed and
       relaxed into a neutral face: the band of teeth between the lips is cut out, one column at a time (the
       upper lip comes down, the lower lip up), then the lite rig's own expression warp (lite_video.hold_look)
       brings the raised mouth corners, cheeks and lower lids back down, and the smile's creases, cheek folds
       and wide mouth are retouched (retouch_smile). Voice: hibari-tts's bundled voice.
grace: matplotlib's sample photo of Grace Hopper (US Navy, public domain), cropped square around her face;
       her expression is already calm. Voice: hibari-tts's voice lowered by 4 semitones and spoken slower.
luis:  mahotas's demo photo of its author, Luis Pedro Coelho (MIT, mahotas/demos/data/luispedro.jpg), widened
       on the left (his face nearly touches that edge) by the edge column, blurred like an out-of-focus
       background, and cut square. Voice: hibari-tts's voice lowered by 7 semitones. The default listener: his
       resting face reads neutral to the face voter.

The Hopper photo ships inside the matplotlib wheel (mpl-data/sample_data/grace_hopper.jpg); the script finds it
in an installed matplotlib without importing it, or takes --hopper PATH (e.g. a file unpacked from the wheel
that `pip download --no-deps matplotlib` fetches). Likewise mahotas's photo: found in an installed mahotas, or
--luis PATH (unpacked from the wheel that `pip download --no-deps mahotas` fetches).
"""
from __future__ import annotations

import argparse
import importlib.util
import json
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
AVATARS = ROOT / "assets" / "avatars"

# The astronaut's parted lips, in units of the face box the Haar cascade finds on the photo (x 177, y 67,
# side 93 px): the mouth spans u 0.28-0.73; the upper lip's edge runs from v 0.785 at the corners to 0.812 in
# the middle, the lower lip's edge from 0.785 to 0.892. Read off the photo by eye, once.
GRIN_CENTER_U, GRIN_HALF_WIDTH = 0.505, 0.24
UPPER_LIP_EDGE = (0.785, 0.812)       # (at the corners, in the middle)
LOWER_LIP_EDGE = (0.785, 0.892)
SEAM = 0.4                            # where the closed lips meet, as a fraction of the gap from the upper lip
CLOSE_REACH = 0.09                    # how far above and below the lips the closing pull fades out (face units)
GRIN_CORNERS = ((203, 140), (245, 140))   # the mouth's corners in the photo's pixels, raised by the smile
# Relaxing the smile: the corners go straight down (pulled inward as well, they creased her left cheek), the
# raised cheeks and lower lids down (face widths).
RELAX_CORNERS = (0.0, 0.05)
RELAX_CHEEKS = 0.035
RELAX_LOWER_LIDS = 0.012
RELAX_SIGMA = 0.09
# The relaxed photo still reads happy (0.99) to the face voter: blurring patches of its 64-px input shows the
# wide, thin mouth and its upturned corners carry that. So the smile's traces are retouched away: the creases
# that hook up from the mouth's corners (these boxes, face units u0, v0, u1, v1, by eye) are filled in from
# the skin around them where they are darker than it by HOOK_CONTRAST grey levels; the cheeks' smile folds are
# softened (blended this much with the skin blurred over FOLD_BLUR face widths); and the mouth is narrowed
# toward its middle (each side by up to NARROW_MOUTH of its distance, fading out NARROW_REACH from the middle
# and NARROW_ROWS above and below the lips); tests/generation/test_lite_generation.py checks she then reads neutral.
SMILE_HOOKS = ((0.17, 0.66, 0.30, 0.79), (0.69, 0.68, 0.82, 0.82))
HOOK_CONTRAST = 12
SMILE_FOLDS = ((0.12, 0.5, 0.34, 0.86), (0.66, 0.5, 0.88, 0.86))
FOLD_SOFTENING, FOLD_BLUR = 0.6, 0.03
NARROW_MOUTH, NARROW_REACH, NARROW_ROWS = 0.48, 0.3, 0.07

AVA_VOICE_TEXT = ("Hello, I'm Ava. I'm here to listen, whatever is on your mind. Take your time, there's no "
                  "rush at all, and tell me how your day has been.")
GRACE_VOICE_TEXT = ("Good afternoon, my name is Grace. I have all the time in the world for you today. Sit "
                    "down, make yourself comfortable, and tell me what has been happening.")
GRACE_SEMITONES = -4.0
GRACE_SPEED = 0.9
LUIS_VOICE_TEXT = ("Hi, I'm Luis. Thanks for stopping by. Tell me what's going on with you, I'm happy to listen "
                   "for as long as you need.")
LUIS_SEMITONES = -7.0
LUIS_WIDEN_LEFT = 120       # pixels of background added left of the photo
LUIS_BACKGROUND_BLUR = 14   # sigma of the blur over the added strip

PROFILES = {
    "ava": {"age": "middle-aged", "gender": "female", "timbre": "mid"},
    "grace": {"age": "elderly", "gender": "female", "timbre": "low"},
    "luis": {"age": "young", "gender": "male", "timbre": "low"},
}
SOURCES = {
    "ava": ("Portrait: scikit-image 0.26 'astronaut' (Eileen Collins, NASA photograph, public domain), its smile "
            "closed into a neutral face by scripts/make_avatars.py. Voice: hibari-tts 0.2.1's bundled voice "
            "(Apache-2.0), spoken by scripts/make_avatars.py."),
    "grace": ("Portrait: matplotlib 3.11 sample data 'grace_hopper.jpg' (Commodore Grace M. Hopper, US Navy "
              "photograph, public domain), cropped square by scripts/make_avatars.py. Voice: hibari-tts 0.2.1's "
              "bundled voice (Apache-2.0) lowered 4 semitones and slowed to 0.9x by scripts/make_avatars.py."),
    "luis": ("Portrait: mahotas 1.4.19 demo data 'luispedro.jpg' (Luis Pedro Coelho, mahotas's author; the package "
             "and its data are MIT-licensed), widened and cut square by scripts/make_avatars.py. Voice: hibari-tts "
             "0.2.1's bundled voice (Apache-2.0) lowered 7 semitones by scripts/make_avatars.py."),
}


def _lip_edge(ends: tuple[float, float], across: np.ndarray) -> np.ndarray:
    corner, middle = ends
    return corner + (middle - corner) * np.sqrt(np.clip(1 - across ** 2, 0, 1))


def close_grin(photo: np.ndarray) -> np.ndarray:
    """The astronaut with her lips closed over her teeth: in every column of the mouth the rows between the two
    lips' edges are cut out; the pull fades within CLOSE_REACH above and below, so the map stays monotonic."""
    import cv2

    from e3rg_core.faces import largest_face
    face = largest_face(photo)
    xs, ys = np.meshgrid(np.arange(photo.shape[1], dtype=np.float32), np.arange(photo.shape[0], dtype=np.float32))
    u, v = (xs - face.x) / face.width, (ys - face.y) / face.width
    across = (u - GRIN_CENTER_U) / GRIN_HALF_WIDTH
    upper, lower = _lip_edge(UPPER_LIP_EDGE, across), _lip_edge(LOWER_LIP_EDGE, across)
    seam = upper + SEAM * (lower - upper)
    inside = np.abs(across) < 1
    fade = lambda distance: np.exp(-(distance / CLOSE_REACH) ** 2)     # noqa: E731 - one formula, used twice
    source_v = np.where(v < seam, v - (seam - upper) * fade(seam - v), v + (lower - seam) * fade(v - seam))
    source_v = np.where(inside, source_v, v)
    closed = cv2.remap(photo, xs, (face.y + source_v * face.width).astype(np.float32), cv2.INTER_CUBIC,
                       borderMode=cv2.BORDER_REPLICATE)
    # Where the lips now touch, a faint shadow line, deepest where the gap was widest.
    gap = np.where(inside, lower - upper, 0) / (LOWER_LIP_EDGE[1] - UPPER_LIP_EDGE[0])
    line = np.exp(-((v - seam) * face.width / 1.3) ** 2) * gap * 0.14
    return np.clip(closed * (1 - line[..., None]) + 0.5, 0, 255).astype(np.uint8)


def neutral_astronaut() -> np.ndarray:
    """The closed grin relaxed by the rig's expression warp, its mouth-corner anchors put on this photo's
    corners (the rig's typical ones sit inside so wide a smile)."""
    import skimage.data

    from e3rg_core.faces import largest_face
    from e3rg_core.generation.lite_video import ANCHORS, LIPS_MEET, Look, hold_look, lips_line
    closed = close_grin(skimage.data.astronaut())
    face = largest_face(closed)
    # hold_look shifts mouth anchors by the photo's lip line; undo that shift for these measured corners.
    lips_shift = lips_line(closed, face) - LIPS_MEET
    anchors = dict(ANCHORS)
    for name, (x, y) in zip(("corner_l", "corner_r"), GRIN_CORNERS):
        anchors[name] = ((x - face.x) / face.width, (y - face.y) / face.width - lips_shift, RELAX_SIGMA)
    inward, down = RELAX_CORNERS
    relax = Look(moves=(("corner_l", inward, down), ("corner_r", -inward, down), ("cheek_l", 0.0, RELAX_CHEEKS),
                        ("cheek_r", 0.0, RELAX_CHEEKS), ("lower_lid_l", 0.0, RELAX_LOWER_LIDS),
                        ("lower_lid_r", 0.0, RELAX_LOWER_LIDS)))
    return retouch_smile(hold_look(closed, relax, anchors=anchors))


def retouch_smile(photo: np.ndarray) -> np.ndarray:
    """The relaxed astronaut with the smile's corner creases filled in, its cheek folds softened and its mouth
    narrowed (see SMILE_HOOKS)."""
    import cv2

    from e3rg_core.faces import largest_face
    from e3rg_core.generation.lite_video import lips_line
    face = largest_face(photo)
    side = face.width
    xs, ys = np.meshgrid(np.arange(photo.shape[1], dtype=np.float32), np.arange(photo.shape[0], dtype=np.float32))
    u, v = (xs - face.x) / side, (ys - face.y) / side

    def inside(boxes: tuple[tuple[float, float, float, float], ...]) -> np.ndarray:
        return np.any([(u >= u0) & (u < u1) & (v >= v0) & (v < v1) for u0, v0, u1, v1 in boxes], axis=0)

    gray = cv2.cvtColor(photo, cv2.COLOR_RGB2GRAY).astype(np.float32)
    skin = cv2.GaussianBlur(gray, (0, 0), side * 0.04)
    creases = (inside(SMILE_HOOKS) & (gray < skin - HOOK_CONTRAST)).astype(np.uint8) * 255
    filled = cv2.inpaint(photo, cv2.dilate(creases, np.ones((3, 3), np.uint8)), 3, cv2.INPAINT_TELEA)
    blend = cv2.GaussianBlur(inside(SMILE_FOLDS).astype(np.float32) * FOLD_SOFTENING, (0, 0), side * FOLD_BLUR)
    soft = cv2.GaussianBlur(filled.astype(np.float32), (0, 0), side * FOLD_BLUR)
    softened = (filled * (1 - blend[..., None]) + soft * blend[..., None] + 0.5).astype(np.uint8)
    # Sampling further out than each pixel narrows the mouth; the pull stays monotonic for NARROW_MOUTH < 2.
    across = u - GRIN_CENTER_U
    rows = np.exp(-((v - lips_line(softened, face)) / NARROW_ROWS) ** 2)
    source_u = GRIN_CENTER_U + across * (1 + NARROW_MOUTH * rows * np.exp(-(across / NARROW_REACH) ** 2))
    return cv2.remap(softened, (face.x + source_u * side).astype(np.float32), ys, cv2.INTER_CUBIC,
                     borderMode=cv2.BORDER_REPLICATE)


def hopper_photo(path: Path | None) -> np.ndarray:
    from PIL import Image
    if path is None:
        spec = importlib.util.find_spec("matplotlib")
        if spec is None or not spec.submodule_search_locations:
            raise SystemExit("matplotlib is not installed: pip install matplotlib, or pass --hopper PATH.")
        path = Path(next(iter(spec.submodule_search_locations))) / "mpl-data" / "sample_data" / "grace_hopper.jpg"
    photo = np.asarray(Image.open(path).convert("RGB"))
    side = min(photo.shape[:2])
    return np.ascontiguousarray(photo[:side, (photo.shape[1] - side) // 2:][:, :side])


def luis_photo(path: Path | None) -> np.ndarray:
    """The photo widened on the left with its edge column, blurred there, fading into the photo, cut square
    at the bottom."""
    import cv2
    from PIL import Image
    if path is None:
        spec = importlib.util.find_spec("mahotas")
        if spec is None or not spec.submodule_search_locations:
            raise SystemExit("mahotas is not installed: pip install mahotas, or pass --luis PATH.")
        path = Path(next(iter(spec.submodule_search_locations))) / "demos" / "data" / "luispedro.jpg"
    photo = np.asarray(Image.open(path).convert("RGB"))
    wide = cv2.copyMakeBorder(photo, 0, 0, LUIS_WIDEN_LEFT, 0, cv2.BORDER_REPLICATE)
    blurred = cv2.GaussianBlur(wide, (0, 0), LUIS_BACKGROUND_BLUR)
    weight = np.clip((np.arange(wide.shape[1]) - LUIS_WIDEN_LEFT) / 25.0, 0, 1)[None, :, None]
    widened = (wide * weight + blurred * (1 - weight) + 0.5).astype(np.uint8)
    side = min(widened.shape[:2])
    return np.ascontiguousarray(widened[widened.shape[0] - side:, :side])


def voices() -> dict[str, tuple[np.ndarray, int]]:
    import librosa
    from hibari import SAMPLE_RATE, Hibari
    voice = Hibari()
    grace = np.asarray(voice(GRACE_VOICE_TEXT, speed=GRACE_SPEED, seed=4), np.float32)
    luis = np.asarray(voice(LUIS_VOICE_TEXT, seed=5), np.float32)
    return {"ava": (np.asarray(voice(AVA_VOICE_TEXT, seed=3), np.float32), SAMPLE_RATE),
            "grace": (librosa.effects.pitch_shift(grace, sr=SAMPLE_RATE, n_steps=GRACE_SEMITONES), SAMPLE_RATE),
            "luis": (librosa.effects.pitch_shift(luis, sr=SAMPLE_RATE, n_steps=LUIS_SEMITONES), SAMPLE_RATE)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hopper", type=Path, help="grace_hopper.jpg from matplotlib's sample data")
    parser.add_argument("--luis", type=Path, help="luispedro.jpg from mahotas's demo data")
    parser.add_argument("--only", nargs="*", help="rebuild only these avatars")
    args = parser.parse_args()
    from PIL import Image

    from e3rg_core.faces import largest_face
    from e3rg_core.media import write_wav
    makers = {"ava": neutral_astronaut, "grace": lambda: hopper_photo(args.hopper),
              "luis": lambda: luis_photo(args.luis)}
    chosen = args.only or list(makers)
    portraits = {name: makers[name]() for name in chosen}
    for name, (samples, rate) in voices().items():
        if name not in portraits:
            continue
        folder = AVATARS / name
        folder.mkdir(parents=True, exist_ok=True)
        largest_face(portraits[name], f"The {name} portrait")
        Image.fromarray(portraits[name]).save(folder / "portrait.jpg", quality=95)
        write_wav(folder / "voice.wav", samples, rate)
        meta = {"name": name, "profile": PROFILES[name], "portrait": "portrait.jpg", "voice": "voice.wav",
                "source": SOURCES[name]}
        (folder / "avatar.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
        print("wrote", folder.relative_to(ROOT))


if __name__ == "__main__":
    main()
