"""The lite writer (topic_writer) on the real lite vote for turns written for these tests: the stance a death, an
illness and a success call for, the thing the story is about named back, nothing the speaker did not say, the
turn's time and facts kept, the length limits."""
from __future__ import annotations

import random
import re
from collections import Counter

import numpy as np
import pytest
from support.dialogues import said

from e3rg_core.contracts import EmotionResult, Vote
from e3rg_core.emotions import coarse_of
from e3rg_core.understanding.events import EVENTS, told_events
from e3rg_core.understanding.prompts import STANCES
from e3rg_core.understanding.reflective_writer import (_ASKED_BACK, GREETING, ILLNESS, MAX_SPOKEN_SECONDS, MAX_WORDS,
                                                       news, situation_stance, spoken_seconds)
from e3rg_core.understanding.reply_ranker import ReplyRanker
from e3rg_core.understanding.topic_writer import (FRAMES, TopicReplyWriter, _already_asked, _choose, _fill,
                                                 _lines, find_topic, story_time, topic_reply)

pytestmark = pytest.mark.usefixtures("one_torch_thread")

CHEER = re.compile(r"congrat|\bglad\b|wonderful|amazing|great|fantastic|awesome|thrilled|proud|exciting|lovely|"
                   r"\bcool\b|\bnice\b|happy for|\bfun\b|\blove that\b|\byay\b", re.I)
SORROW = re.compile(r"\bsorry\b|heartbreak|worr|so hard|hurt|holding up|coping|terrible|awful|sad|\brough|tough|"
                    r"that's a lot\b|that's hard|sound easy|what a pain|bummer|not what you needed|\boh no\b|"
                    r"\boh dear\b|\baw, no\b|"
                    # "I hope it goes well" wishes luck
                    r"hope (?:\w+ )*(?:better|ok|okay|(?<!goes )(?<!go )well|recover)|get well|poor", re.I)
DEATH_WORDS = re.compile(r"\bloss\b|passed|grief|condolences|\brip\b|losing", re.I)
WORD = re.compile(r"[a-z']+")


def replies_to(*utterances: str, stance: str, seeds: int) -> list[str]:
    """The writer's replies to one conversation under `seeds` turn seeds: a trailing space on the latest turn
    reseeds the turn's choices (`turn_seed`) without changing what the speaker said."""
    return [topic_reply(said(*utterances[:-1], utterances[-1] + " " * seed).history, stance) for seed in range(seeds)]


def voted_only(fine: str) -> EmotionResult:
    """A vote for one fine label, as if the voters had agreed on it."""
    return EmotionResult(fine, coarse_of(fine), (Vote("text", "text", fine, 0.9),), "test")


@pytest.fixture(scope="module")
def reply(text_vote):
    writer = TopicReplyWriter(ranker=ReplyRanker.from_pretrained())

    def write(*utterances: str) -> tuple[str, bool]:
        request = said(*utterances)
        return writer.reply(request, text_vote(request))
    return write


def test_the_same_turn_gets_the_stance_of_what_happened(reply):
    """One sentence frame, three events: sympathy for a death, concern (not condolences) for an illness,
    gladness for a success."""
    death, _ = reply("My grandmother passed away last night.")
    illness, _ = reply("My grandmother has been sick in the hospital all week.")
    success, _ = reply("My grandmother won first prize at the county fair last night!")
    print(death, illness, success, sep="\n")
    assert SORROW.search(death) and not CHEER.search(death)
    assert SORROW.search(illness) and not CHEER.search(illness) and not DEATH_WORDS.search(illness)
    assert CHEER.search(success) and not SORROW.search(success)


@pytest.mark.parametrize("turn", [
    "I came home from work and found out my cat had been run over.",
    "A little boy from our street passed this weekend. It's heartbreaking.",
    "I still feel blue when I think of my mom. She passed when I was twelve.",
    ("Our dog ran out into the road last night.", "Oh no! Is he okay?", "No, unfortunately he didn't make it."),
])
def test_a_death_said_in_other_words_gets_sympathy(reply, turn):
    answer, _ = reply(*turn) if isinstance(turn, tuple) else reply(turn)
    assert SORROW.search(answer) and not CHEER.search(answer), answer


@pytest.mark.parametrize("turn, told", [
    # "won't" is not "won"
    ("It's so upsetting to think that she won't make it for much longer.", (True, False)),
    ("My dream car is a Genesis, but I didn't get approved for financing unfortunately.", (True, False)),
    ("I dropped my phone on the subway, and an old man picked it up and gave it back to me.", (False, True)),
    ("I was so pissed off at my brother yesterday.", (True, False)),
    ("He ate the sea slug anyway. It tasted of algae and dead stuff.", (False, False)),
    ("I got passed over for a promotion. I may be looking for a new job soon.", (True, False)),
    ("Someone kicked my dog! He was just walking passed him!", (True, False)),
    ("My niece didnt get into nursing school.", (True, False)),
    ("My girlfriend moved some of our money without letting me know.", (True, False)),
    ("I almost passed out, I have never won so much money before.", (False, True)),
    ("My painting was chosen for the town's art show!", (False, True)),
    ("We closed on our first house on Friday.", (False, True)),
    ("They let me in at the last minute, what a relief.", (False, True)),
    ("They hired someone from the outside for the manager job.", (True, False)),
    ("I wasn't picked for the team again.", (True, False)),
    ("Things with my roommate just aren't working out.", (True, False)),
    ("The yogurt in my fridge went bad.", (True, False)),
    ("The interview went really well.", (False, True)),
    ("So many memories came flooding back.", (False, False)),
    ("We lived through a huge earthquake as kids.", (True, False)),
    ("What he said was really hurtful.", (True, False)),
    ("He landed a kickflip, which is very hard to do!", (False, False)),
    ("My daughter killed the GRE!", (False, True)),
    ("My husband works very hard so that I can stay home with our kids.", (False, False)),
    ("I did get it! I was so nervous the whole week.", (True, True)),
    ("I was able to find a new job after a few months.", (False, True)),
    ("My boss is not a very nice person.", (True, False)),
    ("Watching my son being born gave me a happiness I had never felt.", (False, True)),
    ("I was able to ace this interview.", (False, True)),
    ("Sometimes people are very inconsiderate.", (True, False)),
    ("I was able to get my car fixed.", (False, True)),
    # a coworker who called in sick is not ill
    ("He called in sick, but spent the day at the waterpark with his kids.", (False, False)),
    ("I think so.. I have made some friends.", (False, True)),
    ("I am so hyped about Lebron joining the Lakers!", (False, True)),
    # no result yet
    ("I was confident walking into class because I knew I would ace it.", (False, False)),
    ("My son brought home his first F today.", (True, False)),
    ("Yes always, it is something that works for me.", (False, True)),
    ("I know the workouts I should be doing but also struggle with proper form a bit.", (True, False)),
    ("I used to struggle but I don't anymore", (False, False)),
    ("My coworker got the promotion that I was going for. This is ridiculous.", (True, True)),
    ("A friend was able to fix a problem I was having", (False, True)),
    ("I left that job. And just kind of drifted away from everyone else.", (True, False)),
])
def test_news_said_in_other_words_is_read(turn, told):
    assert news(turn) == told


def test_what_only_looks_like_bad_news_is_not_met_with_sorrow(reply):
    answer, _ = reply("I'm running my first marathon this weekend. I have worked very hard to get ready for it.")
    assert not SORROW.search(answer), answer
    assert news("I set up her new printer with no problems at all.") == (False, False)
    assert news("I had no fun at all at the party.") == (True, False)


def test_a_happening_whose_words_are_bad_news_gets_the_bad_news_hedge():
    """A turn the vote cannot place gets the hedge; its words decide which side of it, and "I couldn't sleep" is
    bad news while a restaurant is not."""
    sleepless = topic_reply(said("I couldn't get any sleep last night.").history, "acknowledge")
    dinner = topic_reply(said("We went to the new restaurant downtown last night.").history, "acknowledge")
    assert SORROW.search(sleepless) or "sleep" in sleepless, sleepless
    assert not SORROW.search(dinner), dinner


@pytest.mark.parametrize("turn", [
    "My dog died this morning and I keep looking at his bed.",
    "My dad was diagnosed with cancer last week.",
    "I got laid off today after nine years at the company.",
    "Someone broke into my car last night and stole my laptop.",
    "I entered a baking contest and I didn't win anything.",
])
def test_bad_news_is_never_cheered(reply, turn):
    answer, _ = reply(turn)
    assert not CHEER.search(answer), answer


@pytest.mark.parametrize("turn", [
    "I got the job offer from the hospital I interviewed at last month!",
    "My daughter took her first steps this morning!",
    "We just closed on our first house!",
    "The drive home took twelve hours, but for once it wasn't terrible.",
])
def test_good_news_gets_no_sympathy(reply, turn):
    answer, _ = reply(turn)
    assert not re.search(r"\bsorry\b|terrible|awful|\bloss\b|\brough\b|\bhard\b", answer, re.I), answer


def test_a_glad_happening_under_the_hedge_is_met_gladly():
    """A vote the writer cannot place, on a happening whose words are its news: it is met gladly once it has
    happened, hoped for while it is a plan, and not cheered when it was feared or another's."""
    adopted = replies_to("I found a stray dog last Thursday. Today I officially adopted her.", stance="acknowledge",
                         seeds=4)
    assert all(re.search(r"good|nice|great", answer) and not SORROW.search(answer) for answer in adopted), adopted
    planned = replies_to("I'll go to the shelter and adopt whoever has been there the longest.", stance="acknowledge",
                         seeds=4)
    assert not any(re.search(r"to hear|What's your dog's name", answer) for answer in planned), planned
    started = replies_to("I start my new job on Monday.", stance="acknowledge", seeds=4)
    assert all(re.search(r"luck|exciting|congrat|hope", answer, re.I) for answer in started), started
    for turn in ("I was flying to Alaska and it was a nervewracking flight.",
                 "My friend went on a 14 day cruise to Europe. I wish that could have been me!"):
        assert not any(CHEER.search(answer) for answer in replies_to(turn, stance="acknowledge", seeds=4)), turn


@pytest.mark.parametrize("turns, stance, asked", [
    (("The new girl at work is doing really well considering she has no experience. I'm shocked!",), "surprise",
     r"react|What did you think"),
    (("I'm so sad, my avocado was moldy this morning!",), "disgust", r"react"),
    (("Saturday I'm climbing Mt. Elbert. The nerves have started to set in.",), "acknowledge", r"feel"),
    (("I really feel nostalgic around christmas",), "reminisce", r"still think about it"),
])
def test_a_feeling_or_reaction_told_is_not_asked(turns, stance, asked):
    answers = replies_to(*turns, stance=stance, seeds=16)
    assert not any(re.search(asked, answer) for answer in answers), answers


def test_the_speakers_own_feeling_says_which_way_mixed_news_went():
    answers = replies_to("Hired 4 more people to join my crew at work last week. 2 already quit. I'm bummed.",
                         stance="acknowledge", seeds=4)
    assert not any(CHEER.search(answer) or re.search(r"\bI see\b|gotcha|okay", answer) for answer in answers), answers


def test_a_bad_thing_ahead_met_ready_is_not_cheered():
    answers = replies_to("There is suppose to be a huge storm coming. I got supplies so I am ready.",
                         stance="look_forward", seeds=6)
    assert not any(CHEER.search(answer) or re.search(r"ready for it|safe\?$", answer) and "somewhere" not in answer
                   for answer in answers), answers


def test_an_achievement_long_ago_is_not_asked_how_it_is_celebrated():
    answers = replies_to("My proudest moment was when I got my doctoral degree by the age of 30.", stance="celebrate",
                         seeds=8)
    assert not any(re.search(r"are you (?:going to )?celebrat", answer) for answer in answers), answers


def test_glad_words_beside_bad_news_are_cheered_only_for_a_glad_happening():
    mixed = replies_to("Just feeling blue. My gf broke up with me recently and got married to an investment banker.",
                       stance="celebrate", seeds=6)
    assert not any(CHEER.search(answer) for answer in mixed), mixed
    best = replies_to("It can be hard but it's one of the best experiences that I have had in life.",
                      stance="celebrate", seeds=6)
    assert all(CHEER.search(answer) for answer in best), best
    passed = replies_to("I struggled all semester but I finally passed my exam!", stance="celebrate", seeds=6)
    assert all(re.search(r"congrat|well done|great|awesome|fantastic|amazing|way to go|good for you", answer, re.I)
               for answer in passed), passed


def test_the_dead_are_not_to_be_talked_to():
    answers = replies_to("The worst call I ever got was when I was told my dad only had a few weeks left to live.",
                         "Oh no. That's terrible.",
                         "I'm going on just over two years. Never thought it would happen to us.", stance="comfort",
                         seeds=16)
    assert not any("talked to" in answer for answer in answers), answers


def test_what_someone_else_has_is_not_the_speakers():
    assert not told_events("So my neighbor just bought a new car to show off.", "good")
    assert find_topic("My girlfriend's cat is sick with cancer.", "illness").phrase == "your girlfriend's cat"
    # the apostrophe left out, as speakers often do: not "I'm so sorry about your aunt. What do you miss most about
    # her?"
    assert find_topic("My girlfriends aunt just died.", "loss").phrase == "your girlfriend's aunt"
    assert find_topic("My friends mother got diagnosed with cancer.", "illness").phrase == "your friend's mother"
    for answer in replies_to("My girlfriends aunt just died.", stance="loss", seeds=20):
        assert "miss most" not in answer and not re.search(r"your (?:poor )?aunt\b", answer), answer
    for answer in replies_to("My friends mother got diagnosed with cancer.", stance="illness", seeds=20):
        assert "your poor friend" not in answer and not re.search(r"your (?:poor )?mother\b", answer), answer


def test_money_won_is_asked_about():
    assert [event.name for event in told_events("I entered a raffle and actually won $1000.", "good")] == ["won"]
    # another's winnings are not the speaker's
    assert "won" not in [event.name for event in told_events("Last week a friend of mine won $2000 on a scratch off "
                                                             "ticket.", "good")]


def test_a_thing_named_with_the_is_not_asked_its_kind():
    assert not find_topic("I spent 2 hours in the car just to arrive to surf and no waves.", "acknowledge").askable
    assert find_topic("I just bought a car!", "celebrate").askable


def test_a_follow_up_does_not_ask_the_feeling_its_reaction_just_named():
    answers = replies_to("The other day I was short on cash and needed to pay my phone bill.", stance="ease_guilt",
                         seeds=16)
    assert not any("feel bad" in answer and "feeling" in answer for answer in answers), answers


def test_money_back_is_asked_only_where_money_was_paid():
    answers = replies_to("I am so upset! My phone was on top of my car and it fell off and shattered.",
                         stance="validate", seeds=16)
    assert not any("money back" in answer for answer in answers), answers


@pytest.mark.parametrize("turn, stance, unsaid", [
    # applied for, or only hoped for: no congratulations yet
    ("I recently applied for a promotion at work.", "look_forward", r"congrat"),
    ("It would be awesome if I got the job but if not I am happy where I am at too", "look_forward", r"congrat"),
    # lost in the wrong part of town, not into college
    ("I got into a wrong part of town the other day, I was glad to get out from there.", "acknowledge", r"celebrat"),
    # another's job lost: the speaker is not asked what they have lined up
    ("A good co-worker of mine lost his job.", "acknowledge", r"lined up|looking for something"),
    # the speaker's own lie is no betrayal
    ("I feel so bad lying to my husband.", "ease_guilt", r"betrayal"),
    ("My girlfriend broke up with me recently...", "comfort", r"things with your girlfriend"),
    # a dog missed is not asked how often they talk
    ("I miss my old pet dog, I feel so empty without her around.", "comfort", r"talk often|see each other"),
    ("I think it went well, apart from a few mistakes, hopefully I got the job.", "look_forward", r"congrat"),
    ("Yesterday I caught my neighbor letting his dog poop on my lawn. I had a few choice words for him.", "disgust",
     r"say anything"),
    # a stepdaughter's new job is not the speaker's
    ("My stepdaughter graduated from college in May and got a job in San Francisco.", "celebrate",
     r"What will you be doing|When do you start"),
])
def test_what_the_turn_does_not_say_is_not_said(turn, stance, unsaid):
    answers = replies_to(turn, stance=stance, seeds=12)
    assert not any(re.search(unsaid, answer, re.I) for answer in answers), answers


def test_a_pet_of_an_earlier_turn_is_called_what_the_speaker_calls_it():
    answers = replies_to("My dog died yesterday after 15 years.", "Oh I am so sorry for your loss.",
                         "Yeah, it was terrible. Heart wrenching to bury him.", stance="loss", seeds=8)
    assert not any(re.search(r"\b(?:them|they|their)\b", answer) for answer in answers), answers


@pytest.mark.parametrize("turn", [
    "I thought it was so cool that my friend did a backflip.",
    "My coworker was able to find a new job after only looking for like a week.",
])
def test_anothers_feat_is_not_said_to_feel_good_to_the_speaker(turn):
    answers = replies_to(turn, stance="celebrate", seeds=12)
    assert not any(re.search(r"feel|felt|enjoy|make the most", answer, re.I) for answer in answers), answers


def test_a_dog_loved_to_death_is_alive():
    turn = "My dog just wants to play! I love him to death but he needs to learn to be independent."
    assert situation_stance(turn, STANCES["celebrate"]) != "loss"


def test_a_surprise_not_yet_told_is_asked_for():
    answers = replies_to("Am surprised", stance="surprise", seeds=6)
    assert all(answer.lower().endswith("what happened?") for answer in answers), answers


def test_the_speakers_own_kindness_is_not_praised_as_anothers():
    answers = replies_to("I always help this old man to cross the road.", "Oh? How come?",
                         "He walks so slowly and the cars never stop for him.", stance="appreciate", seeds=12)
    assert not any("People like that" in answer for answer in answers), answers


def test_news_still_to_come_is_no_teaser():
    answers = replies_to("I found a lump in my neck. I waited a month. I was scared to get the news.",
                         stance="reassure", seeds=4)
    assert not any(re.search(r"curious|do tell|all ears|tell me", answer, re.I) for answer in answers), answers


def test_hope_that_came_true_is_met_gladly(reply):
    """The vote reads hope in "I got the job offer ... I interviewed at last month!"; it has happened, and it is good
    news, so the listener is glad rather than wishing luck or only saying "Oh wow!"."""
    answer, _ = reply("I got the job offer from the hospital I interviewed at last month!")
    assert CHEER.search(answer) and not re.search(r"good luck|hope it goes", answer, re.I), answer


TURNS = [
    ("My landlord kept my whole deposit for a scratch that was there when I moved in.",),
    ("Someone cut in front of me in a two-hour queue and the staff did nothing.",),
    ("I have my driving test on Friday and I can't stop shaking.",),
    ("I found an old photo of my dad and me fishing when I was six.",),
    ("My best friend forgot my birthday again this year.",),
    ("I tripped on stage during my graduation in front of everyone.",),
    ("My neighbour mows his lawn at six every Sunday morning.",),
    ("My sister got the car I always wanted for her birthday.",),
    ("I finally finished my first marathon yesterday!", "Wow! How long did it take you?",
     "Just under five hours, but I never stopped running."),
    ("My son is starting kindergarten next week.", "Aw, how is he feeling about it?",
     "He's excited, but I'm the one who is nervous."),
]


@pytest.fixture(scope="module")
def replies(reply):
    return [reply(*turn) for turn in TURNS]


def test_every_story_gets_the_topic_writer(replies):
    for (text, _), turn in zip(replies, TURNS):
        print(f"{turn[-1]}\n    -> {text}")
    assert all(written for _, written in replies)


def test_a_reply_says_nothing_the_speaker_did_not(replies):
    """Every word is the writer's own (its frames) or the conversation's: the topic named back, nothing else."""
    own = set(WORD.findall(" ".join(line.text.lower() for frames in FRAMES.values()
                                    for lines in (frames.reactions, frames.questions, frames.comments)
                                    for line in lines)))
    own |= set(WORD.findall(" ".join(line.lower() for event in EVENTS
                                    for line in event.questions + event.reactions)))
    own |= {"he", "him", "his", "she", "her", "they", "them", "their", "it", "its", "is", "are", "s"}
    for (text, _), turn in zip(replies, TURNS):
        extra = set(WORD.findall(text.lower())) - own - set(WORD.findall(" ".join(turn).lower()))
        assert not extra, (text, extra)


def test_replies_are_short_and_distinct(replies):
    texts = [text for text, _ in replies]
    assert all(len(t.split()) <= MAX_WORDS and spoken_seconds(t) <= MAX_SPOKEN_SECONDS for t in texts), texts
    assert len(set(texts)) == len(texts), texts


def test_the_story_the_speaker_told_is_kept(reply):
    """Hand-checked cases: a death is not asked after, a test still to come is not asked how it went, a
    question the listener asked is not asked again, one friend stays one."""
    dog, _ = reply("My dog died this morning and I keep looking at his bed.")
    assert not re.search(r"\b(?:is|are) (?:your dog|he|it) (?:okay|doing|feeling)", dog, re.I), dog
    test, _ = reply("I have my driving test on Friday and I can't stop shaking.")
    assert not re.search(r"how did it go|how was it|did you pass", test, re.I), test
    asked, _ = reply("I have a job interview coming up next week.", "Ooh! When is it?", "Thursday morning, at ten.")
    assert not re.search(r"^when|\bwhen\b", asked.split(". ")[-1], re.I), asked
    one, _ = reply("One of my friends sent me money for my birthday right when I needed it.")
    assert "friends" not in one, one
    concert, _ = reply("I went to my first concert this weekend and saw Beyonce herself, it was so awesome.")
    assert not re.search(r"looking forward|hope it goes|good luck", concert, re.I), concert
    rejected, _ = reply("I had a great interview at the bank last week.", "Ooh, how did it go?",
                        "Well, they decided not to hire me. This stinks.")
    assert not CHEER.search(rejected) and "good for you" not in rejected.lower(), rejected
    for still_to_come in ("I'm so nervous to move across the country.", "I'm really excited for my bonus to come in.",
                          "I can't wait for the new season to start!"):
        answer, _ = reply(still_to_come)
        assert not re.search(r"how did it go|how was it|best part|afterwards|did you", answer, re.I), answer


def test_the_topic_is_named_back_once_then_said_as_a_pronoun():
    replies = [topic_reply(said(f"My grandmother passed away {when}.").history, "loss")
               for when in ("last night", "this morning", "on Monday", "yesterday", "today", "last week",
                            "in her sleep", "at the hospital", "after a long illness", "at ninety")]
    print(*replies, sep="\n")
    assert sum("your grandmother" in text for text in replies) >= 3
    assert all(text.count("grandmother") <= 1 for text in replies), replies


@pytest.mark.parametrize("text, phrase, kind", [
    ("I am nervous for my college test", "your college test", "study"),
    ("I got the job offer from the hospital!", "the job offer", "work"),
    ("One of my friends sent me a card", "your friend", "person"),
    ("Back then we had nothing, but my dog kept me going", "your dog", "pet"),
    ("I was minding my own business when it happened", None, None),
    ("I love Vincent van Gogh, his paintings are so moving", None, None),
    ("My sister in law got upset when she was over", "your sister-in-law", "person"),
    ("I have learnt the hard way, keep your friend circle small", None, None),
    ("Some kid at the gas station nearly hit me with his bike!", "the kid", "person"),
    ("I went out with some friends last night", "your friends", "person"),
    ("I already love the new one. They are now sisters.", None, None),
    ("The other day I made fish tacos and did nothing but relax.", None, None),
])
def test_find_topic(text, phrase, kind):
    topic = find_topic(text, "interest")
    assert (topic.phrase, topic.kind) == (phrase, kind) if phrase else topic is None, topic


def test_a_greeting_goes_to_the_reflective_writer(reply):
    answer, written = reply("hi there")
    assert not written, answer


def test_a_story_promised_but_not_told_is_asked_for(reply):
    for turn in ("You'll never guess what I saw on the road today.",
                 "Hi, I just wanted to tell you about a special thing that happened to me."):
        answer, written = reply(turn)
        assert written and answer.lower().endswith("what happened?"), answer
    told, _ = reply("Guess what! I got the job at the hospital!")
    assert not told.lower().endswith("what happened?"), told


def test_a_close_call_is_met_with_concern(reply):
    answer, _ = reply("I almost died today coming home from work.")
    assert SORROW.search(answer) or re.search(r"scar|terrif|okay", answer), answer
    assert not DEATH_WORDS.search(answer), answer


def test_a_question_to_the_listener_goes_to_the_reflective_writer(reply):
    for turn in ("I've been learning to bake bread. Do you like baking?",
                 "I've been learning to bake bread. Do you have any experience with it"):
        answer, written = reply(turn)
        assert not written and "?" in answer, answer


HAPPENINGS = [
    ("Last night someone came into my yard and stole my push mower.", "theft"),
    ("My girlfriend broke up with me after three years.", "breakup"),
    ("I just got a new job at the local firm!", "hired"),
    ("My wife is pregnant with our first child!", "pregnancy"),
    ("I got into a car accident on the way home and my car is totaled.", "crash"),
    ("A driver cut me off on the highway this morning.", "driver"),
    ("I saw a mouse run across my kitchen floor.", "critter"),
    ("My neighbour has been playing loud music every night.", "noisy"),
]


def test_what_happened_is_taken_up(reply):
    """Most replies to a told happening name it in the reaction ("Aw, breakups are so hard.") or ask what a
    listener asks about it (each is the writer's choice most of the time, by the turn's seed); before `events`
    none did."""
    taken_up = 0
    for turn, name in HAPPENINGS:
        answer, _ = reply(turn)
        event = next(event for event in EVENTS if event.name == name)
        about_it = any(line.text in answer for line in _lines(*event.questions, *event.reactions))
        print(f"{turn}\n    -> {answer} {'(takes it up)' if about_it else ''}")
        taken_up += about_it
    assert taken_up >= 6, taken_up


def test_a_happening_is_asked_about_only_on_its_side_of_the_news():
    def named(text: str, side: str) -> set[str]:
        return {event.name for event in told_events(text, side)}
    assert "theft" in named("Someone stole my car last night.", "bad")
    assert "theft" not in named("Someone stole my car last night.", "good")
    assert "won" not in named("I won the lottery!", "bad")
    assert named("I got caught in the rain on the way home.", "bad") == {"caught_in_rain"}
    for turn, name in (("I got accused of something at work today.", "accused"),
                       ("I went on a plane and had a panic attack the whole time.", "panic"),
                       ("I won't go up the tower because I'm scared of heights.", "heights"),
                       ("They have been laying people off all month.", "layoffs"),
                       ("Financial troubles are the worst.", "money_trouble")):
        assert name in named(turn, "bad"), turn
    for not_a_happening in ("I don't know what got into me this morning.", "I passed wind in my review.",
                            "I ate a whole pizza by myself!", "I asked to get moved to the bar.",
                            "My license expired last week.", "I saw a homeless man on the corner.",
                            "My favorite store is closing.", "I was kept in the dark about it.",
                            "I'm always late to work.", "My son's birthday is next week."):
        assert not named(not_a_happening, "good") | named(not_a_happening, "bad"), not_a_happening


def test_a_happening_question_the_turn_answers_is_not_asked(reply):
    for turn, answered in (("My roommate stole my leftovers from the fridge again.", "who did it"),
                           ("I lost my wallet at the mall, but luckily a guard found it.", "find it"),
                           ("My girlfriend and I broke up after five years together.", "How long"),
                           ("I got hired as a nurse at the hospital!", "What will you be doing")):
        answer, _ = reply(turn)
        assert answered not in answer, (turn, answer)


@pytest.mark.parametrize("question, told, untold", [
    ("Did you get in much trouble?", "I got caught sneaking out, but I got off with a warning.",
     "I got caught sneaking out last night."),
    ("Did it ever show up?", "After two weeks waiting for my package, it finally arrived.",
     "I've been waiting for my package for two weeks."),
    ("How old is your dog?", "I had a dog that I loved so much.", "My dog learned to ring the bell."),
    ("How was the party?", "I went to a party last night and it was so fun.", "I went to a party last night."),
    ("How was it?", "I was so happy to see my high school friends at our reunion.",
     "I saw my high school friends at our reunion."),
    ("How did you do?", "This was my first time winning a contest on the radio!", "I entered a contest on the radio."),
    ("Has it happened before?", "It was my first time getting my heart broken.", "My friend ignored me at lunch."),
    ("How is your dad doing now?", "My dad had a bad fever all week. He's better already.",
     "My dad had a bad fever all week."),
    # no ground: a boss who gave a bonus was never ill, an apartment cleaned all weekend is not new
    ("How is your boss doing now?", "Thankfully my boss decided to give us a big bonus.",
     "My boss was in a car accident on the way to work."),
    ("How do you like it so far?", "I spent the whole weekend cleaning my apartment.",
     "We just moved into a new apartment."),
    # told already: how it was, that it no longer weighs
    ("What was that experience like?", "My childhood friend came to visit. I couldn't stop smiling.",
     "My childhood friend came to visit last week."),
    ("What was it like for you?", "I saw the car up close and it was very disappointing.", "I saw the car up close."),
    ("Is it still weighing on you?", "I had a huge fight with my boss, but I'm totally relieved now.",
     "I had a huge fight with my boss."),
    ("How are you coping?", "My cat ran away last month. I got over it eventually.", "My cat ran away last month."),
    ("Is everyone safe?", "The storm was awful, but I feel lucky to have had no damage.", "The storm was awful."),
    ("Do you look at them often?", "I stumbled across my old yearbook while cleaning.", "I love my old yearbooks."),
    ("What was your first reaction?", "I won a gift card! I thought it was a scam, that was my first thought.",
     "I won a gift card!"),
    ("Did it feel like a weight off?", "Thankfully I was the only car on the freeway when I skidded.",
     "I finally paid off my student loans."),
    # no ground: nothing awaited, nothing to prepare for, no outing to go along on
    ("What's the worst part of waiting?", "I saw a huge spider in my car this weekend.",
     "I'm waiting to hear back about my biopsy."),
    ("Have you had time to prepare?", "I am frightened that I will lose my job.", "I have a big exam on Saturday."),
    ("How are you preparing for it?", "I put in so many hours at work hoping to get a promotion.",
     "I have a job interview tomorrow."),
    ("Who's going with you?", "I'm looking forward to this new game.", "I'm going on a trip to the mountains soon."),
    ("Who's going with you?", "We are going to Barbados for vacation as a family.",
     "We are going to Barbados for vacation."),
    ("What did your parents say?", "My parents told me we are going on a cruise at Christmas!",
     "My parents took us on a cruise at Christmas!"),
    ("What are you most looking forward to?", "My sister visits Friday, I can't wait to show her the city!",
     "My sister visits on Friday!"),
    ("What are your plans?", "It's my day off and I'm going to sleep in.", "It's my day off tomorrow!"),
    ("How did the exam go?", "I studied all week for my chemistry exam and only got a 68.",
     "I studied all week for my chemistry exam."),
    ("What's the job?", "I have an interview for a position as a nurse.", "I have a job interview on Thursday."),
    ("How do you think it went?", "I had my interview last week and got the job!", "I had my interview today."),
    ("What was it called?", "I watched a movie called Heat.", "I watched a movie last night."),
    ("What was the book?", "I read a book called Dune by the pool.", "I read a book by the pool."),
    ("Do you ever wish you could go back?", "I wish I could go back to the 70s.", "I loved the 70s."),
])
def test_a_question_the_story_answers_is_known_as_asked(question, told, untold):
    assert _already_asked(question, said(told).history)
    assert not _already_asked(question, said(untold).history)


def test_a_story_about_someone_else_does_not_ask_after_the_speaker():
    """"Are you okay?" is for the speaker's own scare; when the story is another's, the writer asks after them
    (before the "self" lines, 16 of these 240 replies asked after the speaker)."""
    asked = []
    for who in ("son", "daughter", "niece", "nephew", "sister", "brother", "dad", "mom", "friend", "wife", "husband",
                "dog"):
        for what in ("fell off the ladder and hit his head", "got really sick last night and we rushed to the doctor",
                     "was in a car accident on the way to work", "tripped on the stairs at school",
                     "slipped on the ice this morning"):
            for stance in ("reassure", "acknowledge_bad", "illness", "comfort"):
                answer = topic_reply(said(f"My {who} {what}.").history, stance)
                if re.search(r"\bare you (?:okay|ok)\b|were you hurt|how did you calm down", answer, re.I):
                    asked.append(answer)
    assert not asked, asked


def test_what_the_speaker_said_of_it_is_not_asked():
    """"How was it?" after "It was so fun!", "What's worrying you most?" after the worry is named: before these
    were answered questions, 25 of these 172 replies asked them."""
    asked = []
    for thing in ("concert", "party", "trip", "game", "wedding", "date", "show", "vacation"):
        for verdict in ("It was so fun!", "It was amazing.", "It was awful.", "It was the best night ever."):
            for stance in ("celebrate", "interest", "acknowledge_good", "acknowledge", "comfort"):
                answer = topic_reply(said(f"I went to a {thing} last weekend. {verdict}").history, stance)
                if answer and re.search(r"How (?:was it|did (?:it|that) go)\?", answer):
                    asked.append(answer)
    for worry in ("I'm so worried about my driving test tomorrow.", "I'm scared of flying next week.",
                  "I'm nervous about meeting her parents on Friday."):
        for stance in ("reassure", "acknowledge_bad", "acknowledge"):
            answer = topic_reply(said(worry).history, stance)
            if answer and "What's worrying you most" in answer:
                asked.append(answer)
    assert not asked, asked


@pytest.mark.parametrize("turn, time", [
    ("I'm so nervous for my driving test tomorrow.", "future"),
    ("I'm afraid to go to the dentist.", "future"),
    ("I'm not afraid to admit it: the power went out the other day and I was terrified.", "past"),
    ("My dog is the sweetest.", "now"),
    ("I was thinking of getting into gaming. I have a TV in the truck.", "future"),
    ("I pray I can do well in school.", "future"),
    # a wait, a hope and an idiom that are over or are no plan
    ("This one time I spent an entire hour waiting for food at Denny's.", "past"),
    ("I just heard I got the promotion I was hoping for. I think I am going to burst.", "past"),
    ("I remember the PS4 launch. I was really looking forward to having it delivered.", "past"),
    # "need" is no past verb
    ("I need to get to her concert tonight at 8!", "future"),
    ("Yesterday I woke up in such a great mood that I was ready to face any problem.", "past"),
    ("He's doing much better, but the thought still leaves me scared to this day.", "now"),
    ("I was very anxious to start driving at 16.", "past"),
    ("I'm running my first Marathon Sunday. I'm scared that maybe I did not train hard enough.", "future"),
    ("Saturday I'm climbing Mt. Elbert. The nerves have started to set in.", "future"),
    ("There is suppose to be a huge storm coming. I went to the store and got supplies.", "future"),
    ("me and my kids picked up our new puppy the other day!", "past"),
    ("Coming home driving in the rain my car hydroplaned on the freeway!", "past"),
])
def test_the_story_time_is_read_from_the_words(turn, time):
    assert story_time([turn]) == time


def test_a_day_ahead_named_first_stays_ahead():
    assert story_time(["I have a huge exam tomorrow.", "I studied really hard all week!"]) == "future"
    assert story_time(["I had a huge exam last week.", "I studied really hard all week!"]) == "past"


def test_jealousy_over_a_partner_is_met_as_hurt_not_envy():
    """"Do you think you'll get a chance too?" answers envy of a neighbour's car, not a partner's straying eye."""
    for turn in ("My girlfriend seems distant and keeps talking to other guys.",
                 "I caught my husband looking at another woman."):
        answer = topic_reply(said(turn).history, "envy")
        assert not re.search(r"a chance too|wanted for a while", answer), answer
    assert re.search(r"\?$", topic_reply(said("My neighbor just bought a brand new Lexus.").history, "envy"))


def test_a_jealous_vote_with_nothing_envied_is_not_met_as_envy():
    """A boss piling on work is no one's luck to envy (the vote read "jealous")."""
    answer = topic_reply(said("My boss is piling on the work but keeping my pay the same.").history, "envy")
    assert not re.search(r"a chance too|wanted for a while|human feeling", answer), answer


@pytest.mark.parametrize("turn", ["I'm so envious of everyone at the beach enjoying the sun.",
                                  "My best friend won the giveaway twice. I wish I could be that lucky sometimes."])
def test_envy_said_outright_is_met_as_envy(turn):
    """The envy is the news, not what is envied: "enjoying the sun" is no good news to be glad of."""
    envy = {line.text for line in FRAMES["envy"].reactions}
    for stance in ("acknowledge", "acknowledge_good"):
        answer = topic_reply(said(turn).history, stance)
        assert any(answer.startswith(reaction) for reaction in envy) and not CHEER.search(answer), answer


def test_a_loss_names_the_one_who_died_not_whoever_the_latest_turn_names():
    answer = topic_reply(said("My uncle passed away last spring.", "Were you close?",
                              "Very. He drove me to school every day when my parents worked late.").history, "loss")
    assert "parents" not in answer and re.search(r"\b(?:uncle|he|him|his)\b", answer), answer


def test_what_only_looks_like_a_death_is_none_and_a_simile_no_topic():
    fed_up = STANCES["validate"]
    assert situation_stance("I finally put down a deposit on my first apartment!", STANCES["celebrate"]) != "loss"
    assert situation_stance("My dog was chewing on dead frog. I hope it was not poisonous.", fed_up) != "loss"
    assert situation_stance("I found my cat dead on the porch this morning.", fed_up) == "loss"
    assert find_topic("Thank you! He takes to it like a fish in water.", "celebrate") is None


def test_hope_needs_no_good_news_to_be_wished_well():
    """A "prepared" or "hopeful" vote on a turn with no glad words is still hope for what is ahead: it is wished
    well, not met with "That sounds nice. What do you like most about it?"."""
    for turn in ("I feel very ready for my chemistry exam on Friday.", "I have a job interview next week."):
        stance = situation_stance(turn, STANCES["look_forward"])
        answer = topic_reply(said(turn).history, stance)
        assert stance == "look_forward" and re.search(r"luck|hope|fingers crossed|exciting|got this", answer, re.I), \
            answer


def test_preparing_is_not_asked_of_someone_who_says_they_prepared():
    assert _already_asked("How are you preparing for it?", said("I have prepared for my exam for two months.").history)
    assert not _already_asked("How are you preparing for it?", said("My exam is on Friday.").history)


def test_a_letdown_is_named_only_for_a_letdown():
    """Feeling alone, or missing someone, is no letdown: "That's such a letdown" would misread it."""
    for turn in ("I feel so alone since I moved to this city.", "I really miss my grandpa these days.",
                 "Nobody at work talks to me anymore.", "My best friend moved across the country last month.",
                 "I spent the whole holiday by myself.", "My son left for college and the house is so quiet.",
                 "I have nobody to hang out with on weekends.", "My husband is deployed overseas for a year."):
        answer = topic_reply(said(turn).history, "comfort")
        assert not re.search(r"disappointing|letdown", answer), answer


def test_a_hope_said_outright_is_wished_luck_not_met_with_excitement():
    for turn in ("I'm trying to sell my house, I hope I can find a buyer soon.",
                 "I'm praying my boss likes the report I sent in."):
        answer = topic_reply(said(turn).history, situation_stance(turn, STANCES["look_forward"]))
        assert (re.search(r"hop(?:e|ing)|promising|luck|[Ff]ingers crossed", answer)
                and not re.search(r"exciting|fun|sounds great", answer)), answer


def test_a_close_call_read_as_a_surprise_is_met_with_relief():
    turn = "I fell asleep at the wheel last night. My phone rang and woke me up. I'm so lucky to be here."
    assert situation_stance(turn, STANCES["surprise"]) == "relief"
    assert situation_stance("I won a trip to Hawaii! Luckily I had the week off.", STANCES["surprise"]) != "relief"
    assert situation_stance("I got so embarrassed but thankfully it didn't get ruined.", STANCES["ease"]) == "relief"
    topic = find_topic("My kitty that I had since she was a kitten passed away.", "loss")
    assert topic.phrase == "your kitty", topic


def test_a_killing_names_the_one_killed_and_self_harm_names_no_one_else():
    topic = find_topic("I am so mad my neighbor killed my dog because she was mad at me.", "loss")
    assert topic.phrase == "your dog", topic
    turn = "I told my best friends about an incident where I self-harmed recently."
    stance = situation_stance(turn, STANCES["ease"])
    answer = topic_reply(said(turn).history, stance)
    assert stance == "illness" and "friends" not in answer and not re.search(r"awkward|funny", answer), answer


@pytest.mark.parametrize("turn, name", [
    ("I just got out of a job interview for a customer assistant role.", "interview"),
    ("I was very happy just reading a book by the pool today.", "reading"),
    ("We go camping a lot. I love to read a good book in my hammock!", "relax"),
    ("I watched a video about a man who made a table out of chocolate.", "screen"),
    ("We ended up breaking up for a bit.", "breakup"),
    ("I've been trying to eat healthier and work out more.", "weight"),
    ("I don't have a lot of friends.", "lonely"),
    ("Since I moved to Dallas I have not met any friends.", "lonely"),
    ("I applied for a job at the bank and I have a good feeling about it.", "applied"),
    ("My older brother always makes promises he can't keep.", "lied"),
    ("There were a ton of mosquitoes in the garden.", "critter"),
    ("I stubbed my toe on the doorway.", "injury"),
    ("A former client emailed me a gift card out of the blue!", "gift"),
    ("I took up running this spring.", "weight"),
])
def test_everyday_happenings_are_named(turn, name):
    assert name in {event.name for side in ("good", "bad") for event in told_events(turn, side)}, turn


def test_gladness_at_what_is_still_to_come_is_not_asked_how_it_went():
    """"That must feel so good" is for what has happened, not for a weekend ahead."""
    for answer in replies_to("I'm looking forward to meeting with some friends on the weekend.", stance="celebrate",
                             seeds=12):
        assert not re.search(r"must feel|how are you celebrating|how did it go", answer, re.I), answer


def test_the_feared_thing_going_well_is_met_with_relief():
    history = said("I had to wait a week to find out if I got the job.", "Did you get it?",
                   "I did get it! I was so nervous.").history
    for stance in ("reassure", "acknowledge"):
        answer = topic_reply(history, stance)
        assert re.search(r"relief|glad|phew|weight off", answer, re.I), answer
    # a fright with a glad-sounding word in it is no relief
    scare = said("My taxi driver decided the empty highway at night was the perfect time to tell me how he killed a "
                 "man.").history
    assert not re.search(r"relief|glad|phew|weight off", topic_reply(scare, "reassure"), re.I)


def test_a_recovery_still_to_be_confirmed_is_hoped_for_not_celebrated():
    turn = "I have a Dr appointment tomorrow to make sure my cancer is still in remission."
    for answer in replies_to(turn, stance=situation_stance(turn, STANCES["look_forward"]), seeds=8):
        assert re.search(r"hope|fingers crossed|on your mind", answer, re.I), answer
        assert not re.search(r"what a relief|glad to hear|weight off|lighter", answer, re.I), answer
    assert situation_stance("My grandma got really sick last week. She is getting much better.",
                            STANCES["appreciate"]) == "relief"


def test_a_bright_side_the_speaker_found_is_taken_up():
    history = said("I studied all week for my math finals and only scraped a 68 on it.",
                   "That's a bummer. Did you at least pass the class?",
                   "Yeah, passed with a 75, not what I wanted but at least I passed.").history
    for stance in ("acknowledge_good", "comfort", "acknowledge"):
        answer = topic_reply(history, stance)
        assert re.search(r"at least|bright side|good way|could have been worse|something|well", answer), answer
        assert not re.search(r"great to hear|good for you|sorry", answer, re.I), answer


@pytest.mark.parametrize("turn, voted", [
    ("I'm so angry at myself. I passed wind in front of my boss in my review.", "validate"),
    ("He said it happens a lot, but I could feel my face get red!", "comfort"),
    ("I was so embarrassed when I called the patient by the wrong name.", "acknowledge"),
])
def test_embarrassment_and_anger_at_oneself_are_eased(turn, voted):
    stance = situation_stance(turn, STANCES[voted])
    answer = topic_reply(said(turn).history, stance)
    assert stance.startswith("ease") and not re.search(r"terrible thing|rude|maddening|rough", answer), answer


@pytest.mark.parametrize("fine", ["guilty", "ashamed"])
def test_guilt_or_shame_voted_is_not_laughed_off(fine):
    writer = TopicReplyWriter()
    for turns in (("I was supposed to drive a friend to work.", "Oh, what happened?",
                   "I forgot to pick him up as I overslept."),
                  ("I haven't had a drink in almost a year, but yesterday I relapsed. I feel like such a loser.",)):
        for variant in range(6):
            answer, written = writer.reply(said(*turns[:-1], turns[-1] + " " * variant), voted_only(fine))
            assert written and not re.search(r"funny|laugh|best of us|we all make mistakes|embarrass", answer), \
                answer


def test_a_funny_story_is_promised_only_of_a_slip_or_a_laugh():
    # after the listener's question, so that a comment follows the reaction
    betrayal, slip = (set(replies_to(*turns, stance="ease", seeds=30))
                      for turns in (("My girlfriend cheated on me.", "Oh no, how long were you together?",
                                     "Three years. I don't know how to forgive her."),
                                    ("I slipped and fell flat on my face at the store.", "Oh no, were you hurt?",
                                     "No, just my pride. Everyone saw it.")))
    assert not any(re.search(r"funny story|laugh", answer) for answer in betrayal), betrayal
    assert any(re.search(r"funny story|laugh", answer) for answer in slip), slip


def test_a_kindness_is_met_with_thanks_to_the_one_who_did_it():
    turn = ("Recently, my wife and I needed a babysitter for the evening, and my mother-in-law offered to watch our "
            "kids.")
    assert situation_stance(turn, STANCES["appreciate"]) == "appreciate"
    assert find_topic(turn, "appreciate").phrase == "your mother-in-law"
    # no kindness told: interest, as before
    assert situation_stance("My electricity is out again, I am considering solar.", STANCES["appreciate"]) != \
        "appreciate"


def test_a_terrible_thing_to_do_is_said_only_of_harm_done():
    for turn in ("A coworker of mine just doesn't seem to care about deadlines.",
                 "My neighbor starts hammering and sawing at 5am on weekends.",
                 "Someone keeps parking in my spot at work."):
        for answer in replies_to(turn, stance="validate", seeds=12):
            assert "terrible thing" not in answer, answer


def test_missing_a_pastime_is_nostalgia():
    for voted in ("reminisce", "acknowledge"):
        assert situation_stance("I miss watching chiller theatre with my family on fridays.",
                                STANCES[voted]) == "reminisce"
    assert situation_stance("I miss my grandpa so much.", STANCES["reminisce"]) != "reminisce"


def test_a_reply_does_not_say_one_word_twice():
    """"That's so annoying! You have every right to be annoyed.": the follow-up shares no stem with the reaction."""
    said_twice = []
    for turn in ("I locked my keys in my car at the store.", "My neighbor's dog barks all night.",
                 "I told my friend a secret and she spread it around.", "My flight got cancelled again."):
        for stance in ("validate", "comfort", "acknowledge_bad"):
            for variant in range(10):
                # a question first and then without one, for comments and for questions
                history = said(turn, "Oh no, what happened?", "It was like that all day." + " " * variant).history
                for asked in (history, history[:1]):
                    reaction, follow = re.split(r"(?<=[.!?]) ", topic_reply(asked, stance), maxsplit=1)
                    stems = [{word[:5] for word in re.findall(r"[a-z]{5,}", part.lower())}
                             for part in (reaction, follow)]
                    if stems[0] & stems[1] - {"sorry", "think", "there", "about", "would", "really"}:
                        said_twice.append((reaction, follow))
    assert not said_twice, said_twice


def test_harm_is_not_called_annoying_and_a_feeling_told_is_not_guessed():
    for answer in replies_to("One time someone kicked my dog!", stance="validate", seeds=20):
        assert "annoying" not in answer
    for answer in replies_to("I ate three pizzas.", "Are you okay?", "I'm pretty thin, but I totally do feel great.",
                             stance="celebrate", seeds=20):
        assert "must feel" not in answer


def test_good_news_already_here_is_cheered_not_wished_luck():
    for answer in replies_to("One of my art pieces has been chosen to be put in an exhibition!", stance="look_forward",
                             seeds=20):
        assert CHEER.search(answer) and not re.search(r"hope|luck|fingers|promising", answer, re.I), answer


@pytest.mark.parametrize("turn", [
    "On the bus a drunk guy barfed on me and he didn't even apologize.",
    "The lady ahead of me had no idea how to use self checkout and was holding everyone up.",
    "I questioned him about it and he denied it, but I caught him red handed.",
])
def test_someone_wronged_under_an_embarrassed_vote_is_validated(turn):
    stance = situation_stance(turn, STANCES["ease"])
    answer = topic_reply(said(turn).history, stance)
    assert stance == "validate" and not re.search(r"best of us|hard on yourself|funny|embarrass", answer), answer


def test_what_is_loved_most_is_asked_only_of_a_thing_one_has():
    for turn in ("I just got back from buying a few groceries at the store.",
                 "A young girl told me about her feelings and I began to cry."):
        for answer in replies_to(turn, stance="interest", seeds=12):
            assert "most about it" not in answer


def test_sweet_of_them_is_said_only_of_the_one_who_was_kind():
    for answer in replies_to("My coworker asked me out, but I can't see myself with another woman.",
                             stance="appreciate", seeds=12):
        assert "sweet of" not in answer, answer
    kind = set(replies_to("My neighbor brought us dinner when I was sick.", stance="appreciate", seeds=12))
    assert any("sweet of your neighbor" in answer for answer in kind), kind


def test_what_was_regretted_coming_right_is_a_relief():
    history = said("I sent a text to the wrong person.", "Oh no, what did you do?",
                   "I just played it off like I meant to send it. Everything turned out fine!").history
    for stance in ("ease", "ease_guilt"):
        assert re.search(r"relief|glad|phew|weight off|lighter", topic_reply(history, stance), re.I)


def test_lines_that_need_their_ground():
    """"Was your mom okay?" needs a danger, "What will you be doing?" a post, "Is there a way to make it right?"
    someone wronged."""
    party, project, nuts, abuse = (
        set(replies_to(turn, stance=stance, seeds=20))
        for turn, stance in (("I was nervous for my mom's surprise party.", "reassure"),
                             ("I did well on a project for a company.", "celebrate"),
                             ("I ate so many macadamia nuts today.", "ease_guilt"),
                             ("We were arguing and I ended up abusing her. I feel bad.", "ease_guilt")))
    assert not any("okay?" in answer for answer in party), party
    assert not any("What will you be doing" in answer for answer in project), project
    assert not any("make it right" in answer for answer in nuts), nuts
    assert not any(re.search(r"slips? up", answer) for answer in abuse), abuse
    assert any("make it right" in answer for answer in abuse), abuse


def test_a_guilty_vote_on_too_many_sweets_is_not_met_as_guilt():
    for variant in range(6):
        answer, _ = TopicReplyWriter().reply(said("I ate so many macadamia nuts today." + " " * variant),
                                             voted_only("guilty"))
        assert "feel bad" not in answer, answer


def test_a_feeling_named_in_other_words_is_not_asked_for():
    for turn in ("My best friend moved across the country and I'm heartbroken.",
                 "I failed my driving test again. I feel like such a loser.",
                 "My sister forgot my birthday and I cried all night."):
        for answer in replies_to(turn, stance="comfort", seeds=15):
            assert not re.search(r"feel(?:ing)?\b.*\?", answer), answer


def test_a_bad_happening_outweighs_a_glad_word_beside_it():
    for answer in replies_to("I got laid off from a job that I really used to love.", stance="acknowledge", seeds=10):
        assert SORROW.search(answer) or "job" in answer, answer
        assert not re.search(r"quite something|what kind of job|great|glad", answer, re.I), answer


def test_a_young_animal_is_no_child():
    topic = find_topic("My 3 dogs attacked my baby goat and she died last night from the injuries.", "loss")
    assert topic is not None and topic.phrase == "your goat" and topic.pronoun == "she", topic
    assert find_topic("She is in 5th grade.", "celebrate") is None


def test_a_mortgage_applied_for_is_no_job():
    assert "applied" not in {e.name for e in told_events("My bank has called me three times a day since I applied for "
                                                        "a mortgage.", "bad")}


def test_a_job_interview_is_no_job_offer():
    assert "hired" not in {e.name for e in told_events("I got a job interview for a very prestigious company.",
                                                      "good")}
    assert "hired" in {e.name for e in told_events("I got a job offer from the hospital!", "good")}


def test_a_person_breaking_down_or_confessing_a_lie_is_no_happening_of_that_kind():
    assert "breakdown" not in {e.name for e in told_events("I really broke down when I heard my mom was sick.", "bad")}
    assert "lied" not in {e.name for e in told_events("I lied to my mother and I feel very uneasy.", "bad")}
    assert "breakdown" in {e.name for e in told_events("My car broke down on the highway.", "bad")}
    assert "lied" in {e.name for e in told_events("My boyfriend lied to me about where he was.", "bad")}


def test_a_sudden_passing_is_a_death():
    for turn in ("My uncle passed suddenly last week.", "Our neighbor passed unexpectedly over the weekend."):
        assert situation_stance(turn, STANCES["comfort"]) == "loss", turn


def test_a_pet_hit_by_a_car_gets_concern_or_sympathy():
    turn = "Our cat got hit by a car this morning."
    assert situation_stance(turn, STANCES["acknowledge"]) == "illness"
    for answer in replies_to(turn, stance="illness", seeds=8):
        assert SORROW.search(answer) and not CHEER.search(answer) and "kind of" not in answer, answer
    # after a death told, the accident is the death's story: sympathy, not hope that the dog is okay
    writer = TopicReplyWriter()
    for variant in range(8):
        answer, written = writer.reply(said("My dog died last week.", "Oh no, what happened?",
                                            "He was hit by a truck." + " " * variant), voted_only("sad"))
        assert written and "sorry" in answer.lower() and not re.search(r"okay|better", answer), answer


def test_a_memory_told_under_a_nostalgic_vote_is_reminisced():
    for turn in ("Hearing that song took me back to my high school days.",
                 "I found a box of old photos in my closet."):
        assert situation_stance(turn, STANCES["reminisce"]) == "reminisce", turn
    assert situation_stance("I went to the mall with my sister today.", STANCES["reminisce"]) == "interest"


def test_a_slip_with_people_watching_is_eased():
    assert situation_stance("I tripped on the stairs at school and everyone saw me.", STANCES["acknowledge"]) == "ease"
    assert situation_stance("I tripped on the stairs at home last night.", STANCES["acknowledge"]) != "ease"


def test_a_glad_surprise_is_cheered_and_untold_news_asked_for():
    for answer in replies_to("My sister threw me a surprise party for my birthday!", stance="surprise", seeds=10):
        assert not re.search(r"react|really\?|didn't see that|no way|seriously|what did you think", answer, re.I), \
            answer
    for answer in replies_to("My sister just told me the best news ever!", stance="surprise", seeds=8):
        assert answer.lower().endswith("what happened?"), answer


def test_good_news_of_someone_else_does_not_ask_what_they_said():
    for answer in replies_to("My best friend finished her first marathon yesterday!", stance="celebrate", seeds=20):
        assert not answer.endswith("say?"), answer


def test_a_visit_on_its_way_is_ahead():
    assert story_time(["My cousin is coming over for dinner."]) == "future"
    assert story_time(["My cousin came over for dinner."]) == "past"


def test_a_question_that_tells_is_answered_as_a_story():
    writer = TopicReplyWriter()
    for turn in ("Can you believe my neighbor lets his dog bark all night?",
                 "Don't you hate it when people cut in line at the store?"):
        for variant in range(4):
            answer, written = writer.reply(said(turn + " " * variant), voted_only("annoyed"))
            assert written and not re.search(r"question|your answer|your side|your take", answer), answer
    assert not TopicReplyWriter().reply(said("Do you have any pets?"), voted_only("content"))[1]


def test_good_news_of_another_cheers_them_not_the_speaker():
    for answer in replies_to("My sister just graduated from nursing school!", stance="celebrate", seeds=20):
        assert not re.search(r"must feel|enjoy|soak|savor", answer, re.I), answer
    # a kindness done to the speaker is not cheered as the friend's success
    for answer in replies_to("My friend got me tickets to the concert!", stance="celebrate", seeds=20):
        assert "good for your friend" not in answer.lower() and "friend must be" not in answer, answer


def test_small_readings_of_who_and_what():
    # another's loss is not asked about as the speaker's own
    for answer in replies_to("Her dad died of cancer last year, so now she volunteers at the hospital.", stance="loss",
                             seeds=12):
        assert "you two" not in answer, answer
    # nobody is no topic: "when you have no friend around"
    assert find_topic("It's hard when you have no friend around.", "comfort") is None
    # a good thing one was not able to have, or did not get to do, is bad news
    assert news("We went to the fair, but I wasn't really able to enjoy it.") == (True, False)
    assert news("I didn't get to see the fireworks this year.")[0]
    # a bright side found for someone else: "he at least got an interview"
    for answer in replies_to("After months of searching, he at least got an interview.", stance="comfort", seeds=8):
        assert re.search(r"at least|good way to look|could have been worse", answer, re.I), answer


def test_the_speakers_own_doing_is_not_called_a_terrible_thing():
    for answer in replies_to("I punched my brother in the face.", stance="validate", seeds=20):
        assert "terrible thing" not in answer, answer
    for answer in replies_to("Someone punched my little brother at school.", stance="validate", seeds=20):
        if "terrible thing" in answer:
            break
    else:
        pytest.fail("harm done by another is never called a terrible thing to do")


def test_old_photos_are_not_reminisced_at_bad_news():
    for answer in replies_to("The pictures of the house were so misleading. Up close it was a disappointing mess.",
                             stance="acknowledge_bad", seeds=12):
        assert "bring so much back" not in answer, answer


def test_the_hedge_on_something_ahead_wishes_well_or_reassures():
    for answer in replies_to("I have a huge exam coming up tomorrow.", stance="acknowledge", seeds=8):
        assert not re.search(r"quite something|I hear you|gotcha|I see\b|okay\.|makes sense", answer), answer
    for answer in replies_to("I have a big presentation next week and I am nervous.", stance="acknowledge", seeds=8):
        assert not re.search(r"sorry|that's rough|that's tough|holding up", answer, re.I), answer
    # bad news ahead is still met as bad news
    for answer in replies_to("My landlord is going to evict us next week.", stance="acknowledge", seeds=8):
        assert not re.search(r"luck|exciting|hope it goes", answer, re.I), answer


def test_annoyance_in_other_words_is_not_cheered():
    assert news("Man I am so cheesed off today!") == (True, False)
    assert news("I'm so fed up with my landlord.")[0] and news("Tornadoes hit our town again.")[0]


def test_an_injury_after_a_death_denied_is_no_death():
    writer = TopicReplyWriter()
    for variant in range(6):
        answer, _ = writer.reply(said("I saw a deer get hit by a car yesterday.", "Oh no, did someone move it?",
                                      "It wasn't dead, it was injured and limped off the road." + " " * variant),
                                 voted_only("sad"))
        assert not re.search(r"loss|losing|passed|grief", answer, re.I), answer


def test_a_baby_on_the_way_is_not_asked_after():
    for answer in replies_to("I just found out my wife is pregnant!", stance="celebrate", seeds=20):
        assert not re.search(r"little one doing|any sleep", answer), answer


def test_a_past_celebration_is_not_told_to_enjoy_it():
    for answer in replies_to("My friends threw me a party last weekend.", "That is so nice! How was it?",
                             "It was a lot of fun, I had no idea they were planning it.", stance="celebrate", seeds=20):
        assert not re.search(r"enjoy every|soak it|savor|must feel", answer, re.I), answer


def test_a_break_in_is_not_asked_after_a_thing_stolen():
    for answer in replies_to("Last night an intruder broke into my home and I hid in the closet.", stance="reassure",
                             seeds=20):
        assert "get it back" not in answer, answer
    assert not told_events("Two drivers blocked traffic with their argument.", "bad")


def test_more_bad_news_words():
    for turn in ("The car looked great in the ad, but in person it was ratty and crappy.",
                 "I said no to the deal, and I regret that now.", "My son threw a huge tantrum at the store."):
        assert news(turn)[0], turn


def test_a_feeling_told_in_more_words_is_not_asked_for():
    """The last three read off tuning replies (seed 243), asked "How are you feeling about it now?" before."""
    for turn in ("The crime rate in my city is so high right now, it breaks my heart.",
                 "My team lost the match yesterday. I didn't like it.",
                 "It's been weighing heavy on my mind all week.",
                 "Man that was hard to deal with today.",
                 "A few years ago I moved cross-country. It was kind of terrifying, hardly knowing anyone here.",
                 "My husband is on his second tour in Iraq. The kids and I miss him terribly."):
        for stance in ("acknowledge", "comfort"):
            for answer in replies_to(turn, stance=stance, seeds=10):
                assert not re.search(r"feel(?:ing)?\b[^.!?]*\?$", answer), answer


def test_a_treat_is_good_news_and_a_missed_show_is_not():
    assert news("My husband treated me to a week at the beach, I had no idea!") == (False, True)
    assert news("I'm not going to be able to see my favorite band when they come to town.")[0]


def test_bad_news_told_by_a_negation_or_a_debt_unpaid():
    assert news("It's not looking too good.") == (True, False)
    assert news("They owed me money but never paid me back.")[0]


def test_a_hedge_after_an_illness_keeps_the_illness(reply):
    answer, _ = reply("I took my dog to the vet yesterday... it turns out that he's really sick.",
                      "Aww, I'm sorry. Is he going to be ok?",
                      "It's not looking too good. I really hope he pulls through.")
    assert SORROW.search(answer) and not CHEER.search(answer), answer


def test_weight_lost_and_a_thriving_garden_are_good_news():
    assert news("I lost 20 pounds this year!") == (False, True)
    assert news("I've been on a diet 2 weeks and I'm down 17 pounds.") == (False, True)
    assert news("My tomatoes and peppers are doing really well.") == (False, True)
    assert news("I lost my wallet on the bus.") == (True, False)


def test_the_map_chooses_a_line_and_any_of_its_ways_is_said():
    """The map of listeners' replies chooses what to say; which of a line's near-synonyms it prefers is noise, so
    the line's ways take turns instead of one wording being said to many speakers."""
    candidates = [("Oh no, that's rough.", "rough"), ("Ugh, that's rough.", "rough"), ("Oof, that's rough.", "rough"),
                  ("I hear you.", "hear")]

    def rank(texts: list[str]) -> np.ndarray:
        return np.array([0.9 if text.startswith("Oh no") else 0.3 if "rough" in text else 0.1 for text in texts])
    said = [_choose(candidates, random.Random(seed), rank) for seed in range(200)]
    assert set(said) == {"Oh no, that's rough.", "Ugh, that's rough.", "Oof, that's rough."}, set(said)


def test_love_lost_money_needed_and_suspicion_are_bad_news():
    assert news("She fell out of love with me") == (True, False)
    assert news("I needed money this weekend")[0]
    assert news("I have suspicions that the guys I was with cheated.")[0]


def test_the_dead_and_an_ex_are_not_asked_after_as_if_still_here():
    for answer in replies_to("My dad passed away last year.", "I'm so sorry to hear that.",
                             "Yes, but I really miss him.", stance="comfort", seeds=20):
        assert "see each other again" not in answer and "talk often" not in answer, answer
    for answer in replies_to("Two years ago, I discovered that my now ex-wife was cheating on me with someone she "
                             "worked with.", stance="comfort", seeds=20):
        assert "still together" not in answer, answer


def test_the_one_who_brought_the_news_is_not_mourned():
    for answer in replies_to("My phone call was my mom telling me my 32 year old had just died of a heart attack.",
                             stance="loss", seeds=20):
        assert "mom" not in answer, answer


def test_what_the_speaker_told_is_not_asked():
    for answer in replies_to("It was my birthday today, so my family organised a party that I didn't know about.",
                             stance="celebrate", seeds=20):
        assert "How did you celebrate" not in answer, answer
    for answer in replies_to("I can't wait until I see my golden retriever Blue this weekend!", stance="look_forward",
                             seeds=20):
        assert not re.search(r"looking forward to(?: most)?\?|How does it feel", answer), answer


def test_a_cup_final_a_class_rank_and_a_holiday_are_not_what_they_seem():
    for turn in ("I can't wait to watch the world cup finals..",
                 "They said since I graduated top of my class that they are going to cover it!"):
        topic = find_topic(turn, "look_forward")
        assert topic is None or topic.kind != "study", topic
        for answer in replies_to(turn, stance="look_forward", seeds=20):
            assert not re.search(r"good luck|best of luck|getting ready|preparing", answer, re.I), answer
    for answer in replies_to("I can't wait for it to be Christmas already.", stance="look_forward", seeds=20):
        assert "Who's going" not in answer, answer


def test_a_glad_time_long_ago_is_remembered_and_a_contest_won_is_no_luck():
    for answer in replies_to("Once, I went camping with my family. It was a blast.", stance="celebrate", seeds=20):
        assert not re.search(r"exciting|congrat|news", answer, re.I), answer
    assert "won" not in {event.name for event in told_events("When I was 12 I won the school spelling bee!", "good")}
    assert "won" in {event.name for event in told_events("I won the lottery last night!", "good")}


def test_a_grievance_long_past_is_not_asked_how_it_is_handled():
    for answer in replies_to("One time someone kicked my dog!", stance="validate", seeds=20):
        assert not re.search(r"How are you (?:dealing|handling|coping)", answer), answer


def test_dread_doubt_and_a_pass_refused_are_not_cheered():
    assert news("I'm so not looking forward to tomorrow.")[0]
    assert news("I am also up for a promotion if we keep going.") == (False, False)
    assert news("A coworker came onto me at work, but I refused.")[0]
    for answer in replies_to("I am suppose to start a new job tomorrow. I am not sure I am going to like it",
                             stance="look_forward", seeds=20):
        assert not re.search(r"exciting|congrat|fun\b", answer, re.I), answer


def test_an_interview_nailed_is_not_asked_how_it_went():
    for answer in replies_to("I had an online interview today for a teaching position and I nailed it!",
                             stance="celebrate", seeds=20):
        assert not re.search(r"How (?:was it|did it go)", answer), answer


def test_gladness_after_a_capital_but_is_cheered():
    for answer in replies_to("It was really hard. But I loved every minute of it!", stance="celebrate", seeds=10):
        assert CHEER.search(answer) and not SORROW.search(answer), answer


def test_more_news_read_from_tuning_turns():
    assert news("We had a fun day out but when we got home he was really bad.")[0]
    assert news("My younger sister is pregnant. Arrrgh")[0]
    assert news("She had issues with a program on her computer, and I solved it with no problems!") == (False, True)
    assert news("I felt I bombed it, but when I checked my grade I made an A!") == (False, True)
    assert news("I wanted that job so bad and I got the job!") == (False, True)


def test_praise_for_hard_work_and_love_of_it_only_where_they_fit():
    for answer in replies_to("I applied for a job at the library.", "Hey, that's awesome! When do you hear?",
                             "Probably next week sometime. I'm really excited!", stance="celebrate", seeds=20):
        assert not re.search(r"hard work|earned|deserve", answer, re.I), answer
    for answer in replies_to("I always try to stay positive no matter what.", stance="interest", seeds=20):
        assert "most about it" not in answer, answer


def test_a_dying_father_is_not_asked_how_things_are_with_him():
    for answer in replies_to("The worst phone call I ever got was when I was told my dad only had a few weeks left "
                             "to live.", stance="comfort", seeds=20):
        assert "How are things with" not in answer, answer


def test_a_bright_side_found_and_a_worry_told_are_taken_up():
    for answer in replies_to("Did you pass?", "Yeah, got a 73% on the class. Not ideal but better than failing.",
                             stance="acknowledge", seeds=20):
        assert not SORROW.search(answer), answer
    for answer in replies_to("I got called for jury duty.", "That will be no fun.",
                             "No. I hope it isn't a murder trial or something heartbreaking.", stance="reassure",
                             seeds=20):
        assert not re.search(r"worr\w+ (?:you )?most", answer), answer


def test_gladness_with_no_happening_is_enjoyed_not_congratulated():
    for turn in ("I'm so happy I ate good food", "This morning I woke up in such a good mood and sang in the shower."):
        for answer in replies_to(turn, stance="celebrate", seeds=20):
            assert re.search(r"love|nice|wonderful|best|good|special", answer, re.I), answer
            assert not re.search(r"news|congrat|exciting|proud|earned", answer, re.I), answer
    for answer in replies_to("I got the job I interviewed for!", stance="celebrate", seeds=20):
        assert re.search(r"congrat|good for you|way to go|well done|fantastic|job|start|celebrat", answer, re.I), answer


@pytest.mark.parametrize("turn", ["I have a big presentation at work on Monday and I'm so nervous.",
                                  "I forgot my mom's birthday and I feel terrible.",
                                  "I found my old yearbook in the attic and looked through it all evening."])
def test_speakers_telling_one_story_are_not_all_told_the_same_words(reply, turn):
    """Many speakers tell near-identical stories. The map picks the same line for them, and its ways of saying it
    take turns, so no one reply goes to more than a third of 20 of them (one went to 11 before the lines the map
    favours had several ways). "Hmm" opens no reply: blind raters read "Hmm, I hear you." as doubting."""
    answers = [reply(turn + " " * speaker)[0] for speaker in range(20)]
    most, times = Counter(answers).most_common(1)[0]
    assert times <= 6, (most, times)
    assert not any(answer.startswith("Hmm") for answer in answers), answers


@pytest.mark.parametrize("turn", ["I didn't make the soccer team this year even though I trained all summer.",
                                  "My package was supposed to arrive today but it got delayed another week.",
                                  "The restaurant we drove an hour to was closed when we got there.",
                                  "I didn't get the apartment I applied for.",
                                  "The new phone I ordered arrived with a cracked screen.",
                                  "I was really looking forward to the beach but it rained all weekend.",
                                  "I was so sure I'd win the raffle but I didn't even get a small prize.",
                                  "My cat knocked my favorite mug off the counter and it shattered.",
                                  "My coworker keeps taking credit for my ideas in meetings."])
def test_bad_news_told_with_no_sad_word_is_met_as_bad_news(reply, turn):
    """A letdown, a breakage or a wrong done is bad news, though no word of it is sad: not "Oh, okay. How did that
    go?" to a team not made, "Ooh, nice!" to a weekend rained out, or "Oh, that's good to hear." to a favourite mug
    shattered."""
    for speaker in range(5):
        answer, _ = reply(turn + " " * speaker)
        assert not CHEER.search(answer), answer
        assert SORROW.search(answer) or re.search(r"\bruins?\b|disappoint|letdown|shame", answer, re.I), answer


def test_a_hedge_whose_words_tell_no_news_leans_the_way_the_vote_does(reply):
    """"I hear you. Thanks for sharing that with me." answered a weekend alone that all three voters read as lonely:
    the words tell no news, so the hedge took no side. It now leans with a vote sure enough of a side."""
    plain = {_fill(line.text, None) for stance in ("acknowledge", "acknowledge_story")
             for line in FRAMES[stance].reactions}
    for speaker in range(5):
        answer, _ = reply("I couldn't find anyone who wanted to hang out, so I spent the whole weekend by myself."
                          + " " * speaker)
        assert SORROW.search(answer) and not CHEER.search(answer), answer
        glad = topic_reply(said("We went fishing at the lake last week." + " " * speaker).history, "acknowledge",
                           lean="good")
        assert not SORROW.search(glad) and re.split(r"(?<=[.!?]) ", glad)[0] not in plain, glad
        unsure = topic_reply(said("We went fishing at the lake last week." + " " * speaker).history, "acknowledge")
        assert re.split(r"(?<=[.!?]) ", unsure)[0] in plain, unsure


def test_a_mission_is_nothing_missed_and_being_poor_is_bad_news():
    assert news("I was glad my dad asked me to go on a mission trip with him.") == (False, True)
    assert news("We're poor, and bills are adding up")[0]


def test_how_things_are_with_someone_is_asked_only_after_a_rift():
    """"How are things with your dad now?" hints at trouble between the two: blind raters read it as inventing a
    rift after a dad who visited, a husband away on a tour, a girlfriend the speaker does not have yet."""
    visit = replies_to("My dad visited last weekend and I was so sad when he had to leave.", stance="comfort",
                       seeds=20)
    assert not any("How are things with" in answer for answer in visit), visit
    fight = replies_to("My dad and I had a huge fight last weekend.", stance="comfort", seeds=20)
    assert any("How are things with your dad" in answer for answer in fight), fight


def test_news_of_a_death_brought_is_not_asked_for():
    """"My mother called me with the news." tells who brought the news; the death was told just before it, so the
    reply is sympathy, not "Oh, tell me! What happened?"."""
    for answer in replies_to("My old cat died on Sunday. My sister called me with the news.", stance="loss",
                             seeds=10):
        assert "sorry" in answer.lower() and "what happened" not in answer.lower(), answer


def test_a_surprise_already_met_is_not_met_as_a_shock_again():
    """Once the listener has heard the surprise, what the speaker adds is not met with "Oh wow! That must have been
    quite a shock.": "A pair of shoes" after the gifts."""
    for answer in replies_to("I love the gifts I got for my birthday last week.", "Happy birthday! What was your "
                             "favourite?", "A pair of running shoes.", stance="surprise", seeds=20):
        assert not re.search(r"shock|no way|really\?|seriously\?|what a surprise|didn't see that coming", answer,
                             re.I), answer


def test_what_the_listener_last_met_with_sympathy_is_not_called_lovely():
    """A turn that tells nothing new, after the listener met the story with sympathy, is not answered "Aw, that's
    lovely." or "Oh, that's great to hear." under a glad vote or glad words of an earlier turn."""
    for stance in ("interest", "acknowledge"):
        answers = replies_to("My student loan bill came today. I still owe so much.", "Oh no, that's awful. I'm "
                             "sorry.", "It started at twice that, but it's still a lot.", stance=stance, seeds=10)
        for answer in answers:
            assert not CHEER.search(answer), answer
    answers = replies_to("I found old pictures of my dog, and it made me so happy.", "That must have been hard, "
                         "she passed last year.", "Yes. She was quite old by then.", stance="acknowledge", seeds=10)
    assert not any(CHEER.search(answer) for answer in answers), answers


def test_thanks_and_little_else_are_welcomed(reply):
    """"Thanks my friend!" after the listener's good wishes was met as news ("Wow, how exciting! Such a great
    feeling."), and a lone "Thanks!" went to the fallback's "Do you want to tell me more?". Thanks are welcomed,
    gently after sad news."""
    for speaker in range(5):
        glad, _ = reply("I got the job offer from the hospital!", "Congratulations!", "Thank you!" + " " * speaker)
        assert re.match(r"(?:You're (?:so )?welcome|Of course|Anytime)!", glad), glad
        sad, _ = reply("My grandmother passed away last night.", "I'm so sorry for your loss.",
                       "Thanks." + " " * speaker)
        assert re.match(r"(?:You're welcome|Of course)\.", sad) and not CHEER.search(sad), sad
    told, _ = reply("I got the job offer from the hospital!", "Congratulations!",
                    "Thank you! I start on Monday and I'm so excited.")
    assert not re.match(r"(?:You're (?:so )?welcome|Of course|Anytime)", told), told


def test_a_death_told_without_the_word_died_is_a_death():
    """"my dog who has passed" and "we lost him 5 years ago to an accident" are deaths: "Have you talked to your
    brother about it?" went to the second. A car that passed me, or a child lost in a crowd, is none."""
    assert situation_stance("I found pictures of my dog who has passed.", STANCES["acknowledge"]) == "loss"
    answers = replies_to("I feel heartbroken whenever I think of my brother.", "Oh, that really sucks.",
                         "We lost him five years ago to an accident.", stance="comfort", seeds=10)
    assert not any("talked to" in answer for answer in answers), answers
    for alive in ("A car that passed me on the highway almost hit me.", "I lost her in the crowd at the mall."):
        assert situation_stance(alive, STANCES["acknowledge"]) != "loss", alive


def test_an_illness_that_turned_out_fine_is_a_relief(reply):
    """"Yes, thankfully! ... He's doing much better today." after a sick cat, and "everything turned out fine" after
    a scare in hospital, were met with "I hope your cat is okay" and "I hope things get better soon"."""
    for speaker in range(5):
        cat, _ = reply("My cat got sick the other day, he was so weak.", "Is he going to be okay?",
                       "Yes, thankfully! The vet gave him fluids and he's doing much better today." + " " * speaker)
        scare, _ = reply("I started bleeding when I was eight months pregnant.", "Oh no! Was everything okay?",
                         "Yes, thankfully everything turned out fine. I was in the hospital for three weeks though."
                         + " " * speaker)
        for answer in (cat, scare):
            assert re.search(r"relie|glad|phew|weight off|lighter", answer, re.I), answer
            assert not re.search(r"hope (?:\w+ )*(?:okay|better)", answer, re.I), answer


def test_hope_ahead_after_bad_news_is_wished_well(reply):
    """"Thanks, I will buy another one!" after a losing ticket, or another interview hoped to go better after a job
    not got: the speaker looks ahead with hope, and the reply is not "Oof, that's rough."."""
    for speaker in range(5):
        for story in (("I bought a scratch ticket for $20 and didn't win anything.", "Sorry to hear that.",
                       "Thanks, I will buy another one!"),
                      ("I didn't get the job I interviewed for last week.", "Oh no, I'm sorry. That's tough.",
                       "It's okay, I have another interview next week and I'm hoping it goes better.")):
            answer, _ = reply(*story[:-1], story[-1] + " " * speaker)
            assert not SORROW.search(answer), answer


def test_rudeness_needs_someone_and_memories_are_not_said_back():
    """Rain spoiling a cookout is not "so rude"; "that must bring back memories" is not said to a speaker who has
    just said a song brought them back."""
    rain = replies_to("I get so annoyed when it rains. We had plans for a family cookout and a storm came.",
                      stance="validate", seeds=20)
    assert not any(re.search(r"rude|consideration", answer) for answer in rain), rain
    song = replies_to("I heard an old album the other day and it brought me right back to high school.",
                      stance="reminisce", seeds=20)
    assert not any("bring back" in answer for answer in song), song


def test_what_the_speaker_did_is_not_asked_and_company_only_after_a_recent_loss():
    """"What did you do?" after "I asked to get moved to the bar"; "Do you have people around you right now?" of a
    dog that died years ago."""
    told = replies_to("Our waiter picked his nose at dinner.", "Oh gross!",
                      "It really was. I asked to get moved to another table.", stance="disgust", seeds=20)
    assert not any("What did you" in answer for answer in told), told
    long_ago = replies_to("My dog Lily died three years ago and it broke my heart.", stance="loss", seeds=30)
    assert not any("right now?" in answer for answer in long_ago), long_ago
    recent = replies_to("My dog Lily died last night.", stance="loss", seeds=30)
    assert any("right now?" in answer for answer in recent), recent


def test_how_are_you_is_answered_and_a_question_is_turned_back_warmly(reply):
    """"not going. how are u?" got "Ha, I'd rather hear your side.", which blind raters read as a dodge: small talk
    is answered in kind and turned back, and another question is turned back without brushing it off."""
    for speaker in range(5):
        answer, _ = reply("hi", "Hi, what's going on with you?", "not much. how are you?" + " " * speaker)
        assert re.match(r"(?:I'm doing well|Doing well|I'm good|Pretty good)", answer) and answer.endswith("?"), answer
        answer, _ = reply("I love my dream car.", "Cars are fun.", "What's your dream car?" + " " * speaker)
        assert answer.endswith("?") and not re.search(r"rather|more interested", answer), answer


def test_readings_fixed_from_a_fourth_check_of_tuning_replies():
    """Less money for more work and an argument are bad news; food that made the speaker ill is not the parents'
    illness; enjoying is a feeling told, not asked for; only the one who did it is asked to apologize ("she started
    shouting" tells who); "a job well done" and "to pet her" name no job or pet; a spider stomped on is not asked how
    it got out; a layoff years back is not asked what is lined up; "I feel like such a loser" is not asked if it
    still bothers; another's forgetting is not the speaker's to make up for; missing those times is a memory."""
    assert news("I got the job offer but they offered me less money than I already make.")[0]
    assert news("My friend and I got in an argument about religion today.")[0]
    for answer in replies_to("My parents tried to make me eat some gone off food once, it made me really ill",
                             stance="illness", seeds=10):
        assert "parents" not in answer, answer
    for answer in replies_to("Recently I've been enjoying being by myself.", stance="acknowledge", seeds=10):
        assert not re.search(r"\bfeel", answer), answer
    for answer in replies_to("Last night I found something in my son's room that made me so mad!", stance="validate",
                             seeds=20):
        assert not re.search(r"apologize|say why", answer), answer
    assert any("apologize" in answer for answer in replies_to(
        "So my sister drove my car to run an errand and got a ticket!", stance="validate", seeds=40))
    assert any("apologize" in answer for answer in replies_to(
        "i had a fight with my sibling today and she started shouting at me", stance="validate", seeds=40))
    assert find_topic("Today I was recognized by name in front of everyone for a job well done.", "celebrate") is None
    assert find_topic("I met a cow the other day and I went to go pet her.", "reassure") is None
    for answer in replies_to("I saw a spider.", "I would burn the house down.", "I hit it with a rolled up news paper "
                             "and a bunch of baby spiders came out. I stomped on them.", stance="reassure", seeds=20):
        assert "get it out" not in answer, answer
    for answer in replies_to("A few years back I got laid off from my job. It broke me.", stance="comfort", seeds=20):
        assert not re.search(r"lined up|something new", answer), answer
    for answer in replies_to("Yesterday I relapsed. I feel like such a loser.", stance="ease_guilt", seeds=20):
        assert "bothering" not in answer, answer
    for answer in replies_to("I was upset when my friend forgot to invite me to dinner", stance="validate", seeds=20):
        assert "make up for it" not in answer, answer
    assert situation_stance("Oh yeah, but it really makes me miss those times.", STANCES["reminisce"]) == "reminisce"


@pytest.mark.parametrize("question, kind", [
    ("Do you ever feel sad about things in life?", r"everyone does|most of us do|we all do|most people do"),
    ("Have you ever felt really ashamed?", r"everyone has|most of us have|we all have|most people have"),
    ("That's nothing but the truth! What's your favorite era?", r"hard one to pick|hard to pick|tough choice"),
    ("have you ever watched this show it was really quite good?", r"tell me more|hear about it"),
    ("Thank you, what should I do about it?", r"talk it over|little time|one step at a time"),
    ("Sunflower seeds and sunny weather make a relaxed day, do you agree?", r"agree|right about|you're right"),
])
def test_a_question_to_the_listener_is_met_in_kind_without_a_life_story(reply, question, kind):
    """Blind raters read "Good question! I'd love to hear your answer first." as a dodge: a question the listener can
    meet without a life of its own (a feeling everyone knows, a favourite, a show, advice, a view) is met in kind."""
    for seed in range(5):
        answer, _ = reply("I had a long week.", "Oh no, what happened?", question + " " * seed)
        assert re.search(kind, answer, re.I), answer
        assert not re.search(r"\bI (?:have|had|saw|watched|went|did|was)\b|\bmy\b", answer), answer
    answer, _ = reply("I had a long week.", "Oh no, what happened?", "do you have a large family?")
    assert answer in _ASKED_BACK, answer


def test_a_yes_or_a_no_is_weighed_by_the_question_it_answers():
    """A yes or a no tells its news through the question it answers: "Yeah, I'm fine" to "Are you alright?" is a
    relief, not met with outrage; "yes" to "Did you do well?" is not met with sorrow, nor to "Did you get lost?" with
    cheer."""
    for answer in replies_to("Someone smashed into my car in the parking lot and just drove off.",
                             "What! First of all, are you alright?", "Yeah, I'm fine, the car was parked.",
                             stance="validate", seeds=10):
        assert re.search(r"relief|glad", answer, re.I), answer
        assert not re.search(r"not okay|rude|furious|livid|angry", answer, re.I), answer
    for answer in replies_to("I had my final exam today.", "Did you do well on your exam?", "yes, I studied a lot",
                             stance="comfort", seeds=10):
        assert not SORROW.search(answer), answer
    for answer in replies_to("We went to the fair last weekend.", "Did you get lost?", "yes, for an hour",
                             stance="interest", seeds=10):
        assert not CHEER.search(answer), answer


def test_readings_fixed_from_a_check_of_tuning_replies():
    """Clothes that fell down are no fall; another's move is not the speaker's; a test result long known is not waited
    for; a fear once had ("had been scared to") is not ahead; a reason given is not asked; "Hi friend!" names the
    listener; the outcome after "so" is the news; traffic alone kept no one waiting; a parent who beat cancer is a
    relief; a rejection is no funny story; a daunting task is not cheered; a turn the hedge cannot read is not said to
    have stayed with the speaker."""
    for answer in replies_to("I'm so shocked, my pants fell down in public", stance="ease", seeds=10):
        assert not re.search(r"ouch|painful|hurt|help you up", answer, re.I), answer
    for answer in replies_to("i felt heartbroken when my girlfriend moved away without telling me first",
                             stance="comfort", seeds=10):
        assert "moving" not in answer.lower(), answer
    for answer in replies_to("One time I went to the doctor and I was really anticipating my test results!",
                             stance="illness", seeds=10):
        assert not re.search(r"while you wait|find out\?", answer), answer
    assert story_time(["I had been scared to have a short hair cut. Last December, I cut it all off."]) == "past"
    for answer in replies_to("i felt happy this morning because it was sunny and warm", stance="celebrate", seeds=10):
        assert "What made it" not in answer, answer
    assert find_topic("Hi friend! I was so scared of this taxi driver in Mexico.", "reassure") is None
    for answer in replies_to("My brother finally finished his degree.", "That's great, you must be very proud.",
                             "I was. I know how hard it was for him so it was great seeing that hard work pay off.",
                             stance="celebrate", seeds=10):
        assert CHEER.search(answer), answer
    for answer in replies_to("I was stuck in traffic the other day for so long.", stance="validate", seeds=10):
        assert not re.search(r"running late|anyone mind", answer, re.I), answer
    assert situation_stance("I was so relieved when I found out my dad beat cancer.", STANCES["comfort"]) == "relief"
    for answer in replies_to("I called my crush last night.", "What did he do?", "He rejected me and told me never to "
                             "call him again. I'm so embarrassed.", stance="ease", seeds=10):
        assert not re.search(r"funny|good story|happens to|been there|moments like that", answer, re.I), answer
    for answer in replies_to("I gave a long presentation at school. I found the task to be very daunting.",
                             stance="look_forward", seeds=10):
        assert not CHEER.search(answer), answer
    for answer in replies_to("My friend told me about the show. Have you seen it?", "No, what is it called?",
                             "Black Mirror", stance="acknowledge", seeds=20):
        assert "stayed with you" not in answer and "on your mind" not in answer, answer


def test_more_readings_fixed_from_a_second_check_of_tuning_replies():
    """Another's loss is not missed by the speaker; an age is no "old son"; one still scared is not asked how they
    calmed down; death in general is no loss; a plain answer is no surprise; the listener does not say its own words
    again."""
    for answer in replies_to("My classmate is a nurse now. It was cool cause her dad died of cancer, so now she helps "
                             "sick people.", stance="loss", seeds=10):
        assert "miss most" not in answer, answer
    assert find_topic("I got into an argument with my 18 year old son.", "ease_guilt").phrase == "your son"
    for answer in replies_to("I got a threatening phone call... and now I'm scared.", stance="reassure", seeds=10):
        assert "calm down" not in answer, answer
    assert situation_stance("I don't believe that, just like birth death is a process.", STANCES["reassure"]) != "loss"
    for answer in replies_to("We went to a party last weekend and I loved it.", "I'm glad you enjoyed it. Was it a "
                             "wedding?", "it was a wedding shower", stance="surprise", seeds=10):
        assert not re.search(r"oh my|goodness|no way|reaction|really\?|shock", answer, re.I), answer
    for answer in replies_to("I played the old Spyro games again last night.", "Must have really brought back good "
                             "memories. I love nostalgia.", "It's great! I loved them as a kid.", stance="reminisce",
                             seeds=10):
        assert not re.search(r"brings? back", answer), answer


def test_readings_fixed_from_a_third_check_of_tuning_replies():
    """A disaster, a hated thing and a pet run off are bad news, a feeling denied ("you can't be lonely") is none; a
    prize given to another is not cheered; nerves felt now are reassured, readiness after nerves wished well; a joined
    feeling is not ahead; a ride told is past; a teaser is asked for its story; a complaint told to coworkers answers
    whether anything was said to them; a diet broken is guilt, not a fall; the speaker's own illness is not a
    coworker's, and a parent not in great health is an illness; another's dream car is envied, not cheered."""
    assert news("I recently had to babysit my cousins, it was a disaster.") == (True, False)
    assert news("My brother always gets the best dates, i hate it.")[0]
    assert news("you can't be lonely with them, they are just so loving") == (False, False)
    assert news("I couldn't be prouder of my son, who graduated!") == (False, True)
    assert news("I was watching TV and saw a family together. It breaks my heart.")[0]
    for answer in replies_to("I tried for a promotion at work.", "Did you get it?",
                             "No, they ended up giving it to someone with less experience.", stance="acknowledge",
                             seeds=10):
        assert not CHEER.search(answer) and SORROW.search(answer), answer
    for answer in replies_to("I had an online interview and I nailed it!", "Awesome! I am happy for you!",
                             "Thanks! Regardless I am a bit nervous. I don't want to look like a fool on the job.",
                             stance="acknowledge", seeds=10):
        assert not re.search(r"sorry|rough|tough blow", answer, re.I), answer
    assert story_time(["I told my friends.", "I was anxious and scared to share, but I'm glad I did."]) == "past"
    assert story_time(["I rode the largest roller coaster I've ever ridden this summer."]) == "past"
    for answer in replies_to("The other day we were in the front yard, and you won't believe what happened!",
                             stance="acknowledge", seeds=10):
        assert "what happened" in answer.lower() or "tell me" in answer.lower(), answer
    for answer in replies_to("We had an annoying client, and I went to the breakroom to complain about her to my "
                             "coworkers.", stance="validate", seeds=20):
        assert "say anything to" not in answer, answer
    for answer in replies_to("over the weekend i fell off my diet by eating a big bag of M&Ms", "Hang in there!",
                             "the worst part is that i hid it from my partner, i feel bad for it", stance="ease",
                             seeds=10):
        assert not re.search(r"best of us|embarrass|funny", answer, re.I), answer
    for answer in replies_to("Today as soon as I got to work I got sick. A new coworker stepped in and helped me out.",
                             stance="illness", seeds=10):
        assert "coworker" not in answer, answer
    assert news("My neighbor's dog escaped and ran away while I watched him.")[0]
    assert situation_stance("My mother is getting old, and she really isn't in great health.",
                            STANCES["appreciate"]) == "illness"
    for answer in replies_to("im nervous about taking a test soon", "Did you study for it?", "i feel pretty prepared",
                             stance="acknowledge", seeds=10):
        assert not SORROW.search(answer), answer
    for answer in replies_to("My aunt got my cousin an FJ Cruiser! That is my dream car!", stance="envy", seeds=10):
        assert re.search(r"get that|human feeling|natural way to feel|feel the same|(?:tough|hard) feeling",
                         answer), answer


def test_a_first_story_that_tells_no_news_is_heard_with_interest():
    """"Oh, I hear you. What was going through your head?" answered "I was going through some boxes in my attic
    today.": a view's answer and a question about a decision, to a story that told neither. A first story with no
    news is now met with interest and asked how it went; one with news, or with a worry, is not."""
    hedges = re.compile(r"I hear you|I see where you're coming from|going through your|went through your head|"
                        r"\bgotcha\b", re.I)
    for answer in replies_to("I was going through some boxes in my attic today.", stance="acknowledge", seeds=10):
        assert not hedges.search(answer) and re.search(r"interesting|wow", answer, re.I), answer
    for answer in replies_to("I packed a sandwich before I went to work", stance="acknowledge", seeds=10):
        assert "make of it" not in answer, answer      # a sight's question, for what was seen or found
    for turn in ("I ordered a pizza today, but it really wasn't a pleasant experience.",
                 "A friend was supposed to meet me for lunch, but didn't show",
                 "I was in a rush this morning and I dressed my self in stained clothes. I feel so dirty today. :("):
        for answer in replies_to(turn, stance="acknowledge", seeds=10):
            assert SORROW.search(answer) and not re.search(r"interesting|wow", answer, re.I), answer


def test_teasers_fires_plans_and_luck_are_met_as_their_kind():
    """Read off tuning replies: "Ooh, do tell!" to "I found out some bad news the other day."; "How did you calm down
    afterwards?" to a scary experience not yet told; "Oh man, that's rough. What happened?" to a house on fire;
    "What do you have planned?" to a promotion; "Rooting for you!" to a football fan; "That must have been so scary."
    to coffee spilt on a friend's laptop; "How did the show go?" to a friend who didn't show up."""
    for answer in replies_to("I found out some bad news the other day.", stance="acknowledge", seeds=10):
        assert re.match(r"Oh no|Uh oh", answer) and re.search(r"what happened|talk about it", answer, re.I), answer
    for answer in replies_to("I had a really scary experience the other day.", stance="reassure", seeds=10):
        assert re.search(r"what happened|talk about it", answer, re.I) and "calm down" not in answer, answer
    fire = replies_to("I am in shock ever since my house caught on fire while I was at work.", stance="acknowledge",
                      seeds=10)
    assert all(not CHEER.search(answer) for answer in fire), fire
    assert sum(bool(re.search(r"Is everyone okay|much damage", answer)) for answer in fire) >= 5, fire
    plans = re.compile(r"your plans|you have planned")
    for answer in replies_to("i am up for a promotion at my job. I positive I will get it.", stance="look_forward",
                             seeds=20):
        assert not plans.search(answer), answer
    assert any(plans.search(answer) for answer in replies_to(
        "I've got a fun weekend coming up, and I'm really looking forward to it!", stance="look_forward", seeds=20))
    for answer in replies_to("I'm so ready for football season", stance="look_forward", seeds=20):
        assert not re.search(r"fingers crossed|rooting", answer, re.I) and not plans.search(answer), answer
    for answer in replies_to("i was with my friend yesterday and by accident i spilled coffee on her laptop",
                             "Oh no. Did it get ruined?", "i got so embarrassed but thankfully it didn't get ruined",
                             stance="relief", seeds=10):
        assert "scary" not in answer, answer
    for answer in replies_to("But we waited and waited, she didn't still show up", stance="acknowledge", seeds=10):
        assert "show" not in answer, answer
    for answer in replies_to("I finished college this summer and now I'm on to a new job in nursing I am nervous.",
                             stance="reassure", seeds=10):
        assert "calm down" not in answer, answer


def test_news_read_right_from_a_fifth_check_of_tuning_replies():
    for bad in ("I looked at a house I really liked last week, but just found out it was taken off the market.",
                "Last month my car threw a rod and needed to have the engine overhauled.",
                "We went on vacation. And we all ended up with the stomach virus.",
                "Someone put in a bid before I got a chance and it has already sold.",
                "I really felt like a fool last night.", "My math teacher told the class I needed to do better.",
                "His boss felt he was under-performing. It's a shame because he was fun to work with",
                "I waited the longest three weeks of my life to get something I ordered online.",
                "The other weekend I really wanted to go out, but I realized I don't have any good friends left."):
        assert news(bad)[0], bad
    for not_bad in ("he didn't show me the car", "I don't want to look like a fool on the job.",
                    "My son starts kindergarten next month."):
        assert not news(not_bad)[0], not_bad


def test_an_outcome_told_is_not_asked_and_envy_is_not_cheered():
    for answer in replies_to("I baked a cake for my boyfriend's birthday and it turned out to be so delicious!",
                             stance="celebrate", seeds=10):
        assert "turn out" not in answer and "How did it go" not in answer, answer
    for answer in replies_to("i envy everyone outside right now enjoying the weather", stance="celebrate", seeds=10):
        assert not CHEER.search(answer), answer


def test_wishes_and_weights_are_said_only_where_the_story_gives_them():
    """Read off tuning replies (seed 224): "I hope it goes great!" to a remembered job hunt and to buying more
    milk; "How are you holding up?" to a bad pizza; "Oof, that sounds painful." to a stage four cancer; "Ooh, how
    exciting!" to sadness at the state of the world; "How are you preparing for it?" to an interview already held."""
    goes = re.compile(r"it goes (?:well|great)|it will go")
    assert story_time(["I remember when I submitted my CV to a company, I couldn't wait to get a response, hoping "
                       "that it was positive!"]) == "past"
    for answer in replies_to("My favorite mug broke.", "Sorry to hear that. It would really upset me!",
                             "Thanks, I will buy another one!", stance="look_forward", seeds=10):
        assert not goes.search(answer) and "planned" not in answer and "plans" not in answer, answer
    assert any(goes.search(answer) for answer in replies_to(
        "We are moving into our new house next week!", stance="look_forward", seeds=20))
    for answer in replies_to("I hope I get the job I interviewed for yesterday.", stance="look_forward", seeds=10):
        assert not re.search(r"prepar|getting ready", answer), answer
    for answer in replies_to("I'm praying my old car will last a bit longer now", stance="look_forward", seeds=10):
        assert not re.search(r"exciting|fun", answer) and re.search(r"hop(?:e|ing)|[Ff]ingers crossed", answer), answer
    for answer in replies_to("I feel so sad to see the world in the state that it is in but I am confident that times "
                             "are changing.", stance="look_forward", seeds=10):
        assert not CHEER.search(answer), answer
    for answer in replies_to("I ordered a pizza today, but it really wasn't a pleasant experience.",
                             stance="acknowledge", seeds=20):
        assert "holding up" not in answer, answer
    assert any("holding up" in answer for answer in replies_to(
        "My mother has been in the hospital all week and the doctors still don't know what's wrong.",
        stance="illness", seeds=20))
    for answer in replies_to("I was diagnosed with stage four cancer yesterday. The doctor told me I have less than a "
                             "month to live.", stance="comfort", seeds=20):
        assert not re.match(r"Oof|Ouch", answer) and "painful" not in answer, answer
    for answer in replies_to("My brother is going into surgery tomorrow.", stance="acknowledge", seeds=10):
        assert "painful" not in answer, answer


def test_every_way_of_saying_a_line_meets_the_same_checks():
    """A check keyed on a line's words must see all its ways, else a way added later slips past it: "What was your
    first reaction?" was asked after "that was my first thought too", which stopped its other six ways. Two checks
    are meant for some ways: an opening word ("Oof" at a death), and time to soak in, which "Enjoy every bit of it!"
    does not presume (gating all its ways left the stance without a comment, and the fallback parroted)."""
    from e3rg_core.understanding import topic_writer
    lines = [line for frames in FRAMES.values() for part in (frames.reactions, frames.questions, frames.comments)
             for line in part]
    lines += [line for reactions, questions in topic_writer._EVENT_LINES.values() for line in reactions + questions]
    ways: dict[str, set[str]] = {}
    for line in lines:
        ways.setdefault(line.spec, set()).add(line.text)
    tables = (topic_writer._ANSWERED, topic_writer._ASKED_ONLY_AFTER, topic_writer._SAID_ONLY_OF,
              topic_writer._NEVER_SAID_OF)
    checks = [says for pairs in tables for says, _ in pairs if not says.pattern.startswith(("^(?:Oof", "Soak"))]
    split = [(check.pattern, sorted(texts)) for check in checks for texts in ways.values()
             if 0 < sum(bool(check.search(text)) for text in texts) < len(texts)]
    assert not split, split


def test_a_brightened_day_and_a_best_part_are_asked_only_where_they_fit():
    """Read off tuning replies (seed 240), which question-fit readers found off: "Did it brighten your day?" to a
    speaker who lent their brother a car (the kindness was theirs); "What was the best part?" to a bedtime routine."""
    for answer in replies_to("I lent my brother my car this weekend while I was out of town.", stance="appreciate",
                             seeds=20):
        assert "your day" not in answer, answer
    assert any("your day" in answer for answer in replies_to(
        "My neighbor brought me soup when I was sick.", stance="appreciate", seeds=40))
    for answer in replies_to("Every night before bed we read to our son.", "That is really awesome!",
                             "It is. And it shows that he is listening.", stance="acknowledge_good", seeds=20):
        assert "best part" not in answer, answer


def test_mixed_news_fears_ahead_and_told_deeds_are_read_from_the_turn():
    """Read off tuning replies (seed 224): "I see where you're coming from." to a job offer that paid less, to a
    fear of losing a job and to a missed promotion; "What did you do?" to "i fired her right then and there";
    "What a lovely feeling." to "My daughter is very smart."; "What happened?" to a first turn that told it all."""
    assert news("I can't believe I didn't get that promotion at work :(") == (True, False)
    assert situation_stance("No, unfortunately he didn't make it.", STANCES["acknowledge"]) == "loss"
    assert situation_stance("I found some pictures of my dog I had to put down. I miss her",
                            STANCES["acknowledge"]) == "loss"
    assert not news("I had to put down a deposit on the apartment.")[0]
    for answer in replies_to("I think I got my coworker in trouble.", stance="acknowledge", seeds=10):
        assert not re.search(r"interesting|wow", answer, re.I), answer
    for turn in ("went for a job interview. I got the job offer but they offered me less money then I all ready make "
                 "for more work.", "I can't believe I didn't get that promotion at work :("):
        for answer in replies_to(turn, stance="acknowledge", seeds=10):
            assert SORROW.search(answer) and not CHEER.search(answer) and "coming from" not in answer, answer
    for answer in replies_to("I am frightened that i will lose my job.", stance="acknowledge", seeds=10):
        assert re.search(r"scary|stressful|nervous|nerve|pressure|unsettling|worr", answer), answer
    for answer in replies_to("My employee stole from me.", "Oh wow! I am so sorry that happened to you.",
                             "Thanks.. i fired her right then and there", stance="validate", seeds=10):
        assert not re.search(r"What did you (?:do|end up doing)", answer), answer
    for answer in replies_to("My daughter is very smart. She learns things really quickly.", stance="celebrate",
                             seeds=10):
        assert "feeling" not in answer, answer
    for answer in replies_to("I prequalified for a mortgage last week online. The bank I applied with has called me 3 "
                             "times a day ever since. I'm getting pretty frustrated.", stance="acknowledge", seeds=10):
        assert "what happened" not in answer.lower(), answer


def test_outcomes_habits_and_small_wins_are_read_from_the_turn():
    """Read off tuning replies (seed 224): "Ugh, that's rough." to a long lost friend found and to "Is anyone
    here?"; "Oh, interesting. How did it go?" to a restaurant that was all the speaker hoped for and to a mistake;
    "Has it happened before?" to what happens "sometimes"; "Savor every minute!" to a dog's name."""
    assert GREETING.fullmatch("Is anyone here?")
    assert not news("I recently found out that my old long lost friend works at my new firm")[0]
    assert news("I fixed my computer all by myself today!") == (False, True)
    assert news("This weekend was kind of a drag.") == (True, False)
    for answer in replies_to("Sometime ago I was really hungry and decided to treat myself to some well reviewed "
                             "restaurant, well it was all I hoped for.", stance="acknowledge", seeds=10):
        assert not re.search(r"How did (?:it|that) go|interesting|what happened", answer, re.I), answer
    for answer in replies_to("Oh man. I can't believe I made that mistake at work today.", stance="acknowledge",
                             seeds=10):
        assert not re.search(r"interesting|wow", answer, re.I), answer
    for answer in replies_to("Sometimes when I am out in public, my son throws a tantrum.", stance="validate",
                             seeds=10):
        assert "happened before" not in answer, answer
    for answer in replies_to("I get so mad when workers don't wash their hands in restaurants I had this happen to me "
                             "recent I left the place immediately.", stance="validate", seeds=10):
        assert not re.search(r"happened before|sorted out|What did you do", answer), answer
    for answer in replies_to("We adopted a puppy!", "Nice. What is his name?", "Churro. He's a boxer mix.",
                             stance="celebrate", seeds=10):
        assert not re.search(r"Soak it all in|Savor every minute", answer), answer


def test_hopes_memories_and_promised_stories_fit_the_turn():
    """Read off tuning replies rated blind against ED's listeners (seed 225): "I hope it gets better from here." to a
    creepy offer turned down; "Memories like that stay with you." to a game played now; "Ah, gotcha. That's
    understandable." to the story a teaser promised; "I hope your family is okay." to a speaker whose family drove
    them to hospital, who ended up fine; condolences to "i always read hard"."""
    assert news("yes, i always read hard") == (False, False)
    assert situation_stance("It was a wild tarantula. I had my family rush me to the hospital, but I ended up being "
                            "just fine.", STANCES["reassure"]) == "relief"
    for answer in replies_to("A tarantula bit me and I thought I was going to die.", "Oh my gosh! Was it wild?",
                             "It was wild. I had my family rush me to the hospital.", stance="illness", seeds=10):
        assert "family" not in answer, answer
    for answer in replies_to("One time a person offered to drive me home when it was raining outside",
                             "He must be a good person, but is it safe?",
                             "It was super creepy, I did not take the offer !", stance="acknowledge", seeds=16):
        assert not re.search(r"I hope (?:it|things)", answer), answer
    for answer in replies_to("I love mystery boxes in games!", "That sounds fun! What are they exactly?",
                             "Almost any online game! Right now I play The Secret World and it has mystery boxes.",
                             stance="reminisce", seeds=12):
        assert not re.search(r"memor|go back|remember|think back|special time", answer, re.I), answer
    for answer in replies_to("The other day we were in the front yard, and you won't believe what happened!",
                             "What happened?", "My 4 year-old just dropped his pants and started peeing in the grass!",
                             stance="acknowledge", seeds=12):
        assert not re.search(r"gotcha|understand|I hear you|makes (?:a lot of )?sense|I see", answer), answer


def test_a_later_turn_told_lightly_or_pleased_is_not_condoled_again():
    """Read off tuning replies (seed 224): "Oh, that's hard. I'm so sorry you're dealing with that." to "Yes totally
    agree! ... Haha"; "Gosh, that's a lot." to "5k. But i am satisfied with my current firm"; "Can you laugh about it
    now?" to "It is pretty funny now"."""
    for answer in replies_to("I fell on stage at work.", "I bet you were so embarrassed.",
                             "It is pretty funny now but at the time I was red in the face lol.", stance="ease",
                             seeds=12):
        assert "laugh" not in answer, answer
    for turns in (("I feel anxious when I have to wait for people that are late.",
                   "People should be more considerate.",
                   "Yes totally agree! Maybe I should just leave and make them wait. Haha"),
                  ("A competing firm offered me a job for higher salary, if i cheated my firm. But i respectfully "
                   "declined", "How much better did it pay?", "5k. But i am satisfied with my current firm")):
        for answer in replies_to(*turns, stance="acknowledge", seeds=12):
            assert not SORROW.search(answer), answer


def test_a_later_turn_that_tells_no_news_is_not_met_with_the_storys_news():
    """Read off tuning replies (seed 224): "Gosh, that's a lot. I hope things get better from here." to "Yes, he will
    be starting Kindergarten this year." after nerves told first; "Oof, that's rough." to a friend's backflip that
    went fine. The listener's own sympathy ("That's too bad.") still says which way a story goes."""
    for answer in replies_to("I am nervous about my son starting school this year.",
                             "Oh. Will he be starting elementary school?",
                             "Yes, he will be starting Kindergarten this year.", stance="acknowledge", seeds=12):
        assert not SORROW.search(answer), answer
    for answer in replies_to("I failed my driving test again.", "That's too bad. Was it the parking?", "Yeah.",
                             stance="acknowledge", seeds=6):
        assert SORROW.search(answer) and not CHEER.search(answer), answer


def test_a_scare_is_not_named_twice():
    """"Oh no, that sounds frightening! That must have been so scary." says one thing twice (a blind rater's note on
    a wording since taken back)."""
    for answer in replies_to("My daughter missed her curfew by three hours on Saturday.", "Did you wait up for her?",
                             "I sat by the window the whole time, I have never been so scared.", stance="reassure",
                             seeds=60):
        assert len(re.findall(r"\b(?:scar|frighten)\w*", answer, re.I)) <= 1, answer


def test_reactions_keep_to_what_the_story_grounds():
    """Read off tuning replies (seed 243) that reaction-fit readers found off: "Huge congrats on the job!" to an
    interview not yet answered; "how scary" after "it wasnt that bad"; "Seriously? That's not okay." and "I'd be livid
    too." to a phone that fell off the car's roof and to traffic; "What a kind thing to do." to "I have such a big
    heart"."""
    for turn in ("I interviewed for a job. I know I gave great answers and walked away feeling like the job was mine.",
                 "Man I felt good when I applied for my job!"):
        for stance in ("celebrate", "look_forward"):
            for answer in replies_to(turn, stance=stance, seeds=10):
                assert not re.search(r"congrat|proud|earned|celebrate", answer, re.I), answer
    assert any(re.search(r"congrat", answer, re.I) for answer in replies_to(
        "I interviewed for a job last week and they offered it to me!", stance="celebrate", seeds=20))
    for answer in replies_to("Last night my GPS sent me down a dark and scary road.", "Please tell me you didn't.",
                             "I was very nervous. I actually did and it wasnt that bad", stance="reassure", seeds=10):
        assert not re.search(r"how scary|that's scary|sorry", answer), answer
    for turn in ("I am so upset! My phone was on top of my car and it fell off and shattered",
                 "i was upset sitting in traffic yesterday"):
        for answer in replies_to(turn, stance="validate", seeds=20):
            assert not re.search(r"not okay|not fair|not cool|out of line|deserved? better|livid|furious|so angry|"
                                 r"so mad|maddening|infuriating", answer), answer
    assert any(re.search(r"not okay|not fair|not cool|out of line|deserved? better", answer) for answer in replies_to(
        "My landlord kept my whole deposit for a scratch that was there when I moved in.", stance="validate", seeds=20))
    for answer in replies_to("I have such a big heart, i love my people.", stance="appreciate", seeds=20):
        assert not re.search(r"thing to do|kind(?:ness)?\b|long way|means a lot", answer), answer
    assert any("thing to do" in answer for answer in replies_to(
        "My neighbor brought me soup when I was sick.", stance="appreciate", seeds=40))


def test_a_feat_is_admired_and_another_s_luck_is_met_as_envy():
    """An impressed vote with no glad news of the speaker's own was met with "Aw, that's lovely." ("i once saw a man
    lift a car all by himself!"), and a jealous vote that glad votes made a hedge with "Aw, that's nice." ("My friend
    got accepted into Harvard")."""
    writer = TopicReplyWriter()
    impressed = voted_only("impressed")
    for seed in range(10):
        request = said("i once saw a man lift a car all by himself!" + " " * seed)
        answer, written = writer.reply(request, impressed)
        assert written and re.search(r"impressive|amazing|incredible", answer, re.I), answer
        assert not re.search(r"lovely|nice", answer), answer
        # the speaker's own good news is no feat seen: not "That's seriously impressive!" to a job they got
        answer, _ = writer.reply(said("I was very pleased to get this job" + " " * seed), impressed)
        assert not re.search(r"impressive|talented|incredible", answer), answer
    torn = EmotionResult("jealous", coarse_of("jealous"), (Vote("text", "text", "jealous", 0.9),
                                                           Vote("face", "face", "joyful", 0.9)), "test")
    for seed in range(10):
        request = said("My friend got accepted into Harvard University. That's my dream school, and I'm stuck at "
                       "community college." + " " * seed)
        answer, written = writer.reply(request, torn)
        assert written and not CHEER.search(answer), answer
    # not every torn vote for jealousy is envy: a gift to the speaker is no one else's luck
    for seed in range(10):
        answer, _ = writer.reply(said("my parents want to get me a brand new camaro !" + " " * seed), torn)
        assert not re.search(r"hard feeling|human feeling|natural|compare|your turn", answer), answer


def test_guilt_is_eased_only_where_the_speaker_did_wrong():
    """Read off tuning replies (seed 252): a guilty vote gave "It's clear you feel really bad about it." to a friend's
    forgotten phone, to sour milk and to pity for a stray animal, "Everybody slips up now and then." to a friend who
    missed the speaker's party, and "Have you talked to your sister about it?" to guilt long since forgiven."""
    writer = TopicReplyWriter()
    blaming = re.compile(r"feel (?:really )?bad about it|slips? up|beat yourself|hard on yourself|easy on yourself|"
                         r"only human|make it right")
    for fine in ("guilty", "ashamed"):
        for turns in (("A friend forgot his phone at the library",),
                      ("The milk I drank this morning went bad!", "That's no good, did you throw it out?",
                       "Yes, but not before I drank some. :/"),
                      ("I saw a stray dog covered in ticks yesterday.", "Oh no, what did you do?",
                       "I took her home with me, I felt so bad for her."),
                      ("My best friend had arranged my birthday party, but she did not attend, i feel so bad",)):
            for seed in range(6):
                answer, _ = writer.reply(said(*turns[:-1], turns[-1] + " " * seed), voted_only(fine))
                assert not blaming.search(answer), (turns, answer)
        # what the speaker did is still eased, told as guilt or not
        for turn in ("I forgot my friend's birthday.", "I lied to my mother and i feel very uneasy",
                     "I was hungry and took my co-workers food"):
            answers = [writer.reply(said(turn + " " * seed), voted_only(fine))[0] for seed in range(6)]
            assert all(blaming.search(answer) for answer in answers), answers
    for answer in replies_to("When I was a teenager I ripped my sister's new dress and I felt terrible.",
                             "Oh no! I hope she's forgiven you since then.",
                             "oh yes she has, it was a while ago. Needless to say I learnt my lesson!",
                             stance="ease_guilt", seeds=20):
        assert not re.search(r"feel (?:really )?bad about it|still on your mind|talk(?:ed)? to|make it right",
                             answer), answer
        # one word of self-kindness, not two: "Go easy on yourself. Be gentle with yourself."
        assert answer.count("yourself") < 2, answer


def test_care_through_an_illness_is_thanked_for():
    """"My mother was always there for me when I was sick" got "I'm so sorry, that sounds really hard." (tuning
    seed 252)."""
    writer = TopicReplyWriter()
    for turn in ("My mother was always there for me when I was sick, annoyed and sad",
                 "My mother has been a caring mom since i got ill a week ago"):
        for seed in range(6):
            answer, _ = writer.reply(said(turn + " " * seed), voted_only("caring"))
            assert not SORROW.search(answer) and re.search(r"sweet|lovely|kind", answer), answer
            assert not re.search(r"say\?|your day\?", answer), answer


def test_i_hear_you_answers_a_view_or_a_complaint():
    """"Mm, I hear you." was said to "Black Mirror" and "It is amethyst." (tuning seed 252)."""
    for turns in (("When I came home, a TV show I had set to record was all ready to go", "What show was it?",
                   "Black Mirror"),
                  ("My grandma gave me a stone and said it was my birthstone.", "What birthstone is it.",
                   "It is amethyst.")):
        for answer in replies_to(*turns, stance="acknowledge", seeds=20):
            assert not re.search(r"hear you|I understand\.|I get it\.", answer), answer
    assert any("hear you" in answer for answer in replies_to("August is way too hot.", stance="acknowledge",
                                                             seeds=30))
    # "Has that happened before?" is not asked of what happens lately
    for answer in replies_to("im frustrated by all the other drivers on the road lately", stance="validate", seeds=20):
        assert "happened before" not in answer, answer


def test_praise_and_a_feeling_said_back_keep_to_what_was_told():
    """Read off the blind rating of tuning replies (seed 252): "That's amazing, well done! You must be so proud. How
    did you celebrate?" to a weekend at Disney World; "No wonder you felt confident!" to "i feel so confident"; "What's
    the gift for?" to a gift card whose purpose was just told."""
    disney = ("School starts back next week so last weekend I took my girls to Disney World.",
              "OH wow! I bet you all had a blast!!", "Yes we did they loved it, the shows and rides were so fun.")
    for answer in replies_to(*disney, stance="celebrate", seeds=20):
        assert not re.search(r"well done|proud|celebrat|congrat", answer, re.I), answer
    assert any(re.search(r"congrat", answer, re.I) for answer in replies_to(
        "When i proposed to my girlfriend, she said yes! I was so happy", stance="celebrate", seeds=20))
    for answer in replies_to("i am beginning to realise in my abilities and i feel so confident in them",
                             stance="interest", seeds=20):
        assert "felt confident" not in answer, answer
    assert any("feel stressed" in answer for answer in replies_to(
        "I've been very stressed out at work. I hired a new office manager and I'm having issues trusting her.",
        stance="acknowledge", seeds=30))
    for answer in replies_to("Going to the doctor tomorrow for the first time since 2001.", "It will be okay.",
                             "I'm only going because my insurance gives me a gift card for going.",
                             stance="acknowledge_bad", seeds=30):
        assert "gift for" not in answer, answer


def test_what_a_later_turn_tells_is_taken_up():
    """Read off a second blind rating of tuning replies (seed 252): "I hope things turn around soon." to a speaker
    with less than a month to live; "Oh no, that's a rough one." after "It was okay, though."; "Is it still on your
    mind?" to smack talk told with "lol"; "What did you do about it?" after "i kept practicing"; "How do you think
    it'll go?" after "I think she is going to do great"."""
    for turns in (("I was diagnosed with stage four cancer yesterday. I have less than a month to live.",
                   "Are you serious? That is terrible news.", "Yes, I haven't stopped crying since."),
                  ("My dad has terminal cancer.",)):
        for answer in replies_to(*turns, stance="illness", seeds=20):
            assert not re.search(r"turn around|look up|get better|any better|worrying|hope your dad is okay",
                                 answer), answer
    assert any("can't imagine" in answer for answer in replies_to(
        "I have less than a month to live.", "Oh no.", "The doctor told me yesterday.", stance="illness", seeds=20))
    for answer in replies_to("Well, plans got changed. It rained like crazy, so we couldn't work outside.",
                             "Rain definitely ruins a weekend.",
                             "It was okay, though. We got to spend some time hanging out.",
                             stance="acknowledge_bad", seeds=20):
        assert not re.search(r"rough|tough|sorry|hard|not easy|not what you needed", answer), answer
    for answer in replies_to("My team lost and I talked so much smack to everyone saying they would win.",
                             "that's why i don't watch sports lol",
                             "I was ashamed I talk a lot of smack to everyone lol", stance="ease_guilt", seeds=20):
        assert not re.search(r"feel (?:really )?bad|still on your mind|make it right", answer), answer
    for answer in replies_to("I fell to the ground skateboarding and lots of people saw it happen", "Oh no!",
                             "Yeah it was bad but i kept practicing and eventually learned pretty quick",
                             stance="ease", seeds=20):
        assert "What did you" not in answer, answer
    for answer in replies_to("My daughter starts public school for the first time in 3 years! I think she is going to "
                             "do great but she's a little bit nervous.", stance="acknowledge", seeds=20):
        assert "think it'll" not in answer, answer


def test_another_s_success_and_a_taste_for_scary_films_are_not_the_speaker_s_news():
    """Read off the second blind rating of tuning replies (seed 252): "Oh, that's nice! What was it like for you?" to
    "My daughter killed the GRE!"; "Oh gosh, how scary! What's the biggest worry?" to "I'm not one to like scary
    movies that much"."""
    for stance in ("celebrate", "acknowledge_good"):
        for answer in replies_to("My daughter killed the GRE!", stance=stance, seeds=20):
            assert not re.search(r"like for you|Good for you|Way to go|sorry|loss", answer, re.I), answer
    writer = TopicReplyWriter()
    for seed in range(10):
        answer, _ = writer.reply(said("I'm not one to like scary movies that much, only with my husband since he loves "
                                      "them so much." + " " * seed), voted_only("afraid"))
        assert not re.search(r"scary|worr|nerv|frighten", answer, re.I), answer
    # a fright told beside the film is still met as one
    frightened = [writer.reply(said("I watched a scary movie last night and now I'm scared to sleep." + " " * seed),
                               voted_only("afraid"))[0] for seed in range(10)]
    assert sum(bool(re.search(r"scary|worr|unsettling|nerv", answer, re.I)) for answer in frightened) >= 5, frightened


def test_a_hardship_the_speaker_is_through_is_not_asked_after_as_if_still_on():
    """Read off the second blind rating of tuning replies (seed 252): "How are you managing right now?" to "Man I am
    so glad I was able to climb out of poverty"; "What did you do about it?" after "I called and put down a
    deposit"."""
    for stance in ("acknowledge", "acknowledge_bad", "comfort"):
        for answer in replies_to("Man I am so glad I was able to climb out of poverty.",
                                 "That's quite an accomplishment.",
                                 "I was homeless for about a year. Every day I would just descend even further.",
                                 stance=stance, seeds=20):
            assert not re.search(r"right now|help you out|holding up|doing with it|stressful", answer), answer
    for answer in replies_to("I'm going skydiving this weekend. I'm afraid of heights and freaking out a little.",
                             "Oh my! That sounds exciting!",
                             "Yea, until this morning when I called and put down a deposit I did not think I could.",
                             stance="reassure", seeds=20):
        assert "What did you" not in answer, answer


def test_the_hedge_takes_the_side_the_speaker_says_it_felt():
    """Read off the plain hedges of tuning replies (seed 252): "Mm, I hear you. How does that sit with you?" to a wife
    grieving that they can have no children, "I hear you. What was going through your mind?" to a chat that felt
    satisfying. Feelings that may be, or are another's, do not count."""
    for turn in ("My wife is having a hard time after finding out we can no longer have children. I am doing my best "
                 "to support her but it is very hard when nothing seems to work.",
                 "im feeling blue because my days and nights are mixed up"):
        for answer in replies_to(turn, stance="acknowledge", seeds=10):
            assert SORROW.search(answer) and not CHEER.search(answer), answer
    for answer in replies_to("About the same time last year, I went out with a friend for sushi.",
                             "oh yea.. whats happened since then",
                             "Not much really, we just had a small chat, but it just felt really satisfying.",
                             stance="acknowledge", seeds=10):
        assert re.search(r"good|nice|great|glad|lovely", answer) and not SORROW.search(answer), answer
    for answer in replies_to("When I was in high school there was a senior I had a crush on and I was a sophomore.  I "
                             "ended up asking her out but got rejected. Later on in college we actually became pretty "
                             "good friends.",
                             "Oh man heart breaker. Thats good yall are friends though. You never know maybe one day "
                             "yall will be married",
                             "Haha, I hope not...my current girlfriend would probably be a little upset! She's a nice "
                             "person (the one from high school) but I dont think I could ever marry her",
                             stance="acknowledge", seeds=10):
        assert not re.search(r"\b(?:sorry|tough|rough|hard)\b", answer), answer


def test_news_missed_supposed_or_proved_wrong_is_read_as_it_ended():
    """Read off tuning replies (seed 252): a favourite band missed read as glad and bad at once, "That would be a
    nightmare! All I had to do was replace the fan." as bad news, a feared scam that "turned out it was a prize" as
    one, tears at a child's graduation as grief, and a friend's manners the speaker called inconsiderate as the
    speaker's own embarrassment."""
    assert news("i am not going to be able to see my favorite band when they come to town") == (True, False)
    assert news("I wish i could see my father one more time") == (True, False)
    assert news("That would be a nightmare! All I had to do was replace the fan.") == (False, False)
    assert news("I cried so hard seeing my baby girl walk across the stage at her VPK graduation.") == (False, True)
    for answer in replies_to("I got a random email this morning with a $120 gift voucher",
                             "Wow was it a scam or was it legit?",
                             "I was really sure it was a scam but it turned out it was a prize for a survey I did!",
                             stance="acknowledge", seeds=10):
        assert not re.search(r"scam|\b(?:sorry|tough|rough)\b", answer, re.I), answer
    writer = TopicReplyWriter()
    for seed in range(6):
        answer, _ = writer.reply(said("The lady ahead of me had no idea how to use self checkout.",
                                      "Oh I hate when that happens.",
                                      "Exactly! I wasn't in a hurry but it felt so inconsiderate." + " " * seed),
                                 voted_only("embarrassed"))
        assert not re.search(r"best of us|happens to everyone|embarrass", answer), answer


def test_a_wrong_done_to_another_is_not_said_to_be_done_to_the_speaker():
    """"What a rotten thing to do to you." to "my older sister stole my younger brother's iPod touch" (tuning seed
    252)."""
    for turn in ("A while back, my older sister stole my younger brother's iPod touch to sell.",
                 "I saw a colleague stealing money at work. I wonder if I should tell my boss."):
        for stance in ("validate", "acknowledge"):
            for answer in replies_to(turn, stance=stance, seeds=20):
                assert "to do to you" not in answer, answer
    assert any("to do to you" in answer for answer in replies_to("My older sister stole money from me.",
                                                                 stance="validate", seeds=30))


def test_a_shrug_is_a_bright_side_and_a_dated_plan_is_looked_forward_to():
    """Read off tuning replies (seed 252): "Argh, that's really frustrating!" to "not the end of the world", and
    "That sounds nice. How are you feeling about it?" to "I'm leaving for vacation on Wednesday!"."""
    for answer in replies_to("I dropped my phone and cracked the screen.", "It happens, everyone does it",
                             "yeah thats true, not the end of the world;", stance="validate", seeds=20):
        assert not re.search(r"frustrat|maddening|angry|annoying|at least", answer), answer
    for turn in ("I'm leaving for vacation on Wednesday!",
                 "Next month my wife and I are going on our first vacation, I can hardly wait."):
        for answer in replies_to(turn, stance="interest", seeds=20):
            assert not re.search(r"sounds (?:\w+ )?nice\.|lovely|like that|like hearing", answer), answer


def test_a_glad_vote_is_not_glad_beside_a_bad_happening():
    """"Well, that's good. What was that like for you?" to "HOwever he ended up cheating on me" under a glad vote
    (tuning seed 252); a bad happening told as averted keeps the glad reply."""
    for answer in replies_to("I was totally committed to him in every way I could be.   HOwever he ended up cheating "
                             "on me", stance="interest", seeds=20):
        assert not re.search(r"good|lovely|nice|like for you", answer), answer
    assert any(re.search(r"lovely|nice|good", answer) for answer in replies_to(
        "My aunt helped us out.", "Why? What did she do?",
        "She helped us pay off our house so it didn't go into foreclosure.", stance="interest", seeds=20))


def test_a_glad_surprise_a_gift_and_another_s_feat_are_cheered_for_what_they_are():
    """Read off tuning replies (seed 252) and a blind audit of them: "My goodness! What did your husband say?" to
    flowers out of the blue, "Oh, that's nice! I'm really glad to hear it." to "My daughter killed the GRE!", "How
    are you celebrating?" to a sister's exam, and "Aw, that's tough." to a broke fiance's bouquet."""
    writer = TopicReplyWriter()
    for variant in range(6):
        answer, written = writer.reply(said("I was shocked my husband bought me flowers today out of the blue." +
                                            " " * variant), voted_only("surprised"))
        assert written and re.search(r"gift|thoughtful|sweet|lovely|love that|awesome|great", answer), answer
        assert not re.search(r"surprise\?|see it coming|say\?|react", answer), answer
    for answer in replies_to("A you tuber bought me a car, it totally caught me off guard.", stance="celebrate",
                             seeds=20):
        assert "What kind did you get" not in answer, answer
    for turn in ("My daughter killed the GRE!", "My sister aced her exam!"):
        for answer in replies_to(turn, stance="acknowledge", seeds=20):
            assert not re.search(r"glad to hear|celebrat", answer), answer
            assert re.search(r"daughter|sister|[Cc]ongrat|[Ww]ell done|achievement|love that|awesome|amazing|great|"
                             r"exciting|fantastic|wonderful|nice", answer), answer
    assert all(not re.search(r"must be so|[Gg]ood for your friend", answer) for answer in replies_to(
        "A friend was able to fix a problem I was having", stance="acknowledge", seeds=20))
    for answer in replies_to("I didn't expect to get anything for my birthday from my fiance since he's been broke, "
                             "but he gave me a bouquet of flowers and took me out to eat still!",
                             stance="acknowledge", seeds=20):
        assert not re.search(r"tough|rough|sorry|hard|sit with you", answer), answer


def test_a_wrong_owned_up_to_is_met_as_owned_and_a_named_feeling_is_not_asked_for():
    """"I can tell you feel bad about it." to "I actually told him when the guilt got too much for me", and "Oh no,
    how embarrassing! How are you feeling about it all now?" (tuning seed 252)."""
    for answer in replies_to("I cheated on a test and felt awful.", "Did your teacher find out?",
                             "He did eventually, I actually told him when the guilt got too much for me",
                             stance="ease_guilt", seeds=20):
        assert not re.search(r"feel (?:really )?bad about it\.|talk(?:ed)? to|on your mind", answer), answer
    assert any(re.search(r"own up|coming clean|took it|take it", answer) for answer in replies_to(
        "I broke my sister's vase and felt terrible. I apologized to her right away.", stance="ease_guilt", seeds=20))
    for turns in (("I feel bad because I told her I would take her but got so busy.",),
                  ("I admitted to my mom that I had been self harming.", "How did she react?",
                   "She was really sad, but she appreciated the fact that I told her.")):
        assert all("own up" not in answer and "clean" not in answer for answer in replies_to(
            *turns, stance="ease_guilt", seeds=20)), turns
    for turn in ("I accidentally dropped my phone in the toilet.", "I am so excited for my trip to Spain next week!"):
        for stance in ("ease", "look_forward"):
            for answer in replies_to(turn, stance=stance, seeds=20):
                if re.search(r"embarrassing|exciting", answer):
                    assert not re.search(r"How (?:are you feeling|do you feel)", answer), answer
    for answer in replies_to("I can be so forgetful I left my windows down in my car and my seats was full of water.",
                             stance="ease", seeds=20):
        assert not re.search(r"play it off|laugh it off|anyone notice", answer), answer


def test_news_told_in_other_words_is_read_as_told():
    """Read off tuning replies (seed 252) and a blind audit: "Ew, that's gross!" to "Today, was the worst day
    ever!", "Oh, that's nice! How do you feel about it now?" to "The best thing happened at work today!", "Oh
    wow. What kind of phone was it?" to an empty box, "How do you think it'll go?" to a move a couple of weekends
    ago, "Enjoy every minute of it!" to weddings being expensive, and "I hope your sister is okay." to a broken
    vase."""
    for turn, stance, wanted in (("Today, was the worst day ever!", "disgust", r"[Ww]hat happened\?|talk about it"),
                                 ("The best thing happened at work today!", "acknowledge", r"[Ww]hat happened\?"),
                                 ("I ordered a new phone last week, and when the box got here it was empty.",
                                  "acknowledge", r"frustrat|letdown|seller|refund")):
        assert all(re.search(wanted, answer) for answer in replies_to(turn, stance=stance, seeds=10)), turn
    for answer in replies_to("I had a move a couple weekends ago.  I was really planning on getting everything done, "
                             "or at least moved over, in one weekend.", stance="acknowledge", seeds=20):
        assert not re.search(r"will|it'll|going to", answer), answer
    for answer in replies_to("We just got engaged!", "Congratulations! Have you set a date yet?",
                             "Thank you! We're hoping to get married sometime next year, but man weddings are "
                             "expensive. It may be further off than I'd like!", stance="celebrate", seeds=20):
        assert not re.search(r"[Ee]njoy|awesome|amazing|[Ss]oak|[Mm]ake the most", answer), answer
    assert not ILLNESS.search("I broke my sister's vase") and ILLNESS.search("My son broke his arm at practice.")
    # an effort or a word on the listener's view is no glad news
    assert news("Ha, that's a really nice way of looking at it but nah I'm pretty sure it's mostly laziness.") == \
        (False, False)
    assert not news("I try to do my best to follow the rules of the road.")[1]


def test_a_later_sorrow_after_a_death_is_grief():
    """"Oh, I'm so sorry. How are you holding up through all this?" to "She was old, but still, i feel so alone
    without her" after the dog died, and a shame, hope that things turn around (tuning seed 252)."""
    writer = TopicReplyWriter()
    for turn in ("He was a lab.  It broke my heart, to be honest.",
                 "thanks.. She was old, but still, i feel so alone without her"):
        for variant in range(6):
            answer, written = writer.reply(said("My dog died last month.", "I'm so sorry. What kind of dog was she?",
                                                turn + " " * variant), voted_only("sad"))
            assert written and re.search(r"your dog|your loss|Losing someone", answer), answer
            assert not re.search(r"shame|turn around|get better|look up|[Hh]ow long|miss most", answer), answer
    for answer in replies_to("My best friend died in a car crash.", "I'm so sorry. That's an awful way to go.",
                             "Seriously it was heartbreaking because we were best of friends", stance="loss", seeds=20):
        assert "your friends" not in answer, answer


def test_praise_is_given_once_and_a_resolve_or_a_stand_is_met_as_one():
    """Read off a blind audit of tuning replies (seed 252): "Congrats! You must be really proud." after the
    listener's "congrats! you must be proud!", "What's the biggest worry?" to "I was super worried, but decided to
    think more positive and I know I will be able to handle it.", and "Has that happened before?" to "I called them
    and did not hold back."."""
    for answer in replies_to("I passed my bar exam!", "Congrats! You must be so proud of yourself.",
                             "Thanks, I studied for months and it finally paid off.", stance="celebrate", seeds=20):
        assert not re.search(r"[Cc]ongrat|proud|[Ww]ell done|[Ww]ay to go|[Gg]ood for you", answer), answer
    for answer in replies_to("We are having twins in the spring.", "Wow, that will be a busy house",
                             "Yes, I agree. I was super worried, but decided to think more positive and I know I will "
                             "be able to handle it.", stance="reassure", seeds=20):
        assert not re.search(r"worr|stressful|scary|nervous|could have been worse", answer), answer
    assert any("speaking up" in answer or "standing up" in answer for answer in replies_to(
        "My landlord kept my whole deposit for no reason.", "That's awful. What did you do?",
        "I called them and did not hold back.", stance="validate", seeds=30))
    assert all("speaking up" not in answer and "standing up" not in answer for answer in replies_to(
        "My landlord kept my whole deposit for no reason.", "That's awful. What did you do?",
        "Nothing, I just let it go.", stance="validate", seeds=30))


def test_a_lottery_ticket_is_asked_about_by_what_is_told_of_it():
    """"Whoa, what a surprise! What did you make of it?" to buying a lottery ticket (tuning seed 252); whether they
    won is not asked once told."""
    assert any(re.search(r"win anything|if you won", answer) for answer in replies_to(
        "today i saw the lottery was for 36 million at the gas station so I decided to buy a ticket.",
        stance="surprise", seeds=20))
    for turn in ("I bought a scratch lottery ticket for $20 and didn't win anything",
                 "I have just won the lottery!"):
        for stance in ("acknowledge", "celebrate", "surprise"):
            for answer in replies_to(turn, stance=stance, seeds=10):
                assert not re.search(r"win anything|if you won", answer), answer


def test_disgust_a_kindness_and_a_wrong_are_met_only_where_told():
    """Read off tuning replies (seed 252): "Yuck, that's nasty." to "They are Ukrainian dumplings.", "Aw, that's
    rough." to a friend's lent car, and "That's really lovely." to a friend "nice to my face and back-stabbing"."""
    gross = re.compile(r"[Gg]ross|[Nn]ast|[Yy]uck|\b[Ee]w+\b|[Dd]isgust")
    for answer in replies_to("I am so sad I have no pierogies.", "What are pierogies? a type of food?",
                             "They are Ukrainian dumplings.", stance="disgust", seeds=20):
        assert not gross.search(answer), answer
    assert any(gross.search(answer) for answer in replies_to("i found a spider in my bathtub", stance="disgust",
                                                             seeds=10))
    lent = ("Last month my car threw a rod, leaving me without a way to get to work and back.",
            "Oh no, are you able to afford the repair for it?",
            "Well, a friend of mine let me borrow his car for a entire month while mine was repaired.")
    for answer in replies_to(*lent, stance="acknowledge", seeds=20):
        assert re.search(r"sweet|kind|lovely|thoughtful", answer) and not SORROW.search(answer), answer
    # something that "made me" feel is no kindness
    for answer in replies_to("Last night I found something in my son's room that made me so mad!", stance="validate",
                             seeds=20):
        assert not re.search(r"sweet|kind|lovely|thoughtful", answer), answer
    for answer in replies_to("She was always nice to my face and back-stabbing the others.",
                             "Sounds like someone who is actually not a friend. How long have you known her?",
                             "I have known her less than a year.", stance="appreciate", seeds=20):
        assert not re.search(r"sweet|kind|lovely|thoughtful|means a lot", answer), answer


def test_a_laugh_a_bad_grade_and_a_deed_told_are_heard_as_told():
    """Read off tuning replies (seed 252): "I hear you. Tell me all about it." to "No, it was my drunk cousin, lol.",
    "What wonderful news!" after a son's first F, "How did you react?" to a complaint already made, and "Ugh,
    that's so gross!" to "I had a terrible experience at the grocery store today."."""
    cousin = ("Awhile back, our whole household was awoken by someone kicking hard at our front door.",
              "Was it an intruder?", "No, it was my drunk cousin{}. She had tried knocking and we didn't hear her.")
    for answer in replies_to(*cousin[:2], cousin[2].format(", lol"), stance="acknowledge", seeds=10):
        assert answer.startswith("Ha") and "?" not in answer, answer
    for answer in replies_to(*cousin[:2], cousin[2].format(""), stance="acknowledge", seeds=10):
        assert not answer.startswith("Ha"), answer
    assert told_events("my son brought home his first F today.", "bad")
    for answer in replies_to("my son brought home his first F today.", stance="acknowledge", seeds=20):
        assert not CHEER.search(answer), answer
    for answer in replies_to("last week i found an insect in my burger and i immediately raised an alarm about it "
                             "and complained to the store manager", stance="disgust", seeds=20):
        assert not re.search(r"What did you|How did you react", answer), answer
    for answer in replies_to("I had a terrible experience at the grocery store today.", stance="disgust", seeds=10):
        assert re.search(r"[Ww]hat happened|talk about it", answer) and not re.search(r"[Gg]ross|[Nn]ast", answer), \
            answer


def test_shame_for_another_a_good_time_ended_and_who_fell_ill_are_read_as_told():
    """Read off tuning replies (seed 252): "We all slip up sometimes." to shame at a police officer's yelling, "Aw,
    that's nice." to "it was cool for a while, but the house is way to quiet now", and "I hope your new coworker is
    okay." to the speaker who fell ill while a coworker stood in."""
    officer = ("I felt ashamed seeing the police officer yelling at the old lady",
               "why was the officer yelling at her?",
               "She was trying to cross the road and had her phone fall, the officer thought she was insane")
    eased = re.compile(r"embarrass|best of us|hard on yourself|hide|been there|awkward|Ouch|moments like that|"
                       r"[Hh]appens to|notice|laugh|slip|feel bad")
    for stance in ("ease", "ease_guilt"):
        for answer in replies_to(*officer, stance=stance, seeds=15):
            assert not eased.search(answer), answer
    assert any(eased.search(answer) for answer in replies_to(
        "I was so embarrassed when I tripped in front of everyone at the gym", stance="ease", seeds=15))
    assert news("Yeah, it was cool for a while, but the house is way to quiet now") == (True, False)
    assert news("You go through life thinking everything is great, and then one day you find out.") == (True, False)
    assert news("It was great, we had a blast.") == (False, True)
    for answer in replies_to("Today as soon as I got to work I got sick. I have a new coworker that stepped in and "
                             "helped me out.", "Well, I hope you are feeling better. What makes you so nervous?",
                             "I'm worried the code will not pass once the program is done.", stance="illness",
                             seeds=15):
        assert "coworker" not in answer, answer


def test_interest_says_what_it_means_only_with_ground_and_asks_after_a_pastime():
    """Read off tuning replies (seed 252): "Ooh, I like that. I just love hearing that." to "I wish, he sometimes
    says curse words.", "It sounds like it really meant a lot to you." to "A friend needed help moving", and a stock
    comment where "How long have you been at it?" follows from "I work online to make extra money"."""
    for turn in ("A friend needed help moving", "So today I let my co worker draw my blood knowing she is a novice!"):
        for answer in replies_to(turn, stance="interest", seeds=20):
            assert not re.search(r"meant a lot|good time", answer), answer
    for answer in replies_to("Do you have kids?", "Yes, a boy of six. He's a good boy.",
                             "I wish, he sometimes says curse words.", stance="interest", seeds=20):
        assert not re.search(r"(?:love|like) hearing", answer), answer
    assert any("How long have you been" in answer for answer in replies_to(
        "I work online to make extra money for things my family wants.", stance="interest", seeds=20))
    for answer in replies_to("I'm really feeling alright about how my life is going right now.", stance="interest",
                             seeds=20):
        assert "How long have you been" not in answer, answer


def test_a_fall_is_asked_after_only_of_who_fell_and_a_betrayal_is_no_thoughtlessness():
    """Read off tuning replies (seed 252): "Were you hurt?" to a stranger seen helping an old lady who fell, and
    "Some people just don't think." to "Yesterday I found my boyfriend with someone else!"."""
    for answer in replies_to("Recently i saw a younger man helping an old lady who fell to the ground. Its nice to "
                             "see people helping others", stance="appreciate", seeds=20):
        assert not re.search(r"you hurt|help you up", answer), answer
    assert any(re.search(r"you hurt|help you up", answer) for answer in replies_to(
        "I slipped on the ice and fell on my back yesterday.", stance="ease", seeds=20))
    for answer in replies_to("Yesterday I found my boyfriend with someone else!", "That's awful. Are you okay?",
                             "I was gonna explode. Im so fed up with him. Im so done.", stance="validate", seeds=30):
        assert not re.search(r"don't think|consideration|annoying", answer), answer


def test_news_taken_badly_and_a_flat_later_turn_are_not_cheered():
    """Read off tuning replies (seed 252): "Ah, that's so great to hear." to "I finally told my friend I was into him.
    He didnt take it too well.", and "That's the best!" to "Nothing really, except some indigestion much later in the
    day."."""
    assert news("He didnt take it too well.") == (True, False)
    assert news("It did not go well at all.") == (True, False)
    assert news("I didnt win anything.")[0]
    for answer in replies_to("I finally told my friend I was into him. He didnt take it too well.",
                             stance="acknowledge", seeds=20):
        assert not CHEER.search(answer), answer
    for answer in replies_to("I had the best tacos for lunch.", "Yum! Did anything ruin it?",
                             "Nothing really, except some indigestion much later in the day.", stance="savor",
                             seeds=20):
        assert not re.search(r"[Ww]onderful|the best|[Ll]ovely|great|[Nn]othing beats", answer), answer
    assert any(re.search(r"[Ww]onderful|the best|[Ll]ovely|great|[Nn]othing beats", answer) for answer in replies_to(
        "I love sunny days like today.", "Me too! Did you get outside?", "Yes, we had a lovely picnic in the park.",
        stance="savor", seeds=20))


def test_a_hurt_of_ones_own_a_brighter_day_an_ordeal_over_and_a_video_are_heard_as_told():
    """Read off a blind rating of tuning turns (seed 301): "Were your friends okay?" to "I was bleeding so much",
    "Oh no, I'm sorry." to "I believe in a brighter day, though, so I know it will improve.", "I'm sorry you're going
    through that." to "I'm glad it's over lol", and "What did you do?" to a video watched."""
    for answer in replies_to("A few weeks ago I was drinking with some friends at a park and I sliced my hand open.",
                             "oh that sucks, i hope it has healed since then",
                             "It has! The cut was so deep and I was bleeding so much I was scared.",
                             stance="reassure", seeds=20):
        assert "friends okay" not in answer, answer
    for answer in replies_to("Financially, things will turn around for my family soon!", "I hope so.",
                             "Yes, and we had a layoff of five months. I believe in a brighter day, though, so I know "
                             "it will improve.", stance="acknowledge", seeds=20):
        assert not re.search(r"sorry|rough|tough|\bhard\b|Oh no", answer), answer
    for answer in replies_to("My kids were away all summer and I missed them like crazy.", "That must be quiet.",
                             "I was very lonely. I'm glad it's over lol", stance="comfort", seeds=20):
        assert not re.search(r"going through|sorry", answer), answer
    for answer in replies_to("I was watching youtube and saw this guy eat a jellyfish straight out of the ocean. "
                             "Looked like the most disgusting thing someone could eat.", stance="disgust", seeds=20):
        assert not re.search(r"What did you (?:do|end up doing)", answer), answer
    assert any(re.search(r"What did you (?:do|end up doing)", answer) for answer in replies_to(
        "I was watching my favorite tv show and my husband kept talking to me during it.", stance="validate",
        seeds=20))


def test_a_deed_tried_a_keeping_away_and_anothers_habit_and_effort_are_read_as_told():
    """Read off tuning replies (seed 252, sample 268): "What did you do?" to "I tried. They said they can't do
    anything", "Did you say anything to your boss?" to "I just stir clear of him", and "That sounds promising! I hope
    it's everything you want." to a sister-in-law who "plans things" around her schedule and "tries her best"."""
    for answer in replies_to("A creepy guy at work won't stop calling me just to chat.",
                             "I would be reporting that to the police for sure.",
                             "I tried. They said they can't do anything unless he actually tries to harm me.",
                             stance="validate", seeds=20):
        assert not re.search(r"What did you (?:do|end up doing)|Did anyone do anything", answer), answer
    for answer in replies_to("My boss says one thing and does something else, every day.", "I'm sorry.",
                             "Yeah, it can get annoying. I just stir clear of him when he is around.",
                             stance="validate", seeds=20):
        assert not re.search(r"What did you (?:do|end up doing)", answer), answer
    story = ("Whenever my sister in law plans things, she only does it around her schedule.",
             "That's really selfish. Have you talked to her about it?",
             "Yeah, but she says she tries her best and thinks she is doing what is best for everyone. However, we "
             "are the only ones with kids on a schedule.")
    assert story_time([story[0], story[2]]) != "future"
    assert news(story[2]) == (False, False)
    for answer in replies_to(*story, stance="acknowledge", seeds=20):
        # None: the reflective writer answers
        assert answer is None or not CHEER.search(answer), answer


def test_a_secret_betrayed_a_fall_laughed_at_and_a_proposal_are_read_as_told():
    """Read off a blind rating of tuning turns (seed 302, two raters): "Aw, that's really lovely." to a secret told
    to everyone, "Were you hurt?" to a fall told for its embarrassment, "Oh, what a relief!" to a cat's pee found on
    getting out of the shower, "You have every right to be annoyed." to students laughing at a fall, and "How was
    your boyfriend's wedding?" to his proposal."""
    for answer in replies_to("A friend of mine revealed a deep dark secret I told her in confidence to everyone.",
                             stance="interest", seeds=20):
        assert not CHEER.search(answer.replace("not cool", "")), answer
    for answer in replies_to("In high school, I fell down the stairs in front of my crush. My face turned red and I "
                             "ran away!", stance="ease", seeds=20):
        assert "hurt" not in answer, answer
    for answer in replies_to("I discovered my cat peed on my bath mat when I got out of the shower today.",
                             stance="disgust", seeds=20):
        assert not re.search(r"relief|weight off|lighter", answer), answer
    answer, _ = TopicReplyWriter().reply(said("I feel down in front of my students during games.",
                                              "Oh really? thats sad, why is that?",
                                              "I tripped over and fell down, and the students laughed at me."),
                                         voted_only("embarrassed"))
    assert not re.search(r"annoy|frustrat|rude|mad\b|angry|sorry", answer), answer
    # found funny since, and "I could have died!" said of the moment: still an embarrassment, no relief or terror
    answer, _ = TopicReplyWriter().reply(said("In high school, I fell down the stairs in front of my crush.",
                                              "Oh no! Did he say anything about it?",
                                              "He laughed at me. Looking back, I'm sure it was funny but in the "
                                              "moment, I could have died!"), voted_only("embarrassed"))
    assert not re.search(r"relief|terrif|scar|sorry", answer), answer
    topic = find_topic("I was thinking about my boyfriends wedding proposal the other night.", "acknowledge")
    assert topic is None or topic.noun != "wedding", topic


def test_anothers_feat_is_admired_whatever_the_vote():
    """Read off a blind rating of tuning turns (seed 302): "Whoa, what a surprise! What did your fiance say?" to "So
    the fiance managed to rewire one of the wall outlets yesterday!", and "Well, that's good. How are you feeling about
    it?" to a friend's desk built in a few hours; a thing done for the speaker is still thanks, not praise."""
    writer = TopicReplyWriter()
    for turn, fine in (("So the fiance managed to rewire one of the wall outlets yesterday!", "surprised"),
                       ("A friend of mine was able to build this complicated desk in a few hours", "content"),
                       ("A co-worker of mine was able to complete a complicated project quickly", "surprised")):
        answer, _ = writer.reply(said(turn), voted_only(fine))
        assert re.search(r"impressive|amazing|talented|incredible|skill", answer), answer
    answer, _ = writer.reply(said("A friend was able to fix a problem I was having"), voted_only("grateful"))
    assert not re.search(r"impressive|talented|learn to do", answer), answer


def test_a_feeling_told_in_other_words_is_not_asked_for():
    """Blind raters of tuning turns (seeds 301 and 302) name "How do you feel about it all?" after a feeling already
    given as a common fault; read off tuning replies (seed 252), these feelings were missed: grossed out, delighted,
    hopeful, hoping, "really hard"."""
    asks_feeling = re.compile(r"\b(?:feel(?:ing)?|react(?:ion)?|sit with you)\b.*\?$")
    for turn, stance in (("I was grossed out when I saw someone vomit outside a bar.", "disgust"),
                         ("i was delighted with how well my nephew did at his little league game", "admire"),
                         ("It's really hard to stay disciplined and watch what you eat.", "acknowledge"),
                         ("I'm really hopeful that I'll land a new promotion at work.", "look_forward"),
                         ("I have an appointment for tomorrow. I'm hoping it goes well.", "look_forward")):
        for answer in replies_to(turn, stance=stance, seeds=20):
            assert answer is None or not asks_feeling.search(answer), answer


def _replies(fine: str, *utterances: str, seeds: int = 8) -> list[str]:
    """TopicReplyWriter's replies under one voted label, reseeded as in `replies_to`."""
    writer = TopicReplyWriter()
    return [writer.reply(said(*utterances[:-1], utterances[-1] + " " * seed), voted_only(fine))[0]
            for seed in range(seeds)]


def test_readings_from_the_tuning_ratings_of_seeds_303_and_304():
    """Read off two blind ratings of tuning turns (seeds 303 and 304, two raters each): each turn got the reply quoted
    on the code before."""
    # "Oh, that sounds so relaxing! Do you get to do that often?", "Argh, that's really frustrating! Did it get sorted
    # out?": a mishap named but not yet told is asked for
    for fine, turn in (("prepared", "Well i had spent the good part of a week organising the best weekend away with my "
                                    "hubby for our 10th wedding anniversary. However all did not go to plan..."),
                       ("angry", "hi there it was a hard day when this incident occured.")):
        for answer in _replies(fine, turn):
            assert re.search(r"^(?:Oh no|Uh oh)\b.*(?:[Ww]hat happened|talk about it)", answer), answer
    # "Ah, I totally hear you. How does that sit with you?"
    for answer in _replies("lonely", "my husband doesn't seem interested in me anymore. I think he may have eyes for "
                                     "someone else."):
        assert re.search(r"sorry|hard|shame|rough|tough|sad|hurt|oh no|unsettling|painful", answer,
                         re.IGNORECASE), answer
        assert not CHEER.search(answer) and "hear you" not in answer, answer
    # "Oh, that's fantastic! I bet that felt great."
    for answer in _replies("content", "My wife took the kids over to her mother's one evening. I thought it'd be "
                                      "pretty nice to have a quiet house for once.",
                           "It's definitely nice to have some peace.",
                           "It was for a while, but it was too quiet for me!  I've gotten used to the noise."):
        assert not CHEER.search(answer), answer
    # "Oh dear, that's so embarrassing! What did you do then?"
    for answer in _replies("guilty", "I ate too many sweets the other day, they were so good though."):
        assert not re.search(r"embarrass|awkward|hard on yourself", answer), answer
    # "Ah, that's nice to hear. What kind of car was it?"
    for answer in _replies("grateful", "I was able to get my car fixed"):
        assert not re.search(r"What kind of car", answer), answer
    # "Oh, that's nice! How do you feel about it now?"
    for answer in _replies("confident", "One of my art pieces has been chosen to be put in a exhibition!"):
        assert CHEER.search(answer) and not re.search(r"\bfeel about it\b", answer), answer
    # "Wow, that's exciting! I bet that feels amazing."
    for answer in _replies("impressed", "Recently, I've been watching my son play a game called Fortnite. It blows my "
                                        "mind how good he is at such a fast game."):
        assert re.search(r"your son|talented|impressive|amazing", answer) and "feels amazing" not in answer, answer
    # "Oh, that's nice to hear. That sounds great." to despair
    for answer in _replies("lonely", "being alive is so much stress and anxiety, why does it have to be like this?",
                           "It's not fair, eh.",
                           "we still continue to work on our meaningless lives, if we all acted we would be living "
                           "in a much more beautiful and free life, not one which just gives the impression of "
                           "freedom"):
        assert not re.search(r"\bnice\b|\bglad\b|great", answer), answer
    # "Oh no, I'm so sorry about your friends. What do you miss most about them?"
    for answer in _replies("terrified", "On my way back from a funeral, my friends and I almost got into a deadly car "
                                        "crash."):
        assert not re.search(r"miss most|sorry about your friends|loss", answer), answer
    # "Wow, I love that! I bet that felt really good."
    for answer in _replies("surprised", "She was actually always blind-sinding nice to my face and back-stabbing the "
                                        "other."):
        assert not re.search(r"love that|felt really good|lovely|wonderful|exciting|amazing", answer), answer
    # "Ooh, I like that. That sounds really nice." to a kindness of the speaker's own
    for answer in _replies("trusting", "A friend needed help moving", "So did you help him / her",
                           "Yeah, he didn't know of anyone else to turn to for help so I gave him a hand"):
        assert re.search(r"kind|thoughtful|sweet|lovely|means a lot|goes a long way", answer), answer


def test_common_happenings_get_a_question_of_their_own():
    """Read off the tuning replies (seed 252) that ended in a stock question after the raters of seeds 303 and 304
    named it their most common fault: each turn got "How are you feeling about it?" or the like before."""
    stock = re.compile(r"How (?:are you feeling|do you feel) about|How are you (?:handling|dealing with) it")
    for fine, turns, asked in (
            ("disappointed", ("i thought I was going to get a promotion. I found out I did not get it",),
             r"say why|who got it"),
            ("annoyed", ("Today after a long day at work I sat in traffic for 2 hours due to construction on the "
                         "freeway!",), r"commute|listen to"),
            ("surprised", ("I can't believe I lost at Bingo! I spent 40 dollars and didn't win a penny",),
             r"play often|close to winning"),
            ("devastated", ("my car had a small accident recently",), r"hurt|okay|damage"),
            ("annoyed", ("I keep getting strange phone calls. It's creeping me out.",), r"who it is|blocking"),
            ("impressed", ("my husband has been texting a woman he works with",), r"talk to them|going on"),
            ("annoyed", ("My neighbor is remodeling his house, which I hate, because they start at 5:30 in the "
                         "morning.",), r"talked to your neighbor|happened before|say anything|sorted out")):
        answers = _replies(fine, *turns)
        # the happening's own questions are asked most of the time, not always (`topic_reply`)
        assert sum(bool(re.search(asked, answer)) for answer in answers) >= 4, answers
        assert sum(bool(stock.search(answer)) for answer in answers) <= 3, answers
    # asked of the one who did it, at the start: not "Have you talked to their kids about it?" in a later turn
    for answer in _replies("annoyed", "People at the park yell at their kids.", "That's awful to see.",
                           "The worst is when they're screaming at them rather than just speaking to them calmly."):
        assert "talked to" not in answer, answer


def test_a_happenings_question_is_not_asked_once_the_turn_has_told_it():
    """Read off a blind A/B of tuning turns (seed 2592): both raters faulted "Were you close to winning?" after "off
    by one number" and "How did you get home?" of a flat tire found on waking; each of these got the question on the
    code before."""
    for fine, turns, asked in (
            ("surprised", ("One time I bought a scratch lottery ticket and I didn't win anything!",
                           "Wow, that must've been disappointing.",
                           "Yes, I was off by one number. I was going to be a millionaire!"), "close to winning"),
            ("disappointed", ("I can't believe I lost at Bingo! I was off by one number.",), "close to winning"),
            ("angry", ("I woke up and my car had a flat tire",), "get home"),
            ("annoyed", ("I was stuck in traffic for an hour yesterday and was late for work.",), "in time")):
        for answer in _replies(fine, *turns, seeds=16):
            assert asked not in answer, answer


def test_readings_from_the_tuning_rating_of_seed_305():
    """Read off a blind rating of tuning turns (seed 305, two raters): each turn got the reply quoted on the code
    before."""
    # "Oh, that must bring back a lot of memories. What made it so special?" to a habit kept now
    for answer in _replies("sentimental", "Every night before bed, we read the Bible to our son. I love when he "
                                          "relates what he learned to real life."):
        assert not re.search(r"memor|go back|remember|think back|made it so", answer), answer
    # "Wow. How did that go?" to a dog given away
    for answer in _replies("guilty", "I gave my dog away to a family today. I did not have time for him since work and "
                                     "school take alot of it up."):
        assert re.search(r"hard|best|happy there|sorry", answer) and "How did" not in answer, answer
    # "When is the new game?" after "in a few weeks"; "How did that go for you?" after "like nothing"
    for question, turn in (("When is the new game?", "So that new game that I've been looking forward to is coming out "
                                                     "in a few weeks!"),
                           ("How did that go for you?", "I had a quiz yesterday and I went through it like nothing.")):
        assert _already_asked(question, said(turn).history), turn
    # "Wow, that's so exciting! Where did you find it?" of a package that came
    for answer in _replies("grateful", "I'm happy my package just arrived", "oh thats nice", "im glad it came earlier"):
        assert "find it" not in answer, answer
    # "I'm so sorry about her pet. How long did you have her?": the pet was the daughter's
    for answer in _replies("sad", "I am upset I have to tell my daughter her pet died."):
        assert "did you have" not in answer, answer
    # "Fingers crossed! What are you most excited about?" after anxiety
    for answer in _replies("hopeful", "the future is so uncertain and yet so certain i am so not ready for what's "
                                      "about to come it fills mee with anxiety and depression just thinking about it",
                           "Everything is going to be okay. Try to relax.", "i hope so"):
        assert not re.search(r"excited|looking forward", answer), answer
    # "Oh no, I hope your wife is okay. Is she feeling any better?" again, to the speaker's care of her
    for answer in _replies("caring", "My wife was sick all last week, so I had to stick by her side.",
                           "what did she get sick off , im sorry to hear that your a great to your wife",
                           "She caught a very bad cold. I brought her soup everyday and tended to her every need."):
        assert answer.startswith("Your wife is") and "lucky to have someone like you" in answer, answer
    # "Argh, that's really frustrating! You have every right to be angry." to a late night laughed off
    for answer in _replies("angry", "i was upset i woke up so late today", "I did too. Did you go out last night?",
                           "nope lol i just stayed up late"):
        assert not re.search(r"angry|frustrat|every right|annoy|furious|not okay", answer), answer
    # "Ooh, do tell! So what happened?" to a birth told, summed up as "Best day ever."
    for answer in _replies("joyful", "I was there when my grandson was born last week. Best day ever."):
        assert not re.search(r"do tell|curious|[Ww]hat happened", answer), answer


def test_harms_and_happenings_found_in_the_tuning_replies_of_session_34():
    """Read off the tuning replies (seed 252) beside the rating of seed 305: homesickness met with "Aw, that's so
    nice!", a crash told after "What happened?" met with comment alone; each turn got those on the code before."""
    for fine, turns, asked in (
            ("nostalgic", ("When i moved to dallas I felt I would have the time of my life after living in a small "
                           "town, but after a couple of weeks i got homesick.",), r"home|easier"),
            # the story a teaser promised, told when asked for, is asked about: not only "I'm sorry you're going
            # through that."
            ("devastated", ("I am so upset about what happened yesterday.", "What happened to you?",
                            "I accidentally can off the road avoiding a deer and totaled my new car."),
             r"hurt\?|okay\?")):
        answers = _replies(fine, *turns)
        assert sum(bool(re.search(asked, answer)) for answer in answers) >= 4, answers
        assert not any(CHEER.search(answer) for answer in answers), answers
    # a harm to body or home is always asked after
    for answer in _replies("devastated", "my car had a small accident recently"):
        assert re.search(r"hurt\?|okay\?|damage\?", answer), answer
    # "How bad was the damage?" is not asked of a car totaled
    assert _already_asked("How bad was the damage?", said("I totaled my new car on the way to work.").history)


def test_readings_from_the_blind_ab_of_seed_2594():
    """Both raters of a blind A/B of this session's changes on tuning turns (seed 2594) preferred the older reply in
    two turns; each got the faulted reply on the code before this test."""
    # "Have you talked to your daughter about it?" of a two-year-old who woke up covered in spots
    for answer in _replies("sad", "Well i had spent the good part of a week organising the best weekend away with my "
                                  "hubby for our 10th wedding anniversary. However all did not go to plan...",
                           "Oh no, what happened? Hopefully the whole weekend didn't get ruined!",
                           "Well unfortunately the day before we were due to go my little 2 year old daughter woke up "
                           "covered in spots. She had a roaring temperature. We realised she had chickenpox. Sure kids "
                           "always come first dont they?!"):
        assert "talked to" not in answer, answer
    # nerves told earlier are reassured, but the study told now is still seen: not only "You've got this."
    answers = _replies("confident", "im worried about an upcoming test",
                       "What is the test on? Have you prepared for it? I bet you will do better than you think!",
                       "yes i have studied quite a bit, thank you!")
    assert any(re.search(r"worked hard|put in the work|ready for it|all set", answer) for answer in answers), answers


def test_readings_from_the_tuning_rating_of_seed_306():
    """Read off a blind rating of tuning turns (seed 306, two raters): each turn got the reply quoted on the code
    before."""
    # "Oh no, I'm so sorry about your cat. How are you coping?" to a loss years ago
    for answer in _replies("sad", "I had to put my cat down a few years ago, she was old and in kidney failure."):
        assert not re.search(r"coping|holding up|right now", answer), answer
    # "Wow, how infuriating. How are you handling it?" to a pet peeve, and "How are you handling it all?" to rain (nor,
    # as a blind A/B of seed 2595 found, "Has that happened before?" of rain)
    for turns in (("I don't like it when people talk with their mouth full of food",),
                  ("the rain today is frustrating", "We have been getting a lot of rain as well. I have to mow my lawn "
                   "so much.", "im not a fan of it at all")):
        for answer in _replies("annoyed", *turns):
            assert not re.search(r"handling|dealing with|coping|happened before", answer), answer
    # "Congrats! All that hard work paid off. How are you celebrating?" with ten classes to go
    for answer in _replies("joyful", "I am studying Computer Science.", "Oh wonderful! One of the best fields to be in "
                           "right now", "I love it. Just ten more classes to go until I finish."):
        assert not re.search(r"[Cc]ongrat|celebrat|paid off", answer), answer
    # "Yikes, accidents are so scary. How bad was the damage?" to a fear of hospitals after a cousin's injuries
    for answer in _replies("afraid", "i am afraid of hospitals since my cousing was admitted due to injuries in a road "
                                     "accident. I saw alot of blood and sick people and the thought of going there "
                                     "scares me."):
        assert "damage" not in answer, answer
    # "I hear you, you were so scared. What's weighing on you most?", "I'm so sorry you went through that." once the
    # insurance took care of it all
    for answer in _replies("anxious", "Last year my wife got into an accident and we only had one car and I was so "
                                      "worried we wouldn't have a car to get to work",
                           "Did you make special arrangements so things went smoothly with one car?",
                           "We didn't have many options but the other persons insurance ended up taking care of it all "
                           "so we got a rental and the car got fixed but i was so scared ."):
        assert re.search(r"relie[fv]|glad|[Pp]hew|weight off", answer), answer
    # "Hey, that happens to the best of us, honestly. Everyone has moments like that." to a week of back pain
    for answer in _replies("embarrassed", "I hurt my back and can't mow the grass so it's getting long and everyone "
                                          "elses lawn look so nice. It's embarrassing.", "How did you hurt your back?",
                           "I really don't know. I woke up at it was tight then it just kept getting worse as day went "
                           "on. Its been a week now."):
        assert not re.search(r"best of us|moments like that|been there|happens to", answer), answer
    # "Lots of luck, you'll do great! What are you most excited about?" to classes already aced
    for answer in _replies("hopeful", "I aced all my classes this semester, so Im hoping and thinking my GPA will be a "
                                      "4.0"):
        assert "luck" not in answer, answer
        assert re.search(r"[Cc]ongrat|proud|achievement|amazing|well done|[Gg]ood for you|[Ww]ay to go|celebrat",
                         answer), answer
    # "How exciting! How are you getting ready for it?" of a husband's interview
    for answer in _replies("hopeful", "My husband has been having a hard time finding a job recently.",
                           "It always takes time. Hang in there It will all work out.",
                           "Well, he's got another interview on Thursday. I just know he will get that one!"):
        assert not re.search(r"preparing|getting ready", answer), answer
    # "Yay, that's so awesome! That must feel amazing." to a hope
    for answer in _replies("hopeful", "i hope france win the world cup"):
        assert not re.search(r"awesome|must feel|amazing", answer), answer
    # "Wow, how exciting! Are you going to stay in touch?" before the evening has come
    for answer in _replies("excited", "im stoked to go see some old friends tomorrow night"):
        assert "stay in touch" not in answer, answer
    # "Did anyone turn it in?" after "the person who found it"
    assert _already_asked("Did anyone turn it in?", said('My phone went missing. I got a Facebook message "from '
                                                         'myself," it was the person who found it.').history)


def test_readings_from_the_tuning_rating_of_seed_307():
    """Read off a blind rating of tuning turns (seed 307, two raters): each turn got the reply quoted on the code
    before."""
    # "Ooh, that's exciting! That must feel amazing." to a complaint that longs for the old toilet paper
    for answer in _replies("disappointed", "Have you ever felt sandpaper on your bottom? Because that is what the new "
                                           "recycled toilet paper my wife want's us to use feels like.",
                           "Holy smokes! Let me guess, better for the environment?",
                           "yes but in the end it's still paper and still going to the same place. I dream of the day "
                           "I can enjoy Angel Soft or Charmin again."):
        assert not CHEER.search(answer), answer
    # "Ah, that's good. What do you love most about it?" to help needed
    for answer in _replies("caring", "I need someone to stay with my elderly mother for a few hours in my home."):
        assert "love most" not in answer and not answer.startswith("Ah, that's good"), answer
    # "Aw, that's so nice! What do you love most about it?" of rabbits had once
    for answer in _replies("content", "I had a couple rabbits once, interesting pets to take care of."):
        assert "most about it" not in answer, answer
    # "Aw, that's nice. How did it go?" to a presentation that tells no news
    for answer in _replies("confident", "I had a major work presentation to give"):
        assert not re.search(r"nice|great|lovely", answer), answer
    # "Ah, that's great to hear." to a game that was not as great as hoped
    for answer in _replies("disappointed", "I was waiting for a while for a video game to come out.  When it finally "
                                           "did it wasn't as great as I thought it was going to be."):
        assert not CHEER.search(answer), answer
    # "Sounds like a lot of fun! That must have felt wonderful." to a show's name given when asked
    for answer in _replies("impressed", "have you ever watched this show it was really quite good?",
                           "What is the name of the show?", "It was called Hero's"):
        assert answer.startswith("Oh, Hero's!") or answer.startswith("Ooh, Hero's!"), answer


def test_readings_from_the_tuning_rating_of_seed_308():
    """Read off a blind rating of tuning turns (seed 308, two raters): each turn got the reply quoted on the code
    before."""
    # "Oh no, I'm really sorry to hear that. It's okay to feel down about it." to a crash told when asked what happened
    for answer in _replies("devastated", "I almost died today coming home from work.",
                           "thats crazy. and scary.  WHat happened?", "Crashed the car, totalled it too."):
        assert re.search(r"okay\?|hurt\?|[Ww]ere you hurt", answer), answer
    # "Ugh, that's so gross! Did you eat any of it?" to mould on a garage wall
    for answer in _replies("disgusted", "I found some mold growing out in the garage"):
        assert not re.search(r"\beat\b|eating", answer), answer
    # "Aw, that's tough. Were you able to sort it out?" to a chance let go and rued
    for answer in _replies("surprised", "A group of coworkers who play the same lottery numbers every week won "
                                        "$100,000 on the pick 6 last week.",
                           "that is so lucky, they must be so happy they bought that ticket",
                           "They had asked me if I wanted to go in with them, and I said no. I regret that now, I "
                           "could have really used a share of that money."):
        assert not re.search(r"sort(?:ed)? (?:it )?out", answer), answer
    # "Oh, that sounds promising! What are you most excited about?" to thanks for a suggestion
    for answer in _replies("confident", "Yes maybe I should but my ego gets in the way.",
                           "You could just cook him a nice dinner or plan a special date instead.",
                           "That is a cool idea! Thanks for the great advice! I will do that right now. :)"):
        assert re.match(r"You're (?:so )?welcome|Of course|Anytime", answer), answer
    # "Oh, I hope it goes well! I'm sure it will go great." to a dog's habit, after a day at the park
    for fine in ("joyful", "anticipating"):
        for answer in _replies(fine, "I took my pup to the park last weekend and he had fun meeting other dogs and "
                                     "their owners!",
                               "Thats always fun! Does your pup do well with other dogs?",
                               "Yeah he is a golden so he is happy no matter what lol. He will go up to people and not "
                               "leave until they pet him."):
            assert not re.search(r"hope it goes|will go (?:great|really well)|[Gg]ood luck|Soak it|Enjoy every|"
                                 r"Make the most", answer), answer
    # "Ooh, that sounds like an amazing trip! Enjoy every bit of it!" to a trip come back from
    for answer in _replies("joyful", "Me and my family just came back from vacation we had a great time.",
                           "Where did you go ?",
                           "We went to Disney world in Orlando,Fl to see my kids have a great time made me happy can't "
                           "wait for our next vacation."):
        assert not re.search(r"Enjoy every|Soak it|Savor every|Make the most", answer), answer


def test_readings_from_the_tuning_rating_of_seed_309():
    """Read off a blind rating of tuning turns (seed 309, two raters): each turn got the reply quoted on the code
    before."""
    # "Ugh, how infuriating. You deserved better than that." to an abandoned kitten taken in
    for answer in _replies("caring", "Years ago when we moved into our home, we found a young kitten that had been "
                                     "abandoned.",
                           "Awww. Did you keep it?",
                           "Yes, we did. He was so cute we took him in, and now he is 9 years old."):
        assert not re.search(r"infuriat|deserved? better|frustrat|rotten|terrible", answer), answer
    # "Ah, that's so great to hear. How do you feel about it now?" to a promotion depended on and not got
    for answer in _replies("disappointed", "i thought I was going to get a promotion. I found out I did not get it",
                           "I'm sorry to hear that. Hopefully something better is coming along for you soon.",
                           "thank you, i was really depending on this promotion"):
        assert not CHEER.search(answer) and "great to hear" not in answer, answer
    # "Aw, that's nice. What was the best part?" to resentment of one who found the same dress
    for answer in _replies("jealous", "My husbands brother was getting married.  I searched online and in every shop "
                                      "to find the perfect dress.  I finally found it, tried it on and loved it.  The "
                                      "next day my sister in law called in.  She had also found the perfect dress. It "
                                      "was the same dress!! Couldnt believe it.  Oh how I resented her at that "
                                      "moment."):
        assert not re.search(r"nice|best part|great to hear|lovely", answer), answer



def test_readings_from_the_tuning_rating_of_seed_310():
    """Read off a blind rating of tuning turns (seed 310, two raters): each turn got the reply quoted on the code
    before."""
    # "Oh, interesting. What happened next?" to tears at music
    for fine in ("nostalgic", "sad", "surprised"):
        for answer in _replies(fine, "I was listening to a guitar play the other day, and it made me cry a little."):
            assert not re.search(r"interesting|happened next|sorry|rough|so hard|hard for", answer), answer
    # "Way to go! That must have felt really good." to a co-worker's help
    for answer in _replies("grateful", "I was busy with a work related project", "Oh? What kind of project?",
                           "Presentation, a co-worker came in and helped me out"):
        assert not re.search(r"Way to go|Good for you|congrat|proud", answer, re.IGNORECASE), answer
    # "I'm sorry, that must hurt. Is there someone you can talk to about it?" to a sofa torn up by the dog
    for answer in _replies("sad", "i came home yesterday, i found my sofa torn up, let's say this I am not very  happy "
                                  "with my pet dog"):
        assert not re.search(r"must hurt|talk to about it|holding up|coping", answer), answer
    # "Aw, that's really rough. How are you holding up?" to cucumber plants lost to rain
    for answer in _replies("sad", "All my cucumber plants died this week due to too much rain"):
        assert not re.search(r"holding up|coping|so sorry for your loss", answer), answer
    # "Is there anything you enjoy doing to get out of the house?" to loneliness on a train
    for answer in _replies("lonely", "I was really lonely sitting alone in the train"):
        assert "out of the house" not in answer, answer
    # "How old are your dogs?" of hunters' dogs
    for answer in _replies("nostalgic", "We went camping in the mountain. We did not know it was bear season. There "
                                        "were a lot of hunters and hunting dogs in the area. They were chasing the "
                                        "bears into one area"):
        assert "your dogs" not in answer, answer
    # "What are you most looking forward to?" to a concert agreed to be one to remember
    for answer in _replies("impressed", "I went to my first concert this weekend I seen Beyonce herself it was so "
                                        "awesome.",
                           "Oh nice! I bet you'll remember that for a long time",
                           "Yes and I will it was great and her voice and the singers really moved me because even in "
                           "person it was lovely."):
        assert not re.search(r"looking forward|excited about|hope it goes|Good luck", answer), answer


def test_readings_from_the_tuning_rating_of_seed_311():
    """Read off a blind rating of tuning turns (seed 311, two raters): each turn got the reply quoted on the code
    before."""
    # "Ugh, that's maddening. Did anyone do anything about it?" to a cat found abandoned
    for answer in _replies("disgusted", "I found an abandoned cat in an alleyway yesterday."):
        assert not re.search(r"maddening|infuriat|frustrat|anyone do", answer), answer
    # "Oh, that's so nice! What was that like?" to the last payment of a student loan
    for answer in _replies("proud", "I picked up a 2nd job last year and today made my last student loan payment"):
        assert re.search(r"debt free|milestone|done with it|celebrate", answer), answer
    # "Well, that's nice! What was it like for you?" to a raise asked for, its answer untold
    for answer in _replies("surprised", "So I asked my boss for a raise today."):
        assert not re.search(r"nice|great|congrat", answer, re.IGNORECASE), answer
        assert re.search(r"go\b|get it|take it|say\?|happen", answer), answer
    # "That's wonderful news! How do you think it went?" after an interview aced
    for answer in _replies("prepared", "For my current job, I thought about interview answers that I did poorly on "
                                       "before. I was able to ace this interview.",
                           "Congratulations. Interviews can be stressful",
                           "True. The interview I had before I got this job went so, so badly. I studied some common "
                           "questions so I was ready."):
        assert "think it went" not in answer, answer
    # "Ugh, how infuriating. I hope it gets sorted out soon." to rain
    for answer in _replies("annoyed", "I get so annoyed when it rains I had plans for a family cookout but it started "
                                      "thundering and lightening such a bummer",
                           "Oh no that is a total bummer. It's especially common in the summer months.",
                           "Yes it's the worse especially in Florida it's sunny one day and pouring down raining the "
                           "next."):
        assert "sorted out" not in answer, answer
    # "It sounds like a really special time. Those are memories worth keeping." to a grandmother no longer alive
    for answer in _replies("sentimental", "i have good memories when i see photos of my grandmother",
                           "Oh yea, I can relate to the good times, is she still alive?",
                           "no unfortunately she isnt"):
        assert not re.search(r"special time|worth keeping|lovely|so nice", answer), answer
