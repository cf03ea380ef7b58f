"""OryxViT, Ola's vision tower: a SigLIP-so400m ViT that sees each image at its own resolution.

Each image is cut into 16 px patches; a learned 128x128 grid of position embeddings is resampled to the
image's patch grid, so no image is resized to a fixed square. Attention runs within one image only: images
are never packed into a shared sequence, so no patch can attend to another image's patches.
"""
from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

from .config import OryxViTConfig

FRAMES_PER_BATCH = 8        # bounds the tower's activation memory on long videos


class PatchEmbed(nn.Module):
    def __init__(self, config: OryxViTConfig) -> None:
        super().__init__()
        self.proj = nn.Conv2d(3, config.width, kernel_size=config.patch_size, stride=config.patch_size)

    def forward(self, pixels: torch.Tensor) -> torch.Tensor:
        return self.proj(pixels).flatten(2).transpose(1, 2)


class VisionAttention(nn.Module):
    def __init__(self, config: OryxViTConfig) -> None:
        super().__init__()
        self.heads = config.heads
        self.qkv = nn.Linear(config.width, 3 * config.width)
        self.proj = nn.Linear(config.width, config.width)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        batch, length, width = x.shape
        q, k, v = self.qkv(x).reshape(batch, length, 3, self.heads, width // self.heads).permute(2, 0, 3, 1, 4)
        out = F.scaled_dot_product_attention(q, k, v)
        return self.proj(out.transpose(1, 2).reshape(batch, length, width))


class VisionMlp(nn.Module):
    def __init__(self, config: OryxViTConfig) -> None:
        super().__init__()
        self.fc1 = nn.Linear(config.width, config.mlp_hidden)
        self.fc2 = nn.Linear(config.mlp_hidden, config.width)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc2(F.gelu(self.fc1(x)))


class VisionBlock(nn.Module):
    def __init__(self, config: OryxViTConfig) -> None:
        super().__init__()
        self.norm1 = nn.LayerNorm(config.width, eps=config.norm_eps)
        self.attn = VisionAttention(config)
        self.norm2 = nn.LayerNorm(config.width, eps=config.norm_eps)
        self.mlp = VisionMlp(config)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x + self.attn(self.norm1(x))
        return x + self.mlp(self.norm2(x))


class OryxViT(nn.Module):
    def __init__(self, config: OryxViTConfig) -> None:
        super().__init__()
        self.config = config
        self.pos_embed = nn.Parameter(torch.zeros(1, config.position_grid ** 2, config.width))
        self.patch_embed = PatchEmbed(config)
        self.blocks = nn.Sequential(*(VisionBlock(config) for _ in range(config.depth)))

    def position_embedding(self, rows: int, cols: int) -> torch.Tensor:
        """The learned grid resampled (bilinear, as Ola does) to rows x cols patches: (1, rows*cols, width)."""
        grid = self.config.position_grid
        if (rows, cols) == (grid, grid):
            return self.pos_embed
        square = self.pos_embed[0].T.reshape(1, -1, grid, grid)
        resized = F.interpolate(square, size=(rows, cols), mode="bilinear", align_corners=False)
        return resized.reshape(-1, rows * cols).T.unsqueeze(0)

    def forward(self, pixels: torch.Tensor) -> tuple[torch.Tensor, tuple[int, int]]:
        """Features of a batch of same-sized images (B, 3, H, W) -> (B, H/16 * W/16, width), (H/16, W/16)."""
        patch = self.config.patch_size
        height, width = pixels.shape[-2:]
        if height % patch or width % patch:
            raise ValueError(f"Image sides must be multiples of {patch} px, not {height}x{width}.")
        rows, cols = height // patch, width // patch
        x = self.patch_embed(pixels) + self.position_embedding(rows, cols)
        return self.blocks(x), (rows, cols)


class OryxVisionTower(nn.Module):
    """Runs the ViT in its own dtype on batches of at most FRAMES_PER_BATCH same-sized images."""

    def __init__(self, config: OryxViTConfig) -> None:
        super().__init__()
        self.vision_tower = OryxViT(config)

    def forward(self, pixels: torch.Tensor) -> tuple[torch.Tensor, tuple[int, int]]:
        dtype = self.vision_tower.pos_embed.dtype
        parts, grid = [], (0, 0)
        for start in range(0, pixels.shape[0], FRAMES_PER_BATCH):
            features, grid = self.vision_tower(pixels[start:start + FRAMES_PER_BATCH].to(dtype))
            parts.append(features)
        return torch.cat(parts), grid
