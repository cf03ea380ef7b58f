import pytest

from e3rg_core import emotions
from e3rg_core.contracts import GenerationSettings
from e3rg_core.emotions import (COARSE_LABELS, COARSE_TO_DICETALK_EMOTION, COARSE_TO_OPENVOICE_STYLE, EXPRESSION_MODES,
                                FINE_LABELS, FINE_TO_COARSE, LISTENER_EXPRESSIONS, MIRROR_EXPRESSIONS, OPENVOICE_STYLES,
                                Expression, as_expression, coarse_of, expression_for, normalise_label)


def test_36_fine_labels_in_prompt_order_and_8_coarse():
    assert len(FINE_LABELS) == len(set(FINE_LABELS)) == 36
    assert FINE_LABELS[:8] == COARSE_LABELS
    assert FINE_LABELS[8] == "joyful" and FINE_LABELS[-1] == "jealous"
    assert set(FINE_TO_COARSE.values()) == set(COARSE_LABELS)


def test_one_map_follows_e3rg_hit_map_on_the_disputed_labels():
    # the six labels on which upstream's two maps disagree, plus its duplicated key
    assert [coarse_of(x) for x in ("prepared", "anxious", "nostalgic", "disappointed", "devastated")] == \
        ["happy", "sad", "sad", "sad", "sad"]
    assert coarse_of("embarrassed") == "disgusted"
    assert coarse_of("jealous") == "contempt" and coarse_of("impressed") == "surprised"


def test_generation_maps_cover_every_coarse_class():
    assert set(COARSE_TO_OPENVOICE_STYLE) == set(COARSE_LABELS)
    assert set(COARSE_TO_OPENVOICE_STYLE.values()) <= set(OPENVOICE_STYLES)
    assert set(COARSE_TO_DICETALK_EMOTION) == set(COARSE_TO_DICETALK_EMOTION.values()) == set(COARSE_LABELS)


def test_normaliser_maps_avamerg_words_and_rejects_non_emotions():
    assert normalise_label("Worried") == "anxious"
    assert normalise_label(" frustrated ") == "annoyed"
    assert normalise_label("regret") == "guilty"
    assert normalise_label("fearful") == "afraid"
    assert normalise_label("SAD") == "sad"
    assert normalise_label("banana") is None
    assert normalise_label("") is None


def test_every_alias_lands_in_the_taxonomy():
    assert set(emotions._ALIASES.values()) <= set(FINE_LABELS)


def test_every_coarse_emotion_has_a_listener_and_a_mirror_expression():
    assert EXPRESSION_MODES == ("listener", "mirror") and GenerationSettings().expression_mode == "listener"
    for table in (LISTENER_EXPRESSIONS, MIRROR_EXPRESSIONS):
        assert set(table) == set(COARSE_LABELS)
        for expression in table.values():
            assert expression.openvoice_style in OPENVOICE_STYLES and 0 < expression.intensity <= 1
            assert {expression.lite_voice, expression.lite_face, expression.dicetalk_emotion} <= set(COARSE_LABELS)
            assert expression.name
    with pytest.raises(ValueError, match="expression"):
        Expression("loud", "yodelling", "neutral", "neutral", "neutral")


def test_mirror_is_e3rgs_own_mapping():
    for coarse in COARSE_LABELS:
        mirrored = expression_for(coarse, "mirror")
        assert mirrored.openvoice_style == COARSE_TO_OPENVOICE_STYLE[coarse]
        assert mirrored.dicetalk_emotion == COARSE_TO_DICETALK_EMOTION[coarse] == coarse
        assert mirrored.lite_voice == mirrored.lite_face == coarse and mirrored.intensity == 1.0
        assert as_expression(coarse) == mirrored        # a bare label is rendered as before


def test_the_listener_comforts_instead_of_mirroring():
    fear = expression_for("fear")                       # "listener" is the default
    assert fear.openvoice_style == "whispering" and fear.intensity < 1         # a gentle voice
    assert fear.dicetalk_emotion == "neutral" and fear.lite_face == "sad"      # a calm, concerned face
    assert "fear" not in (fear.lite_voice, fear.lite_face)
    sad = expression_for("sad")
    assert (sad.openvoice_style, sad.dicetalk_emotion, sad.lite_voice) == ("sad", "sad", "sad") and sad.intensity < 1
    angry = expression_for("angry")
    assert angry.openvoice_style == "default" and "angry" not in (angry.dicetalk_emotion, angry.lite_voice,
                                                                  angry.lite_face)
    assert expression_for("happy").openvoice_style == "cheerful" and expression_for("happy").lite_face == "happy"
    # The feelings a listener should not echo get a calm face from DICE-Talk.
    for coarse in ("angry", "fear", "disgusted", "contempt"):
        assert expression_for(coarse).dicetalk_emotion == "neutral" != expression_for(coarse, "mirror").dicetalk_emotion


def test_expressions_take_fine_labels_and_refuse_unknown_modes():
    assert expression_for("terrified") == expression_for("afraid") == expression_for("fear")
    assert expression_for("furious", "mirror").openvoice_style == "angry"
    with pytest.raises(ValueError, match="listener, mirror"):
        expression_for("fear", "echo")
    with pytest.raises(KeyError):
        expression_for("banana")
