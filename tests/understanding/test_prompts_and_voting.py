from dataclasses import replace

import pytest

from e3rg_core.contracts import Utterance
from e3rg_core.emotions import FINE_LABELS
from e3rg_core.contracts import EmotionResult, UnderstandingRequest, Vote
from e3rg_core.tiers.lite import example_pool
from e3rg_core.understanding.prompts import (HEDGE_SHARE, LISTENER_STANCE, STANCES, clean_reply, clean_sentences,
                                             emotion_prompt, listener_stance, parse_emotion, reply_prompt,
                                             sample_examples)
from e3rg_core.understanding.voting import decide, side_share, tally

QUERY = UnderstandingRequest(history=(Utterance(0, "speaker", "My dog passed away last night. "
                                                   "The house feels so empty without him."),))


def test_emotion_prompt_lists_every_candidate_and_the_dialogue():
    prompt = emotion_prompt(QUERY)
    assert all(label in prompt.user for label in FINE_LABELS)
    assert "Speaker: My dog passed away" in prompt.user
    assert prompt.user.rstrip().endswith("The emotion of the Speaker:")


def test_reply_prompt_is_conditioned_on_the_voted_emotion():
    emotion = EmotionResult("devastated", "sad", (), "single vote")
    prompt = reply_prompt(QUERY, emotion)
    assert "devastated" in prompt.user and "sad" in prompt.user
    other = reply_prompt(QUERY, EmotionResult("joyful", "happy", (), "single vote"))
    assert other.user != prompt.user
    # and told how to meet it: comfort for a loss, shared joy for good news (not "sorry to hear that")
    assert "comfort them" in prompt.user and "be glad with them" in other.user


@pytest.mark.parametrize("k", [0, 1, 3])
def test_k_shot_examples_exclude_the_query(k):
    pool = list(example_pool())
    query_dialogue = pool[1]                      # the same conversation as QUERY
    chosen = sample_examples(pool, k, QUERY, query_dialogue.conversation_id, seed=7)
    assert len(chosen) == k
    assert all(d.conversation_id != query_dialogue.conversation_id for d in chosen)
    # even without an id, a conversation whose last turn is the query is excluded
    for seed in range(20):
        assert query_dialogue not in sample_examples(pool, 3, QUERY, "", seed=seed)


def test_k_shot_examples_are_the_sampled_dialogues_with_their_own_gold():
    pool = list(example_pool())
    chosen = sample_examples(pool, 3, QUERY, "00002", seed=3)
    request = UnderstandingRequest(history=QUERY.history, examples=chosen)
    prompt = emotion_prompt(request).user
    for example in chosen:
        assert example.turns[-1].history[-1].utterance in prompt
        assert f"The emotion of the Speaker: {example.turns[-1].speaker_emotion}" in prompt
    reply = reply_prompt(request, EmotionResult("sad", "sad", (), "")).user
    assert all(example.turns[-1].response in reply for example in chosen)


def test_k_shot_rejects_other_counts():
    with pytest.raises(ValueError):
        sample_examples(list(example_pool()), 2)


@pytest.mark.parametrize("raw,label,how", [
    ("sad", "sad", "exact"), (" Terrified. ", "terrified", "exact"),
    ("The speaker feels lonely and sad.", "lonely", "word"), ("I think: worried", "anxious", "word"),
    ("sadness", "sad", "word"), ("no idea", "neutral", "fallback"), ("", "neutral", "fallback"),
])
def test_parse_emotion(raw, label, how):
    parsed = parse_emotion(raw)
    assert (parsed.label, parsed.how, parsed.raw) == (label, how, raw)


def test_clean_reply_strips_tags_and_bounds_length():
    assert clean_reply('Listener: "I am so sorry."', 100) == "I am so sorry."
    assert clean_reply("The Speaker: That sounds hard.", 100) == "That sounds hard."
    assert clean_reply("I hear you.\nSpeaker: thanks", 100) == "I hear you."
    long = "This is a sentence. " * 50
    cut = clean_reply(long, 100)
    assert len(cut) <= 100 and cut.endswith(".")


def _v(voter, label, weight=1.0, top=()):
    return Vote(voter=voter, modality="text", label=label, confidence=0.5, top=top, weight=weight)


PRIORITY = {"ola": 0, "qwen": 1, "text": 2, "face": 3, "voice": 4}


def test_fine_majority_wins_at_equal_weights():
    result = decide([_v("ola", "sad"), _v("text", "sad"), _v("face", "happy")], PRIORITY)
    assert (result.fine, result.coarse, result.decided_by) == ("sad", "sad", "weighted vote")
    assert len(result.votes) == 3


def test_weights_and_probabilities_decide_not_the_head_count():
    # two light votes for sad lose to one heavy vote for happy
    votes = [_v("text", "sad", 0.4), _v("voice", "sad", 0.4), _v("face", "happy", 1.0)]
    assert tally(votes) == pytest.approx({"sad": 0.4, "happy": 0.5})
    assert decide(votes, PRIORITY).fine == "happy"
    # second choices count: lonely is no voter's first label, but both rank it high
    head = _v("text", "sad", top=(("sad", 0.40), ("lonely", 0.35), ("guilty", 0.05)))
    other = _v("qwen", "nostalgic", top=(("nostalgic", 0.45), ("lonely", 0.40), ("sad", 0.01)))
    result = decide([head, other], PRIORITY)
    assert (result.fine, result.decided_by) == ("lonely", "weighted vote")
    # a zero weight silences a voter
    assert decide([_v("text", "sad", 0.0), _v("face", "happy", 0.1)], PRIORITY).fine == "happy"


def test_fine_tie_broken_by_coarse_total():
    # lonely and joyful tie at fine level, but sad-family mass is larger than happy-family mass
    votes = [_v("face", "joyful"), _v("text", "lonely"), _v("voice", "guilty")]
    assert decide(votes, PRIORITY).fine == "lonely"   # coarse leaves lonely/guilty; text outranks voice
    votes = [_v("ola", "joyful"), _v("qwen", "joyful"), _v("text", "lonely"), _v("face", "lonely"),
             _v("voice", "sad")]
    result = decide(votes, PRIORITY)
    assert result.fine == "lonely" and result.decided_by == "tie broken by coarse-class total"


def test_remaining_tie_broken_by_voter_priority_then_neutral():
    result = decide([_v("face", "happy"), _v("ola", "sad")], PRIORITY)
    assert result.fine == "sad" and result.decided_by == "tie broken by voter priority"
    unknown = decide([_v("x", "happy"), _v("y", "sad")], {})
    assert unknown.fine == "neutral" and unknown.decided_by == "unbroken tie: neutral"


def test_single_vote_and_no_votes():
    assert decide([_v("face", "happy", 0.2)], PRIORITY).decided_by == "single vote"
    result = decide([], PRIORITY)
    assert result.fine == "neutral" and result.votes == ()


def test_clean_sentences_release_whole_cleaned_sentences():
    raw = ['Listener', ': "I am so sorry', '. Losing a job is hard', '! Do you want to talk', '? I am here',
           ' for you. And one more', ' sentence.']
    pieces = list(clean_sentences(iter(raw), 360, max_sentences=3))
    assert "".join(pieces) == 'I am so sorry. Losing a job is hard! Do you want to talk?'
    assert all(piece.rstrip()[-1] in ".!?" for piece in pieces)
    assert "".join(clean_sentences(iter(raw), 360, max_sentences=9)) == clean_reply("".join(raw), 360)


def _text_vote(voter: str, weight: float, *top: tuple[str, float]) -> Vote:
    return Vote(voter, "text", top[0][0], top[0][1], top=top, weight=weight)


def test_side_share_gives_each_voter_its_weight_however_sure_it_is():
    sure = _text_vote("MiniLM head", 1.0, ("impressed", 0.9), ("proud", 0.05), ("surprised", 0.05))
    flat = _text_vote("word head", 1.0, ("annoyed", 0.1), ("angry", 0.06), ("prepared", 0.04))
    angry = {"annoyed", "angry", "furious"}.__contains__
    assert side_share([sure, flat], angry) == pytest.approx((0 + 0.16 / 0.2) / 2)
    assert side_share([sure, replace(flat, weight=0.0)], angry) == 0 and side_share([], angry) == 0
    # the tally, by contrast, is the sure voter's
    assert decide([sure, flat], PRIORITY).fine == "impressed"


def test_a_vote_torn_between_cheer_and_grievance_gets_a_hedging_stance():
    sure = _text_vote("MiniLM head", 1.0, ("impressed", 0.52), ("surprised", 0.29), ("proud", 0.08))
    annoyed = _text_vote("word head", 0.8, ("prepared", 0.1), ("annoyed", 0.08), ("guilty", 0.07))
    angry = _text_vote("MiniLM situations", 0.3, ("proud", 0.2), ("angry", 0.18), ("furious", 0.14))
    torn = decide([sure, annoyed, angry], PRIORITY)
    assert torn.fine == "impressed" and LISTENER_STANCE["impressed"].cheer
    assert side_share(torn.votes, lambda label: not LISTENER_STANCE[label].cheer) >= HEDGE_SHARE
    stance = listener_stance(torn)
    assert stance is STANCES["acknowledge"] and not stance.cheer and not stance.condolences
    # agreeing voters keep the winner's stance
    agreed = decide([sure, _text_vote("word head", 0.8, ("proud", 0.5), ("joyful", 0.2), ("impressed", 0.1))],
                    PRIORITY)
    assert listener_stance(agreed) is LISTENER_STANCE["impressed"]
    assert listener_stance(EmotionResult("sad", "sad", (), "")) is LISTENER_STANCE["sad"]
