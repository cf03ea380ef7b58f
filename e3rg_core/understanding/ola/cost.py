"""What one Ola-Omni generation costs on the GPU: peak memory and seconds, from frames and tokens.

Memory is counted: the full-size manifest's parameters stored as the loader stores them, the KV cache and each
stage's largest activations. Seconds are FLOP estimates for one ZeroGPU slice, not measured on a GPU; the turn's
price adds tiers/zerogpu.py's ESTIMATE_MARGIN.
"""
from __future__ import annotations

from dataclasses import dataclass

from .vision import FRAMES_PER_BATCH

GB = 1e9

# Parameter counts of the full model, by component (from the key manifest).
DECODER_LINEAR_PARAMS = 6_525_288_448      # q, k, v, o, gate, up, down of 28 layers
EMBEDDING_PARAMS = 152_064 * 3584           # embed_tokens; lm_head is the same size
VISION_PARAMS = 431_226_864
PROJECTOR_PARAMS = 55_537_664 + 49_299_456
WHISPER_PARAMS = 636_968_960
BEATS_PARAMS = 90_759_295
OTHER_LLM_PARAMS = 7_615_616_512 - DECODER_LINEAR_PARAMS - 2 * EMBEDDING_PARAMS   # biases and norms

NF4_BYTES_PER_PARAM = 4.127 / 8             # 4-bit codes + double-quantised absmax per 64 weights
KV_BYTES_PER_TOKEN = 28 * 2 * 4 * 128 * 2   # layers x (k, v) x kv heads x head dim x bf16
PREFILL_BYTES_PER_TOKEN = (3 * 18944 + 4 * 3584) * 2   # one layer's MLP and residual activations, bf16
DEQUANT_BUFFER_BYTES = 18944 * 3584 * 2      # the largest weight, dequantised once at a time
VISION_BYTES_PER_PATCH = (3 * 1152 + 4304 + 2 * 1152) * 2
BEATS_BYTES_PER_CHUNK = 3 * 12 * 1500 ** 2 * 4          # gated relative-position bias, fp32
RUNTIME_OVERHEAD_BYTES = 1.0 * GB            # CUDA context, allocator slack

VISION_SECONDS_PER_PATCH = 1.0e-5            # ~1 GFLOP per patch at ~100 TFLOP/s
SPEECH_SECONDS_PER_CHUNK = 0.1               # Whisper large-v3 + BEATs on 30 s
PREFILL_SECONDS_PER_TOKEN = 2.5e-4           # ~15 GFLOP per token at ~60 TFLOP/s through NF4 dequantisation
DECODE_SECONDS_PER_TOKEN = 0.05              # ~20 tokens/s, bitsandbytes NF4 at batch size 1
CALL_SECONDS = 0.5                           # per generation: launches, tokenizer, transfers


@dataclass(frozen=True)
class RequestCost:
    gpu_bytes: int
    seconds: float

    def __add__(self, other: RequestCost) -> RequestCost:
        """Two generations run one after the other: memory peaks do not add, time does."""
        return RequestCost(max(self.gpu_bytes, other.gpu_bytes), self.seconds + other.seconds)


def weight_bytes(quantized: bool = True) -> int:
    decoder = DECODER_LINEAR_PARAMS * (NF4_BYTES_PER_PARAM if quantized else 2)
    full_precision = 2 * (2 * EMBEDDING_PARAMS + OTHER_LLM_PARAMS + VISION_PARAMS + PROJECTOR_PARAMS + WHISPER_PARAMS)
    return int(decoder + full_precision + 4 * BEATS_PARAMS)


def estimate_generation(frames: int, vit_tokens: int, sequence_tokens: int, speech_chunks: int,
                        new_tokens: int, quantized: bool = True, encodes_media: bool = True) -> RequestCost:
    """One generation: `frames` video frames with `vit_tokens` ViT patches in all, a merged prompt of
    `sequence_tokens`, `speech_chunks` 30 s audio chunks and up to `new_tokens` generated. Without
    `encodes_media` the media's features come from an earlier generation about the same request."""
    if not encodes_media:
        frames = vit_tokens = speech_chunks = 0
    patches_per_frame = vit_tokens / frames if frames else 0
    stage_peak = max(PREFILL_BYTES_PER_TOKEN * sequence_tokens,
                     FRAMES_PER_BATCH * patches_per_frame * VISION_BYTES_PER_PATCH,
                     BEATS_BYTES_PER_CHUNK * speech_chunks)
    memory = (weight_bytes(quantized) + KV_BYTES_PER_TOKEN * (sequence_tokens + new_tokens) + stage_peak
              + (DEQUANT_BUFFER_BYTES if quantized else 0) + RUNTIME_OVERHEAD_BYTES)
    seconds = (CALL_SECONDS + VISION_SECONDS_PER_PATCH * vit_tokens + SPEECH_SECONDS_PER_CHUNK * speech_chunks
               + PREFILL_SECONDS_PER_TOKEN * sequence_tokens + DECODE_SECONDS_PER_TOKEN * new_tokens)
    return RequestCost(int(memory), seconds)
