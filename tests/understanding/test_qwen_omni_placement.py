"""The Qwen2.5-Omni voter's CUDA placement, checked on PyTorch's meta device under CUDA's rules
(support.meta_device)."""
import numpy as np
import pytest
import torch
from support.meta_device import META, CudaRules, placed

from e3rg_core.contracts import AudioClip, UnderstandingRequest, Utterance, VideoClip
from e3rg_dev.hub_rehearsal import tiny
from e3rg_core.understanding.qwen_omni_voter import QwenOmniVoter

pytestmark = pytest.mark.usefixtures("one_torch_thread")


def test_qwen_omni_inputs_reach_the_thinker_in_its_tower_dtypes():
    """The thinker is transformers' own, and its towers read lengths with tolist(), which meta cannot answer. Ours
    are the inputs: all on the model's device, the features in the towers' dtype."""
    from transformers import Qwen2_5OmniThinkerForConditionalGeneration, WhisperFeatureExtractor
    from transformers.models.qwen2_vl.image_processing_pil_qwen2_vl import Qwen2VLImageProcessorPil
    tokenizer = tiny.tiny_bpe(tiny.OMNI_TOKENS)
    with META:
        thinker = Qwen2_5OmniThinkerForConditionalGeneration(tiny.tiny_omni_config(tokenizer))
    voter = QwenOmniVoter(thinker.to(torch.bfloat16), tokenizer,
                          WhisperFeatureExtractor(feature_size=128, sampling_rate=16_000),
                          Qwen2VLImageProcessorPil(min_pixels=56 * 56, max_pixels=28 * 28 * 16, patch_size=14,
                                                   merge_size=2, temporal_patch_size=2))
    frames = np.zeros((6, 72, 128, 3), np.uint8)
    request = UnderstandingRequest(history=(Utterance(0, "speaker", "I got the job!"),),
                                   audio=AudioClip(np.zeros(32_000, np.float32), 16_000),
                                   video=VideoClip(frames, np.arange(6) / 6, 1.0, 6.0))
    with CudaRules():
        inputs = voter.inputs(request)
    assert {tensor.device.type for tensor in inputs.values()} == {"meta"}
    assert placed(inputs["input_features"], inputs["pixel_values"]) == {("meta", torch.bfloat16)}
