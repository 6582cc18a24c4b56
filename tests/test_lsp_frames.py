"""Issue 30, point 7: no frame a client sends stops the language server; ``exit`` and ``shutdown`` as LSP says.

Over the server's real standard input and output (``tests/lspclient.py``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mechlint.lsp.frames import MAX_BODY, FrameReader, Malformed

from .lspclient import Client

PARSE_ERROR, INVALID_REQUEST = -32700, -32600


def frame(body: bytes, header: bytes | None = None) -> bytes:
    return (header if header is not None else b"Content-Length: %d\r\n\r\n" % len(body)) + body


REQUEST = json.dumps({"jsonrpc": "2.0", "id": 99, "method": "textDocument/hover"}).encode()
MALFORMED = {
    "a length past any integer": (b"Content-Length: 100000000000000000000\r\n\r\n" + REQUEST, PARSE_ERROR),
    "a length that is not a number": (b"Content-Length: abc\r\n\r\n" + REQUEST, PARSE_ERROR),
    "a negative length": (b"Content-Length: -5\r\n\r\n" + REQUEST, PARSE_ERROR),
    "no Content-Length": (b"Content-Type: application/json\r\n\r\n" + REQUEST, PARSE_ERROR),
    "no headers at all": (REQUEST, PARSE_ERROR),
    "a body that is not JSON": (frame(b"{not json"), PARSE_ERROR),
    "a body that is not UTF-8": (frame(b'{"a": "\xff"}'), PARSE_ERROR),
    "JSON that is not a message": (frame(b"[1, 2]"), INVALID_REQUEST),
    "an object without jsonrpc": (frame(b'{"id": 7, "method": "x"}'), INVALID_REQUEST),  # answered as id 7
}


@pytest.fixture
def server(tmp_path: Path) -> Any:
    client = Client.mechlint(tmp_path)
    client.initialize(tmp_path)
    yield client
    if client.process.poll() is None:
        client.process.kill()
        client.process.wait()


def hover(client: Client) -> dict[str, Any]:
    uri = "file:///nowhere/m.json"
    params = {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}}
    return client.response("textDocument/hover", params, timeout=60)


def test_every_malformed_frame_is_answered_and_the_server_goes_on(server: Client) -> None:
    errors = []
    for name, (data, _) in MALFORMED.items():
        server.send_raw(data)
        assert hover(server) == {"jsonrpc": "2.0", "id": server.next_id, "result": None}, name
        answer = server.responses.pop(7 if "without jsonrpc" in name else None, None)
        assert answer is not None, name  # the malformed frame's answer came before the hover's
        errors.append((name, answer["error"]["code"]))
    assert errors == [(name, code) for name, (_, code) in MALFORMED.items()]
    assert server.process.poll() is None
    assert server.close() == 0


def test_headers_ending_in_a_bare_line_feed_are_read(server: Client) -> None:
    body = json.dumps(
        {
            "jsonrpc": "2.0",
            "id": 500,
            "method": "textDocument/hover",
            "params": {"textDocument": {"uri": "file:///nowhere/m.json"}, "position": {"line": 0, "character": 0}},
        }
    ).encode()
    server.send_raw(b"Content-Length: %d\n\n" % len(body) + body)
    assert hover(server)["result"] is None  # answered after the one above: both have come
    assert server.responses.pop(500)["result"] is None
    assert None not in server.responses


def test_a_request_after_shutdown_is_an_invalid_request(server: Client) -> None:
    assert server.request("shutdown", None) is None
    answer = hover(server)
    assert answer["error"]["code"] == INVALID_REQUEST
    server.notify("exit", None)
    assert server.process.wait(timeout=30) == 0


def test_exit_without_shutdown_exits_1(server: Client) -> None:
    server.notify("exit", None)
    assert server.process.wait(timeout=30) == 1


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (frame(b"{}") + frame(b"[]"), [b"{}", b"[]"]),
        (b"Content-Length: %d\r\n\r\n" % (MAX_BODY + 1) + frame(b"{}"), [Malformed, b"{}"]),
        (b"\r\n" + frame(b"{}", b"content-length: 2\nContent-Type: x\n\n"), [b"{}"]),
        (b"garbage" + frame(b"{}"), [Malformed, b"{}"]),
        (b"X" * 70000 + frame(b"{}"), [Malformed, b"{}"]),
    ],
)
def test_frames_are_read_one_byte_at_a_time_too(data: bytes, expected: list[Any]) -> None:
    """The reader needs no more bytes than a frame has: each ``read`` may give only one."""
    stream = iter(data[i : i + 1] for i in range(len(data)))
    reader = FrameReader(lambda size: next(stream, b""))
    found: list[Any] = []
    while (item := reader.next()) is not None:
        found.append(type(item) if isinstance(item, Malformed) else item)
    assert found == expected
