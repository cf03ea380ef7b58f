"""The pose guider: the face-region mask image -> features added to the UNet's first activations.

A small strided convolution stack (SiLU after every layer but the last) takes the 3-channel mask at pixel
resolution to the UNet's first width at latent resolution (/8). Upstream zero-initialises the last layer, so
before training the guider adds nothing.
"""
from __future__ import annotations

from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn


@dataclass(frozen=True)
class PoseGuiderConfig:
    conditioning_embedding_channels: int = 320
    conditioning_channels: int = 3
    block_out_channels: tuple[int, ...] = (16, 32, 96, 256)


class PoseGuider(nn.Module):
    def __init__(self, config: PoseGuiderConfig = PoseGuiderConfig()):
        super().__init__()
        widths = config.block_out_channels
        self.conv_in = nn.Conv2d(config.conditioning_channels, widths[0], kernel_size=3, padding=1)
        layers = []
        for width_in, width_out in zip(widths[:-1], widths[1:]):
            layers.append(nn.Conv2d(width_in, width_in, kernel_size=3, padding=1))
            layers.append(nn.Conv2d(width_in, width_out, kernel_size=3, padding=1, stride=2))
        self.blocks = nn.ModuleList(layers)
        self.conv_out = nn.Conv2d(widths[-1], config.conditioning_embedding_channels, kernel_size=3, padding=1)

    def forward(self, mask: torch.Tensor) -> torch.Tensor:
        """(batch, 3, H, W) mask images -> (batch, conditioning_embedding_channels, H/8, W/8)."""
        features = F.silu(self.conv_in(mask))
        for layer in self.blocks:
            features = F.silu(layer(features))
        return self.conv_out(features)
