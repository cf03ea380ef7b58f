"""Tiny random checkpoints of the ported models, written in the file layouts their loaders read from a local
folder: the Qwen2.5-Omni thinker (save_pretrained), Ola-Omni (config.json + safetensors + tokenizer, Whisper's
and BEATs' .pt files) and OpenVoice V1 (root/<repo_id>/<filename>). scripts/gpu_smoke.py runs them on CUDA;
the tests build their models with them. The tiny sizes here are also what the fake hub (fake_repos.py) shrinks the
official configurations to.
"""
from __future__ import annotations

import json
from pathlib import Path

import torch

CHATML_TOKENS = ("<|endoftext|>", "<|im_start|>", "<|im_end|>")
OMNI_TOKENS = (*CHATML_TOKENS, "<|AUDIO|>", "<|audio_bos|>", "<|audio_eos|>", "<|IMAGE|>", "<|VIDEO|>",
               "<|vision_bos|>", "<|vision_eos|>")
CORPUS = ("Pick the one emotion the Speaker most likely feels from this list.", "You are the Listener.",
          "Speaker: I finally got the job I wanted! Listener: That is wonderful news, I am so happy for you.",
          "joyful proud excited grateful hopeful sad lonely afraid angry surprised neutral anxious devastated")
# Every Linear that the 4-bit CPU kernels see needs in_features % 64 == 0, so both LLMs are 64 wide.
LLM_WIDTH = 64


def tiny_bpe(special_tokens: tuple[str, ...], vocab_size: int = 400):
    """A byte-level BPE trained on a few sentences, built offline with the `tokenizers` library."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast
    bpe = Tokenizer(models.BPE())
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    bpe.decoder = decoders.ByteLevel()
    bpe.train_from_iterator(CORPUS, trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=list(special_tokens),
                                                        initial_alphabet=pre_tokenizers.ByteLevel.alphabet()))
    return PreTrainedTokenizerFast(tokenizer_object=bpe, eos_token="<|im_end|>", pad_token="<|endoftext|>")


# -- Qwen2.5-Omni thinker ------------------------------------------------------------------------------------
def tiny_omni_config(tokenizer):
    from transformers import Qwen2_5OmniThinkerConfig
    ids = {token: tokenizer.convert_tokens_to_ids(token) for token in OMNI_TOKENS}
    return Qwen2_5OmniThinkerConfig(
        text_config=dict(vocab_size=len(tokenizer), hidden_size=LLM_WIDTH, intermediate_size=2 * LLM_WIDTH,
                         num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2,
                         max_position_embeddings=8192, tie_word_embeddings=False,
                         rope_parameters={"rope_type": "default", "rope_theta": 1e6, "mrope_section": [2, 3, 3]}),
        vision_config=dict(depth=2, hidden_size=32, intermediate_size=64, num_heads=2, patch_size=14,
                           spatial_merge_size=2, temporal_patch_size=2, window_size=112, out_hidden_size=LLM_WIDTH,
                           fullatt_block_indexes=[1]),
        audio_config=dict(d_model=32, encoder_layers=2, encoder_attention_heads=2, encoder_ffn_dim=64,
                          num_mel_bins=128, max_source_positions=1500, n_window=100, output_dim=LLM_WIDTH),
        audio_token_index=ids["<|AUDIO|>"], image_token_index=ids["<|IMAGE|>"], video_token_index=ids["<|VIDEO|>"],
        audio_start_token_id=ids["<|audio_bos|>"], audio_end_token_id=ids["<|audio_eos|>"],
        vision_start_token_id=ids["<|vision_bos|>"], vision_end_token_id=ids["<|vision_eos|>"],
        user_token_id=ids["<|im_start|>"])


def write_tiny_omni(folder: Path, seed: int = 0) -> Path:
    """A random tiny Qwen2.5-Omni thinker saved with save_pretrained, its tokenizer, and one
    preprocessor_config.json holding both the Whisper feature extractor and the image processor (as the
    official repository does)."""
    from transformers import Qwen2_5OmniThinkerForConditionalGeneration, WhisperFeatureExtractor
    from transformers.models.qwen2_vl.image_processing_pil_qwen2_vl import Qwen2VLImageProcessorPil
    tokenizer = tiny_bpe(OMNI_TOKENS)
    torch.manual_seed(seed)
    Qwen2_5OmniThinkerForConditionalGeneration(tiny_omni_config(tokenizer)).save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    features = WhisperFeatureExtractor(feature_size=128, sampling_rate=16_000)
    images = Qwen2VLImageProcessorPil(min_pixels=56 * 56, max_pixels=28 * 28 * 16, patch_size=14, merge_size=2,
                                      temporal_patch_size=2)
    (folder / "preprocessor_config.json").write_text(json.dumps({**features.to_dict(), **images.to_dict()}))
    return folder


# -- Ola-Omni ----------------------------------------------------------------------------------------------
TINY_OLA_LLM = dict(
    model_type="ola_qwen", architectures=["OlaQwenForCausalLM"], vocab_size=512, hidden_size=LLM_WIDTH,
    intermediate_size=2 * LLM_WIDTH, num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2,
    rope_theta=1e6, rms_norm_eps=1e-6, tie_word_embeddings=False, max_position_embeddings=32768,
    torch_dtype="bfloat16", mm_vision_tower="OryxViT", mm_projector_type="ola_mlp", mm_hidden_size=32,
    speech_encoder="large-v3.pt", music_encoder="BEATs.pt", speech_encoder_type="dual",
    speech_projector_type="linear", speech_encoder_ds_rate=10, speech_encoder_hidden_size=48,
    tokenizer_model_max_length=16384, vision_config=dict(width=32, depth=1, heads=2, mlp_hidden=64))
TINY_WHISPER_DIMS = dict(n_mels=128, n_audio_ctx=1500, n_audio_state=32, n_audio_head=2, n_audio_layer=1,
                         n_vocab=64, n_text_ctx=8, n_text_state=32, n_text_head=2, n_text_layer=1)
TINY_BEATS_CFG = dict(
    input_patch_size=16, embed_dim=24, conv_bias=False, encoder_layers=2, encoder_embed_dim=16,
    encoder_ffn_embed_dim=32, encoder_attention_heads=2, activation_fn="gelu", layer_norm_first=False,
    deep_norm=True, conv_pos=128, conv_pos_groups=16, relative_position_embedding=True, num_buckets=320,
    max_distance=800, gru_rel_pos=True, finetuned_model=True, predictor_class=527)


def write_tiny_ola(folder: Path, seed: int = 0):
    """A random tiny Ola-Omni in the published layouts: config.json + safetensors + tokenizer as in
    THUdyh/Ola-7b, Whisper's {"dims", "model_state_dict"} and BEATs' {"cfg", "model"} .pt files."""
    from safetensors.torch import save_file
    from e3rg_core.understanding.ola.config import BeatsConfig, OryxViTConfig, WhisperEncoderConfig, build_config
    from e3rg_core.understanding.ola.loading import SPEECH_PREFIX, OlaFiles
    from e3rg_core.understanding.ola.model import OlaForCausalLM
    torch.manual_seed(seed)
    settings = {key: value for key, value in TINY_OLA_LLM.items() if key != "vision_config"}
    config = build_config(settings, WhisperEncoderConfig.from_dims(TINY_WHISPER_DIMS),
                          BeatsConfig.from_checkpoint_cfg(TINY_BEATS_CFG),
                          OryxViTConfig(**TINY_OLA_LLM["vision_config"]))
    state = {key: value.clone().contiguous() for key, value in OlaForCausalLM(config).state_dict().items()}
    save_file({k: v for k, v in state.items() if not k.startswith(SPEECH_PREFIX)}, str(folder / "model.safetensors"),
              metadata={"format": "pt"})
    (folder / "config.json").write_text(json.dumps(TINY_OLA_LLM))
    tiny_bpe(CHATML_TOKENS).save_pretrained(str(folder))

    def part(prefix: str, new_prefix: str = "") -> dict:
        return {new_prefix + k.removeprefix(prefix): v for k, v in state.items() if k.startswith(prefix)}

    whisper = part(SPEECH_PREFIX + "whisper_model.", "encoder.")
    whisper["decoder.token_embedding.weight"] = torch.zeros(TINY_WHISPER_DIMS["n_vocab"],
                                                            TINY_WHISPER_DIMS["n_text_state"])
    torch.save({"dims": TINY_WHISPER_DIMS, "model_state_dict": whisper}, folder / "large-v3.pt")
    torch.save({"cfg": TINY_BEATS_CFG, "model": part(SPEECH_PREFIX + "beats_model.")}, folder / "beats.pt")
    return OlaFiles(folder, folder / "large-v3.pt", folder / "beats.pt")


# -- OpenVoice ---------------------------------------------------------------------------------------------
OPENVOICE_DECODER = {"resblock": "1", "resblock_kernel_sizes": [3, 7, 11],
                     "resblock_dilation_sizes": [[1, 3, 5]] * 3, "upsample_rates": [4, 2, 2, 2],
                     "upsample_initial_channel": 16, "upsample_kernel_sizes": [8, 4, 4, 4], "gin_channels": 16}
OPENVOICE_SPECTROGRAM = {"sampling_rate": 22_050, "filter_length": 128, "hop_length": 32, "win_length": 128}


def tiny_openvoice_configs() -> tuple[dict, dict]:
    """The config.json contents of a tiny V1 base speaker and a tiny V1 converter."""
    from e3rg_core.emotions import OPENVOICE_STYLES
    from e3rg_core.generation.openvoice.text import SYMBOLS
    base_config = {"data": {"text_cleaners": ["cjke_cleaners2"], "add_blank": True, "n_speakers": 10,
                            **OPENVOICE_SPECTROGRAM},
                   "model": {"inter_channels": 8, "hidden_channels": 16, "filter_channels": 32, "n_heads": 2,
                             "n_layers": 2, "kernel_size": 3, "p_dropout": 0.1, **OPENVOICE_DECODER},
                   "symbols": list(SYMBOLS), "speakers": {style: row + 1 for row, style in enumerate(OPENVOICE_STYLES)}}
    converter_config = {"data": {"n_speakers": 0, **OPENVOICE_SPECTROGRAM},
                        "model": {"inter_channels": 8, "hidden_channels": 8, "filter_channels": 16,
                                  **OPENVOICE_DECODER}}
    return base_config, converter_config


def write_tiny_openvoice(root: Path, seed: int = 0) -> Path:
    """Random tiny OpenVoice V1 files laid out as root/<repo_id>/<filename> (checkpoint.pth = {'model': ...})."""
    from e3rg_core.generation.openvoice.checkpoints import CONVERTER_FILES, EN_BASE_SPEAKER_FILES
    from e3rg_core.generation.openvoice.config import BaseSpeakerConfig, ConverterConfig
    from e3rg_core.generation.openvoice.converter import ToneColorConverterNet
    from e3rg_core.generation.openvoice.synthesizer import BaseSpeakerNet
    torch.manual_seed(seed)
    base_config, converter_config = tiny_openvoice_configs()
    base = BaseSpeakerNet(BaseSpeakerConfig.from_dict(base_config))
    converter = ToneColorConverterNet(ConverterConfig.from_dict(converter_config))
    gin = OPENVOICE_DECODER["gin_channels"]
    files = EN_BASE_SPEAKER_FILES
    write_repo_files(root, ((files.config, base_config), (files.checkpoint, {"model": base.state_dict()}),
                            (files.default_se, torch.randn(1, gin, 1)), (files.style_se, torch.randn(1, gin, 1)),
                            (CONVERTER_FILES["v1"].config, converter_config),
                            (CONVERTER_FILES["v1"].checkpoint, {"model": converter.state_dict()})))
    return root


def write_repo_files(root: Path, payloads) -> None:
    """Each (hub file, payload) as root/<repo_id>/<filename>: a .json's payload as JSON, any other with torch.save
    (the official OpenVoice files are .pth)."""
    for file, payload in payloads:
        path = root / file.repo_id / file.filename
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.suffix == ".json":
            path.write_text(json.dumps(payload))
        else:
            torch.save(payload, path)
