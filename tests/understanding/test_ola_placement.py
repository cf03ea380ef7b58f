"""Ola-Omni's CUDA placement, checked on PyTorch's meta device under CUDA's rules (support.meta_device)."""
import pytest
import torch
from support.meta_device import META, CudaRules, meta, placed

from e3rg_dev.hub_rehearsal import tiny
from e3rg_core.understanding.ola.config import BeatsConfig, OryxViTConfig, WhisperEncoderConfig, build_config
from e3rg_core.understanding.ola.model import OlaForCausalLM

pytestmark = pytest.mark.usefixtures("one_torch_thread")


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
