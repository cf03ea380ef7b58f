"""A miniature DICE-Talk pipeline with random weights: every real component at toy width, for CPU tests and
benchmarks of the machinery (portrait preparation, whisper windows, sampler, VAE, RIFE, muxing)."""
from __future__ import annotations

import torch

from .audio_projection import AudioProjection, AudioProjectionConfig
from .emotion_model import EmotionModel, EmotionModelConfig
from .interpolation import FrameInterpolator
from .pipeline import DiceTalkPipeline, ReferenceEncoder
from .pose_guider import PoseGuider, PoseGuiderConfig
from .speech_features import SpeechEncoder
from .unet import DiceTalkUNet

TINY_SHORT_SIDE = 64        # generation size (latents 8x8)
TINY_WIDTH = 16             # cross-attention width
# SVD-xt's scheduler/scheduler_config.json, so a tiny pipeline needs nothing from the hub.
SVD_XT_SCHEDULER_CONFIG = {
    "beta_end": 0.012, "beta_schedule": "scaled_linear", "beta_start": 0.00085, "clip_sample": False,
    "interpolation_type": "linear", "num_train_timesteps": 1000, "prediction_type": "v_prediction",
    "set_alpha_to_one": False, "sigma_max": 700.0, "sigma_min": 0.002, "skip_prk_steps": True,
    "steps_offset": 1, "timestep_spacing": "leading", "timestep_type": "continuous", "trained_betas": None,
    "use_karras_sigmas": True}


def tiny_pipeline(seed: int = 0, device: str | torch.device = "cpu",
                  dtype: torch.dtype = torch.float32) -> DiceTalkPipeline:
    """Placed and typed as DiceTalkPipeline.from_pretrained places the real models."""
    from diffusers import AutoencoderKLTemporalDecoder
    from transformers import CLIPVisionConfig, CLIPVisionModelWithProjection, WhisperConfig, WhisperFeatureExtractor
    from transformers.models.clip.image_processing_pil_clip import CLIPImageProcessorPil
    from transformers.models.whisper.modeling_whisper import WhisperEncoder
    torch.manual_seed(seed)
    vae = AutoencoderKLTemporalDecoder(block_out_channels=(32, 32, 32, 32), layers_per_block=1,
                                       down_block_types=("DownEncoderBlock2D",) * 4)
    whisper = WhisperEncoder(WhisperConfig(d_model=8, encoder_layers=1, encoder_attention_heads=2,
                                           encoder_ffn_dim=16, num_mel_bins=80, max_source_positions=1500))
    return DiceTalkPipeline(
        unet=DiceTalkUNet(block_out_channels=(32, 64), layers_per_block=1, cross_attention_dim=TINY_WIDTH,
                          down_block_types=("CrossAttnDownBlockSpatioTemporal", "DownBlockSpatioTemporal"),
                          up_block_types=("UpBlockSpatioTemporal", "CrossAttnUpBlockSpatioTemporal"),
                          num_attention_heads=(2, 4), addition_time_embed_dim=8,
                          projection_class_embeddings_input_dim=24),
        vae=vae, reference_encoder=ReferenceEncoder(vae),
        image_encoder=CLIPVisionModelWithProjection(CLIPVisionConfig(
            hidden_size=16, intermediate_size=32, num_hidden_layers=1, num_attention_heads=2, image_size=224,
            patch_size=32, projection_dim=TINY_WIDTH)),
        clip_processor=CLIPImageProcessorPil(),
        pose_guider=PoseGuider(PoseGuiderConfig(conditioning_embedding_channels=32, block_out_channels=(4, 8, 8, 16))),
        audio_projection=AudioProjection(AudioProjectionConfig(blocks=2, channels=8, intermediate_dim=16,
                                                               output_dim=TINY_WIDTH, context_tokens=4)),
        emotion_model=EmotionModel(EmotionModelConfig(width=TINY_WIDTH, intermediate_dim=8, context_tokens=4,
                                                      codebook_size=6, num_heads=4, classifier_input_dim=8)),
        speech_encoder=SpeechEncoder(WhisperFeatureExtractor(), whisper),
        interpolator=FrameInterpolator(width=8),
        scheduler_config=SVD_XT_SCHEDULER_CONFIG).to(device, dtype)
