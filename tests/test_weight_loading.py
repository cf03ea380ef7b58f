"""one_thread_weight_loading keeps every tensor placement of a transformers load in the calling thread, where
ZeroGPU's CUDA emulation (a torch function mode, which is per thread) can see it."""
import os

import torch
from support.placements import PlacementsSeen
from transformers import Qwen2Config, Qwen2ForCausalLM

from e3rg_core.weight_loading import SYNCHRONOUS_LOAD_VARIABLE, one_thread_weight_loading


def placements_seen(folder, one_thread: bool) -> int:
    mode = PlacementsSeen()
    with mode:
        if one_thread:
            with one_thread_weight_loading():
                Qwen2ForCausalLM.from_pretrained(folder, dtype=torch.bfloat16, device_map={"": "cpu"})
        else:
            Qwen2ForCausalLM.from_pretrained(folder, dtype=torch.bfloat16, device_map={"": "cpu"})
    return mode.placements


def test_an_unquantised_load_places_every_tensor_in_the_calling_thread(tmp_path, monkeypatch):
    monkeypatch.delenv(SYNCHRONOUS_LOAD_VARIABLE, raising=False)
    config = Qwen2Config(vocab_size=64, hidden_size=16, intermediate_size=32, num_hidden_layers=2,
                         num_attention_heads=2, num_key_value_heads=1)
    model = Qwen2ForCausalLM(config)
    model.save_pretrained(tmp_path)
    tensors = len(model.state_dict())
    # By default transformers 5 places them from a thread pool, unseen by the caller's mode ...
    assert placements_seen(tmp_path, one_thread=False) == 0
    # ... and inside the block every one of them in the calling thread.
    assert placements_seen(tmp_path, one_thread=True) == tensors
    assert SYNCHRONOUS_LOAD_VARIABLE not in os.environ


def test_the_variable_is_restored_to_what_it_was(monkeypatch):
    monkeypatch.setenv(SYNCHRONOUS_LOAD_VARIABLE, "0")
    with one_thread_weight_loading():
        assert os.environ[SYNCHRONOUS_LOAD_VARIABLE] == "1"
    assert os.environ[SYNCHRONOUS_LOAD_VARIABLE] == "0"
