"""Face finding is shared by the face voter, avatar checks and the lite portrait, which run in concurrent requests."""
import concurrent.futures

from e3rg_core.faces import detect_faces, largest_face
from e3rg_core.memory.avatars import AvatarStore


def test_concurrent_requests_find_the_same_face():
    portrait = AvatarStore().get("ava").portrait()
    expected = largest_face(portrait)

    def detect(_):
        return [detect_faces(portrait)[0] for _ in range(25)]

    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        found = [box for boxes in pool.map(detect, range(4)) for box in boxes]
    assert len(found) == 100 and set(found) == {expected}
