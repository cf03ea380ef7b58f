"""OpenVoice's CUDA placement, checked on PyTorch's meta device under CUDA's rules (support.meta_device)."""
import numpy as np
import pytest
import torch
from support.meta_device import META, CudaRules, placed

from e3rg_core.generation.openvoice.config import BaseSpeakerConfig, ConverterConfig
from e3rg_core.generation.openvoice.converter import ToneColorConverter, ToneColorConverterNet
from e3rg_core.generation.openvoice.modules import fold_weight_norm, sequence_mask
from e3rg_core.generation.openvoice.synthesizer import (NOISE_SCALE_W, BaseSpeakerNet, BaseSpeakerTTS,
                                                        monotonic_alignment)
from e3rg_dev.hub_rehearsal import tiny

pytestmark = pytest.mark.usefixtures("one_torch_thread")


@pytest.fixture(scope="module")
def openvoice_configs() -> tuple[dict, dict]:
    return tiny.tiny_openvoice_configs()


@pytest.fixture(scope="module")
def base_speaker(openvoice_configs) -> BaseSpeakerTTS:
    """Placed by the engine's own wrapper, which also moves the stored (CPU) tone colours."""
    config = BaseSpeakerConfig.from_dict(openvoice_configs[0])
    with META:
        net = BaseSpeakerNet(config)
    tone_colour = torch.zeros(1, config.gin_channels, 1)
    return BaseSpeakerTTS(fold_weight_norm(net), config, tone_colour, tone_colour, device=META)


def test_openvoice_base_speaker(base_speaker):
    """infer() sizes its frame axis with int(frame_lengths.max()), a value meta cannot give; its modules run here
    one by one with a fixed frame count."""
    net, symbols, frames = base_speaker.net, 9, 20
    with CudaRules():
        g = base_speaker.style_vector("sad", 0.5)
        source = base_speaker.source_tone_color("sad", 0.5)
        ids = torch.zeros(1, symbols, dtype=torch.long, device=META)
        x, mean, _, text_mask = net.enc_p(ids, torch.tensor([symbols], device=META))
        noiseless = net.sdp(x, text_mask, g, 0.0)        # starts from zeros rather than noise
        log_durations = net.sdp(x, text_mask, g, NOISE_SCALE_W) + net.dp(x, text_mask, g)
        frame_mask = sequence_mask(torch.tensor([frames], device=META), frames)
        path = monotonic_alignment(torch.ceil(torch.exp(log_durations)), text_mask, frame_mask)
        z = net.flow(mean @ path, frame_mask, g=g, reverse=True)
        audio = net.dec(z * frame_mask, g=g)
    assert audio.shape == (1, 1, frames * base_speaker.config.audio.hop_length)
    assert placed(g, source, noiseless, audio) == {("meta", torch.float32)}


@pytest.mark.parametrize("version", ["v1", "v2"])
def test_openvoice_tone_colour_converter(openvoice_configs, version):
    """convert() ends in .cpu().numpy(); the spectrogram, tone-colour extraction and conversion run here."""
    raw = openvoice_configs[1]
    if version == "v2":     # V2 reads the content without any speaker vector (zero_g)
        raw = {**raw, "_version_": "v2", "model": {**raw["model"], "zero_g": True}}
    config = ConverterConfig.from_dict(raw)
    with META:
        net = ToneColorConverterNet(config)
    converter = ToneColorConverter(fold_weight_norm(net), config, device=META)
    speech = np.zeros(4_000, np.float32)
    with CudaRules():
        spec = converter._spectrogram(speech, converter.sample_rate)
        tone_colour = converter.extract_se([speech, speech])
        lengths = torch.tensor([spec.size(2)], device=converter.device)
        conversion = converter.net.voice_conversion(spec, lengths, tone_colour, tone_colour, tau=0.3)
    assert placed(spec, tone_colour, conversion.audio) == {("meta", torch.float32)}
