"""Flink imports whose meaning depends on what guards them.

- ``try: from pyflink... import X`` / ``except ImportError: ...``: the program runs with or
  without Flink. If nothing outside the guard uses the imported names (a feature flag), the
  file only looks like Flink code and stays as it is; otherwise it is converted and the
  ``try`` gets NOTE F2S010 (the import is gone, so the fallback no longer runs).
- ``if TYPE_CHECKING: from pyflink... import X``: type-only imports stay, with TODO F2S011.
- ``sys.modules["pyflink"] = MagicMock()``: a test of Flink code; the file stays as it is,
  with TODO F2S012 at that line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable

import libcst as cst

from flink2spark.transpiler.visitors import STATEMENT_PARTS, Visitor
from flink2spark.transpiler import source as S
from flink2spark.transpiler.infer import dotted

IMPORT_ERRORS = frozenset({"ImportError", "ModuleNotFoundError", "Exception", "BaseException"})
_MOCK_LINE = re.compile(r"^[^#]*\bsys\.modules\b.*flink|^[^#]*flink.*\bsys\.modules\b")


def catches_import_error(node: cst.Try) -> bool:
    for handler in node.handlers:
        kinds = handler.type
        if kinds is None:
            return True
        names = [el.value for el in kinds.elements] if isinstance(kinds, cst.Tuple) else [kinds]
        if any((dotted(n) or "").rsplit(".", 1)[-1] in IMPORT_ERRORS for n in names):  # type: ignore[arg-type]
            return True
    return False


def is_type_checking(test: cst.BaseExpression) -> bool:
    return (dotted(test) or "").rsplit(".", 1)[-1] == "TYPE_CHECKING"  # type: ignore[arg-type]


def flink_import(node: cst.CSTNode) -> bool:
    if isinstance(node, cst.ImportFrom):
        return not node.relative and S.module_generation(dotted(node.module) or "") is not None  # type: ignore[arg-type]
    if isinstance(node, cst.Import):
        return any(S.module_generation(dotted(a.name) or "") is not None for a in node.names)  # type: ignore[arg-type]
    return False


def bound_names(node: cst.CSTNode) -> set[str]:
    names: set[str] = set()
    if isinstance(node, cst.ImportFrom) and not isinstance(node.names, cst.ImportStar):
        for alias in node.names:
            names.add(alias.asname.name.value if alias.asname else dotted(alias.name))  # type: ignore[union-attr]
    elif isinstance(node, cst.Import):
        for alias in node.names:
            names.add(alias.asname.name.value if alias.asname else (dotted(alias.name) or "").split(".")[0])  # type: ignore[union-attr]
    return names


@dataclass
class Guards:
    guarded_tries: list[cst.Try] = field(default_factory=list)  # with a Flink import in their body
    type_checking: list[cst.CSTNode] = field(default_factory=list)  # Flink imports under TYPE_CHECKING
    guarded: list[cst.CSTNode] = field(default_factory=list)  # Flink imports in guarded tries
    unguarded: list[cst.CSTNode] = field(default_factory=list)  # every other Flink import


# the nodes an import statement can stand in (or be: one of a one-line suite's statements)
_HOLDS_IMPORTS = (*STATEMENT_PARTS, cst.BaseSmallStatement)


def find(module: cst.Module) -> Guards:
    found = Guards()

    class V(Visitor):
        def __init__(self) -> None:
            self.stack: list[str] = []

        def on_visit(self, node: cst.CSTNode) -> bool:
            if not isinstance(node, _HOLDS_IMPORTS):
                return False  # an expression holds no import
            return super().on_visit(node)

        def visit_Try(self, node: cst.Try) -> bool:
            guarded = catches_import_error(node)
            self.stack.append("try" if guarded else "")
            start = len(found.guarded)
            node.body.visit(self)
            self.stack.pop()
            if guarded and len(found.guarded) > start:
                found.guarded_tries.append(node)
            for part in (*node.handlers, node.orelse, node.finalbody):
                if part is not None:
                    part.visit(self)
            return False

        def visit_If(self, node: cst.If) -> bool:
            self.stack.append("typing" if is_type_checking(node.test) else "")
            node.body.visit(self)
            self.stack.pop()
            if node.orelse is not None:
                node.orelse.visit(self)
            return False

        def _import(self, node: cst.CSTNode) -> None:
            if not flink_import(node):
                return
            if "typing" in self.stack:
                found.type_checking.append(node)
            elif self.stack and self.stack[-1] == "try":
                found.guarded.append(node)
            else:
                found.unguarded.append(node)

        def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> bool:
            for small in node.body:  # imports are statements: no need to walk expressions
                if isinstance(small, (cst.Import, cst.ImportFrom)):
                    self._import(small)
            return False

        def visit_Import(self, node: cst.Import) -> None:
            self._import(node)

        def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
            self._import(node)

    module.visit(V())
    return found


def only_a_feature_flag(guards: Guards, used: Callable[[], set[str]]) -> bool:
    """Every Flink import is guarded or type-only, and no name they bind is used elsewhere
    (``used()``: the names the module uses, asked for only then)."""
    if guards.unguarded or not (guards.guarded or guards.type_checking):
        return False
    bound = set().union(*(bound_names(n) for n in guards.guarded + guards.type_checking))
    return not bound & used()


def mock_lines(source: str) -> list[int]:
    """1-based lines that put something in ``sys.modules`` for a Flink module."""
    return [i for i, line in enumerate(source.splitlines(), 1) if _MOCK_LINE.search(line)]
