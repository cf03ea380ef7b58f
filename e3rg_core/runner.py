"""One turn of E3RG on any tier: the one runner (TurnRunner.respond reads top to bottom) and one function per stage.

A tier is data (Tier): its engines, which stages run inside its one GPU call, and that call. Stages report what they
made as events, which the runner applies to the Reply the caller sees growing; what the GPU call did not finish
resumes on the lite engines, with a notice saying why.
"""
from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from enum import Enum
from pathlib import Path

import numpy as np

from .contracts import (Animation, EmotionResult, EmotionVoter, EngineSet, GenerationSettings, ListenerAvatar, Speech,
                        UnderstandingRequest, Utterance, VideoClip, Vote)
from .dialogue import history_json
from .emotions import Expression, coarse_of, expression_for
from .errors import InputError, MissingInputError, TextTooLongError, describe
from .media import encode_animation, load_audio, load_video, require_sound, write_wav
from .memory.avatars import Avatar, AvatarStore
from .self_check import SelfCheck, read_back
from .settings import MAX_REPLY_CHARS, MAX_REPLY_TOKENS, MAX_TEXT_CHARS
from .subtitles import timed_cues, write_srt, write_vtt
from .understanding.prompts import clean_reply, sample_examples
from .understanding.template_writer import TemplateReplyWriter
from .understanding.transcriber import Transcriber
from .understanding.voting import decide

log = logging.getLogger(__name__)


class Stage(str, Enum):
    """E3RG's stages in the order a turn runs them, each named by the output it makes. A stage equals its value, so
    reply.engines[Stage.SPEECH] finds "speech"; the runner writes the plain values, which JSON takes."""
    EMOTION = "emotion"         # understanding: the voters vote and the vote decides
    TEXT = "text"               # the reply, conditioned on the voted emotion
    SPEECH = "speech"           # the reply in the avatar's voice
    VIDEO = "video"             # the avatar's portrait speaking it

    def __str__(self) -> str:
        return self.value


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
    expression: str = ""        # how the listener's voice and face answer it (emotions.Expression.name)
    text: str = ""
    writing: bool = False       # the text is still streaming
    wav_path: Path | None = None
    mp4_path: Path | None = None
    video_stills: VideoClip | None = field(default=None, repr=False)    # a few of its frames, for the self-check
    subtitles: tuple[Path, ...] = ()    # the reply's WebVTT and SRT, timed to the speech
    self_check: SelfCheck | None = None
    finished: list[Stage] = field(default_factory=list)
    engines: dict[str, str] = field(default_factory=dict)      # by Stage value (and "transcript")
    seconds: dict[str, float] = field(default_factory=dict)
    notices: list[str] = field(default_factory=list)
    avatar: str = ""
    history: tuple[Utterance, ...] = ()

    @property
    def done(self) -> bool:
        return len(self.finished) == len(Stage)

    def missing(self) -> str:
        """What is still to be made, in words: 'reply, speech and video'."""
        names = {Stage.EMOTION: "emotion vote", Stage.TEXT: "reply"}
        parts = [names.get(stage, stage.value) for stage in Stage if stage not in self.finished] or ["nothing"]
        return ", ".join(parts[:-1]) + (" and " if len(parts) > 1 else "") + parts[-1]

    def to_json(self) -> dict:
        emotion = self.emotion
        return {
            "emotion": None if emotion is None else {
                "fine": emotion.fine, "coarse": emotion.coarse, "decided_by": emotion.decided_by,
                "votes": [asdict(v) | {"coarse": coarse_of(v.label)} for v in emotion.votes]},
            "expression": self.expression, "heard_text": self.heard_text, "transcribed": self.transcribed,
            "reply": self.text, "avatar": self.avatar, "history": history_json(self.history),
            "wav": self.wav_path.name if self.wav_path else None,
            "mp4": self.mp4_path.name if self.mp4_path else None,
            "subtitles": [path.name for path in self.subtitles],
            "self_check": asdict(self.self_check) if self.self_check else None,
            "engines": dict(self.engines), "seconds": {k: round(v, 3) for k, v in self.seconds.items()},
            "notices": list(self.notices),
        }

    def write_json(self, folder: Path) -> Path:
        """reply.json beside the reply's media: what to_json() says of it."""
        path = folder / "reply.json"
        path.write_text(json.dumps(self.to_json(), indent=2), encoding="utf-8")
        return path


@dataclass(frozen=True)
class CastVote:
    """A vote with its voter's tie-break rank, as plain values (votes cast on the CPU travel to the GPU)."""
    vote: Vote
    priority: int


@dataclass(frozen=True)
class TurnJob:
    """One decoded turn and what its stages have made so far: plain picklable values, so that a GPU call in
    another process can take it."""
    query: UnderstandingRequest
    avatar: ListenerAvatar
    portrait: np.ndarray
    settings: GenerationSettings
    workdir: Path
    # Votes cast before the understanding stage (a GPU tier's CPU voters); None until they are.
    cast_votes: tuple[CastVote, ...] | None = None
    emotion: EmotionResult | None = None
    text: str = ""
    speech: Speech | None = None

    @property
    def expression(self) -> Expression:
        """How the listener's voice and face answer the voted emotion, in the chosen expression mode."""
        return expression_for(self.emotion.coarse, self.settings.expression_mode)


# -- what stages report ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class EmotionVoted:
    emotion: EmotionResult
    seconds: float
    notices: tuple[str, ...]


@dataclass(frozen=True)
class ReplySoFar:
    text: str


@dataclass(frozen=True)
class ReplyWritten:
    text: str
    writer: str
    seconds: float
    notices: tuple[str, ...]


@dataclass(frozen=True)
class SpeechMade:
    speech: Speech
    wav_path: Path
    seconds: float


@dataclass(frozen=True)
class Animated:
    """The video's frames, made as they are consumed; applying the event encodes them."""
    animation: Animation
    engine: str
    seconds: float
    notices: tuple[str, ...] = ()


@dataclass(frozen=True)
class FramesStored:
    """The video's frames in an .npy file (a GPU call hands over a path, not hundreds of megabytes)."""
    path: Path
    fps: float
    frame_count: int
    engine: str
    seconds: float
    notices: tuple[str, ...] = ()


@dataclass(frozen=True)
class Notice:
    text: str


@dataclass(frozen=True)
class HandedOver:
    """A stage stops here; the lite engines do it and the rest."""
    stage: Stage
    reason: str


Event = EmotionVoted | ReplySoFar | ReplyWritten | SpeechMade | Animated | FramesStored | Notice | HandedOver
# Settings a video of this speech fits in (fewer denoising steps), or why none does: a GPU call's time budget.
VideoFit = Callable[[Speech, GenerationSettings], "GenerationSettings | str"]


# -- the stages ------------------------------------------------------------------------------------------------
def cast_votes(voters: Sequence[EmotionVoter], query: UnderstandingRequest, notices: list[str]) -> list[CastVote]:
    """Every voter's vote (a voter that abstains casts none; a broken one abstains with a notice)."""
    cast = []
    for voter in voters:
        try:
            vote = voter.vote(query)
        except InputError:
            raise
        except Exception as error:  # one broken voter must not sink the vote
            log.exception("voter %s failed", voter.name)
            notices.append(f"{voter.name} could not vote ({type(error).__name__}).")
            continue
        if vote is not None:
            cast.append(CastVote(replace(vote, weight=voter.weight), voter.priority))
    return cast


def tally(cast: Sequence[CastVote]) -> EmotionResult:
    """The vote's result from the votes cast, ties broken by each voter's rank."""
    return decide([c.vote for c in cast], {c.vote.voter: c.priority for c in cast})


def understand(job: TurnJob, engines: EngineSet, fit_video: VideoFit | None = None) -> Iterator[Event]:
    started, notices = time.perf_counter(), []
    cast = [*(job.cast_votes or ()), *cast_votes(engines.voters, job.query, notices)]
    emotion = tally(cast)
    yield EmotionVoted(emotion, time.perf_counter() - started, tuple(notices))


def write(job: TurnJob, engines: EngineSet, fit_video: VideoFit | None = None) -> Iterator[Event]:
    """The reply so far after each piece the writer streams, then the cleaned reply."""
    started, notices, pieces = time.perf_counter(), [], []
    for piece in engines.writer.write(job.query, job.emotion, MAX_REPLY_TOKENS):
        pieces.append(piece)
        yield ReplySoFar("".join(pieces))
    text, writer = clean_reply("".join(pieces), MAX_REPLY_CHARS), engines.writer.name
    if not any(character.isalnum() for character in text):     # nothing a voice could say ("...", an emoji)
        notices.append(f"{writer} wrote nothing that can be spoken; a template reply was used.")
        text = "".join(TemplateReplyWriter().write(job.query, job.emotion, MAX_REPLY_TOKENS))
        writer = f"template reply (in place of {writer})"
    yield ReplyWritten(text, writer, time.perf_counter() - started, tuple(notices))


def speak(job: TurnJob, engines: EngineSet, fit_video: VideoFit | None = None) -> Iterator[Event]:
    started = time.perf_counter()
    speech = engines.speech.synthesize(job.text, job.expression, job.avatar, job.settings)
    wav = write_wav(job.workdir / "reply.wav", speech.samples, speech.sample_rate)
    yield SpeechMade(speech, wav, time.perf_counter() - started)


def animate(job: TurnJob, engines: EngineSet, fit_video: VideoFit | None = None) -> Iterator[Event]:
    """The portrait speaking the reply; within a GPU call's budget, with as many denoising steps as fit."""
    started, settings, notices = time.perf_counter(), job.settings, ()
    if fit_video is not None:
        fitted = fit_video(job.speech, settings)
        if isinstance(fitted, str):
            yield HandedOver(Stage.VIDEO, fitted)
            return
        if fitted != settings:
            notices = (f"The video was rendered with {fitted.video_steps} denoising steps instead of "
                       f"{settings.video_steps}, to fit this turn's GPU time.",)
        settings = fitted
    animation = engines.video.animate(job.portrait, job.speech, job.expression, settings)
    yield Animated(animation, engines.video.name, time.perf_counter() - started, notices)


STAGE_FUNCTIONS: Mapping[Stage, Callable[[TurnJob, EngineSet, VideoFit | None], Iterator[Event]]] = {
    Stage.EMOTION: understand, Stage.TEXT: write, Stage.SPEECH: speak, Stage.VIDEO: animate}


def run_stage(stage: Stage, job: TurnJob, engines: EngineSet, fit_video: VideoFit | None = None) -> Iterator[Event]:
    return STAGE_FUNCTIONS[stage](job, engines, fit_video)


def advance(job: TurnJob, event: Event) -> TurnJob:
    """The job as the next stage needs it, once a stage's event is in."""
    if isinstance(event, EmotionVoted):
        return replace(job, emotion=event.emotion)
    if isinstance(event, ReplyWritten):
        return replace(job, text=event.text)
    if isinstance(event, SpeechMade):
        return replace(job, speech=event.speech)
    return job


def finishes(event: Event) -> Stage | None:
    """The stage an event completes, if it completes one."""
    return {EmotionVoted: Stage.EMOTION, ReplyWritten: Stage.TEXT, SpeechMade: Stage.SPEECH,
            Animated: Stage.VIDEO, FramesStored: Stage.VIDEO}.get(type(event))


# -- tiers -----------------------------------------------------------------------------------------------------
GpuCall = Callable[[TurnJob, tuple[Stage, ...]], Iterator[Event]]


@dataclass(frozen=True)
class Tier:
    """Engines for every stage, and which stages (one unbroken run of them) go to the tier's one GPU call."""
    name: str
    engines: EngineSet
    gpu_stages: tuple[Stage, ...] = ()
    gpu_call: GpuCall | None = None
    notices: tuple[str, ...] = ()

    def supported_settings(self) -> frozenset[str]:
        return self.engines.speech.supported_settings | self.engines.video.supported_settings


# -- the runner ------------------------------------------------------------------------------------------------
class TurnRunner:
    """Runs turns on a tier, with the lite tier behind it for whatever its GPU call does not finish."""

    def __init__(self, tier: Tier, avatars: AvatarStore, example_pool: Sequence, transcriber: Transcriber | None,
                 lite: Tier | None = None):
        self.tier, self.lite = tier, lite or tier
        self.avatars, self.example_pool, self.transcriber = avatars, list(example_pool), transcriber

    @property
    def supported_settings(self) -> frozenset[str]:
        """The generation settings that an engine serving this runner honours."""
        chosen_here = {"diffusion_video"} if Stage.VIDEO in self.tier.gpu_stages else set()
        return frozenset(chosen_here) | self.tier.supported_settings() | self.lite.supported_settings()

    def respond(self, request: ResponseRequest, workdir: Path, avatar: Avatar | None = None) -> Iterator[Reply]:
        """Run the turn in workdir (one per request), yielding the reply as it grows.

        avatar overrides the request's avatar name (for avatars uploaded in a browser session)."""
        workdir.mkdir(parents=True, exist_ok=True)
        reply = Reply(notices=[*self.tier.notices, *(self.lite.notices if self.lite is not self.tier else ())])
        avatar = avatar or self.avatars.get(request.avatar)
        query = self.understanding_request(request, reply)
        reply.history, reply.avatar = query.history, avatar.name
        started = time.perf_counter()
        job = TurnJob(query, avatar, avatar.portrait(), request.settings, workdir)
        reply.seconds["memory"] = time.perf_counter() - started

        on_gpu = self._gpu_stages(request.settings)
        if on_gpu:
            # The lite voters vote here, on the CPU; the GPU call counts their votes with its own.
            started = time.perf_counter()
            job = replace(job, cast_votes=tuple(cast_votes(self.lite.engines.voters, query, reply.notices)))
            reply.seconds["cpu votes"] = time.perf_counter() - started
            for stage in Stage:
                if stage is on_gpu[0]:
                    break
                job = yield from self._run_here(stage, job, reply)
            job = yield from self._run_on_gpu(on_gpu, job, reply)
        for stage in Stage:
            if stage not in reply.finished:
                job = yield from self._run_here(stage, job, reply)
        started = time.perf_counter()
        reply.self_check = read_back(reply.emotion.fine, reply.expression, reply.wav_path, reply.video_stills,
                                     self.lite.engines.voters)
        reply.video_stills = None       # read: a session that keeps its replies keeps no frames
        reply.seconds["self-check"] = time.perf_counter() - started
        yield reply

    def run(self, request: ResponseRequest, workdir: Path) -> Reply:
        """respond() to the end, then reply.json beside the media."""
        reply = None
        for reply in self.respond(request, workdir):
            pass
        reply.write_json(workdir)
        return reply

    def rerender(self, text: str, emotion: str, avatar: Avatar, settings: GenerationSettings, workdir: Path,
                 lite_only: bool = False) -> Reply:
        """A given reply spoken and animated for a given fine emotion (the compare view): on the engines a turn with
        these settings speaks and animates on (the tier's GPU call for the stages it runs there, the lite engines
        for the rest and for whatever the call does not finish), or on the lite engines alone."""
        workdir.mkdir(parents=True, exist_ok=True)
        chosen = EmotionResult(emotion, coarse_of(emotion), (), "chosen to compare")
        job = TurnJob(None, avatar, avatar.portrait(), settings, workdir, emotion=chosen, text=text)
        reply = Reply(emotion=chosen, expression=job.expression.name, text=text, avatar=avatar.name,
                      finished=[Stage.EMOTION, Stage.TEXT])
        rendering = (Stage.SPEECH, Stage.VIDEO)
        on_gpu = () if lite_only else tuple(stage for stage in self._gpu_stages(settings) if stage in rendering)
        if on_gpu:
            job = _drain(self._run_on_gpu(on_gpu, job, reply))
        for stage in rendering:
            if stage not in reply.finished:
                job = _drain(self._run_here(stage, job, reply))
        return reply

    # -- check and prepare -----------------------------------------------------------------------------------
    def understanding_request(self, request: ResponseRequest, reply: Reply) -> UnderstandingRequest:
        """Check and decode the turn; the latest utterance is the text, or the transcript of the audio."""
        text = (request.text or "").strip()
        if len(text) > MAX_TEXT_CHARS:
            raise TextTooLongError(f"The message is {len(text)} characters; the limit is {MAX_TEXT_CHARS}.")
        if not text and not request.audio_path and not request.video_path:
            raise MissingInputError("Give your latest turn as text, audio or video.")
        audio, video = _decode(request)
        if not text and audio is not None and self.transcriber is not None:
            started = time.perf_counter()
            text = self.transcriber.transcribe(audio)
            reply.transcribed = bool(text)
            reply.engines["transcript"] = self.transcriber.name
            reply.seconds["transcript"] = time.perf_counter() - started
        reply.heard_text = text
        history = (*request.history, Utterance(index=len(request.history), role="speaker", utterance=text))
        query = UnderstandingRequest(history=history, context=request.context, audio=audio, video=video)
        examples = sample_examples(self.example_pool, request.k_shot, query, request.conversation_id,
                                   seed=request.settings.seed or 0)
        return replace(query, examples=examples)

    def _gpu_stages(self, settings: GenerationSettings) -> tuple[Stage, ...]:
        if self.tier.gpu_call is None:
            return ()
        # Without the diffusion talking head the call ends after the speech; the lite portrait animates it.
        return tuple(stage for stage in self.tier.gpu_stages if settings.diffusion_video or stage is not Stage.VIDEO)

    # -- run -------------------------------------------------------------------------------------------------
    def _run_here(self, stage: Stage, job: TurnJob, reply: Reply) -> Iterator[Reply]:
        """One stage in this process, on the lite engines (the tier's own when it has no GPU call)."""
        engines = self.lite.engines
        if stage is Stage.EMOTION and job.cast_votes is not None:
            engines = replace(engines, voters=[])      # the lite voters have voted already
        for event in run_stage(stage, job, engines):
            job = advance(job, event)
            yield from self._apply(event, reply, job)
        return job

    def _run_on_gpu(self, stages: tuple[Stage, ...], job: TurnJob, reply: Reply) -> Iterator[Reply]:
        started = time.perf_counter()
        try:
            events = self.tier.gpu_call(job, stages)
        except Exception as error:      # the GPU engines cannot take this turn (e.g. it cannot be priced)
            reason = str(error) if isinstance(error, InputError) else describe(error)
            log.warning("the turn could not start on the GPU", exc_info=not isinstance(error, InputError))
            reply.notices.append(f"The GPU engines cannot take this turn: {reason.rstrip('.')}. The lite (CPU) "
                                 f"engines made the {reply.missing()}.")
            return job
        stored = None       # the video's frames, encoded once the call has ended and the GPU is released
        try:
            for event in events:
                if isinstance(event, FramesStored):
                    stored = event
                    continue
                if isinstance(event, HandedOver):
                    reply.notices.append(f"The GPU {event.stage.value} stage handed over: "
                                         f"{event.reason.rstrip('.')}. The lite (CPU) engines made the "
                                         f"{reply.missing()}.")
                    break
                job = advance(job, event)
                yield from self._apply(event, reply, job)
        except Exception as error:      # refused or failed call (quota, no GPU, worker error): answer on lite
            log.warning("the GPU call failed", exc_info=True)
            reply.notices.append(f"The GPU could not finish this turn ({describe(error)}); the lite (CPU) engines "
                                 f"made the {reply.missing()}.")
        finally:
            getattr(events, "close", lambda: None)()
            reply.seconds["gpu"] = time.perf_counter() - started
        if stored is not None:
            yield from self._apply(stored, reply, job)
        return job

    def _apply(self, event: Event, reply: Reply, job: TurnJob) -> Iterator[Reply]:
        """Record what a stage made in the reply, and show it."""
        if isinstance(event, Notice):
            reply.notices.append(event.text)
            return
        if isinstance(event, EmotionVoted):
            reply.emotion, reply.engines[Stage.EMOTION.value] = event.emotion, event.emotion.voted_by
            reply.expression = replace(job, emotion=event.emotion).expression.name
            reply.seconds[Stage.EMOTION.value] = reply.seconds.pop("cpu votes", 0.0) + event.seconds
            reply.notices.extend(event.notices)
        elif isinstance(event, ReplySoFar):
            reply.text, reply.writing = event.text, True
        elif isinstance(event, ReplyWritten):
            reply.text, reply.writing, reply.engines[Stage.TEXT.value] = event.text, False, event.writer
            reply.seconds[Stage.TEXT.value] = event.seconds
            reply.notices.extend(event.notices)
        elif isinstance(event, SpeechMade):
            reply.wav_path, reply.engines[Stage.SPEECH.value] = event.wav_path, event.speech.engine
            reply.seconds[Stage.SPEECH.value] = event.seconds
            cues = timed_cues(reply.text, event.speech.seconds)
            reply.subtitles = (write_vtt(cues, job.workdir / "reply.vtt"), write_srt(cues, job.workdir / "reply.srt"))
        elif isinstance(event, (Animated, FramesStored)):
            if not self._encode(event, reply, job):
                return
        stage = finishes(event)
        if stage is not None:
            reply.finished.append(stage)
        yield reply

    def _encode(self, event: Animated | FramesStored, reply: Reply, job: TurnJob) -> bool:
        """The video's frames as the reply's mp4 (for a GPU call, once the GPU is released); False when the stored
        frames cannot be encoded, and the lite engines will animate the reply instead."""
        started, out = time.perf_counter(), job.workdir / "reply.mp4"
        if isinstance(event, Animated):
            rendered = encode_animation(event.animation, out, event.engine)
        else:
            try:
                frames = np.load(event.path, mmap_mode="r", allow_pickle=False)
                rendered = encode_animation(Animation(frames, event.fps, event.frame_count, job.speech), out,
                                            event.engine)
            except Exception as error:      # an unreadable frames file or a failed encode: the lite video follows
                log.warning("the GPU video could not be encoded", exc_info=True)
                reply.notices.append(f"The GPU video could not be encoded ({describe(error)}); the lite (CPU) "
                                     f"engines made the {reply.missing()}.")
                return False
            finally:
                event.path.unlink(missing_ok=True)
        reply.mp4_path, reply.engines[Stage.VIDEO.value] = rendered.path, rendered.engine
        reply.video_stills = rendered.stills
        reply.seconds[Stage.VIDEO.value] = event.seconds + time.perf_counter() - started
        reply.notices.extend(event.notices)
        return True


def _decode(request: ResponseRequest):
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


def _drain(steps: Iterator[Reply]) -> TurnJob:
    """Run a stage's steps to the end for the job they return (when nobody is watching the reply grow)."""
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value
