"""What the page shows of a turn, as plain values: the votes table and chart, the headline, each tab's engine line,
the chat, the engines note and the compare view's note."""
from __future__ import annotations

from typing import Any

from .contracts import Utterance
from .emotions import FINE_LABELS, coarse_of
from .runner import Reply, Stage, TurnRunner
from .understanding.voting import tally

HISTORY_HEADERS = ["role", "utterance"]
VOTES_HEADERS = ["voter", "label · coarse", "confidence", "weight", "top 3", "evidence"]
CHART_COLUMNS = ["emotion", "weight"]


def _top_cell(top) -> str:
    return ", ".join(f"{label} {probability:.2f}" for label, probability in top)


def votes_table(reply: Reply) -> list[list[Any]]:
    """One row per vote: the voter (and what it read), the label it chose and that label's coarse class, how sure
    it was (a probability, 0-1, where it has one), its say in the vote, its three best labels, and what else it
    said (its raw answer, where that is more than its top 3)."""
    return [[f"{v.voter} ({v.modality})", f"{v.label} · {coarse_of(v.label)}",
             "" if v.confidence is None else round(float(v.confidence), 2), round(float(v.weight), 2),
             _top_cell(v.top[:3]), "" if v.raw == _top_cell(v.top) else v.raw]
            for v in (reply.emotion.votes if reply.emotion else ())]


def vote_tally(reply: Reply) -> list[list[Any]]:
    """The weight each fine label got in the vote (voting.tally: each voter's weight spread over its top labels'
    probabilities), as the chart's rows of emotion, weight."""
    totals = tally(reply.emotion.votes) if reply.emotion else {}
    return [[name, round(totals[name], 2)] for name in FINE_LABELS if totals.get(name)]


def warnings_markdown(notices) -> str:
    """Notices as the page's warning lines, each its own quoted paragraph."""
    return "".join(f"\n\n> ⚠️ {notice}" for notice in notices)


def engine_line(reply: Reply, *stages: str) -> str:
    """'Engine: … · 0.42 s' for the stages one tab shows."""
    parts = []
    for stage in stages:
        if stage in reply.engines:
            seconds = reply.seconds.get(stage)
            parts.append(f"**{stage}**: {reply.engines[stage]}" + (f" · {seconds:.2f} s" if seconds else ""))
    return " — ".join(parts) or "_waiting…_"


def emotion_json(reply: Reply) -> dict[str, Any]:
    data = reply.to_json()
    return {key: data[key] for key in ("emotion", "expression", "engines", "seconds", "heard_text", "notices",
                                       "self_check")}


def engines_note(serving: TurnRunner | None) -> str:
    """The page's line on which engines serve; for the full tier each engine by name, and any that is missing
    with why (serving is None when only the lite tier was wanted, which then need not load to be described)."""
    if serving is None:
        return ("Engines: **lite** (CPU, offline models shipped in Python packages). Each tab names the engine that "
                "made its output.")
    tier, warnings = serving.tier, warnings_markdown(serving.tier.notices)
    if tier.name != "full":
        return "Engines: **lite** (CPU, offline models shipped in Python packages)." + warnings
    engines = tier.engines
    voters = ", ".join(voter.name for voter in engines.voters) or "the lite voters only"
    return (f"Engines: **full** (GPU) — emotion vote: {voters}; reply: {engines.writer.name}; speech: "
            f"{engines.speech.name}; video: {engines.video.name}; the lite CPU engines stand behind it." + warnings)


def headline(reply: Reply) -> str:
    emotion = reply.emotion
    if emotion is None:
        return "_Listening…_"
    coarse = (f"E3RG's coarse class: **{emotion.coarse}**" if emotion.coarse == emotion.fine else
              f"E3RG's coarse class: **{emotion.coarse}** (its 8 classes group the 36 feelings; *{emotion.fine}* "
              f"is counted as *{emotion.coarse}*)")
    return (f"## {emotion.fine}\n{coarse}. Decided by **{emotion.decided_by}** from {len(emotion.votes)} vote(s)."
            + (f" The listener answers with a **{reply.expression}** voice and face." if reply.expression else "")
            + (f"\n\nHeard: “{reply.heard_text}”" + (" (transcribed)" if reply.transcribed else "")
               if reply.heard_text else "")
            + warnings_markdown(reply.notices))


def chat_messages(history: tuple[Utterance, ...]) -> list[dict[str, str]]:
    """The dialogue as chat messages: the speaker is the user, the listener the avatar."""
    return [{"role": "user" if u.role == "speaker" else "assistant", "content": u.utterance or "🎞️ (a wordless clip)"}
            for u in history]


def rendering_engines(reply: Reply) -> tuple[str, str]:
    return reply.engines[Stage.SPEECH], reply.engines[Stage.VIDEO]


def rendered_by(reply: Reply) -> str:
    speech, video = rendering_engines(reply)
    return f"spoken by *{speech}* and animated by *{video}*"


def compare_note(emotional: Reply, neutral: Reply, emotional_lite: Reply | None) -> str:
    """What the compared videos differ in, each named with the engines that rendered it: a pair that differs in
    its engines too shows more than the emotion's part."""
    emotion = emotional.emotion
    faces = (f"**Emotional** (left) answers *{emotion.fine}* ({emotion.coarse}) with a *{emotional.expression}* "
             f"voice and face, **neutral** (right) with a *{neutral.expression}* one")
    if rendering_engines(neutral) == rendering_engines(emotional):
        note = (f"The same words, avatar and engines ({rendered_by(emotional)}): {faces}, so the two differ only in "
                f"the emotion.")
    else:
        note = (f"The same words and avatar: {faces}. Different engines made them (emotional: "
                f"{rendered_by(emotional)}; neutral: {rendered_by(neutral)}), so they differ in more than the "
                f"emotion.")
    note += warnings_markdown(neutral.notices)
    if emotional_lite is not None:
        note += (f"\n\n**Emotional, lite engines** (below): the emotional reply {rendered_by(emotional_lite)}; "
                 f"beside the emotional one above it differs only in the engines (the lite tier against the full).")
    return note
