"""``python -m lmms_eval ARGS`` for the tests, without paying lmms-eval's start-up every time.

Every lmms-eval run starts by importing lmms-eval (torch, transformers, datasets, ...) and indexing
its own task folder (thousands of YAML files): about 9 s here, the same work for every run. A
*fork server* does it once per test session: a process that imports lmms-eval, indexes lmms-eval's
own task folder, and then, for each run, forks a child that is the run: it takes the run's
environment, working folder and arguments, writes its stdout and stderr to files and exits with
lmms-eval's status, as ``python -m lmms_eval`` would. Nothing of a run is shared with the next
(each child is a fresh copy of the server, which never evaluates anything); chronotasks' own
modules, but for the model-registry manifests lmms-eval loads at import, are imported in the
child. The include path (chronotasks' tasks, a test's skeleton) is indexed by each run.

Runs that are about the command line itself, or that start several processes (``torchrun``),
run the real launcher in a subprocess (``run_lmms_eval(..., nproc=2)``; ``CHRONOTASKS_TEST_SUBPROCESS=1``
sends every run there, e.g. to check the fork server changes nothing).

    python tests/lmms_eval_fork.py serve     (started by ``ForkServer``; one JSON request a line on
                                               stdin, one JSON reply a line on the inherited fd 1)
"""

from __future__ import annotations

import atexit
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import traceback
from pathlib import Path


class ForkServer:
    """The test session's fork server (started on first use, stopped at exit)."""

    _instance: ForkServer | None = None
    _lock = threading.Lock()

    def __init__(self, env: dict[str, str]) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, __file__, "serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, text=True, bufsize=1
        )
        ready = self.proc.stdout.readline()
        if json.loads(ready or "{}").get("ready") is not True:
            raise RuntimeError(f"the lmms-eval fork server did not start (said {ready!r}, exit {self.proc.poll()})")
        atexit.register(self.close)

    @classmethod
    def get(cls, env: dict[str, str]) -> ForkServer:
        with cls._lock:
            if cls._instance is None or cls._instance.proc.poll() is not None:
                cls._instance = ForkServer(env)
            return cls._instance

    def run(self, args: list[str], env: dict[str, str], cwd: Path, stdout: Path, stderr: Path, timeout: float) -> int:
        """lmms-eval's exit status for ``args``; its output in the two files."""
        request = {
            "args": [os.fspath(a) for a in args],
            "env": {k: os.fspath(v) for k, v in env.items()},
            "cwd": str(cwd),
            "stdout": str(stdout),
            "stderr": str(stderr),
            "timeout": timeout,
        }  # (as subprocess takes them: paths too)
        with self._lock:
            self.proc.stdin.write(json.dumps(request) + "\n")
            self.proc.stdin.flush()
            reply = self.proc.stdout.readline()
        if not reply:
            raise RuntimeError(f"the lmms-eval fork server stopped (exit {self.proc.poll()})")
        return int(json.loads(reply)["status"])

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.stdin.close()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()


def run(arguments: list, env: dict, cwd: Path, timeout: float, log: Path | None = None) -> subprocess.CompletedProcess:
    """``python -m lmms_eval ARGUMENTS`` with ``env`` in ``cwd``: its exit status and output (stdout
    and stderr, or with ``log`` both written there in order, as ``stdout=log, stderr=STDOUT``
    would). A child of the fork server, or with ``CHRONOTASKS_TEST_SUBPROCESS=1`` a subprocess."""
    arguments = [os.fspath(a) for a in arguments]
    if os.environ.get("CHRONOTASKS_TEST_SUBPROCESS"):
        command = [sys.executable, "-m", "lmms_eval", *arguments]
        if log is None:
            return subprocess.run(command, env=env, capture_output=True, text=True, timeout=timeout, cwd=cwd, check=False)
        with open(log, "w") as handle:
            return subprocess.run(command, env=env, stdout=handle, stderr=subprocess.STDOUT, timeout=timeout, cwd=cwd, check=False)
    server_env = {**os.environ, "PYTHONPATH": env.get("PYTHONPATH", os.environ.get("PYTHONPATH", ""))}
    with tempfile.TemporaryDirectory() as folder:
        out, err = (Path(log), Path(log)) if log is not None else (Path(folder) / "stdout", Path(folder) / "stderr")
        status = ForkServer.get(server_env).run(arguments, env, cwd, out, err, timeout)
        if status == 128 + signal.SIGALRM:  # past its time
            raise subprocess.TimeoutExpired(["lmms_eval", *arguments], timeout)
        if log is not None:
            return subprocess.CompletedProcess(["lmms_eval", *arguments], status, None, None)
        return subprocess.CompletedProcess(
            ["lmms_eval", *arguments], status, out.read_text(errors="replace"), err.read_text(errors="replace")
        )


# -- the server process --------------------------------------------------------------------------------
def _index_once() -> None:
    """Index lmms-eval's own task folder now; every child reuses the index (its own copy of it)."""
    import lmms_eval.tasks as tasks_module
    from lmms_eval.tasks import TaskManager

    own = os.path.dirname(os.path.abspath(tasks_module.__file__)) + "/"
    original = TaskManager._get_task_and_group
    index: dict = {}

    def get_task_and_group(self, task_dir: str):
        if task_dir != own:
            return original(self, task_dir)
        if "own" not in index:
            index["own"] = original(self, task_dir)
        return index["own"]

    TaskManager._get_task_and_group = get_task_and_group
    TaskManager("ERROR")  # indexes lmms-eval's folder (as every run's TaskManager does first)


def _child(request: dict, reply_fd: int) -> None:
    """The run itself (in the forked child): never returns."""
    status = 1
    try:
        os.close(reply_fd)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        targets = {
            path: os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_APPEND, 0o644)
            for path in {request["stdout"], request["stderr"]}
        }  # one file for both: one description, in order
        os.dup2(targets[request["stdout"]], 1)
        os.dup2(targets[request["stderr"]], 2)
        for target in targets.values():
            os.close(target)
        sys.argv = ["lmms_eval", *request["args"]]
        if "OMP_NUM_THREADS" in request["env"]:  # read by OpenMP when torch was imported (in the server): set it as a new process has it
            import torch

            torch.set_num_threads(int(request["env"]["OMP_NUM_THREADS"]))
        signal.alarm(int(request.get("timeout") or 0))  # a run past its time ends as a timeout would
        from lmms_eval.__main__ import cli_evaluate

        try:
            cli_evaluate()
            status = 0
        except SystemExit as stop:  # as the interpreter ends on one: a message is printed, then exit 1
            if stop.code is not None and not isinstance(stop.code, int):
                print(stop.code, file=sys.stderr)
            status = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
    except BaseException:  # noqa: BLE001  (as the interpreter does: the traceback, then exit 1)
        traceback.print_exc()
        status = 1
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(status)


def serve() -> None:
    reply_fd = os.dup(1)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)  # nothing but replies on the reply channel
    import lmms_eval.__main__  # noqa: F401  (the start-up every child shares)

    _index_once()
    reply = os.fdopen(reply_fd, "w", buffering=1)
    reply.write(json.dumps({"ready": True}) + "\n")
    for line in sys.stdin:
        request = json.loads(line)
        pid = os.fork()
        if pid == 0:
            _child(request, reply_fd)
        _, wait_status = os.waitpid(pid, 0)
        status = os.waitstatus_to_exitcode(wait_status)
        reply.write(json.dumps({"status": status if status >= 0 else 128 - status}) + "\n")


if __name__ == "__main__" and sys.argv[1:] == ["serve"]:
    serve()
