"""DICE-Talk's denoiser: SVD-xt's spatio-temporal UNet (diffusers' modules and parameter names) with three changes:
audio and emotion key/value streams beside CLIP's in every cross-attention (masked to the face in spatial layers),
pose features added after conv_in, and temporal attention on each context's frame-average. The forward walks the
stock blocks itself: their own forwards cannot carry the streams or the mask.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import torch
import torch.nn.functional as F
from diffusers import UNetSpatioTemporalConditionModel
from diffusers.image_processor import IPAdapterMaskProcessor
from diffusers.models.attention_processor import Attention
from torch import nn

ADAPTER_STREAMS = ("audio", "emotion")   # checkpoint order: to_k_ip.0 is audio, to_k_ip.1 is emotion


@dataclass(frozen=True)
class AdapterContext:
    """What the cross-attentions of one UNet call attend to.

    Rows are batch*frames for spatial attention. `repeats` lets one context row serve that many consecutive
    query rows, which is how temporal attention shares one frame-averaged context across all positions.
    """
    image: torch.Tensor                  # (rows, 1, dim): CLIP image embedding
    streams: tuple[torch.Tensor, ...]    # per ADAPTER_STREAMS: (rows, tokens, dim)
    scales: tuple[float, ...]            # per ADAPTER_STREAMS
    face_mask: torch.Tensor | None = None   # (1, 1, H, W) at pixel resolution; masks the streams
    repeats: int = 1

    def frame_mean(self, batch: int) -> AdapterContext:
        """The unmasked context of temporal attention: every context averaged over each video's frames."""
        def mean(tokens: torch.Tensor) -> torch.Tensor:
            return tokens.reshape(batch, -1, *tokens.shape[-2:]).mean(dim=1)
        return AdapterContext(mean(self.image), tuple(mean(tokens) for tokens in self.streams), self.scales)


def _attention(attn: Attention, query: torch.Tensor, key: torch.Tensor, value: torch.Tensor,
               repeats: int) -> torch.Tensor:
    """Multi-head attention where each key/value row serves `repeats` consecutive query rows.

    The query rows sharing keys are folded into one longer sequence, which is exact (queries are
    independent) and avoids copying the keys and values `repeats` times.
    """
    rows, length, inner = query.shape
    head_dim = inner // attn.heads

    def split(tokens: torch.Tensor) -> torch.Tensor:
        return tokens.reshape(tokens.shape[0], -1, attn.heads, head_dim).transpose(1, 2)

    folded = query.reshape(rows // repeats, repeats * length, inner)
    attended = F.scaled_dot_product_attention(split(folded), split(key), split(value))
    return attended.transpose(1, 2).reshape(rows, length, inner).to(query.dtype)


class AdapterAttnProcessor(nn.Module):
    """Cross-attention over the image embedding plus one extra key/value projection per adapter stream."""

    def __init__(self, cross_attention_dim: int, hidden_size: int, num_streams: int = len(ADAPTER_STREAMS)):
        super().__init__()
        self.to_k_ip = nn.ModuleList(
            [nn.Linear(cross_attention_dim, hidden_size, bias=False) for _ in range(num_streams)])
        self.to_v_ip = nn.ModuleList(
            [nn.Linear(cross_attention_dim, hidden_size, bias=False) for _ in range(num_streams)])

    def __call__(self, attn: Attention, hidden_states: torch.Tensor,
                 encoder_hidden_states: AdapterContext, attention_mask: torch.Tensor | None = None,
                 temb: torch.Tensor | None = None) -> torch.Tensor:
        context = encoder_hidden_states
        query = attn.to_q(hidden_states)
        output = _attention(attn, query, attn.to_k(context.image), attn.to_v(context.image), context.repeats)
        mask = None
        if context.face_mask is not None:
            # (1, queries, 1): the face mask at this layer's resolution, broadcast over rows and channels.
            mask = IPAdapterMaskProcessor.downsample(context.face_mask[:, 0], 1, query.shape[1], 1)
            mask = mask.to(dtype=query.dtype, device=query.device)
        for to_k, to_v, tokens, scale in zip(self.to_k_ip, self.to_v_ip, context.streams, context.scales):
            if scale == 0:
                continue
            streamed = _attention(attn, query, to_k(tokens), to_v(tokens), context.repeats)
            output = output + scale * (streamed if mask is None else streamed * mask)
        output = attn.to_out[1](attn.to_out[0](output))
        return output / attn.rescale_output_factor


class DiceTalkUNet(UNetSpatioTemporalConditionModel):
    """Takes SVD-xt's unet/config.json values; every attn2 gets an AdapterAttnProcessor."""

    def __init__(self, **svd_config):
        super().__init__(**svd_config)
        for name, module in self.named_modules():
            if isinstance(module, Attention) and name.endswith("attn2"):
                # The processor computes plain attention; these layers must have nothing else to apply.
                if module.spatial_norm is not None or module.group_norm is not None or module.norm_cross is not None \
                        or module.residual_connection:
                    raise ValueError(f"{name} uses attention options the adapter processor does not apply")
                module.set_processor(AdapterAttnProcessor(module.to_k.in_features, module.to_k.out_features))

    def _time_embedding(self, timestep: torch.Tensor | float, added_time_ids: torch.Tensor,
                        batch: int, dtype: torch.dtype) -> torch.Tensor:
        timesteps = torch.as_tensor(timestep, device=added_time_ids.device).reshape(-1).expand(batch)
        embedding = self.time_embedding(self.time_proj(timesteps).to(dtype))
        added = self.add_time_proj(added_time_ids.flatten()).reshape(batch, -1).to(embedding.dtype)
        return embedding + self.add_embedding(added)

    def _transformer(self, transformer: nn.Module, hidden: torch.Tensor, spatial: AdapterContext,
                     temporal: AdapterContext, indicator: torch.Tensor) -> torch.Tensor:
        """diffusers' TransformerSpatioTemporalModel step by step, with the adapter contexts."""
        rows, channels, height, width = hidden.shape
        frames = indicator.shape[-1]
        residual = hidden
        hidden = transformer.norm(hidden).permute(0, 2, 3, 1).reshape(rows, height * width, channels)
        hidden = transformer.proj_in(hidden)
        frame_index = torch.arange(frames, device=hidden.device).repeat(rows // frames)
        frame_embedding = transformer.time_pos_embed(transformer.time_proj(frame_index).to(hidden.dtype))
        # Temporal attention rows are (video, position); each video's context serves all its positions.
        temporal = dataclasses.replace(temporal, repeats=height * width)
        for spatial_block, temporal_block in zip(transformer.transformer_blocks,
                                                 transformer.temporal_transformer_blocks):
            hidden = spatial_block(hidden, encoder_hidden_states=spatial)
            mixed = temporal_block(hidden + frame_embedding[:, None, :], num_frames=frames,
                                   encoder_hidden_states=temporal)
            hidden = transformer.time_mixer(x_spatial=hidden, x_temporal=mixed, image_only_indicator=indicator)
        hidden = transformer.proj_out(hidden)
        hidden = hidden.reshape(rows, height, width, channels).permute(0, 3, 1, 2).contiguous()
        return hidden + residual

    def forward(self, sample: torch.Tensor, timestep: torch.Tensor | float, context: AdapterContext,
                added_time_ids: torch.Tensor, pose_features: torch.Tensor | None = None) -> torch.Tensor:
        """The v-prediction for (batch, frames, 8, h, w) latents (noisy latents + reference latents).

        context rows are batch*frames; added_time_ids is (batch, 3); pose_features broadcasts to
        (batch, frames, block_out_channels[0], h, w). Latent sides must divide by 2**(number of upsamplers).
        """
        batch, frames = sample.shape[:2]
        emb = self._time_embedding(timestep, added_time_ids, batch, sample.dtype).repeat_interleave(frames, dim=0)
        hidden = self.conv_in(sample.flatten(0, 1))
        if pose_features is not None:
            hidden = (hidden.unflatten(0, (batch, frames)) + pose_features).flatten(0, 1)
        indicator = torch.zeros(batch, frames, dtype=hidden.dtype, device=hidden.device)
        temporal = context.frame_mean(batch)

        def resnet_then_attention(block: nn.Module, index: int, hidden: torch.Tensor) -> torch.Tensor:
            hidden = block.resnets[index](hidden, emb, image_only_indicator=indicator)
            if hasattr(block, "attentions"):
                hidden = self._transformer(block.attentions[index], hidden, context, temporal, indicator)
            return hidden

        skips = [hidden]
        for block in self.down_blocks:
            for index in range(len(block.resnets)):
                hidden = resnet_then_attention(block, index, hidden)
                skips.append(hidden)
            for downsampler in block.downsamplers or ():
                hidden = downsampler(hidden)
                skips.append(hidden)

        mid = self.mid_block
        hidden = mid.resnets[0](hidden, emb, image_only_indicator=indicator)
        for attention, resnet in zip(mid.attentions, mid.resnets[1:]):
            hidden = self._transformer(attention, hidden, context, temporal, indicator)
            hidden = resnet(hidden, emb, image_only_indicator=indicator)

        for block in self.up_blocks:
            for index in range(len(block.resnets)):
                hidden = torch.cat([hidden, skips.pop()], dim=1)
                hidden = resnet_then_attention(block, index, hidden)
            for upsampler in block.upsamplers or ():
                hidden = upsampler(hidden)

        hidden = self.conv_out(self.conv_act(self.conv_norm_out(hidden)))
        return hidden.reshape(batch, frames, *hidden.shape[1:])
