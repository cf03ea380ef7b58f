"""DICE-Talk inference: portrait + 16 kHz speech + emotion prior -> RGB frames at 25 fps.

The portrait is encoded once (VAE in float32, as SVD's VAE requires), the windowed sampler denoises (sampler.py), and
the VAE decodes in chunks that RIFE doubles to 25 fps. The pipeline holds only the models: each call brings its own
settings and seed.
"""
from __future__ import annotations

import copy
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

import numpy as np
import torch
from torch import nn

from .audio_projection import AudioProjection
from .checkpoints import (AUDIO_PROJECTION_WEIGHTS, DICETALK_REPO, EMOTION_MODEL_WEIGHTS, INTERPOLATOR_WEIGHTS,
                          POSE_GUIDER_WEIGHTS, SVD_REPO, SVD_SCHEDULER_CONFIG, SVD_UNET_CONFIG, UNET_WEIGHTS,
                          WHISPER_REPO, check_loading_info, fetch, load_strict, module_configs, read_state_dict,
                          snapshot_root)
from .emotion_model import EmotionModel
from .interpolation import FrameInterpolator, doubled_frame_rate
from .portrait import SHORT_SIDE, PreparedPortrait, prepare_portrait
from .pose_guider import PoseGuider
from .sampler import Conditioning, SamplerSettings, sample_latents
from .speech_features import SpeechEncoder, frame_count
from .unet import DiceTalkUNet

DECODE_CHUNK = 10           # frames per VAE decode call (the temporal decoder mixes frames within a call)
OUTPUT_FPS = 25.0
EMOTION_RETRIEVAL = False   # DICE-Talk's inference setting: attend to the whole emotion bank


def output_frame_count(num_samples: int) -> int:
    """Frames of the 25 fps video for a 16 kHz clip: N generated frames and the N-1 between them."""
    return max(2 * frame_count(num_samples) - 1, 0)


class ReferenceEncoder(nn.Module):
    """A float32 copy of the VAE's encoder half: SVD's VAE overflows encoding in half precision."""

    def __init__(self, vae: nn.Module):
        super().__init__()
        self.encoder = copy.deepcopy(vae.encoder).float()
        self.quant_conv = copy.deepcopy(vae.quant_conv).float()

    def forward(self, image: torch.Tensor) -> torch.Tensor:
        """(1, 3, H, W) image in [-1, 1] -> (4, H/8, W/8) mean of the latent distribution."""
        moments = self.quant_conv(self.encoder(image.float()))
        return moments[0, :moments.shape[1] // 2]


@dataclass(frozen=True)
class DiceTalkPipeline:
    unet: DiceTalkUNet
    vae: nn.Module                       # diffusers AutoencoderKLTemporalDecoder
    reference_encoder: ReferenceEncoder
    image_encoder: nn.Module             # transformers CLIPVisionModelWithProjection
    clip_processor: object               # transformers CLIP image processor (library defaults)
    pose_guider: PoseGuider
    audio_projection: AudioProjection
    emotion_model: EmotionModel
    speech_encoder: SpeechEncoder
    interpolator: FrameInterpolator
    scheduler_config: Mapping

    @property
    def device(self) -> torch.device:
        return self.unet.device

    def to(self, device: str | torch.device, dtype: torch.dtype) -> DiceTalkPipeline:
        """Place the models as inference runs them, in eval mode: the UNet, VAE, CLIP and pose guider in dtype;
        the reference encoder, audio projection, emotion model, whisper and RIFE in float32."""
        for module in (self.unet, self.vae, self.image_encoder, self.pose_guider):
            module.to(device, dtype).eval()
        for module in (self.reference_encoder, self.audio_projection, self.emotion_model,
                       self.speech_encoder.encoder, self.interpolator):
            module.to(device, torch.float32).eval()
        return self

    @torch.inference_mode()
    def conditioning(self, portrait: PreparedPortrait, samples: np.ndarray, prior: np.ndarray) -> Conditioning:
        device, dtype = self.device, self.unet.dtype
        image = torch.from_numpy(portrait.image).to(device).permute(2, 0, 1)[None].float() / 127.5 - 1
        pixels = self.clip_processor(images=portrait.clip_image, return_tensors="pt").pixel_values
        mask = torch.from_numpy(portrait.face_mask).to(device)[None, None]
        windows = self.speech_encoder.windows(samples)
        prior_and_zero = torch.from_numpy(np.stack([prior, np.zeros_like(prior)])).to(device)
        emotion, neutral = self.emotion_model(prior_and_zero, retrieval=EMOTION_RETRIEVAL)
        return Conditioning(
            reference_latents=self.reference_encoder(image),
            image_embedding=self.image_encoder(pixels.to(device, dtype)).image_embeds,
            audio_tokens=self.audio_projection(windows),
            silent_audio_tokens=self.audio_projection(torch.zeros_like(windows[:1]))[0],
            emotion_tokens=emotion,
            neutral_emotion_tokens=neutral,
            # The mask is the same for every frame, so the guider runs once.
            pose_features=self.pose_guider(mask.expand(-1, 3, -1, -1).to(dtype))[0],
            face_mask=mask)

    def render_frames(self, portrait: np.ndarray, samples: np.ndarray, prior: np.ndarray,
                      settings: SamplerSettings, seed: int, crop: bool = True,
                      short_side: int = SHORT_SIDE) -> Iterator[np.ndarray]:
        """(H, W, 3) uint8 frames at 25 fps for 16 kHz speech; generation happens before this returns, the
        decoding as the frames are consumed. Raises NoFaceError / InputError for an unusable portrait."""
        conditioning = self.conditioning(prepare_portrait(portrait, crop, short_side), samples, prior)
        generator = torch.Generator(self.device).manual_seed(seed)
        latents = sample_latents(self.unet, conditioning, settings, self.scheduler_config, generator)
        return self._frames(latents, conditioning.num_frames)

    def _frames(self, latents: torch.Tensor, count: int) -> Iterator[np.ndarray]:
        with torch.inference_mode():
            for chunk in doubled_frame_rate(self._decoded(latents, count), self.interpolator):
                yield from (chunk * 255 + 0.5).to(torch.uint8).permute(0, 2, 3, 1).cpu().numpy()

    def _decoded(self, latents: torch.Tensor, count: int) -> Iterator[torch.Tensor]:
        """The first `count` frames, (k, 3, H, W) float32 in [0, 1], decoded in upstream's chunks."""
        for start in range(0, count, DECODE_CHUNK):
            chunk = latents[start:start + DECODE_CHUNK].to(self.vae.dtype)
            frames = self.vae.decode(chunk, num_frames=len(chunk)).sample.float()
            yield (frames[:count - start] * 0.5 + 0.5).clamp(0, 1)

    @classmethod
    def from_pretrained(cls, device: str | torch.device = "cuda", dtype: torch.dtype = torch.float16,
                        local_files_only: bool = False) -> DiceTalkPipeline:
        """All weights from the hub (checkpoints.hub_files()), loaded strictly; the UNet, VAE, CLIP and pose
        guider run in `dtype`, the audio, emotion, whisper and RIFE models in float32."""
        from diffusers import AutoencoderKLTemporalDecoder
        from safetensors.torch import load_file
        from transformers import CLIPVisionModelWithProjection, WhisperConfig, WhisperFeatureExtractor
        from transformers.models.clip.image_processing_pil_clip import CLIPImageProcessorPil
        from transformers.models.whisper.modeling_whisper import WhisperEncoder

        paths = fetch(local_files_only)
        unet_config = json.loads(paths[SVD_REPO, SVD_UNET_CONFIG].read_text())
        whisper_root = snapshot_root(paths, WHISPER_REPO)
        whisper_config = WhisperConfig.from_pretrained(whisper_root)
        sizes = module_configs(unet_config, whisper_config)
        with torch.device("meta"):
            unet = DiceTalkUNet(**{key: value for key, value in unet_config.items() if not key.startswith("_")})
            pose_guider, audio_projection = PoseGuider(sizes.pose_guider), AudioProjection(sizes.audio_projection)
            emotion_model, interpolator = EmotionModel(sizes.emotion_model), FrameInterpolator()
        for module, name in ((unet, UNET_WEIGHTS), (pose_guider, POSE_GUIDER_WEIGHTS),
                             (audio_projection, AUDIO_PROJECTION_WEIGHTS), (emotion_model, EMOTION_MODEL_WEIGHTS),
                             (interpolator, INTERPOLATOR_WEIGHTS)):
            load_strict(module, read_state_dict(paths[DICETALK_REPO, name]), f"{DICETALK_REPO}/{name}")

        svd_root = snapshot_root(paths, SVD_REPO)
        vae, info = AutoencoderKLTemporalDecoder.from_pretrained(
            svd_root, subfolder="vae", variant="fp16", torch_dtype=torch.float32, output_loading_info=True)
        check_loading_info(info, f"{SVD_REPO} vae")
        reference_encoder = ReferenceEncoder(vae)
        image_encoder, info = CLIPVisionModelWithProjection.from_pretrained(
            svd_root, subfolder="image_encoder", variant="fp16", dtype=dtype, output_loading_info=True)
        check_loading_info(info, f"{SVD_REPO} image_encoder")

        # Only whisper's encoder is used; its weights are loaded strictly and the decoder's are skipped.
        whisper_state = load_file(whisper_root / "model.safetensors")
        prefix = "model.encoder." if any(key.startswith("model.encoder.") for key in whisper_state) else "encoder."
        with torch.device("meta"):
            encoder = WhisperEncoder(whisper_config)
        load_strict(encoder, {key.removeprefix(prefix): value for key, value in whisper_state.items()
                              if key.startswith(prefix)}, f"{WHISPER_REPO} encoder")

        return cls(unet=unet, vae=vae, reference_encoder=reference_encoder, image_encoder=image_encoder,
                   clip_processor=CLIPImageProcessorPil(), pose_guider=pose_guider,
                   audio_projection=audio_projection, emotion_model=emotion_model,
                   speech_encoder=SpeechEncoder(WhisperFeatureExtractor.from_pretrained(whisper_root), encoder),
                   interpolator=interpolator,
                   scheduler_config=json.loads(paths[SVD_REPO, SVD_SCHEDULER_CONFIG].read_text())).to(device, dtype)
