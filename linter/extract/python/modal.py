"""Modal declarations: the GPUs and the image of ``@app.function/cls/server(gpu=…, image=…)``, and the
launches they apply to (inside the decorated function or class, and in the functions it calls).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from linter.extract.python.frames import Frame
from linter.extract.python.names import MODAL_APPS, MODAL_DECORATORS
from linter.extract.python.scopes import Scope
from linter.extract.python.syntax import call_args
from linter.extract.python.values import Instance, Ref, Seq, Str
from linter.launch import UNKNOWN_CHAR, GpuDecl, MStr
from linter.source import Span

if TYPE_CHECKING:
    from linter.extract.python.base import Analysed


class ModalDecls:
    """Modal ``gpu=``/``image=`` of the module's decorated scopes (:meth:`declare`), and the ones that
    apply to a launch in a scope (:meth:`decls_for`, :meth:`image_for`)."""

    def __init__(self, analysis: Analysed) -> None:
        self.a = analysis

    def declare(self) -> None:
        """Record each decorated scope's Modal GPUs and image on the scope."""
        if "modal" not in self.a.source.text:
            return
        module = self.a.module_final()
        for scope in self.a.index.scopes:
            if scope.kind == "module":
                continue
            for d in scope.node.decorator_list:
                if not (isinstance(d, ast.Call) and isinstance(d.func, ast.Attribute)):
                    continue
                if d.func.attr not in MODAL_DECORATORS:
                    continue
                app = self.a.ev(d.func.value, module)
                if not (isinstance(app, Instance) and app.qual in MODAL_APPS):
                    continue
                scope.decorated = True
                scope.image = app.image
                for a in call_args(d):
                    if a.keyword == "gpu":
                        scope.decls.extend(self._gpu_decls(a.value, module, scope.qual))
                    if a.keyword == "image":
                        image = self.a.ev(a.value, module)
                        scope.image = image.image if isinstance(image, Instance) else None

    def _gpu_decls(self, node, frame: Frame, owner: str) -> list[GpuDecl]:
        how = f"Modal gpu= on {owner}"
        v = self.a.ev(node, frame)
        items = v.items if isinstance(v, Seq) else [v]
        out = []
        for item in items:
            if isinstance(item, Str):
                text = item.m.text
                name_len = text.find(":")
                name_len = len(text) if name_len < 0 else name_len
                name = text[:name_len].strip()
                if not name or UNKNOWN_CHAR in name:
                    continue
                lead = len(text[:name_len]) - len(text[:name_len].lstrip())
                loc = item.m.location(lead, lead + len(name))
                from linter.gpus.counts import accelerator_count

                out.append(GpuDecl(name, loc, how, count=accelerator_count(text)))
        if not out and isinstance(node, ast.Call):  # legacy modal.gpu.H100(count=8)
            callee = self.a.ev(node.func, frame)
            if isinstance(callee, Ref) and callee.qual.startswith("modal.gpu."):
                func = node.func
                span = self.a.span(func)
                if isinstance(func, ast.Attribute):  # its last name
                    span = Span(span.source, span.end - len(func.attr), span.end)
                out.append(GpuDecl(callee.qual.rsplit(".", 1)[1], span, how))
        return out

    def _reachable(self, scope: Scope, stop=lambda s: False):
        """``scope``, the classes and functions around it, and the functions that call it, each once;
        the walk does not go on from a scope (other than ``scope``) for which ``stop`` is true."""
        seen: set[int] = set()
        todo = [scope]
        while todo:
            s = todo.pop()
            if id(s) in seen:
                continue
            seen.add(id(s))
            yield s
            if s is not scope and stop(s):
                continue
            if s.parent is not None and s.parent.kind != "module":
                todo.append(s.parent)
            if s.kind == "function":
                todo.extend(self._callers(s))

    def decls_for(self, scope: Scope) -> list[GpuDecl]:
        """Modal declarations of the scope, its enclosing scopes and the decorated functions that call it."""
        return [d for s in self._reachable(scope) for d in s.decls]

    def image_for(self, scope: Scope) -> MStr | None:
        """The SGLang image a launch in ``scope`` runs in: the Modal ``image=`` of the scope or of a
        class or function around it; else the one image of every decorated function that calls it."""
        s: Scope | None = scope
        while s is not None and s.kind != "module":
            if s.image is not None:
                return s.image
            if s.decorated:
                return None  # a Modal function built from an image without an SGLang tag
            s = s.parent
        images: dict[str, MStr] = {}
        for s in self._reachable(scope, stop=lambda s: s.image is not None or s.decorated):
            if s is not scope and (s.image is not None or s.decorated):
                if s.image is None:
                    return None
                images.setdefault(s.image.text, s.image)
        return next(iter(images.values())) if len(images) == 1 else None

    def _callers(self, scope: Scope) -> list[Scope]:
        name = scope.node.name
        out = []
        for other in self.a.index.scopes:
            if other.kind != "function" or other is scope:
                continue
            if scope.parent.kind == "module" and name in other.callees and name not in self.a.index.locals_of(other):
                out.append(other)
            elif scope.parent.kind == "class" and other.parent is scope.parent and other.self_name and \
                    f"{other.self_name}.{name}" in other.callees:
                out.append(other)
        return out
