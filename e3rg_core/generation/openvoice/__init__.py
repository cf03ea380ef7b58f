"""A clean-room port of OpenVoice's inference networks (MyShell, MIT), loading the official checkpoints.

- converter.ToneColorConverter: V1 or V2 tone colour converter (extract_se, convert).
- synthesizer.BaseSpeakerTTS: V1 English base speaker with nine speaking styles.
- engine.OpenVoiceSpeechEngine: both wired into the project's SpeechEngine.
- checkpoints.required_hub_files / preload_from_hub: the exact hub files.
"""
from .checkpoints import HubFile, preload_from_hub, required_hub_files
from .converter import ToneColorConverter
from .engine import OpenVoiceSpeechEngine
from .synthesizer import BaseSpeakerTTS

__all__ = ["BaseSpeakerTTS", "HubFile", "OpenVoiceSpeechEngine", "ToneColorConverter", "preload_from_hub",
           "required_hub_files"]
