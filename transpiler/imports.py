"""Import edits, in one place: add what the output needs, drop Flink imports that became unused,
and mark the Flink imports that remain."""

from __future__ import annotations

from collections.abc import Collection

import libcst as cst
from libcst.codemod import CodemodContext
from libcst.codemod.visitors import AddImportsVisitor

from flink2spark.transpiler import api_model as A
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.guards import is_type_checking
from flink2spark.transpiler.infer import dotted
from flink2spark.transpiler.source import module_generation


def _flink_module(name: str | None) -> bool:
    return bool(name) and module_generation(name) is not None  # type: ignore[arg-type]


def finish_imports(module: cst.Module, context: CodemodContext) -> cst.Module:
    """Add the imports the rules asked for, then drop Flink imports whose names are unused.

    Removal is by name, not scope: a Flink import whose local name is still spelled anywhere in
    the file is kept (and then marked), which errs on the side of keeping code.
    """
    module = AddImportsVisitor(context).transform_module(module)
    return _drop_unused_flink_imports(module)


def _local_name(alias: cst.ImportAlias, is_from: bool) -> str:
    if alias.asname is not None:
        return alias.asname.name.value  # type: ignore[union-attr]
    name = dotted(alias.name) or ""
    return name if is_from else name.split(".")[0]


class _TypeCheckingDepth:
    """Mixin of the import transformers: are we under ``if TYPE_CHECKING:``?"""

    type_checking = 0

    def visit_If(self, node: cst.If) -> bool:
        if is_type_checking(node.test):
            self.type_checking += 1
        return True

    def leave_If(self, original: cst.If, updated: cst.If):
        if is_type_checking(original.test):
            self.type_checking -= 1
        return updated


def used_names(module: cst.Module) -> set[str]:
    """Names the module uses outside imports."""
    return _used_names(module)


def _drop_unused_flink_imports(module: cst.Module) -> cst.Module:
    used = _used_names(module)

    class T(_TypeCheckingDepth, cst.CSTTransformer):
        def leave_SimpleStatementLine(self, original, updated):
            if self.type_checking:
                return updated  # type-only imports stay (marked F2S011)
            body = []
            for small in updated.body:
                if isinstance(small, cst.ImportFrom) and not small.relative and not isinstance(small.names, cst.ImportStar):
                    if _flink_module(dotted(small.module) if small.module else None):
                        names = [a for a in small.names if _local_name(a, True) in used]
                        if not names:
                            continue
                        names[-1] = names[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
                        small = small.with_changes(names=names)
                elif isinstance(small, cst.Import):
                    names = [a for a in small.names if not _flink_module(dotted(a.name)) or _local_name(a, False) in used]
                    if not names:
                        continue
                    names[-1] = names[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
                    small = small.with_changes(names=names)
                body.append(small)
            if not body:
                return cst.RemoveFromParent()
            body[-1] = body[-1].with_changes(semicolon=cst.MaybeSentinel.DEFAULT)
            return updated.with_changes(body=body)

    return module.visit(T())


def uses_name(module: cst.Module, name: str) -> bool:
    return name in _used_names(module)


def _used_names(module: cst.Module, skip_marked: str | None = None, skip_params: Collection[tuple[str, str]] = ()) -> set[str]:
    """Names the module uses outside imports; with ``skip_marked``, not counting statements
    that carry a ``# TODO(flink2spark): <skip_marked>`` comment, nor the annotations of the
    ``(def name, parameter name)`` pairs of ``skip_params``."""
    names: set[str] = set()
    prefix = f"# TODO(flink2spark): {skip_marked} "
    defs: list[str] = []

    class V(cst.CSTVisitor):
        def visit_FunctionDef(self, node) -> None:
            defs.append(node.name.value)

        def leave_FunctionDef(self, node) -> None:
            defs.pop()

        def visit_Param(self, node) -> bool:
            if defs and (defs[-1], node.name.value) in skip_params:
                if node.default is not None:
                    node.default.visit(self)
                return False
            return True

        def visit_SimpleStatementLine(self, node) -> bool:
            return skip_marked is None or not any(ln.comment is not None and ln.comment.value.startswith(prefix) for ln in node.leading_lines)

        def visit_Import(self, node) -> bool:
            return False

        def visit_ImportFrom(self, node) -> bool:
            return False

        def visit_Name(self, node: cst.Name) -> None:
            names.add(node.value)

        def visit_Attribute(self, node: cst.Attribute) -> bool:
            node.value.visit(self)
            return False

    module.visit(V())
    return names


def _bound_name(alias: cst.ImportAlias) -> str:
    if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
        return alias.asname.name.value
    return (dotted(alias.name) or "").split(".")[0]


def mark_leftover_imports(
    module: cst.Module,
    todo_code: str,
    message: str | None = None,
    exports: dict[str, tuple[str, ...]] | None = None,
    table_code: str | None = None,
    table_params: Collection[tuple[str, str]] = (),
) -> tuple[cst.Module, list[tuple[cst.CSTNode, str, str]]]:
    """Drop unused Flink star imports; put a TODO beside every Flink import still present.

    ``exports``: what each module exports (the API model's ``EXPORTS``; DataSet's by default).
    ``table_code``: the TODO code of statements left with the Table API part of a program; an
    import whose names only those statements (and the annotations of the ``table_params``,
    parameters that take streams from the Table API) use says so.
    Returns the module and (statement, code, message) for each TODO added, for the report.
    """
    exports = A.EXPORTS if exports is None else exports
    used = _used_names(module)
    outside_table = _used_names(module, skip_marked=table_code, skip_params=table_params) if table_code else used
    found: list[tuple[cst.CSTNode, str, str]] = []
    header = {ln.comment.value for ln in module.header if ln.comment is not None}

    class T(_TypeCheckingDepth, cst.CSTTransformer):
        def leave_SimpleStatementLine(self, original, updated):
            keep = []
            notes = []
            for small in updated.body:
                mod = None
                if isinstance(small, cst.ImportFrom) and not small.relative:
                    mod = dotted(small.module) if small.module else None
                    if _flink_module(mod) and isinstance(small.names, cst.ImportStar):
                        exported = set(exports.get(mod or "", ()))
                        if exported and not exported & used and message is None:
                            continue  # nothing from it is used any more
                        notes.append((todo_code, message or f"star import from {mod}: import the names used explicitly"))
                        keep.append(small)
                        continue
                    if _flink_module(mod):
                        names = ", ".join(dotted(a.name) or "" for a in small.names)  # type: ignore[union-attr]
                        bound = {_bound_name(a) for a in small.names}  # type: ignore[union-attr]
                        if message is None and self.type_checking:
                            notes.append((M.TYPE_ONLY_IMPORT, f"type-only import of {names} from {mod} (if TYPE_CHECKING): "
                                          "the annotations still name Flink types; replace them with Spark's"))
                            keep.append(small)
                            continue
                        if message is None and table_code and (mod or "").startswith("pyflink.table"):
                            why = "is the Table API, not converted yet: convert it with the Table API part"
                        elif message is None and table_code and bound & used and not bound & outside_table:
                            why = f"is still used by the Table API part ({table_code}): convert them with it"
                        else:
                            why = "is still used: convert the remaining uses by hand"
                        notes.append((todo_code, message or f"{names} from {mod} {why}"))
                elif isinstance(small, cst.Import):
                    mods = [dotted(a.name) for a in small.names if _flink_module(dotted(a.name))]
                    if mods and message is None and self.type_checking:
                        notes.append((M.TYPE_ONLY_IMPORT, f"type-only import of {', '.join(m for m in mods if m)} (if TYPE_CHECKING): "
                                      "the annotations still name Flink types; replace them with Spark's"))
                    elif mods:
                        notes.append((todo_code, message or f"{', '.join(m for m in mods if m)} is still used: convert the remaining uses by hand"))
                keep.append(small)
            if not keep:
                return cst.RemoveFromParent()
            if len(keep) != len(updated.body):
                keep[-1] = keep[-1].with_changes(semicolon=cst.MaybeSentinel.DEFAULT)
                updated = updated.with_changes(body=keep)
            if notes:
                existing = header | {ln.comment.value for ln in updated.leading_lines if ln.comment is not None}
                lines = list(updated.leading_lines)
                for code, msg in notes:
                    text = f"# TODO(flink2spark): {code} {msg}"
                    found.append((original, code, msg))
                    if text not in existing:
                        lines.append(cst.EmptyLine(comment=cst.Comment(text)))
                updated = updated.with_changes(leading_lines=lines)
            return updated

        def visit_FunctionDef(self, node) -> bool:
            return True

    return module.visit(T()), found
