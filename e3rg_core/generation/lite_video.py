"""Lite talking portrait: a CPU 2-D rig that animates one photo with the speech and a coarse emotion.

The face box from faces.largest_face places a fixed set of anchors (mouth, eyes, brows, cheeks) at typical
positions for a frontal face. Each frame is two warps with precomputed grids:
  1. a face warp that opens the jaw with the speech's loudness, rounds the lips on dark (low-centroid)
     vowels, closes the eyes for blinks and holds the emotion's expression; the opened lips get a dark
     mouth interior;
  2. a head warp that sways and nods the head (masked, so the background barely moves).
The emotion also grades the colours once per render. Per frame the work is a few array sums and two
cv2.remap calls over the face and head regions only.
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
MAX_FRAME_SIDE = 512
MIN_FRAME_SIDE = 256        # small photos are scaled up so the mouth spans enough pixels to animate
FRAME_MARGIN = 0.7          # the frame is the face box grown by this on each side: head, hair and neck
MAX_INTENSITY = 2.0         # beyond this the warps start to fold over

# Anchor positions in face-box units (u right, v down from the box's top-left), for a frontal face as the
# Haar cascade frames it (brows near 0.26, eyes near 0.38, lips meet near 0.82, chin just below the box).
ANCHORS: dict[str, tuple[float, float, float]] = {      # name: (u, v, sigma)
    "brow_inner_l": (0.40, 0.26, 0.06), "brow_inner_r": (0.60, 0.26, 0.06),
    "brow_outer_l": (0.24, 0.26, 0.07), "brow_outer_r": (0.76, 0.26, 0.07),
    "upper_lid_l": (0.29, 0.33, 0.05), "upper_lid_r": (0.71, 0.33, 0.05),
    "lower_lid_l": (0.29, 0.44, 0.045), "lower_lid_r": (0.71, 0.44, 0.045),
    "cheek_l": (0.28, 0.62, 0.09), "cheek_r": (0.72, 0.62, 0.09),
    "upper_lip": (0.50, 0.76, 0.06),
    "corner_l": (0.33, 0.82, 0.05), "corner_r": (0.67, 0.82, 0.05),
}
EYES = ((0.29, 0.38), (0.71, 0.38))
EYE_HALF_SIZE = (0.085, 0.04)
LIPS_MEET = 0.82
CHIN = 1.02
MOUTH_HALF_WIDTH = 0.17
MOUTH_GAP = 0.075           # jaw drop at full loudness, in face widths
LIP_ROUNDING = 0.35         # how far rounding pulls the mouth corners in, per unit of distance from centre
NECK = (0.5, 1.3)           # the head turns about this point
HEAD_SWAY_DEGREES = 1.4
BLINK_PROFILE = (0.45, 0.9, 1.0, 0.6, 0.25)


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


# Facial moves follow FACS prototypes (Ekman & Friesen): happy AU6+12, sad AU1+4+15, surprised AU1+2+5+26,
# angry AU4+5+7+23, fear AU1+2+4+5+20+26, disgusted AU9+10+15, contempt unilateral AU12+14.
LOOKS: dict[str, Look] = {
    "neutral": Look(),
    "happy": Look(
        moves=(("corner_l", -0.015, -0.03), ("corner_r", 0.015, -0.03), ("cheek_l", 0.0, -0.015),
               ("cheek_r", 0.0, -0.015), ("lower_lid_l", 0.0, -0.01), ("lower_lid_r", 0.0, -0.01)),
        gains=(1.05, 1.02, 0.95), saturation=1.12, brightness=0.03, sway=1.2),
    "sad": Look(
        moves=(("corner_l", 0.0, 0.025), ("corner_r", 0.0, 0.025), ("brow_inner_l", 0.005, -0.025),
               ("brow_inner_r", -0.005, -0.025), ("brow_outer_l", 0.0, 0.012), ("brow_outer_r", 0.0, 0.012),
               ("upper_lid_l", 0.0, 0.008), ("upper_lid_r", 0.0, 0.008)),
        gains=(0.95, 0.98, 1.06), saturation=0.75, brightness=-0.05, sway=0.6, tilt=2.0, lift=0.02),
    "surprised": Look(
        moves=(("brow_inner_l", 0.0, -0.035), ("brow_inner_r", 0.0, -0.035), ("brow_outer_l", 0.0, -0.035),
               ("brow_outer_r", 0.0, -0.035), ("upper_lid_l", 0.0, -0.015), ("upper_lid_r", 0.0, -0.015)),
        gains=(1.02, 1.02, 1.03), saturation=1.08, brightness=0.05, sway=1.1, lift=-0.015, mouth_rest=0.3),
    "angry": Look(
        moves=(("brow_inner_l", 0.012, 0.03), ("brow_inner_r", -0.012, 0.03), ("upper_lid_l", 0.0, 0.01),
               ("upper_lid_r", 0.0, 0.01), ("lower_lid_l", 0.0, -0.008), ("lower_lid_r", 0.0, -0.008),
               ("corner_l", 0.006, 0.01), ("corner_r", -0.006, 0.01)),
        gains=(1.10, 0.96, 0.92), saturation=1.1, brightness=-0.02, sway=1.3, lift=0.01),
    "fear": Look(
        moves=(("brow_inner_l", 0.004, -0.03), ("brow_inner_r", -0.004, -0.03), ("brow_outer_l", 0.0, -0.015),
               ("brow_outer_r", 0.0, -0.015), ("upper_lid_l", 0.0, -0.015), ("upper_lid_r", 0.0, -0.015),
               ("corner_l", -0.015, 0.008), ("corner_r", 0.015, 0.008)),
        gains=(0.95, 1.02, 1.05), saturation=0.8, brightness=-0.06, sway=0.8, lift=0.01, mouth_rest=0.15),
    "disgusted": Look(
        moves=(("upper_lip", 0.0, -0.02), ("brow_inner_l", 0.008, 0.015), ("brow_inner_r", -0.008, 0.015),
               ("cheek_l", 0.0, -0.012), ("cheek_r", 0.0, -0.012), ("corner_l", 0.0, 0.01),
               ("corner_r", 0.0, 0.01), ("lower_lid_l", 0.0, -0.008), ("lower_lid_r", 0.0, -0.008)),
        gains=(0.98, 1.05, 0.92), saturation=0.9, brightness=-0.02, tilt=-1.5),
    "contempt": Look(
        moves=(("corner_r", 0.012, -0.025), ("cheek_r", 0.0, -0.01)),
        gains=(1.0, 0.98, 0.98), saturation=0.9, brightness=-0.02, sway=0.8, tilt=-2.0, lift=-0.01),
}


@dataclass(frozen=True)
class PortraitLayout:
    """Where the portrait's face lies in the square output frame."""
    crop: Box               # the square of the portrait that fills the frame (portrait pixels)
    size: int               # frame side in pixels (even)
    face_x: float           # face box's top-left corner and side, in frame pixels
    face_y: float
    face_side: float

    def point(self, u: float, v: float) -> tuple[float, float]:
        return self.face_x + u * self.face_side, self.face_y + v * self.face_side

    def region(self, u0: float, v0: float, u1: float, v1: float) -> Box:
        """The frame pixels between two face-unit corners, clipped to the frame."""
        x0, y0 = (int(np.clip(round(c), 0, self.size)) for c in self.point(u0, v0))
        x1, y1 = (int(np.clip(round(c), 0, self.size)) for c in self.point(u1, v1))
        return Box(x0, y0, x1 - x0, y1 - y0)

    def mouth_box(self) -> Box:
        """The pixels that speaking changes: the lips, the opened mouth and the chin."""
        return self.region(0.5 - MOUTH_HALF_WIDTH - 0.06, LIPS_MEET - 0.08, 0.5 + MOUTH_HALF_WIDTH + 0.06,
                           LIPS_MEET + MOUTH_GAP * 2 + 0.04)


def portrait_layout(portrait: np.ndarray) -> PortraitLayout:
    face = largest_face(portrait)
    crop = face.expanded_square(FRAME_MARGIN, portrait.shape)
    size = int(np.clip(crop.width, MIN_FRAME_SIDE, MAX_FRAME_SIDE)) // 2 * 2
    scale = size / crop.width
    return PortraitLayout(crop=crop, size=size, face_x=(face.x - crop.x) * scale,
                          face_y=(face.y - crop.y) * scale, face_side=face.width * scale)


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
    rounding = np.convolve(rounding, np.ones(3) / 3, mode="same").astype(np.float32)
    return jaw, rounding


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


class _Rig:
    """The precomputed grids and images for one portrait with one emotion."""

    def __init__(self, frame: np.ndarray, layout: PortraitLayout, look: Look, strength: float):
        self.frame = frame
        self.layout = layout
        side = layout.face_side
        self.face_roi = layout.region(-0.2, 0.0, 1.2, 1.45)
        self.face_u, self.face_v, self.face_grid = self._grid(self.face_roi)
        u, v = self.face_u, self.face_v
        # Expression: Gaussian bumps of displacement around the anchors (content moves by +d, so maps take -d).
        self.expression = np.zeros((2, *u.shape), np.float32)
        for anchor, dx, dy in look.moves:
            au, av, sigma = ANCHORS[anchor]
            bump = np.exp(-((u - au) ** 2 + (v - av) ** 2) / (2 * sigma ** 2)) * side
            self.expression[0] -= dx * bump
            self.expression[1] -= dy * bump
        # Jaw: everything from where the lips meet down to the chin drops; the lens shape comes from the
        # narrow horizontal profile. The step's width keeps the map monotonic at the widest opening.
        below_lips = 1 / (1 + np.exp(-(v - LIPS_MEET) / (MOUTH_GAP * 0.3)))
        below_chin = np.where(v > CHIN, np.exp(-((v - CHIN) / 0.1) ** 2), 1.0)
        self.jaw = -(np.exp(-((u - 0.5) / 0.16) ** 2 / 2) * below_lips * below_chin * side).astype(np.float32)
        self.rounding = ((u - 0.5) * np.exp(-((u - 0.5) / 0.2) ** 2 - ((v - LIPS_MEET) / 0.06) ** 2)
                         * LIP_ROUNDING * side).astype(np.float32)
        self.mouth_rest = look.mouth_rest * strength
        self.closed_eyes, self.eye_alpha, self.eye_roi = self._closed_eyes()
        self._build_head_warp()

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
        work = self.frame.copy()
        if blink > 0:
            roi = self.eye_roi
            view = work[roi.y:roi.y + roi.height, roi.x:roi.x + roi.width]
            weight = self.eye_alpha * blink
            view[:] = (view * (1 - weight) + self.closed_eyes * weight + 0.5).astype(np.uint8)
        opening = max(jaw, self.mouth_rest) * MOUTH_GAP
        xs, ys = self.face_grid
        map_x = xs + expression * self.expression[0] + rounding * self.rounding
        map_y = ys + expression * self.expression[1] + opening * self.jaw
        face = cv2.remap(work, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        self._paint_mouth(face, opening, rounding)
        roi = self.face_roi
        work[roi.y:roi.y + roi.height, roi.x:roi.x + roi.width] = face
        # The head turns by roll about the neck and shifts; sampling uses the inverse motion.
        angle = np.deg2rad(roll_degrees)
        cos_1, sin = float(np.cos(angle)) - 1, float(np.sin(angle))
        xs, ys = self.head_grid
        map_x = xs + cos_1 * self.head_mx + sin * self.head_my - shift[0] * self.head_mask
        map_y = ys - sin * self.head_mx + cos_1 * self.head_my - shift[1] * self.head_mask
        roi = self.head_roi
        work[roi.y:roi.y + roi.height, roi.x:roi.x + roi.width] = cv2.remap(
            work, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        return work

    def _paint_mouth(self, face: np.ndarray, opening: float, rounding: float) -> None:
        """Darken the gap between the parted lips, an ellipse from where they met down to the lower lip."""
        side = self.layout.face_side
        half_h = opening / 2
        if half_h * side < 0.5:
            return
        half_w = MOUTH_HALF_WIDTH * (0.55 + 3.5 * opening) * (1 - 0.3 * rounding)
        center_v = LIPS_MEET + half_h
        rows = np.flatnonzero(np.abs(self.face_v[:, 0] - center_v) <= half_h + 2 / side)
        cols = np.flatnonzero(np.abs(self.face_u[0] - 0.5) <= half_w + 2 / side)
        if not len(rows) or not len(cols):
            return
        box = np.s_[rows[0]:rows[-1] + 1, cols[0]:cols[-1] + 1]
        radius = np.sqrt(((self.face_u[box] - 0.5) / half_w) ** 2 + ((self.face_v[box] - center_v) / half_h) ** 2)
        alpha = np.clip((1 - radius) * half_h * side / 1.2, 0, 1)[..., None]
        depth = np.clip(1 - radius, 0, 1)[..., None]
        inside = np.asarray([120, 52, 55], np.float32) * (1 - depth) + np.asarray([48, 14, 18], np.float32) * depth
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

        crop = layout.crop
        square = portrait[crop.y:crop.y + crop.height, crop.x:crop.x + crop.width]
        interpolation = cv2.INTER_AREA if crop.width > layout.size else cv2.INTER_CUBIC
        frame = color_grade(cv2.resize(square, (layout.size, layout.size), interpolation=interpolation),
                            look, strength)
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
        emphasis = np.convolve(jaw, np.ones(8) / 8, mode="same")
        side = layout.face_side
        shift_x = 0.012 * side * sway * waves[2]
        shift_y = side * (look.lift * strength + 0.015 * emphasis + 0.006 * waves[3])

        frames = (rig.render(float(jaw[i]), float(rounding[i]), float(blinks[i]), float(expression[i]),
                             float(roll[i]), (float(shift_x[i]), float(shift_y[i]))) for i in range(frame_count))
        return Animation(frames, float(FPS), frame_count, replace(speech, samples=samples))
