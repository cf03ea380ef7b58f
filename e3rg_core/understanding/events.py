"""What happened in the speaker's story, by the words that tell it, and the questions a listener asks about that
kind of happening ("Someone stole my mower." -> "Do you know who did it?").

ED's listeners mostly follow up on the happening itself, where a question any story could get reads as generic to
blind raters (docs/lite_replies.md). These are happenings ED speakers often tell of, checked on the tuning part of
ED valid (never on the frozen dev slice or the test split). Each question is written as `topic_writer`'s frames
are: "[time+time|][kinds:]text".
"""
from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Event:
    name: str
    words: re.Pattern
    side: str                       # "bad", "good" or "any": which stances may ask about it
    questions: tuple[str, ...]


def _event(name: str, side: str, words: str, *questions: str) -> Event:
    return Event(name, re.compile(rf"\b(?:{words})\b", re.IGNORECASE), side, questions)


EVENTS: tuple[Event, ...] = (
    # someone else's doing: "I stole a candy bar once" is a confession, not a theft to ask about
    _event("theft", "bad", r"(?<!I )(?<!we )(?:stole|steal\w*)|stolen|robbed|broke into|break[- ]in|burglar\w*|"
           r"pickpocket\w*",
           "past|Do you know who did it?", "past|Did you report it?", "past|Did you ever get it back?"),
    _event("crash", "bad", r"car accident|(?:got into|was in|had) (?:a|an) (?:car )?(?:accident|wreck|crash)|"
           r"crashed|rear[- ]ended|totaled|hit (?:a|my|our|the) (?:car|tree|deer|pole)",
           "past|Was anyone hurt?", "past|self:Are you okay?", "past|How bad was the damage?"),
    _event("breakdown", "bad", r"flat tire|a flat\b|broke down|(?:car|battery) died|ran out of gas|wouldn't start",
           "past|How did you get home?", "past|Did someone stop to help?", "past|Did you get it fixed?"),
    _event("cheating", "bad", r"cheat(?:ed|ing) on",
           "past|How did you find out?", "past|Are you two still together?"),
    _event("breakup", "bad", r"broke up|break up|breakup|dumped|divorc\w+|split up|left me",
           "How long were you together?", "Do you have friends around you?", "Do you think you'll stay friends?"),
    _event("lied", "bad", r"lied to|lying to|betray\w*|behind my back|went back on",
           "past|How did you find out?", "Have you talked to them about it?"),
    _event("fired", "bad", r"(?:got|was|been|get|getting) (?:fired|laid off|let go)|lost (?:my|his|her|their) job",
           "Do you have anything else lined up?", "Are you looking for something new?"),
    _event("failed", "bad", r"failed|flunked|didn't pass|did not pass|rejected|(?:didn't|did not) do well|did poorly|"
           r"bad grade",
           "Can you try again?", "What will you do next?", "Did they say why?"),
    _event("lost_item", "bad", r"(?:lost|misplaced|can't find|couldn't find|left) (?:my|our|the|his|her) (?:\w+ )?"
           r"(?:wallet|keys?|phone|purse|ring|bag|glasses|passport|license|card|money)",
           "past|Did you ever find it?", "past|Did anyone turn it in?"),
    _event("line", "bad", r"cut (?:in front of|in line|ahead)|skipped (?:the|me in) line",
           "past|Did anyone say anything?", "past|Did you say something?"),
    _event("driver", "bad", r"cut (?:me|us) off|tailgat\w+|road rage|ran (?:a|the) (?:red light|stop sign)|"
           r"(?:almost|nearly) (?:hit|ran into) (?:me|us|my car)",
           "past|Were you okay?", "past|Did you get a look at them?", "Does that happen a lot on your way?"),
    _event("storm", "bad", r"hurricanes?|tornado\w*|storms?|power (?:went )?out|power outage|blackout|earthquakes?|"
           r"flood\w*|wildfires?",
           "past|Is everyone safe?", "past|Was there much damage?", "future|Are you ready for it?",
           "future|Do you have somewhere safe to go?"),
    _event("critter", "any", r"spiders?|snakes?|mice|mouse|rats?|roach\w*|cockroach\w*|wasps?|bees?|ants|raccoons?",
           "past|How did you get it out?", "past|Have you seen any more since?"),
    _event("noise", "any", r"(?:heard|hear) (?:a|some|something|noises?|footsteps|someone)|noises? (?:at night|outside|"
           r"downstairs)",
           "past|Did you find out what it was?", "past|Did you go and look?"),
    _event("noisy", "bad", r"barking|loud music|noisy|blasting|(?:neighbou?rs?|upstairs|next door|they) "
           r"(?:are|is|were|was) (?:so |too |really )?loud",
           "Have you talked to them about it?", "Does it go on every night?"),
    _event("restaurant", "bad", r"restaurant|waiter|waitress|the server|(?:my|our|the) (?:food|order|meal)",
           "past|Did you say anything to the staff?", "past|Did you send it back?", "past|Will you go back there?"),
    _event("spill", "any", r"spill(?:ed|t)|knocked over|broke (?:a|my|the|her|his) (?!heart)\w+",
           "past|Were you able to clean it up?", "past|Did anyone see?"),
    _event("forgot", "bad", r"forgot|forgotten",
           "past|Were you able to make up for it?", "past|Did anyone notice?"),
    _event("move", "any", r"(?:moved|moving|move) (?:to (?:a |the |my |our )?(?-i:[A-Z])\w+|into (?:a|the|my|our|an)|"
           r"out of|away|across the country|back home)|new (?:apartment|house|place|city|town|home)",
           "past|self:How do you like the new place?", "future|When is the move?",
           "past|self:Have you settled in yet?"),
    _event("baby", "good", r"(?:I'm|I am|we're|we are|is|she's) pregnant|expecting (?:a baby|a child|twins|"
           r"our (?:first|second|baby)|my (?:first|second))|having a baby|(?:just )?gave birth|"
           r"just had (?:a|the|our|her) baby|due date|newborn",
           "future+now|When is the baby due?", "future+now|Do you know if it's a boy or a girl?",
           "past|How is the little one doing?", "past|Are you getting any sleep?"),
    _event("hired", "good", r"(?:got|landed|accepted|offered) (?:the|a|my|that|an) (?:new )?(?:\w+ )?(?:job|position|"
           r"offer)|got hired|new job|start(?:ing|ed)? (?:a|my) (?:new )?job",
           "past+future|When do you start?", "What will you be doing?", "past|How is the new job going?"),
    _event("passed", "good", r"passed (?:my|the|her|his|our|it|with|all)\b(?! away| on)|graduat\w+|"
           r"got (?:accepted|into (?:college|school|university|the|my|a))|aced|made the team|got my (?:degree|license)",
           "What's next?", "How are you celebrating?"),
    _event("engaged", "good", r"(?:I|we) (?:just )?(?:got|am|'m|are|'re) (?:engaged|getting married|married)|"
           r"proposed to me|I proposed|our wedding",
           "past+now|Have you set a date yet?", "past|How did the proposal go?", "Are you planning a big wedding?"),
    _event("won", "good", r"(?:I|we) (?:just |finally )?won (?:a|the|my|an|some|\$)|lottery|raffle|jackpot",
           "What are you going to do with it?", "past|Did you expect to win?"),
    _event("surprise_party", "good", r"surprise (?:party|visit|trip)|threw (?:me|us) a|surprised (?:me|us) (?:with|by)|"
           r"came home early",
           "past|Did you have any idea?", "past|Who was behind it?"),
    _event("bought", "good", r"(?:bought|buying|buy|purchased|got) (?:a|my|our|myself a) (?:new |used )?(?:car|truck|"
           r"house|home|bike|phone|laptop|computer|tv|console|guitar)|closed on (?:a|our|my) (?:first |new )?(?:house|"
           r"home)",
           "How do you like it so far?", "What made you choose it?"),
    _event("missing", "bad", r"miss (?:him|her|them|my|our)|haven't seen (?:him|her|them|my)|far away|long distance|"
           r"deployed|overseas",
           "When will you see each other again?", "Do you get to talk often?"),
    _event("lonely", "bad", r"lonely|all alone|home alone|no friends|no one to talk to",
           "Do you have someone you can call?", "Is there anything you like doing to get out of the house?"),
    _event("first_day", "any", r"first day",
           "past|How did it go?", "future|What are you most nervous about?", "past|Would you do it again?"),
    _event("cooked", "good", r"cooked|baked|made (?:dinner|lunch|breakfast|a cake|cookies|bread|pie)|new recipe",
           "past|How did it turn out?", "past|Did everyone like it?", "Do you cook a lot?"),
    _event("on_hold", "bad", r"on hold|customer service|waited (?:for )?(?:over |almost |nearly )?(?:an|\d+|two|three|"
           r"four|five) (?:hours?|minutes?)|(?:long|huge) line",
           "past|Did it get sorted out in the end?", "past|Did you ever get through to someone?"),
    _event("late", "bad", r"traffic|running late|late for|missed (?:my|the) (?:bus|train|flight|appointment)",
           "past|Did you make it in time?", "past|Did anyone mind?"),
    _event("scam", "bad", r"scam\w*|fraud\w*|hacked|identity theft|ripped (?:me )?off",
           "past|Were you able to get your money back?", "past|Have you reported it?"),
    _event("flight", "any", r"flight|flying|plane|airport",
           "future|How long is the flight?", "past|Was it a bumpy ride?", "Do you fly often?"),
    _event("competition", "any", r"competition|tournament|contest|recital|tryouts?|audition\w*|race",
           "future|How are you feeling going in?", "past|How did you do?", "How long have you been doing it?"),
    _event("award", "good", r"award(?:s|ed)?|recogni[sz](?:ed|ition)|honou?red|employee of the (?:month|year)",
           "What was it for?", "past|Did you get to celebrate?"),
    _event("finished", "good", r"finished (?:writing|building|my|the|a|our)|(?:wrote|built|made) (?:my|a|an|the) own",
           "How long did it take you?", "What will you do next?"),
    _event("tried_food", "any", r"(?:ate|tried|tasted) (?:\w+ ){1,3}for the first time|new (?:restaurant|dish|recipe)",
           "past|Would you have it again?", "past|What did it taste like?"),
    _event("fell", "any", r"(?<!in love )(?:fell|tripped|slipped)(?! asleep| in love| out of)",
           "past|self:Were you hurt?", "past|person+pet:{Was} {topic} hurt?", "past|Did anyone help you up?"),
    _event("weight", "any", r"diet\w*|lost (?:\d+|\w+) pounds|gained (?:\d+|\w+ )?(?:pounds|weight)|gym|working out|"
           r"exercis\w+",
           "How long have you been at it?", "What's been the hardest part?", "Do you have a routine?"),
    _event("found_money", "good", r"found (?:a |some |\$?\d+ )?(?:dollars?|money|cash|bills?|twenty|\$\d+)",
           "past|What did you do with it?", "past|Where did you find it?"),
    _event("reunion", "good", r"ran into (?:an? |my |our )?(?:old )?(?:friend|classmate|schoolmate|coworker|teacher|ex|"
           r"neighbou?r)\w*|reconnect\w*|old friends?",
           "How have they been?", "Are you going to stay in touch?", "past|What did you two talk about?"),
    _event("results", "any", r"(?:test |blood |lab )?results|biopsy|waiting to hear|waiting for (?:the )?(?:call|news|"
           r"answer)",
           "When do you find out?", "How are you holding up while you wait?"),
    _event("date", "any", r"first date|(?:on|a) date with|asked (?:her|him) out|blind date",
           "past|How did it go?", "future|Where are you going?", "past|Are you going to see each other again?"),
    _event("military", "any", r"military|army|navy|air force|marines|boot camp|deploy\w+",
           "How long will they be gone?", "Do you get to talk often?", "How are you holding up?"),
    _event("sports", "any", r"(?:my|our|the) team|playoffs|championship|super bowl|world series|the finals",
           "Have you always been a fan?", "past|Did you watch it live?", "future|Are you going to watch?"),
)


def event_questions(text: str, side: str | None) -> tuple[str, ...]:
    """The questions about what the text tells happened, for a stance on the side of good or bad news (None: a
    stance of neither, which gets only the questions that fit both): "Do you know who did it?" is never asked at
    good news."""
    return tuple(question for event in EVENTS if event.side in (side, "any") and event.words.search(text)
                 for question in event.questions)
