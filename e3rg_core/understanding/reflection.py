"""Reflective listening without a model: find the clause in the speaker's latest turn that says what happened to
them, and say it back in the second person ("my dog has been sick all week" -> "your dog has been sick all week").

Only whole clauses that start with the speaker themselves ("I ...", "my ...", "we ...", after an optional time
phrase) are taken, so the person and tense conversion stays grammatical; a clause that speaks to the listener
("you"), asks something or is too long to say back is left alone. The words are the speaker's own, so a
reflection can add no fact."""
from __future__ import annotations

import re
from dataclasses import dataclass

MAX_WORDS = 15          # a longer clause, said back whole, crowds out the reply's own words (25 in all)
MIN_WORDS = 4       # "you went over", "you can't wait" say too little to be worth saying back

# ED's typing: "im", "dont", a lower-case "i".
_TYPOS = {"i": "I", "im": "I'm", "ive": "I've", "dont": "don't", "didnt": "didn't",
          "cant": "can't", "wasnt": "wasn't", "isnt": "isn't", "wont": "won't", "couldnt": "couldn't",
          "wouldnt": "wouldn't", "doesnt": "doesn't", "havent": "haven't", "hasnt": "hasn't", "arent": "aren't",
          "werent": "weren't", "thats": "that's", "shouldnt": "shouldn't"}
# First person -> second person; the verb forms that agree with "I"/"we" follow the pronoun.
_PERSON = {"i": "you", "me": "you", "my": "your", "mine": "yours", "myself": "yourself", "we": "you", "us": "you",
           "our": "your", "ours": "yours", "ourselves": "yourselves", "i'm": "you're", "i've": "you've",
           "i'd": "you'd", "i'll": "you'll", "we're": "you're", "we've": "you've", "we'd": "you'd",
           "we'll": "you'll"}
_AGREE = {"am": "are", "was": "were", "wasn't": "weren't", "'m": "'re"}
# A clause that begins like this is the speaker's own news (a time phrase may come first).
_TIME = (r"(?:(?:today|yesterday|tonight|recently|lately|finally|once|earlier|this (?:morning|week|year|month|"
         r"weekend|past \w+|evening|afternoon)|last (?:night|week|month|year|weekend|\w+day)|"
         r"(?:a|one|two|three|a few|several) "
         r"(?:days?|weeks?|months?|years?) (?:ago|back)|the other day|one (?:time|day|night)|back then|"
         r"when (?:I|we) \w+(?: [\w']+){0,3}?|"
         r"(?:on|at(?! least)|in(?! (?:fact|general|case))|during|after|before|over|coming|going|driving|walking|"
         r"leaving|getting|while)"
         r"(?: [\w']+){0,5}?)\s*,?\s+)")
_OWN = re.compile(rf"^{_TIME}{{0,2}}(?:(?:all|both|one|some|most|two|three) (?:of )?)?(?:I\b|I'm\b|I've\b|I'd\b|"
                  r"I'll\b|my\b|we\b|we're\b|we've\b|our\b|me and my\b)",
                  re.IGNORECASE)
# Someone else's doing to the speaker ("someone cut in front of me"): a third-person start with the speaker in it.
_OTHERS = re.compile(rf"^{_TIME}{{0,2}}(?:someone|somebody|(?:he|she|they)(?! (?:said|says|told|think|thinks|know)\b)|"
                     r"a (?:\w+ )?(?:man|woman|guy|lady|driver|kid|stranger|friend|co-?worker|neighbou?r)|"
                     # "the bus left without me": a named thing or person doing something, right at the start
                     r"(?<=^)the (?:[\w-]+ ){0,2}[\w-]+(?= (?:was|were|has|had|left|broke|took|kept|made|came|went|"
                     r"got|gave|told|ran|fell|won|lost|stole|bit|ate|called|charged|refused|cancell?ed|ruined|"
                     r"forgot|ignored|yelled)\b))\b"
                     r"(?=.*\b(?:me|my|mine|I|we|us|our)\b)", re.IGNORECASE)
# Openings a reflection drops: fillers and answers to the listener's last question.
_FILLER = re.compile(r"^(?:(?:yeah|yes|yep|yup|no|nope|nah|well|so|oh|ok|okay|haha|hah|lol|man|wow|honestly|"
                     r"actually|and|but|also|ugh|hey|hi|hello|sure|thanks|thank you|right|exactly|true|i know|"
                     r"definitely|absolutely|totally|really|um|hmm)\b[\s,.!]*)+", re.IGNORECASE)
# Where a long sentence may be cut, keeping the part before.
_CUT = re.compile(r",\s+|\s+(?:and|but|then)\s+|"
                  # a subordinate part stays with a "but" or "and" before it ("but when I checked, I made an A")
                  r"(?<!\bbut)(?<!\band)\s+(?:because|since|when|while|which|though|although|until|after|before|if|"
                  r"cause|cuz)\s+|"
                  # "so" and "as" join clauses only before a subject ("so I left"), not in "so angry", "as well"
                  r"\s+(?:so|as)\s+(?=(?:I|we|he|she|they|my|our|his|her|their|the|it|that|now|then)\b)",
                  re.IGNORECASE)
# Words that make a clause unsafe to say back: it addresses the listener, is a question, or is crude.
_UNSAFE = re.compile(r"\b(?:you|your|yours|yourself|u|ur|ya|let'?s)\b|\?|\b(?:fuck\w*|shit\w*|damn|hell|crap|ass|"
                     r"bitch\w*|dick|piss\w*)\b|[@#*:;()<>\[\]]", re.IGNORECASE)
# A clause that stops on a word like these has been cut mid-thought.
_DANGLING = frozenset("except a an the to of at for with by from and or but my our your his her their its that "
                      "this these those is are was were be been am very so really just not no i we he she they "
                      "as than into about like".split())


@dataclass(frozen=True)
class Reflection:
    """The speaker's own clause said back in the second person, and what kind of clause it is."""
    clause: str         # "your dog has been sick all week" (no end mark, lower-case start)
    feeling: bool       # it states a feeling ("you were so nervous") rather than an event


_FEELING = re.compile(r"^(?:you're|you were|you are|you feel|you felt|you've been|you get|you got|you became|"
                      r"you are feeling|you was)\s+(?:so |very |really |a bit |a little |kind of |pretty |super |"
                      r"quite |extremely |absolutely |totally |just |still )*(?:\w+ed|\w+ous|happy|sad|glad|angry|"
                      r"proud|upset|mad|afraid|scared|excited|anxious|ashamed|jealous|lonely|grateful|content|"
                      r"hopeful|sure|ready|confident|thrilled|sick of|tired of|nervous|furious|joyful|sentimental|"
                      r"nostalgic|devastated|terrified|embarrassed|surprised|disgusted|impressed)\b", re.IGNORECASE)


def tidy(text: str) -> str:
    """ED's escapes and typing made plain: "_comma_" -> ",", "im" -> "I'm", single spaces."""
    text = text.replace("_comma_", ",").replace("’", "'")
    text = re.sub(r"(?<!\w)[:;=]'?-?[()DPpO/\\|3]+(?!\w)|<3|\*\w+\*", " ", text)    # emoticons, *actions*
    text = re.sub(r"\s+", " ", re.sub(r",(?=[A-Za-z])", ", ", text)).strip()
    return re.sub(r"\b[A-Za-z]+\b", lambda m: _TYPOS.get(m.group().lower(), m.group())
                  if m.group().lower() in _TYPOS else m.group(), text)


def to_second_person(clause: str) -> str:
    """The speaker's first-person clause as the listener says it back; "you" for "I", "your" for "my", with the
    verb that follows agreeing ("I was" -> "you were", "I am" -> "you are")."""
    tokens = re.findall(r"[A-Za-z]+(?:'[A-Za-z]+)?|[^A-Za-z\s]+|\s+", clause)
    out, after_subject = [], False
    for token in tokens:
        low = token.lower()
        if token.isspace():
            out.append(token)
            continue
        if low in _PERSON:
            out.append(_PERSON[low])
            after_subject = low in ("i", "we")
            continue
        if after_subject and low in _AGREE:
            out.append(_AGREE[low])
        else:
            out.append(token)
        after_subject = False
    text = "".join(out)
    text = re.sub(r"\byou and you\b", "you", text)
    return re.sub(r"\b[Yy]our ((?:\w+ )?\w+) and you\b", r"you and your \1", text)


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in re.split(r"(?<=[.!?])\s+|\s*[.!?]+$|\s+-+\s+|;\s*", text) if s and s.strip()]


def _shorten(sentence: str) -> str | None:
    """The sentence, or its longest leading part cut at a clause boundary, within MAX_WORDS words."""
    if len(sentence.split()) <= MAX_WORDS:
        return sentence
    best = None
    for match in _CUT.finditer(sentence):
        head = sentence[:match.start()]
        if len(head.split()) > MAX_WORDS:
            break
        best = head
    return best


# "I wasn't mad at him": said back, a denied feeling reads as the listener's misreading.
_DENIED_FEELING = re.compile(r"\b(?:wasn't|weren't|am not|'m not|not|never|don't|didn't) (?:\w+ )?(?:mad|angry|upset|"
                             r"sad|happy|scared|afraid|worried|annoyed|jealous|proud|sure|bothered)\b", re.IGNORECASE)
_OPINION = (r"^(?:I|we) (?:really )?(?:think|guess|feel like|feel that|feel|know|believe|suppose|just realized|"
            r"realized|found out|heard|noticed|remember|swear) (?:that )?(?=\S)")
_HEDGE = re.compile(_OPINION + r"|"
                    # a feeling about an event: the event is the news ("I was so happy when my mom came")
                    r"^(?:I|we) (?:am|was|were|'m|felt|feel|got) (?:so |really |very |super |pretty |a bit |"
                    r"a little |quite |extremely )*(?:happy|glad|sad|upset|mad|angry|proud|excited|thrilled|"
                    r"relieved|surprised|shocked|nervous|worried|scared|afraid|annoyed|disappointed|embarrassed|"
                    r"grateful|thankful|jealous|lonely|devastated|heartbroken|amazed|impressed) "
                    r"(?:(?:that|when|because|since|as) )?(?=\S)", re.IGNORECASE)
_THIRD = re.compile(rf"^{_TIME}?(?:he|she|they)\b(?! (?:said|says|told|think|thinks|know|knows)\b)", re.IGNORECASE)


def _chunks(sentence: str) -> list[str]:
    """The sentence (unless it turns on a "but", whose halves say different things), then its parts that can
    stand alone: the first, and each after a comma or a coordinating "and", "but", "so" or "then" (a part after
    "if", "because" or "when" is not something that happened); each with whether it follows a "but" (the point
    of a sentence that turns)."""
    parts = [] if re.search(r"\bbut\b", sentence, re.IGNORECASE) else [(sentence, False)]
    cuts = list(_CUT.finditer(sentence))
    starts = [(0, ""), *((m.end(), m.group().strip(" ,").lower()) for m in cuts)]
    ends = [m.start() for m in cuts] + [len(sentence)]
    for (start, word), end in zip(starts, ends):
        part = sentence[start:end].strip(" ,")
        if word in ("", "and", "but", "so", "then") and part and part != sentence:
            parts.append((part, word == "but"))
    return parts


def reflect(utterance: str, others: bool = False, salient: re.Pattern | None = None) -> Reflection | None:
    """The clause of the speaker's latest utterance best said back, in the second person; None when no clause
    can be said back safely (a greeting, a question, words addressed to the listener, a clause too long).
    `others`: a clause about someone else ("he died in a motor accident") may be said back too; `salient`: words
    that make a clause the news ("crashed"), preferred over one without them."""
    found = []
    for position, sentence in enumerate(_sentences(tidy(utterance))):
        sentence = _FILLER.sub("", sentence).strip(" ,.!-")
        sentence = re.sub(r"[.!]+$", "", sentence).strip()
        if "?" in sentence:
            continue
        for part_index, (part, after_but) in enumerate(_chunks(sentence)):
            after_but = after_but or bool(re.match(r"but\b", part, re.IGNORECASE))
            part = _FILLER.sub("", part).strip(" ,.!-")
            # "When my ex cheated on me, ...": the when-part is the event
            if len(re.findall(r"\b(?:I|we|my|our)\b", part, re.IGNORECASE)) <= 1:
                part = re.sub(r"^when (?=(?:I|my|we|our|someone|somebody)\b)", "", part, flags=re.IGNORECASE)
            hedge = _HEDGE.match(part)
            if hedge and (_OWN.match(part[hedge.end():]) or _OTHERS.match(part[hedge.end():])):
                part = part[hedge.end():]
            # A clause about someone else must have the speaker in it ("they didn't invite me"); one with no
            # one's doing in it ("so she could ...") is not news.
            own = (_OWN.match(part) or _OTHERS.match(part)
                   or (not part_index and others and _THIRD.match(part)))
            if not own:
                continue
            # A comma after the subject ends the clause worth saying back ("I got this job, just waiting ...").
            comma = part.find(", ", own.end())
            if comma > 0 and len(part[:comma].split()) >= MIN_WORDS:
                part = part[:comma]
            short = _shorten(part)
            if short is None:
                continue
            short = re.sub(r"(?:\s+(?:though|too|lol|haha|anyway|lmao|honestly|now|I guess|I think|I suppose|"
                           r"I believe|(?:I|we) (?:am|'m|was|were|feel|felt|got) (?:so |really |very |pretty |super )*"
                           r"\w+))+$", "", short.strip(" ,"), flags=re.IGNORECASE)
            words = short.split()
            dangling = words[-1].lower() in _DANGLING and words[-1] not in ("A", "I")     # "made an A"
            if (len(words) < MIN_WORDS or _UNSAFE.search(short) or "better place" in short.lower() or dangling
                    or _DENIED_FEELING.search(short)
                    or re.search(r"\b(?:wonder|think|guess|know|hope|wish|believe|remember|realize|mean|did|do|does|"
                                 r"was|were|am|is|are|have|has|had|can|could|will|would|should)$", short)
                    or re.search(r"\b(?:could|would|almost|nearly)(?: have|'ve)? died\b", short, re.IGNORECASE)
                    # said back, a speaker's insult to themselves would be the listener's
                    or re.search(r"\b(?:I|we)(?:'m| am| are|'re| was| were) (?:a |an |such a |so |just )?(?:joke|idiot|"
                                 r"failure|loser|mess|fool|stupid|dumb|worthless|pathetic|useless|ugly|fat)\b",
                                 short, re.IGNORECASE)
                    or re.search(r"\b(?:I|we) (?:think|guess|mean|hope so|know|suppose)$", short, re.IGNORECASE)):
                continue
            # An opinion whose hedge could not be taken off ("I guess the one thing ...") is not news, and a
            # while- or when-part with no main clause after it ("one time while I was waking up") is unfinished.
            unfinished = (re.match(rf"^{_TIME}?(?:while|when) ", short, re.IGNORECASE)
                          and len(re.findall(r"\b(?:I|we)\b", short, re.IGNORECASE)) < 2)
            if re.match(_OPINION, short, re.IGNORECASE) or unfinished:
                continue
            said_back = to_second_person(short)
            said_back = said_back[0].lower() + said_back[1:]
            feeling = bool(_FEELING.match(said_back))
            # The news over the rest, events over bare feelings, the earlier sentence (where ED speakers put the
            # news), the point after a "but", then the whole sentence over a part of it.
            plain = not (salient and salient.search(short))
            found.append(((plain, feeling, position, not after_but, part_index > 0), Reflection(said_back, feeling)))
    return min(found, key=lambda pair: pair[0])[1] if found else None
