"""Import edits, in one place: add what the output needs, drop Flink imports that became unused,
and mark the Flink imports that remain."""

from __future__ import annotations

from collections.abc import Collection

import libcst as cst

from flink2spark.transpiler.visitors import STATEMENT_PARTS, Transformer, children, node_fields
from flink2spark.transpiler import api_model as A
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.guards import is_type_checking
from flink2spark.transpiler.infer import bound_name, dotted
from flink2spark.transpiler.source import module_generation


def _flink_module(name: str | None) -> bool:
    return bool(name) and module_generation(name) is not None  # type: ignore[arg-type]


def finish_imports(module: cst.Module, context: Requests, used: set[str] | None = None) -> cst.Module:
    """Add the imports the rules asked for, then drop Flink imports whose names are unused.

    Removal is by name, not scope: a Flink import whose local name is still spelled anywhere in
    the file is kept (and then marked), which errs on the side of keeping code. ``used``: the
    module's ``used_names`` when the caller has them (adding imports changes none).
    """
    if used is None:
        used = _used_names(module)
    # a name asked for and then not used (a rule's Row(...) inside a function another rule
    # rewrote as Columns) is not imported
    context = _only_used(context, used)
    module = _add_imports(module, context)
    # a name the conversion imports from elsewhere now means that: the Flink import of the same
    # name goes (``Row`` of a Table API program: pyspark.sql's, PyFlink's no longer)
    superseded = {alias or obj for mod, obj, alias in context.wanted if obj is not None and not _flink_module(mod)}
    return _drop_unused_flink_imports(module, used, superseded)


def _only_used(context: "Requests", used: set[str]) -> "Requests":
    kept = Requests()
    kept.wanted = {k: None for k in context.wanted if k[1] is None or (k[2] or k[1]) in used}
    return kept


class Requests:
    """The imports the rules of one conversion asked for (``need``), in the order asked, once each."""

    def __init__(self) -> None:
        self.wanted: dict[tuple[str, str | None, str | None], None] = {}


def need(context: Requests, module: str, obj: str | None = None, alias: str | None = None) -> None:
    """Ask for ``from module import obj [as alias]`` (``import module [as alias]`` without
    ``obj``) in the converted module; asked twice, it is added once."""
    context.wanted[(module, obj, alias)] = None


def _single_import(stmt: cst.CSTNode) -> bool:
    return isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], (cst.Import, cst.ImportFrom))


def _skip_first(body: list) -> bool:
    """A docstring or a ``__strict__`` flag comes before any import."""
    if not body or not isinstance(body[0], cst.SimpleStatementLine) or len(body[0].body) != 1:
        return False
    first = body[0].body[0]
    if isinstance(first, cst.Expr):
        return isinstance(first.value, cst.SimpleString)
    return (
        isinstance(first, cst.Assign) and len(first.targets) == 1
        and isinstance(first.targets[0].target, cst.Name) and first.targets[0].target.value == "__strict__"
    )


def _add_imports(module: cst.Module, context: Requests) -> cst.Module:
    """Add the imports ``need`` asked for, where libcst's ``AddImportsVisitor`` puts them.

    Only the import block at the top of the module (after a docstring) counts as importing a
    name: a name it already imports is not added again, a name from a module it already imports
    from joins that statement, and the other imports follow the block (``import`` statements
    sorted, then ``from`` imports by module), with an empty line before the next statement.
    (``AddImportsVisitor`` does this too, but walks and copies the whole tree to do it, which
    cost more than converting the module.)
    """
    wanted = list(context.wanted)
    if not wanted:
        return module
    body = list(module.body)
    start = 1 if _skip_first(body) else 0
    end = start
    while end < len(body) and _single_import(body[end]):
        end += 1
    plain: set[str] = set()  # what the block imports
    module_alias: dict[str, str] = {}
    objects: dict[str, set[str]] = {}
    for stmt in body[start:end]:
        imp = stmt.body[0]
        if isinstance(imp, cst.Import):
            for a in imp.names:
                if a.asname is None:
                    plain.add(a.evaluated_name)
                else:
                    module_alias[a.evaluated_name] = a.evaluated_alias or ""
        elif not imp.relative and imp.module is not None:
            mod = dotted(imp.module) or ""
            if isinstance(imp.names, cst.ImportStar):
                objects[mod] = {"*"}
            elif "*" not in objects.get(mod, ()):
                objects.setdefault(mod, set()).update(
                    a.evaluated_name if a.asname is None else f"{a.evaluated_name} as {a.evaluated_alias}" for a in imp.names
                )
    new_plain = sorted({mod for mod, obj, alias in wanted if obj is None and alias is None} - plain)
    new_alias = {mod: alias for mod, obj, alias in wanted if obj is None and alias is not None and module_alias.get(mod) != alias}
    new_from: dict[str, list[tuple[str, str | None]]] = {}
    for mod, obj, alias in sorted((w for w in wanted if w[1] is not None), key=lambda w: (w[0], w[1], w[2] or "")):
        have = objects.get(mod, set())
        if ("*" in have and alias is None) or (obj if alias is None else f"{obj} as {alias}") in have:
            continue
        new_from.setdefault(mod, []).append((obj, alias))

    def names(pairs):
        return [cst.ImportAlias(cst.Name(o), asname=cst.AsName(cst.Name(a)) if a else None) for o, a in pairs]

    for i in range(start, end):  # join the first statement importing from the same module
        imp = body[i].body[0]
        if isinstance(imp, cst.ImportFrom) and not imp.relative and imp.module is not None and not isinstance(imp.names, cst.ImportStar):
            pairs = new_from.pop(dotted(imp.module) or "", None)
            if pairs:
                plain_first = [p for p in pairs if p[1] is None] + [p for p in pairs if p[1] is not None]
                body[i] = body[i].with_changes(body=[imp.with_changes(names=[*names(plain_first), *imp.names])])
    if not (new_plain or new_alias or new_from):
        return module.with_changes(body=body)

    def statement(text: str) -> cst.BaseStatement:
        return cst.parse_statement(text, config=module.config_for_parsing)

    def from_import(mod: str, pairs) -> cst.BaseStatement:
        return statement(f"from {mod} import " + ", ".join(o if a is None else f"{o} as {a}" for o, a in pairs))

    rest = body[end:]
    if rest:
        first = rest[0]
        if not first.leading_lines:
            rest[0] = first.with_changes(leading_lines=(cst.EmptyLine(),))
        elif first.leading_lines[0].comment is not None:
            rest[0] = first.with_changes(leading_lines=(cst.EmptyLine(), *first.leading_lines))
    ordered = [m_ for m_ in new_from if any(a is not None for _, a in new_from[m_])]
    ordered += [m_ for m_ in new_from if m_ not in ordered]
    return module.with_changes(
        body=[
            *body[:start],
            *[from_import(mod, new_from[mod]) for mod in ordered if mod == "__future__"],
            *body[start:end],
            *[statement(f"import {mod}") for mod in new_plain],
            *[statement(f"import {mod} as {alias}") for mod, alias in new_alias.items()],
            *[from_import(mod, new_from[mod]) for mod in ordered if mod != "__future__"],
            *rest,
        ]
    )


class _StatementsOnly:
    """Mixin of the import transformers: imports are statements, so the walk goes into no
    expression (a def's parameters, a condition...) nor into a simple statement's expressions
    (``leave_SimpleStatementLine`` still sees every line)."""

    def on_visit(self, node: cst.CSTNode) -> bool:
        if not isinstance(node, STATEMENT_PARTS):
            return False
        return super().on_visit(node)  # type: ignore[misc]

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> bool:
        return False


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


def _drop_unused_flink_imports(module: cst.Module, used: set[str] | None = None, superseded: Collection[str] = ()) -> cst.Module:
    used = (_used_names(module) if used is None else used) - set(superseded)

    class T(_StatementsOnly, _TypeCheckingDepth, Transformer):
        def leave_SimpleStatementSuite(self, original, updated):  # if x: import y
            line = self.leave_SimpleStatementLine(original, updated)
            return updated.with_changes(body=[cst.Pass()]) if isinstance(line, cst.RemovalSentinel) else line

        def leave_SimpleStatementLine(self, original, updated):
            if self.type_checking:
                return updated  # type-only imports stay (marked F2S011)
            body = []
            for small in updated.body:
                if isinstance(small, cst.ImportFrom) and not small.relative and not isinstance(small.names, cst.ImportStar):
                    if _flink_module(dotted(small.module) if small.module else None):
                        names = [a for a in small.names if bound_name(a, True) in used]
                        if not names:
                            continue
                        names[-1] = names[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
                        small = small.with_changes(names=names)
                elif isinstance(small, cst.Import):
                    names = [a for a in small.names if not _flink_module(dotted(a.name)) or bound_name(a, False) in used]
                    if not names:
                        continue
                    names[-1] = names[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
                    small = small.with_changes(names=names)
                body.append(small)
            if not body:
                return cst.RemoveFromParent()
            if len(body) == len(updated.body) and all(a is b for a, b in zip(body, updated.body)):
                return updated  # nothing dropped: the line as it was
            body[-1] = body[-1].with_changes(semicolon=cst.MaybeSentinel.DEFAULT)
            return updated.with_changes(body=body)

    return module.visit(T())


def _used_names(module: cst.Module, skip_marked: str | None = None, skip_params: Collection[tuple[str, str]] = ()) -> set[str]:
    """Names the module uses outside imports; with ``skip_marked``, not counting statements
    that carry a ``# TODO(flink2spark): <skip_marked>`` comment, nor the annotations of the
    ``(def name, parameter name)`` pairs of ``skip_params``. (The fields of every node, as
    ``visitors.walk`` goes, rather than a visitor over every whitespace and punctuation node.)"""
    names: set[str] = set()
    prefix = f"# TODO(flink2spark): {skip_marked} "
    stack: list[tuple[cst.CSTNode, str | None]] = [(module, None)]  # (node, the def it is in)
    while stack:
        node, func = stack.pop()
        kind = type(node)
        if kind is cst.Name:
            names.add(node.value)  # type: ignore[attr-defined]
            continue
        if kind is cst.Import or kind is cst.ImportFrom:
            continue
        if kind is cst.Attribute:  # a.b: only a is a name the module uses
            stack.append((node.value, func))  # type: ignore[attr-defined]
            continue
        if kind is cst.SimpleStatementLine and skip_marked is not None:
            if any(ln.comment is not None and ln.comment.value.startswith(prefix) for ln in node.leading_lines):  # type: ignore[attr-defined]
                continue
        if kind is cst.Param and func is not None and (func, node.name.value) in skip_params:  # type: ignore[attr-defined]
            if node.default is not None:  # type: ignore[attr-defined]
                stack.append((node.default, func))  # type: ignore[attr-defined]
            continue
        if kind is cst.FunctionDef:
            func = node.name.value  # type: ignore[attr-defined]
        stack.extend((child, func) for child in children(node, node_fields(node)))
    return names


def mark_leftover_imports(
    module: cst.Module,
    todo_code: str,
    message: str | None = None,
    exports: dict[str, tuple[str, ...]] | None = None,
    table_code: str | None = None,
    table_params: Collection[tuple[str, str]] = (),
    used: set[str] | None = None,
) -> tuple[cst.Module, list[tuple[cst.CSTNode, str, str]]]:
    """Drop unused Flink star imports; put a TODO beside every Flink import still present.

    ``exports``: what each module exports (the API model's ``EXPORTS``; DataSet's by default).
    ``table_code``: the TODO code of statements left with the Table API part of a program; an
    import whose names only those statements (and the annotations of the ``table_params``,
    parameters that take streams from the Table API) use says so.
    ``used``: the module's ``used_names`` when the caller has them.
    Returns the module and (statement, code, message) for each TODO added, for the report.
    """
    exports = A.EXPORTS if exports is None else exports
    used = _used_names(module) if used is None else used
    outside: list[set[str]] = []

    def outside_table() -> set[str]:  # walked only when a Flink import is left and the Table API part matters
        if not outside:
            outside.append(_used_names(module, skip_marked=table_code, skip_params=table_params))
        return outside[0]

    found: list[tuple[cst.CSTNode, str, str]] = []
    header = {ln.comment.value for ln in module.header if ln.comment is not None}

    def _with_todos(updated, original, notes):
        """``updated`` with a TODO line above it for each (code, message) of ``notes``."""
        existing = header | {ln.comment.value for ln in updated.leading_lines if ln.comment is not None}
        lines = list(updated.leading_lines)
        for code, msg in notes:
            text = f"# TODO(flink2spark): {code} {msg}"
            found.append((original, code, msg))
            if text not in existing:
                lines.append(cst.EmptyLine(comment=cst.Comment(text)))
        return updated.with_changes(leading_lines=lines)

    class T(_StatementsOnly, _TypeCheckingDepth, Transformer):
        held: list[tuple[str, str]] = []  # notes of one-line suites, for the statement holding them

        def leave_SimpleStatementSuite(self, original, updated):  # if x: import y
            line = self.leave_SimpleStatementLine(original, updated)
            return updated.with_changes(body=[cst.Pass()]) if isinstance(line, cst.RemovalSentinel) else line

        def on_leave(self, original_node, updated_node):
            updated = super().on_leave(original_node, updated_node)
            if self.held and isinstance(updated, cst.BaseCompoundStatement):
                notes, self.held = self.held, []
                updated = _with_todos(updated, original_node, notes)
            return updated

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
                        bound = {bound_name(a, True) for a in small.names}  # type: ignore[union-attr]
                        if message is None and self.type_checking:
                            notes.append((M.TYPE_ONLY_IMPORT, f"type-only import of {names} from {mod} (if TYPE_CHECKING): "
                                          "the annotations still name Flink types; replace them with Spark's"))
                            keep.append(small)
                            continue
                        if message is None and table_code and (mod or "").startswith("pyflink.table"):
                            why = "is the Table API, not converted yet: convert it with the Table API part"
                        elif message is None and table_code and bound & used and not bound & outside_table():
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
            if notes and isinstance(updated, cst.SimpleStatementSuite):  # no lines above it: above its statement
                self.held = [*self.held, *notes]
            elif notes:
                updated = _with_todos(updated, original, notes)
            return updated

        def visit_FunctionDef(self, node) -> bool:
            return True

    return module.visit(T()), found

