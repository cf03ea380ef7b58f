"""The full tier's hub rehearsal (e3rg_dev.hub_rehearsal): a private hub cache in huggingface_hub's own layout,
holding exactly the files hub_files() lists, written like the official ones; every full engine loads from it
with its own loader, offline; a missing file leaves only its engine unavailable, with the reason; and
scripts/rehearse_full_tier.sh boots the app on it, serves a turn with every full engine, then without DICE-Talk."""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from e3rg_core.errors import CheckpointMismatchError
from e3rg_core.generation.dicetalk.audio_projection import AudioProjectionConfig
from e3rg_core.generation.dicetalk.checkpoints import DICETALK_REPO, module_configs
from e3rg_core.generation.dicetalk.emotion_model import EmotionModelConfig
from e3rg_core.generation.dicetalk.pose_guider import PoseGuiderConfig
from e3rg_core.generation.openvoice.checkpoints import V1_REPO
from e3rg_dev.hub_rehearsal import fake_repos, rehearsal_environment
from e3rg_dev.hub_rehearsal.app_run import TurnResult
from e3rg_dev.hub_rehearsal.cache import FakeHubError, build_cache, repo_folder
from e3rg_dev.hub_rehearsal.run import (Serving, fallbacks, missing_engine_notice, network_off,
                                         served_problems)
from e3rg_core.tiers.full import hub_files
from e3rg_core.understanding.ola.cost import VISION_PARAMS
from e3rg_core.understanding.ola.loading import (BEATS_FILE, OLA_REPO, SPEECH_REPO, WHISPER_FILE, OlaFiles,
                                                  load_ola)
from e3rg_core.understanding.qwen_omni_voter import QWEN_OMNI_REPO

pytestmark = pytest.mark.usefixtures("one_torch_thread")

ROOT = Path(__file__).resolve().parents[3]
GOLDEN = ROOT.parent / "shared" / "golden"
ENGINES = {"Ola-Omni", "Qwen2.5-Omni", "OpenVoice", "DICE-Talk"}


@pytest.fixture(scope="module")
def written(tmp_path_factory) -> dict[str, Path]:
    """Every fake repository, written once for the module (seed 0): the tests link or read them."""
    root = tmp_path_factory.mktemp("fake_repos")
    folders = {}
    for repo in fake_repos.FAKE_REPOS:
        folders[repo.repo_id] = root / repo.repo_id.replace("/", "--")
        folders[repo.repo_id].mkdir()
        repo.write(folders[repo.repo_id], 0)
    return folders


def rehearse(root: Path, files: list | None, written: dict[str, Path]) -> dict:
    """prepare + check_loaders in a fresh process under rehearsal_environment(root) (huggingface_hub reads it
    once, at import): cache holding `files` (None: hub_files()), linked from the repositories in `written`;
    DICE-Talk's priors are the package's own, as on the Space."""
    code = """
import json, sys
from pathlib import Path
from e3rg_dev.hub_rehearsal.cache import timed_build
from e3rg_dev.hub_rehearsal.run import check_loaders
root = Path(sys.argv[1])
files = json.loads(sys.argv[2])
folders = {repo: Path(folder) for repo, folder in json.loads(sys.argv[3]).items()}
cache = timed_build(root / "hub", None if files is None else [tuple(file) for file in files], folders)
print(json.dumps({"cache": cache, "loaders": check_loaders(root)}))
"""
    env = {**os.environ, **rehearsal_environment(root)}
    env.pop("E3RG_TIER", None)
    folders = json.dumps({repo: str(folder) for repo, folder in written.items()})
    run = subprocess.run([sys.executable, "-c", code, str(root), json.dumps(files), folders], env=env,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-4000:]
    return json.loads(run.stdout.strip().splitlines()[-1])


def test_every_full_engine_loads_offline_from_a_cache_holding_only_the_listed_files(tmp_path, written):
    report = rehearse(tmp_path, None, written)
    cache, loaders = report["cache"], report["loaders"]
    listed = hub_files()
    assert cache["files"] == len(listed) == len(set(listed))
    assert {(repo, name) for repo, names in cache["written"].items() for name in names} == set(listed)
    # The full-size OryxViT in bf16 (the official config.json leaves its size to Ola's code), and the tiny rest.
    assert cache["bytes"] < 2 * VISION_PARAMS + 100e6 and cache["seconds"] < 60
    assert set(loaders) == ENGINES
    assert all("error" not in result for result in loaders.values()), loaders
    # Both LLMs are quantised by their loaders, as on the GPU.
    assert loaders["Ola-Omni"]["linear4bit"] > 0 and loaders["Qwen2.5-Omni"]["linear4bit"] > 0


def test_a_missing_repository_or_file_leaves_only_its_engine_unavailable_and_says_why(tmp_path, written):
    dropped = {(OLA_REPO, "model-00003-of-00004.safetensors"),
               (V1_REPO, "checkpoints/base_speakers/EN/en_style_se.pth"), (DICETALK_REPO, "DICE-Talk/emo_model.pth")}
    files = [file for file in hub_files() if file not in dropped and file[0] != QWEN_OMNI_REPO]
    loaders = rehearse(tmp_path, files, written)["loaders"]
    assert set(loaders) == ENGINES and all("error" in result for result in loaders.values()), loaders
    assert loaders["Ola-Omni"]["error"].startswith("EngineUnavailableError: Ola-Omni weights could not be fetched")
    assert "Qwen2.5-Omni-7B are not available" in loaders["Qwen2.5-Omni"]["error"]
    assert "EN/en_style_se.pth is not available" in loaders["OpenVoice"]["error"]
    assert "emo_model.pth" in loaders["DICE-Talk"]["error"]


def test_the_cache_is_laid_out_as_huggingface_hub_lays_out_its_own(tmp_path):
    from huggingface_hub import hf_hub_download, snapshot_download
    files = [(V1_REPO, "checkpoints/converter/config.json"), (V1_REPO, "checkpoints/converter/checkpoint.pth")]
    assert build_cache(tmp_path, files) == {V1_REPO: sorted(name for _, name in files)}
    folder = repo_folder(tmp_path, V1_REPO)
    commit = (folder / "refs" / "main").read_text()
    assert re.fullmatch(r"[0-9a-f]{40}", commit)
    for _, name in files:
        path = Path(hf_hub_download(V1_REPO, name, cache_dir=tmp_path, local_files_only=True))
        assert path == folder / "snapshots" / commit / name and path.is_symlink()
        assert not Path(os.readlink(path)).is_absolute()
        data = path.read_bytes()
        # Large (LFS) files are stored under their sha256, small ones under their git blob id.
        blob = (hashlib.sha256(data).hexdigest() if name.endswith(".pth")
                else hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest())
        assert path.resolve() == (folder / "blobs" / blob).resolve()
    snapshot = Path(snapshot_download(V1_REPO, cache_dir=tmp_path, local_files_only=True))
    assert sorted(p.relative_to(snapshot).as_posix() for p in snapshot.rglob("*") if p.is_file()) == \
        sorted(name for _, name in files)


def test_the_fake_hub_refuses_what_it_cannot_write(tmp_path):
    with pytest.raises(FakeHubError, match="no repository"):
        build_cache(tmp_path, [("someone/else", "config.json")])
    with pytest.raises(FakeHubError, match="does not make"):
        build_cache(tmp_path, [(DICETALK_REPO, "DICE-Talk/not_a_checkpoint.pth")])


def test_hub_files_name_every_file_and_none_of_ola_7b_s_copy_of_the_speech_encoders():
    files = hub_files()
    assert all(name for _, name in files)
    assert not [name for repo, name in files if repo == OLA_REPO and name.endswith((".pt", ".bin"))]
    assert {(SPEECH_REPO, WHISPER_FILE), (SPEECH_REPO, BEATS_FILE)} <= set(files)


def test_the_rehearsal_refuses_connections_that_leave_the_machine():
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        with network_off():
            with pytest.raises(ConnectionRefusedError, match="offline"):
                socket.create_connection(("192.0.2.1", 443), timeout=1)
            with socket.create_connection(server.getsockname(), timeout=1):
                pass


# The limit leaves a slow, shared CI runner room. The test's own timeout must outlast it, else pytest-timeout ends a
# slow but passing rehearsal before the script's limit is reached.
REHEARSAL_SCRIPT_SECONDS = 1200


@pytest.mark.timeout(REHEARSAL_SCRIPT_SECONDS + 60)
def test_the_rehearsal_script_serves_a_turn_on_every_full_engine_and_one_without_dice_talk():
    """bash scripts/rehearse_full_tier.sh, as CI and a developer run it: the app booted twice on the fake hub."""
    from e3rg_core.generation.dicetalk import DiceTalkVideoEngine
    from e3rg_core.generation.lite_video import LiteTalkingPortrait
    from e3rg_core.understanding.ola.engine import OlaEmotionVoter, OlaReplyWriter
    from e3rg_core.understanding.qwen_omni_voter import QwenOmniVoter
    run = subprocess.run(["bash", str(ROOT / "scripts" / "rehearse_full_tier.sh")], capture_output=True, text=True,
                         timeout=REHEARSAL_SCRIPT_SECONDS)
    lines = run.stdout.strip().splitlines()
    assert lines and lines[-1].startswith("{"), run.stderr[-6000:]
    report = json.loads(lines[-1])
    assert run.returncode == 0 and report["passed"], (report.get("problems"), run.stderr[-6000:])
    assert set(report) >= {"full_turn", "degraded_turn"} and not report["problems"]
    full, degraded = report["full_turn"], report["degraded_turn"]
    assert {OlaEmotionVoter.name, QwenOmniVoter.name} <= set(full["voters"])
    assert (full["writer"], full["video"]) == (OlaReplyWriter.name, DiceTalkVideoEngine.name)
    assert full["speech"] == report["loaders"]["OpenVoice"]["name"] and "OpenVoice" in full["speech"]
    assert full["seconds"] > 0 and not fallbacks(full["notices"])
    assert degraded["missing"] == DICETALK_REPO
    served = degraded["served_by"]
    assert (served["text"], served["speech"], served["video"]) == (full["writer"], full["speech"],
                                                                   LiteTalkingPortrait.name)
    assert {OlaEmotionVoter.name, QwenOmniVoter.name} <= set(served["voters"])
    assert degraded["notice"].startswith("DICE-Talk is not available (") and DICETALK_REPO in degraded["notice"]
    assert fallbacks(degraded["notices"]) == [degraded["notice"]]


def turn_result(tmp_path: Path, voters: list[str], engines: dict, notices: list[str] = ()) -> TurnResult:
    outputs = []
    for name in ("reply.wav", "reply.mp4", "bundle.zip"):
        (tmp_path / name).write_bytes(b"made")
        outputs.append(tmp_path / name)
    votes = [{"voter": voter} for voter in voters]
    return TurnResult({"emotion": {"votes": votes}, "engines": engines, "notices": list(notices)}, "Well done!",
                      *outputs, 1.0)


FULL = Serving(("ola", "qwen"), "ola", "openvoice", "dicetalk")


def test_the_rehearsal_finds_a_stage_served_by_another_engine_a_missing_vote_or_output(tmp_path):
    turn = turn_result(tmp_path, ["prosody rule", "ola", "qwen"], {"text": "ola", "speech": "openvoice",
                                                                    "video": "dicetalk"})
    assert served_problems(turn, FULL) == []
    assert served_problems(turn, Serving(("ola", "qwen"), "ola", "openvoice", "lite portrait")) == [
        "the video was made by 'dicetalk', not 'lite portrait'"]
    turn = turn_result(tmp_path, ["ola"], {"text": "template", "speech": "openvoice", "video": "dicetalk"})
    (tmp_path / "reply.mp4").unlink()
    assert served_problems(turn, FULL) == ["no vote from qwen (votes from ola)",
                                           "the text was made by 'template', not 'ola'",
                                           "the reply's .mp4 is missing or empty"]


def test_the_rehearsal_reads_which_stage_fell_back_and_which_engine_is_missing():
    notices = ["DICE-Talk is not available (EngineUnavailableError: EEEELY/DICE-Talk/DICE-Talk/unet.pth is not "
               "available (LocalEntryNotFoundError).); the lite (CPU) engines do its part.",
               "The GPU speech stage handed over: it failed. The lite (CPU) engines made the speech and video.",
               "The video was rendered with 20 denoising steps instead of 25, to fit this turn's GPU time."]
    assert fallbacks(notices) == notices[:2]
    assert missing_engine_notice(notices, "DICE-Talk", DICETALK_REPO) == notices[0]
    assert missing_engine_notice(notices, "DICE-Talk", QWEN_OMNI_REPO) is None
    assert missing_engine_notice(notices, "OpenVoice", DICETALK_REPO) is None
    assert missing_engine_notice(notices + notices[:1], "DICE-Talk", DICETALK_REPO) is None


def test_ola_reads_speech_encoders_saved_in_the_legacy_pickle_format(tmp_path, written):
    """torch.load(mmap=True) refuses the pre-zip format; the loader falls back to a plain weights-only load."""
    model_dir, speech = written[OLA_REPO], tmp_path / "speech"
    shutil.copytree(written[SPEECH_REPO], speech)       # copies: the files are rewritten below
    for name in (WHISPER_FILE, BEATS_FILE):
        content = torch.load(speech / name, weights_only=True)
        torch.save(content, speech / name, _use_new_zipfile_serialization=False)
    with pytest.raises(RuntimeError, match="mmap"):
        torch.load(speech / WHISPER_FILE, weights_only=True, mmap=True)
    model = load_ola(OlaFiles(model_dir, speech / WHISPER_FILE, speech / BEATS_FILE), device="cpu", quantize=False)
    assert not any(tensor.is_meta for tensor in model.state_dict().values())
    (speech / BEATS_FILE).write_bytes(b"not a checkpoint")
    with pytest.raises(CheckpointMismatchError, match=BEATS_FILE):
        load_ola(OlaFiles(model_dir, speech / WHISPER_FILE, speech / BEATS_FILE), device="cpu", quantize=False)


def test_dicetalk_sizes_its_modules_from_the_official_configs_as_upstream_hard_codes_them():
    inference = GOLDEN / "dicetalk" / "inference_config.json"
    if not inference.is_file():
        pytest.skip(f"DICE-Talk golden data not found at {inference}")
    from transformers import WhisperConfig
    # WhisperConfig's defaults are openai/whisper-tiny's (d_model 384, 4 encoder layers).
    sizes = module_configs(json.loads(inference.read_text())["svd_xt_unet_config"], WhisperConfig())
    assert (sizes.pose_guider, sizes.audio_projection, sizes.emotion_model) == \
        (PoseGuiderConfig(), AudioProjectionConfig(), EmotionModelConfig())


# -- key names of the written files against the full-size manifests (layer numbers aside) ------------------------
def patterns(keys) -> set[str]:
    return {re.sub(r"\.\d+(?=\.|$)", ".N", key) for key in keys}


def manifest_keys(path: Path) -> list[str]:
    keys = json.loads(path.read_text())["keys"]
    return list(keys) if isinstance(keys, dict) else [entry["key"] for entry in keys]


def shard_keys(folder: Path) -> list[str]:
    return list(json.loads((folder / "model.safetensors.index.json").read_text())["weight_map"])


def torch_keys(path: Path, entry: str | None = None, prefix: str = "") -> list[str]:
    content = torch.load(path, weights_only=True)
    return [prefix + key for key in (content[entry] if entry else content)]


SPEECH_ENCODERS = "model.speech_encoder."
# (manifest, the written keys, the part of the manifest they hold)
MANIFESTS = [
    ("ola/ola7b_keys.json", lambda w: shard_keys(w[OLA_REPO]), ""),
    ("ola/ola7b_keys.json", lambda w: [
        *(key.replace("encoder.", "model.speech_encoder.whisper_model.", 1)
          for key in torch_keys(w[SPEECH_REPO] / WHISPER_FILE, "model_state_dict") if key.startswith("encoder.")),
        *torch_keys(w[SPEECH_REPO] / BEATS_FILE, "model", "model.speech_encoder.beats_model.")], SPEECH_ENCODERS),
    ("openvoice/base_speaker_en_keys.json",
     lambda w: torch_keys(w[V1_REPO] / "checkpoints/base_speakers/EN/checkpoint.pth", "model"), ""),
    ("openvoice/converter_v1_keys.json",
     lambda w: torch_keys(w[V1_REPO] / "checkpoints/converter/checkpoint.pth", "model"), ""),
    ("dicetalk/unet_keys.json", lambda w: torch_keys(w[DICETALK_REPO] / "DICE-Talk/unet.pth"), ""),
    ("dicetalk/audio_proj_keys.json", lambda w: torch_keys(w[DICETALK_REPO] / "DICE-Talk/audio_linear.pth"), ""),
    ("dicetalk/emotion_keys.json", lambda w: torch_keys(w[DICETALK_REPO] / "DICE-Talk/emo_model.pth"), ""),
    ("dicetalk/pose_guider_keys.json", lambda w: torch_keys(w[DICETALK_REPO] / "DICE-Talk/pose_guider.pth"), ""),
]


@pytest.mark.parametrize("manifest,keys,part", MANIFESTS, ids=[f"{m}-{i}" for i, (m, *_) in enumerate(MANIFESTS)])
def test_written_checkpoints_use_the_full_size_key_names(written, manifest, keys, part):
    path = GOLDEN / manifest
    if not path.is_file():
        pytest.skip(f"key manifest not found at {path}")
    assert patterns(keys(written)) == patterns(key for key in manifest_keys(path) if key.startswith(part))


def test_the_fake_ola_config_has_only_official_keys_so_the_vision_tower_is_built_at_its_hard_wired_size(written):
    """The official config.json has no vision_config: the loader builds OryxViT as Ola's code does, and the fake
    shards hold that full-size tower, shape for shape as the full-size manifest lists it."""
    from safetensors import safe_open
    from e3rg_core.understanding.ola.config import OryxViTConfig
    folder = written[OLA_REPO]
    config = json.loads((folder / "config.json").read_text())
    assert "vision_config" not in config and config["mm_hidden_size"] == OryxViTConfig().width
    shapes = {}
    for shard in sorted(set(json.loads((folder / "model.safetensors.index.json").read_text())["weight_map"].values())):
        with safe_open(str(folder / shard), framework="pt") as handle:
            shapes.update({key: list(handle.get_slice(key).get_shape()) for key in handle.keys()
                           if key.startswith("model.vision_tower.")})
    assert sum(torch.Size(shape).numel() for shape in shapes.values()) == VISION_PARAMS
    path = GOLDEN / "ola" / "ola7b_keys.json"
    if path.is_file():
        manifest = json.loads(path.read_text())["keys"]
        assert shapes == {key: entry["shape"] for key, entry in manifest.items()
                          if key.startswith("model.vision_tower.")}
