"""A small Python client for the bridge, without a sandbox: for the bridge's own tests and the benchmark floor.

The harness (TypeScript, harness/debugger-client.ts) is the real client; it runs the bridge inside bubblewrap.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys


class BridgeProcess:
    def __init__(self, workspace: str, test: str | None, timeout: float = 30.0) -> None:
        """``test=None`` starts a pre-warmed bridge (``--prewarm``): ``call("start", test=…)`` names the test."""
        c_read, p_write = os.pipe()  # commands: parent -> bridge
        p_read, c_write = os.pipe()  # replies: bridge -> parent
        env = {**os.environ, "DEBUGRL_WORKSPACE": workspace, "PYTHONDONTWRITEBYTECODE": "1"}
        self.proc = subprocess.Popen(
            [sys.executable, "-P", "-m", "debugrl_native.debugger.bridge", *(["--test", test] if test else ["--prewarm"]), "--in-fd", str(c_read), "--out-fd", str(c_write)],
            cwd=workspace,
            env=env,
            pass_fds=(c_read, c_write),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        os.close(c_read)
        os.close(c_write)
        self.tx = os.fdopen(p_write, "w", encoding="utf-8")
        self.rx = os.fdopen(p_read, "r", encoding="utf-8")
        self.timeout = timeout
        self.next_id = 0
        self.events: list[dict] = []  # events (``warm``) that arrived while waiting for a reply
        ready = json.loads(self.rx.readline())
        assert ready.get("event") == "ready", ready

    def wait_event(self, name: str) -> dict:
        """Block until the bridge sends the event ``name`` (e.g. ``warm``) and return it."""
        for i, e in enumerate(self.events):
            if e.get("event") == name:
                return self.events.pop(i)
        while True:
            msg = self._read()
            if msg.get("event") == name:
                return msg
            self.events.append(msg)

    def _read(self) -> dict:
        line = self.rx.readline()
        if not line:
            stderr = self.proc.stderr.read().decode()[-2000:] if self.proc.stderr else ""
            raise RuntimeError(f"bridge exited: {self.proc.wait(5)}; stderr: {stderr}")
        return json.loads(line)

    def call(self, cmd: str, **args) -> dict:
        self.next_id += 1
        self.tx.write(json.dumps({"id": self.next_id, "cmd": cmd, "args": args}) + "\n")
        self.tx.flush()
        reply = self._read()
        while "event" in reply:
            self.events.append(reply)
            reply = self._read()
        assert reply["id"] == self.next_id, reply
        return reply

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(5)
        for f in (self.tx, self.rx, self.proc.stdout, self.proc.stderr):
            if f is None:
                continue
            try:
                f.close()
            except OSError:
                pass
