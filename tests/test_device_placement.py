"""The ports' CUDA placement, checked without a GPU: the tiny models run on PyTorch's meta device.

A tensor made inside a forward without device= (torch.arange(n), torch.zeros(...), torch.tensor(...)) lands on the
CPU. The CPU tests cannot notice; on CUDA it fails. A meta tensor sits on a device other than the CPU and holds no
data, so it takes CUDA's part for free: each model is placed on "meta" in the dtypes its loader gives the real one on
CUDA, inputs arrive as the engines hand them over (CPU tensors or numpy arrays where the port moves them itself), and
the forwards run with nothing computed.

Meta enforces CUDA's device rule only in elementwise ops (a CPU tensor beside a meta one raises; a 0-dim CPU scalar
passes, as on CUDA). Matmuls, convolutions, embeddings, gathers and indexing take mixed devices and dtypes on meta
without complaint, so the forwards run under CudaRules, which applies CUDA's checks to every op.

Code that needs tensor values (.item(), .tolist(), nonzero) cannot run on meta; where a forward holds such a step,
the test runs the modules around it and says what was left out.
"""
from __future__ import annotations

import numpy as np
import pytest
import torch
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils._pytree import tree_leaves

from e3rg_core.contracts import Utterance
from e3rg_core.contracts import AudioClip, UnderstandingRequest, VideoClip
from e3rg_core.generation.dicetalk.interpolation import doubled_frame_rate
from e3rg_core.generation.dicetalk.portrait import PreparedPortrait
from e3rg_core.generation.dicetalk.sampler import WINDOW_FRAMES, SamplerSettings, sample_latents
from e3rg_core.generation.dicetalk.speech_features import SAMPLES_PER_UNIT, UNITS_PER_FRAME
from e3rg_core.generation.dicetalk.tiny import TINY_SHORT_SIDE, tiny_pipeline
from e3rg_core.generation.openvoice.config import BaseSpeakerConfig, ConverterConfig
from e3rg_core.generation.openvoice.converter import ToneColorConverter, ToneColorConverterNet
from e3rg_core.generation.openvoice.modules import fold_weight_norm, sequence_mask
from e3rg_core.generation.openvoice.synthesizer import (NOISE_SCALE_W, BaseSpeakerNet, BaseSpeakerTTS,
                                                        monotonic_alignment)
from e3rg_core.hub_rehearsal import tiny
from e3rg_core.understanding.ola.config import BeatsConfig, OryxViTConfig, WhisperEncoderConfig, build_config
from e3rg_core.understanding.ola.model import OlaForCausalLM
from e3rg_core.understanding.qwen_omni_voter import QwenOmniVoter

pytestmark = pytest.mark.usefixtures("one_torch_thread")

META = torch.device("meta")
aten = torch.ops.aten
TRANSFERS = {aten._to_copy, aten.copy_}           # moving data between devices is what these are for
# CUDA's matmul and convolution kernels refuse operands of two dtypes; elementwise ops promote instead.
ONE_DTYPE = {aten.mm, aten.addmm, aten.bmm, aten.baddbmm, aten.convolution}


class CudaRules(TorchDispatchMode):
    """Raises where CUDA would: an op given tensors on two devices (0-dim CPU scalars aside), or a matmul or
    convolution given two dtypes. A CPU index tensor is refused too, although CUDA would copy it over: inside a
    forward that copy is a placement slip all the same."""

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        tensors = [value for value in tree_leaves((args, kwargs)) if isinstance(value, torch.Tensor)]
        devices = {str(tensor.device) for tensor in tensors if tensor.dim() > 0}
        if len(devices) > 1 and func.overloadpacket not in TRANSFERS:
            raise RuntimeError(f"{func} mixes devices {sorted(devices)}")
        dtypes = {str(tensor.dtype) for tensor in tensors}
        if len(dtypes) > 1 and func.overloadpacket in ONE_DTYPE:
            raise RuntimeError(f"{func} mixes dtypes {sorted(dtypes)}")
        return func(*args, **kwargs)


def placed(*tensors: torch.Tensor) -> set[tuple[str, torch.dtype]]:
    return {(tensor.device.type, tensor.dtype) for tensor in tensors}


def meta(*shape: int, dtype: torch.dtype = torch.float32) -> torch.Tensor:
    return torch.empty(shape, device=META, dtype=dtype)


def test_cuda_rules_refuse_what_meta_alone_lets_through():
    weight = meta(4, 3)
    torch.nn.functional.embedding(torch.arange(2), weight)      # meta's own kernels accept a CPU index
    with CudaRules(), pytest.raises(RuntimeError, match="mixes devices"):
        torch.nn.functional.embedding(torch.arange(2), weight)
    with CudaRules(), pytest.raises(RuntimeError, match="mixes dtypes"):
        meta(2, 4, dtype=torch.bfloat16) @ weight
    with CudaRules():
        assert placed(weight * torch.tensor(2.0)) == {("meta", torch.float32)}   # a CPU scalar is fine


# Ola-Omni ---------------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def ola() -> OlaForCausalLM:
    """The tiny Ola in the dtypes load_ola gives the real one: bf16 (Whisper too), BEATs fp32."""
    settings = {key: value for key, value in tiny.TINY_OLA_LLM.items() if key != "vision_config"}
    config = build_config(settings, WhisperEncoderConfig.from_dims(tiny.TINY_WHISPER_DIMS),
                          BeatsConfig.from_checkpoint_cfg(tiny.TINY_BEATS_CFG),
                          OryxViTConfig(**tiny.TINY_OLA_LLM["vision_config"]))
    with META:
        model = OlaForCausalLM(config).to(torch.bfloat16)
    model.model.speech_encoder.beats_model.float()
    return model.eval()


def test_ola_vision_tower_and_projector(ola):
    # CPU pixels, as the processor hands them over: encode_* moves them itself.
    with CudaRules():
        video = ola.encode_video(torch.zeros(3, 3, 64, 96))
        image = ola.encode_image(torch.zeros(3, 32, 64), torch.zeros(3, 64, 64))
    assert placed(video, image) == {("meta", torch.bfloat16)}


def test_ola_speech_encoders_and_projector(ola):
    # One 30 s chunk: Whisper takes exactly 3000 mel frames, BEATs the 480,000 samples themselves.
    with CudaRules():
        speech = ola.encode_speech(torch.zeros(1, 3000, 128), torch.zeros(1, 480_000))
    assert placed(speech) == {("meta", torch.bfloat16)}


def test_ola_decoder_on_spliced_features(ola):
    """merge_inputs finds its placeholders with nonzero() and tolist(), which meta cannot answer; the decoder
    gets a sequence as merge_inputs splices it: text embeddings, then the encoders' bf16 features."""
    features = meta(40, ola.config.hidden_size, dtype=torch.bfloat16)
    with CudaRules():
        text = ola.model.embed_tokens(torch.arange(6, device=ola.device))
        logits = ola(inputs_embeds=torch.cat([text, features])[None]).logits
    assert logits.shape[:2] == (1, 46)
    assert placed(logits) == {("meta", torch.bfloat16)}


# Qwen2.5-Omni voter -------------------------------------------------------------------------------------------

def test_qwen_omni_inputs_reach_the_thinker_in_its_tower_dtypes():
    """The thinker is transformers' own, and its towers read lengths with tolist(), which meta cannot answer. Ours
    are the inputs: all on the model's device, the features in the towers' dtype."""
    from transformers import Qwen2_5OmniThinkerForConditionalGeneration, WhisperFeatureExtractor
    from transformers.models.qwen2_vl.image_processing_pil_qwen2_vl import Qwen2VLImageProcessorPil
    tokenizer = tiny.tiny_bpe(tiny.OMNI_TOKENS)
    with META:
        thinker = Qwen2_5OmniThinkerForConditionalGeneration(tiny.tiny_omni_config(tokenizer))
    voter = QwenOmniVoter(thinker.to(torch.bfloat16), tokenizer,
                          WhisperFeatureExtractor(feature_size=128, sampling_rate=16_000),
                          Qwen2VLImageProcessorPil(min_pixels=56 * 56, max_pixels=28 * 28 * 16, patch_size=14,
                                                   merge_size=2, temporal_patch_size=2))
    frames = np.zeros((6, 72, 128, 3), np.uint8)
    request = UnderstandingRequest(history=(Utterance(0, "speaker", "I got the job!"),),
                                   audio=AudioClip(np.zeros(32_000, np.float32), 16_000),
                                   video=VideoClip(frames, np.arange(6) / 6, 1.0, 6.0))
    with CudaRules():
        inputs = voter.inputs(request)
    assert {tensor.device.type for tensor in inputs.values()} == {"meta"}
    assert placed(inputs["input_features"], inputs["pixel_values"]) == {("meta", torch.bfloat16)}


# OpenVoice --------------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def openvoice_configs() -> tuple[dict, dict]:
    return tiny.tiny_openvoice_configs()


@pytest.fixture(scope="module")
def base_speaker(openvoice_configs) -> BaseSpeakerTTS:
    """Placed by the engine's own wrapper, which also moves the stored (CPU) tone colours."""
    config = BaseSpeakerConfig.from_dict(openvoice_configs[0])
    with META:
        net = BaseSpeakerNet(config)
    tone_colour = torch.zeros(1, config.gin_channels, 1)
    return BaseSpeakerTTS(fold_weight_norm(net), config, tone_colour, tone_colour, device=META)


def test_openvoice_base_speaker(base_speaker):
    """infer() sizes its frame axis with int(frame_lengths.max()), a value meta cannot give; its modules run here
    one by one with a fixed frame count."""
    net, symbols, frames = base_speaker.net, 9, 20
    with CudaRules():
        g = base_speaker.style_vector("sad", 0.5)
        source = base_speaker.source_tone_color("sad", 0.5)
        ids = torch.zeros(1, symbols, dtype=torch.long, device=META)
        x, mean, _, text_mask = net.enc_p(ids, torch.tensor([symbols], device=META))
        noiseless = net.sdp(x, text_mask, g, 0.0)        # starts from zeros rather than noise
        log_durations = net.sdp(x, text_mask, g, NOISE_SCALE_W) + net.dp(x, text_mask, g)
        frame_mask = sequence_mask(torch.tensor([frames], device=META), frames)
        path = monotonic_alignment(torch.ceil(torch.exp(log_durations)), text_mask, frame_mask)
        z = net.flow(mean @ path, frame_mask, g=g, reverse=True)
        audio = net.dec(z * frame_mask, g=g)
    assert audio.shape == (1, 1, frames * base_speaker.config.audio.hop_length)
    assert placed(g, source, noiseless, audio) == {("meta", torch.float32)}


@pytest.mark.parametrize("version", ["v1", "v2"])
def test_openvoice_tone_colour_converter(openvoice_configs, version):
    """convert() ends in .cpu().numpy(); the spectrogram, tone-colour extraction and conversion run here."""
    raw = openvoice_configs[1]
    if version == "v2":     # V2 reads the content without any speaker vector (zero_g)
        raw = {**raw, "_version_": "v2", "model": {**raw["model"], "zero_g": True}}
    config = ConverterConfig.from_dict(raw)
    with META:
        net = ToneColorConverterNet(config)
    converter = ToneColorConverter(fold_weight_norm(net), config, device=META)
    speech = np.zeros(4_000, np.float32)
    with CudaRules():
        spec = converter._spectrogram(speech, converter.sample_rate)
        tone_colour = converter.extract_se([speech, speech])
        lengths = torch.tensor([spec.size(2)], device=converter.device)
        conversion = converter.net.voice_conversion(spec, lengths, tone_colour, tone_colour, tau=0.3)
    assert placed(spec, tone_colour, conversion.audio) == {("meta", torch.float32)}


# DICE-Talk --------------------------------------------------------------------------------------------------

DICETALK_FRAMES = 3


@pytest.fixture(scope="module")
def dicetalk():
    """Placed and typed as from_pretrained places the real pipeline on CUDA (fp16 with float32 islands)."""
    return tiny_pipeline(device=META, dtype=torch.float16)


@pytest.fixture(scope="module")
def conditioning(dicetalk):
    """Every conditioning model at once (VAE encoder, CLIP, whisper, audio projection, emotion model, pose
    guider), from the numpy arrays the engine passes in."""
    side = TINY_SHORT_SIDE
    portrait = PreparedPortrait(image=np.zeros((side, side, 3), np.uint8), face_mask=np.ones((side, side), np.float32),
                                clip_image=np.zeros((224, 224, 3), np.uint8))
    samples = np.zeros(DICETALK_FRAMES * UNITS_PER_FRAME * SAMPLES_PER_UNIT, np.float32)
    with CudaRules():
        return dicetalk.conditioning(portrait, samples, np.zeros(256, np.float32))


def test_dicetalk_conditioning(conditioning):
    assert conditioning.num_frames == DICETALK_FRAMES
    assert placed(conditioning.image_embedding, conditioning.pose_features) == {("meta", torch.float16)}
    assert placed(conditioning.reference_latents, conditioning.audio_tokens, conditioning.silent_audio_tokens,
                  conditioning.emotion_tokens, conditioning.neutral_emotion_tokens,
                  conditioning.face_mask) == {("meta", torch.float32)}


def test_dicetalk_emotion_retrieval(dicetalk):
    with CudaRules():
        tokens = dicetalk.emotion_model(meta(2, 256), retrieval=True)
    assert placed(tokens) == {("meta", torch.float32)}


def test_dicetalk_sampler_and_unet(dicetalk, conditioning):
    """One step: two windowed UNet calls with the adapter streams, face mask and pose features. Meta has no
    random generator, so the noise comes from the default one (render_frames seeds one on the device)."""
    with CudaRules():
        latents = sample_latents(dicetalk.unet, conditioning, SamplerSettings(steps=1), dicetalk.scheduler_config,
                                 generator=None)
    assert latents.shape == (DICETALK_FRAMES + WINDOW_FRAMES, *conditioning.reference_latents.shape)
    assert placed(latents) == {("meta", torch.float32)}


def test_dicetalk_vae_decoder_and_frame_interpolation(dicetalk):
    """_frames() ends in .cpu().numpy(); the chunked decoding and RIFE before it run here."""
    latents = meta(DICETALK_FRAMES + WINDOW_FRAMES, 4, TINY_SHORT_SIDE // 8, TINY_SHORT_SIDE // 8)
    with CudaRules():
        chunks = list(doubled_frame_rate(dicetalk._decoded(latents, DICETALK_FRAMES), dicetalk.interpolator))
    assert sum(len(chunk) for chunk in chunks) == 2 * DICETALK_FRAMES - 1
    assert placed(*chunks) == {("meta", torch.float32)}
