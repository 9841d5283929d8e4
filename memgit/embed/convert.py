"""Turn a sentence-transformers BERT checkpoint (safetensors) into a llama.cpp GGUF.

No PyPI package ships a GGUF embedding model, and llama.cpp's own converter needs torch and
transformers. BERT is simple enough that renaming tensors and writing the WordPiece vocab with
the `gguf` package and numpy is all it takes, in about a second. `write_bert_gguf` is shared
with `tiny.py` so the random test models exercise exactly the same writer.
"""

from __future__ import annotations

import json
import os
import struct
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from memgit.core.atomic import temp_path
from memgit.errors import ModelError

if TYPE_CHECKING:
    from gguf import GGUFWriter

#: Token strings BERT's WordPiece vocab uses for its special tokens, by role.
SPECIAL_TOKENS = {"pad": "[PAD]", "unk": "[UNK]", "cls": "[CLS]", "sep": "[SEP]", "mask": "[MASK]"}

_QTYPES = ("q8_0", "f16", "f32")

# safetensors dtype names -> numpy dtypes (BF16 is widened by hand below).
_ST_DTYPES = {"F32": np.float32, "F16": np.float16, "F64": np.float64, "I64": np.int64, "I32": np.int32}


@dataclass(frozen=True)
class BertParams:
    """The hyperparameters llama.cpp reads for the `bert` architecture."""

    name: str
    context_length: int
    embedding_length: int
    feed_forward_length: int
    block_count: int
    head_count: int
    layer_norm_eps: float = 1e-12
    token_type_count: int = 2


def read_safetensors(path: Path) -> dict[str, np.ndarray]:
    """Read a .safetensors file with numpy alone, so conversion needs neither torch nor safetensors."""
    try:
        data = path.read_bytes()
        (header_len,) = struct.unpack("<Q", data[:8])
        header = json.loads(data[8 : 8 + header_len])
    except (OSError, struct.error, ValueError) as exc:
        raise ModelError(f"cannot read {path}: {exc}; reinstall the model package") from exc
    base = 8 + header_len
    tensors: dict[str, np.ndarray] = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        start, end = info["data_offsets"]
        raw = data[base + start : base + end]
        dtype = info["dtype"]
        if dtype == "BF16":
            # bfloat16 is the top half of a float32.
            arr = (np.frombuffer(raw, dtype="<u2").astype(np.uint32) << 16).view(np.float32)
        elif dtype in _ST_DTYPES:
            arr = np.frombuffer(raw, dtype=np.dtype(_ST_DTYPES[dtype]).newbyteorder("<"))
        else:
            raise ModelError(f"{path}: tensor {name} has unsupported dtype {dtype}")
        tensors[name] = arr.reshape(info["shape"])
    return tensors


def hf_bert_to_llama_tensors(hf: Mapping[str, np.ndarray], block_count: int) -> dict[str, np.ndarray]:
    """Map Hugging Face BERT tensor names to llama.cpp's; the pooler and position ids are unused there."""

    def get(name: str) -> np.ndarray:
        for candidate in (name, "bert." + name):
            if candidate in hf:
                return hf[candidate]
        raise ModelError(f"checkpoint has no tensor {name!r}; is this a BERT model?")

    out = {
        "token_embd.weight": get("embeddings.word_embeddings.weight"),
        "token_types.weight": get("embeddings.token_type_embeddings.weight"),
        "position_embd.weight": get("embeddings.position_embeddings.weight"),
        "token_embd_norm.weight": get("embeddings.LayerNorm.weight"),
        "token_embd_norm.bias": get("embeddings.LayerNorm.bias"),
    }
    per_layer = {
        "attn_q": "attention.self.query",
        "attn_k": "attention.self.key",
        "attn_v": "attention.self.value",
        "attn_output": "attention.output.dense",
        "attn_output_norm": "attention.output.LayerNorm",
        "ffn_up": "intermediate.dense",
        "ffn_down": "output.dense",
        "layer_output_norm": "output.LayerNorm",
    }
    for i in range(block_count):
        for ours, theirs in per_layer.items():
            for part in ("weight", "bias"):
                out[f"blk.{i}.{ours}.{part}"] = get(f"encoder.layer.{i}.{theirs}.{part}")
    return out


def _phantom(token: str) -> str:
    """llama.cpp's WPM tokenizer marks word starts with U+2581 instead of marking continuations."""
    if token.startswith("##"):
        return token[2:]
    return "\u2581" + token


def write_bert_gguf(
    dest: Path,
    params: BertParams,
    tensors: Mapping[str, np.ndarray],
    vocab: list[str],
    qtype: str = "q8_0",
    lowercase: bool = True,
) -> Path:
    """Write a llama.cpp `bert` GGUF atomically.

    `tensors` use llama.cpp names and numpy (out, in) layout; `vocab` is a WordPiece vocab as in
    `vocab.txt` (`##` continuations, `[CLS]`-style specials). Only 2-D weight matrices are
    quantised: norms, biases and the embedding tables llama.cpp indexes directly
    (`token_types`, `position_embd`) stay f32.
    """
    import gguf  # lazy: only model installation and tests need it

    if qtype not in _QTYPES:
        raise ModelError(f"unknown quantisation {qtype!r}; use one of {', '.join(_QTYPES)}")
    ids = {tok: i for i, tok in enumerate(vocab)}
    missing = [tok for tok in SPECIAL_TOKENS.values() if tok not in ids]
    if missing:
        raise ModelError(f"vocab lacks special tokens {missing}")

    dest = Path(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = temp_path(dest)  # gguf writes it by name, so not through `atomic_write`
    writer = gguf.GGUFWriter(str(tmp), "bert")
    try:
        _add_model_params(writer, params, qtype)
        _add_tokenizer(writer, params, vocab, ids, lowercase)
        _add_tensors(writer, tensors, qtype)
        writer.write_header_to_file()
        writer.write_kv_data_to_file()
        writer.write_tensors_to_file()
        writer.close()
        os.replace(tmp, dest)
    except BaseException:
        writer.close()
        tmp.unlink(missing_ok=True)
        raise
    return dest


def _add_model_params(writer: GGUFWriter, params: BertParams, qtype: str) -> None:
    """The architecture's keys: sizes, attention, mean pooling, the file's quantisation."""
    import gguf

    file_type = {
        "q8_0": gguf.LlamaFileType.MOSTLY_Q8_0,
        "f16": gguf.LlamaFileType.MOSTLY_F16,
        "f32": gguf.LlamaFileType.ALL_F32,
    }[qtype]
    writer.add_name(params.name)
    writer.add_context_length(params.context_length)
    writer.add_embedding_length(params.embedding_length)
    writer.add_feed_forward_length(params.feed_forward_length)
    writer.add_block_count(params.block_count)
    writer.add_head_count(params.head_count)
    writer.add_layer_norm_eps(params.layer_norm_eps)
    writer.add_causal_attention(False)
    writer.add_pooling_type(gguf.PoolingType.MEAN)
    writer.add_file_type(int(file_type))
    writer.add_quantization_version(gguf.GGML_QUANT_VERSION)


def _add_tokenizer(
    writer: GGUFWriter, params: BertParams, vocab: list[str], ids: dict[str, int], lowercase: bool
) -> None:
    """The WordPiece vocabulary in llama.cpp's spelling, and the special tokens' ids."""
    import gguf

    specials = set(SPECIAL_TOKENS.values())
    writer.add_tokenizer_model("bert")
    writer.add_token_type_count(params.token_type_count)
    writer.add_token_list([tok if tok in specials else _phantom(tok) for tok in vocab])
    writer.add_token_types([gguf.TokenType.CONTROL if tok in specials else gguf.TokenType.NORMAL for tok in vocab])
    # Newer llama.cpp reads CLS as BOS; older builds read cls_token_id. Write both.
    writer.add_bos_token_id(ids[SPECIAL_TOKENS["cls"]])
    writer.add_uint32("tokenizer.ggml.cls_token_id", ids[SPECIAL_TOKENS["cls"]])
    writer.add_sep_token_id(ids[SPECIAL_TOKENS["sep"]])
    writer.add_unk_token_id(ids[SPECIAL_TOKENS["unk"]])
    writer.add_pad_token_id(ids[SPECIAL_TOKENS["pad"]])
    writer.add_mask_token_id(ids[SPECIAL_TOKENS["mask"]])
    writer.add_add_bos_token(True)
    writer.add_add_eos_token(False)
    writer.add_add_sep_token(True)
    # gguf has no constant for this key; llama.cpp defaults differ between versions.
    writer.add_bool("tokenizer.ggml.normalizer.lowercase", lowercase)


def _add_tensors(writer: GGUFWriter, tensors: Mapping[str, np.ndarray], qtype: str) -> None:
    """Every tensor: 2-D weight matrices quantised, norms, biases and indexed tables in f32."""
    import gguf

    keep_f32 = ("token_types.weight", "position_embd.weight")
    for name, arr in tensors.items():
        arr = np.ascontiguousarray(arr, dtype=np.float32)
        if arr.ndim != 2 or name in keep_f32 or qtype == "f32":
            writer.add_tensor(name, arr)
        elif qtype == "q8_0" and arr.shape[-1] % 32 == 0:
            q = gguf.quants.quantize(arr, gguf.GGMLQuantizationType.Q8_0)
            writer.add_tensor(name, q, raw_shape=q.shape, raw_dtype=gguf.GGMLQuantizationType.Q8_0)
        else:
            writer.add_tensor(name, arr.astype(np.float16))


def convert_bert_to_gguf(src_dir: Path, dest: Path, qtype: str = "q8_0") -> Path:
    """Convert a sentence-transformers BERT directory (config.json, vocab.txt, model.safetensors)."""
    src_dir = Path(src_dir)
    try:
        config = json.loads((src_dir / "config.json").read_text(encoding="utf-8"))
        vocab = (src_dir / "vocab.txt").read_text(encoding="utf-8").splitlines()
    except (OSError, ValueError) as exc:
        raise ModelError(f"cannot read model files in {src_dir}: {exc}") from exc
    _check_pooling(src_dir)
    do_lower = _do_lower_case(src_dir)

    params = BertParams(
        name=src_dir.name if src_dir.name != "model" else src_dir.parent.name,
        context_length=int(config["max_position_embeddings"]),
        embedding_length=int(config["hidden_size"]),
        feed_forward_length=int(config["intermediate_size"]),
        block_count=int(config["num_hidden_layers"]),
        head_count=int(config["num_attention_heads"]),
        layer_norm_eps=float(config.get("layer_norm_eps", 1e-12)),
        token_type_count=int(config.get("type_vocab_size", 2)),
    )
    if len(vocab) != int(config.get("vocab_size", len(vocab))):
        raise ModelError(f"{src_dir}: vocab.txt has {len(vocab)} tokens, config says {config['vocab_size']}")
    hf = read_safetensors(src_dir / "model.safetensors")
    tensors = hf_bert_to_llama_tensors(hf, params.block_count)
    return write_bert_gguf(dest, params, tensors, vocab, qtype=qtype, lowercase=do_lower)


def _check_pooling(src_dir: Path) -> None:
    """The GGUF hard-codes mean pooling, so refuse checkpoints trained for another pooling."""
    pooling = src_dir / "1_Pooling" / "config.json"
    if not pooling.exists():
        return
    cfg = json.loads(pooling.read_text(encoding="utf-8"))
    if not cfg.get("pooling_mode_mean_tokens", False):
        raise ModelError(f"{src_dir}: only mean-pooling sentence-transformers models are supported")


def _do_lower_case(src_dir: Path) -> bool:
    """Uncased BERT vocabularies need the lowercase normaliser; cased ones must not get it."""
    cfg_path = src_dir / "tokenizer_config.json"
    if cfg_path.exists():
        cfg = json.loads(cfg_path.read_text(encoding="utf-8"))
        return bool(cfg.get("do_lower_case", True))
    return True
