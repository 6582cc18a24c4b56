"""The language server's wiring: LSP messages to :class:`~mechlint.lsp.checker.Checker` and back.

Diagnostics are pushed on open, on save and, debounced, on change. Nothing a
client sends can stop the server: every handler turns an exception into a
log message (stderr and ``window/logMessage``) and a ``mechlint/internal-error``
diagnostic where a file was being checked.

Long: one handler per LSP message, each a few lines, sharing the server's state and its error guard.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import unquote

from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.json_rpc import JsonRPCNotification
from pygls.uris import to_fs_path

from mechlint.errors import ConfigError
from mechlint.lsp import actions, authoring, whatchanged
from mechlint.lsp.checker import INVALID_CONFIG, Checked, Checker
from mechlint.lsp.diagnostics import SOURCE, diagnostic, diagnostics
from mechlint.lsp.positions import TextIndex
from mechlint.model import Result
from mechlint.version import __version__

#: Seconds to wait after a change before checking, so that typing is not checked keystroke by keystroke.
DEBOUNCE = 0.05
WATCHED = ("**/mechlint.toml", "**/pyproject.toml", "**/*.toml")
log = logging.getLogger("mechlint.lsp")
T = TypeVar("T")


#: What a request that was already answered with an error becomes: a notification nobody handles.
_ANSWERED = "$/mechlint/answered"


class _Protocol(LanguageServerProtocol):
    """pygls's protocol, but a request whose parameters do not fit gets its error answer (pygls sends none)."""

    def structure_message(self, data: dict[str, Any]) -> Any:
        try:
            return super().structure_message(data)
        except JsonRpcException as error:
            if not ("id" in data and "method" in data and isinstance(data["id"], int | str)):
                raise
            log.warning("answered %s with %s: its parameters do not fit the protocol", data["method"], error.message)
            self._send_response(data["id"], error=error.to_response_error())
            return JsonRPCNotification(method=_ANSWERED, jsonrpc="2.0", params=None)


class MechlintServer(LanguageServer):
    def __init__(self, root: Path | None = None, debounce: float = DEBOUNCE) -> None:
        super().__init__("mechlint", __version__, protocol_cls=_Protocol)
        self.checker = Checker(root, self.report)
        self.debounce = debounce
        self.pending: dict[str, asyncio.TimerHandle] = {}
        self.checked: dict[str, tuple[int | None, Checked]] = {}
        #: The last data of each document that parsed, for completion while the text is broken.
        self.last_data: dict[str, Any] = {}
        #: Configuration files whose error is shown in them.
        self.config_uris: set[str] = set()

    def report(self, message: str) -> None:
        log.warning("%s", message)
        with contextlib.suppress(Exception):  # no client yet, or its pipe is closed: stderr has it
            self.window_log_message(types.LogMessageParams(types.MessageType.Warning, message))

    def encoding(self) -> str:
        encoding = self.workspace.position_encoding or "utf-16"
        return str(getattr(encoding, "value", encoding))

    def index(self, text: str) -> TextIndex:
        return TextIndex(text, self.encoding())

    def path_of(self, uri: str) -> Path | None:
        path = to_fs_path(uri)
        return Path(path).absolute() if path else None

    def is_open(self, uri: str) -> bool:
        """Only documents the editor opened are answered for: nothing is read from disk for a request."""
        return unquote(uri) in self.workspace.text_documents

    def check(self, uri: str) -> Checked | None:
        """Check the document as it is now and publish its diagnostics (none for a file not selected)."""
        handle = self.pending.pop(uri, None)
        if handle is not None:
            handle.cancel()
        path = self.path_of(uri)
        if path is None or not self.is_open(uri):
            return None
        document = self.workspace.get_text_document(uri)
        text, version = document.source, document.version
        try:
            if not self.checker.selected(path):
                self.checked.pop(uri, None)
                if uri not in self.config_uris:  # a configuration file keeps the error shown in it
                    self.publish(uri, version, [])
                return None
            checked = self.checker.check(path, text, path.name)
        except Exception as error:
            log.exception("checking %s failed", path)
            self.report(f"checking {path} failed: {type(error).__name__}: {error}")
            checked = self.checker.internal_error(path, text, error)
        if checked.document.parsed:
            self.last_data[uri] = checked.document.data
        self.checked[uri] = (version, checked)
        self.publish(uri, version, diagnostics(checked.results, self.index(text), uri, checked.rules))
        self.publish_config_error(checked.config_error)
        return checked

    def publish_config_error(self, error: ConfigError | None) -> None:
        """The configuration's error at its line in the configuration file; cleared once it is fixed."""
        if error is None or error.path is None:
            return
        uri = Path(error.path).absolute().as_uri()
        line = max((error.line or 1) - 1, 0)
        where = types.Range(types.Position(line, 0), types.Position(line + 1, 0))
        found = types.Diagnostic(
            where, error.message, types.DiagnosticSeverity.Error, code=INVALID_CONFIG, source=SOURCE
        )
        self.config_uris.add(uri)
        self.publish(uri, None, [found])

    def current(self, uri: str) -> Checked | None:
        """The check of the document's present version, made now if the last one is older."""
        if not self.is_open(uri):
            return None
        version = self.workspace.get_text_document(uri).version
        known = self.checked.get(uri)
        if known is not None and known[0] == version and uri not in self.pending:
            return known[1]
        return self.check(uri)

    def publish(self, uri: str, version: int | None, found: list[types.Diagnostic]) -> None:
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri, found, version))

    def schedule(self, uri: str, delay: float) -> None:
        previous = self.pending.pop(uri, None)
        if previous is not None:
            previous.cancel()
        loop = asyncio.get_event_loop()
        self.pending[uri] = loop.call_later(delay, lambda: self.guard(lambda: self.check(uri), None))

    def recheck_all(self, configuration: bool = True) -> None:
        """Check every open document again, after reading the configuration (or only the sources) again."""
        if configuration:
            self.checker.reload()
            for uri in self.config_uris:  # published again below if still broken
                self.publish(uri, None, [])
            self.config_uris.clear()
        else:
            self.checker.reload_sources()
        for uri in list(self.workspace.text_documents):  # a file the new globs select, too
            self.guard(lambda uri=uri: self.check(uri), None)  # type: ignore[misc]

    def guard(self, handler: Callable[[], T], fallback: T) -> T:
        """Run a handler; an exception is logged and answered with ``fallback``, never raised."""
        try:
            return handler()
        except Exception as error:
            log.exception("a request failed")
            self.report(f"mechlint server: {type(error).__name__}: {error}")
            return fallback


def create(root: Path | None = None, debounce: float = DEBOUNCE) -> MechlintServer:
    server = MechlintServer(root, debounce)

    @server.feature(types.INITIALIZE)
    def initialize(ls: MechlintServer, params: types.InitializeParams) -> None:
        uris = [folder.uri for folder in params.workspace_folders or []] or [params.root_uri or ""]
        paths = [ls.path_of(uri) for uri in uris if uri]
        ls.checker.folders = [path for path in paths if path is not None]

    @server.feature(types.INITIALIZED)
    def initialized(ls: MechlintServer, params: types.InitializedParams) -> None:
        capabilities = ls.client_capabilities.workspace
        watched = capabilities.did_change_watched_files if capabilities else None
        if watched is not None and watched.dynamic_registration:
            watchers = [types.FileSystemWatcher(glob_pattern=pattern) for pattern in WATCHED]
            options = types.DidChangeWatchedFilesRegistrationOptions(watchers=watchers)
            registration = types.Registration("mechlint-config", types.WORKSPACE_DID_CHANGE_WATCHED_FILES, options)
            ls.client_register_capability(types.RegistrationParams([registration]))

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: MechlintServer, params: types.DidOpenTextDocumentParams) -> None:
        ls.guard(lambda: ls.check(params.text_document.uri), None)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: MechlintServer, params: types.DidChangeTextDocumentParams) -> None:
        ls.guard(lambda: ls.schedule(params.text_document.uri, ls.debounce), None)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: MechlintServer, params: types.DidSaveTextDocumentParams) -> None:
        # A TOML file may be the configuration, a word list or an invariant file; any other may be a source.
        configuration = params.text_document.uri.endswith(".toml")
        ls.guard(lambda: ls.recheck_all(configuration), None)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: MechlintServer, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        handle = ls.pending.pop(uri, None)
        if handle is not None:
            handle.cancel()
        ls.checked.pop(uri, None)
        ls.last_data.pop(uri, None)
        ls.publish(uri, None, [])

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def did_change_watched(ls: MechlintServer, params: types.DidChangeWatchedFilesParams) -> None:
        ls.guard(ls.recheck_all, None)

    kinds = [types.CodeActionKind.QuickFix, actions.FIX_ALL]

    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(code_action_kinds=kinds))
    def code_action(ls: MechlintServer, params: types.CodeActionParams) -> list[types.CodeAction]:
        return ls.guard(lambda: _code_actions(ls, params), [])

    @server.feature(types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=['"']))
    def completion(ls: MechlintServer, params: types.CompletionParams) -> types.CompletionList:
        def answer() -> types.CompletionList:
            text, index, offset = _at(ls, params.text_document.uri, params.position)
            data = ls.last_data.get(params.text_document.uri)
            items = authoring.completions(text, index, offset, data)
            return types.CompletionList(is_incomplete=False, items=items)

        return ls.guard(answer, types.CompletionList(is_incomplete=False, items=[]))

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(ls: MechlintServer, params: types.HoverParams) -> types.Hover | None:
        def answer() -> types.Hover | None:
            text, index, offset = _at(ls, params.text_document.uri, params.position)
            return _changed_hover(ls, params.text_document.uri, index, offset) or authoring.hover(
                text, index, offset, _data(ls, params.text_document.uri)
            )

        return ls.guard(answer, None)

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    def definition(ls: MechlintServer, params: types.DefinitionParams) -> types.Location | None:
        def answer() -> types.Location | None:
            text, index, offset = _at(ls, params.text_document.uri, params.position)
            return authoring.definition(text, index, offset, params.text_document.uri)

        return ls.guard(answer, None)

    @server.feature(types.TEXT_DOCUMENT_REFERENCES)
    def references(ls: MechlintServer, params: types.ReferenceParams) -> list[types.Location]:
        def answer() -> list[types.Location]:
            uri = params.text_document.uri
            text, index, offset = _at(ls, uri, params.position)
            declaration = params.context.include_declaration
            return authoring.references(text, index, offset, uri, _data(ls, uri), declaration)

        return ls.guard(answer, [])

    @server.feature(types.SHUTDOWN)
    def shutdown(ls: MechlintServer, params: None) -> None:
        ls.checker.close()

    return server


def _at(ls: MechlintServer, uri: str, position: types.Position) -> tuple[str, TextIndex, int]:
    text = ls.workspace.get_text_document(uri).source if ls.is_open(uri) else ""
    index = ls.index(text)
    return text, index, index.offset(position)


def _changed_hover(ls: MechlintServer, uri: str, index: TextIndex, offset: int) -> types.Hover | None:
    """What changed since the pin, over a source whose bytes changed (see :mod:`mechlint.lsp.whatchanged`)."""
    checked, path = ls.current(uri), ls.path_of(uri)
    if checked is None or path is None:
        return None
    return whatchanged.hover(checked, index, offset, ls.checker.provenance(path))


def _data(ls: MechlintServer, uri: str) -> Any:
    checked = ls.current(uri)
    if checked is not None and checked.document.parsed:
        return checked.document.data
    return ls.last_data.get(uri)


def _code_actions(ls: MechlintServer, params: types.CodeActionParams) -> list[types.CodeAction]:
    uri = params.text_document.uri
    checked = ls.current(uri)
    path = ls.path_of(uri)
    if checked is None or path is None:
        return []
    text = checked.document.text
    index = ls.index(text)
    low, high = index.offset(params.range.start), index.offset(params.range.end)

    def touches(result: Result) -> bool:
        start, end = index.region_offsets(result.region)
        return start <= high and low <= max(end, start + 1)

    results = [r for r in checked.results if touches(r)]
    fixes = actions.fixes_for(
        checked, results, lambda: ls.checker.fixed_text(path, text), lambda: ls.checker.pinned_text(path, text)
    )

    def diagnostic_of(result: Result) -> types.Diagnostic:
        return diagnostic(result, index, uri, checked.rules)

    return actions.code_actions(fixes, index, uri, diagnostic_of, params.context.only)


def main(root: Path | None = None) -> int:
    """Serve over standard input and output until the client says exit."""
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="mechlint server: %(message)s")
    from mechlint.lsp.frames import serve_stdio

    server = create(root)
    try:
        return serve_stdio(server)
    finally:
        server.checker.close()
