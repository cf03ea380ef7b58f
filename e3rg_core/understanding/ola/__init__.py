"""Ola-Omni-7B (Qwen2 + OryxViT + Whisper-large-v3 + BEATs), ported to transformers with PyTorch SDPA.

Read top-down: config (settings), vision / whisper / beats / speech (encoders), projectors, model (the merge
and the LLM), processor (request -> inputs), loading (strict, 4-bit), engine (voter and reply writer), cost
(GPU memory and seconds). Submodules are imported directly; this package imports nothing heavy by itself.
"""
