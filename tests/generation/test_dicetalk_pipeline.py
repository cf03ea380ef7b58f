"""The DICE-Talk engine end to end on CPU with tiny random-weight models: the real portrait preparation,
whisper encoder, sampler, VAE, RIFE, and H.264+AAC muxing through ffmpeg."""
import hashlib
import io
from pathlib import Path

import numpy as np
import pytest
import torch

from e3rg_core.emotions import COARSE_LABELS, COARSE_TO_DICETALK_EMOTION
from e3rg_core.contracts import GenerationSettings, Speech
from e3rg_core.errors import (CheckpointMismatchError, EngineUnavailableError, InputError, MediaTooLongError,
                              NoFaceError)
from e3rg_core.faces import largest_face
from e3rg_core.generation.dicetalk import DiceTalkVideoEngine, emotion_priors, estimate_gpu_seconds, hub_files
from e3rg_core.generation.dicetalk.cost import unet_calls
from e3rg_core.generation.dicetalk.emotion_priors import load_emotion_priors, parse_official_prior, prior_vector
from e3rg_core.generation.dicetalk.interpolation import FrameInterpolator, doubled_frame_rate, warp
from e3rg_core.generation.dicetalk.pipeline import DiceTalkPipeline
from e3rg_core.generation.dicetalk.portrait import prepare_portrait
from e3rg_core.generation.dicetalk.sampler import SamplerSettings
from e3rg_core.generation.dicetalk.tiny import TINY_SHORT_SIDE as SIDE
from e3rg_core.generation.dicetalk.tiny import tiny_pipeline
from e3rg_core.settings import MAX_SPEECH_SECONDS
from e3rg_core.media import decode_audio, render_video

pytestmark = pytest.mark.usefixtures("one_torch_thread")


@pytest.fixture(scope="module")
def pipeline() -> DiceTalkPipeline:
    return tiny_pipeline(seed=0)


@pytest.fixture(scope="module")
def engine(pipeline) -> DiceTalkVideoEngine:
    rng = np.random.default_rng(0)
    priors = {name: rng.standard_normal(256) for name in COARSE_TO_DICETALK_EMOTION.values()}
    return DiceTalkVideoEngine(pipeline, priors, short_side=SIDE)


@pytest.fixture(scope="module")
def portrait() -> np.ndarray:
    from skimage import data
    return data.astronaut()


def _speech(seconds: float, sample_rate: int = 24_000) -> Speech:
    times = np.arange(int(seconds * sample_rate)) / sample_rate
    samples = 0.3 * np.sin(2 * np.pi * 220 * times) * (1 + np.sin(2 * np.pi * 3 * times)) / 2
    return Speech(samples=samples.astype(np.float32), sample_rate=sample_rate, engine="test")


def _read_video(path):
    import imageio_ffmpeg
    reader = imageio_ffmpeg.read_frames(str(path))
    meta = next(reader)
    frames = [np.frombuffer(buffer, np.uint8) for buffer in reader]
    return meta, len(frames)



def test_render_writes_a_25_fps_video_with_the_whole_speech(engine, portrait, tmp_path):
    speech = _speech(1.3)
    calls = []
    hook = engine.pipeline.unet.register_forward_hook(lambda *args: calls.append(1))
    try:
        video = render_video(engine, portrait, speech, "happy", GenerationSettings(video_steps=2, seed=3),
                              tmp_path / "out.mp4")
    finally:
        hook.remove()
    generated = int(1.3 * 16_000) // 640 // 2                   # 12.5 fps frames from the 16 kHz clip
    assert video.frame_count == 2 * generated - 1 and video.fps == 25.0
    meta, frames = _read_video(video.path)
    assert frames == video.frame_count
    assert meta["fps"] == pytest.approx(25.0) and tuple(meta["size"]) == (SIDE, SIDE)
    audio = decode_audio(video.path, 16_000, 60.0, "the rendered video's audio")
    assert abs(len(audio) / 16_000 - speech.seconds) < 0.05
    assert len(calls) == unet_calls(speech.seconds, 2)          # the cost model counts the real UNet calls


def test_each_call_is_seeded_on_its_own(pipeline, portrait):
    samples = np.random.default_rng(1).standard_normal(8_000).astype(np.float32) * 0.1
    prior = np.ones(256, np.float32)

    def frames(seed: int) -> np.ndarray:
        return np.stack(list(pipeline.render_frames(portrait, samples, prior, SamplerSettings(steps=1), seed,
                                                    short_side=SIDE)))
    first = frames(5)
    assert first.shape == (2 * 6 - 1, SIDE, SIDE, 3)
    assert np.array_equal(first, frames(5))
    assert not np.array_equal(first, frames(6))


def test_clear_errors_before_any_generation(engine, portrait, tmp_path):
    settings = GenerationSettings(video_steps=2, seed=0)
    with pytest.raises(NoFaceError):
        render_video(engine, np.full((256, 256, 3), 128, np.uint8), _speech(1.0), "sad", settings, tmp_path / "a.mp4")
    with pytest.raises(MediaTooLongError, match="limited"):
        render_video(engine, portrait, _speech(MAX_SPEECH_SECONDS + 1), "sad", settings, tmp_path / "b.mp4")
    with pytest.raises(InputError):
        render_video(engine, portrait, _speech(1.0), "bored", settings, tmp_path / "c.mp4")
    with pytest.raises(InputError):
        render_video(engine, portrait, _speech(1.0), "sad", GenerationSettings(video_steps=0), tmp_path / "d.mp4")
    with pytest.raises(InputError):
        engine.animate_prior(portrait, _speech(1.0), np.ones(255), settings)
    assert not list(tmp_path.glob("*.mp4"))


def test_every_coarse_emotion_has_a_prior(engine):
    assert {COARSE_TO_DICETALK_EMOTION[label] for label in COARSE_LABELS} <= set(engine.priors)


def test_warp_moves_pixels_by_the_flow():
    image = torch.arange(2 * 3 * 16 * 16, dtype=torch.float32).reshape(2, 3, 16, 16)
    assert torch.allclose(warp(image, torch.zeros(2, 2, 16, 16)), image, atol=1e-3)
    flow = torch.zeros(2, 2, 16, 16)
    flow[:, 0] = 2.0                                            # sample two pixels to the right
    assert torch.allclose(warp(image, flow)[..., :-2], image[..., 2:], atol=1e-3)


def test_interpolation_doubles_the_frame_rate_and_keeps_the_frames():
    interpolator = FrameInterpolator(width=8).eval()
    frames = torch.rand(7, 3, 32, 32)
    with torch.no_grad():
        doubled = torch.cat(list(doubled_frame_rate(frames.split(3), interpolator)))
    assert doubled.shape == (13, 3, 32, 32)
    assert torch.equal(doubled[::2], frames)
    # With the flow and mask heads silenced, RIFE's middle frame is the plain average of its neighbours.
    for block in (interpolator.block0, interpolator.block1, interpolator.block2):
        for head in (block.conv1[-1], block.conv2[-1]):
            torch.nn.init.zeros_(head.weight)
            torch.nn.init.zeros_(head.bias)
    with torch.no_grad():
        middle = interpolator(frames[:-1], frames[1:])
    assert torch.allclose(middle, (frames[:-1] + frames[1:]) / 2, atol=1e-5)


def test_gpu_estimate_grows_with_speech_and_steps():
    assert estimate_gpu_seconds(10, 25) > estimate_gpu_seconds(5, 25) > estimate_gpu_seconds(1, 25) > 0
    assert estimate_gpu_seconds(5, 50) > estimate_gpu_seconds(5, 25)
    assert estimate_gpu_seconds(5, 25, pixels=512 * 768) > estimate_gpu_seconds(5, 25)
    assert unet_calls(10.0, 25) == 25 * 6                     # 125 frames + 25 padding = 6 windows


def test_hub_files_are_exact_files_not_whole_repos():
    files = hub_files()
    assert len(files) == len(set(files)) and all("*" not in name for _, name in files)
    svd = [name for repo, name in files if repo == "stabilityai/stable-video-diffusion-img2vid-xt"]
    assert "unet/config.json" in svd and not any(name.startswith("unet/diffusion_pytorch_model") for name in svd)
    assert all(".fp16." in name for name in svd if name.endswith(".safetensors"))


def test_portrait_preparation(portrait):
    uncropped = prepare_portrait(portrait, crop=False)
    assert uncropped.image.shape == (512, 512, 3) and uncropped.clip_image.shape == (224, 224, 3)
    face = largest_face(portrait)
    centre = uncropped.face_mask[face.y + face.height // 2, face.x + face.width // 2]
    assert centre == pytest.approx(1.0, abs=0.02) and uncropped.face_mask[0, 0] == pytest.approx(0.0, abs=0.02)
    wide = prepare_portrait(np.concatenate([portrait, portrait[:, :256]], axis=1), crop=False)
    assert wide.image.shape == (512, 768, 3)
    cropped = prepare_portrait(np.concatenate([portrait] * 3, axis=1), crop=True)
    assert cropped.image.shape == (512, 512, 3)
    assert cropped.face_mask.mean() > uncropped.face_mask.mean()     # the face fills more of a face crop
    with pytest.raises(InputError, match="crop"):
        prepare_portrait(np.concatenate([portrait] * 3, axis=1), crop=False)


def _pickled_npy(value) -> bytes:
    buffer = io.BytesIO()
    np.save(buffer, value, allow_pickle=True)
    return buffer.getvalue()


def test_official_prior_files_are_read_without_unpickling(tmp_path):
    mu = np.random.default_rng(2).standard_normal((1, 256)).astype(np.float32)
    assert np.array_equal(parse_official_prior(_pickled_npy({"mu": mu}), "happy"), mu[0])

    class Payload:
        def __reduce__(self):
            return (Path.touch, (tmp_path / "executed",))
    with pytest.raises(CheckpointMismatchError):
        parse_official_prior(_pickled_npy({"mu": Payload()}), "hostile")
    assert not (tmp_path / "executed").exists()
    with pytest.raises(CheckpointMismatchError):
        parse_official_prior(b"not a numpy file", "garbage")


def _official_files(folder: Path, monkeypatch) -> dict[str, np.ndarray]:
    """Eight prior files in the official format in folder, pinned in place of the real files' SHA-256."""
    folder.mkdir()
    vectors = {name: np.full((1, 256), index, np.float32) for index, name in enumerate(emotion_priors.SHA256)}
    for name, vector in vectors.items():
        raw = _pickled_npy({"mu": vector})
        (folder / f"{name}.npy").write_bytes(raw)
        monkeypatch.setitem(emotion_priors.SHA256, name, hashlib.sha256(raw).hexdigest())
    return vectors


def test_the_shipped_priors_are_the_eight_official_vectors():
    """The package's .npz (assets/README.md gives its source): each of the eight a 256-d vector of the spread the
    official files have (mean about 0, L2 norm 13.3-14.0, research/dicetalk.md), all different."""
    priors = load_emotion_priors(Path("/nonexistent"))
    assert set(priors) == set(emotion_priors.SHA256) and emotion_priors.SHIPPED_PRIORS.stat().st_size < 16_000
    assert all(13.0 < np.linalg.norm(v) < 14.5 and abs(v.mean()) < 0.15 for v in priors.values())
    assert len({v.tobytes() for v in priors.values()}) == 8


def test_emotion_priors_in_the_data_folder_win_and_loading_never_downloads(tmp_path, monkeypatch):
    monkeypatch.setattr(emotion_priors, "_download", None)          # any download attempt would fail the test
    monkeypatch.setattr(emotion_priors, "SHIPPED_PRIORS", tmp_path / "absent.npz")
    with pytest.raises(EngineUnavailableError, match="python -m e3rg_core.generation.dicetalk.emotion_priors"):
        load_emotion_priors(tmp_path / "data")
    vectors = _official_files(tmp_path / "emo", monkeypatch)
    assert emotion_priors.main(["--from", str(tmp_path / "emo"), "--data-dir", str(tmp_path / "data")]) == 0
    priors = load_emotion_priors(tmp_path / "data")
    assert set(priors) == set(COARSE_TO_DICETALK_EMOTION.values())
    assert all(np.array_equal(priors[name], vectors[name][0]) for name in priors)


def test_installing_emotion_priors_downloads_the_pinned_files_and_refuses_any_other(tmp_path, monkeypatch):
    _official_files(tmp_path / "emo", monkeypatch)
    monkeypatch.setattr(emotion_priors, "_download", lambda name: (tmp_path / "emo" / f"{name}.npy").read_bytes())
    emotion_priors.install_emotion_priors(tmp_path / "data")
    assert set(load_emotion_priors(tmp_path / "data")) == set(COARSE_TO_DICETALK_EMOTION.values())
    (tmp_path / "emo" / "fear.npy").write_bytes(_pickled_npy({"mu": np.zeros((1, 256), np.float32)}))
    with pytest.raises(CheckpointMismatchError, match="fear"):
        emotion_priors.install_emotion_priors(tmp_path / "other", tmp_path / "emo")
    assert emotion_priors.main(["--from", str(tmp_path / "emo"), "--data-dir", str(tmp_path / "other")]) == 1
    assert not (tmp_path / "other" / emotion_priors.CACHE_NAME).exists()


@pytest.mark.parametrize("values", [np.ones(255), np.full(256, np.nan), "happy", [[1.0] * 128] * 3])
def test_custom_priors_must_be_256_finite_numbers(values):
    with pytest.raises(InputError):
        prior_vector(values)
