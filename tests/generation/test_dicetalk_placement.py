"""DICE-Talk's CUDA placement, checked on PyTorch's meta device under CUDA's rules (support.meta_device)."""
import numpy as np
import pytest
import torch
from support.meta_device import META, CudaRules, meta, placed

from e3rg_core.generation.dicetalk.interpolation import doubled_frame_rate
from e3rg_core.generation.dicetalk.portrait import PreparedPortrait
from e3rg_core.generation.dicetalk.sampler import WINDOW_FRAMES, SamplerSettings, sample_latents
from e3rg_core.generation.dicetalk.speech_features import SAMPLES_PER_UNIT, UNITS_PER_FRAME
from e3rg_core.generation.dicetalk.tiny import TINY_SHORT_SIDE, tiny_pipeline

pytestmark = pytest.mark.usefixtures("one_torch_thread")


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
