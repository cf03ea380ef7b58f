"""Face finding for every stage that needs a face: OpenCV's frontal-face Haar cascade (BSD, no pickles)."""
from __future__ import annotations

import threading
from dataclasses import dataclass

import numpy as np

from .errors import NoFaceError


@dataclass(frozen=True)
class Box:
    x: int
    y: int
    width: int
    height: int

    @property
    def area(self) -> int:
        return self.width * self.height

    def expanded_square(self, ratio: float, image_shape: tuple[int, ...]) -> Box:
        """A square around the box grown by ratio on each side, clipped to the image."""
        side = int(max(self.width, self.height) * (1 + 2 * ratio))
        side = min(side, image_shape[0], image_shape[1])
        cx, cy = self.x + self.width // 2, self.y + self.height // 2
        x = int(np.clip(cx - side // 2, 0, image_shape[1] - side))
        y = int(np.clip(cy - side // 2, 0, image_shape[0] - side))
        return Box(x, y, side, side)


# One cascade per thread: a CascadeClassifier keeps scratch state while it detects, and concurrent requests that
# share one fail inside OpenCV (an assertion in getScaleData).
_per_thread = threading.local()


def _cascade():
    if not hasattr(_per_thread, "cascade"):
        import cv2
        _per_thread.cascade = cv2.CascadeClassifier(cv2.data.haarcascades + "haarcascade_frontalface_default.xml")
    return _per_thread.cascade


def detect_faces(rgb: np.ndarray, min_fraction: float = 0.08) -> list[Box]:
    """Face boxes, largest first; faces narrower than min_fraction of the image's short side are ignored."""
    import cv2
    gray = cv2.equalizeHist(cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY))
    min_side = max(24, int(min(gray.shape) * min_fraction))
    found = _cascade().detectMultiScale(gray, scaleFactor=1.1, minNeighbors=5, minSize=(min_side, min_side))
    boxes = [Box(int(x), int(y), int(w), int(h)) for x, y, w, h in (found if len(found) else [])]
    return sorted(boxes, key=lambda box: box.area, reverse=True)


def largest_face(rgb: np.ndarray, what: str = "The portrait") -> Box:
    boxes = detect_faces(rgb)
    if not boxes:
        raise NoFaceError(f"{what} shows no face that can be found; use a clear, front-facing photo.")
    return boxes[0]
