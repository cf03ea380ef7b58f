"""The listener avatars (memory/avatars.py): the built-in ones, each a face, a voice of its own and a recorded
source; a portrait without a face is refused."""
import re
from pathlib import Path

import numpy as np
import pytest
from support.pitch import semitones

from e3rg_core.errors import NoFaceError
from e3rg_core.faces import largest_face
from e3rg_core.generation.lite_speech import median_f0
from e3rg_core.memory.avatars import AvatarStore
from e3rg_core.tiers.lite import EXAMPLE_DIALOGUES

ROOT = Path(__file__).resolve().parents[2]


def test_builtin_avatars_have_faces_distinct_voices_and_recorded_sources():
    store = AvatarStore()
    readme = (ROOT / "assets" / "README.md").read_text()
    pitches = {}
    for name in store.names():
        avatar = store.get(name)
        largest_face(avatar.portrait())
        pitches[name] = median_f0(avatar.reference_voice(24_000))
        assert any(licence in avatar.source.lower() for licence in ("public domain", "cc0", "mit-licensed"))
        assert re.search(rf"`avatars/{name}/portrait\.jpg`.*\|.*\|", readme), name
        assert re.search(rf"`avatars/{name}/voice\.wav`.*\|.*\|", readme), name
    print(f"\nreference pitches: {pitches}")
    assert len(pitches) >= 2
    ordered = sorted(pitches.values())
    assert all(semitones(high, low) > 2.0 for low, high in zip(ordered, ordered[1:]))
    assert store.get("ava").profile.gender == "female" and 165 < pitches["ava"] < 255
    assert store.get("luis").profile.gender == "male" and 100 < pitches["luis"] < 160
    profiles = [store.get(name).profile for name in ("ava", "grace", "luis")]
    assert len({profile.age for profile in profiles}) == 3 and len({profile.gender for profile in profiles}) == 2


def test_avatar_without_a_face_is_refused(tmp_path):
    from PIL import Image
    plain = tmp_path / "wall.png"
    Image.fromarray(np.tile(np.linspace(0, 255, 256, dtype=np.uint8), (256, 1))).convert("RGB").save(plain)
    with pytest.raises(NoFaceError, match="no face"):
        AvatarStore(tmp_path).create("wall", plain, EXAMPLE_DIALOGUES.parent / "turn_audio.wav")
