"""The settings of the Space: the environment variables it reads, and the bounds on what one request may cost.
One place for each."""
from __future__ import annotations

import os
from pathlib import Path

# -- environment variables --------------------------------------------------------------------------------------
TIER_VARIABLE = "E3RG_TIER"                 # auto (full when a GPU is present), full or lite
TIER_CHOICES = ("auto", "full", "lite")
FULL_DEVICE_VARIABLE = "E3RG_FULL_DEVICE"   # where the full tier's engines go: cuda (default) or cpu (rehearsals)
DATA_DIR_VARIABLE = "E3RG_DATA_DIR"         # avatars and derived features; default ~/.cache/e3rg
QUEUE_SIZE_VARIABLE = "E3RG_QUEUE_SIZE"     # turns that may wait; default QUEUE_SIZE (tests fill a small queue)
# Set by Hugging Face, not by us: SPACE_ID on every Space, SPACES_ZERO_GPU on ZeroGPU hardware.
SPACE_VARIABLE = "SPACE_ID"
ZERO_GPU_VARIABLE = "SPACES_ZERO_GPU"
# Gradio's own variables for where it listens; the Space listens on every interface, port 7860.
SERVER_NAME_VARIABLE = "GRADIO_SERVER_NAME"
SERVER_PORT_VARIABLE = "GRADIO_SERVER_PORT"


def requested_tier() -> str:
    choice = (os.environ.get(TIER_VARIABLE) or "auto").strip().lower()
    if choice not in TIER_CHOICES:
        raise ValueError(f"{TIER_VARIABLE} must be one of {', '.join(TIER_CHOICES)}, not {choice!r}.")
    return choice


def full_tier_device() -> str:
    return (os.environ.get(FULL_DEVICE_VARIABLE) or "cuda").strip().lower()


def data_dir() -> Path:
    return Path(os.environ.get(DATA_DIR_VARIABLE) or Path.home() / ".cache" / "e3rg")


def queue_size() -> int:
    return int(os.environ.get(QUEUE_SIZE_VARIABLE) or QUEUE_SIZE)


def on_space() -> bool:
    return bool(os.environ.get(SPACE_VARIABLE))


def on_zero_gpu() -> bool:
    return bool(os.environ.get(ZERO_GPU_VARIABLE))


def server_address() -> tuple[str, int]:
    return (os.environ.get(SERVER_NAME_VARIABLE) or "0.0.0.0",
            int(os.environ.get(SERVER_PORT_VARIABLE) or "7860"))


# -- bounds ----------------------------------------------------------------------------------------------------

CONCURRENT_TURNS = 4                # turns served at once (each holds a CPU core or the GPU call's worker)
QUEUE_SIZE = 32                     # turns waiting beyond those; more are turned away with a message
# malloc arenas the server's threads share (glibc makes one per thread otherwise, each holding freed memory: heap.py)
MALLOC_ARENAS = 2

# -- sessions (sessions.py): each keeps a copy of the page's configuration, about 0.2 MiB, besides its state ---------
# Sessions whose state (dialogue, latest reply, uploaded avatars) the server keeps; the least recently used beyond
# this are forgotten (gradio keeps 10,000 by default): at most about 100 MiB of sessions.
SESSIONS_KEPT = 400
SESSION_IDLE_SECONDS = 3 * 3600         # a page left this long starts a new conversation when it comes back
STATELESS_SESSION_IDLE_SECONDS = 5 * 60     # an API client's session, which holds nothing of its own

# -- lifetimes of the files turns leave behind (README, "Operating notes") --------------------------------------
# Every file is in one of three temporary folders, each with an owner: a request's folder (its outputs and
# bundle: request_files), a browser session's folder (its uploaded avatars: request_files, deleted when the
# session closes) and gradio's cache (the copies gradio serves, and uploads: gradio's delete_cache, plus the
# sweeper for the size cap and the empty folders it leaves).
SWEEP_INTERVAL_SECONDS = 60             # how often the sweeper runs, with or without requests
REQUEST_FILES_TTL_SECONDS = 20 * 60     # a request's files: the page's links and downloads work this long
GRADIO_CACHE_TTL_SECONDS = 20 * 60      # gradio's copies of outputs and uploads
SESSION_FILES_TTL_SECONDS = 24 * 3600   # a session's avatars, should its close never be seen
# Beyond this, the oldest request and cache files go first (sessions' avatars last), whatever their age.
TEMP_FILES_CAP_BYTES = 1024 * 2**20

MAX_TEXT_CHARS = 2_000              # the user's latest turn
MAX_HISTORY_CHARS = 8_000           # the whole dialogue so far
MAX_HISTORY_UTTERANCES = 40
MAX_UPLOAD_BYTES = 200 * 1024 * 1024
MAX_INPUT_AUDIO_SECONDS = 60.0      # user audio, and audio taken from a user video
MAX_INPUT_VIDEO_SECONDS = 60.0
# Frames the understanding stage may look at: Ola-Omni was fine-tuned on at most 48 frames (frames_upbound 48 in
# its training scripts), and 48 frames of 640x360 (253 tokens each after Ola's resize) leave a quarter of its
# 16,384-token context to the dialogue, the audio and the reply; 64 frames (16.2k tokens) would not fit.
MAX_VIDEO_FRAMES_SAMPLED = 48
MIN_AUDIO_RMS = 1e-3                # below this a clip counts as silent
MIN_REFERENCE_SPEECH_SECONDS = 3.0  # voice cloning needs this much speech in the reference
MAX_REFERENCE_VOICE_SECONDS = 60.0
MAX_REPLY_TOKENS = 64                # E3RG replies are one to three sentences
MAX_EMOTION_TOKENS = 8              # the one-word emotion answer of an LLM voter
MAX_REPLY_CHARS = 360               # the reply that speech and video render (about 20 s spoken)
MAX_SPEECH_SECONDS = 30.0           # generated speech, and therefore the talking-head video
REPLY_SPEECH_SECONDS = 8.0          # a lite reply's speech (issue 20); the writers cut replies to fit it
MAX_VIDEO_STEPS = 50                # denoising steps of a diffusion talking head (GPU time grows with them)
MIN_VIDEO_STEPS = 10                # the fewest steps a video is cut to so that it fits its turn's GPU time
# The ZeroGPU duration one turn may ask for (its whole GPU part). ZeroGPU multiplies a request by 1.5 on its
# Blackwell cards and refuses it when that exceeds the visitor's quota left: 200 s is what a signed-in free
# account (5 min a day) can still be granted.
MAX_GPU_SECONDS = 200
MAX_PORTRAIT_PIXELS = 4096 * 4096
AUDIO_SAMPLE_RATE = 16_000          # what the understanding stage consumes
