"""Random sequences of git operations on one repository; after every step the incremental index
must equal a full rebuild (`verify_index`) and hold exactly HEAD's memory files."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from memgit.core import paths
from memgit.index.settings import UpdateSettings
from memgit.index.store import Store
from memgit.index.update import update_index
from memgit.index.verify import verify_index
from memgit.recall.request import SearchRequest
from memgit.recall.search import Searcher
from memgit.workspace import Workspace

MEMORY_FILES = [
    "MEMORY.md",
    "USER.md",
    "memory/a.md",
    "memory/b.md",
    "memory/2026-01-02.md",
    "memory/topics/deep/c.md",
    "sessions/2026-01-02-chat.jsonl",
]
OTHER_FILES = ["notes/n.md", "README.md", "memory/.dreams/d.md", "memory/x.txt", "sessions/sub/s.jsonl"]
ALL_FILES = MEMORY_FILES + OTHER_FILES
WORDS = "tea coffee deploy billing kitten rug database # ## - notes plan 東京 café".split()

line = st.lists(st.sampled_from(WORDS), min_size=0, max_size=6).map(" ".join)
markdown = st.lists(line, min_size=0, max_size=8).map(lambda lines: "\n".join(lines) + "\n")
jsonl = st.lists(
    st.one_of(
        st.builds(
            lambda r, t: json.dumps({"role": r, "content": t}), st.sampled_from(["user", "assistant", "tool"]), line
        ),
        st.just("{not json"),
    ),
    max_size=5,
).map(lambda lines: "\n".join(lines) + "\n")
oddities = st.sampled_from([b"\x00binary\x00", b"bad utf8 \xff\xfe\n", b"\xef\xbb\xbfbom line\r\ncrlf\r\n", b""])


def content_for(path: str) -> st.SearchStrategy[bytes]:
    text = jsonl if path.endswith(".jsonl") else markdown
    return st.one_of(text.map(str.encode), text.map(str.encode), oddities)


class IndexMachine(RuleBasedStateMachine):
    #: The embedder of a process that can embed (None: BM25 only, as in the hooks' environment).
    embedder: Any = None

    def __init__(self) -> None:
        super().__init__()
        self.root = Path(tempfile.mkdtemp(prefix="memgit-sm-")) / "ws"
        self.root.mkdir()
        self.clock = 0
        self.git("init", "-q", "-b", "main")
        self.branches = ["main"]
        self.ws: Workspace | None = None

    # -- plumbing ------------------------------------------------------------------------------
    def git(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        # Each git command a second of its own: commit ids follow from the steps alone, never from
        # the wall clock (two equal commits made in one second are one object), so hypothesis,
        # replaying a case, draws from the same lists of commits.
        self.clock += 1
        when = f"{1_700_000_000 + self.clock} +0000"
        env = {**os.environ, "GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when}
        proc = subprocess.run(["git", *args], cwd=self.root, capture_output=True, text=True, env=env)
        if check and proc.returncode != 0:
            raise AssertionError(f"git {' '.join(args)}: {proc.stderr}{proc.stdout}")
        return proc

    def commit(self, message: str) -> None:
        self.git("add", "-A")
        self.git("commit", "-q", "--allow-empty", "-m", message)

    def has_commits(self) -> bool:
        return self.git("rev-parse", "--verify", "-q", "HEAD", check=False).returncode == 0

    def existing(self) -> list[str]:
        return [p for p in ALL_FILES if (self.root / p).is_file()]

    def teardown(self) -> None:
        shutil.rmtree(self.root.parent, ignore_errors=True)

    @initialize(data=st.data())
    def first_commit(self, data: st.DataObject) -> None:
        for path in data.draw(st.lists(st.sampled_from(ALL_FILES), unique=True, max_size=4)):
            self.write_file(path, data.draw(content_for(path)))
        self.commit("initial")
        self.ws = Workspace.discover(self.root)
        self.check_index()

    def write_file(self, path: str, content: bytes) -> None:
        full = self.root / path
        full.parent.mkdir(parents=True, exist_ok=True)
        full.write_bytes(content)

    # -- work-tree edits ------------------------------------------------------------------------
    @rule(data=st.data(), path=st.sampled_from(ALL_FILES))
    def write(self, data: st.DataObject, path: str) -> None:
        self.write_file(path, data.draw(content_for(path)))

    @rule(data=st.data())
    def append(self, data: st.DataObject) -> None:
        files = self.existing()
        if files:
            path = data.draw(st.sampled_from(files))
            with open(self.root / path, "ab") as fh:
                fh.write(data.draw(content_for(path)))

    @rule(data=st.data())
    def delete(self, data: st.DataObject) -> None:
        files = self.existing()
        if files:
            (self.root / data.draw(st.sampled_from(files))).unlink()

    @rule(data=st.data(), dest=st.sampled_from(ALL_FILES))
    def rename(self, data: st.DataObject, dest: str) -> None:
        files = [p for p in self.existing() if p != dest]
        if files:
            source = data.draw(st.sampled_from(files))
            (self.root / dest).parent.mkdir(parents=True, exist_ok=True)
            (self.root / source).rename(self.root / dest)

    # -- history ---------------------------------------------------------------------------------
    @rule()
    def commit_all(self) -> None:
        self.commit("edit")

    @precondition(lambda self: self.ws is not None)
    @rule()
    def amend(self) -> None:
        self.git("add", "-A")
        self.git("commit", "-q", "--amend", "--allow-empty", "-m", "amended")

    @rule(name=st.sampled_from(["main", "b1", "b2"]))
    def checkout(self, name: str) -> None:
        self.commit("before switching")
        if name in self.branches:
            self.git("checkout", "-q", name)
        else:
            self.git("checkout", "-q", "-b", name)
            self.branches.append(name)

    @rule(name=st.sampled_from(["main", "b1", "b2"]))
    def merge(self, name: str) -> None:
        if name not in self.branches:
            return
        self.commit("before merging")
        if self.git("merge", "-q", "--no-edit", name, check=False).returncode != 0:
            # Conflicts: commit the work tree as it is, markers and all.
            self.git("add", "-A")
            if self.git("commit", "-q", "--no-edit", check=False).returncode != 0:
                self.git("merge", "--abort", check=False)

    @rule(data=st.data())
    def reset_to_earlier(self, data: st.DataObject) -> None:
        commits = self.git("rev-list", "HEAD").stdout.split()
        self.git("reset", "-q", "--hard", data.draw(st.sampled_from(commits)))
        self.git("clean", "-qfd")

    @rule(data=st.data())
    def cherry_pick(self, data: st.DataObject) -> None:
        self.commit("before picking")
        here = set(self.git("rev-list", "HEAD").stdout.split())
        others = [c for c in self.git("rev-list", "--all", "--no-merges").stdout.split() if c not in here]
        if not others:
            return
        if self.git("cherry-pick", data.draw(st.sampled_from(others)), check=False).returncode != 0:
            self.git("cherry-pick", "--abort", check=False)
            self.git("reset", "-q", "--hard")

    @rule(data=st.data())
    def index_work_tree(self, data: st.DataObject) -> None:
        """The uncommitted overlay: indexed, verified, and searchable with no commit."""
        assert self.ws is not None
        update_index(self.ws, UpdateSettings(worktree=True), embedder=None)
        report = verify_index(self.ws, embedder=None)
        assert report.ok, report.differences
        searcher = Searcher(self.ws, embedder=None, auto_index=False)
        try:
            for hit in searcher.search(data.draw(st.sampled_from(WORDS)), SearchRequest(k=20, mode="bm25")).hits:
                assert (hit.commit is None) == (hit.source == "worktree")
        finally:
            searcher.close()

    # -- the invariant -------------------------------------------------------------------------------
    @invariant()
    def check_index(self) -> None:
        if self.ws is None:
            return
        report = update_index(self.ws, embedder=self.embedder)
        head_tree = self.git("rev-parse", "HEAD^{tree}").stdout.strip()
        assert report.tree == head_tree
        if self.embedder is not None:
            # The state between the text and its vectors: what is published is exactly what the
            # vector files hold; then the fill publishes the rest, a batch at a time.
            self.check_vector_files()
            from memgit.index.fill import fill_vectors

            filled = fill_vectors(self.ws, self.embedder, batch=3)
            assert filled.pending == 0 and filled.filled <= report.pending_vectors, filled.to_dict()
        # With a model, verify also checks the vector files against the cache and the cache
        # against fresh embeddings; nothing may be left pending by a process that can embed.
        verify = verify_index(self.ws, embedder=self.embedder)
        assert verify.ok, verify.differences
        if self.embedder is not None:
            assert verify.pending_vectors == 0
            self.check_vector_files()
        assert verify.tree == head_tree
        # Independent oracle: `git ls-tree` says which memory files HEAD holds, with which blobs.
        expected = {}
        for entry in self.git("ls-tree", "-r", "-z", "HEAD").stdout.split("\0"):
            if entry:
                meta, path = entry.split("\t", 1)
                mode, _kind, blob = meta.split()
                if paths.is_memory_path(path):
                    expected[path] = (blob, int(mode, 8))
        store = Store(self.root / ".git" / "memgit" / "index.sqlite")
        try:
            files = store.files()
            indexed_paths = {row[0] for row in store.conn.execute("SELECT DISTINCT path FROM chunks")}
        finally:
            store.close()
        assert {p: (f[0], f[1]) for p, f in files.items()} == expected
        assert all(f[2] == "tree" for f in files.values())
        assert indexed_paths <= set(expected)
        for path in expected:
            # Not skipped = valid UTF-8 text: anything but blank lines must have chunks.
            if (
                files[path][3] is None
                and not path.endswith(".jsonl")
                and self.git("show", f"HEAD:{path}").stdout.strip()
            ):
                assert path in indexed_paths, path

    def check_vector_files(self) -> None:
        """The memory-mapped files hold exactly one vector per chunk, keyed to this database."""
        import numpy as np

        from memgit.index.vectors import VectorSet

        store = Store(
            self.root / ".git" / "memgit" / "index.sqlite", self.root / ".git" / "memgit" / "embed-cache.sqlite"
        )
        try:
            meta = store.meta()
            pending = {int(r[0]) for r in store.conn.execute("SELECT id FROM pending")}
            chunk_ids = sorted(int(r[0]) for r in store.conn.execute("SELECT id FROM chunks") if r[0] not in pending)
            assert pending <= {int(r[0]) for r in store.conn.execute("SELECT id FROM chunks")}
            assert int(meta.get("pending_vectors", "0")) == len(pending)
            cached = {i: v for i, v in store.cache.vectors_for(None, meta["model_id"]) if i not in pending}
        finally:
            store.close()
        vset = VectorSet.open(self.root / ".git" / "memgit", meta["index_id"], int(meta["generation"]))
        if not chunk_ids:
            return
        assert vset is not None
        ids, matrix = vset.rows()
        assert ids.tolist() == chunk_ids == sorted(cached)
        for chunk_id, row in zip(ids.tolist(), matrix, strict=True):
            assert np.array_equal(row, np.frombuffer(cached[chunk_id], dtype="<f4"))


class VectorIndexMachine(IndexMachine):
    """The same histories with vectors (the tiny GGUF), and runs that cannot embed in between."""

    @precondition(lambda self: self.ws is not None)
    @rule()
    def index_without_a_model(self) -> None:
        """A hook in an environment without the model: text now, vectors pending, nothing rebuilt."""
        assert self.ws is not None
        self.commit("committed where no model loads")
        report = update_index(self.ws, embedder=None)
        assert report.mode != "full"
        assert report.model_id == (self.embedder.model_id if report.model_id else None)


def test_index_follows_random_git_histories() -> None:
    run_state_machine_as_test(
        IndexMachine,
        settings=settings(
            max_examples=20,
            stateful_step_count=20,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
        ),
    )


def test_index_with_vectors_follows_random_git_histories(tmp_path_factory: pytest.TempPathFactory) -> None:
    from memgit.embed.llama import LlamaEmbedder
    from memgit.embed.tiny import write_tiny_bert_gguf

    VectorIndexMachine.embedder = LlamaEmbedder(write_tiny_bert_gguf(tmp_path_factory.mktemp("tiny") / "t.gguf"))
    run_state_machine_as_test(
        VectorIndexMachine,
        settings=settings(
            max_examples=8,
            stateful_step_count=15,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
        ),
    )


@pytest.fixture(autouse=True)
def _bm25_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMGIT_EMBEDDING", "none")
