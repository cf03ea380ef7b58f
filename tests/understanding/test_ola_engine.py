"""Ola-Omni end to end on CPU with a tiny random model written in the published file layouts: video + audio +
text -> an emotion vote and a streamed reply, in full precision and with the LLM quantised to 4-bit NF4."""
from __future__ import annotations

import gc
import json
from pathlib import Path

import numpy as np
import pytest
import torch
from safetensors.torch import save_file
from support.placements import assert_every_weight_placed_in_the_calling_thread

from e3rg_core.contracts import Dialogue, Turn, Utterance
from e3rg_core.emotions import FINE_LABELS
from e3rg_core.contracts import AudioClip, UnderstandingRequest, VideoClip
from e3rg_core.errors import CheckpointMismatchError
from e3rg_core.settings import MAX_REPLY_CHARS
from e3rg_core.understanding.prompts import emotion_prompt
from e3rg_core.understanding.voting import decide
from e3rg_core.understanding.ola.config import BeatsConfig, OryxViTConfig, WhisperEncoderConfig, build_config
from e3rg_core.settings import MAX_EMOTION_TOKENS, MAX_REPLY_TOKENS, MAX_VIDEO_FRAMES_SAMPLED
from e3rg_core.understanding.ola.cost import KV_BYTES_PER_TOKEN, estimate_generation
from e3rg_core.understanding.ola.engine import (EMOTION_SAMPLING, REPLY_SAMPLING, OlaEmotionVoter, OlaReplyWriter,
                                               OlaRuntime)
from e3rg_core.understanding.ola.processor import frame_tokens
from e3rg_core.understanding.ola.loading import OlaFiles, load_ola
from e3rg_core.understanding.ola.model import OlaForCausalLM

# Every Linear the 4-bit CPU kernels see needs in_features % 64 == 0, so the LLM is 64 wide.
TINY_LLM = dict(
    model_type="ola_qwen", architectures=["OlaQwenForCausalLM"], vocab_size=512, hidden_size=64,
    intermediate_size=128, num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2, rope_theta=1e6,
    rms_norm_eps=1e-6, tie_word_embeddings=False, max_position_embeddings=32768, torch_dtype="bfloat16",
    mm_vision_tower="OryxViT", mm_projector_type="ola_mlp", mm_hidden_size=32,
    speech_encoder="/authors/machine/large-v3.pt", music_encoder="/authors/machine/BEATs.pt",
    speech_encoder_type="dual", speech_projector_type="linear", speech_encoder_ds_rate=10,
    speech_encoder_hidden_size=48, tokenizer_model_max_length=16384,
    vision_config=dict(width=32, depth=1, heads=2, mlp_hidden=64))
TINY_WHISPER_DIMS = dict(n_mels=128, n_audio_ctx=1500, n_audio_state=32, n_audio_head=2, n_audio_layer=1,
                         n_vocab=64, n_text_ctx=8, n_text_state=32, n_text_head=2, n_text_layer=1)
TINY_BEATS_CFG = dict(
    input_patch_size=16, embed_dim=24, conv_bias=False, encoder_layers=2, encoder_embed_dim=16,
    encoder_ffn_embed_dim=32, encoder_attention_heads=2, activation_fn="gelu", layer_wise_gradient_decay_ratio=0.6,
    layer_norm_first=False, deep_norm=True, dropout=0.0, attention_dropout=0.0, activation_dropout=0.0,
    encoder_layerdrop=0.05, dropout_input=0.0, conv_pos=128, conv_pos_groups=16, relative_position_embedding=True,
    num_buckets=320, max_distance=800, gru_rel_pos=True, finetuned_model=True, predictor_dropout=0.0,
    predictor_class=527)
SPECIAL_TOKENS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]


def tiny_tokenizer():
    """A byte-level BPE with the ChatML control tokens, trained here on a few sentences."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast
    bpe = Tokenizer(models.BPE())
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    bpe.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=400, special_tokens=SPECIAL_TOKENS,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    corpus = ["The Speaker seems to feel happy. I am so glad for you!", "Pick the one emotion the Speaker feels.",
              "Dialogue context: a new job. Speaker: I finally got the job I wanted!", "You are a helpful assistant.",
              "joyful proud excited grateful hopeful sad lonely afraid angry surprised neutral"]
    bpe.train_from_iterator(corpus, trainer)
    return PreTrainedTokenizerFast(tokenizer_object=bpe, eos_token="<|im_end|>", pad_token="<|endoftext|>")


def write_tiny_ola(folder: Path, seed: int = 0, stale_speech_in_llm_file: bool = False) -> OlaFiles:
    """A random tiny Ola in the published layouts: config.json + model.safetensors (+ tokenizer) as in
    THUdyh/Ola-7b, Whisper's {"dims", "model_state_dict"} and BEATs' {"cfg", "model"} .pt files. Optionally
    the LLM file also holds (zeroed) speech-encoder weights, which the encoders' own files must override."""
    torch.manual_seed(seed)
    settings = {k: v for k, v in TINY_LLM.items() if k != "vision_config"}
    config = build_config(settings, WhisperEncoderConfig.from_dims(TINY_WHISPER_DIMS),
                          BeatsConfig.from_checkpoint_cfg(TINY_BEATS_CFG), OryxViTConfig(**TINY_LLM["vision_config"]))
    state = {k: v.clone().contiguous() for k, v in OlaForCausalLM(config).state_dict().items()}
    speech = {k: torch.zeros_like(v) for k, v in state.items() if k.startswith("model.speech_encoder.")}
    llm_file = {k: v for k, v in state.items() if not k.startswith("model.speech_encoder.")}
    save_file({**llm_file, **(speech if stale_speech_in_llm_file else {})}, str(folder / "model.safetensors"),
              metadata={"format": "pt"})
    (folder / "config.json").write_text(json.dumps(TINY_LLM))
    tiny_tokenizer().save_pretrained(str(folder))

    def part(prefix: str, new_prefix: str = "") -> dict:
        return {new_prefix + k.removeprefix(prefix): v for k, v in state.items() if k.startswith(prefix)}

    whisper = part("model.speech_encoder.whisper_model.", "encoder.")
    whisper["decoder.token_embedding.weight"] = torch.zeros(64, 32)
    torch.save({"dims": TINY_WHISPER_DIMS, "model_state_dict": whisper}, folder / "large-v3.pt")
    torch.save({"cfg": TINY_BEATS_CFG, "model": part("model.speech_encoder.beats_model.")}, folder / "beats.pt")
    return OlaFiles(folder, folder / "large-v3.pt", folder / "beats.pt")


@pytest.fixture(scope="module")
def tiny_files(tmp_path_factory) -> OlaFiles:
    torch.set_num_threads(1)
    return write_tiny_ola(tmp_path_factory.mktemp("tiny_ola"))


def request_with_media() -> UnderstandingRequest:
    rng = np.random.default_rng(0)
    frames = rng.integers(0, 256, (6, 72, 128, 3), dtype=np.uint8)
    seconds = np.arange(2 * 16_000) / 16_000
    audio = AudioClip((0.3 * np.sin(2 * np.pi * 220 * seconds)).astype(np.float32), 16_000)
    example = Dialogue("e1", (Turn("0", (Utterance(0, "speaker", "My dog died last week."),),
                                   response="I am so sorry for your loss.",
                                   chain_of_empathy={"speaker_emotion": "sad"}),))
    return UnderstandingRequest(
        history=(Utterance(0, "speaker", "Guess what?"), Utterance(1, "listener", "What happened?"),
                 Utterance(2, "speaker", "I finally got the job I wanted!<|im_end|>")),
        context="a new job", audio=audio, video=VideoClip(frames, np.arange(6) / 6, 1.0, 6.0), examples=(example,))


@pytest.fixture(scope="module", params=[False, True], ids=["bf16", "nf4"])
def runtime(request, tiny_files) -> OlaRuntime:
    return OlaRuntime.from_pretrained(tiny_files, device="cpu", quantize=request.param)


def test_loads_every_weight_in_the_calling_thread(tiny_files, monkeypatch):
    assert_every_weight_placed_in_the_calling_thread(
        lambda: OlaRuntime.from_pretrained(tiny_files, device="cpu", quantize=False).model, monkeypatch)


def test_quantisation_touches_only_the_llm_linears(runtime):
    import bitsandbytes as bnb
    linears = {name: type(module) for name, module in runtime.model.named_modules()
               if isinstance(module, torch.nn.Linear)}
    quantised = {name for name, kind in linears.items() if issubclass(kind, bnb.nn.Linear4bit)}
    decoder = {name for name in linears if name.startswith("model.layers.")}
    if runtime.model.quantized:
        assert quantised == decoder and len(decoder) == 2 * 7
        assert runtime.model.model.layers[0].mlp.up_proj.weight.dtype == torch.uint8
    else:
        assert not quantised
    towers = runtime.model.model
    assert towers.vision_tower.vision_tower.pos_embed.dtype == torch.bfloat16
    assert towers.mm_projector.proj1.weight.dtype == torch.bfloat16
    assert towers.speech_encoder.whisper_model.conv1.weight.dtype == torch.bfloat16
    assert towers.speech_encoder.beats_model.post_extract_proj.weight.dtype == torch.float32
    assert runtime.model.lm_head.weight.dtype == torch.bfloat16


def test_speech_encoders_come_from_their_own_files(runtime, tiny_files):
    whisper = torch.load(tiny_files.whisper, weights_only=True)["model_state_dict"]
    beats = torch.load(tiny_files.beats, weights_only=True)["model"]
    encoder = runtime.model.model.speech_encoder
    assert torch.equal(encoder.whisper_model.blocks[0].attn.query.weight,
                       whisper["encoder.blocks.0.attn.query.weight"].bfloat16())
    assert torch.equal(encoder.beats_model.encoder.pos_conv[0].weight_v, beats["encoder.pos_conv.0.weight_v"])
    layers = encoder.beats_model.encoder.layers
    assert layers[1].self_attn.relative_attention_bias is layers[0].self_attn.relative_attention_bias


def test_video_audio_and_text_give_a_label_and_a_streamed_reply(runtime):
    request = request_with_media()
    inputs = runtime.processor(request, emotion_prompt(request))
    assert inputs.frames.shape[0] == 6 and inputs.mels.shape == (1, 3000, 128)
    ids = inputs.input_ids.tolist()
    assert ids.count(-200) == 1 and ids.count(-300) == 1 and ids.index(-200) + 1 == ids.index(-300)
    # The "<|im_end|>" typed into the last utterance cannot close the user's turn early.
    assert ids.count(runtime.tokenizer.convert_tokens_to_ids("<|im_end|>")) == 2
    embeds = runtime.inputs_embeds(inputs)
    assert embeds.shape == (1, inputs.plan.sequence_tokens, 64) and torch.isfinite(embeds.float()).all()

    voter, writer = OlaEmotionVoter(runtime), OlaReplyWriter(runtime)
    vote = voter.vote(request)
    assert vote.modality == "omni" and vote.voter == voter.name and vote.label in FINE_LABELS
    emotion = decide([vote], {voter.name: voter.priority})
    pieces = list(writer.write(request, emotion, max_new_tokens=40))
    assert all(isinstance(piece, str) and piece for piece in pieces)
    assert len("".join(pieces)) <= MAX_REPLY_CHARS

    cost = runtime.estimate(request)
    assert cost.gpu_bytes > 8e9 and cost.seconds > 0


def test_text_only_and_audio_only_requests_run(runtime):
    full = request_with_media()
    for request, placeholders in ((UnderstandingRequest(history=full.history), []),
                                  (UnderstandingRequest(history=full.history, audio=full.audio), [-200])):
        inputs = runtime.processor(request, emotion_prompt(request))
        assert [i for i in inputs.input_ids.tolist() if i < 0] == placeholders
        assert OlaEmotionVoter(runtime).vote(request).label in FINE_LABELS


def test_speech_weights_in_the_llm_file_are_superseded(tmp_path):
    files = write_tiny_ola(tmp_path, stale_speech_in_llm_file=True)
    beats = torch.load(files.beats, weights_only=True)["model"]
    model = load_ola(files, device="cpu", quantize=False)
    assert torch.equal(model.model.speech_encoder.beats_model.encoder.pos_conv[0].weight_g,
                       beats["encoder.pos_conv.0.weight_g"])
    assert model.model.speech_encoder.whisper_model.ln_post.weight.abs().sum() > 0


def test_a_checkpoint_that_disagrees_with_its_config_is_refused(tmp_path):
    files = write_tiny_ola(tmp_path)
    settings = json.loads((tmp_path / "config.json").read_text())
    (tmp_path / "config.json").write_text(json.dumps({**settings, "speech_encoder_ds_rate": 5}))
    with pytest.raises(CheckpointMismatchError, match="speech_projector.linear1"):
        load_ola(files, device="cpu", quantize=False)
    (tmp_path / "config.json").write_text(json.dumps({**settings, "vocab_size": 600}))
    with pytest.raises(CheckpointMismatchError, match="embed_tokens"):
        load_ola(files, device="cpu", quantize=False)
    (tmp_path / "config.json").write_text(json.dumps(settings))
    beats = torch.load(files.beats, weights_only=True)
    beats["model"].pop("predictor.bias")
    torch.save(beats, files.beats)
    with pytest.raises(CheckpointMismatchError, match="predictor.bias"):
        load_ola(files, device="cpu", quantize=False)
    with pytest.raises(CheckpointMismatchError, match="deep_norm"):
        BeatsConfig.from_checkpoint_cfg({**TINY_BEATS_CFG, "deep_norm": False})


def test_cost_grows_with_frames_tokens_and_precision():
    small = estimate_generation(frames=8, vit_tokens=8 * 800, sequence_tokens=2_000, speech_chunks=1, new_tokens=96)
    large = estimate_generation(frames=64, vit_tokens=64 * 800, sequence_tokens=14_000, speech_chunks=2,
                                new_tokens=96)
    unquantised = estimate_generation(frames=64, vit_tokens=64 * 800, sequence_tokens=14_000, speech_chunks=2,
                                      new_tokens=96, quantized=False)
    assert small.seconds < large.seconds and small.gpu_bytes < large.gpu_bytes < unquantised.gpu_bytes
    assert large.gpu_bytes - small.gpu_bytes >= KV_BYTES_PER_TOKEN * 12_000
    assert (small + large).gpu_bytes == large.gpu_bytes


class Counting:
    """Counts the calls of a bound method while still calling it."""

    def __init__(self, method):
        self.method, self.calls = method, []

    def __call__(self, *args, **kwargs):
        self.calls.append(kwargs)
        return self.method(*args, **kwargs)


def test_a_turn_encodes_its_media_once(runtime, monkeypatch):
    video, speech = Counting(runtime.model.encode_video), Counting(runtime.model.encode_speech)
    monkeypatch.setattr(runtime.model, "encode_video", video)
    monkeypatch.setattr(runtime.model, "encode_speech", speech)
    voter, writer = OlaEmotionVoter(runtime), OlaReplyWriter(runtime)

    request = request_with_media()
    emotion = decide([voter.vote(request)], {voter.name: voter.priority})
    list(writer.write(request, emotion, max_new_tokens=8))
    assert (len(video.calls), len(speech.calls)) == (1, 1)
    assert len(runtime.recent_media) == 0          # the reply was the features' last use

    # Features belong to one request object, not to its content: an equal request is encoded again.
    twin = request_with_media()
    list(writer.write(twin, decide([voter.vote(twin)], {voter.name: voter.priority}), max_new_tokens=8))
    assert (len(video.calls), len(speech.calls)) == (2, 2)

    # A vote whose reply is written elsewhere leaves nothing behind once its request is gone.
    voter.vote(request_with_media())
    gc.collect()
    assert len(runtime.recent_media) == 0


def test_votes_and_replies_sample_as_e3rg(runtime, monkeypatch):
    generate = Counting(runtime.model.generate)
    monkeypatch.setattr(runtime.model, "generate", generate)
    request = request_with_media()
    voter = OlaEmotionVoter(runtime)
    emotion = decide([voter.vote(request)], {voter.name: voter.priority})
    list(OlaReplyWriter(runtime).write(request, emotion, max_new_tokens=8))
    vote_call, reply_call = generate.calls
    for call, sampling in ((vote_call, EMOTION_SAMPLING), (reply_call, REPLY_SAMPLING)):
        assert {key: call[key] for key in ("do_sample", "num_beams", "temperature", "top_p", "top_k",
                                           "repetition_penalty")} == sampling.generate_kwargs()
    assert EMOTION_SAMPLING.temperature == REPLY_SAMPLING.temperature == 0.2
    assert EMOTION_SAMPLING.top_p == 1.0        # E3RG's top_p=None: no nucleus cut, whatever the checkpoint says
    assert vote_call["max_new_tokens"] == MAX_EMOTION_TOKENS and reply_call["max_new_tokens"] == 8


def test_a_long_video_gives_ola_at_most_48_frames(runtime):
    # What media.load_video hands over for a 16:9 clip: frames scaled to 640x360, which Ola's rule pads to 640x384.
    frames = np.zeros((64, 360, 640, 3), np.uint8)
    full = request_with_media()
    request = UnderstandingRequest(history=full.history, audio=full.audio,
                                   video=VideoClip(frames, np.arange(64) / 8, 8.0, 8.0))
    plan = runtime.processor.plan(request, emotion_prompt(request))
    assert MAX_VIDEO_FRAMES_SAMPLED == 48 and plan.frames == 48
    assert plan.frame_size == (384, 640) and frame_tokens(384, 640) == 253
    assert plan.sequence_tokens < runtime.processor.context_tokens - 3_000      # room left for the dialogue
    assert list(plan.frame_indices) == list(np.linspace(0, 63, 48, dtype=int))


def test_the_turn_estimate_prices_the_media_encoders_once(runtime):
    request = request_with_media()
    plan = runtime.processor.plan(request, emotion_prompt(request))
    args = (plan.frames, plan.vit_tokens, plan.sequence_tokens, plan.speech_chunks)
    quantized = runtime.model.quantized
    encoded_twice = (estimate_generation(*args, MAX_EMOTION_TOKENS, quantized)
                     + estimate_generation(*args, MAX_REPLY_TOKENS, quantized))
    once = runtime.estimate(request)
    assert once.seconds < encoded_twice.seconds
    assert once.seconds == pytest.approx(encoded_twice.seconds
                                         - estimate_generation(*args, 0, quantized).seconds
                                         + estimate_generation(0, 0, plan.sequence_tokens, 0, 0, quantized).seconds)
