"""A small Python client for the bridge, without a sandbox: for the bridge's own tests and the benchmark floor.

The harness (TypeScript, harness/debugger-client.ts) is the real client; it runs the bridge inside bubblewrap.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys


class BridgeProcess:
    def __init__(self, workspace: str, test: str, timeout: float = 30.0) -> None:
        c_read, p_write = os.pipe()  # commands: parent -> bridge
        p_read, c_write = os.pipe()  # replies: bridge -> parent
        env = {**os.environ, "DEBUGRL_WORKSPACE": workspace, "PYTHONDONTWRITEBYTECODE": "1"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "debugrl_native.debugger.bridge", "--test", test, "--in-fd", str(c_read), "--out-fd", str(c_write)],
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
        ready = json.loads(self.rx.readline())
        assert ready.get("event") == "ready", ready

    def call(self, cmd: str, **args) -> dict:
        self.next_id += 1
        self.tx.write(json.dumps({"id": self.next_id, "cmd": cmd, "args": args}) + "\n")
        self.tx.flush()
        line = self.rx.readline()
        if not line:
            raise RuntimeError(f"bridge exited: {self.proc.wait(5)}; stderr: {self.proc.stderr.read().decode()[-2000:]}")
        reply = json.loads(line)
        assert reply["id"] == self.next_id, reply
        return reply

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(5)
        for f in (self.tx, self.rx, self.proc.stdout, self.proc.stderr):
            try:
                f.close()
            except OSError:
                pass
