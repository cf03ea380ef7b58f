"""Frame interpolation to 25 fps: RIFE (HDv3 IFNet), the flow network DICE-Talk ships as RIFE/flownet.pkl.

Three flow blocks refine, coarse to fine, the flows from the middle time to both frames and a blending mask (each
block run forwards and with the frames swapped, averaged); the middle frame is the two warped frames blended.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator

import torch
import torch.nn.functional as F
from torch import nn

FLOW_SCALES = (4, 2, 1)


def _conv(channels_in: int, channels_out: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(channels_in, channels_out, 3, stride, 1), nn.PReLU(channels_out))


def _upsampler(width: int, channels_out: int) -> nn.Sequential:
    """x4 upsampling by two transposed convolutions."""
    return nn.Sequential(nn.ConvTranspose2d(width, width // 2, 4, 2, 1), nn.PReLU(width // 2),
                         nn.ConvTranspose2d(width // 2, channels_out, 4, 2, 1))


def _resize(tensor: torch.Tensor, factor: float) -> torch.Tensor:
    return F.interpolate(tensor, scale_factor=factor, mode="bilinear", align_corners=False,
                         recompute_scale_factor=False)


def warp(image: torch.Tensor, flow: torch.Tensor) -> torch.Tensor:
    """Backward-warp images (B, C, H, W) by pixel flows (B, 2, H, W), clamping at the border."""
    batch, _, height, width = flow.shape
    xs = torch.linspace(-1.0, 1.0, width, device=flow.device).view(1, width).expand(height, width)
    ys = torch.linspace(-1.0, 1.0, height, device=flow.device).view(height, 1).expand(height, width)
    base = torch.stack([xs, ys]).expand(batch, -1, -1, -1)
    pixels_to_grid = torch.tensor([(width - 1.0) / 2.0, (height - 1.0) / 2.0], device=flow.device)
    grid = (base + flow / pixels_to_grid.view(1, 2, 1, 1)).permute(0, 2, 3, 1)
    return F.grid_sample(image, grid.to(image.dtype), mode="bilinear", padding_mode="border", align_corners=True)


class FlowBlock(nn.Module):
    """One refinement: (frames, mask) and current flows at 1/scale -> flow and mask corrections."""

    def __init__(self, channels_in: int, width: int):
        super().__init__()
        self.conv0 = nn.Sequential(_conv(channels_in, width // 2, 2), _conv(width // 2, width, 2))
        self.convblock0 = nn.Sequential(_conv(width, width), _conv(width, width))
        self.convblock1 = nn.Sequential(_conv(width, width), _conv(width, width))
        self.convblock2 = nn.Sequential(_conv(width, width), _conv(width, width))
        self.convblock3 = nn.Sequential(_conv(width, width), _conv(width, width))
        self.conv1 = _upsampler(width, 4)
        self.conv2 = _upsampler(width, 1)

    def forward(self, images: torch.Tensor, flow: torch.Tensor, scale: float) -> tuple[torch.Tensor, torch.Tensor]:
        features = self.conv0(torch.cat([_resize(images, 1 / scale), _resize(flow, 1 / scale) / scale], dim=1))
        for residual in (self.convblock0, self.convblock1, self.convblock2, self.convblock3):
            features = residual(features) + features
        return _resize(self.conv1(features), scale) * scale, _resize(self.conv2(features), scale)


def _swap_flows(flow: torch.Tensor) -> torch.Tensor:
    return torch.cat([flow[:, 2:4], flow[:, :2]], dim=1)


class FrameInterpolator(nn.Module):
    """RIFE HDv3's IFNet; `width` is 90 in the released flownet.pkl."""

    def __init__(self, width: int = 90):
        super().__init__()
        self.block0 = FlowBlock(7 + 4, width)
        self.block1 = FlowBlock(7 + 4, width)
        self.block2 = FlowBlock(7 + 4, width)
        # The distillation teacher is used in training only; it is kept so the checkpoint loads strictly.
        self.block_tea = FlowBlock(10 + 4, width)

    def forward(self, first: torch.Tensor, second: torch.Tensor) -> torch.Tensor:
        """The frames halfway between first and second, (B, 3, H, W) in [0, 1]; sides divisible by 16."""
        batch = first.shape[0]
        flow = first.new_zeros(batch, 4, *first.shape[2:])
        mask = first.new_zeros(batch, 1, *first.shape[2:])
        warped_first, warped_second = first, second
        for block, scale in zip((self.block0, self.block1, self.block2), FLOW_SCALES):
            # Forwards and with the frames swapped, in one batch.
            images = torch.cat([torch.cat([warped_first, warped_second, mask], dim=1),
                                torch.cat([warped_second, warped_first, -mask], dim=1)])
            flows, masks = block(images, torch.cat([flow, _swap_flows(flow)]), scale)
            flow = flow + (flows[:batch] + _swap_flows(flows[batch:])) / 2
            mask = mask + (masks[:batch] - masks[batch:]) / 2
            warped_first, warped_second = warp(first, flow[:, :2]), warp(second, flow[:, 2:4])
        weight = torch.sigmoid(mask)
        return warped_first * weight + warped_second * (1 - weight)


def doubled_frame_rate(chunks: Iterable[torch.Tensor], interpolator: FrameInterpolator) -> Iterator[torch.Tensor]:
    """Frames (k, 3, H, W) in [0, 1], chunk by chunk -> the same frames with a middle frame between each pair.

    N input frames give 2N - 1; each output chunk holds its frames in order.
    """
    last = None
    for chunk in chunks:
        sequence = chunk if last is None else torch.cat([last[None], chunk])
        if len(sequence) > 1:
            middles = interpolator(sequence[:-1], sequence[1:]).clamp(0, 1)
            yield torch.stack([sequence[:-1], middles], dim=1).flatten(0, 1)
        last = sequence[-1]
    if last is not None:
        yield last[None]
