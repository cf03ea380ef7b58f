"""The VITS / HiFi-GAN building blocks that OpenVoice's converter and base speaker share.

Parameter names follow the official checkpoints, so a state dict loads with strict key matching. Layers that
were trained under weight normalisation keep its two tensors (weight_g, weight_v) until fold_weight_norm()
merges them into a plain weight after loading; inference is then a plain convolution.
"""
from __future__ import annotations

import torch
from torch import nn
from torch.nn import functional as F

LEAKY_SLOPE = 0.1


# ---------------------------------------------------------------------------------------------------------
# Weight normalisation under the legacy parameter names


def _norm_per_output(weight: torch.Tensor) -> torch.Tensor:
    """L2 norm of each slice along dim 0, shaped to broadcast against the weight."""
    return torch.linalg.vector_norm(weight, dim=tuple(range(1, weight.dim())), keepdim=True)


def _weight_from_gain_and_direction(layer: nn.Module) -> torch.Tensor:
    return layer.weight_v * (layer.weight_g / _norm_per_output(layer.weight_v))


def _refresh_weight(layer: nn.Module, _inputs) -> None:
    layer.weight = _weight_from_gain_and_direction(layer)


def weight_norm(layer: nn.Module) -> nn.Module:
    """Store layer.weight as gain weight_g times unit direction weight_v, the way the checkpoints hold it."""
    weight = layer.weight.detach()
    del layer._parameters["weight"]
    layer.weight_g = nn.Parameter(_norm_per_output(weight))
    layer.weight_v = nn.Parameter(weight.clone())
    layer.weight = weight
    layer._weight_norm_hook = layer.register_forward_pre_hook(_refresh_weight)
    return layer


def fold_weight_norm(model: nn.Module) -> nn.Module:
    """Merge every weight_g/weight_v pair into a plain weight (no per-call renormalisation)."""
    for layer in model.modules():
        hook = getattr(layer, "_weight_norm_hook", None)
        if hook is None:
            continue
        weight = _weight_from_gain_and_direction(layer).detach()
        hook.remove()
        del layer._weight_norm_hook
        del layer._parameters["weight_g"], layer._parameters["weight_v"]
        del layer.weight
        layer.weight = nn.Parameter(weight)
    return model


# ---------------------------------------------------------------------------------------------------------
# Small pieces


def sequence_mask(lengths: torch.Tensor, max_length: int) -> torch.Tensor:
    """[B] lengths -> [B, 1, T] float mask."""
    positions = torch.arange(max_length, device=lengths.device)
    return (positions[None, :] < lengths[:, None]).unsqueeze(1).float()


def same_padding(kernel_size: int, dilation: int = 1) -> int:
    return (kernel_size * dilation - dilation) // 2


class ChannelLayerNorm(nn.Module):
    """Layer norm over the channel axis of [B, C, T] (parameters named gamma/beta as in VITS)."""

    def __init__(self, channels: int, eps: float = 1e-5):
        super().__init__()
        self.eps = eps
        self.gamma = nn.Parameter(torch.ones(channels))
        self.beta = nn.Parameter(torch.zeros(channels))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = F.layer_norm(x.transpose(1, -1), (x.size(1),), self.gamma, self.beta, self.eps)
        return x.transpose(1, -1)


class Flip(nn.Module):
    """Swap the two channel halves' roles between coupling layers (its own inverse)."""

    def forward(self, x: torch.Tensor, *_args, **_kwargs) -> torch.Tensor:
        return torch.flip(x, [1])


# ---------------------------------------------------------------------------------------------------------
# WaveNet stack (posterior encoder and coupling flows)


class WaveNet(nn.Module):
    """Non-causal WaveNet: gated dilated convolutions with residual and skip paths, optionally conditioned on
    a global speaker vector g of gin_channels."""

    def __init__(self, hidden_channels: int, kernel_size: int, dilation_rate: int, n_layers: int,
                 gin_channels: int = 0):
        super().__init__()
        self.hidden_channels = hidden_channels
        self.n_layers = n_layers
        if gin_channels:
            self.cond_layer = weight_norm(nn.Conv1d(gin_channels, 2 * hidden_channels * n_layers, 1))
        self.in_layers = nn.ModuleList()
        self.res_skip_layers = nn.ModuleList()
        for index in range(n_layers):
            dilation = dilation_rate ** index
            self.in_layers.append(weight_norm(nn.Conv1d(
                hidden_channels, 2 * hidden_channels, kernel_size, dilation=dilation,
                padding=same_padding(kernel_size, dilation))))
            # The last layer only feeds the skip sum, so it has no residual half.
            out_channels = 2 * hidden_channels if index < n_layers - 1 else hidden_channels
            self.res_skip_layers.append(weight_norm(nn.Conv1d(hidden_channels, out_channels, 1)))

    def forward(self, x: torch.Tensor, mask: torch.Tensor, g: torch.Tensor | None = None) -> torch.Tensor:
        hidden = self.hidden_channels
        conditions = self.cond_layer(g) if g is not None else None
        skip = torch.zeros_like(x)
        for index, (in_layer, res_skip_layer) in enumerate(zip(self.in_layers, self.res_skip_layers)):
            h = in_layer(x)
            if conditions is not None:
                h = h + conditions[:, 2 * hidden * index: 2 * hidden * (index + 1)]
            gated = torch.tanh(h[:, :hidden]) * torch.sigmoid(h[:, hidden:])
            out = res_skip_layer(gated)
            if index < self.n_layers - 1:
                x = (x + out[:, :hidden]) * mask
                skip = skip + out[:, hidden:]
            else:
                skip = skip + out
        return skip * mask


class PosteriorEncoder(nn.Module):
    """Linear spectrogram -> latent z ~ N(m, exp(logs)) per frame (VITS' posterior encoder)."""

    def __init__(self, in_channels: int, out_channels: int, hidden_channels: int, gin_channels: int,
                 kernel_size: int = 5, dilation_rate: int = 1, n_layers: int = 16):
        super().__init__()
        self.pre = nn.Conv1d(in_channels, hidden_channels, 1)
        self.enc = WaveNet(hidden_channels, kernel_size, dilation_rate, n_layers, gin_channels)
        self.proj = nn.Conv1d(hidden_channels, out_channels * 2, 1)

    def forward(self, spec: torch.Tensor, mask: torch.Tensor, g: torch.Tensor, tau: float,
                generator: torch.Generator | None = None) -> torch.Tensor:
        h = self.enc(self.pre(spec) * mask, mask, g)
        mean, log_std = (self.proj(h) * mask).chunk(2, dim=1)
        if tau > 0:
            noise = torch.randn(mean.shape, generator=generator, device=mean.device, dtype=mean.dtype)
            mean = mean + noise * tau * torch.exp(log_std)
        return mean * mask


# ---------------------------------------------------------------------------------------------------------
# Normalising flow between the posterior latent and the speaker-independent prior space


class MeanOnlyCouplingLayer(nn.Module):
    """Affine coupling with unit scale: the second half is shifted by a WaveNet of the first half."""

    def __init__(self, channels: int, hidden_channels: int, kernel_size: int, dilation_rate: int, n_layers: int,
                 gin_channels: int):
        super().__init__()
        self.half = channels // 2
        self.pre = nn.Conv1d(self.half, hidden_channels, 1)
        self.enc = WaveNet(hidden_channels, kernel_size, dilation_rate, n_layers, gin_channels)
        self.post = nn.Conv1d(hidden_channels, self.half, 1)

    def forward(self, x: torch.Tensor, mask: torch.Tensor, g: torch.Tensor, reverse: bool) -> torch.Tensor:
        x0, x1 = x.split(self.half, dim=1)
        shift = self.post(self.enc(self.pre(x0) * mask, mask, g)) * mask
        x1 = (x1 - shift) * mask if reverse else shift + x1 * mask
        return torch.cat([x0, x1], dim=1)


class CouplingFlow(nn.Module):
    """Four coupling layers, each followed by a channel flip; g makes the mapping speaker-dependent."""

    def __init__(self, channels: int, hidden_channels: int, gin_channels: int, kernel_size: int = 5,
                 dilation_rate: int = 1, n_layers: int = 4, n_flows: int = 4):
        super().__init__()
        self.flows = nn.ModuleList()
        for _ in range(n_flows):
            self.flows.append(MeanOnlyCouplingLayer(channels, hidden_channels, kernel_size, dilation_rate,
                                                    n_layers, gin_channels))
            self.flows.append(Flip())

    def forward(self, x: torch.Tensor, mask: torch.Tensor, g: torch.Tensor, reverse: bool = False) -> torch.Tensor:
        for flow in (reversed(self.flows) if reverse else self.flows):
            x = flow(x, mask, g=g, reverse=reverse)
        return x


# ---------------------------------------------------------------------------------------------------------
# HiFi-GAN generator (V1 residual blocks)


class ResidualBlock(nn.Module):
    """HiFi-GAN ResBlock1: three dilated conv pairs, each added back to its input."""

    def __init__(self, channels: int, kernel_size: int, dilations: tuple[int, ...]):
        super().__init__()
        self.convs1 = nn.ModuleList(
            weight_norm(nn.Conv1d(channels, channels, kernel_size, dilation=dilation,
                                  padding=same_padding(kernel_size, dilation)))
            for dilation in dilations)
        self.convs2 = nn.ModuleList(
            weight_norm(nn.Conv1d(channels, channels, kernel_size, padding=same_padding(kernel_size)))
            for _ in dilations)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for dilated, plain in zip(self.convs1, self.convs2):
            h = plain(F.leaky_relu(dilated(F.leaky_relu(x, LEAKY_SLOPE)), LEAKY_SLOPE))
            x = h + x
        return x


class Generator(nn.Module):
    """Latent frames -> waveform: transposed-convolution upsampling by prod(upsample_rates), each stage followed
    by the mean of multi-receptive-field residual blocks."""

    def __init__(self, in_channels: int, resblock_kernel_sizes, resblock_dilation_sizes, upsample_rates,
                 upsample_initial_channel: int, upsample_kernel_sizes, gin_channels: int):
        super().__init__()
        self.kernels_per_stage = len(resblock_kernel_sizes)
        self.conv_pre = nn.Conv1d(in_channels, upsample_initial_channel, 7, padding=3)
        self.ups = nn.ModuleList()
        self.resblocks = nn.ModuleList()
        for stage, (rate, kernel) in enumerate(zip(upsample_rates, upsample_kernel_sizes)):
            channels = upsample_initial_channel // 2 ** (stage + 1)
            self.ups.append(weight_norm(nn.ConvTranspose1d(
                upsample_initial_channel // 2 ** stage, channels, kernel, rate, padding=(kernel - rate) // 2)))
            for size, dilations in zip(resblock_kernel_sizes, resblock_dilation_sizes):
                self.resblocks.append(ResidualBlock(channels, size, tuple(dilations)))
        self.conv_post = nn.Conv1d(channels, 1, 7, padding=3, bias=False)
        if gin_channels:
            self.cond = nn.Conv1d(gin_channels, upsample_initial_channel, 1)

    def forward(self, x: torch.Tensor, g: torch.Tensor | None = None) -> torch.Tensor:
        x = self.conv_pre(x)
        if g is not None:
            x = x + self.cond(g)
        for stage, upsample in enumerate(self.ups):
            x = upsample(F.leaky_relu(x, LEAKY_SLOPE))
            blocks = self.resblocks[stage * self.kernels_per_stage:(stage + 1) * self.kernels_per_stage]
            total = blocks[0](x)
            for block in blocks[1:]:
                total = total + block(x)
            x = total / self.kernels_per_stage
        # The last activation uses torch's default slope, not LEAKY_SLOPE: the weights were trained that way.
        return torch.tanh(self.conv_post(F.leaky_relu(x)))


# ---------------------------------------------------------------------------------------------------------
# Reference encoder: the tone-colour embedding


class ReferenceEncoder(nn.Module):
    """Linear spectrogram [B, F, T] -> one tone-colour vector [B, gin_channels].

    Six stride-2 3x3 convolutions shrink time and frequency, a GRU reads the frames, and its last state is
    projected to the embedding.
    """

    FILTERS = (32, 32, 64, 64, 128, 128)
    GRU_SIZE = 128

    def __init__(self, spec_channels: int, gin_channels: int):
        super().__init__()
        channels = (1, *self.FILTERS)
        self.convs = nn.ModuleList(
            weight_norm(nn.Conv2d(channels[i], channels[i + 1], kernel_size=3, stride=2, padding=1))
            for i in range(len(self.FILTERS)))
        freq = spec_channels
        for _ in self.FILTERS:
            freq = (freq - 1) // 2 + 1
        self.gru = nn.GRU(input_size=self.FILTERS[-1] * freq, hidden_size=self.GRU_SIZE, batch_first=True)
        self.proj = nn.Linear(self.GRU_SIZE, gin_channels)
        self.layernorm = nn.LayerNorm(spec_channels)

    def forward(self, spec: torch.Tensor) -> torch.Tensor:
        x = self.layernorm(spec.transpose(1, 2)).unsqueeze(1)     # [B, 1, T, F]
        for conv in self.convs:
            x = F.relu(conv(x))
        batch, _, frames, _ = x.shape
        x = x.transpose(1, 2).reshape(batch, frames, -1)          # channel-major: [B, T', C*F']
        _, last = self.gru(x)
        return self.proj(last.squeeze(0))
