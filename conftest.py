"""Test-wide settings: offline, no analytics, a private data folder; never SPACES_ZERO_GPU."""
import os
import tempfile

os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("E3RG_DATA_DIR", tempfile.mkdtemp(prefix="e3rg-test-data-"))
os.environ.pop("SPACES_ZERO_GPU", None)
