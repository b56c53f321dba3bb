"""Import edits, in one place: add what the output needs, drop Flink imports that became unused,
and mark the Flink imports that remain."""

from __future__ import annotations

import libcst as cst
from libcst.codemod import CodemodContext
from libcst.codemod.visitors import AddImportsVisitor, RemoveImportsVisitor

from flink2spark.transpiler import api_model as A
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.infer import dotted
from flink2spark.transpiler.source import module_generation


def _flink_module(name: str | None) -> bool:
    return bool(name) and module_generation(name) is not None  # type: ignore[arg-type]


def schedule_flink_removals(module: cst.Module, context: CodemodContext) -> None:
    """Ask RemoveImportsVisitor to drop every Flink import that is no longer used."""
    for stmt in module.body:
        for small in getattr(stmt, "body", []) if isinstance(stmt, cst.SimpleStatementLine) else []:
            if isinstance(small, cst.ImportFrom) and not small.relative and not isinstance(small.names, cst.ImportStar):
                mod = dotted(small.module) if small.module else None
                if _flink_module(mod):
                    for alias in small.names:
                        asname = alias.asname.name.value if alias.asname else None  # type: ignore[union-attr]
                        RemoveImportsVisitor.remove_unused_import(context, mod, dotted(alias.name), asname)
            elif isinstance(small, cst.Import):
                for alias in small.names:
                    mod = dotted(alias.name)
                    if _flink_module(mod):
                        asname = alias.asname.name.value if alias.asname else None  # type: ignore[union-attr]
                        RemoveImportsVisitor.remove_unused_import(context, mod, asname=asname)


def finish_imports(module: cst.Module, context: CodemodContext) -> cst.Module:
    module = AddImportsVisitor(context).transform_module(module)
    module = RemoveImportsVisitor(context).transform_module(module)
    return module


def uses_name(module: cst.Module, name: str) -> bool:
    return name in _used_names(module)


def _used_names(module: cst.Module) -> set[str]:
    names: set[str] = set()

    class V(cst.CSTVisitor):
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


def mark_leftover_imports(module: cst.Module, todo_code: str, message: str | None = None) -> tuple[cst.Module, list[tuple[cst.CSTNode, str, str]]]:
    """Drop unused Flink star imports; put a TODO beside every Flink import still present.

    Returns the module and (statement, code, message) for each TODO added, for the report.
    """
    used = _used_names(module)
    found: list[tuple[cst.CSTNode, str, str]] = []
    header = {ln.comment.value for ln in module.header if ln.comment is not None}

    class T(cst.CSTTransformer):
        def leave_SimpleStatementLine(self, original, updated):
            keep = []
            notes = []
            for small in updated.body:
                mod = None
                if isinstance(small, cst.ImportFrom) and not small.relative:
                    mod = dotted(small.module) if small.module else None
                    if _flink_module(mod) and isinstance(small.names, cst.ImportStar):
                        exported = set(A.EXPORTS.get(mod or "", ()))
                        if exported and not exported & used and message is None:
                            continue  # nothing from it is used any more
                        notes.append((todo_code, message or f"star import from {mod}: import the names used explicitly"))
                        keep.append(small)
                        continue
                    if _flink_module(mod):
                        names = ", ".join(dotted(a.name) or "" for a in small.names)  # type: ignore[union-attr]
                        notes.append((todo_code, message or f"{names} from {mod} is still used: convert the remaining uses by hand"))
                elif isinstance(small, cst.Import):
                    mods = [dotted(a.name) for a in small.names if _flink_module(dotted(a.name))]
                    if mods:
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
