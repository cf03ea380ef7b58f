"""The E3RG cascade for one turn: understand (vote an emotion, write a reply conditioned on it), recall the
listener avatar, then generate its speech and talking-head video.

`respond` yields a growing Reply after each stage so a UI can show the emotion and the text before the media.
"""
from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

from .dialogue import Dialogue, Utterance, history_json
from .emotions import coarse_of
from .engines import AudioClip, EmotionResult, EngineSet, GenerationSettings, UnderstandingRequest, VideoClip
from .errors import InputError, MissingInputError, TextTooLongError
from .limits import MAX_REPLY_CHARS, MAX_REPLY_TOKENS, MAX_TEXT_CHARS
from .media import load_audio, load_video, require_sound, write_wav
from .memory.avatars import Avatar, AvatarStore
from .understanding.prompts import clean_reply, sample_examples
from .understanding.template_writer import TemplateReplyWriter
from .understanding.transcriber import Transcriber
from .understanding.voting import decide

log = logging.getLogger(__name__)

STAGES = ("understanding", "memory", "speech", "video")


@dataclass(frozen=True)
class ResponseRequest:
    history: tuple[Utterance, ...] = ()
    text: str = ""
    audio_path: str | None = None
    video_path: str | None = None
    avatar: str = ""
    k_shot: int = 0
    context: str = ""
    settings: GenerationSettings = field(default_factory=GenerationSettings)
    conversation_id: str = ""


@dataclass
class Reply:
    """What one turn produced so far; fields fill in stage by stage."""
    heard_text: str = ""
    transcribed: bool = False
    emotion: EmotionResult | None = None
    text: str = ""
    wav_path: Path | None = None
    mp4_path: Path | None = None
    engines: dict[str, str] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)
    notices: list[str] = field(default_factory=list)
    avatar: str = ""
    history: tuple[Utterance, ...] = ()
    stage: str = "started"

    def to_json(self) -> dict:
        emotion = self.emotion
        return {
            "emotion": None if emotion is None else {
                "fine": emotion.fine, "coarse": emotion.coarse, "decided_by": emotion.decided_by,
                "votes": [asdict(v) | {"coarse": coarse_of(v.label)} for v in emotion.votes]},
            "heard_text": self.heard_text, "transcribed": self.transcribed,
            "reply": self.text, "avatar": self.avatar, "history": history_json(self.history),
            "wav": self.wav_path.name if self.wav_path else None,
            "mp4": self.mp4_path.name if self.mp4_path else None,
            "engines": dict(self.engines), "seconds": {k: round(v, 3) for k, v in self.seconds.items()},
            "notices": list(self.notices),
        }


class E3RGPipeline:
    def __init__(self, engines: EngineSet, avatars: AvatarStore, example_pool: list[Dialogue],
                 transcriber: Transcriber | None = None):
        self.engines = engines
        self.avatars = avatars
        self.example_pool = example_pool
        self.transcriber = transcriber

    # -- input -----------------------------------------------------------------------------------
    def _decode(self, request: ResponseRequest) -> tuple[AudioClip | None, VideoClip | None]:
        video = audio = None
        if request.video_path:
            video, video_audio = load_video(request.video_path)
            if video_audio is not None and not request.audio_path:
                try:
                    audio = require_sound(video_audio, "The video's audio")
                except InputError:
                    audio = None   # a silent video track is no error; the voice voter just abstains
        if request.audio_path:
            audio = load_audio(request.audio_path)
        return audio, video

    def understanding_request(self, request: ResponseRequest, reply: Reply) -> UnderstandingRequest:
        """Check and decode the turn; the latest utterance is the text, or the transcript of the audio."""
        text = (request.text or "").strip()
        if len(text) > MAX_TEXT_CHARS:
            raise TextTooLongError(f"The message is {len(text)} characters; the limit is {MAX_TEXT_CHARS}.")
        if not text and not request.audio_path and not request.video_path:
            raise MissingInputError("Give your latest turn as text, audio or video.")
        audio, video = self._decode(request)
        if not text and audio is not None and self.transcriber is not None:
            started = time.perf_counter()
            text = self.transcriber.transcribe(audio)
            reply.transcribed = bool(text)
            reply.engines["transcript"] = self.transcriber.name
            reply.seconds["transcript"] = time.perf_counter() - started
        reply.heard_text = text
        index = len(request.history)
        history = (*request.history, Utterance(index=index, role="speaker", utterance=text))
        query = UnderstandingRequest(history=history, context=request.context, audio=audio, video=video)
        examples = sample_examples(self.example_pool, request.k_shot, query, request.conversation_id,
                                   seed=request.settings.seed or 0)
        return replace(query, examples=examples)

    # -- stages ----------------------------------------------------------------------------------
    def understand(self, query: UnderstandingRequest, notices: list[str]) -> EmotionResult:
        """Every voter votes (a broken voter abstains with a notice); the vote decides."""
        votes = []
        for voter in self.engines.voters:
            try:
                vote = voter.vote(query)
            except InputError:
                raise
            except Exception as error:  # one broken voter must not sink the vote
                log.exception("voter %s failed", voter.name)
                notices.append(f"{voter.name} could not vote ({type(error).__name__}).")
                continue
            if vote is not None:
                votes.append(vote)
        return decide(votes, {v.name: v.priority for v in self.engines.voters})

    def write(self, query: UnderstandingRequest, emotion: EmotionResult, notices: list[str]) -> Iterator[str]:
        """The reply so far after each piece the writer streams; the last item is the cleaned reply."""
        pieces = []
        for piece in self.engines.writer.write(query, emotion, MAX_REPLY_TOKENS):
            pieces.append(piece)
            yield "".join(pieces)
        text = clean_reply("".join(pieces), MAX_REPLY_CHARS)
        if not text:
            notices.append("The reply writer produced no usable text; a template reply was used.")
            text = "".join(TemplateReplyWriter().write(query, emotion, MAX_REPLY_TOKENS))
        yield text

    def respond(self, request: ResponseRequest, workdir: Path, avatar: Avatar | None = None) -> Iterator[Reply]:
        """Run the cascade in workdir (one per request), yielding the reply after each stage.

        avatar overrides the request's avatar name (for avatars uploaded in a browser session)."""
        workdir.mkdir(parents=True, exist_ok=True)
        reply = Reply(notices=list(self.engines.notices))
        started = time.perf_counter()
        avatar = avatar or self.avatars.get(request.avatar)
        query = self.understanding_request(request, reply)
        reply.history = query.history
        reply.avatar = avatar.name

        reply.emotion = self.understand(query, reply.notices)
        reply.engines["emotion"] = reply.emotion.voted_by
        reply.seconds["emotion"] = time.perf_counter() - started
        reply.stage = "emotion"
        yield reply

        started = time.perf_counter()
        reply.stage = "text-streaming"
        for reply.text in self.write(query, reply.emotion, reply.notices):
            yield reply
        reply.engines["text"] = self.engines.writer.name
        reply.seconds["text"] = time.perf_counter() - started
        reply.stage = "text"
        yield reply

        yield from self._generate(reply, avatar, request.settings, workdir)

    def _generate(self, reply: Reply, avatar: Avatar, settings: GenerationSettings,
                  workdir: Path) -> Iterator[Reply]:
        started = time.perf_counter()
        portrait = avatar.portrait()
        reply.seconds["memory"] = time.perf_counter() - started
        started = time.perf_counter()
        speech = self.engines.speech.synthesize(reply.text, reply.emotion.coarse, avatar, settings)
        reply.wav_path = write_wav(workdir / "reply.wav", speech.samples, speech.sample_rate)
        reply.engines["speech"] = speech.engine
        reply.seconds["speech"] = time.perf_counter() - started
        reply.stage = "speech"
        yield reply

        started = time.perf_counter()
        video = self.engines.video.render(portrait, speech, reply.emotion.coarse, settings, workdir / "reply.mp4")
        reply.mp4_path = video.path
        reply.engines["video"] = video.engine
        reply.seconds["video"] = time.perf_counter() - started
        reply.stage = "done"
        yield reply

    def run(self, request: ResponseRequest, workdir: Path) -> Reply:
        reply = None
        for reply in self.respond(request, workdir):
            pass
        (workdir / "reply.json").write_text(json.dumps(reply.to_json(), indent=2), encoding="utf-8")
        return reply

