from e3rg_core import emotions
from e3rg_core.emotions import (COARSE_LABELS, COARSE_TO_DICETALK_EMOTION, COARSE_TO_OPENVOICE_STYLE, FINE_LABELS,
                                FINE_TO_COARSE, OPENVOICE_STYLES, coarse_of, normalise_label)


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
