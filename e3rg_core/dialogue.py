"""Dialogues in the AvaMERG layout: profiles, utterances, cumulative turns; JSON read and write."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .contracts import Dialogue, Profile, Turn, Utterance
from .errors import DialogueFormatError
from .settings import MAX_HISTORY_CHARS, MAX_HISTORY_UTTERANCES

ROLES = ("speaker", "listener")
AGES = ("child", "young", "middle-aged", "elderly")
GENDERS = ("male", "female")
TIMBRES = ("high", "mid", "low")


def _require(obj: Any, key: str, kind: type, where: str) -> Any:
    if not isinstance(obj, dict) or key not in obj:
        raise DialogueFormatError(f"{where}: missing field '{key}'.")
    value = obj[key]
    if not isinstance(value, kind):
        raise DialogueFormatError(f"{where}: field '{key}' should be {kind.__name__}.")
    return value


def parse_history(items: Any, where: str = "history") -> tuple[Utterance, ...]:
    """A list of {role, utterance[, index]} into utterances, checked and bounded."""
    if not isinstance(items, list):
        raise DialogueFormatError(f"{where}: expected a list of {{role, utterance}} objects.")
    if len(items) > MAX_HISTORY_UTTERANCES:
        raise DialogueFormatError(f"{where}: {len(items)} utterances; at most {MAX_HISTORY_UTTERANCES} are allowed.")
    utterances = []
    for position, item in enumerate(items):
        spot = f"{where}[{position}]"
        role = _require(item, "role", str, spot).strip().lower()
        if role not in ROLES:
            raise DialogueFormatError(f"{spot}: role must be 'speaker' or 'listener', not '{role}'.")
        text = _require(item, "utterance", str, spot).strip()
        index = item.get("index", position)
        if not isinstance(index, int) or isinstance(index, bool):
            raise DialogueFormatError(f"{spot}: index should be an integer.")
        utterances.append(Utterance(index=index, role=role, utterance=text))
    if sum(len(u.utterance) for u in utterances) > MAX_HISTORY_CHARS:
        raise DialogueFormatError(f"{where}: the dialogue is longer than {MAX_HISTORY_CHARS} characters.")
    return tuple(utterances)



def history_from_rows(rows: Any) -> tuple[Utterance, ...]:
    """The page's dialogue as rows of role, utterance (a list of lists or a DataFrame; blank rows ignored)."""
    if rows is None:
        return ()
    if hasattr(rows, "values") and hasattr(rows, "columns"):
        rows = rows.values.tolist()
    items = [{"role": str(role or "").strip() or "speaker", "utterance": str(text or "").strip()}
             for role, text, *_ in rows if str(text or "").strip()]
    return parse_history(items, "dialogue so far")


def history_from_json_text(text: str | None) -> tuple[Utterance, ...]:
    """The API's history_json: a JSON list of {role, utterance}; empty means a new conversation."""
    if not text or not text.strip():
        return ()
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise DialogueFormatError(f"history_json is not valid JSON: {error}.") from None
    return parse_history(data, "history_json")


def rows_from_history(history: tuple[Utterance, ...]) -> list[list[str]]:
    return [[u.role, u.utterance] for u in history]

def _parse_profile(obj: Any, where: str) -> Profile:
    if obj is None:
        return Profile()
    if not isinstance(obj, dict):
        raise DialogueFormatError(f"{where}: expected an object.")
    raw_id = obj.get("ID")
    if raw_id is not None and (isinstance(raw_id, bool) or not isinstance(raw_id, (int, str))
                               or (isinstance(raw_id, str) and not raw_id.isdigit())):
        raise DialogueFormatError(f"{where}: ID should be an integer.")
    return Profile(age=obj.get("age"), gender=obj.get("gender"), timbre=obj.get("timbre"),
                   id=None if raw_id is None else int(raw_id))


def _parse_turn(obj: Any, where: str) -> Turn:
    coe = obj.get("chain_of_empathy") if isinstance(obj, dict) else None
    if coe is not None and not isinstance(coe, dict):
        raise DialogueFormatError(f"{where}: chain_of_empathy should be an object.")
    response = obj.get("response") if isinstance(obj, dict) else None
    if response is not None and not isinstance(response, str):
        raise DialogueFormatError(f"{where}: response should be a string.")
    history = parse_history(_require(obj, "dialogue_history", list, where), f"{where}.dialogue_history")
    if not history:
        raise DialogueFormatError(f"{where}: dialogue_history is empty.")
    return Turn(turn_id=str(obj.get("turn_id", "0")), history=history, context=str(obj.get("context") or ""),
                response=response, chain_of_empathy=coe)


def dialogue_from_json(obj: Any, where: str = "dialogue") -> Dialogue:
    turns = _require(obj, "turns", list, where)
    return Dialogue(
        conversation_id=str(obj.get("conversation_id", "")),
        turns=tuple(_parse_turn(t, f"{where}.turns[{i}]") for i, t in enumerate(turns)),
        speaker_profile=_parse_profile(obj.get("speaker_profile"), f"{where}.speaker_profile"),
        listener_profile=_parse_profile(obj.get("listener_profile"), f"{where}.listener_profile"),
        topic=str(obj.get("topic") or ""),
    )


def _read_json(path: str | Path) -> Any:
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DialogueFormatError(f"No dialogue file at {path}.") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise DialogueFormatError(f"{Path(path).name} is not valid JSON: {error}.") from None


def _dialogues_from_json(data: Any, name: str) -> list[Dialogue]:
    if isinstance(data, dict):
        data = [data]
    if not isinstance(data, list):
        raise DialogueFormatError(f"{name}: expected a list of conversations.")
    return [dialogue_from_json(d, f"conversation[{i}]") for i, d in enumerate(data)]


def load_dialogues(path: str | Path) -> list[Dialogue]:
    """Read an AvaMERG-format JSON file (a list of conversations, or one conversation)."""
    return _dialogues_from_json(_read_json(path), Path(path).name)


def load_dialogue_so_far(path: str | Path) -> tuple[tuple[Utterance, ...], str, str]:
    """(history, context, conversation id) from a [{role, utterance}] list, or from the last turn of the first
    conversation of an AvaMERG file."""
    data = _read_json(path)
    if isinstance(data, list) and all(isinstance(item, dict) and "role" in item for item in data):
        return parse_history(data), "", ""
    dialogues = _dialogues_from_json(data, Path(path).name)
    if not dialogues or not dialogues[0].turns:
        raise DialogueFormatError(f"{Path(path).name} holds no conversation with turns.")
    turn = dialogues[0].turns[-1]
    return turn.history, turn.context, dialogues[0].conversation_id


def _profile_json(profile: Profile) -> dict[str, Any]:
    out = {"age": profile.age, "gender": profile.gender, "timbre": profile.timbre, "ID": profile.id}
    return {k: v for k, v in out.items() if v is not None}


def history_json(history: tuple[Utterance, ...]) -> list[dict[str, Any]]:
    return [{"index": u.index, "role": u.role, "utterance": u.utterance} for u in history]


def dialogue_to_json(dialogue: Dialogue) -> dict[str, Any]:
    turns = []
    for turn in dialogue.turns:
        item: dict[str, Any] = {"turn_id": turn.turn_id, "context": turn.context,
                                "dialogue_history": history_json(turn.history)}
        if turn.response is not None:
            item["response"] = turn.response
        if turn.chain_of_empathy is not None:
            item["chain_of_empathy"] = dict(turn.chain_of_empathy)
        turns.append(item)
    return {"conversation_id": dialogue.conversation_id,
            "speaker_profile": _profile_json(dialogue.speaker_profile),
            "listener_profile": _profile_json(dialogue.listener_profile),
            "topic": dialogue.topic, "turns": turns}


def save_dialogues(dialogues: list[Dialogue], path: str | Path) -> None:
    Path(path).write_text(json.dumps([dialogue_to_json(d) for d in dialogues], indent=2, ensure_ascii=False),
                          encoding="utf-8")
