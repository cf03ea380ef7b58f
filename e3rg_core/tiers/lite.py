"""The lite tier: CPU engines on models shipped inside Python packages. It serves alone offline, and stands behind
the full tier for whatever a GPU call does not finish."""
from __future__ import annotations

import logging
from functools import lru_cache
from pathlib import Path

from ..contracts import Dialogue, EngineSet, SpeechEngine
from ..dialogue import load_dialogues
from ..errors import CheckpointMismatchError, EngineUnavailableError
from ..runner import Tier
from ..understanding.reply_ranker import ReplyRanker
from ..understanding.topic_writer import TopicReplyWriter
from ..understanding.transcriber import Transcriber

log = logging.getLogger(__name__)

EXAMPLE_DIALOGUES = Path(__file__).resolve().parents[2] / "examples" / "dialogues.json"


@lru_cache(maxsize=1)
def lite_tier() -> Tier:
    """The CPU engines, with a notice for each that could not load; loaded once per process and shared (they hold
    no request state)."""
    from ..generation.lite_video import LiteTalkingPortrait
    from ..understanding.face_voter import FaceEmotionVoter
    from ..understanding.prosody_voter import VoiceProsodyVoter
    from ..understanding.situation_voter import SituationEmotionVoter
    from ..understanding.text_emotion import TextEmotionVoter
    from ..understanding.word_emotion import WordEmotionVoter

    import torch
    from threadpoolctl import threadpool_limits
    # The lite models are small: one intra-op thread each keeps concurrent requests from oversubscribing the
    # Space's two vCPUs, where OpenMP threads spinning against each other made them an order of magnitude slower.
    torch.set_num_threads(1)
    # numpy's OpenBLAS likewise: called from several turns' threads at once on a loaded 2-core machine, its threads
    # spun waiting for each other until every turn hung in a matrix product (librosa's mel filter; issue 25's soak).
    import scipy.linalg  # noqa: F401  (loads scipy's own OpenBLAS, so that the limit covers it too)
    threadpool_limits(1, user_api="blas")
    # OpenCV's own pool too: each turn's face search and video rendering split across both cores, and four
    # turns at once spent a quarter of their time in the face cascade's threads (py-spy, 8 turns sent at once).
    import cv2
    cv2.setNumThreads(1)
    notices: list[str] = []
    voters = []
    # Every text turn gets a real vote: the two ED-trained heads and the situation prototypes read the words,
    # with weights fitted together on ED's valid split (MODEL_CARD.md); face and voice abstain without signal.
    for voter_class in (TextEmotionVoter, WordEmotionVoter, SituationEmotionVoter, FaceEmotionVoter):
        try:
            voters.append(voter_class.from_pretrained())
        except EngineUnavailableError as error:
            log.warning("%s unavailable: %s", voter_class.__name__, error)
            notices.append(f"A lite voter is unavailable here ({error}).")
    voters.append(VoiceProsodyVoter())
    # A reaction and a question about what the story concerns, reflective listening behind (docs/lite_replies.md).
    engines = EngineSet(voters=voters, writer=TopicReplyWriter(ranker=_reply_ranker(notices)),
                        speech=_cpu_speech_engine(),
                        video=LiteTalkingPortrait())
    return Tier("lite", engines, notices=tuple(notices))


def _reply_ranker(notices: list[str]) -> ReplyRanker | None:
    """The map of ED listeners' replies that orders the writer's lines; without it the writer picks at random."""
    try:
        return ReplyRanker.from_pretrained()
    except (EngineUnavailableError, CheckpointMismatchError, OSError) as error:
        log.warning("reply ranker unavailable: %s", error)
        notices.append(f"The lite writer's listener map is unavailable here ({error}).")
        return None


def lite_engines() -> EngineSet:
    return lite_tier().engines


def _cpu_speech_engine() -> SpeechEngine:
    """OpenVoice when its official weights are already in the local hub cache (it is small enough for the CPU),
    else the package-shipped hibari voice."""
    from ..generation.lite_speech import LiteSpeechEngine
    from ..generation.openvoice import OpenVoiceSpeechEngine
    try:
        return OpenVoiceSpeechEngine.from_pretrained(device="cpu", local_files_only=True)
    except (EngineUnavailableError, CheckpointMismatchError) as error:
        log.info("OpenVoice weights not cached locally (%s); using hibari-tts", error)
        return LiteSpeechEngine()


def lite_supported_settings() -> frozenset[str]:
    """The generation settings the lite engines honour (read from their classes, so nothing loads)."""
    from ..generation.lite_speech import LiteSpeechEngine
    from ..generation.lite_video import LiteTalkingPortrait
    from ..generation.openvoice import OpenVoiceSpeechEngine
    return (LiteSpeechEngine.supported_settings | OpenVoiceSpeechEngine.supported_settings
            | LiteTalkingPortrait.supported_settings)


@lru_cache(maxsize=1)
def transcriber() -> Transcriber | None:
    try:
        return Transcriber()
    except EngineUnavailableError as error:
        log.warning("no transcriber: %s", error)
        return None


@lru_cache(maxsize=1)
def example_pool() -> tuple[Dialogue, ...]:
    return tuple(load_dialogues(EXAMPLE_DIALOGUES))
