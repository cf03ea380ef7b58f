"""The windowed sampler: Euler steps over the whole clip in 25-frame windows whose starts shift by 7 frames a step,
so seams never stay in one place (frames covered twice are averaged). Three-way guidance runs in one batch:
    eps = eps_uncond + identity_scale * (eps_image - eps_uncond) + emotion_scale * (eps_full - eps_image).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import torch
from diffusers import EulerDiscreteScheduler

from .unet import AdapterContext, DiceTalkUNet

WINDOW_FRAMES = 25          # frames per UNet call (SVD-xt's num_frames); also the length of the padding
SHIFT_PER_STEP = 7
FPS = 12.5                  # generated frame rate; 2 audio units of 25 fps per frame
MOTION_BUCKET_ID = 8
EXPRESSION_BUCKET_ID = 16   # takes SVD's noise-augmentation slot of the added time ids
ADAPTER_SCALES = (1.0, 1.0)  # audio, emotion
SCALING_FACTOR = 0.18215    # SVD-xt's VAE latent scale


@dataclass(frozen=True)
class Conditioning:
    """Everything one clip is generated from, on the UNet's device (dim = cross-attention width)."""
    reference_latents: torch.Tensor   # (4, h, w): VAE latent mean of the portrait, unscaled
    image_embedding: torch.Tensor     # (1, dim): CLIP image embedding of the portrait
    audio_tokens: torch.Tensor        # (N, tokens, dim): one token set per generated frame
    silent_audio_tokens: torch.Tensor  # (tokens, dim): the projection of an all-zero window
    emotion_tokens: torch.Tensor      # (tokens, dim)
    neutral_emotion_tokens: torch.Tensor  # (tokens, dim): the emotion model's output for a zero prior
    pose_features: torch.Tensor       # (channels, h, w): pose guider output for the face mask
    face_mask: torch.Tensor           # (1, 1, H, W): the face mask at pixel resolution

    @property
    def num_frames(self) -> int:
        return self.audio_tokens.shape[0]


@dataclass(frozen=True)
class SamplerSettings:
    steps: int = 25
    identity_scale: float = 3.0
    emotion_scale: float = 6.0


def window_frames(total_frames: int, step: int) -> list[list[int]]:
    """The frame indices of each window at a step, in order (indices wrap around total_frames)."""
    shift = (step * SHIFT_PER_STEP) % WINDOW_FRAMES
    return [[(start - shift + offset) % total_frames for offset in range(WINDOW_FRAMES)]
            for start in range(0, total_frames, WINDOW_FRAMES)]


def noise_levels(scheduler_config: Mapping, steps: int) -> tuple[torch.Tensor, torch.Tensor]:
    """SVD-xt's Karras sigmas (steps+1, ending at 0) and the matching UNet timesteps (steps)."""
    scheduler = EulerDiscreteScheduler.from_config(dict(scheduler_config))
    scheduler.set_timesteps(steps)
    return scheduler.sigmas.float(), scheduler.timesteps.float()


def combine_guidance(uncond: torch.Tensor, image_only: torch.Tensor, full: torch.Tensor,
                     identity_scale: float, emotion_scale: float) -> torch.Tensor:
    return uncond + identity_scale * (image_only - uncond) + emotion_scale * (full - image_only)


def euler_step(sample: torch.Tensor, v_prediction: torch.Tensor, sigma: float, next_sigma: float) -> torch.Tensor:
    """One Euler step of the probability-flow ODE for a v-prediction model, in float32."""
    sample, v_prediction = sample.float(), v_prediction.float()
    denoised = sample / (sigma ** 2 + 1) - v_prediction * (sigma / (sigma ** 2 + 1) ** 0.5)
    return sample + (sample - denoised) / sigma * (next_sigma - sigma)


def model_input(scaled_latents: torch.Tensor, reference_latents: torch.Tensor) -> torch.Tensor:
    """(frames, 4, h, w) scaled latents -> the (3, frames, 8, h, w) guidance batch.

    The reference latents are concatenated on channels: zeros in the uncond branch, the portrait otherwise.
    """
    frames = scaled_latents.shape[0]
    reference = reference_latents.expand(frames, -1, -1, -1)
    return torch.stack([torch.cat([scaled_latents, torch.zeros_like(reference)], dim=1),
                        torch.cat([scaled_latents, reference], dim=1),
                        torch.cat([scaled_latents, reference], dim=1)])


def _window_context(conditioning: Conditioning, frames: torch.Tensor, dtype: torch.dtype) -> AdapterContext:
    """Adapter contexts of one window; rows are branch-major, [uncond, image only, full] x frames.

    The padding frames (index >= N) get silent audio and neutral emotion in every branch.
    """
    count = frames.shape[0]
    spoken = (frames < conditioning.num_frames)[:, None, None]
    image = conditioning.image_embedding.expand(count, -1, -1)
    silent = conditioning.silent_audio_tokens.expand(count, -1, -1)
    neutral = conditioning.neutral_emotion_tokens.expand(count, -1, -1)
    audio = torch.where(spoken, conditioning.audio_tokens[frames.clamp(max=conditioning.num_frames - 1)], silent)
    emotion = torch.where(spoken, conditioning.emotion_tokens.expand(count, -1, -1), neutral)
    return AdapterContext(
        image=torch.cat([torch.zeros_like(image), image, image]).to(dtype),
        streams=(torch.cat([silent, silent, audio]).to(dtype), torch.cat([neutral, neutral, emotion]).to(dtype)),
        scales=ADAPTER_SCALES,
        face_mask=conditioning.face_mask.to(dtype))


@torch.inference_mode()
def sample_latents(unet: DiceTalkUNet, conditioning: Conditioning, settings: SamplerSettings,
                   scheduler_config: Mapping, generator: torch.Generator) -> torch.Tensor:
    """Denoised latents of the N spoken and 25 padding frames, (N+25, 4, h, w) float32, ready for the VAE.

    The padding frames are returned too: the VAE decodes in chunks with temporal layers, and the chunk that
    holds the last spoken frames also holds the first padding frames.
    """
    device, dtype = conditioning.reference_latents.device, unet.dtype
    sigmas, timesteps = noise_levels(scheduler_config, settings.steps)
    total = conditioning.num_frames + WINDOW_FRAMES
    shape = (total, *conditioning.reference_latents.shape)
    noise = torch.randn(shape, generator=generator, device=device, dtype=torch.float32)
    # Image-to-image start at full strength: the portrait's scaled latents plus noise at the largest sigma.
    latents = conditioning.reference_latents.float() * SCALING_FACTOR + noise * sigmas[0]
    reference = conditioning.reference_latents.to(dtype)
    pose = conditioning.pose_features.to(dtype)
    time_ids = torch.tensor([[FPS, MOTION_BUCKET_ID, EXPRESSION_BUCKET_ID]] * 3, device=device, dtype=dtype)

    for step, timestep in enumerate(timesteps):
        sigma, next_sigma = float(sigmas[step]), float(sigmas[step + 1])
        summed = torch.zeros_like(latents)
        counts = torch.zeros(total, 1, 1, 1, device=device)
        for window in window_frames(total, step):
            frames = torch.tensor(window, device=device)
            window_latents = latents[frames]
            scaled = (window_latents / (sigma ** 2 + 1) ** 0.5).to(dtype)
            prediction = unet(model_input(scaled, reference), timestep,
                              _window_context(conditioning, frames, dtype), time_ids, pose)
            uncond, image_only, full = prediction.float()
            guided = combine_guidance(uncond, image_only, full, settings.identity_scale, settings.emotion_scale)
            summed.index_add_(0, frames, euler_step(window_latents, guided, sigma, next_sigma))
            counts.index_add_(0, frames, torch.ones(len(window), 1, 1, 1, device=device))
        latents = summed / counts
    return latents / SCALING_FACTOR

