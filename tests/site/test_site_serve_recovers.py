"""`memgit site serve` builds its preview again when the preview folder is deleted under it
(it used to answer 404 until a memory file changed)."""

from __future__ import annotations

import re
import shutil
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from memgit.site.serve import preview_dir, serve
from memgit.workspace import Workspace


def test_a_deleted_preview_is_rebuilt(workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMGIT_EMBEDDING", "none")
    ws = Workspace.discover(workspace)
    said: list[str] = []
    stop = threading.Event()
    thread = threading.Thread(
        target=serve,
        kwargs={"ws": ws, "port": 0, "scope": "private", "interval": 0.1, "announce": said.append, "stop": stop},
        daemon=True,
    )
    thread.start()
    try:
        deadline = time.monotonic() + 60
        while not any("serving" in line for line in said) and time.monotonic() < deadline:
            time.sleep(0.05)
        url = re.search(r"serving (http://127\.0\.0\.1:\d+/)", " ".join(said))
        assert url, said
        assert urllib.request.urlopen(url.group(1)).status == 200
        shutil.rmtree(preview_dir(ws, "private"))
        deadline = time.monotonic() + 30
        while not (preview_dir(ws, "private") / "index.html").is_file() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert urllib.request.urlopen(url.group(1)).status == 200
        assert sum(line.startswith("site rebuilt") for line in said) == 2  # the first build, then this one
    finally:
        stop.set()
        thread.join(timeout=30)
