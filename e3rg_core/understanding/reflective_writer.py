"""The lite tier's reply writer: reflective listening, composed without a language model.

It says back what the speaker just told (their own clause, in the second person: reflection.reflect), framed with
the stance the situation calls for, then either validates or asks one question that follows from it. A death, an
illness or a loss in the speaker's words outranks the voted label; clear bad news is never cheered and clear good
news never gets condolences (situation_stance). Every word it adds is the listener's reaction, never a fact, an
offer or a story of its own. When no clause can be said back (a greeting, a question to the listener, a long
ramble), the stance's written reply serves (template_writer).

Why no model: SmolLM2-135M, steered, judged and retried, was rated 2.6 empathy / 2.4 relevance against the human
listener's 3.5 / 4.2 on held-out conversations (issue 20), and took most of the lite turn's time; replies
retrieved from ED's listeners fitted the turn's specifics even less (docs/lite_replies.md)."""
from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass

from ..contracts import EmotionResult, ReplyWriter, UnderstandingRequest, Utterance
from ..metrics import opening
from .prompts import STANCES, ListenerStance, listener_stance
from .reflection import Reflection, reflect, tidy
from .template_writer import TEMPLATES, template_reply

MAX_WORDS = 25
FOLLOW_UP_CLAUSE_WORDS = 8      # a clause said back longer than this makes the reply long enough alone
# Speech under 8 s: the lite voice in its slowest style (see spoken_seconds), with room for its spread.
MAX_SPOKEN_SECONDS = 7.0

# What outranks the vote: words that say someone died, is ill, or something was lost; and clear good or bad news.
_DEATH = re.compile(r"\b(?:pass(?:ed|es)? away|died|dies|dying|dead|death|funeral|killed|put (?:down|to sleep)|"
                    r"miscarr\w*|lost (?:my|our|her|his) (?:\w+ )?(?:mom|mum|mother|dad|father|grand\w+|wife|"
                    r"husband|son|daughter|brother|sister|aunt|uncle|cousin|friend|baby|dog|cat|pet|puppy|kitten|"
                    r"horse)|buried|grave|rest in peace|memorial)\b", re.IGNORECASE)
_ILLNESS = re.compile(r"\b(?:sick|ill|illness|cancer|tumou?r|diagnos\w+|chemo\w*|surgery|stroke|heart attack|"
                      r"disease|in (?:the )?hospital|to the (?:hospital|er|emergency room|vet)|hospitali[sz]ed|"
                      r"injur\w+|broke (?:my|his|her) \w+|infection|terminal|hospice|icu|emergency room)\b",
                      re.IGNORECASE)
_RECOVERED = re.compile(r"\b(?:recover\w*|(?:is|was|are|were|'s) (?:fine|okay|ok|better|doing (?:well|better|"
                        r"great))|cancer[- ]free|in remission|survived|made it through|pulled through|"
                        r"healed|clean bill)\b", re.IGNORECASE)
_BAD_NEWS = re.compile(r"\b(?:lost|fired|laid off|failed|fail|broke up|dumped|cheated|stolen|stole|robbed|"
                       r"crash\w*|accident|rejected|denied|scam\w*|hurt|ruined|cancel+ed|flat tire|divorce\w*|"
                       r"evict\w*|broken|broke|kept my|took credit|lied|betray\w*|ignored|yelled|insult\w*|"
                       r"rude|unfair|worst|terrible|awful|horrible|hard|tough|quit|bummed|stress\w*|insane|miss\w*|scared|afraid|worried|anxious|nervous|lonely|"
                       r"alone|miss (?:him|her|them|my)|sad|upset|angry|mad|furious|annoyed|disappointed|"
                       r"embarrass\w*|ashamed|guilty|jealous|disgust\w*|gross)\b", re.IGNORECASE)
_GOOD_NEWS = re.compile(r"\b(?:got (?:the|a|my) (?:job|promotion|raise|offer|part|scholarship)|promot\w+|"
                        r"passed|won|win|engaged|married|graduat\w+|accepted|hired|new (?:baby|job|house|puppy)|"
                        r"bought (?:a|my|our) (?:new )?(?:house|home|car)|got into|finished|proud|excited|"
                        r"thrilled|happy|glad|grateful|thankful|overjoyed|great|amazing|awesome|wonderful)\b",
                        re.IGNORECASE)

# Someone the speaker names, for a question about them ("What do you miss most about your grandmother?").
_PEOPLE = ("grandmother grandma granny grandfather grandpa mother mom mum father dad wife husband son daughter "
           "brother sister aunt uncle cousin friend boyfriend girlfriend partner baby dog cat puppy kitten pet horse "
           "bird boss coworker neighbor neighbour kids children parents family fiance fiancee").split()
_PERSON = re.compile(rf"\byour (?:(?:best|old|little|older|younger|new|dear) )?({'|'.join(_PEOPLE)})\b")


@dataclass(frozen=True)
class Frames:
    """How one stance says a clause back: sentences with {c} for the clause (`lead`), and the sentence after it
    that validates or asks (`follow`). `feeling_lead` serves a clause that states a feeling ("you were so
    nervous"), which an echo question would sound odd with."""
    lead: tuple[str, ...]
    follow: tuple[str, ...]
    feeling_lead: tuple[str, ...] = ("It sounds like {c}.", "I hear you, {c}.", "So {c}.")


FRAMES: dict[str, Frames] = {
    "loss": Frames(
        ("I'm so sorry {c}.", "Oh no, I'm so sorry {c}.", "I'm really sorry to hear {c}.",
         "I'm so sorry that {c}.", "Oh, I'm so sorry {c}.", "That's heartbreaking. I'm so sorry {c}."),
        ("How are you holding up?", "That's so much to carry.", "Be gentle with yourself right now.",
         "How are you coping with it all?", "That must hurt so much.", "It's okay to feel however you feel.",
         "How are you doing today?", "Grief like that takes time."),
        ("I'm so sorry {c}.", "Oh, I'm sorry {c}.")),
    "illness": Frames(
        ("Oh no, I'm sorry {c}.", "I'm so sorry {c}.", "That's really worrying, {c}.",
         "Oh no, {c}? That's so hard.", "I'm sorry to hear {c}."),
        ("How are you holding up?", "That must be so stressful.", "I hope things turn around soon.",
         "Waiting like that is so hard.", "How are you coping with it?", "That's a lot to deal with."),
        ("I'm sorry {c}.", "Oh no, {c}.")),
    "relief": Frames(
        ("Oh, what a relief that {c}.", "I'm so glad {c}.", "Phew, {c}! What a relief.",
         "That's such a relief, {c}."),
        ("How are you feeling now?", "That must have been a scary time.", "You must feel so much lighter.",
         "What a weight off your shoulders.")),
    "celebrate": Frames(
        ("Wow, {c}! That's wonderful.", "{C}? That's amazing!", "Oh, {c}! That's great news.",
         "I love that {c}!", "That's fantastic, {c}!", "Yay, {c}! That's brilliant.",
         "Congratulations, {c}!", "Oh wow, {c}? That's huge."),
        ("You must be thrilled.", "How are you celebrating?", "How does it feel?", "You should be proud.",
         "What was the best part?", "That must feel so good.", "That made me smile.", "Enjoy every bit of it!"),
        ("It's so nice that {c}!", "I love hearing that {c}.", "It sounds like {c}, and rightly so!")),
    "look_forward": Frames(
        ("Oh, {c}? How exciting!", "So {c}! That sounds promising.", "{C}? That sounds lovely.",
         "Ooh, {c}! I hope it goes well.", "How exciting that {c}!"),
        ("What are you most looking forward to?", "I hope it goes really well.", "Fingers crossed for you!",
         "How are you feeling about it?", "It sounds like something to look forward to."),
        ("It sounds like {c}, and that's a good sign.", "I love that {c}!")),
    "appreciate": Frames(
        ("It's lovely that {c}.", "That's so kind, {c}.", "I love that {c}.", "Aw, {c}. That's really sweet."),
        ("That kind of thing means a lot.", "People like that make the world kinder.", "How did it feel?",
         "That must have meant a lot.")),
    "surprise": Frames(
        ("Wow, {c}? I didn't see that coming!", "Really, {c}? What a surprise.", "No way, {c}?",
         "Whoa, {c}? That's unexpected.", "Huh, {c}? That's quite a twist."),
        ("How did you react?", "What happened next?", "How did you take it?", "I bet you didn't expect that!")),
    "comfort": Frames(
        ("Oh no, {c}? That's so hard.", "I'm sorry {c}.", "That's really sad, {c}.",
         "Oh, {c}. That must hurt.", "Aw, I'm sorry {c}."),
        ("How are you holding up?", "It's okay to feel down about it.", "That would get anyone down.",
         "How are you feeling now?", "I wish it had gone differently for you.", "That's a lot to deal with."),
        ("I'm sorry {c}.", "Oh, {c}. That sounds really hard.", "It makes sense that {c}.")),
    "reminisce": Frames(
        ("Aw, {c}. That sounds special.", "Oh, {c}? What a memory.", "I love that {c}.",
         "So {c}. That sounds like a time to treasure."),
        ("What do you remember most about it?", "Do you think about it often?", "Memories like that stay with us.",
         "It's nice to look back on times like that.")),
    "reassure": Frames(
        ("Oh no, {c}? That sounds scary.", "That sounds stressful, {c}.", "{C}? That must be nerve-racking.",
         "It makes sense to be uneasy when {c}.", "Oh, {c}? I'd be nervous too."),
        ("What worries you most about it?", "It's okay to feel uneasy about it.", "Anyone would be nervous.",
         "How are you feeling about it now?", "Take it one step at a time.", "Is it any better now?"),
        ("It makes sense that {c}.", "I hear you, {c}. That sounds stressful.")),
    "validate": Frames(
        ("Ugh, {c}? That's so unfair.", "Wait, {c}? That's not okay.", "{C}? I'd be annoyed too.",
         "I can't believe {c}.", "Seriously, {c}? That's infuriating."),
        ("Did you say anything?", "How did you handle it?", "Your frustration makes total sense.",
         "Anyone would be fed up.", "You had every right to be upset.", "That would drive me up the wall."),
        ("No wonder {c}.", "It makes sense that {c}.")),
    "disgust": Frames(
        ("Ew, {c}? That's gross.", "Yuck, {c}? I'd be grossed out too.", "Ugh, {c}? How nasty."),
        ("What did you do?", "That would turn my stomach.", "No wonder you were disgusted.")),
    "ease": Frames(
        ("Oh, {c}? That happens to everyone.", "So {c}. Honestly, we all have moments like that.",
         "Aw, {c}? Don't be too hard on yourself.", "Oh no, {c}? That's so human."),
        ("Most people forget these things fast.", "You can laugh about it one day.",
         "How do you feel about it now?", "It was an honest mistake."),
        ("It makes sense that {c}. Go easy on yourself.", "I hear you, {c}. It happens to everyone.")),
    "envy": Frames(
        ("It's natural to feel that way when {c}.", "I get it, {c}.", "{C}? Anyone would feel a bit envious."),
        ("It's hard not to compare sometimes.", "That feeling makes sense.", "Wanting that too is only human.")),
    "interest": Frames(
        ("Oh, {c}? Tell me more.", "So {c}. What's that like?", "{C}? How did that come about?",
         "Ah, {c}. How is that going?", "Oh, so {c}. What was that like?", "Oh, {c}? I'd love to hear more."),
        ("How did it go?", "What was that like?", "What happened then?", "Tell me more about it.",
         "How did that come about?", "I'd love to hear more.", "What made it stick with you?",
         "How do you feel about it?"),
        ("Oh, {c}? Tell me more.", "So {c}. What's behind that?")),
    "acknowledge": Frames(
        ("So {c}. How do you feel about it?", "Oh, {c}? How are you taking it?", "Ah, {c}. What do you make of it?",
         "{C}? How did that leave you feeling?", "Hm, so {c}. How are you doing with it?"),
        ("How are you doing with it?", "What do you make of it?", "How are you feeling about it now?",
         "How does that sit with you?", "How are you taking it?", "What's going through your mind?",
         "How did that leave you feeling?", "Is it still on your mind?"),
        ("So {c}. What's on your mind about it?", "I hear you, {c}. What's weighing on you most?")),
}
_PERSON_QUESTIONS = {
    "loss": ("What do you miss most about your {p}?", "What was your {p} like?",
             "What do you remember most about your {p}?"),
    "illness": ("How is your {p} doing today?", "How is your {p} holding up?"),
    "relief": ("How is your {p} doing now?",),
}
# When the speaker asks the listener something: the listener has no life of its own to tell, so it says so lightly
# and turns the question back.
_ASKED_BACK = ("Good question! I'm more curious about you, though.", "Hmm, I'd rather hear your side of it.",
               "That's a good question. What's your own take?", "Ha, good question. What about you?",
               "I'd love to hear what you think first.")
_GREETINGS = ("Hi! What's on your mind today?", "Hello! How has your day been?", "Hey, good to hear from you. "
              "What's new with you?", "Hi there! What have you been up to?")


def situation_stance(text: str, voted: ListenerStance) -> str:
    """The frames the turn's words call for: a death or an illness outranks the vote (unless they say it ended
    well); clear bad news is not cheered and clear good news does not get condolences."""
    death, ill, recovered = _DEATH.search(text), _ILLNESS.search(text), _RECOVERED.search(text)
    if death:
        return "loss"
    if ill:
        return "relief" if recovered else "illness"
    bad, good = _BAD_NEWS.search(text), _GOOD_NEWS.search(text)
    if voted.cheer and bad and not good:
        return "acknowledge"
    if voted.condolences and good and not bad:
        return "acknowledge"
    # Warm words need words to be warm about: a glad vote without good news in the turn is met with interest, a
    # sad one without bad news with an open question.
    if voted.cheer and voted.name != "surprise" and not good:
        return "interest"
    if voted.condolences and not bad:
        return "acknowledge"
    return voted.name


def _turn_seed(history: tuple[Utterance, ...], seed: int) -> int:
    text = "\n".join(u.utterance for u in history)
    return int.from_bytes(hashlib.sha256(f"{seed}:{text}".encode()).digest()[:4], "little")


def spoken_seconds(text: str) -> float:
    """About how long the lite voice takes to say the text in its slowest style: 0.34 s + 0.074 s a letter or
    digit + 0.49 s a pause, measured on the project's written replies (lite_writer.SPOKEN_SECONDS)."""
    return 0.34 + 0.074 * len(re.findall(r"[A-Za-z0-9]", text)) + 0.49 * len(re.findall(r"[,.!?;:]+", text))


def fits(text: str) -> bool:
    return len(text.split()) <= MAX_WORDS and spoken_seconds(text) <= MAX_SPOKEN_SECONDS


def _fill(frame: str, clause: str) -> str:
    text = frame.replace("{C}", clause[:1].upper() + clause[1:]).replace("{c}", clause)
    return text[:1].upper() + text[1:]


def compose(reflection: Reflection, stance: str, history: tuple[Utterance, ...], seed: int,
            asked: bool = False) -> str | None:
    """A reply that says the reflection back in the stance's words, with a follow-up when it fits; None when
    even the shortest does not fit the length limits."""
    frames = FRAMES[stance]
    rng = random.Random(seed)
    leads = list(frames.feeling_lead if reflection.feeling else frames.lead)
    rng.shuffle(leads)
    follows = list(frames.follow)
    person = _PERSON.search(reflection.clause)
    if person and stance in _PERSON_QUESTIONS:
        follows += [q.format(p=person.group(1)) for q in _PERSON_QUESTIONS[stance]] * 2
    rng.shuffle(follows)
    if asked:       # the speaker asked the listener something: turn it back rather than ignore it
        follows = [rng.choice(_ASKED_BACK)]
    used = {opening(u.utterance) for u in history if u.role == "listener"}
    for lead in sorted(leads, key=lambda frame: opening(_fill(frame, reflection.clause)) in used):
        first = _fill(lead, reflection.clause)
        if not fits(first):
            continue
        # A lead that asks already, or says back a long clause, stands alone; a follow-up that repeats the lead's
        # words is skipped.
        if not asked and "?" in first.split(reflection.clause)[-1] or len(reflection.clause.split()) > FOLLOW_UP_CLAUSE_WORDS:
            return first
        for follow in follows:
            if follow.rstrip("?.!").lower() in first.lower() or (first.endswith("?") and follow.endswith("?")
                                                                 and lead.count(".") + lead.count("!") == 0):
                continue
            whole = f"{first} {follow}"
            if fits(whole):
                return whole
        return first
    return None


def _written_reply(fallback: ListenerStance, stance: str, history: tuple[Utterance, ...], seed: int) -> str:
    """A short reaction from the stance's written replies and one of its questions, so the turns that come here
    do not all read alike; the whole written reply when the stance has no question to ask."""
    rng = random.Random(seed)
    written = template_reply(fallback, history, seed)
    reactions = [first for text in TEMPLATES[fallback.name]
                 if (first := re.match(r"[^.!?]*[.!]", text)) and "?" not in (first := first.group())]
    follows = [f for f in FRAMES.get(stance, FRAMES[fallback.name]).follow if f.endswith("?")]
    if reactions and follows:
        whole = f"{rng.choice(reactions)} {rng.choice(follows)}"
        if fits(whole):
            return whole
    return written


class ReflectiveReplyWriter(ReplyWriter):
    """Says back what the speaker told, with the stance the situation calls for; the stance's written reply when
    nothing can be said back."""

    name = "reflective listener (rule-based, no model)"

    def __init__(self, seed: int = 0):
        self.seed = seed

    def reply(self, request: UnderstandingRequest, emotion: EmotionResult) -> tuple[str, bool]:
        """The reply, and whether it says back the speaker's own words (False: a written fallback)."""
        history = request.history
        latest = next((u.utterance for u in reversed(history) if u.role == "speaker"), "")
        seed = _turn_seed(history, self.seed)
        voted = listener_stance(emotion)
        stance = situation_stance(tidy(latest), voted)
        asked = bool(re.search(r"\b(?:you|your|u)\b[^.!?]*\?\W*$", latest, re.IGNORECASE))
        salient = re.compile("|".join(p.pattern for p in (_DEATH, _ILLNESS, _BAD_NEWS, _GOOD_NEWS)), re.IGNORECASE)
        reflection = reflect(latest, salient=salient) or reflect(latest, others=stance in ("loss", "illness"),
                                                                 salient=salient)
        if reflection is not None:
            text = compose(reflection, stance, history, seed, asked)
            if text is not None:
                return text, True
        if asked:
            return random.Random(seed).choice(_ASKED_BACK), False
        if re.fullmatch(r"\W*(hi|hello|hey|hiya|howdy|good (morning|afternoon|evening))( there)?\W*", latest,
                        re.IGNORECASE):
            return random.Random(seed).choice(_GREETINGS), False
        fallback = STANCES.get(stance, STANCES["comfort"] if stance in ("loss", "illness") else voted)
        if stance == "relief":
            fallback = STANCES["acknowledge"]
        return _written_reply(fallback, stance, history, seed), False

    def write(self, request: UnderstandingRequest, emotion: EmotionResult, max_new_tokens: int) -> Iterator[str]:
        yield self.reply(request, emotion)[0]
