"""Lite talking portrait: a CPU 2-D rig that animates one photo with the speech and the turn's expression.

The face box from faces.largest_face places a fixed set of anchors (mouth, eyes, brows, cheeks) at typical
positions for a frontal face; the line where the lips meet is found in the photo (the darkest row under the
nose) and followed out to the mouth's corners, and the mouth anchors sit on them. Each frame is two warps with
precomputed grids:
  1. a face warp that holds the expression (mouth corners, lips, cheeks, eyelids and brows moved as in the
     FACS prototype of the emotion), opens the jaw with the speech's loudness, rounds the lips on dark
     (low-centroid) vowels and closes the eyes for blinks; the parted lips show the upper teeth and the dark
     mouth behind them;
  2. a head warp that sways, tilts and nods the head (masked, so the background barely moves).
The expression also grades the colours, lightly, once per render. Per frame the work is a few array sums and
two cv2.remap calls over the face and head regions only.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from ..emotions import Expression, as_expression
from ..contracts import Animation, GenerationSettings, Speech, VideoEngine
from ..errors import MissingInputError
from ..faces import Box, largest_face
from ..settings import MAX_SPEECH_SECONDS, MIN_AUDIO_RMS

FPS = 25
MAX_FRAME_SIDE = 384
MIN_FRAME_SIDE = 384        # small photos are scaled up (and lightly sharpened) so the face stays crisp enlarged
FRAME_MARGIN = 0.7          # the frame is the face box grown by this on each side: head, hair and neck
MAX_INTENSITY = 2.0         # beyond this the warps start to fold over

# Anchor positions in face-box units (u right, v down from the box's top-left), for a frontal face as the
# Haar cascade frames it (brows near 0.26, eyes near 0.38, lips meet near 0.82, chin just below the box).
# The mouth's anchors are placed relative to where the lips meet in the photo (PortraitLayout.lips_v).
ANCHORS: dict[str, tuple[float, float, float]] = {      # name: (u, v, sigma)
    "brow_inner_l": (0.39, 0.26, 0.06), "brow_inner_r": (0.61, 0.26, 0.06),
    "brow_outer_l": (0.24, 0.27, 0.07), "brow_outer_r": (0.76, 0.27, 0.07),
    "upper_lid_l": (0.29, 0.34, 0.045), "upper_lid_r": (0.71, 0.34, 0.045),
    "lower_lid_l": (0.29, 0.43, 0.04), "lower_lid_r": (0.71, 0.43, 0.04),
    "cheek_l": (0.29, 0.62, 0.08), "cheek_r": (0.71, 0.62, 0.08),
    "upper_lip": (0.50, 0.78, 0.05), "lower_lip": (0.50, 0.87, 0.05),
    "corner_l": (0.34, 0.82, 0.055), "corner_r": (0.66, 0.82, 0.055),
}
MOUTH_ANCHORS = frozenset({"upper_lip", "lower_lip", "corner_l", "corner_r"})
EYES = ((0.29, 0.38), (0.71, 0.38))
EYE_HALF_SIZE = (0.085, 0.04)
LIPS_MEET = 0.82            # where the lips meet on a typical face; the photo's own line is searched around it
LIPS_SEARCH = (0.74, 0.90)  # ... within these rows, between these columns:
LIPS_SEARCH_HALF_WIDTH = 0.1
CHIN_BELOW_LIPS = 0.2
MOUTH_HALF_WIDTH = 0.17      # a typical closed mouth's; each photo's own corners are traced (mouth_corners)
MOUTH_HALF_WIDTHS = (0.12, 0.25)
CORNER_CONTRAST = 0.3       # the lip line ends where it is darker than the skin around by less than this share
CORNER_SKEW = 1.2           # ... of its middle's; one side may reach at most this much further than the other
MOUTH_GAP = 0.075           # jaw drop at full loudness, in face widths
UPPER_TEETH = 0.026         # how far the upper teeth show below the upper lip, in face widths
TEETH_HALF_WIDTH = 0.8      # ... and across the opening (the corners show the dark of the mouth)
SMILE_CURVE = 0.35          # how far an open smile's upper edge rises at the corners, in opening depths
LIP_ROUNDING = 0.35         # how far rounding pulls the mouth corners in, per unit of distance from centre
NECK = (0.5, 1.3)           # the head turns about this point
HEAD_SWAY_DEGREES = 1.4
BLINK_PROFILE = (0.45, 0.9, 1.0, 0.6, 0.25)
TEETH_RGB = np.asarray([236, 226, 208], np.float32)
MOUTH_EDGE_RGB = np.asarray([112, 48, 52], np.float32)     # the inner lips' shadow
MOUTH_DEPTH_RGB = np.asarray([44, 14, 18], np.float32)


@dataclass(frozen=True)
class Look:
    """How one coarse emotion shows: anchor moves (face widths; +x right, +y down), colour grade, motion."""
    moves: tuple[tuple[str, float, float], ...] = ()
    gains: tuple[float, float, float] = (1.0, 1.0, 1.0)     # RGB multipliers
    saturation: float = 1.0
    brightness: float = 0.0                                  # added to [0, 1] values
    sway: float = 1.0                                        # head-sway amplitude factor
    tilt: float = 0.0                                        # constant head roll, degrees (+ clockwise)
    lift: float = 0.0                                        # constant head shift, face widths (+ down)
    mouth_rest: float = 0.0                                  # lips parted between words
    mouth_width: float = 1.0                                 # the opening's width, times the speaking one
    teeth: float = 1.0                                       # how much upper teeth show, times UPPER_TEETH
    smile: bool = False                                      # the opening hangs from a flat top: an open smile


def _pair(left: str, right: str, dx: float, dy: float) -> tuple[tuple[str, float, float], ...]:
    """A symmetric move: dx is toward the face's midline (negative: outward)."""
    return (left, dx, dy), (right, -dx, dy)


# Facial moves follow FACS prototypes (Ekman & Friesen): happy AU6+12, sad AU1+4+15+17, surprised AU1+2+5+26,
# angry AU4+5+7+23, fear AU1+2+4+5+20, disgusted AU9+10+15, contempt unilateral AU12+14. The moves are large
# enough to read on a photo that smiles (pulling its corners well down for sad) and still show at the listener's
# lower intensities (0.4-0.6); the colour grade is a light touch on top, not the expression itself.
LOOKS: dict[str, Look] = {
    "neutral": Look(),
    "happy": Look(
        moves=(*_pair("corner_l", "corner_r", -0.04, -0.075), *_pair("cheek_l", "cheek_r", 0.0, -0.025),
               *_pair("lower_lid_l", "lower_lid_r", 0.0, -0.008), *_pair("brow_inner_l", "brow_inner_r", 0.0, -0.03),
               *_pair("brow_outer_l", "brow_outer_r", 0.0, -0.03)),
        gains=(1.03, 1.01, 0.97), saturation=1.06, brightness=0.015, sway=0.6, mouth_rest=1.6, mouth_width=1.35,
        teeth=1.5, smile=True),
    "sad": Look(
        moves=(*_pair("corner_l", "corner_r", 0.015, 0.08), ("lower_lip", 0.0, -0.02), ("upper_lip", 0.0, 0.008),
               *_pair("brow_inner_l", "brow_inner_r", 0.015, -0.06), *_pair("brow_outer_l", "brow_outer_r", 0.0, 0.025),
               *_pair("upper_lid_l", "upper_lid_r", 0.0, 0.04), *_pair("cheek_l", "cheek_r", 0.0, 0.015)),
        gains=(0.98, 0.99, 1.03), saturation=0.88, brightness=-0.025, sway=0.3),
    "surprised": Look(
        moves=(*_pair("brow_inner_l", "brow_inner_r", 0.0, -0.11), *_pair("brow_outer_l", "brow_outer_r", 0.0, -0.11),
               *_pair("upper_lid_l", "upper_lid_r", 0.0, -0.018), *_pair("lower_lid_l", "lower_lid_r", 0.0, 0.01),
               *_pair("corner_l", "corner_r", 0.03, 0.015)),
        gains=(1.01, 1.01, 1.02), saturation=1.04, brightness=0.025, sway=1.1, lift=-0.015, mouth_rest=2.8,
        mouth_width=0.65),
    "angry": Look(
        moves=(*_pair("brow_inner_l", "brow_inner_r", 0.045, 0.085), *_pair("brow_outer_l", "brow_outer_r", 0.0, 0.015),
               *_pair("upper_lid_l", "upper_lid_r", 0.0, 0.012), *_pair("lower_lid_l", "lower_lid_r", 0.0, -0.03),
               ("upper_lip", 0.0, 0.012), ("lower_lip", 0.0, -0.02), *_pair("corner_l", "corner_r", 0.015, 0.025)),
        gains=(1.05, 0.98, 0.96), saturation=1.05, brightness=-0.01, sway=0.5, mouth_rest=0.9, mouth_width=1.2,
        teeth=2.5),
    "fear": Look(
        moves=(*_pair("brow_inner_l", "brow_inner_r", 0.025, -0.075),
               *_pair("brow_outer_l", "brow_outer_r", 0.0, -0.02),
               *_pair("upper_lid_l", "upper_lid_r", 0.0, -0.022), *_pair("lower_lid_l", "lower_lid_r", 0.0, -0.01),
               *_pair("corner_l", "corner_r", -0.05, 0.075)),
        gains=(0.98, 1.0, 1.03), saturation=0.9, brightness=-0.03, sway=0.5, lift=0.01, mouth_rest=1.4,
        mouth_width=1.3, teeth=0.8),
    # Disgust narrows the eyes from both lids (AU7, with the cheeks pushed up, AU6/9) under whole brows lowered
    # but not drawn together (AU4 without anger's pinch), the upper lip raised over closed lips (AU10).
    "disgusted": Look(
        moves=(("upper_lip", 0.0, -0.035), *_pair("brow_inner_l", "brow_inner_r", 0.0, 0.03),
               *_pair("brow_outer_l", "brow_outer_r", 0.0, 0.03), *_pair("cheek_l", "cheek_r", 0.0, -0.05),
               *_pair("corner_l", "corner_r", 0.0, 0.035), *_pair("upper_lid_l", "upper_lid_r", 0.0, 0.035),
               *_pair("lower_lid_l", "lower_lid_r", 0.0, -0.035)),
        gains=(0.99, 1.02, 0.97), saturation=0.95, brightness=-0.01, tilt=-1.5, teeth=1.5),
    "contempt": Look(
        moves=(("corner_r", -0.02, -0.05), ("cheek_r", 0.0, -0.02), ("corner_l", 0.008, 0.012)),
        gains=(1.0, 0.99, 0.99), saturation=0.95, brightness=-0.01, sway=0.8, tilt=-2.0, lift=-0.01),
}


@dataclass(frozen=True)
class PortraitLayout:
    """Where the portrait's face lies in the square output frame."""
    crop: Box               # the square of the portrait that fills the frame (portrait pixels)
    size: int               # frame side in pixels (even)
    face_x: float           # face box's top-left corner and side, in frame pixels
    face_y: float
    face_side: float
    lips_v: float = LIPS_MEET   # where the lips meet, in face-box units
    corners: tuple[tuple[float, float], tuple[float, float]] = ((0.5 - MOUTH_HALF_WIDTH, LIPS_MEET),
                                                                (0.5 + MOUTH_HALF_WIDTH, LIPS_MEET))

    @property
    def mouth_u(self) -> float:
        return (self.corners[0][0] + self.corners[1][0]) / 2

    @property
    def mouth_half_width(self) -> float:
        return (self.corners[1][0] - self.corners[0][0]) / 2

    @property
    def anchors(self) -> dict[str, tuple[float, float, float]]:
        """ANCHORS with the mouth corners (and the cheeks above them) moved to this photo's corners; the mouth
        anchors' rows stay relative to the typical lip line, as expression_field expects."""
        shift = self.lips_v - LIPS_MEET
        scale = self.mouth_half_width / MOUTH_HALF_WIDTH
        anchors = dict(ANCHORS)
        for side, (u, v) in zip("lr", self.corners, strict=True):
            _, _, sigma = ANCHORS[f"corner_{side}"]
            cheek_u, cheek_v, cheek_sigma = ANCHORS[f"cheek_{side}"]
            outward = u - ANCHORS[f"corner_{side}"][0]
            anchors[f"corner_{side}"] = (u, v - shift, sigma * scale)
            anchors[f"cheek_{side}"] = (cheek_u + outward, cheek_v, cheek_sigma)
        for name in ("upper_lip", "lower_lip"):
            _, v, sigma = ANCHORS[name]
            anchors[name] = (self.mouth_u, v, sigma * scale)
        return anchors

    def point(self, u: float, v: float) -> tuple[float, float]:
        return self.face_x + u * self.face_side, self.face_y + v * self.face_side

    def region(self, u0: float, v0: float, u1: float, v1: float) -> Box:
        """The frame pixels between two face-unit corners, clipped to the frame."""
        x0, y0 = (int(np.clip(round(c), 0, self.size)) for c in self.point(u0, v0))
        x1, y1 = (int(np.clip(round(c), 0, self.size)) for c in self.point(u1, v1))
        return Box(x0, y0, x1 - x0, y1 - y0)

    def mouth_box(self) -> Box:
        """The pixels that speaking changes: the lips, the opened mouth and the chin."""
        return self.region(self.corners[0][0] - 0.06, self.lips_v - 0.08, self.corners[1][0] + 0.06,
                           self.lips_v + MOUTH_GAP * 2 + 0.04)


def lips_line(portrait: np.ndarray, face: Box) -> float:
    """Where the lips meet, in face-box units: the lower edge of the darkest band (smoothed rows) across the
    middle of the mouth, searched around the typical place. A closed mouth's meeting line is such a band; on
    dark lips the band is the upper lip, whose lower edge is the line. Faces the cascade frames tall or short
    get their mouth moved, not a cheek."""
    gray = cv2.cvtColor(portrait, cv2.COLOR_RGB2GRAY).astype(np.float32)
    x0 = int(round(face.x + (0.5 - LIPS_SEARCH_HALF_WIDTH) * face.width))
    x1 = int(round(face.x + (0.5 + LIPS_SEARCH_HALF_WIDTH) * face.width))
    y0, y1 = (int(round(face.y + v * face.height)) for v in LIPS_SEARCH)
    if x0 < 0 or y0 < 0 or x1 > gray.shape[1] or y1 > gray.shape[0] or y1 - y0 < 5:
        return LIPS_MEET
    rows = gray[y0:y1, x0:x1].mean(axis=1)
    width = max(1, int(round(face.height * 0.006)))
    rows = np.convolve(np.pad(rows, width, mode="edge"), np.ones(2 * width + 1) / (2 * width + 1), "valid")
    darkest = int(np.argmin(rows))
    below = rows[darkest:darkest + max(3, int(round(face.height * 0.05)))]
    edge = darkest + int(np.argmax(below >= (below.min() + below.max()) / 2))
    return float((y0 + edge - face.y) / face.height)


def mouth_corners(portrait: np.ndarray, face: Box, lips_v: float) -> tuple[tuple[float, float], tuple[float, float]]:
    """The mouth's corners (u, v in face-box units): the line where the lips meet, followed from the middle
    outward column by column (a pixel or so up or down each step, so a smile's rising corners are followed)
    until it is no darker than the skin just above and below it. The wider side is cut to CORNER_SKEW times
    the narrower (a smile's crease can carry the trace into the cheek)."""
    side = face.width
    gray = cv2.GaussianBlur(cv2.cvtColor(portrait, cv2.COLOR_RGB2GRAY).astype(np.float32), (0, 0),
                            max(0.5, side * 0.006))
    half = max(2, int(round(0.035 * side)))
    step = max(1, int(round(side * 0.01)))
    paths = []
    for direction in (-1, 1):
        x, y = int(round(face.x + 0.5 * side)), int(round(face.y + lips_v * side))
        path, reference, misses = [], None, 0
        while abs(x - face.x - 0.5 * side) < MOUTH_HALF_WIDTHS[1] * 1.5 * side and misses < 2:
            x += direction * step
            if not (half + step <= y < gray.shape[0] - half - step and 0 <= x < gray.shape[1]):
                break
            y += int(np.argmin(gray[y - step:y + step + 1, x])) - step
            contrast = (gray[y - half, x] + gray[y + half, x]) / 2 - gray[y, x]
            reference = contrast if reference is None else reference
            if reference <= 0 or contrast < CORNER_CONTRAST * reference:
                misses += 1
            else:
                misses = 0
                path.append(((x - face.x) / side, (y - face.y) / side))
        paths.append(path or [(0.5 + direction * MOUTH_HALF_WIDTH, lips_v)])
    reach = [abs(path[-1][0] - 0.5) for path in paths]
    limit = float(np.clip(min(reach) * CORNER_SKEW, *MOUTH_HALF_WIDTHS))
    left, right = ([point for point in path if abs(point[0] - 0.5) <= limit][-1] for path in paths)
    low = MOUTH_HALF_WIDTHS[0]
    return (min(left[0], 0.5 - low), left[1]), (max(right[0], 0.5 + low), right[1])


def portrait_layout(portrait: np.ndarray) -> PortraitLayout:
    face = largest_face(portrait)
    lips_v = lips_line(portrait, face)
    crop = face.expanded_square(FRAME_MARGIN, portrait.shape)
    size = int(np.clip(crop.width, MIN_FRAME_SIDE, MAX_FRAME_SIDE)) // 2 * 2
    scale = size / crop.width
    return PortraitLayout(crop=crop, size=size, face_x=(face.x - crop.x) * scale,
                          face_y=(face.y - crop.y) * scale, face_side=face.width * scale,
                          lips_v=lips_v, corners=mouth_corners(portrait, face, lips_v))


def framed_portrait(portrait: np.ndarray, layout: PortraitLayout) -> np.ndarray:
    """The layout's square of the portrait at the frame size; an enlarged crop is sharpened back a little."""
    crop = layout.crop
    square = portrait[crop.y:crop.y + crop.height, crop.x:crop.x + crop.width]
    if crop.width >= layout.size:
        return cv2.resize(square, (layout.size, layout.size), interpolation=cv2.INTER_AREA)
    frame = cv2.resize(square, (layout.size, layout.size), interpolation=cv2.INTER_LANCZOS4)
    # Unsharp mask at the enlargement's own scale restores the edges the interpolation softened.
    blurred = cv2.GaussianBlur(frame, (0, 0), 0.5 * layout.size / crop.width)
    return cv2.addWeighted(frame, 1.4, blurred, -0.4, 0)


def mouth_shapes(samples: np.ndarray, sample_rate: int, frame_count: int) -> tuple[np.ndarray, np.ndarray]:
    """Per-frame jaw opening and lip rounding in [0, 1] from the speech's loudness and spectral centroid."""
    hop = sample_rate / FPS
    width = int(2 * hop)
    window = np.hanning(width).astype(np.float32)
    padded = np.pad(samples.astype(np.float32), (width, width))
    starts = ((np.arange(frame_count) + 0.5) * hop - width / 2 + width).astype(int)
    frames = padded[starts[:, None] + np.arange(width)] * window
    rms = np.sqrt(np.mean(frames ** 2, axis=1) / np.mean(window ** 2))
    audible = rms > MIN_AUDIO_RMS
    loud = np.percentile(rms[audible], 95) if audible.any() else 1.0
    # Loudness from -30 dB to -6 dB under the loud frames maps onto closed .. fully open.
    target = np.where(audible, np.clip((20 * np.log10(np.maximum(rms, 1e-9) / loud) + 30) / 24, 0, 1), 0)
    spectrum = np.abs(np.fft.rfft(frames, axis=1))
    freqs = np.fft.rfftfreq(width, 1 / sample_rate)
    centroid = (spectrum @ freqs) / np.maximum(spectrum.sum(axis=1), 1e-9)
    # Back rounded vowels (oo, oh) keep their energy low in the spectrum.
    rounding = np.clip((1600 - centroid) / 900, 0, 1) * (target > 0.15)
    jaw = np.zeros(frame_count, np.float32)
    level = 0.0
    for index, goal in enumerate(target):
        level += (0.7 if goal > level else 0.45) * (goal - level)     # opens fast, closes a little slower
        jaw[index] = level
    rounding = moving_average(rounding, 3).astype(np.float32)
    return jaw, rounding


def moving_average(values: np.ndarray, width: int) -> np.ndarray:
    """values smoothed over `width` frames, as many as given: the window shrinks for a reply of fewer frames
    (np.convolve's "same" returns the longer of its two inputs)."""
    width = min(width, len(values))
    return np.convolve(values, np.ones(width) / width, mode="same")


def blink_curve(frame_count: int, rng: np.random.Generator) -> np.ndarray:
    """Eyelid closure per frame: a blink every 2-4.5 s, each lasting five frames."""
    curve = np.zeros(frame_count + len(BLINK_PROFILE), np.float32)
    time = rng.uniform(0.5, 2.0)
    while time * FPS < frame_count:
        start = int(time * FPS)
        curve[start:start + len(BLINK_PROFILE)] = BLINK_PROFILE
        time += rng.uniform(2.0, 4.5)
    return curve[:frame_count]


def _smoothstep(x: np.ndarray) -> np.ndarray:
    x = np.clip(x, 0.0, 1.0)
    return x * x * (3 - 2 * x)


def color_grade(rgb: np.ndarray, look: Look, strength: float) -> np.ndarray:
    values = rgb.astype(np.float32) / 255
    values *= 1 + (np.asarray(look.gains, np.float32) - 1) * strength
    gray = values @ np.asarray([0.299, 0.587, 0.114], np.float32)
    values = gray[..., None] + (values - gray[..., None]) * (1 + (look.saturation - 1) * strength)
    values += look.brightness * strength
    return (np.clip(values, 0, 1) * 255 + 0.5).astype(np.uint8)


def expression_field(u: np.ndarray, v: np.ndarray, look: Look, side: float, lips_v: float,
                     anchors: dict[str, tuple[float, float, float]] = ANCHORS) -> np.ndarray:
    """The look's anchor moves as map offsets over a grid of face-unit coordinates: Gaussian bumps of
    displacement around the anchors, in pixels (content moves by +d, so the maps sample from -d)."""
    lips_shift = lips_v - LIPS_MEET
    field = np.zeros((2, *u.shape), np.float32)
    for anchor, dx, dy in look.moves:
        au, av, sigma = anchors[anchor]
        av += lips_shift if anchor in MOUTH_ANCHORS else 0.0
        bump = np.exp(-((u - au) ** 2 + (v - av) ** 2) / (2 * sigma ** 2)) * side
        field[0] -= dx * bump
        field[1] -= dy * bump
    return field


def hold_look(portrait: np.ndarray, look: Look, strength: float = 1.0,
              anchors: dict[str, tuple[float, float, float]] = ANCHORS) -> np.ndarray:
    """The still portrait, at its own size, with the look's moves made once (anchors placed for this face, or
    where a typical face has them): how a photo is given another expression (scripts/make_avatars.py makes the
    built-in listener's neutral face this way)."""
    face = largest_face(portrait)
    xs, ys = np.meshgrid(np.arange(portrait.shape[1], dtype=np.float32),
                         np.arange(portrait.shape[0], dtype=np.float32))
    field = expression_field((xs - face.x) / face.width, (ys - face.y) / face.width, look, face.width,
                             lips_line(portrait, face), anchors)
    return cv2.remap(portrait, cv2.scaleAdd(field[0], strength, xs), cv2.scaleAdd(field[1], strength, ys),
                     cv2.INTER_CUBIC, borderMode=cv2.BORDER_REPLICATE)


class _Rig:
    """The precomputed grids and images for one portrait with one emotion."""

    def __init__(self, frame: np.ndarray, layout: PortraitLayout, look: Look, strength: float):
        self.frame = frame
        self.layout = layout
        side, lips = layout.face_side, layout.lips_v
        self.face_roi = layout.region(-0.2, 0.0, 1.2, lips + 0.63)
        self.face_u, self.face_v, self.face_grid = self._grid(self.face_roi)
        self.expression = expression_field(self.face_u, self.face_v, look, layout.face_side, lips, layout.anchors)
        u, v = self.face_u, self.face_v
        # Jaw: everything from where the lips meet down to the chin drops; the lens shape comes from the
        # narrow horizontal profile. The step's width keeps the map monotonic at the widest opening.
        chin = lips + CHIN_BELOW_LIPS
        below_lips = 1 / (1 + np.exp(-(v - lips) / (MOUTH_GAP * 0.3)))
        below_chin = np.where(v > chin, np.exp(-((v - chin) / 0.1) ** 2), 1.0)
        mouth_u, width = layout.mouth_u, layout.mouth_half_width / MOUTH_HALF_WIDTH
        self.jaw = -(np.exp(-((u - mouth_u) / (0.16 * width)) ** 2 / 2) * below_lips * below_chin
                     * side).astype(np.float32)
        self.rounding = ((u - mouth_u) * np.exp(-((u - mouth_u) / (0.2 * width)) ** 2 - ((v - lips) / 0.06) ** 2)
                         * LIP_ROUNDING * side).astype(np.float32)
        self.mouth_rest = look.mouth_rest * strength
        self.mouth_width = 1 + (look.mouth_width - 1) * min(strength, 1.0)
        self.teeth = 1 + (look.teeth - 1) * min(strength, 1.0)
        self.smile = look.smile and strength > 0
        self.closed_eyes, self.eye_alpha, self.eye_roi = self._closed_eyes()
        self._build_head_warp()
        head, face = self.head_roi, self.face_roi
        self.face_in_head = np.s_[face.y - head.y:face.y - head.y + face.height,
                                  face.x - head.x:face.x - head.x + face.width]
        mouth_x, mouth_y = (int(round(c)) for c in layout.point(layout.mouth_u, lips))
        self.mouth_in_head = (mouth_y - head.y, mouth_x - head.x)

    def _grid(self, roi: Box) -> tuple[np.ndarray, np.ndarray, tuple[np.ndarray, np.ndarray]]:
        xs, ys = np.meshgrid(np.arange(roi.x, roi.x + roi.width, dtype=np.float32),
                             np.arange(roi.y, roi.y + roi.height, dtype=np.float32))
        layout = self.layout
        return (xs - layout.face_x) / layout.face_side, (ys - layout.face_y) / layout.face_side, (xs, ys)

    def _closed_eyes(self) -> tuple[np.ndarray, np.ndarray, Box]:
        """The frame with both eyes painted shut (skin filled in, a lash line), and where to blend it."""
        layout, side = self.layout, self.layout.face_side
        roi = layout.region(0.1, 0.25, 0.9, 0.52)
        patch = self.frame[roi.y:roi.y + roi.height, roi.x:roi.x + roi.width]
        hole = np.zeros(patch.shape[:2], np.uint8)
        lashes = np.zeros(patch.shape[:2], np.float32)
        alpha = np.zeros(patch.shape[:2], np.float32)
        half_w, half_h = EYE_HALF_SIZE
        for eye_u, eye_v in EYES:
            x, y = layout.point(eye_u, eye_v)
            center = (int(round(x - roi.x)), int(round(y - roi.y)))
            cv2.ellipse(hole, center, (int(half_w * side * 1.15), int(half_h * side * 1.3)), 0, 0, 360, 255, -1)
            cv2.ellipse(alpha, center, (int(half_w * side * 1.3), int(half_h * side * 1.6)), 0, 0, 360, 1.0, -1)
            # A closed lid shows its lashes as a gentle downward arc a little below the eye's middle.
            cv2.ellipse(lashes, (center[0], center[1] - int(half_h * side * 0.6)),
                        (int(half_w * side), int(half_h * side * 1.2)), 0, 20, 160, 1.0,
                        max(1, int(round(side * 0.012))))
        closed = cv2.inpaint(np.ascontiguousarray(patch), hole, 3, cv2.INPAINT_TELEA).astype(np.float32)
        lashes = cv2.GaussianBlur(lashes, (0, 0), max(0.6, side * 0.004))
        closed *= (1 - 0.55 * np.clip(lashes, 0, 1))[..., None]
        alpha = cv2.GaussianBlur(alpha, (0, 0), max(1.0, side * 0.015))[..., None]
        return closed, alpha, roi

    def _build_head_warp(self) -> None:
        layout = self.layout
        self.head_roi = layout.region(-1.0, -1.0, 2.0, 2.0)
        u, v, (xs, ys) = self._grid(self.head_roi)
        radius = np.sqrt(((u - 0.5) / 0.75) ** 2 + ((v - 0.45) / 0.95) ** 2)
        mask = (1 - _smoothstep((radius - 1.0) / 0.5)).astype(np.float32)
        pivot_x, pivot_y = layout.point(*NECK)
        self.head_grid = (xs, ys)
        self.head_mask = mask
        self.head_mx = mask * (xs - pivot_x)
        self.head_my = mask * (ys - pivot_y)

    def render(self, jaw: float, rounding: float, blink: float, expression: float,
               roll_degrees: float, shift: tuple[float, float]) -> np.ndarray:
        work = self.frame
        if blink > 0:
            work = work.copy()
            roi = self.eye_roi
            view = work[roi.y:roi.y + roi.height, roi.x:roi.x + roi.width]
            weight = self.eye_alpha * blink
            view[:] = (view * (1 - weight) + self.closed_eyes * weight + 0.5).astype(np.uint8)
        # The head turns by roll about the neck and shifts; sampling uses the inverse motion. cv2.scaleAdd
        # (a * x + y in one pass) keeps the per-frame map sums cheap at 384-512 px.
        angle = np.deg2rad(roll_degrees)
        cos_1, sin = float(np.cos(angle)) - 1, float(np.sin(angle))
        xs, ys = self.head_grid
        map_x = cv2.scaleAdd(self.head_mask, -shift[0],
                             cv2.scaleAdd(self.head_my, sin, cv2.scaleAdd(self.head_mx, cos_1, xs)))
        map_y = cv2.scaleAdd(self.head_mask, -shift[1],
                             cv2.scaleAdd(self.head_my, cos_1, cv2.scaleAdd(self.head_mx, -sin, ys)))
        # The face's own motion is added to the head's maps, so one remap does both: the face offsets are
        # taken where the head moved from rather than to, a difference of a pixel or two in fields that
        # change over tens of pixels.
        # A look that holds the mouth open still lets speech open it further, a little less the wider it rests.
        opening = (self.mouth_rest + jaw * (1 - 0.5 * min(self.mouth_rest, 1.0))) * MOUTH_GAP
        inner = self.face_in_head
        map_x[inner] = cv2.scaleAdd(self.rounding, rounding, cv2.scaleAdd(self.expression[0], expression,
                                                                          map_x[inner]))
        map_y[inner] = cv2.scaleAdd(self.jaw, opening, cv2.scaleAdd(self.expression[1], expression, map_y[inner]))
        roi = self.head_roi
        moved = cv2.remap(work, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        if (roi.width, roi.height) == (self.layout.size, self.layout.size):
            out = moved
        else:
            out = self.frame.copy()
            out[roi.y:roi.y + roi.height, roi.x:roi.x + roi.width] = moved
        # The mouth moved with the head by the inverse of the head maps' offset there.
        mouth, side = self.mouth_in_head, self.layout.face_side
        mx, my, mask = float(self.head_mx[mouth]), float(self.head_my[mouth]), float(self.head_mask[mouth])
        head_dx = (cos_1 * mx + sin * my - shift[0] * mask) / side
        head_dy = (-sin * mx + cos_1 * my - shift[1] * mask) / side
        roi = self.face_roi
        self._paint_mouth(out[roi.y:roi.y + roi.height, roi.x:roi.x + roi.width], opening, rounding,
                          (-head_dx, -head_dy))
        return out

    def _paint_mouth(self, face: np.ndarray, opening: float, rounding: float, moved: tuple[float, float]) -> None:
        """Fill the gap between the parted lips (moved with the head, in face units): the upper teeth under the
        upper lip, then the dark of the mouth."""
        side = self.layout.face_side
        # An ellipse from where the lips met down to the lower lip, or for a smile half of one hanging from a
        # flat top, as deep as the whole opening.
        half_h = opening if self.smile else opening / 2
        if half_h * side < 0.5:
            return
        half_w = self.layout.mouth_half_width * (0.55 + 3.5 * opening) * (1 - 0.3 * rounding) * self.mouth_width
        center_u = self.layout.mouth_u + moved[0]
        center_v = self.layout.lips_v + moved[1] + (0.0 if self.smile else half_h)
        above, below = (SMILE_CURVE * half_h, half_h) if self.smile else (half_h, half_h)
        rows = np.flatnonzero((self.face_v[:, 0] >= center_v - above - 2 / side)
                              & (self.face_v[:, 0] <= center_v + below + 2 / side))
        cols = np.flatnonzero(np.abs(self.face_u[0] - center_u) <= half_w + 2 / side)
        if not len(rows) or not len(cols):
            return
        box = np.s_[rows[0]:rows[-1] + 1, cols[0]:cols[-1] + 1]
        across = (self.face_u[box] - center_u) / half_w
        down = (self.face_v[box] - center_v) / half_h
        if self.smile:
            # The upper lip's edge rises toward the corners; the lower edge is the ellipse's half.
            top = -SMILE_CURVE * across ** 2
            radius = np.sqrt(across ** 2 + np.maximum(down, 0) ** 2)
            alpha = np.minimum(np.clip((1 - radius) * half_h * side / 2.0, 0, 1),
                               np.clip((down - top) * half_h * side + 0.5, 0, 1))[..., None]
        else:
            radius = np.sqrt(across ** 2 + down ** 2)
            alpha = np.clip((1 - radius) * half_h * side / 2.0, 0, 1)[..., None]
            top = -np.sqrt(np.clip(1 - across ** 2, 0, 1))
        depth = np.clip(1 - radius, 0, 1)[..., None]
        inside = MOUTH_EDGE_RGB * (1 - depth) + MOUTH_DEPTH_RGB * depth
        # The upper teeth hang from the upper lip's edge (the top arc), as deep as UPPER_TEETH (times the look's
        # teeth) or most of a small opening, lit in the middle and shaded toward the corners and just under the lip.
        teeth_depth = min(UPPER_TEETH * self.teeth, 0.5 * opening * (2 if self.smile else 1)) / half_h
        below_lip = (down - top) / max(teeth_depth, 1e-6)
        teeth = (np.clip((1 - below_lip) * teeth_depth * half_h * side, 0, 1)
                 * np.clip((TEETH_HALF_WIDTH - np.abs(across)) / 0.2, 0, 1))
        shade = (1 - 0.5 * (across / TEETH_HALF_WIDTH) ** 2) * (0.86 + 0.14 * np.clip(below_lip * 2.5, 0, 1))
        inside = inside * (1 - teeth[..., None]) + (TEETH_RGB * shade[..., None]) * teeth[..., None]
        face[box] = (face[box] * (1 - alpha) + inside * alpha + 0.5).astype(np.uint8)


class LiteTalkingPortrait(VideoEngine):
    """A 2-D warp rig: loudness-driven jaw, lip rounding, blinks, head sway, per-emotion expression and grade."""

    name = "lite: portrait warp rig (loudness lip-sync)"
    supported_settings = frozenset({"emotion_intensity", "seed"})

    def animate(self, portrait: np.ndarray, speech: Speech, emotion: str | Expression,
                settings: GenerationSettings) -> Animation:
        """The portrait speaking, with the expression's look (an emotion label alone is mirrored)."""
        expression = as_expression(emotion)
        look = LOOKS[expression.lite_face]
        layout = portrait_layout(portrait)
        samples = np.asarray(speech.samples, np.float32)[: int(MAX_SPEECH_SECONDS * speech.sample_rate)]
        frame_count = int(round(len(samples) / speech.sample_rate * FPS))
        if frame_count == 0:
            raise MissingInputError("There is no speech to animate.")
        strength = float(np.clip(settings.emotion_intensity, 0.0, MAX_INTENSITY)) * expression.intensity
        rng = np.random.default_rng(settings.seed)

        frame = color_grade(framed_portrait(portrait, layout), look, strength)
        rig = _Rig(frame, layout, look, strength)

        jaw, rounding = mouth_shapes(samples, speech.sample_rate, frame_count)
        blinks = blink_curve(frame_count, rng)
        times = np.arange(frame_count) / FPS
        # Expressions set in over the first 0.6 s rather than starting fully formed.
        expression = strength * (0.4 + 0.6 * _smoothstep(times / 0.6))
        rates, phases = rng.uniform([0.15, 0.4, 0.1, 0.2], [0.3, 0.7, 0.25, 0.35]), rng.uniform(0, 2 * np.pi, 4)
        waves = np.sin(2 * np.pi * rates[:, None] * times + phases[:, None])
        sway = 1 + (look.sway - 1) * strength
        roll = look.tilt * strength + HEAD_SWAY_DEGREES * sway * (0.65 * waves[0] + 0.35 * waves[1])
        # The head dips slightly with the speech's slow loudness envelope, as speakers nod on stresses.
        emphasis = moving_average(jaw, 8)
        side = layout.face_side
        shift_x = 0.012 * side * sway * waves[2]
        shift_y = side * (look.lift * strength + 0.015 * emphasis + 0.006 * waves[3])

        frames = (rig.render(float(jaw[i]), float(rounding[i]), float(blinks[i]), float(expression[i]),
                             float(roll[i]), (float(shift_x[i]), float(shift_y[i]))) for i in range(frame_count))
        return Animation(frames, float(FPS), frame_count, replace(speech, samples=samples))
