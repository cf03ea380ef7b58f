"""OpenVoice V1's English text front end: sentence pieces -> IPA ("cjke_cleaners2") -> symbol ids.

The base speaker was trained on exactly these strings, so every quirk is kept on purpose: numbers are spelled
out after transliteration (so "£" has already become "ps"), eng_to_ipa marks words it cannot pronounce with
"*", and characters outside the symbol table are dropped without a trace.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

# The cjke_cleaners2 table in id order: padding/blank, punctuation, letters (the last one is the space).
_PAD = "_"
_PUNCTUATION = ",.!?-~…"
_LETTERS = "NQabdefghijklmnopstuvwxyzɑæʃʑçɯɪɔɛɹðəɫɥɸʊɾʒθβŋɦ⁼ʰ`^#*=ˈˌ→↓↑ "
SYMBOLS: tuple[str, ...] = (_PAD, *_PUNCTUATION, *_LETTERS)
BLANK_ID = 0
CLEANER = "cjke_cleaners2"

MIN_WORDS_PER_PIECE = 10    # the splitter closes a piece once it holds more words than this

_ABBREVIATIONS = tuple((re.compile(rf"\b{short}\.", re.IGNORECASE), long) for short, long in (
    ("mrs", "misess"), ("mr", "mister"), ("dr", "doctor"), ("st", "saint"), ("co", "company"),
    ("jr", "junior"), ("maj", "major"), ("gen", "general"), ("drs", "doctors"), ("rev", "reverend"),
    ("lt", "lieutenant"), ("hon", "honorable"), ("sgt", "sergeant"), ("capt", "captain"),
    ("esq", "esquire"), ("ltd", "limited"), ("col", "colonel"), ("ft", "fort"),
))
# eng_to_ipa's notation -> the notation of the training transcripts.
_IPA_REWRITES = (("r", "ɹ"), ("ʤ", "dʒ"), ("ʧ", "tʃ"))
_DARK_L = re.compile(r"l([^aeiouæɑɔəɛɪʊ ]*(?: |$))")

_GROUPED_NUMBER = re.compile(r"([0-9][0-9,]+[0-9])")
_POUNDS = re.compile(r"£([0-9,]*[0-9]+)")
_DOLLARS = re.compile(r"\$([0-9.,]*[0-9]+)")
_DECIMAL = re.compile(r"([0-9]+\.[0-9]+)")
_ORDINAL = re.compile(r"[0-9]+(st|nd|rd|th)")
_CARDINAL = re.compile(r"[0-9]+")


@lru_cache(maxsize=1)
def _inflect_engine():
    import inflect
    return inflect.engine()


# ---------------------------------------------------------------------------------------------------------
# Sentence pieces


def split_sentences(text: str, min_words: int = MIN_WORDS_PER_PIECE) -> list[str]:
    """Cut text into pieces of a little over min_words words, as the base speaker's tts() did.

    Side effects kept from upstream: a space follows every , . ! ? ; and quotes and brackets disappear.
    """
    text = re.sub("[。！？；]", ".", text)
    text = re.sub("[，]", ",", text)
    text = re.sub("[“”]", '"', text)
    text = re.sub("[‘’]", "'", text)
    text = re.sub(r"[<>()\[\]\"«»]+", "", text)
    text = re.sub("[\n\t ]+", " ", text)
    marker = "\x00"
    clauses = [clause.strip() for clause in re.sub("([,.!?;])", r"\1 " + marker, text).split(marker)]
    if not clauses[-1]:
        clauses.pop()

    pieces: list[str] = []
    pending: list[str] = []
    words = 0
    for index, clause in enumerate(clauses):
        pending.append(clause)
        words += len(clause.split(" "))
        if words > min_words or index == len(clauses) - 1:
            pieces.append(" ".join(pending))
            pending, words = [], 0
    return _merge_short_pieces(pieces)


def _merge_short_pieces(pieces: list[str]) -> list[str]:
    """Glue a piece of at most two words onto its neighbour (the next one, or the previous one at the end)."""
    merged: list[str] = []
    for piece in pieces:
        if merged and len(merged[-1].split(" ")) <= 2:
            merged[-1] = f"{merged[-1]} {piece}"
        else:
            merged.append(piece)
    if len(merged) >= 2 and len(merged[-1].split(" ")) <= 2:
        last = merged.pop()
        merged[-1] = f"{merged[-1]} {last}"
    return merged


def separate_camel_case(piece: str) -> str:
    """'useCamelCase' -> 'use Camel Case', so eng_to_ipa sees dictionary words."""
    return re.sub(r"([a-z])([A-Z])", r"\1 \2", piece)


# ---------------------------------------------------------------------------------------------------------
# English -> IPA


def _spell_dollars(match: re.Match) -> str:
    amount = match.group(1)
    parts = amount.split(".")
    if len(parts) > 2:
        return amount + " dollars"
    dollars = int(parts[0]) if parts[0] else 0
    cents = int(parts[1]) if len(parts) > 1 and parts[1] else 0
    dollar_word = "dollar" if dollars == 1 else "dollars"
    cent_word = "cent" if cents == 1 else "cents"
    if dollars and cents:
        return f"{dollars} {dollar_word}, {cents} {cent_word}"
    if dollars:
        return f"{dollars} {dollar_word}"
    if cents:
        return f"{cents} {cent_word}"
    return "zero dollars"


def _spell_cardinal(match: re.Match) -> str:
    number = int(match.group(0))
    words = _inflect_engine().number_to_words
    if not 1000 < number < 3000:
        return words(number, andword="")
    # Years are read in pairs ("nineteen ninety-nine"), except the round ones.
    if number == 2000:
        return "two thousand"
    if 2000 < number < 2010:
        return "two thousand " + words(number % 100)
    if number % 100 == 0:
        return words(number // 100) + " hundred"
    return words(number, andword="", zero="oh", group=2).replace(", ", " ")


def spell_numbers(text: str) -> str:
    text = _GROUPED_NUMBER.sub(lambda match: match.group(1).replace(",", ""), text)
    text = _POUNDS.sub(r"\1 pounds", text)
    text = _DOLLARS.sub(_spell_dollars, text)
    text = _DECIMAL.sub(lambda match: match.group(1).replace(".", " point "), text)
    text = _ORDINAL.sub(lambda match: _inflect_engine().number_to_words(match.group(0)), text)
    return _CARDINAL.sub(_spell_cardinal, text)


def english_to_ipa(text: str) -> str:
    """Plain ASCII, lower case, abbreviations and numbers spelled out, then eng_to_ipa's transcription."""
    import eng_to_ipa
    from unidecode import unidecode
    text = unidecode(text).lower()
    for pattern, replacement in _ABBREVIATIONS:
        text = pattern.sub(replacement, text)
    text = spell_numbers(text)
    return re.sub(r"\s+", " ", eng_to_ipa.convert(text))


def english_to_training_ipa(text: str) -> str:
    """english_to_ipa in the training transcripts' notation: dark l, ɹ, dʒ/tʃ and a real ellipsis."""
    text = _DARK_L.sub(lambda match: "ɫ" + match.group(1), english_to_ipa(text))
    for plain, rewritten in _IPA_REWRITES:
        text = text.replace(plain, rewritten)
    return text.replace("...", "…")


def clean_english(piece: str) -> str:
    """What cjke_cleaners2 makes of one '[EN]piece[EN]': IPA, no trailing space, closed by punctuation."""
    cleaned = (english_to_training_ipa(piece) + " ").rstrip()
    if cleaned and cleaned[-1] not in ".,!?-…~":
        cleaned += "."
    return cleaned


# ---------------------------------------------------------------------------------------------------------
# Symbol ids


def symbol_ids(cleaned: str, symbols: Sequence[str] = SYMBOLS) -> list[int]:
    """Ids of the characters of a cleaned string; characters outside the table are skipped, as in training."""
    lookup = {symbol: index for index, symbol in enumerate(symbols)}
    return [lookup[char] for char in cleaned if char in lookup]


def intersperse_blank(ids: Sequence[int], blank: int = BLANK_ID) -> list[int]:
    """A blank before, between and after the ids (the model was trained with add_blank)."""
    spaced = [blank] * (2 * len(ids) + 1)
    spaced[1::2] = ids
    return spaced


def text_to_pieces(text: str, symbols: Sequence[str] = SYMBOLS, add_blank: bool = True) -> list[list[int]]:
    """The id sequences the base speaker reads for a text, one per sentence piece (pieces with nothing to say
    are left out)."""
    sequences = []
    for piece in split_sentences(text):
        ids = symbol_ids(clean_english(separate_camel_case(piece)), symbols)
        if ids:
            sequences.append(intersperse_blank(ids) if add_blank else ids)
    return sequences
