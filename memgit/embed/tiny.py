"""A random-weight BERT GGUF for fast tests.

It loads in milliseconds and embeds deterministically, so indexer and search tests can exercise
the real llama.cpp path (tokenizer, truncation, vectors) without the 25 MB MiniLM. Its vectors
carry no meaning: semantic tests need the real model.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from memgit.embed.convert import SPECIAL_TOKENS, BertParams, write_bert_gguf

_COMMON_WORDS = """
the of and to in is it you that he was for on are with as his they be at one have this from
or had by hot but some what there we can out other were all your when up use word how said an
each she which do their time if will way about many then them would write like so these her
long make thing see him two has look more day could go come did my sound no most number who
over know water than call first people may down side been now find any new work part take get
place made live where after back little only round man year came show every good me give our
under name very through just form much great think say help low line before turn cause same
mean differ move right boy old too does tell sentence set three want air well also play small
end put home read hand port large spell add even land here must big high such follow act why
ask men change went light kind off need house picture try us again animal point mother world
near build self earth father head stand own page should country found answer school grow study
still learn plant cover food sun four thought let keep eye never last door between city tree
cross since hard start might story saw far sea draw left late run while press close night real
life few stop open seem together next white children begin got walk example ease paper often
always music those both mark book letter until mile river car feet care second group carry took
rain eat room friend began idea fish mountain north once base hear horse cut sure watch color
face wood main enough plain girl usual young ready above ever red list though feel talk bird
soon body dog family direct pose leave song measure state product black short numeral class wind
question happen complete ship area half rock order fire south problem piece told knew pass farm
top whole king size heard best hour better true during hundred am remember step early hold west
ground interest reach fast five sing listen six table travel less morning ten simple several
vowel toward war lay against pattern slow center love person money serve appear road map science
rule govern pull cold notice voice fall power town fine certain fly unit lead cry dark machine
note wait plan figure star box noun field rest correct able pound done beauty drive stood contain
front teach week final gave green oh quick develop sleep warm free minute strong special mind
behind clear tail produce fact street inch lot nothing course stay wheel full force blue object
decide surface deep moon island foot yet busy test record boat common gold possible plane age dry
wonder laugh thousand ago ran check game shape yes cat mat sits kitten rug database deploy memory
user prefers tea coffee billing service production migration minutes quarterly revenue grew
"""

_SUFFIXES = ("s", "es", "ed", "ing", "ly", "er", "est", "ion", "ment", "ness", "al", "ic", "able")


def tiny_vocab() -> list[str]:
    """Specials, characters, `##` pieces and a few hundred words: enough for WordPiece to never
    fall back to [UNK] on ASCII text, so tokenisation in tests is realistic."""
    letters = [chr(c) for c in range(ord("a"), ord("z") + 1)]
    digits = [str(d) for d in range(10)]
    punct = list("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
    pieces = ["##" + ch for ch in letters + digits] + ["##" + s for s in _SUFFIXES]
    ordered = list(SPECIAL_TOKENS.values()) + letters + digits + punct + pieces + _COMMON_WORDS.split()
    return list(dict.fromkeys(ordered))


def write_tiny_bert_gguf(dest: Path, dim: int = 32, layers: int = 2, seed: int = 0) -> Path:
    """Write a deterministic random BERT (~100 KB at dim 32) through the production GGUF writer."""
    if dim % 16:
        raise ValueError("dim must be a multiple of 16 (heads of 16, q8_0 blocks of 32)")
    vocab = tiny_vocab()
    params = BertParams(
        name=f"memgit-tiny-bert-d{dim}-l{layers}-s{seed}",
        context_length=512,
        embedding_length=dim,
        feed_forward_length=4 * dim,
        block_count=layers,
        head_count=max(1, dim // 16),
        layer_norm_eps=1e-12,
        token_type_count=2,
    )
    rng = np.random.default_rng(seed)

    def mat(rows: int, cols: int, scale: float) -> np.ndarray:
        return (rng.standard_normal((rows, cols)) * scale).astype(np.float32)

    def vec(n: int, value: float) -> np.ndarray:
        return np.full(n, value, dtype=np.float32)

    ff = params.feed_forward_length
    tensors: dict[str, np.ndarray] = {
        "token_embd.weight": mat(len(vocab), dim, 1.0),
        "token_types.weight": mat(2, dim, 0.02),
        "position_embd.weight": mat(params.context_length, dim, 0.02),
        "token_embd_norm.weight": vec(dim, 1.0),
        "token_embd_norm.bias": vec(dim, 0.0),
    }
    w = 1.0 / np.sqrt(dim)
    for i in range(layers):
        blk = f"blk.{i}."
        for name in ("attn_q", "attn_k", "attn_v", "attn_output"):
            tensors[blk + name + ".weight"] = mat(dim, dim, w)
            tensors[blk + name + ".bias"] = vec(dim, 0.0)
        tensors[blk + "attn_output_norm.weight"] = vec(dim, 1.0)
        tensors[blk + "attn_output_norm.bias"] = vec(dim, 0.0)
        tensors[blk + "ffn_up.weight"] = mat(ff, dim, w)
        tensors[blk + "ffn_up.bias"] = vec(ff, 0.0)
        tensors[blk + "ffn_down.weight"] = mat(dim, ff, 1.0 / np.sqrt(ff))
        tensors[blk + "ffn_down.bias"] = vec(dim, 0.0)
        tensors[blk + "layer_output_norm.weight"] = vec(dim, 1.0)
        tensors[blk + "layer_output_norm.bias"] = vec(dim, 0.0)
    return write_bert_gguf(dest, params, tensors, vocab, qtype="q8_0")
