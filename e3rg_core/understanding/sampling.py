"""How an LLM engine samples its answer, stated in full.

transformers fills any sampling parameter a generate() call leaves out from the checkpoint's
generation_config.json, so an engine that names only its temperature samples however that file says (for the
Qwen2.5 family: nucleus 0.8, top-k 20, repetition penalty 1.05, temperature 0.7). Each engine therefore
names every parameter, in a Sampling constant kept next to it.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Sampling:
    temperature: float
    top_p: float                # 1.0: no nucleus cut
    top_k: int                  # 0: no top-k cut
    repetition_penalty: float   # 1.0: none

    def __post_init__(self) -> None:
        if not (self.temperature > 0 and 0 < self.top_p <= 1 and self.top_k >= 0 and self.repetition_penalty > 0):
            raise ValueError(f"Not a valid sampling setting: {self}.")

    def generate_kwargs(self) -> dict[str, object]:
        """The keyword arguments of generate() that fix every sampling choice (one beam, sampled)."""
        return {"do_sample": True, "num_beams": 1, "temperature": self.temperature, "top_p": self.top_p,
                "top_k": self.top_k, "repetition_penalty": self.repetition_penalty}
