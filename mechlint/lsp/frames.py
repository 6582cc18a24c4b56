"""LSP's base protocol on standard input, read so that no frame a client sends can stop the server.

A message is headers (``Name: value`` lines), an empty line, and the
``Content-Length`` bytes of its JSON body. pygls reads that with a regular
expression and ``read(length)``: a length of 10**20 raised ``OverflowError``
and ended the server, and a header it could not read (no length, a negative
one, a line ending in a bare LF) made it take the body for headers and, with
it, every later message, so the server stopped answering until its input
closed.

:class:`FrameReader` reads frames itself: headers of at most
:data:`MAX_HEADER` bytes, a length of ASCII digits of at most
:data:`MAX_BODY` bytes, lines ending in CRLF or LF. A frame it cannot read is
answered with a JSON-RPC parse error and skipped up to the next
``Content-Length:``, so the next well-formed message is answered. :func:`serve`
is the loop over the frames (pygls's ``run_async``, with these answers): a body
that is not JSON gets a parse error; JSON that is not a message gets an
``InvalidRequest`` error; a request after ``shutdown`` gets ``InvalidRequest``
(the LSP specification), and ``exit`` without ``shutdown`` exits 1.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import sys
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pygls.exceptions import JsonRpcException

from mechlint.records import Record

if TYPE_CHECKING:
    from pygls.lsp.server import LanguageServer
    from pygls.protocol import LanguageServerProtocol

log = logging.getLogger("mechlint.lsp")

#: Bytes of headers before the empty line that ends them.
MAX_HEADER = 64 * 1024
#: Bytes of one message's body (a document of 200 MiB is far past ``max-file-size``).
MAX_BODY = 256 * 1024 * 1024
PARSE_ERROR, INVALID_REQUEST = -32700, -32600
_NEXT_FRAME = re.compile(rb"content-length:", re.IGNORECASE)
_HEADERS_END = re.compile(rb"\r?\n\r?\n")
_NAME = re.compile(rb"[A-Za-z0-9-]+")


class Malformed(Record):
    """A frame that could not be read, and why (a sentence for the log and the parse error)."""

    reason: str


def _content_length(header: bytes) -> int | str:
    """The body's length the headers give, or why they give none."""
    length: int | None = None
    for line in re.split(rb"\r?\n", header):
        name, colon, value = line.partition(b":")
        if not colon or not _NAME.fullmatch(name.strip()):
            return f"a header line that is not 'Name: value': {line[:40]!r}"
        if name.strip().lower() != b"content-length":
            continue  # Content-Type, or a header of a later version
        text = value.strip()
        if not (text.isdigit() and len(text) <= 12):
            return f"Content-Length is not a whole number of bytes: {text[:40]!r}"
        if int(text) > MAX_BODY:
            return f"Content-Length {int(text)} is more than {MAX_BODY} bytes"
        if length is not None and length != int(text):
            return "two different Content-Length headers"
        length = int(text)
    if length is None:
        return "no Content-Length header"
    return length


class FrameReader:
    """Frames from ``read`` (``read(n)`` returns up to ``n`` bytes as they come, ``b""`` at the end)."""

    def __init__(self, read: Callable[[int], bytes]) -> None:
        self._read = read
        self._buffer = bytearray()
        self._skipping = False

    def _fill(self) -> bool:
        chunk = self._read(1 << 16)
        self._buffer += chunk
        return bool(chunk)

    def _resynchronize(self) -> bool:
        """Drop bytes up to the next ``Content-Length:``; False at the end of the input."""
        while True:
            found = _NEXT_FRAME.search(self._buffer)
            if found is not None:
                del self._buffer[: found.start()]
                self._skipping = False
                return True
            del self._buffer[: max(0, len(self._buffer) - 15)]  # keep what may be the start of one
            if not self._fill():
                return False

    def _skip(self, reason: str, past: int) -> Malformed:
        del self._buffer[:past]
        self._skipping = True
        return Malformed(reason)

    def next(self) -> bytes | Malformed | None:
        """The next message's body, a :class:`Malformed` frame (the rest of it skipped), or ``None`` at the end."""
        if self._skipping and not self._resynchronize():
            return None
        scanned = 0  # bytes already searched for the end of the headers: a slow client costs no more
        while True:
            while bytes(self._buffer[:1]) in (b"\r", b"\n"):  # empty lines between frames
                del self._buffer[:1]
                scanned = 0
            end = _HEADERS_END.search(self._buffer, max(0, scanned - 3))
            if end is not None and end.start() <= MAX_HEADER:
                break
            if len(self._buffer) > MAX_HEADER:
                return self._skip(f"headers longer than {MAX_HEADER} bytes", 1)
            scanned = len(self._buffer)
            if not self._fill():
                return None
        length = _content_length(bytes(self._buffer[: end.start()]))
        if isinstance(length, str):
            return self._skip(length, 1)  # a later Content-Length in these bytes may start the next frame
        while len(self._buffer) < end.end() + length:
            if not self._fill():
                return None
        body = bytes(self._buffer[end.end() : end.end() + length])
        del self._buffer[: end.end() + length]
        return body


def _error(protocol: LanguageServerProtocol, request: Any, code: int, message: str) -> None:
    protocol._send_data({"jsonrpc": "2.0", "id": request, "error": {"code": code, "message": message}})


def _request_id(data: Any) -> int | str | None:
    found = data.get("id") if isinstance(data, dict) else None
    return found if isinstance(found, int | str) and not isinstance(found, bool) else None


def _read_all(reader: FrameReader, loop: asyncio.AbstractEventLoop, frames: asyncio.Queue[Any]) -> None:
    """In a daemon thread (a read that waits never holds up the exit): every frame, then ``None``."""
    while True:
        try:
            frame = reader.next()
        except Exception as error:  # the input itself failed (EIO): as its end
            log.warning("reading standard input failed: %s", error)
            frame = None
        try:
            loop.call_soon_threadsafe(frames.put_nowait, frame)
        except RuntimeError:  # the loop has ended
            return
        if frame is None:
            return


def handle(protocol: LanguageServerProtocol, frame: bytes | Malformed) -> None:
    """Answer one frame: a message goes to pygls; anything else gets its JSON-RPC error."""
    if isinstance(frame, Malformed):
        log.warning("skipped a malformed message: %s", frame.reason)
        _error(protocol, None, PARSE_ERROR, f"Parse error: {frame.reason}")
        return
    try:
        data = json.loads(frame)
    except ValueError as error:  # not UTF-8, or not JSON
        log.warning("skipped a message that is not JSON: %s", error)
        _error(protocol, None, PARSE_ERROR, f"Parse error: the message is not JSON ({error})")
        return
    if not (isinstance(data, dict) and data.get("jsonrpc") == "2.0" and ("method" in data or "id" in data)):
        log.warning("skipped JSON that is not a JSON-RPC 2.0 message")
        _error(protocol, _request_id(data), INVALID_REQUEST, "Invalid request: not a JSON-RPC 2.0 message")
        return
    if protocol._shutdown and "id" in data and "method" in data:
        _error(protocol, _request_id(data), INVALID_REQUEST, "Invalid request: the server is shutting down")
        return
    try:
        message = json.loads(frame, object_hook=protocol.structure_message)
    except JsonRpcException as error:  # a request was answered (see server._Protocol); a notification is skipped
        log.warning("skipped %s: %s", data.get("method", "a message"), error.message)
        return
    protocol.handle_message(message)


async def serve(protocol: LanguageServerProtocol, reader: FrameReader, stop: threading.Event) -> None:
    """Handle every frame until the input ends, ``stop`` is set, or ``exit`` raises ``SystemExit``."""
    loop = asyncio.get_running_loop()
    frames: asyncio.Queue[bytes | Malformed | None] = asyncio.Queue()
    threading.Thread(target=_read_all, args=(reader, loop, frames), daemon=True, name="lsp-input").start()
    while not stop.is_set():
        frame = await frames.get()
        if frame is None:
            return
        try:
            handle(protocol, frame)
        except Exception:  # pygls's handlers answer their own errors; nothing here may end the loop
            log.exception("handling a message failed")


def serve_stdio(server: LanguageServer) -> int:
    """Serve LSP over standard input and output (pygls's ``start_io``, reading with :class:`FrameReader`).

    The exit code: 0 when the input ends or after ``shutdown`` then ``exit``; 1 for ``exit`` without ``shutdown``.
    """
    from pygls.io_ import StdoutWriter

    descriptor = sys.stdin.fileno()
    # os.read: what has come, never waiting for more; and no lock of a buffered stream, which a daemon thread
    # blocked in a read would hold when the interpreter exits (Python aborts then)
    reader = FrameReader(lambda size: os.read(descriptor, size))
    stop = server._stop_event = threading.Event()
    server.protocol.set_writer(StdoutWriter(sys.stdout.buffer))
    try:
        asyncio.run(serve(server.protocol, reader, stop))
    except BrokenPipeError:
        log.warning("the client closed its end of the connection")
    except SystemExit as done:  # the exit notification (pygls's handler ends the process so)
        return done.code if isinstance(done.code, int) else 1
    finally:
        server.shutdown()  # type: ignore[no-untyped-call]
    return 0
