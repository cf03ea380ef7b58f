"""What happened in the speaker's story, by the words that tell it, and what a listener says to that kind of
happening: a reaction that names it ("Ugh, breakups are so hard.") and the questions they ask about it ("Someone
stole my mower." -> "Do you know who did it?").

ED's listeners mostly follow up on the happening itself, where a question any story could get reads as generic to
blind raters (docs/lite_replies.md). These are happenings ED speakers often tell of, checked on the tuning part of
ED valid (never on the frozen dev slice or the test split). Each reaction and question is written as `topic_writer`'s
frames are: "[time+time|][kinds:]text".
"""
from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Event:
    name: str
    words: re.Pattern
    side: str                       # "bad", "good" or "any": which stances may react to it and ask about it
    questions: tuple[str, ...]
    reactions: tuple[str, ...]
    # whether its words alone tell news of its side: "I couldn't sleep" does, "the restaurant" and "traffic" come
    # up in good stories too
    is_news: bool = True


def _event(name: str, side: str, words: str, *questions: str, reactions: tuple[str, ...] = (),
           is_news: bool = True) -> Event:
    return Event(name, re.compile(rf"\b(?:{words})\b", re.IGNORECASE), side, questions, reactions, is_news)


# Words that `topic_writer` reads a stance from too: an animal left to fend for itself, and tears that tell of being
# moved
STRAY_ANIMAL = r"(?:abandoned|stray|lost) (?:\w+ )?(?:cat|dog|kitten|puppy|pup)"
MOVED_TO_TEARS = (r"made me (?:cry|tear up)|brought (?:me to )?tears|teared up|moved me|"
                  r"(?:moved|touched) (?:me )?to tears")

# A baby on the way and a baby born are met alike; their questions differ
_BABY_REACTIONS = ("{Oh my goodness/Wow/Aw}, congratulations!", "{Aw/Oh}, a baby, how wonderful!")

EVENTS: tuple[Event, ...] = (
    # someone else's doing: "I stole a candy bar once" is a confession, not a theft to ask about
    _event("theft", "bad", r"(?<!I )(?<!we )(?:stole|stealing)|stolen|robbed|pickpocket\w*",
           "past|Do you know who did it?", "past|Did you report it?", "past|Did you ever get it back?",
           reactions=("{Ugh/Oh no}, that's such a violation.", "What a rotten thing to do to you.",
                      "{Ugh, /Oh no, /}some people have no shame.")),
    # someone in the home, whether or not anything was taken: "an intruder broke into my home, I hid in the closet"
    _event("break_in", "bad", r"broke into|break[- ]in|burglar\w*|intruder",
           "past|self:Are you okay?", "past|Was anything taken?", "Do you feel safe at home now?",
           reactions=("{Oh no/Oh gosh}, a break-in is so scary.", "{Ugh/Oh no}, that's such a violation.")),
    _event("crash", "bad", r"car accident|(?:got into|was in|had) (?:a|an) (?:car )?(?:accident|wreck|crash)|"
           r"(?:road|traffic|bike|motorcycle|minor|small|serious|bad|huge) (?:car )?(?:accident|wreck)|"
           r"car (?:\w+ ){1,3}(?:accident|wreck)|"
           r"fender[- ]bender|crashed|rear[- ]ended|totall?ed|hit (?:a|my|our|the) (?:car|tree|deer|pole)",
           "past|Was anyone hurt?", "past|self:Are you okay?", "past|How bad was the damage?",
           reactions=("{Oh no/Yikes}, accidents are so scary.", "{Oh no/Oh gosh}, what a scare.")),
    _event("breakdown", "bad",
           # a car that broke down, not a person ("I really broke down when I heard")
           r"flat tire|a flat\b|(?:car|truck|van|bus|engine|it) (?:\w+ )?broke down|(?:car|battery) died|"
           r"ran out of gas|wouldn't start|overheat\w*",
           "past|How did you get home?", "past|Did someone stop to help?", "past|Did you get it fixed?",
           reactions=("{Ugh/Oh no}, car trouble is the worst.", "{Ugh/Oh no}, what bad timing.")),
    _event("cheating", "bad", r"cheat(?:ed|ing) on (?:me|him|her|us|my (?:wife|husband|girlfriend|boyfriend|partner|"
           r"fianc\w+))|slept with my (?:wife|husband|girlfriend|boyfriend|partner)",
           "past|How did you find out?", "past|Are you two still together?",
           reactions=("{Oh no/Ugh}, that's such a betrayal.", "I'm so sorry, that must hurt so much.")),
    _event("breakup", "bad", r"broke up|break(?:ing)? up|broken up|breakup|dumped|divorc\w+|split up|left me",
           "How long were you together?", "Do you have friends around you?", "Do you think you'll stay friends?",
           reactions=("{Aw/Oh no}, breakups are so hard.", "I'm sorry, breakups really hurt.")),
    # someone else's doing, as for a theft: "I lied to my mother" is a confession
    _event("lied", "bad", r"(?<!I )(?<!we )(?<!bad )(?<!for )(?:lied|lying) to|betray\w*|behind my back|went back on|"
           r"promises? (?:he|she|they) (?:can't|cannot|couldn't|never) keep|broke (?:his|her|their|a) promise",
           "past|How did you find out?", "Have you {talked/spoken} to them about it?",
           reactions=("{Ugh/Oh no}, that's such a betrayal.", "It hurts when someone you trust does that.")),
    _event("fired", "bad", r"(?:got|was|been|get|getting) (?:fired|laid off|let go)|lost (?:my|his|her|their) job",
           # not of a layoff years back
           "recent+now+future|self:Do you have anything else lined up?",
           "recent+now+future|self:Are you looking for something new?",
           reactions=("{Oh no/Ugh}, losing a job is so hard.", "I'm sorry, that's such a blow.")),
    _event("failed", "bad", r"failed|flunked|didn't pass|did not pass|rejected|(?:didn't|did not) do well|did poorly|"
           r"bad grade|(?:an|first|his|her|my|their) (?-i:F)\b",
           "Can you try again?", "What will you do next?", "Did they say why?",
           reactions=("{Aw/Oh no}, that must sting.", "I'm sorry, that's a tough blow.")),
    _event("lost_item", "bad", r"(?:lost|misplaced|can't find|couldn't find|left) (?:my|our|the|his|her) (?:\w+ )?"
           r"(?:wallet|keys?|phone|purse|ring|bag|glasses|passport|license|card|money)|lost (?:\$\d+|\d+ dollars|"
           r"some money|all (?:my|our) money)|"
           # "My phone went missing."
           r"(?:my|our) (?:\w+ )?(?:wallet|keys?|phone|purse|ring|bag|glasses|passport) (?:went|was|has gone|is) "
           r"missing",
           "past|Did you ever find it?", "past|Did anyone turn it in?",
           reactions=("{Ugh/Oh no}, losing things is the worst.", "{Ugh/Oh no}, I hate that sinking feeling.")),
    _event("line", "bad", r"cut (?:in front of|in line|ahead)|skipped (?:the|me in) line",
           "past|Did anyone say anything?", "past|Did you say something?",
           reactions=("{Ugh/Wow}, cutting in line is so rude.",)),
    _event("driver", "bad", r"cut (?:me|us) off|tailgat\w+|road rage|ran (?:a|the) (?:red light|stop sign)|"
           r"(?:almost|nearly) (?:hit|ran into) (?:me|us|my car)",
           "past|Were you okay?", "past|Did you get a look at them?", "Does that happen a lot on your way?",
           reactions=("{Ugh/Yikes}, some people shouldn't be on the road.",
                      "{Ugh/Wow}, some people drive like maniacs.")),
    _event("storm", "bad", r"hurricanes?|tornado\w*|storms?|power (?:went )?out|power outage|blackout|earthquakes?|"
           r"flood\w*|wildfires?",
           "past|Is everyone safe?", "past|Was there much damage?", "future|Are you ready for it?",
           "future|Do you have somewhere safe to go?"),
    _event("fire", "bad", r"caught (?:on )?fire|(?:house|home|kitchen|apartment|garage|car) (?:was |is )?on fire|"
           r"burn(?:ed|t) down|(?:house|kitchen|grease) fire",
           "past|Is everyone okay?", "past|Was there much damage?",
           reactions=("{Oh no/Oh my gosh}, a fire is so scary.", "{Oh no/Oh my gosh}, that's terrifying.")),
    _event("critter", "any", r"spiders?|snakes?|mice|mouse|rats?|roach\w*|cockroach\w*|wasps?|"
           r"(?<!spelling )bees?|ants|raccoons?|"
           r"mosquito(?:e?s)?|fleas|bed ?bugs",
           "past|How did you get it out?", "past|Have you seen any more since?"),
    _event("noise", "any", r"(?:heard|hear) (?:a|some|something|noises?|footsteps|someone)|noises? (?:at night|outside|"
           r"downstairs)",
           "past|Did you find out what it was?", "past|Did you go and look?"),
    _event("noisy", "bad", r"barking|loud (?:music|party|parties|power tools)|noisy|blasting|fireworks every|"
           r"(?:neighbou?rs?|upstairs|next door|they) (?:are|is|were|was) (?:so |too |really )?loud",
           "Have you {talked/spoken} to them about it?", "Does it go on every night?",
           reactions=("{Ugh/Oh man}, that kind of noise drives me crazy.",
                      "{Ugh/Oh man/Oh no}, noise like that is {the worst/so draining}.")),
    _event("restaurant", "bad", r"restaurant|waiter|waitress|the server|(?:my|our|the) (?:food|order|meal)",
           "past|Did you say anything to the staff?", "past|Did you send it back?", "past|Will you go back there?",
           is_news=False),
    _event("spill", "any", r"spill(?:ed|t)|knocked over|broke (?:a|my|the|her|his) (?!heart)\w+",
           "past|Were you able to clean it up?", "past|Did anyone see?"),
    # the speaker's: "my friend forgot to invite me" is another's doing
    _event("forgot", "bad", r"(?:I|we)(?: (?!never\b)\w+)? forgot|(?:I|we)(?:'d| had) forgotten|forgot (?:my|our)",
           "past|Were you able to make up for it?", "past|Did anyone notice?"),
    # the speaker's move: "my girlfriend moved away without telling me" is another's
    _event("move", "any", r"(?<!\bshe )(?<!\bhe )(?<!\bthey )(?<!friend )(?<!neighbor )(?<!neighbour )"
           r"(?<!sister )(?<!brother )(?<!son )(?<!daughter )(?:moved|moving|move) "
           r"(?:to (?:a |the |my |our )?(?-i:[A-Z])\w+|into (?:a|the|my|our|an)|"
           r"out of|away|across the country|back home)|new (?:apartment|house|place|city|town|home)|"
           r"(?:has|have|had) to leave (?:the )?(?:state|country|city|town)|"
           r"(?:I|we) (?:just )?moved (?:over|this|last)",
           "recent|self:How do you like the new place?", "future|When is the move?",
           "recent|self:Have you settled in yet?",
           reactions=("Moving is such a big change.",)),
    # a baby on the way is asked about by what is still to come, whenever the news was had ("Just found out my wife is
    # pregnant"); one born, by how it is doing
    _event("pregnancy", "good", r"(?:I'm|I am|we're|we are|is|she's) pregnant|found out (?:that )?(?:she|I|we|my wife|"
           r"my girlfriend) (?:was|were|is|are) pregnant|expecting (?:a baby|a child|twins|"
           r"our (?:first|second|baby)|my (?:first|second))|having a baby|due date|(?:baby|child) (?:is )?on the way|"
           r"having twins",
           "When is the baby due?", "Do you know if it's a boy or a girl?",
           reactions=_BABY_REACTIONS),
    _event("baby", "good", r"(?:just )?gave birth|just had (?:a|the|our|her) baby|newborn",
           "recent|How is the little one doing?", "recent|Are you getting any sleep?",
           reactions=_BABY_REACTIONS),
    # a birth watched: "Watching my first child being born changed my life forever." is no "Aw, that's nice!"
    _event("born", "good", r"(?:child|baby|son|daughter|kids?|children|grand(?:son|daughter|child|baby)) "
           r"(?:being|was|were|getting) born|birth of (?:my|our)",
           "past|What do you remember most about that day?",
           reactions=("{Aw/Oh}, what a {special/beautiful} moment.", "{Aw, /Oh, /}there's nothing quite like that.")),
    # not "I got a job interview"
    _event("hired", "good", r"(?:got|landed|accepted|offered) (?:the|a|my|that|an) (?:new )?(?:\w+ )?(?:job|position|"
           r"offer)(?! interview)|got hired|new job|start(?:ing|ed)? (?:a|my) (?:new )?job",
           "past+future|self:When do you start?", "self:What will you be doing?",
           "recent|self:How is the new job going?",
           reactions=("self:{Congrats/Congratulations} on the new job!", "{Oh/Wow}, a new job, how exciting!")),
    _event("passed", "good", r"passed (?:my|the|her|his|our|it|with|all)\b(?! away| on)|graduat\w+|"
           r"got (?:accepted|into (?:college|school|university|(?:the|my|a) (?:\w+ )?(?:college|school|university|"
           r"program|academy|team|club|course)))|aced|made the team|got my (?:degree|license)",
           "What's next?", "recent|How are you celebrating?",
           reactions=("past|{Congratulations/Congrats}, that's a big achievement!", "past|{Wow/Oh}, well done!")),
    _event("engaged", "good", r"(?:I|we) (?:just )?(?:got|am|'m|are|'re) (?:engaged|getting married|married)|"
           r"proposed to me|I proposed|our wedding",
           "past+now|Have you set a date yet?", "past|How did the proposal go?", "Are you planning a big wedding?",
           reactions=("{Oh my goodness/Wow}, congratulations to you both!",)),
    # luck, not a contest won by skill: "I won the school spelling bee"
    _event("won", "good", r"(?:I|we) (?:\w+ ){0,2}won (?:a|the|my|an|some|\$|\d)(?![^.!?]*?\b(?:bee|contest|"
           r"competition|tournament|race|game|match|championship|title|election|debate|trophy|medal)\b)|"
           r"\b(?:I|we)\b[^.!?]*?\bwon (?:\$\d+|\d+ dollars)|"
           r"hit the jackpot",
           "What are you going to do with it?", "past|Did you expect to win?",
           reactions=("self:{Wow/Whoa}, lucky you!", "{Wow/Oh wow}, what luck!")),
    # a ticket bought, won or not: "today i saw the lottery was for 36 million ... so I decided to buy a ticket."
    _event("lottery", "any", r"lottery|lotto|powerball|mega millions|scratch(?:ers?| ?-?offs?| tickets?)",
           "future+now|What would you do if you won?", "past|Did you win anything?",
           reactions=("future|{Ooh, /Oh, /}fingers crossed!",), is_news=False),
    _event("surprise_party", "good", r"surprise (?:party|visit|trip)|threw (?:me|us) a|surprised (?:me|us) (?:with|by)|"
           r"came home early",
           "past|Did you have any idea?", "past|Who was behind it?",
           reactions=("{Aw/Oh}, what a lovely surprise!",)),
    # the speaker's own buy, not the neighbor's: "my neighbor just bought a new car"
    _event("bought", "good", r"(?:(?:I|we)(?: just| finally)? (?:bought|purchased|got)|buying|buy) "
           r"(?:a|my|our|myself a) (?:new |used )?(?:car|truck|house|home|bike|phone|laptop|computer|tv|console|"
           r"guitar)|"
           r"closed on (?:a|our|my) (?:first |new )?(?:house|home)",
           "How do you like it so far?", "What made you choose it?"),
    _event("missing", "bad", r"miss (?:him|her|them|my|our)|haven't seen (?:him|her|them|my)|far away|long distance|"
           r"deployed|overseas",
           "person:When will you see each other again?", "person:Do you get to talk often?",
           reactions=("person:{Aw/Oh}, missing someone is so hard.",), is_news=False),
    # "it was my first time staying away from the family. felt dreadful!", "after a couple of weeks i got homesick"
    _event("homesick", "bad", r"homesick\w*|miss(?:ed|ing)? home|"
           r"(?:first time|first \w+) (?:\w+ )?away from (?:my |the |our )?(?:family|home|parents)",
           "now+future|Do you get to call home {often/much}?", "past|Did it get any easier {with time/after a while}?",
           reactions=("{Aw/Oh}, being away from home is {so hard/really hard}.",
                      "{Aw, /Oh, /}homesickness is {the worst/so hard}.")),
    _event("lonely", "bad", r"lonely|all alone|home alone|no friends|no one to talk to|empty house|"
           r"(?:house|home|apartment) is (?:way |so |just )?(?:too|to) quiet|"
           r"(?:don't|do not) know (?:anyone|anybody)|"
           r"(?:haven't|have not|not) (?:met|made) (?:any |many )?friends|(?:so|too|way too) quiet around here|"
           r"alone in (?:the|my|an|this) (?:\w+ )?(?:house|apartment)|"
           r"(?:don't|do not) have (?:a lot of |many |any )?friends",
           "Do you have someone you can call?", "now|Have you found any ways to meet people?",
           "Is there anything you {like doing/enjoy doing} to get out of the house?",
           reactions=("{Aw/Oh}, feeling lonely is {so hard/really hard}.",)),
    # a partner's eye elsewhere, suspected: not asked "Are you two still together?"
    _event("suspicion", "bad", r"(?:texting|messaging|talking to) (?:a|another|some|other) (?:woman|women|girl|girls|"
           r"guy|guys|man|men)|eyes for (?:someone|somebody|another)",
           "Have you been able to talk to them about it?", "How long has this been going on?",
           reactions=("{Oh no/Oh}, that must be so unsettling.", "{Oh no/Ugh}, that's such a painful feeling.")),
    _event("passed_over", "bad", r"passed over|(?:didn't|did not|never) get (?:the|a|my) (?:promotion|raise|position)|"
           r"promotion\b.{0,40}\b(?:didn't|did not) get it",
           "past|Did they say why?", "past|Do you know who got it?",
           reactions=("{Oof/Ugh}, that really stings.", "{Oh no/Ugh}, that's so disappointing.")),
    _event("traffic", "bad", r"(?:sat|stuck|sitting) in traffic|traffic jam|bumper to bumper",
           "Is that your usual commute?", "past|Did you at least have something good to listen to?",
           reactions=("{Ugh/Oh no}, traffic like that is the worst.",)),
    _event("gamble_lost", "bad", r"lost at (?:bingo|poker|the casino|blackjack|cards|slots)|"
           r"(?:didn't|did not) win (?:a penny|a thing|anything|a dime)|off by one number",
           "Do you play often?", "past|Were you close to winning?",
           reactions=("{Aw/Oof}, that's no fun.", "{Aw/Oh no}, that's such a letdown.")),
    _event("strange_calls", "bad", r"(?:strange|weird|random|creepy|prank|anonymous) (?:phone )?calls",
           "Do you know who it is?", "Have you tried blocking the number?",
           reactions=("{Ugh/Oh no}, calls like that are so unsettling.",)),
    _event("calls", "bad", r"(?:has|have|keeps?) call(?:ed|ing) me (?:\w+ ){0,3}(?:times|every day|a day)",
           "Do you know what they want?", "Have you tried blocking the number?",
           reactions=("{Ugh/Oh man}, that would drive me crazy.",)),
    _event("first_day", "any", r"first day(?! off)",
           "past|How did it go?", "future|What are you most nervous about?", "past|Would you do it again?",
           reactions=("First days are always a lot.",)),
    _event("cooked", "good", r"cooked|baked|made (?:dinner|lunch|breakfast|a cake|cookies|bread|pie)|new recipe",
           "past|How did it turn out?", "past|Did everyone like it?", "Do you cook a lot?",
           reactions=("{Mmm/Ooh}, that sounds delicious!", "{Mmm/Ooh/Yum}, homemade food is the best.")),
    _event("on_hold", "bad", r"on hold|customer service|waited (?:for )?(?:over |almost |nearly )?(?:an|\d+|two|three|"
           r"four|five) (?:hours?|minutes?)|(?:long|huge) line",
           "past|Did it get sorted out in the end?", "past|Did you ever get through to someone?",
           reactions=("{Ugh/Oh man}, waiting like that is the worst.",), is_news=False),
    # traffic alone makes no one late: "2 people decided to block traffic because of an argument"
    _event("late", "bad", r"(?:stuck|sitting|caught) in (?:\w+ )?traffic|running late|late for|"
           r"missed (?:my|the) (?:bus|train|flight|appointment)",
           "past|Did you make it in time?", "past|Did anyone mind?",
           reactions=("{Ugh/Oh no}, delays like that are so stressful.",), is_news=False),
    _event("scam", "bad", r"scam\w*|fraud\w*|hacked|identity theft|ripped (?:me )?off",
           "past|Were you able to get your money back?", "past|Have you reported it?",
           reactions=("{Ugh/Oh no}, scammers are the worst.",)),
    _event("flight", "any", r"flight|flying|plane|airport",
           "future|How long is the flight?", "past|Was it a bumpy ride?", "Do you fly often?"),
    _event("competition", "any", r"competition|tournament|contest|recital|tryouts?|audition\w*|race|spelling bee|"
           r"championship",
           "future|self:How are you feeling going in?", "past|self:How did you do?",
           "self:How long have you been doing it?"),
    _event("award", "good", r"award(?:s|ed)?|recogni[sz](?:ed|ition)|honou?red|employee of the (?:month|year)",
           "What was it for?", "past|Did you get to celebrate?",
           reactions=("{Wow/Oh}, what an honor!",)),
    _event("finished", "good", r"finished (?:writing|building|my|the|a|our)|(?:wrote|built|made) (?:my|a|an|the) own",
           "How long did it take you?", "What will you do next?",
           reactions=("{Wow/Oh}, that's a real accomplishment!",)),
    _event("tried_food", "any", r"(?:ate|tried|tasted) (?:\w+ ){1,3}for the first time|new (?:restaurant|dish|recipe)",
           "past|Would you have it again?", "past|What did it taste like?"),
    # a fall, not clothes that fell down ("my pants fell down in public")
    _event("fell", "any", r"(?<!in love )(?<!it )(?<!that )(?<!pants )(?<!shorts )(?<!skirt )(?<!trousers )"
           r"(?:fell|tripped|slipped)"
           r"(?! asleep| in love| out of| into| behind| apart| for| through)",
           "past|self:Were you hurt?", "past|person+pet:{Was} {topic} hurt?", "past|Did anyone help you up?",
           reactions=("{Ouch/Oh no}!", "Ouch, that sounds painful.")),
    _event("weight", "any", r"diet\w*|lost (?:\d+|\w+) pounds|gained (?:\d+|\w+ )?(?:pounds|weight)|gym|working out|"
           r"work out|exercis\w+|eat(?:ing)? (?:more )?health(?:y|ier)|(?:get|getting|got) in(?:to)? shape|"
           r"(?:took up|started|start) running",
           "past+now|How long have you been at it?", "What's been the hardest part?", "Do you have a routine?"),
    _event("found_money", "good", r"found (?:a |some |\$?\d+ )?(?:dollars?|money|cash|bills?|twenty|\$\d+)",
           "past|What did you do with it?", "past|Where did you find it?",
           reactions=("{Ooh/Wow}, lucky find!",)),
    _event("reunion", "good", r"ran into (?:an? |my |our )?(?:old )?(?:friend|classmate|schoolmate|coworker|teacher|ex|"
           r"neighbou?r)\w*|reconnect\w*|old friends?",
           "How have they been?", "past|Are you going to stay in touch?", "past|What did you two talk about?",
           reactions=("{Aw/Oh}, it's so nice to reconnect.",)),
    _event("results", "any", r"(?:test |blood |lab )?results|biopsy|waiting to hear|waiting for (?:the )?(?:call|news|"
           r"answer)",
           "now+future|When do you find out?", "now+future|How are you holding up while you wait?",
           reactions=("future+now|Waiting for news is so hard.",)),
    _event("interview", "any", r"(?:job|an|the|my|first|second|final) interview\w*|interviewed (?:for|with|at)|"
           r"interviewing",
           "future|How are you preparing for it?", "past|How do you think it went?", "past|When will you hear back?",
           "What's the job?",
           reactions=("future|Good luck, you've got this!",)),
    # a job or a school applied for, not a mortgage
    _event("applied", "any", r"applied (?:for|to) (?:a |an |the |this |that )?(?:\w+ )?(?:job|position|role|"
           r"promotion|school|college|program|university)|"
           r"(?:sent|submitted|turned) in (?:my|an|the) (?:job |school )?application|"
           r"get (?:this|the) job",
           "When will you hear back?", "What's the job?",
           reactions=("future+now|Fingers crossed for you!",)),
    # an easy time, which ED speakers tell of as often as of news
    _event("reading", "good", r"(?:reading|read|finished) (?:a|my|the|this|that) (?:\w+ )?(?:book|novel)",
           "now|What are you reading?", "past|What was the book?", "Would you recommend it?",
           reactions=("{Ooh/Oh}, a good book is the best.",), is_news=False),
    _event("relax", "good", r"by the pool|(?:in|on) (?:a|my|the) hammock|lazy (?:day|sunday|saturday|weekend|morning|"
           r"afternoon)|(?:took|taking|take|had) a (?:long |nice )?(?:nap|bath|bubble bath)|massage|spa day",
           "Do you get to do that often?",
           reactions=("{Oh, /}that sounds so relaxing!", "{Ah/Oh}, that sounds like bliss."), is_news=False),
    _event("screen", "any", r"(?:watched|watching|saw|seen) (?:a|the|this|that|an) (?:\w+ )?(?:movie|film|show|"
           r"documentary|video|series)",
           "What was it called?", "Would you recommend it?", is_news=False),
    _event("date", "any", r"first date|(?:on|a) date with|asked (?:her|him) out|blind date",
           "past|How did it go?", "future|Where are you going?", "past|Are you going to see each other again?"),
    _event("military", "any", r"military|army|navy|air force|marines|boot camp|deploy\w+",
           "How long will they be gone?", "Do you get to talk often?", "How are you holding up?"),
    # a team that plays, not "a lady on my team" at work
    _event("sports", "any", r"(?:my|our|the) (?:favou?rite |home |local )?team (?:won|lost|made|beat|is playing|plays|"
           r"played|got)|favou?rite team|playoffs|championship|super bowl|world series|the finals",
           "Have you always been a fan?", "past|Did you watch it live?", "future|Are you going to watch?"),
    _event("creep", "bad", r"creep\w*|follow(?:ed|ing) me|stalk\w*|star(?:ed|ing) at me|harass\w*",
           "past|Did you tell anyone?", "past|self:Do you feel safe now?",
           reactions=("{Ugh/Yikes}, that's so creepy.", "{Oh no/Ugh}, that sounds really unsettling.")),
    _event("spoiled", "bad",
           # mould on food, not on a garage wall: "I found some mold growing out in the garage"
           r"mou?ldy|mou?ld (?:on|in) (?:my|the|our) (?:bread|food|cheese|fruit|sandwich|leftovers|coffee|drink)|"
           r"rotten (?:food|eggs?|meat|fruit|milk)|(?:milk|food|meat|fruit|leftovers) (?:had )?(?:gone|went) "
           r"(?:bad|off)|(?:a )?(?:hair|bug|fly) in (?:my|the)",
           "past|Did you take it back?", "past|Did you eat any of it?",
           reactions=("{Ew/Yuck/Ugh}, that's so gross!", "{Ew/Oh no}, that would put me off eating.")),
    _event("layoffs", "bad", r"layoffs?|downsiz\w+|(?:company|plant|office) (?:is |was )?(?:closing|shutting down)|"
           r"(?:laying|laid) (?:people|everyone|workers|staff|a lot of people) off",
           "Is your job safe?", "How is everyone at work taking it?",
           reactions=("{Oh no/Ugh}, layoffs are so scary.", "{Oh no/Ugh}, that's so unsettling.")),
    _event("celebrity", "good", r"celebrit\w+|(?:met|saw|meet|meeting) (?:a |someone )?famous|autograph\w*",
           "past|Did you get a picture?", "past|Did you get to talk to them?",
           reactions=("{Wow/Whoa}, how cool!", "self:{No way/Wow}, lucky you!")),
    _event("money_trouble", "bad",
           r"can't afford|couldn't afford|(?:I|we) (?:was|were|am|'m|are|'re|became) homeless|evict\w*|"
           r"(?:behind|late) on (?:the |my |our )?(?:rent|bills|payments)|foreclos\w+|"
           r"money (?:is|was|has been) (?:so |really )?tight|financial (?:troubles?|problems?|stress|hardship)|"
           r"money (?:troubles?|problems)|(?:tight|strict|small|shoestring) budget|rice and beans|"
           r"paycheck to paycheck",
           "How are you managing right now?", "Is there anyone who can help you out?",
           reactions=("{Oh no/Ugh}, money worries are so stressful.", "{Aw/Oh}, that's such a hard spot to be in.")),
    _event("chores", "bad", r"clean up after|dirty dishes|never cleans?|won't clean|left (?:a|the|their|his|her) mess|"
           r"(?:doesn't|don't|didn't|never|not|won't) (?:help|do|doing|wash|washing) (?:with )?(?:the )?"
           r"(?:chores|dishes|cleaning)",
           "Have you {talked/spoken} to them about it?", "Do they ever help out?",
           reactions=("{Ugh/Oh man}, cleaning up after others is the worst.",)),
    _event("wardrobe", "any",
           r"zipper|(?:my )?fly (?:was )?(?:down|open)|hole in (?:the back of )?my (?:pants|jeans|shirt)|"
           r"(?:pants|jeans|shirt) (?:ripped|split)|toilet paper (?:on|stuck)|spinach in my teeth",
           "past|Did anyone notice?", "past|Could you laugh about it?"),
    _event("trip", "good", r"(?:trip|vacation|travel\w*|flying|fly|flew|holiday|cruise|going|went|go|headed|heading) "
           r"to (?-i:Mexico|Europe|Hawaii|Japan|Florida|Disney\w*|Vegas|Las Vegas|Paris|London|Italy|France|Spain|"
           r"China|Canada|New York|California|Germany|Ireland|Jamaica|Thailand|Australia|India|Greece|Alaska|Iceland|"
           r"Costa Rica|the beach|the mountains)",
           "future|Have you been there before?", "future|How long will you be there?",
           "past|What was your favorite part?", "past|Would you go back?",
           reactions=("{Ooh/Oh}, that sounds like an amazing trip!", "self:{Ooh/Oh}, lucky you!")),
    _event("injury", "bad", r"(?:broke|broken|sprain\w*|twisted|fractured) (?:my|his|her|their|a) (?:\w+ )?(?:arm|leg|"
           r"ankle|wrist|foot|toe|finger|nose|hand|back)|stitches|(?:cut|burn\w*) my (?:finger|hand|arm|leg)|"
           r"(?:cut|burned) myself|(?:hit|stubbed|banged|jammed|smashed) my (?:toe|head|knee|finger|elbow|shin|foot)|"
           r"(?:hurt|injured|pulled|threw out) my (?:back|neck|knee|shoulder|ankle|wrist|hip)",
           "recent|How is it healing?", "past|self:Did you have to go to the doctor?",
           reactions=("Ouch, that sounds so painful.", "{Ouch/Oh no}, I'm sorry!")),
    _event("promotion", "good",
           r"(?:got|received|earned|was given) (?:a|the|my) (?:big )?promotion|(?:got|was|been) promoted|"
           r"(?:got|received) a (?:pay )?raise",
           "past|Did you see it coming?", "self:What will you do to celebrate?",
           reactions=("past|self:{Congrats/Congratulations}, you earned it!", "past|{Wow/Oh}, that's well deserved!")),
    _event("adopted", "good",
           r"adopt\w*|rescued (?:a|an|my|our)|new (?:puppy|kitten|dog|cat|pet)|brought home (?:a|our|"
           r"my) (?:puppy|kitten|dog|cat)",
           "recent|How are they settling in?", "pet:What's {topic}'s name?",
           reactions=("{Aw/Oh}, how wonderful!", "pet:{Aw/Oh}, {topic} is so lucky to have you!")),
    # a pet given up: "I gave my dog away to a family today. I did not have time for him" is no "How did that go?"
    _event("rehomed", "bad",
           r"gave (?:my|our|the) (?:\w+ )?(?:dog|cat|puppy|kitten|pet|bird|bunny|rabbit|horse) away|"
           r"(?:re-?homed?|had to give up|gave up) (?:my|our) (?:\w+ )?(?:dog|cat|puppy|kitten|pet)",
           "pet:Do you think {topic} will be happy there?",
           reactions=("{Aw/Oh}, that must have been {so hard/really hard}.",
                      "{Aw/Oh}, it sounds like you did what was best.")),
    _event("pet_mischief", "any",
           r"chew(?:ed|ing)? (?:up )?(?:on )?(?:my|our|the|everything)|(?:peed|pooped) (?:on|in)|"
           r"(?:pulled|tore|ripped) (?:up |off |apart )?(?:the|my|our) (?:cushions|couch|pillows?|curtains)|"
           r"ate my (?:\w+ )?(?:homework|shoes?|sandwich|food|dinner|lunch)",
           "past|pet:Did you catch {topic} in the act?", "pet:How do you stay mad at {topic}?"),
    _event("empty_nest", "any", r"(?:son|daughter|kids?|children|child) (?:\w+ )?(?:moved out|left for college|went "
           r"(?:off )?to college|leaves? for college|is leaving for college|(?:going|heading) off to college)|"
           r"empty nest",
           "How are you finding the quiet house?", "Do you get to talk often?",
           reactions=("{Aw/Oh}, they grow up so fast.", "{Aw/Oh}, that's such a big change.")),
    _event("birthday", "good", r"(?:my|it's my|it was my|is my) (?:\w+ )?birthday",
           "past|How did you celebrate?", "future|Any big plans for it?",
           reactions=("now|Happy birthday!", "future|Happy early birthday!")),
    _event("anniversary", "good", r"(?:our|my) (?:\w+ )?anniversary",
           "How long have you been together?", "past|How did you celebrate?",
           reactions=("now|Happy anniversary!", "future|Happy early anniversary!")),
    _event("kindness", "good", r"(?:stranger|someone|a man|a woman|a guy|a lady|he|she|they) (?:\w+ )?(?:helped me|"
           r"paid for my|held the door|returned my|gave me a ride|stopped to help)|paid for (?:my|me|us)|"
           r"paid it forward|random act of kindness",
           "past|Did you get to thank them?",
           reactions=("{Aw/Oh}, that restores my faith in people.", "{Aw/Oh}, there are still good people out there.")),
    _event("volunteer", "good", r"volunteer\w*|donat(?:e|ed|ing|ion)|charity|food bank|soup kitchen|homeless shelter|"
           r"I (?:stepped in and )?helped (?:an? |this |my |some )?(?:elderly |old |older )?"
           r"(?:lady|woman|man|stranger|neighbou?r|co-?worker)",
           "self:How long have you been doing it?", "past|self:How did it feel to help?",
           reactions=("self:{Aw/Oh}, that's so kind of you.", "self:The world needs more people like you.")),
    _event("night", "bad", r"(?:alone|out) (?:late )?at night|walking (?:home )?(?:alone|late|at night)",
           "past|self:Did you make it home okay?", is_news=False),
    _event("kid_milestone", "good",
           r"(?:son|daughter|kid|baby|child|grandson|granddaughter) (?:\w+ ){0,2}(?:took (?:his|her) first|"
           r"first steps|learned (?:to|how)|started (?:school|kindergarten|walking|talking)|said (?:his|her) first|"
           r"graduat\w+|made the)",
           "person:How old is {topic} now?",
           reactions=("{Aw/Oh}, they grow up so fast!", "person:You must be so proud of {topic}.")),
    _event("stood_up", "bad", r"stood (?:me|us) up|never showed up|no[- ]show",
           "past|Did they ever explain?", "Has it happened before?",
           reactions=("{Ugh/Oh man}, being stood up is the worst.",)),
    _event("gift", "good", r"gift card|"
           r"(?:gave|got|bought|sent) me (?:a |an |some |the )?(?:\w+ )?(?:gift|present|flowers|card|"
           r"necklace|ring|watch|chocolates?|surprise|car|puppy|kitten|bike|laptop|bouquet)|"
           r"bought (?:me|us) (?:a|an|some|the|this|that|my|our|new)|(?:as|for) (?:a |my )?(?:gift|present)\b|"
           r"(?:got|received|gotten) (?:a|an) (?:\w+ ){0,2}?\w+ (?:for|as) (?:my|our|a) "
           r"(?:birthday|anniversary|christmas|gift|present)",
           "past|{Was it a surprise/Did you see it coming}?", "past|What was the occasion?",
           reactions=("{Aw/Oh}, how thoughtful!", "{Aw/Oh}, what a sweet gift!")),
    _event("moving_in", "good", r"mov(?:ed|ing|es?) in (?:with|together)|(?:is|are|was|were) moving in|"
           r"moved in (?:this|last)",
           "future|Are you excited to live together?", "recent|How is living together going?",
           reactions=("{Aw/Oh}, what a big step!",)),
    _event("lazy", "bad",
           r"(?:he|she|they|who|one)(?: is| are| was| were|'s|'re)? (?:so |too |really |very )?lazy|"
           r"slack\w* off|pull (?:their|his|her) (?:own )?weight|"
           r"(?:do|doing|does) (?:all )?(?:the |extra |their |his |her )work|"
           # "I don't understand why people come to work to just not do their jobs"
           r"(?:not|n't) do(?:ing)? (?:their|his|her) (?:own )?jobs?",
           "Have you {talked/spoken} to them about it?", "Does your boss know?",
           reactions=("{Ugh/Oh man}, carrying someone else's load is exhausting.",)),
    _event("legal", "bad",
           r"DUI|arrested|court date|jail|(?:speeding|parking) ticket|"
           r"(?:pulled (?:me|us)|(?:got|was|were) pulled) over",
           "future|When is the court date?", "past|Did you get a ticket?", "Do you have someone helping you with it?",
           reactions=("{Oh no/Ugh}, that's so stressful.",)),
    _event("rained_out", "bad", r"rain(?:ed|ing)? (?:all day|all weekend|the whole)|rained out|got rained on",
           "Will you get to try again another day?",
           reactions=("{Ugh/Aw}, rain always ruins the best plans.",)),
    _event("haircut", "bad", r"hair ?(?:cut|dresser|stylist)|barber|(?:dyed|dye|cut) my hair|bad hair",
           "past|How does it look now?", "past|Will you go back to them?",
           reactions=("{Oh no/Yikes}, a bad haircut is the worst.",), is_news=False),
    _event("photos", "good", r"old (?:photos|pictures|photographs|videos|toys|letters|yearbooks?)|photo albums?|"
           r"(?:photos|pictures|photographs) of",
           "Do you {look at them/look back at them/go through them} often?",
           reactions=("{Aw/Oh}, old things like that bring {so much/it all} back.",)),
    # an animal left to fend for itself, found: "I found an abandoned cat in an alleyway yesterday."
    _event("stray", "good", STRAY_ANIMAL,
           "past|Did you take it {home/in}?", "Are you going to keep it?",
           reactions=("{Aw/Oh}, poor little thing!",), is_news=False),
    # a raise asked for, its answer not told: "So I asked my boss for a raise today."
    _event("raise_asked", "any",
           r"asked (?:my |the |our )?(?:boss|manager|supervisor) for (?:a|the) (?:raise|promotion)",
           "past|How did it go?", "past|How did your boss take it?", "past|Did you get it?",
           reactions=("{Ooh/Wow}, that takes guts!",)),
    # a debt paid off: "today made my last student loan payment"
    _event("paid_off", "good", r"(?:paid off|last|final) (?:my |the |our )?(?:\w+ )?(?:loans?|debts?|mortgage)(?: "
           r"payment)?",
           "How are you going to celebrate?", "How does it feel to be done with it?",
           reactions=("{Wow/Oh}, what a milestone!", "Congrats on being debt free!")),
    # tears at music or a show: met as being moved, not as grief
    _event("moved", "good", MOVED_TO_TEARS,
           "past|What got to you {most/the most}?",
           reactions=("{Aw/Oh}, that's so moving.",)),
    # a pet's mischief in the home: "i found my sofa torn up"
    _event("pet_mess", "bad",
           r"(?:dog|puppy|pup|cat|kitten) (?:\w+ ){0,3}?(?:chewed|tore|ripped|destroyed|peed|pooped)|"
           r"(?:sofa|couch|shoes?|pillows?|carpet|rug|furniture|curtains) (?:was |were |all )?(?:torn|ripped|chewed) "
           r"up",
           "past|Can it be fixed?", "pet:Has {topic} done {this/something like this} before?",
           reactions=("{Oh no/Ugh}, what a mess!", "{Oh no/Ugh}, pets can be such troublemakers.")),
    # a garden lost: "All my cucumber plants died this week due to too much rain"
    _event("garden", "bad", r"(?:plants?|garden|tomato(?:es)?|flowers|crops?|cucumbers?|seedlings|vegetables) "
           r"(?:\w+ ){0,2}?(?:died|dying|wilted|rotted|got ruined|were ruined)|"
           r"(?:killed|lost) (?:all )?(?:of )?(?:my|our|the) (?:\w+ )?(?:plants|garden|flowers|crops)",
           "Will you try planting again?",
           reactions=("{Aw/Oh no}, after all that work!", "{Aw/Oh no}, that's so disappointing.")),
    # a chance let go and rued: "They had asked me if I wanted to go in with them, and I said no. I regret that now"
    _event("missed_out", "any", r"regret (?:not|that|saying no|passing|turning)|(?:I|we) (?:really )?(?:should|could) "
           r"have (?:gone|said yes|joined|gone in|taken it|bought it)|missed (?:out|my chance)",
           "Do you think {there'll be/you'll get} another chance?",
           reactions=("{Aw/Oh no}, that's a tough one to miss out on.",)),
    _event("close_call", "bad", r"(?:almost|nearly) (?:died|got killed|(?:got )?hit|crashed|drowned|fell|"
           r"(?:got|been|was|were|had) (?:in|into) an? (?:\w+ ){0,2}(?:crash|accident|wreck))|close call|"
           # not the idiom of embarrassment: "in the moment, I could have died!"
           r"could have (?:been killed|died(?! of (?:embarrassment|shame)|!))",
           "past|self:Are you okay?", "past|What happened?", "past|self:How are you feeling now?",
           reactions=("{Whoa/Oh my gosh}, that sounds terrifying.", "{Oh no/Yikes}, what a scare.")),
    _event("accused", "bad", r"(?:got|was|been|being) (?:falsely |wrongly )?accused|accused me|blamed (?:me|it on me)|"
           r"(?:got|was|been|being) blamed",
           "past|Were you able to clear it up?", "Do you know why they thought it was you?",
           reactions=("{Ugh/Oh no}, being accused like that is awful.",)),
    _event("panic", "bad", r"panic attacks?|anxiety attacks?|panick(?:ed|ing)",
           "past|self:Are you feeling better now?", "self:Does that happen to you often?",
           reactions=("{Oh no/Aw}, panic attacks are so scary.",)),
    # help needed: "I need someone to stay with my elderly mother for a few hours in my home."
    _event("need_help", "any", r"I (?:really )?need (?:someone|somebody|a (?:babysitter|sitter|caregiver|nanny))",
           "Is there {family or a friend/anyone nearby} who could help?",
           reactions=("{Oh, /Oof, /}that's a lot to juggle.",), is_news=False),
    # a pet peeve: "I don't like it when people talk with their mouth full of food"
    _event("peeve", "bad", r"(?:hate|don't like|do not like|can't stand|cannot stand) (?:it )?when (?:people|someone|"
           r"others|somebody|drivers|customers|guys|kids)",
           "Is there someone {around you/in your life} who does that?",
           reactions=("{Ugh, /Oh, /}that's such a pet peeve!",), is_news=False),
    # "I let my siblings talk me into getting on one" (a roller coaster), "had my eyes closed most of the ride"
    _event("ride", "any", r"roller ?coasters?|(?:the|that|this) ride",
           "past|Would you {ride it/go on it/do it} again?",
           reactions=("{Yikes/Oh wow}, roller coasters are {so intense/not for everyone}!",)),
    _event("heights", "bad", r"(?:afraid|scared|terrified|fear(?:ful)?) of heights",
           "Have you always been afraid of heights?",
           reactions=("{Oh/Aw}, heights can be so scary.",)),
    _event("no_sleep", "bad", r"(?:couldn't|could not|can't|cannot|didn't|did not) (?:get (?:any |much )?)?sleep|"
           r"insomnia|barely slept|(?:lay|lie|lying|was) awake|awake all night|no sleep|sleepless",
           "Is something keeping you up?", "now|Will you get a chance to rest today?",
           reactions=("{Ugh/Oh no}, a night without sleep is rough.", "{Oof/Ugh}, no sleep makes everything harder.")),
    _event("caught", "bad",
           r"got caught(?! (?:up )?in\b)|(?:am|'m|was|got) in (?:so much |big |a lot of )?trouble|grounded",
           "past|What happened after that?", "past|Did you get in much trouble?",
           reactions=("self:{Oof/Oh no}, getting caught is the worst.",)),
    _event("caught_in_rain", "bad", r"caught in (?:a |the )?(?:huge |big |heavy |sudden )?(?:rain\w*|downpour|"
           r"thunderstorm|snow\w*|hail\w*)|got (?:completely |totally )?(?:soaked|drenched)|"
           r"(?:soaked|drenched) to the bone",
           "past|self:Did you make it home okay?", "past|Did you have far to go?",
           reactions=("{Ugh/Oh no}, getting caught in that is the worst.",)),
    _event("job_hunt", "bad", r"unemployed|out of work|job hunt\w*|(?:looking|searching|applying) for (?:a |another |a "
           r"new )?(?:job|work)|(?:can't|couldn't) find (?:a |any )?(?:job|work)",
           "How is the search going?", "What kind of work are you hoping for?",
           reactions=("{Aw/Oh}, job hunting is so draining.", "{Ugh/Oh}, looking for work is exhausting.")),
    _event("package", "bad", r"(?:waiting|waited) (?:on|for) (?:a |my |the |this )?(?:package|delivery|order|parcel)|"
           r"tracking (?:updates?|number)|(?:package|parcel|delivery|order) (?:never came|was late|got lost|is late|"
           r"didn't come|never arrived|didn't arrive)",
           "past|Did it ever show up?", "Have you been in touch with the seller?",
           reactions=("{Ugh/Oh man}, waiting on a package is the worst.",)),
    # what came was wrong: "when the box got here it was empty"
    _event("wrong_order", "bad", r"(?:box|package|parcel|order|it) (?:\w+ ){0,3}?(?:was|came|arrived) (?:completely )?"
           r"(?:empty|broken|damaged|smashed|crushed|the wrong (?:\w+ )?(?:size|color|colour|item|one))|"
           r"(?:sent|shipped|gave) (?:me|us) the wrong",
           "past|Were you able to get a refund?", "Have you been in touch with the seller?",
           reactions=("{Ugh/Oh no}, that's so frustrating.", "{Ugh/Oh man}, what a letdown.")),
    _event("long_hours", "bad",
           r"overtime|double shifts?|long hours|(?:12|twelve|14|fourteen)[- ]hour (?:days?|shifts?)|overwork\w*|"
           r"so much (?:work|homework)|(?:huge|heavy|crazy) workload",
           "Do you get a break soon?", "How are you keeping up with it all?",
           reactions=("{Ugh/Oof}, long days like that are draining.",)),
)


# Words that say a happening did not happen: "I almost adopted a child once", "I would have got in trouble".
_DID_NOT = re.compile(r"\b(?:almost|nearly|never|not|didn't|did not|wasn't|was not|hope to|hope|hopefully|want to|"
                      r"wish I|if|(?:would|could|might)(?: have|'ve))\s+"
                      r"(?:\w+\s+)?$", re.IGNORECASE)


def tells_news(text: str, side: str) -> bool:
    """Whether the text tells a happening whose words alone are news of that side ("I got laid off", "Today I
    officially adopted her"), not one of either side or one that only sets the scene ("the restaurant")."""
    return any(event.side == side and event.is_news for event in told_events(text, side))


def told_events(text: str, side: str | None) -> tuple[Event, ...]:
    """The happenings the text tells, for a stance on the side of good or bad news (None: a stance of neither,
    which gets only the happenings that fit both): "Do you know who did it?" is never asked at good news."""
    return tuple(event for event in EVENTS if event.side in (side, "any")
                 and any(not _DID_NOT.search(text[:found.start()]) for found in event.words.finditer(text)))
