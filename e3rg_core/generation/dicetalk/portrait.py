"""The portrait as DICE-Talk sees it: optionally cropped square around the face, resized so the short side is
512 with both sides multiples of 64, and a face mask (the face box grown 1.1x about its centre).

The face box comes from the project's one detector (faces.largest_face), not upstream's yolov5-face.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from PIL import Image

from ...errors import InputError
from ...faces import Box, largest_face

SHORT_SIDE = 512
SIDE_MULTIPLE = 64          # three VAE/UNet halvings plus RIFE's 1/4-scale flow need this
MAX_ASPECT = 2.0            # uncropped portraits longer than this would multiply the generation cost
CROP_MARGIN = 0.5           # the square crop grows the face box by this on each side
FACE_MASK_SCALE = 1.1
CLIP_SIZE = 224


@dataclass(frozen=True)
class PreparedPortrait:
    image: np.ndarray        # (H, W, 3) uint8 at generation size
    face_mask: np.ndarray    # (H, W) float32 in [0, 1]
    clip_image: np.ndarray   # (224, 224, 3) uint8, what the CLIP image processor receives


def generation_size(width: int, height: int, short_side: int = SHORT_SIDE) -> tuple[int, int]:
    scale = short_side / min(width, height)
    return (max(SIDE_MULTIPLE, round(width * scale / SIDE_MULTIPLE) * SIDE_MULTIPLE),
            max(SIDE_MULTIPLE, round(height * scale / SIDE_MULTIPLE) * SIDE_MULTIPLE))


def face_mask(box: Box, shape: tuple[int, ...]) -> np.ndarray:
    """(H, W) uint8: 255 inside the face box grown FACE_MASK_SCALE times about its centre."""
    mask = np.zeros(shape[:2], np.uint8)
    centre_x, centre_y = box.x + box.width // 2, box.y + box.height // 2
    half_width, half_height = box.width * FACE_MASK_SCALE / 2, box.height * FACE_MASK_SCALE / 2
    left, top = int(max(centre_x - half_width, 0)), int(max(centre_y - half_height, 0))
    right, bottom = int(min(centre_x + half_width, shape[1])), int(min(centre_y + half_height, shape[0]))
    mask[top:bottom, left:right] = 255
    return mask


def prepare_portrait(rgb: np.ndarray, crop: bool, short_side: int = SHORT_SIDE) -> PreparedPortrait:
    """Raises NoFaceError when no face is found, InputError for an uncropped portrait that is too elongated."""
    box = largest_face(rgb)
    if crop:
        square = box.expanded_square(CROP_MARGIN, rgb.shape)
        rgb = rgb[square.y:square.y + square.height, square.x:square.x + square.width]
        box = Box(box.x - square.x, box.y - square.y, box.width, box.height)
    height, width = rgb.shape[:2]
    if max(width, height) > MAX_ASPECT * min(width, height):
        raise InputError(f"The portrait is {width}x{height}; use one closer to square, or crop it to the face.")
    size = generation_size(width, height, short_side)
    image = Image.fromarray(rgb).resize(size, Image.LANCZOS)
    mask = Image.fromarray(face_mask(box, rgb.shape)).resize(size, Image.LANCZOS)
    return PreparedPortrait(image=np.array(image), face_mask=np.asarray(mask, np.float32) / 255,
                            clip_image=np.asarray(image.resize((CLIP_SIZE, CLIP_SIZE), Image.LANCZOS)))
