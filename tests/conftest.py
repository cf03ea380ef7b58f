"""Fixtures shared by several test files."""
import socket

import pytest


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server():
    """The app launched on localhost as the Space launches it (the lite tier here), its URL with a trailing slash."""
    import app
    port = free_port()
    app.demo.launch(server_name="127.0.0.1", server_port=port, prevent_thread_lock=True, quiet=True,
                    **app.LAUNCH_OPTIONS)
    yield f"http://127.0.0.1:{port}/"
    app.demo.close()


@pytest.fixture(scope="module")
def one_torch_thread():
    """Torch on one thread: golden comparisons stay bit-stable and parallel BLAS does not fight the other
    libraries (ffmpeg, ctranslate2) for the two cores."""
    import torch
    previous = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(previous)


@pytest.fixture(scope="module")
def quick_lite():
    """The lite tier's engines with one text voter (the situation prototypes) instead of three, to keep tests
    quick; the writer is the lite tier's own."""
    # Imported here: every test run reads this file, most of them without any engine.
    from e3rg_core.contracts import EngineSet
    from e3rg_core.generation.lite_speech import LiteSpeechEngine
    from e3rg_core.generation.lite_video import LiteTalkingPortrait
    from e3rg_core.runner import Tier
    from e3rg_core.understanding.face_voter import FaceEmotionVoter
    from e3rg_core.understanding.prosody_voter import VoiceProsodyVoter
    from e3rg_core.understanding.reply_ranker import ReplyRanker
    from e3rg_core.understanding.situation_voter import SituationEmotionVoter
    from e3rg_core.understanding.topic_writer import TopicReplyWriter
    return Tier("lite", EngineSet(voters=[SituationEmotionVoter.from_pretrained(), FaceEmotionVoter.from_pretrained(),
                                          VoiceProsodyVoter()],
                                  writer=TopicReplyWriter(ranker=ReplyRanker.from_pretrained()),
                                  speech=LiteSpeechEngine(),
                                  video=LiteTalkingPortrait()))
