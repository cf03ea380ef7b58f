"""The Qwen2.5-Omni voter on a tiny random thinker (tokenizer trained offline with `tokenizers`), loaded through
QwenOmniVoter.from_pretrained in bf16 and in 4-bit NF4, on text, audio and video."""
import json
from pathlib import Path

import numpy as np
import pytest
import torch
from safetensors.torch import load_file, save_file
from support.placements import assert_every_weight_placed_in_the_calling_thread

from e3rg_core.contracts import AudioClip, UnderstandingRequest, Utterance, VideoClip
from e3rg_core.emotions import FINE_LABELS
from e3rg_core.errors import CheckpointMismatchError, EngineUnavailableError
from e3rg_dev.hub_rehearsal import tiny
from e3rg_core.understanding.prompts import parse_emotion
from e3rg_core.understanding.qwen_omni_voter import QWEN_OMNI_REPO, VOTE_FRAMES, QwenOmniVoter

pytestmark = pytest.mark.usefixtures("one_torch_thread")


@pytest.fixture(scope="module")
def tiny_dir(tmp_path_factory) -> Path:
    return tiny.write_tiny_omni(tmp_path_factory.mktemp("tiny_omni"))


@pytest.fixture(scope="module", params=[False, True], ids=["bf16", "nf4"])
def voter(request, tiny_dir) -> QwenOmniVoter:
    return QwenOmniVoter.from_pretrained(tiny_dir, device="cpu", quantize=request.param)


def turn(audio_seconds: float = 2.0, frames: int = 6, text: str = "I finally got the job I wanted!"):
    rng = np.random.default_rng(1)
    t = np.arange(int(audio_seconds * 16_000)) / 16_000
    audio = AudioClip((0.3 * np.sin(2 * np.pi * 200 * t)).astype(np.float32), 16_000) if audio_seconds else None
    video = VideoClip(rng.integers(0, 256, (frames, 72, 128, 3), dtype=np.uint8), np.arange(frames) / frames, 1.0,
                      float(frames)) if frames else None
    return UnderstandingRequest(history=(Utterance(0, "speaker", text),), audio=audio, video=video)


@pytest.mark.parametrize("request_", [turn(), turn(audio_seconds=0), turn(frames=0), turn(0, 0)],
                         ids=["audio+video", "video", "audio", "text"])
def test_votes_a_label_of_the_taxonomy(voter, request_):
    vote = voter.vote(request_)
    assert vote.voter == "qwen2.5-omni-7b" and vote.modality == "omni" and vote.confidence is None
    assert vote.label in FINE_LABELS
    assert vote.label == parse_emotion(vote.raw).label     # the label is what its own answer parses to


def test_four_bit_quantises_only_the_language_model(voter):
    import bitsandbytes as bnb
    linears = {name: module for name, module in voter.model.named_modules() if isinstance(module, torch.nn.Linear)}
    quantised = {name for name, module in linears.items() if isinstance(module, bnb.nn.Linear4bit)}
    llm = {name for name in linears if name.startswith("model.language_model.")}
    towers = set(linears) - llm
    assert llm and all(name.startswith(("model.audio_tower.", "model.visual.", "lm_head")) for name in towers)
    if getattr(voter.model.config, "quantization_config", None) is not None:
        assert quantised == llm
        assert all(linears[name].weight.dtype == torch.uint8 for name in llm)
        assert linears["lm_head"].weight.dtype == torch.bfloat16
        assert voter.model.model.audio_tower.conv1.weight.dtype == torch.bfloat16
    else:
        assert not quantised


def test_placeholders_match_the_audio_and_the_frames(voter):
    request = turn(audio_seconds=3.0, frames=9)
    inputs = voter.inputs(request)
    ids = inputs["input_ids"][0].tolist()
    config = voter.model.config
    mel_frames = int(inputs["feature_attention_mask"].sum())
    assert mel_frames == 3.0 * 16_000 // voter.feature_extractor.hop_length
    # The audio encoder halves the frames twice (a stride-2 convolution, then stride-2 pooling).
    assert ids.count(config.audio_token_id) == ((mel_frames - 1) // 2 + 1 - 2) // 2 + 1
    grids = inputs["image_grid_thw"]
    assert len(grids) == VOTE_FRAMES
    assert ids.count(config.image_token_id) == int(grids.prod(-1).sum()) // voter.image_processor.merge_size ** 2
    assert ids.count(config.vision_start_token_id) == VOTE_FRAMES == ids.count(config.vision_end_token_id)
    assert ids.index(config.audio_start_token_id) < ids.index(config.vision_start_token_id)


def test_estimate_grows_with_what_the_voter_must_read(tiny_dir):
    voter = QwenOmniVoter.from_pretrained(tiny_dir, device="cpu", quantize=False)
    text, audio, both = voter.estimate_seconds(turn(0, 0)), voter.estimate_seconds(turn(2.0, 0)), \
        voter.estimate_seconds(turn(2.0, 6))
    assert 0 < text < audio < both
    assert voter.estimate_seconds(turn(20.0, 6)) > both       # longer audio, more tokens


def test_loads_the_official_full_model_layout(tiny_dir, tmp_path):
    """Qwen/Qwen2.5-Omni-7B keeps thinker, talker and token2wav under one composite config, the thinker's weights
    prefixed "thinker." (save_pretrained writes a thinker's keys in that layout, less the prefix)."""
    state = load_file(str(tiny_dir / "model.safetensors"))
    official = {f"thinker.{key}": value for key, value in state.items()}
    official.update({"talker.codec_head.weight": torch.zeros(4, 4), "token2wav.code_embed.weight": torch.zeros(4, 4)})
    save_file(official, str(tmp_path / "model.safetensors"), metadata={"format": "pt"})
    thinker_config = json.loads((tiny_dir / "config.json").read_text())
    (tmp_path / "config.json").write_text(json.dumps({"model_type": "qwen2_5_omni", "thinker_config": thinker_config,
                                                      "architectures": ["Qwen2_5OmniModel"]}))
    for name in tiny_dir.iterdir():
        if name.name not in ("model.safetensors", "config.json"):
            (tmp_path / name.name).write_bytes(name.read_bytes())
    direct = QwenOmniVoter.from_pretrained(tiny_dir, device="cpu", quantize=False, dtype=torch.float32)
    voter = QwenOmniVoter.from_pretrained(tmp_path, device="cpu", quantize=False, dtype=torch.float32)
    expected, loaded = direct.model.state_dict(), voter.model.state_dict()
    assert set(loaded) == set(expected)
    assert max(float((loaded[key] - expected[key]).abs().max()) for key in expected) == 0.0
    request = turn()
    torch.manual_seed(0)
    from_official = voter.vote(request)
    torch.manual_seed(0)
    assert from_official == direct.vote(request)


def test_a_checkpoint_missing_a_weight_is_refused(tiny_dir, tmp_path):
    state = load_file(str(tiny_dir / "model.safetensors"))
    dropped = next(key for key in state if key.startswith("model.layers.1."))
    save_file({k: v for k, v in state.items() if k != dropped}, str(tmp_path / "model.safetensors"),
              metadata={"format": "pt"})
    for name in tiny_dir.iterdir():
        if name.name != "model.safetensors":
            (tmp_path / name.name).write_bytes(name.read_bytes())
    with pytest.raises(CheckpointMismatchError, match="missing"):
        QwenOmniVoter.from_pretrained(tmp_path, device="cpu", quantize=False)


def test_a_tokenizer_without_the_media_tokens_is_refused(tiny_dir):
    voter = QwenOmniVoter.from_pretrained(tiny_dir, device="cpu", quantize=False)
    chat_only = tiny.tiny_bpe(tiny.CHATML_TOKENS)
    with pytest.raises(CheckpointMismatchError, match="tokenizer"):
        QwenOmniVoter(voter.model, chat_only, voter.feature_extractor, voter.image_processor)


def test_without_the_files_the_voter_is_unavailable():
    # The tests run offline (conftest) and no test machine caches the 22 GB repository.
    with pytest.raises(EngineUnavailableError, match="Qwen2.5-Omni-7B"):
        QwenOmniVoter.from_pretrained(QWEN_OMNI_REPO, device="cpu", local_files_only=True)


def test_votes_sample_as_named_not_as_the_checkpoint_says(voter, monkeypatch):
    from e3rg_core.understanding.qwen_omni_voter import VOTE_SAMPLING
    calls = []
    generate = voter.model.generate

    def recording(*args, **kwargs):
        calls.append(kwargs)
        return generate(*args, **kwargs)

    monkeypatch.setattr(voter.model, "generate", recording)
    voter.vote(turn())
    sampling = {key: calls[0][key] for key in ("do_sample", "num_beams", "temperature", "top_p", "top_k",
                                               "repetition_penalty")}
    assert sampling == VOTE_SAMPLING.generate_kwargs()
    assert VOTE_SAMPLING.temperature == 0.2 and VOTE_SAMPLING.top_p == 1.0


def test_a_large_frame_is_bounded_like_a_qwen_video_frame(voter, monkeypatch):
    from e3rg_core.understanding.qwen_omni_voter import FRAME_MAX_PIXELS, FRAME_MIN_PIXELS
    # The official processor allows photos up to 12,845,056 pixels; a video frame gets at most 768 tokens.
    monkeypatch.setitem(voter.image_processor.size, "longest_edge", 12_845_056)
    monkeypatch.setitem(voter.image_processor.size, "shortest_edge", 3_136)
    rng = np.random.default_rng(2)
    frames = rng.integers(0, 256, (2, 1080, 1920, 3), dtype=np.uint8)
    request = UnderstandingRequest(history=(Utterance(0, "speaker", "Look at this."),),
                                   video=VideoClip(frames, np.arange(2) / 2, 1.0, 2.0))
    grids = voter.inputs(request)["image_grid_thw"]
    pixels = grids[:, 1:].prod(-1) * voter.image_processor.patch_size ** 2
    assert ((FRAME_MIN_PIXELS <= pixels) & (pixels <= FRAME_MAX_PIXELS)).all()
    assert int(grids[0, 1:].prod()) // voter.image_processor.merge_size ** 2 <= 768


def test_loads_every_weight_in_the_calling_thread(tiny_dir, monkeypatch):
    assert_every_weight_placed_in_the_calling_thread(
        lambda: QwenOmniVoter.from_pretrained(tiny_dir, device="cpu", quantize=False).model, monkeypatch)
