"""How many spectrogram frames each symbol lasts: VITS' two duration predictors.

The deterministic predictor is a small conv net. The stochastic one is a normalising flow over a 2-channel
latent (log-duration and a helper channel) built from neural rational-quadratic spline couplings (Durkan et al.,
2019); inference runs it in reverse from Gaussian noise. Only the inference direction is implemented; the
posterior branch used in training (post_*) is kept so that the official weights load strictly.
"""
from __future__ import annotations

import math

import torch
from torch import nn
from torch.nn import functional as F

from .modules import ChannelLayerNorm, Flip, same_padding

SPLINE_BINS = 10
SPLINE_TAIL_BOUND = 5.0
_MIN_BIN_WIDTH = _MIN_BIN_HEIGHT = _MIN_DERIVATIVE = 1e-3
_SEARCH_EPS = 1e-6


class DurationPredictor(nn.Module):
    """Log-duration per symbol from text-encoder features (two conv/ReLU/layer-norm blocks)."""

    def __init__(self, in_channels: int, filter_channels: int, kernel_size: int, gin_channels: int):
        super().__init__()
        padding = kernel_size // 2
        self.conv_1 = nn.Conv1d(in_channels, filter_channels, kernel_size, padding=padding)
        self.norm_1 = ChannelLayerNorm(filter_channels)
        self.conv_2 = nn.Conv1d(filter_channels, filter_channels, kernel_size, padding=padding)
        self.norm_2 = ChannelLayerNorm(filter_channels)
        self.proj = nn.Conv1d(filter_channels, 1, 1)
        self.cond = nn.Conv1d(gin_channels, in_channels, 1)

    def forward(self, x: torch.Tensor, mask: torch.Tensor, g: torch.Tensor) -> torch.Tensor:
        x = x + self.cond(g)
        x = self.norm_1(torch.relu(self.conv_1(x * mask)))
        x = self.norm_2(torch.relu(self.conv_2(x * mask)))
        return self.proj(x * mask) * mask


class DilatedDepthSeparableConv(nn.Module):
    """Residual stack of dilated depthwise + pointwise convolutions with GELU (dilation kernel_size**i)."""

    def __init__(self, channels: int, kernel_size: int, n_layers: int):
        super().__init__()
        self.convs_sep = nn.ModuleList()
        self.convs_1x1 = nn.ModuleList()
        self.norms_1 = nn.ModuleList()
        self.norms_2 = nn.ModuleList()
        for index in range(n_layers):
            dilation = kernel_size ** index
            self.convs_sep.append(nn.Conv1d(channels, channels, kernel_size, groups=channels, dilation=dilation,
                                            padding=same_padding(kernel_size, dilation)))
            self.convs_1x1.append(nn.Conv1d(channels, channels, 1))
            self.norms_1.append(ChannelLayerNorm(channels))
            self.norms_2.append(ChannelLayerNorm(channels))

    def forward(self, x: torch.Tensor, mask: torch.Tensor, g: torch.Tensor | None = None) -> torch.Tensor:
        if g is not None:
            x = x + g
        for separable, pointwise, norm_1, norm_2 in zip(self.convs_sep, self.convs_1x1, self.norms_1, self.norms_2):
            y = F.gelu(norm_1(separable(x * mask)))
            x = x + F.gelu(norm_2(pointwise(y)))
        return x * mask


class ElementwiseAffine(nn.Module):
    """x -> m + exp(logs) * x per channel; inverted here."""

    def __init__(self, channels: int):
        super().__init__()
        self.m = nn.Parameter(torch.zeros(channels, 1))
        self.logs = nn.Parameter(torch.zeros(channels, 1))

    def forward(self, x: torch.Tensor, mask: torch.Tensor, g: torch.Tensor | None = None) -> torch.Tensor:
        return (x - self.m) * torch.exp(-self.logs) * mask


def inverse_rational_quadratic_spline(y: torch.Tensor, widths_raw: torch.Tensor, heights_raw: torch.Tensor,
                                      derivatives_raw: torch.Tensor, bound: float = SPLINE_TAIL_BOUND) -> torch.Tensor:
    """Invert a monotone rational-quadratic spline on [-bound, bound] that is the identity outside it.

    widths_raw and heights_raw have SPLINE_BINS logits per element, derivatives_raw the SPLINE_BINS - 1 inner
    knot slopes (the two outer slopes are 1 so the spline joins the identity tails smoothly).
    """
    bins = widths_raw.shape[-1]
    inside = (y >= -bound) & (y <= bound)
    y_in = y.clamp(-bound, bound)

    def knots(raw: torch.Tensor, minimum: float) -> tuple[torch.Tensor, torch.Tensor]:
        sizes = minimum + (1 - minimum * bins) * F.softmax(raw, dim=-1)
        edges = F.pad(torch.cumsum(sizes, dim=-1), (1, 0)) * (2 * bound) - bound
        edges[..., 0], edges[..., -1] = -bound, bound
        return edges, edges[..., 1:] - edges[..., :-1]

    x_edges, widths = knots(widths_raw, _MIN_BIN_WIDTH)
    y_edges, heights = knots(heights_raw, _MIN_BIN_HEIGHT)
    outer_slope = math.log(math.exp(1 - _MIN_DERIVATIVE) - 1)     # softplus^-1 of (1 - min), giving slope 1
    slopes = _MIN_DERIVATIVE + F.softplus(F.pad(derivatives_raw, (1, 1), value=outer_slope))

    # The bin whose output range holds y; the top edge is nudged up so y == bound lands in the last bin.
    search_edges = y_edges.clone()
    search_edges[..., -1] += _SEARCH_EPS
    index = (torch.sum(y_in[..., None] >= search_edges, dim=-1) - 1)[..., None]

    def pick(values: torch.Tensor) -> torch.Tensor:
        return values.gather(-1, index)[..., 0]

    x_start, width = pick(x_edges), pick(widths)
    y_start, height = pick(y_edges), pick(heights)
    slope_left, slope_right = pick(slopes), slopes[..., 1:].gather(-1, index)[..., 0]
    secant = height / width

    # Solve the bin's rational quadratic for theta in [0, 1] with the numerically stable root.
    offset = y_in - y_start
    curvature = slope_left + slope_right - 2 * secant
    a = offset * curvature + height * (secant - slope_left)
    b = height * slope_left - offset * curvature
    c = -secant * offset
    theta = (2 * c) / (-b - torch.sqrt(b.pow(2) - 4 * a * c))
    return torch.where(inside, theta * width + x_start, y)


class SplineCouplingFlow(nn.Module):
    """Coupling layer whose second channel is transformed by a spline predicted from the first (ConvFlow)."""

    def __init__(self, in_channels: int, filter_channels: int, kernel_size: int, n_layers: int):
        super().__init__()
        self.half = in_channels // 2
        self.filter_channels = filter_channels
        self.pre = nn.Conv1d(self.half, filter_channels, 1)
        self.convs = DilatedDepthSeparableConv(filter_channels, kernel_size, n_layers)
        self.proj = nn.Conv1d(filter_channels, self.half * (3 * SPLINE_BINS - 1), 1)

    def forward(self, x: torch.Tensor, mask: torch.Tensor, g: torch.Tensor | None = None) -> torch.Tensor:
        x0, x1 = x.split(self.half, dim=1)
        h = self.proj(self.convs(self.pre(x0), mask, g=g)) * mask
        batch, channels, length = x0.shape
        h = h.reshape(batch, channels, -1, length).permute(0, 1, 3, 2)       # [B, half, T, 3 * bins - 1]
        scale = math.sqrt(self.filter_channels)
        x1 = inverse_rational_quadratic_spline(x1, h[..., :SPLINE_BINS] / scale,
                                               h[..., SPLINE_BINS:2 * SPLINE_BINS] / scale, h[..., 2 * SPLINE_BINS:])
        return torch.cat([x0, x1], dim=1) * mask


def _flow_stack(channels: int, kernel_size: int, n_flows: int) -> nn.ModuleList:
    flows = nn.ModuleList([ElementwiseAffine(2)])
    for _ in range(n_flows):
        flows.append(SplineCouplingFlow(2, channels, kernel_size, n_layers=3))
        flows.append(Flip())
    return flows


class StochasticDurationPredictor(nn.Module):
    """Log-durations sampled by running the duration flow backwards from noise, conditioned on text features
    and the speaker vector."""

    def __init__(self, in_channels: int, kernel_size: int, gin_channels: int, n_flows: int = 4):
        super().__init__()
        channels = in_channels      # upstream ignores its filter_channels argument and uses the input width
        self.flows = _flow_stack(channels, kernel_size, n_flows)
        self.post_pre = nn.Conv1d(1, channels, 1)
        self.post_proj = nn.Conv1d(channels, channels, 1)
        self.post_convs = DilatedDepthSeparableConv(channels, kernel_size, n_layers=3)
        self.post_flows = _flow_stack(channels, kernel_size, 4)
        self.pre = nn.Conv1d(in_channels, channels, 1)
        self.proj = nn.Conv1d(channels, channels, 1)
        self.convs = DilatedDepthSeparableConv(channels, kernel_size, n_layers=3)
        self.cond = nn.Conv1d(gin_channels, channels, 1)

    def forward(self, x: torch.Tensor, mask: torch.Tensor, g: torch.Tensor, noise_scale: float,
                generator: torch.Generator | None = None) -> torch.Tensor:
        h = self.proj(self.convs(self.pre(x) + self.cond(g), mask)) * mask
        z = torch.zeros(x.size(0), 2, x.size(2), device=x.device, dtype=x.dtype)
        if noise_scale > 0:
            z = torch.randn(z.shape, generator=generator, device=x.device, dtype=x.dtype) * noise_scale
        # Run in reverse. The first spline coupling would run last and only change the helper channel, which
        # is then discarded, so it is skipped.
        reverse_flows = list(reversed(self.flows))
        for flow in reverse_flows[:-2] + reverse_flows[-1:]:
            z = flow(z, mask, g=h)
        return z[:, :1]
