"""Assignments and classes the conversion left unread: dropped once the module is converted.

A program builds Flink-only values for the calls that use them: a watermark strategy for
``from_source``, a type information for ``from_collection``, a window assigner for ``window``,
a timestamp assigner class for the strategy. When the rules rewrite those calls into Spark's
own, nothing reads the values any more, but the statement that made one was visited (and kept)
before the call that decided. This pass runs when the converted module is complete and drops
such statements, decided by bindings of both modules, never by a name:

- a candidate is, in the input, an assignment of one name (``x = ...``, ``x: T = ...``, not in a
  class body) whose value is a Flink-only value (``flink_value``: a call or constant of one of
  the model's ``FLINK_VALUES`` classes, their builder methods, or a fresh instance of a Flink
  function class below, with arguments that have no effect: literals, names, lambdas and such
  values), or an undecorated class whose bases are all Flink classes (or such classes of the
  module) and whose body only defines methods and constants; and the input reads it (a value
  the program never read is the program's own, and stays as it is);
- it goes when, in the converted module, no read of its name remains in its scope (scope.py's
  bindings, a read before it in a loop included) and no ``globals()``, ``locals()``, ``vars()``,
  ``eval`` or ``exec`` may read it, nor a module-level ``__all__`` lists it. Dropping one may
  leave another unread (a strategy's timestamp assigner class): to a fixed point.

A statement that carries a marker stays (what the marker says is still to read). The comments
above a dropped statement move to the next one, as for ``Context.remove_statement``.
"""

from __future__ import annotations

from typing import Optional

import libcst as cst

from flink2spark.transpiler import visitors as V
from flink2spark.transpiler.infer import dotted
from flink2spark.transpiler.scope import ClassScope, Scopes

_DYNAMIC = frozenset({"globals", "locals", "vars", "eval", "exec"})  # builtins that read names by string
_LITERALS = (cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString, cst.ConcatenatedString)
_CONTAINERS = (cst.List, cst.Tuple, cst.Set)


class Candidates:
    """The statements of the input module that may go (``find``), and what each became."""

    def __init__(self) -> None:
        self.originals: dict[int, tuple[cst.CSTNode, str]] = {}  # id(input statement) -> (it, the name it binds)
        # id(converted statement) -> (it, its input statement): the nodes are kept alive (ids of freed nodes get reused)
        self.converted: dict[int, tuple[cst.CSTNode, cst.CSTNode]] = {}

    def find(self, resolver, classes: dict) -> None:
        """The candidates of the module ``resolver`` answers for (``classes``: the Converter's
        Flink function classes, by id)."""
        flink_classes: dict[int, bool] = {}
        for cls in resolver.class_defs:
            if _flink_class(resolver, cls, classes, flink_classes) and _read(resolver, cls, cls, cls.name.value):
                self.originals[id(cls)] = (cls, cls.name.value)
        for line in V.simple_statements(resolver.module):
            if not isinstance(line, cst.SimpleStatementLine) or len(line.body) != 1:
                continue
            small = line.body[0]
            if isinstance(small, cst.Assign) and len(small.targets) == 1:
                target, value = small.targets[0].target, small.value
            elif isinstance(small, cst.AnnAssign) and small.value is not None:
                target, value = small.target, small.value
            else:
                continue
            if not isinstance(target, cst.Name) or _in_class_body(resolver, line):
                continue
            if flink_value(resolver, value, classes, flink_classes) and _read(resolver, line, target, target.value):
                self.originals[id(line)] = (line, target.value)

    def left(self, original: cst.CSTNode, result: cst.CSTNode) -> None:
        """``original`` (an input node) became ``result`` in the converted module."""
        if id(original) in self.originals:
            self.converted[id(result)] = (result, original)

    def moved(self, old: cst.CSTNode, new: cst.CSTNode) -> None:
        """The converted statement ``old`` was rebuilt as ``new`` (comments moved onto it)."""
        found = self.converted.get(id(old))
        if found is not None:
            self.converted[id(new)] = (new, found[1])


def flink_value(resolver, expr: cst.BaseExpression, classes: dict, flink_classes: Optional[dict] = None) -> bool:
    """Whether ``expr`` (of the input) makes a value only Flink reads, with no other effect."""
    flink_classes = {} if flink_classes is None else flink_classes
    if isinstance(expr, cst.Call):
        if not all(_inert(resolver, a.value, classes, flink_classes) for a in expr.args):
            return False
        func = expr.func
        if _of_flink_values(resolver, func):
            return True
        if isinstance(func, cst.Attribute) and flink_value(resolver, func.value, classes, flink_classes):
            return True  # a builder method: WatermarkStrategy.for_monotonous_timestamps().with_idleness(...)
        target = resolver.local_def(func) if isinstance(func, cst.Name) else None
        return isinstance(target, cst.ClassDef) and _flink_class(resolver, target, classes, flink_classes)
    if isinstance(expr, cst.Attribute):
        return _of_flink_values(resolver, expr)  # TriggerResult.FIRE, Types.STRING
    return False


def _of_flink_values(resolver, node: cst.BaseExpression) -> bool:
    """Whether ``node``, a dotted name (``Types.ROW_NAMED``; not ``f(...).attr``, whose qualified
    name is the call's function's), names one of the model's ``FLINK_VALUES`` or a member of one."""
    if dotted(node) is None:
        return False
    values = resolver.model.FLINK_VALUES
    return any(q in values or any(q.startswith(v + ".") for v in values) for q in resolver.qualified_names(node))


def _inert(resolver, expr: cst.BaseExpression, classes: dict, flink_classes: dict) -> bool:
    """Whether evaluating ``expr`` (an argument) has no effect: literals, names, lambdas,
    containers of such, and Flink-only values."""
    if isinstance(expr, _LITERALS) or isinstance(expr, (cst.Name, cst.Lambda)):
        return True
    if isinstance(expr, cst.UnaryOperation):
        return isinstance(expr.expression, _LITERALS)
    if isinstance(expr, _CONTAINERS):
        return all(isinstance(e, cst.Element) and _inert(resolver, e.value, classes, flink_classes) for e in expr.elements)
    if isinstance(expr, cst.Dict):
        return all(
            isinstance(e, cst.DictElement) and _inert(resolver, e.key, classes, flink_classes) and _inert(resolver, e.value, classes, flink_classes)
            for e in expr.elements
        )
    return flink_value(resolver, expr, classes, flink_classes)


def _flink_class(resolver, cls: cst.ClassDef, classes: dict, known: dict) -> bool:
    """Whether defining ``cls`` and making an instance of it have no effect and only Flink calls
    its methods: a Flink function class of the converter's (``classes``), undecorated, with no
    keywords (metaclass), every base a Flink class or such a class of the module, no
    ``__init__``/``__new__``/``__init_subclass__``, and a body of methods, constants and docstrings."""
    key = id(cls)
    if key in known:
        return known[key]
    known[key] = False  # while it is decided (a class naming itself)
    ok = (
        key in classes and not cls.decorators and not cls.keywords and bool(cls.bases)
        and all(_flink_base(resolver, b.value, classes, known) for b in cls.bases)
        and all(_plain_member(s) for s in cls.body.body)
        and not _in_class_body(resolver, cls)
    )
    known[key] = ok
    return ok


def _flink_base(resolver, base: cst.BaseExpression, classes: dict, known: dict) -> bool:
    if resolver.qualified_name(base) is not None:
        return True
    target = resolver.local_def(base) if isinstance(base, cst.Name) else None
    return isinstance(target, cst.ClassDef) and _flink_class(resolver, target, classes, known)


_SPECIAL = frozenset({"__init__", "__new__", "__init_subclass__", "__set_name__", "__class_getitem__"})


def _plain_member(stmt: cst.CSTNode) -> bool:
    """A method (no decorator but staticmethod/classmethod, defaults of no effect), a docstring,
    ``pass`` or a constant: what defining the class runs has no effect."""
    if isinstance(stmt, cst.FunctionDef):
        params = stmt.params
        defaults = [p.default for p in (*params.posonly_params, *params.params, *params.kwonly_params) if p.default is not None]
        return (
            stmt.name.value not in _SPECIAL
            and all(isinstance(d.decorator, cst.Name) and d.decorator.value in ("staticmethod", "classmethod") for d in stmt.decorators)
            and all(isinstance(d, _LITERALS) or isinstance(d, cst.Name) for d in defaults)
        )
    if isinstance(stmt, cst.SimpleStatementLine):
        for small in stmt.body:
            if isinstance(small, cst.Pass):
                continue
            if isinstance(small, cst.Expr) and isinstance(small.value, _LITERALS):
                continue  # a docstring
            if isinstance(small, cst.Assign) and isinstance(small.value, _LITERALS):
                continue
            return False
        return True
    return False


def _read(resolver, stmt: cst.CSTNode, binder: cst.CSTNode, name: str) -> bool:
    """Whether the input reads what ``stmt`` binds to ``name`` (``binder``: the binding's node,
    the target Name or the ClassDef)."""
    scope = resolver.scopes.scope_of.get(id(stmt))
    if scope is None:
        return False
    return any(b.references for b in scope.target(name).assignments.get(name, ()) if b.node is binder)


def _in_class_body(resolver, node: cst.CSTNode) -> bool:
    """Whether ``node`` stands in a class body (``self.TAG`` reads its names: no scope sees that)."""
    parent = resolver.parent(node)
    while parent is not None and not isinstance(parent, (cst.FunctionDef, cst.Lambda, cst.Module)):
        if isinstance(parent, cst.ClassDef):
            return True
        parent = resolver.parent(parent)
    return False


# -- the converted module ----------------------------------------------------------------------
def drop_unread(module: cst.Module, found: Candidates, marked: set[int]) -> cst.Module:
    """``module`` (converted) without the candidates it no longer reads (``marked``: ids of the
    input statements that carry markers: a candidate holding one stays)."""
    if not found.converted:
        return module
    while True:
        scopes = Scopes(module)
        if any(isinstance(a.node, cst.Name) and a.node.value in _DYNAMIC and any(r.builtin for r in a.referents)
               for a in scopes.access_of.values()):
            return module
        exported = _all_names(module)
        dead: set[int] = set()
        for node in V.walk(module):
            entry = found.converted.get(id(node))
            if entry is None or any(id(n) in marked for n in V.walk(entry[1])):
                continue
            name = found.originals[id(entry[1])][1]
            if _name_of(node) == name and _unread(scopes, node, name, exported):
                dead.add(id(node))
        if not dead:
            return module
        module = _without(module, dead, found)


def _name_of(node: cst.CSTNode) -> Optional[str]:
    """The name a converted candidate binds (None: it is no longer such a statement)."""
    if isinstance(node, cst.ClassDef):
        return node.name.value
    if isinstance(node, cst.SimpleStatementLine) and len(node.body) == 1:
        small = node.body[0]
        if isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name):
            return small.targets[0].target.value
        if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name):
            return small.target.value
    return None


def _unread(scopes: Scopes, node: cst.CSTNode, name: str, exported: set[str]) -> bool:
    scope = scopes.scope_of.get(id(node))
    if scope is None or isinstance(scope, ClassScope):
        return False
    target = scope.target(name)
    if target is scopes.globals and name in exported:
        return False
    if any(b.references for b in target.assignments.get(name, ())):
        return False
    # a read the scope analysis gives to an enclosing binding (before the assignment, in a loop)
    return not target.accesses_by_name.get(name) and not scope.accesses_by_name.get(name)


def _all_names(module: cst.Module) -> set[str]:
    """The strings of a module-level ``__all__ = [...]`` (every name when it is not a literal)."""
    names: set[str] = set()
    for stmt in module.body:
        if not isinstance(stmt, cst.SimpleStatementLine):
            continue
        for small in stmt.body:
            targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else \
                [small.target] if isinstance(small, (cst.AnnAssign, cst.AugAssign)) else []
            if any(isinstance(t, cst.Name) and t.value == "__all__" for t in targets):
                value = small.value
                if isinstance(value, (cst.List, cst.Tuple)) and all(isinstance(e.value, cst.SimpleString) for e in value.elements):
                    names.update(e.value.evaluated_value for e in value.elements)  # type: ignore[attr-defined]
                else:
                    return {"*"} | names | _every_name(module)
    return names


def _every_name(module: cst.Module) -> set[str]:
    return {n.value for n in V.nodes(module, cst.Name)}


class _Drop(V.Transformer):
    """Drops the statements ``dead`` (by id) and enters only the nodes above them, so every
    other node stays the node it was (the formatter knows unchanged code by identity)."""

    def __init__(self, dead: set[int], above: set[int], found: Candidates) -> None:
        super().__init__()
        self.dead, self.above, self.found = dead, above, found

    def on_visit(self, node: cst.CSTNode) -> bool:
        return id(node) in self.above

    def on_leave(self, original_node, updated_node):
        updated = super().on_leave(original_node, updated_node)
        if id(original_node) not in self.above:
            return original_node
        self.found.moved(original_node, updated)
        return updated

    def _drop(self, stmts) -> tuple[list, list]:
        out, carry = [], []
        for s in stmts:
            if id(s) in self.dead:
                if any(ln.comment is not None for ln in s.leading_lines):  # the blank lines around comments go with them
                    carry.extend(s.leading_lines)
                continue
            if carry:
                new = s.with_changes(leading_lines=[*carry, *s.leading_lines])
                self.found.moved(s, new)
                s, carry = new, []
            out.append(s)
        return out, carry

    def leave_IndentedBlock(self, original: cst.IndentedBlock, updated: cst.IndentedBlock):
        body, carry = self._drop(updated.body)
        if not body:
            return updated.with_changes(body=[cst.SimpleStatementLine([cst.Pass()], leading_lines=carry)])
        return updated.with_changes(body=body, footer=[*carry, *updated.footer])

    def leave_Module(self, original: cst.Module, updated: cst.Module):
        body, carry = self._drop(updated.body)
        return updated.with_changes(body=body, footer=[*carry, *updated.footer])


def _without(module: cst.Module, dead: set[int], found: Candidates) -> cst.Module:
    above: set[int] = set()
    stack: list[tuple[cst.CSTNode, tuple[int, ...]]] = [(module, ())]
    while stack:
        node, path = stack.pop()
        if id(node) in dead:
            above.update(path)
            continue
        if isinstance(node, cst.BaseExpression):
            continue  # statements stand in modules, blocks and statements only
        for child in V.children(node, V.node_fields(node)):
            stack.append((child, path + (id(node),)))
    return module.visit(_Drop(dead, above, found))
