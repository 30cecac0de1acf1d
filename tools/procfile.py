"""Start the processes deploy/Procfile declares, as a Procfile runner (honcho, foreman, a PaaS) would, and keep hold
of each so that it can be killed, restarted and stopped: what the chaos run (tools/chaos.py) needs to test the deploy
files themselves rather than a command line of its own.

Each line `name: command` is run by `bash -c "exec command"` (so `${PORT:-8000}` expands from the environment as on
a PaaS, and the process is the command itself, not a shell around it), in a session of its own, with its output in
a log file. `count` runs several of one type (`worker.1`, `worker.2`), as `honcho start -c worker=2` does.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

PROCFILE = Path(__file__).resolve().parents[1] / "deploy" / "Procfile"
_LINE = re.compile(r"^([A-Za-z0-9_-]+):\s*(.+)$")


def read_procfile(path: Path = PROCFILE) -> dict[str, str]:
    """{process type: command}, in the file's order; comments and blank lines are skipped."""
    types = {}
    for line in path.read_text().splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        found = _LINE.match(line.strip())
        if not found:
            raise ValueError(f"{path}: not a Procfile line: {line!r}")
        types[found.group(1)] = found.group(2)
    return types


@dataclass
class Process:
    name: str  # "worker.1"
    command: str
    log_path: Path
    proc: subprocess.Popen | None = None

    @property
    def pid(self) -> int:
        assert self.proc is not None, f"{self.name} was never started"
        return self.proc.pid

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def children(self) -> list[int]:
        """Its direct child processes (a prefork worker's pool), from /proc."""
        path = Path(f"/proc/{self.pid}/task/{self.pid}/children")
        try:
            return [int(pid) for pid in path.read_text().split()]
        except OSError:
            return []


@dataclass
class ProcfileRunner:
    env: dict[str, str]
    log_dir: Path
    cwd: Path = PROCFILE.parents[1]
    procfile: Path = PROCFILE
    processes: dict[str, Process] = field(default_factory=dict)
    groups: list[int] = field(default_factory=list)  # every process group started, restarted ones' included

    def start(self, counts: dict[str, int] | None = None) -> None:
        """Start every type of the Procfile (`counts` of each; 0 leaves a type out; 1 by default)."""
        counts = counts or {}
        for kind, command in read_procfile(self.procfile).items():
            for i in range(1, counts.get(kind, 1) + 1):
                self.start_one(f"{kind}.{i}", command)

    def start_one(self, name: str, command: str | None = None) -> Process:
        if command is None:
            command = self.processes[name].command
        process = Process(name, command, self.log_dir / f"{name}.log")
        with open(process.log_path, "a") as log:
            process.proc = subprocess.Popen(["bash", "-c", f"exec {command}"], cwd=self.cwd, env=self.env,
                                            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        self.processes[name] = process
        self.groups.append(process.pid)
        return process

    def restart(self, name: str) -> Process:
        """Start a process of the same type again (what a supervisor's restart policy does after a crash)."""
        return self.start_one(name)

    def kill(self, name: str, sig: int = signal.SIGKILL) -> None:
        """Signal the process itself (not its group): a kill -9 of a worker's main process leaves its pool alone."""
        process = self.processes[name]
        if process.alive():
            os.kill(process.pid, sig)
            if sig == signal.SIGKILL:
                assert process.proc is not None  # alive() says it was started
                process.proc.wait(timeout=30)

    def stop_all(self, timeout: float = 20) -> None:
        for process in self.processes.values():
            if process.proc is not None:
                self._signal_group(process, signal.SIGTERM)
        deadline = time.monotonic() + timeout
        for process in self.processes.values():
            if process.proc is None:
                continue
            try:
                process.proc.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                self._signal_group(process, signal.SIGKILL)
        # Every group, restarted processes' old ones too: pool children orphaned by a killed main process must not
        # outlive the run.
        for group in self.groups:
            try:
                os.killpg(group, signal.SIGKILL)
            except ProcessLookupError:
                pass

    @staticmethod
    def _signal_group(process: Process, sig: int) -> None:
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            pass
