"""``lint-configs server``: the Language Server Protocol over stdio (pygls/lsprotocol, the optional
``server`` extra: ``pip install '.[server]'`` in a checkout).

* Diagnostics for every supported format on open, change and save, computed from the editor's
  unsaved text; the other files a launch reads (a ``.env``, a model's ``config.json``) come from the
  editor's open buffers when they are open, else from disk. Work on a changed buffer is debounced
  (:data:`DEBOUNCE` seconds) and a newer change cancels an older run.
* Code actions for fixes, labelled safe or unsafe, as workspace edits (a fix whose value is written in
  another file, such as a ``.env``, edits that file).
* Hover on a launch's first line shows what ``--explain`` shows.
* The configuration of the file's folder is read for every run, so a change to it applies at once.
* A file the linter cannot parse gets its SGL001; an internal error in one run is logged to the client
  and never stops the server.

Positions: lines and characters are converted to the client's UTF-16 code units (LSP 3.17 default).
"""

from __future__ import annotations

import asyncio
import traceback
from pathlib import Path
from urllib.parse import unquote, urlparse

DEBOUNCE = 0.25
"""Seconds a change waits before it is linted (a newer change restarts the wait)."""


_UNTITLED: dict[str, Path] = {}


def _path(uri: str, language: str = "") -> Path:
    """The file a document stands for. An unsaved document (``untitled:``) gets a name in the working
    folder that its language's format claims, so it is linted as that format."""
    parsed = urlparse(uri)
    if parsed.scheme == "file":
        return Path(unquote(parsed.path))
    if uri not in _UNTITLED:
        from linter.formats import untitled_name

        name = untitled_name(language)
        _UNTITLED[uri] = Path.cwd() / f".lint-configs-unsaved-{len(_UNTITLED)}" / name
    return _UNTITLED[uri]


def _uri(path: Path) -> str:
    for uri, p in _UNTITLED.items():
        if p == path:
            return uri
    return path.as_uri()


def _utf16_col(line_text: str, col: int) -> int:
    """A 0-based character column as UTF-16 code units."""
    return len(line_text[:col].encode("utf-16-le")) // 2


class Linter:
    """Lints open buffers: holds their texts and the last results (path → diagnostics)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.buffers: dict[Path, str] = {}
        self.results: dict[Path, list] = {}
        self.contexts: dict[Path, list] = {}

    def lint(self, path: Path) -> dict[Path, list]:
        """Lint the buffer (or file) at ``path``; diagnostics grouped by the file they are located in."""
        from linter.config import ConfigResolver
        from linter.engine import Engine, RunOptions, reconcile_with_readers
        from linter.workspace import Workspace

        from linter.boundary import find_root

        # the repository holding the buffer is its root: what the buffer names outside it is not read
        ws = Workspace(self.root, root=find_root([path], self.root))
        for p, text in self.buffers.items():
            ws.add(p, text)
        engine = Engine(ws, RunOptions(), ConfigResolver())
        from linter.isolate import lint_file

        result = lint_file(engine, path)  # a bug on this buffer is an SGL000 diagnostic, limits SGL004
        reconcile_with_readers(engine, [result])
        grouped: dict[Path, list] = {path: []}
        for d in result.diagnostics:
            grouped.setdefault(d.span.source.path, []).append(d)
        self.results[path] = result.diagnostics
        self.contexts[path] = result.contexts
        return grouped


def to_lsp_range(span):
    """An LSP ``Range`` for a :class:`~linter.source.Span` (UTF-16 columns)."""
    from lsprotocol import types as t

    src = span.source
    (l1, c1), (l2, c2) = span.start_line_col, span.end_line_col
    return t.Range(start=t.Position(line=l1 - 1, character=_utf16_col(src.line_text(l1), c1 - 1)),
                   end=t.Position(line=l2 - 1, character=_utf16_col(src.line_text(l2), c2 - 1)))


def to_lsp_diagnostic(d):
    from lsprotocol import types as t

    from linter.rules.links import rule_url

    severity = t.DiagnosticSeverity.Error if d.severity == "error" else t.DiagnosticSeverity.Warning
    message = d.message + "".join(f"\n{n}" for n in d.notes)
    url = rule_url(d.code)  # only where the package declares its documentation's address
    return t.Diagnostic(range=to_lsp_range(d.span), message=message, severity=severity, code=d.code,
                        source="lint-configs", code_description=t.CodeDescription(href=url) if url else None,
                        data={"key": d.key, "code": d.code})


def build_server():
    """The pygls server with its features registered. Raises ImportError without the extra."""
    from lsprotocol import types as t
    from pygls.lsp.server import LanguageServer

    from linter import __version__

    server = LanguageServer("lint-configs", __version__)
    state: dict = {"linter": None, "tasks": {}}

    def linter_for(uri: str) -> Linter:
        if state["linter"] is None:
            root = Path(server.workspace.root_path or Path.cwd())
            state["linter"] = Linter(root)
        return state["linter"]

    def publish(grouped: dict[Path, list]) -> None:
        for p, diags in grouped.items():
            server.text_document_publish_diagnostics(t.PublishDiagnosticsParams(
                uri=_uri(p), diagnostics=[to_lsp_diagnostic(d) for d in diags]))

    async def run(uri: str, delay: float) -> None:
        try:
            if delay:
                await asyncio.sleep(delay)
            lint = linter_for(uri)
            grouped = await asyncio.get_running_loop().run_in_executor(None, lint.lint, _path(uri))
            publish(grouped)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - a bad file never stops the server
            server.window_log_message(t.LogMessageParams(
                type=t.MessageType.Error,
                message=f"lint-configs: internal error on {uri}: {exc}\n{traceback.format_exc()}"))

    def schedule(uri: str, delay: float) -> None:
        old = state["tasks"].get(uri)
        if old is not None and not old.done():
            old.cancel()  # superseded by a newer change
        state["tasks"][uri] = asyncio.ensure_future(run(uri, delay))

    @server.feature(t.TEXT_DOCUMENT_DID_OPEN)
    def did_open(params: t.DidOpenTextDocumentParams) -> None:
        doc = params.text_document
        linter_for(doc.uri).buffers[_path(doc.uri, doc.language_id)] = doc.text
        schedule(params.text_document.uri, 0)

    @server.feature(t.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(params: t.DidChangeTextDocumentParams) -> None:
        uri = params.text_document.uri
        doc = server.workspace.get_text_document(uri)
        linter_for(uri).buffers[_path(uri)] = doc.source
        schedule(uri, DEBOUNCE)

    @server.feature(t.TEXT_DOCUMENT_DID_SAVE)
    def did_save(params: t.DidSaveTextDocumentParams) -> None:
        schedule(params.text_document.uri, 0)

    @server.feature(t.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(params: t.DidCloseTextDocumentParams) -> None:
        lint = linter_for(params.text_document.uri)
        lint.buffers.pop(_path(params.text_document.uri), None)
        # the editor shows nothing for a closed document (as ruff's server does)
        server.text_document_publish_diagnostics(t.PublishDiagnosticsParams(uri=params.text_document.uri,
                                                                           diagnostics=[]))

    @server.feature(t.TEXT_DOCUMENT_CODE_ACTION,
                    t.CodeActionOptions(code_action_kinds=[t.CodeActionKind.QuickFix]))
    def code_action(params: t.CodeActionParams) -> list[t.CodeAction]:
        lint = linter_for(params.text_document.uri)
        path = _path(params.text_document.uri)
        wanted = params.range
        actions = []
        for d in lint.results.get(path, []) + [d for p, ds in lint.results.items() if p != path for d in ds
                                                 if d.span.source.path == path]:
            if d.fix is None or not d.fix.edits or d.span.source.path != path:
                continue
            r = to_lsp_range(d.span)
            if (r.end.line, r.end.character) < (wanted.start.line, wanted.start.character) or \
                    (r.start.line, r.start.character) > (wanted.end.line, wanted.end.character):
                continue
            changes: dict[str, list] = {}
            for e in d.fix.edits:
                changes.setdefault(_uri(e.span.source.path), []).append(
                    t.TextEdit(range=to_lsp_range(e.span), new_text=e.content))
            label = "safe fix" if d.fix.applicability == "safe" else "unsafe fix"
            actions.append(t.CodeAction(title=f"{d.fix.message} ({label}, {d.code})", kind=t.CodeActionKind.QuickFix,
                                        diagnostics=[to_lsp_diagnostic(d)], is_preferred=d.fix.applicability == "safe",
                                        edit=t.WorkspaceEdit(changes=changes)))
        return actions

    @server.feature(t.TEXT_DOCUMENT_HOVER)
    def hover(params: t.HoverParams) -> t.Hover | None:
        from linter.report.explain import render_contexts

        lint = linter_for(params.text_document.uri)
        path = _path(params.text_document.uri)
        line = params.position.line + 1
        ctxs = [c for c in lint.contexts.get(path, []) if c.launch.span.start_line_col[0] == line]
        if not ctxs:
            return None
        return t.Hover(contents=t.MarkupContent(kind=t.MarkupKind.Markdown,
                                                value="```\n" + render_contexts(ctxs) + "```"))

    return server


SERVER_REQUIREMENTS = ("pygls>=2.0", "lsprotocol>=2025.0.0")
"""The ``server`` extra of pyproject.toml, for when the installed metadata cannot be read."""


def server_requirements() -> list[str]:
    """The requirements of the ``server`` extra, from the installed distribution's metadata
    (``Requires-Dist: pygls>=2.0; extra == "server"``), else :data:`SERVER_REQUIREMENTS`."""
    try:
        from importlib.metadata import PackageNotFoundError, requires

        found = [r.split(";", 1)[0].replace(" ", "") for r in requires("lint-configs") or ()
                 if "extra" in r and "server" in r.split(";", 1)[1]]
    except (ImportError, PackageNotFoundError, IndexError):
        found = []
    return found or list(SERVER_REQUIREMENTS)


def main() -> int:
    """Start the server on stdio; 2 with a message when the ``server`` extra is not installed."""
    import sys

    try:
        server = build_server()
    except ImportError as exc:
        # lint-configs is on no package index: name what is (the extra's own packages) and the checkout
        needs = " ".join(f"'{r}'" for r in server_requirements())
        print(f"lint-configs: error: the language server needs the packages of lint-configs' 'server' extra "
              f"({exc}); install them into this environment with: {sys.executable} -m pip install {needs} "
              "(or reinstall lint-configs from its repository with the extra: "
              "pip install '/path/to/lint-configs[server]')", file=sys.stderr)
        return 2
    server.start_io()
    return 0
