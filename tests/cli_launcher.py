"""Start `python -m memgit` processes for the tests without paying Python's start-up each time.

The tests start ~2,400 memgit processes. Each spent ~0.1-0.2 s of CPU importing the interpreter's
and memgit's modules before doing any work (a `status --json`: 0.15 s as a new interpreter, 0.03 s
forked): about a third of the suite's CPU. So each xdist worker keeps one launcher process that
has imported memgit's modules and the libraries its commands load (not libllama), and forks it for every
command: the child takes the test's stdin, stdout and stderr, working folder,
environment and arguments, then runs `memgit/__main__.py` exactly as `python -m memgit` does, and
exits as such a process would (atexit, SystemExit, an uncaught exception's traceback). It is a
separate process with real pipes and a real exit status; only the interpreter start is shared.

Where forking could differ from a new interpreter, the command starts as one instead:
- an environment whose start-up settings differ from the launcher's (PYTHON*, locale, BLAS threads),
- a working folder that does not exist (so `subprocess` raises as before),
- `MEMGIT_TEST_FORK=0`, or a launcher that failed to start or died.
What a loaded library read from the launcher's environment is read again in the child
(`_reset_libraries`: libgit2's config search paths, which follow HOME). The launcher checks itself
before serving (one thread, no GitPython) and refuses to serve otherwise. Tests of start-up itself (lazy imports, the hook's fast path, signals)
start their own processes and never come here.

Run as a script, this file is the launcher: `python tests/cli_launcher.py FD`, FD being its end
of a SOCK_SEQPACKET socket pair. A request is one message (the pickled argv, folder and
environment) carrying four descriptors: a socket for the reply, stdin, stdout and stderr. The
reply socket gets the child's pid, then its wait status.
"""

from __future__ import annotations

import contextlib
import faulthandler
import gc
import os
import pickle
import selectors
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path

#: Environment keys read once when an interpreter (or a library it loaded) starts: a request whose
#: values differ from the launcher's gets a new interpreter.
_START_UP_PREFIXES = ("PYTHON", "LC_", "LANG", "OPENBLAS", "OMP_", "MKL_", "GGML", "LLAMA")

#: What the launcher imports before it forks: the CLI and what its commands import lazily.
_PRELOAD = (
    "memgit",  # first: it sets OPENBLAS_NUM_THREADS before numpy loads
    "click",
    "numpy",
    "sqlite3",
    "memgit.cli.main",
    "memgit.index.store",
    "memgit.recall.search",
    "memgit.dream.run",
    "memgit.site.build",
    "pygit2",  # its config search paths are computed again in each child (`_reset_libraries`)
)
#: Modules that must not be loaded before a fork: GitPython finds its git executable once, when
#: it is loaded. libllama (with ggml and libgomp) loads in each child that embeds, as in a new
#: interpreter: preloaded, one forked search in a CI run died of SIGSEGV (not reproduced here in
#: ~6,000 forked searches), and its ≈20 ms a command is not worth a doubt about the children.
_NEVER_PRELOAD = ("git", "llama_cpp.llama_cpp", "betterleaks")

#: Packages whose lazily built tables (word lists, label patterns, validators: ~1 s of CPU, paid
#: again by every command that lints or dreams) the launcher builds once, before it forks. The
#: tables are pure data: a child reads them as it would have built them.
_WARM_PACKAGES = ("memgit.lint", "memgit.dream")
#: betterleaks' Go runtime does not survive a fork: loaded in the launcher, every child would scan
#: through its command line instead of in process, unlike a new interpreter.
_NEVER_WARM = ("memgit.lint.providers._library",)

_STATUS = struct.Struct("i")

#: An environment key the launcher takes out of a command's environment and applies as the
#: command's RLIMIT_FSIZE (bytes): no file it writes grows past that size. A write that would
#: fails with EFBIG after writing what fits, as a full disk cuts a write short (Python ignores
#: SIGXFSZ, so the process goes on). The fault-injection tests of appends use it.
FILE_SIZE_LIMIT = "MEMGIT_TEST_FILE_SIZE_LIMIT"


def _limit_file_size(limit: str) -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_FSIZE, (int(limit), int(limit)))


#: What memgit itself sets, unless the environment says otherwise, before loading the library
#: that reads it (memgit/__init__.py before numpy, memgit/embed/llama.py before libllama).
_MEMGIT_DEFAULTS = {"OPENBLAS_NUM_THREADS": "1", "OMP_WAIT_POLICY": "PASSIVE"}


def start_up_env(env: dict[str, str]) -> dict[str, str]:
    """The settings a process reads once, as they stand once memgit's defaults are applied."""
    chosen = {key: value for key, value in env.items() if key.startswith(_START_UP_PREFIXES)}
    return {**_MEMGIT_DEFAULTS, **chosen}


# --------------------------------------------------------------------------------------------
# The tests' side
# --------------------------------------------------------------------------------------------


class Launcher:
    """One per test process, started on first use; thread-safe (race tests run commands at once)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._sock: socket.socket | None = None
        self._proc: subprocess.Popen[bytes] | None = None
        self._env: dict[str, str] = {}
        self._failed = os.environ.get("MEMGIT_TEST_FORK", "1") == "0"
        #: How the commands started (tests/project/test_cli_launcher.py checks the choice).
        self.forks = 0
        self.new_interpreters = 0

    def run(
        self, argv: list[str], cwd: Path, env: dict[str, str], input: str | None, timeout: float
    ) -> subprocess.CompletedProcess[str]:
        sock = self._ready(env) if Path(cwd).is_dir() else None
        if sock is not None:
            try:
                return self._forked(sock, argv, cwd, env, input, timeout)
            except _LauncherGone:
                self.close()
        self.new_interpreters += 1
        limit = env.get(FILE_SIZE_LIMIT)
        env = {key: value for key, value in env.items() if key != FILE_SIZE_LIMIT}
        preexec = None if limit is None else (lambda: _limit_file_size(limit))
        return subprocess.run(
            argv, cwd=cwd, capture_output=True, text=True, env=env, input=input, timeout=timeout, preexec_fn=preexec
        )

    @property
    def pid(self) -> int | None:
        """The launcher process's pid while it runs (its children are the forked commands)."""
        return self._proc.pid if self._proc is not None else None

    def _ready(self, env: dict[str, str]) -> socket.socket | None:
        with self._lock:
            if self._failed:
                return None
            if self._sock is None:
                self._start(env)
            if self._sock is None or start_up_env(env) != start_up_env(self._env):
                return None
            return self._sock

    def _start(self, env: dict[str, str]) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            proc = subprocess.Popen(
                [sys.executable, __file__, str(theirs.fileno())],
                pass_fds=[theirs.fileno()],
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
            )
        finally:
            theirs.close()
        ready = ours.recv(64)
        if ready != b"ready":
            detail = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
            proc.wait()
            ours.close()
            self._failed = True
            print(f"tests: the memgit launcher did not start; new interpreters instead: {detail}", file=sys.stderr)
            return
        self._sock, self._proc, self._env = ours, proc, dict(env)

    def close(self) -> None:
        """Stop the launcher (it also stops when this process ends); later commands get new
        interpreters."""
        with self._lock:
            if self._sock is not None:
                self._sock.close()
            if self._proc is not None:
                self._proc.wait(timeout=30)
                if self._proc.stderr is not None:
                    self._proc.stderr.close()
            self._sock, self._proc, self._failed = None, None, True

    def _forked(
        self,
        sock: socket.socket,
        argv: list[str],
        cwd: Path,
        env: dict[str, str],
        input: str | None,
        timeout: float,
    ) -> subprocess.CompletedProcess[str]:
        reply, reply_theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        in_r, in_w = os.pipe() if input is not None else (os.open(os.devnull, os.O_RDONLY), -1)
        try:
            message = pickle.dumps((argv[3:], str(cwd), env))
            with self._lock:
                try:
                    socket.send_fds(sock, [message], [reply_theirs.fileno(), in_r, out_w, err_w])
                except OSError as exc:
                    raise _LauncherGone from exc
        finally:
            reply_theirs.close()
            for fd in (in_r, out_w, err_w):
                os.close(fd)
        with reply:
            pid_bytes = reply.recv(_STATUS.size)
            if len(pid_bytes) != _STATUS.size:
                for fd in (out_r, err_r, in_w):
                    if fd >= 0:
                        os.close(fd)
                raise _LauncherGone
            (pid,) = _STATUS.unpack(pid_bytes)
            self.forks += 1
            deadline = time.monotonic() + timeout
            data = (input or "").encode()
            stdout, stderr, timed_out = _communicate(out_r, err_r, in_w, data, deadline)
            if not timed_out:
                reply.settimeout(max(0.0, deadline - time.monotonic()))
                try:
                    status_bytes = reply.recv(_STATUS.size)
                except TimeoutError:
                    timed_out = True
            if timed_out:
                os.kill(pid, signal.SIGKILL)
                reply.settimeout(None)
                reply.recv(_STATUS.size)  # reaped: the pid is not reused before this
                raise subprocess.TimeoutExpired(argv, timeout, output=stdout, stderr=stderr)
        (status,) = _STATUS.unpack(status_bytes)
        return subprocess.CompletedProcess(argv, os.waitstatus_to_exitcode(status), _text(stdout), _text(stderr))


class _LauncherGone(Exception):
    pass


def _text(data: bytes) -> str:
    """As `subprocess.run(text=True)` decodes: the locale's encoding, universal newlines."""
    import locale

    return data.decode(locale.getpreferredencoding(False)).replace("\r\n", "\n").replace("\r", "\n")


def _communicate(out_r: int, err_r: int, in_w: int, data: bytes, deadline: float) -> tuple[bytes, bytes, bool]:
    """Feed stdin and drain stdout and stderr until both close (as `communicate` does)."""
    chunks: dict[int, list[bytes]] = {out_r: [], err_r: []}
    with selectors.DefaultSelector() as selector:
        selector.register(out_r, selectors.EVENT_READ)
        selector.register(err_r, selectors.EVENT_READ)
        if in_w >= 0:
            if data:
                os.set_blocking(in_w, False)
                selector.register(in_w, selectors.EVENT_WRITE)
            else:
                os.close(in_w)
        open_fds = len(selector.get_map())
        timed_out = False
        while open_fds:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                timed_out = True
                break
            for key, _ in selector.select(remaining):
                fd = key.fd
                if fd == in_w:
                    try:
                        written = os.write(fd, data[:65536])
                    except BrokenPipeError:
                        written, data = 0, b""
                    data = data[written:]
                    if not data:
                        selector.unregister(fd)
                        os.close(fd)
                        open_fds -= 1
                    continue
                chunk = os.read(fd, 65536)
                if chunk:
                    chunks[fd].append(chunk)
                else:
                    selector.unregister(fd)
                    os.close(fd)
                    open_fds -= 1
        for key in list(selector.get_map().values()):
            selector.unregister(key.fd)
            os.close(key.fd)
    return b"".join(chunks[out_r]), b"".join(chunks[err_r]), timed_out


# --------------------------------------------------------------------------------------------
# The launcher's side
# --------------------------------------------------------------------------------------------


def _preload() -> str:
    """Import what the commands import; return why the launcher must not serve, or ''."""
    import importlib

    for key, value in _MEMGIT_DEFAULTS.items():
        os.environ.setdefault(key, value)
    for name in _PRELOAD:
        importlib.import_module(name)
    _warm()
    loaded = [name for name in _NEVER_PRELOAD if name in sys.modules]
    if loaded:
        return f"{', '.join(loaded)} loaded before a fork"
    tasks = Path("/proc/self/task")  # Linux: the threads C libraries started too
    if threading.active_count() != 1 or (tasks.is_dir() and len(os.listdir(tasks)) != 1):
        return "a thread runs in the launcher"
    return ""


def _warm() -> None:
    """Build the lint's and dreaming's cached tables: every module-level function of theirs that
    takes no argument and caches its result, and the label patterns of every language."""
    import importlib
    import inspect
    import pkgutil

    for package_name in _WARM_PACKAGES:
        package = importlib.import_module(package_name)
        for info in pkgutil.walk_packages(package.__path__, package_name + "."):
            module = importlib.import_module(info.name)
            for name, value in list(vars(module).items()):
                if not (callable(value) and hasattr(value, "cache_info")):
                    continue
                if getattr(value, "__module__", None) != module.__name__ or f"{module.__name__}.{name}" in _NEVER_WARM:
                    continue
                if not inspect.signature(value).parameters:
                    value()
    from memgit.lint import labelled
    from memgit.lint.labels import LANGUAGES

    for language in LANGUAGES:
        labelled._after_label(language)


def _serve(sock: socket.socket) -> tuple[list[str], str, dict[str, str], list[int]] | None:
    """Fork a child per request; reap them. Returns only in a child, with its request."""
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    signal.set_wakeup_fd(wake_w)
    replies: dict[int, socket.socket] = {}
    with selectors.DefaultSelector() as selector:
        selector.register(sock, selectors.EVENT_READ)
        selector.register(wake_r, selectors.EVENT_READ)
        while True:
            for key, _ in selector.select():
                if key.fd == wake_r:
                    os.read(wake_r, 4096)
                    continue
                message, fds, _flags, _addr = socket.recv_fds(sock, 1 << 20, 4)
                if not message:  # the tests' process ended
                    for pid in replies:
                        os.kill(pid, signal.SIGKILL)
                    return None
                request = pickle.loads(message)
                pid = os.fork()
                if pid == 0:
                    signal.set_wakeup_fd(-1)
                    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                    for other in replies.values():
                        other.detach()  # closed with every other descriptor in _become
                    sock.detach()
                    return (*request, fds)
                reply = socket.socket(fileno=fds[0])
                for fd in fds[1:]:
                    os.close(fd)
                replies[pid] = reply
                reply.send(_STATUS.pack(pid))
            while replies:
                pid, status = os.waitpid(-1, os.WNOHANG)
                if pid == 0:
                    break
                reply = replies.pop(pid, None)
                if reply is not None:
                    with contextlib.suppress(OSError):
                        reply.send(_STATUS.pack(status))
                    reply.close()


def _become(argv: list[str], cwd: str, env: dict[str, str], fds: list[int]) -> None:
    """In the child: take the request's streams, folder and environment, as a new process has."""
    for target, fd in zip((0, 1, 2), fds[1:], strict=True):
        os.dup2(fd, target)
    keep = {0, 1, 2}
    for name in os.listdir("/proc/self/fd" if os.path.isdir("/proc/self/fd") else "/dev/fd"):
        fd = int(name)
        if fd not in keep:
            with contextlib.suppress(OSError):
                os.close(fd)
    # A crash in C (SIGSEGV in a loaded library) prints every thread's Python stack to the test's
    # stderr instead of leaving an empty -11 to guess from.
    faulthandler.enable(file=sys.__stderr__, all_threads=True)
    os.chdir(cwd)
    limit = env.pop(FILE_SIZE_LIMIT, None)
    if limit is not None:
        _limit_file_size(limit)
    os.environ.clear()
    os.environ.update(env)
    time.tzset()
    _reset_libraries()
    import tempfile

    tempfile.tempdir = None
    main = Path(sys.modules["memgit"].__file__ or "").with_name("__main__.py")
    sys.argv = [str(main), *argv]
    sys.path[0] = os.getcwd()  # as `python -m` puts it


def _reset_libraries() -> None:
    """What a library loaded in the launcher read from the environment, read again from this
    process's: libgit2 computes where the system, XDG and global git config live (HOME,
    XDG_CONFIG_HOME) when it loads; setting a search path to None computes it again."""
    pygit2 = sys.modules.get("pygit2")
    if pygit2 is None:
        return
    from pygit2.enums import ConfigLevel, Option

    for level in (ConfigLevel.PROGRAMDATA, ConfigLevel.SYSTEM, ConfigLevel.XDG, ConfigLevel.GLOBAL):
        pygit2.option(Option.SET_SEARCH_PATH, level, None)


def _launcher_main(fd: int) -> None:
    sock = socket.socket(fileno=fd)
    problem = _preload()
    if problem:
        print(problem, file=sys.stderr)
        sys.exit(1)
    # What the launcher imported lives as long as any child: out of the collector's sight, a
    # child's collections never walk it (nor copy its pages), and neither does its exit, which
    # otherwise spent ~100 ms of every command that ends with the interpreter's teardown.
    gc.freeze()
    sys.stdout.flush()
    sys.stderr.flush()
    sock.send(b"ready")
    request = _serve(sock)
    if request is None:
        sys.exit(0)
    argv, cwd, env, fds = request
    _become(argv, cwd, env, fds)
    import runpy

    runpy.run_module("memgit", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    _launcher_main(int(sys.argv[1]))
