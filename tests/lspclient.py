"""A small JSON-RPC client that speaks LSP to ``mechlint server`` over its standard input and output."""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any


class Client:
    def __init__(self, args: list[str], cwd: Path) -> None:
        self.process = subprocess.Popen(
            args, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        self.messages: queue.Queue[dict[str, Any]] = queue.Queue()
        self.notifications: list[dict[str, Any]] = []
        self.responses: dict[int, dict[str, Any]] = {}
        self.next_id = 0
        self.stderr: list[bytes] = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._drain, daemon=True).start()

    @classmethod
    def mechlint(cls, cwd: Path, *extra: str) -> Client:
        return cls([sys.executable, "-m", "mechlint", "server", *extra], cwd)

    def _drain(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.stderr.append(line)

    def _read(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        while True:
            headers: dict[str, str] = {}
            while True:
                line = stream.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode("ascii").partition(":")
                headers[name.strip().lower()] = value.strip()
            body = stream.read(int(headers["content-length"]))
            self.messages.put(json.loads(body))

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
        assert self.process.stdin is not None
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def send_raw(self, data: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def notify(self, method: str, params: Any) -> None:
        self.send({"method": method, "params": params})

    def _pump(self, timeout: float) -> None:
        message = self.messages.get(timeout=timeout)
        if "method" in message and "id" in message:  # a request from the server: answer it
            self.send({"id": message["id"], "result": None})
        elif "method" in message:
            self.notifications.append(message)
        else:
            self.responses[message["id"]] = message

    def response(self, method: str, params: Any, timeout: float = 30) -> dict[str, Any]:
        """The whole response to a request: its ``result`` or its ``error``."""
        self.next_id += 1
        number = self.next_id
        self.send({"id": number, "method": method, "params": params})
        deadline = time.monotonic() + timeout
        while number not in self.responses:
            self._pump(max(0.01, deadline - time.monotonic()))
        return self.responses.pop(number)

    def request(self, method: str, params: Any, timeout: float = 30) -> Any:
        response = self.response(method, params, timeout)
        assert "error" not in response, response
        return response["result"]

    def wait_for(self, method: str, test: Any = lambda params: True, timeout: float = 30) -> dict[str, Any]:
        """The first notification of ``method`` (not yet taken) whose params pass ``test``; taken."""
        deadline = time.monotonic() + timeout
        while True:
            for index, message in enumerate(self.notifications):
                if message["method"] == method and test(message["params"]):
                    del self.notifications[index]
                    params: dict[str, Any] = message["params"]
                    return params
            self._pump(max(0.01, deadline - time.monotonic()))

    def diagnostics(self, uri: str, version: int | None = None, timeout: float = 30) -> list[dict[str, Any]]:
        def test(params: dict[str, Any]) -> bool:
            return bool(params["uri"] == uri and (version is None or params.get("version") == version))

        found: list[dict[str, Any]] = self.wait_for("textDocument/publishDiagnostics", test, timeout)["diagnostics"]
        return found

    def initialize(self, root: Path) -> Any:
        result = self.request(
            "initialize",
            {"processId": None, "rootUri": root.as_uri(), "capabilities": {"workspace": {}}},
        )
        self.notify("initialized", {})
        return result

    def close(self) -> int:
        try:
            if self.process.poll() is None:
                self.request("shutdown", None, timeout=10)
                self.notify("exit", None)
            return self.process.wait(timeout=10)
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()
