"""DICE-Talk (emotional talking-head video from one portrait) on diffusers' Stable Video Diffusion parts."""
from .checkpoints import hub_files
from .cost import estimate_gpu_seconds
from .engine import DiceTalkVideoEngine
from .pipeline import DiceTalkPipeline

__all__ = ["DiceTalkPipeline", "DiceTalkVideoEngine", "estimate_gpu_seconds", "hub_files"]
