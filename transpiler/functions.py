"""User functions passed to Flink operators: lambdas, defs and Flink function classes.

Flink's DataSet API calls a user function by one of several conventions (a value, two values,
an iterator, with or without a collector). ``adapt`` turns the function the user wrote into a
callable with the shape Spark calls, or returns None after leaving a TODO marker.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

import libcst as cst

from flink2spark.transpiler.visitors import Transformer, Visitor, nodes, is_method_call, is_name, is_plain_arg, is_self_attribute
from flink2spark.transpiler import markers as M


@dataclass(frozen=True)
class Convention:
    method: str  # method name on a Flink function class
    values: int  # number of value parameters
    collector: bool  # a trailing collector parameter


CONVENTIONS = {
    "map": Convention("map", 1, False),
    "flat_map": Convention("flat_map", 1, True),
    "filter": Convention("filter", 1, False),
    "map_partition": Convention("map_partition", 1, True),
    "reduce": Convention("reduce", 2, False),
    "reduce_group": Convention("reduce", 1, True),
    "join": Convention("join", 2, False),
    "cross": Convention("cross", 2, False),
    "co_group": Convention("co_group", 2, True),
    "key": Convention("get_key", 1, False),
}


# --------------------------------------------------------------------------------------
# Flink function classes


@dataclass
class ClassInfo:
    node: cst.ClassDef
    kind: str  # "MapFunction", "GroupReduceFunction", ...
    flink_bases: list[int]  # indexes of bases that are Flink classes
    stateful: bool
    convertible: bool = True
    reason: str = ""
    uses_state: bool = False  # PyFlink: open() creates keyed state (runtime_context.get_state...)
    # method name -> (collector param, iterator params)
    collector_methods: dict[str, tuple[str, list[str]]] = field(default_factory=dict)


def names_in(node: cst.CSTNode, skip_nested: bool = True) -> list[cst.Name]:
    """Name nodes in ``node``, not descending into nested defs/lambdas/classes."""
    found: list[cst.Name] = []
    root = node

    class V(Visitor):
        def visit_Name(self, n: cst.Name) -> None:
            found.append(n)

        def visit_Attribute(self, n: cst.Attribute) -> bool:
            n.value.visit(self)
            return False

        def visit_Arg(self, n: cst.Arg) -> bool:
            n.value.visit(self)
            return False

        def visit_FunctionDef(self, n: cst.FunctionDef) -> bool:
            return n is root or not skip_nested

        def visit_Lambda(self, n: cst.Lambda) -> bool:
            return n is root or not skip_nested

        def visit_ClassDef(self, n: cst.ClassDef) -> bool:
            return n is root or not skip_nested

    node.visit(V())
    return found


def _delegation(node: cst.BaseExpression, collector: str) -> bool:
    """``self.other_method(..., collector)``: passing the collector on to a sibling method."""
    return is_method_call(node, "self") and bool(node.args) and is_plain_arg(node.args[-1], collector)  # type: ignore[attr-defined]


def _collect_call(node: cst.CSTNode, collector: str) -> bool:
    """``collector.collect(x)``: one positional argument."""
    return is_method_call(node, collector, "collect") and len(node.args) == 1 and is_plain_arg(node.args[0])  # type: ignore[attr-defined]


def _docstring(stmt: cst.CSTNode) -> bool:
    """A statement that is only a string."""
    return (
        type(stmt) is cst.SimpleStatementLine and len(stmt.body) == 1 and type(stmt.body[0]) is cst.Expr
        and type(stmt.body[0].value) in (cst.SimpleString, cst.ConcatenatedString)
    )


def _collect_calls_ok(body: cst.CSTNode, collector: str) -> tuple[bool, int]:
    """Whether every use of ``collector`` is a statement ``collector.collect(x)`` (or passes it on
    to a sibling method as its last argument); and how many such statements there are."""
    ok_ids: set[int] = set()
    count = 0

    class V(Visitor):
        def visit_Expr(self, n: cst.Expr) -> None:
            nonlocal count
            if _delegation(n.value, collector):
                ok_ids.add(id(n.value.args[-1].value))  # type: ignore[attr-defined]
                count += 1
                return
            if _collect_call(n.value, collector):
                ok_ids.add(id(n.value.func.value))  # type: ignore[attr-defined]
                count += 1

    body.visit(V())
    uses = [n for n in names_in(body) if n.value == collector]
    return all(id(n) in ok_ids for n in uses), count


def analyze_class(node: cst.ClassDef, resolver, known: dict[int, "ClassInfo"]) -> Optional[ClassInfo]:
    A = resolver.model  # the generation's GenerationModel
    kind = None
    flink_bases = []
    for i, base in enumerate(node.bases):
        q = resolver.qualified_name(base.value)
        if q in A.FUNCTION_CLASSES:
            kind = A.FUNCTION_CLASSES[q][0]
            flink_bases.append(i)
            continue
        target = resolver.local_def(base.value)
        if isinstance(target, cst.ClassDef) and id(target) in known:
            kind = known[id(target)].kind
    if kind is None:
        return None
    info = ClassInfo(node, kind, flink_bases, stateful=_is_stateful(node))
    for method, (nvalues, _iters) in A.COLLECTOR_METHODS.get(kind, {}).items():
        fdef = _method(node, method)
        if fdef is None:
            continue
        params = [p.name.value for p in fdef.params.params]
        if len(params) != nvalues + 2 or fdef.params.star_arg not in (None, cst.MaybeSentinel.DEFAULT) and not isinstance(fdef.params.star_arg, cst.ParamStar):
            info.convertible = False
            info.reason = f"{method}() does not take (self, {'value, ' * nvalues}collector)"
            continue
        collector = params[-1]
        ok, _ = _collect_calls_ok(fdef.body, collector)
        if not ok:
            if method == "combine":
                continue  # never called on Spark (nor by Flink's Python API); left as is
            info.convertible = False
            info.reason = f"{method}() uses its collector other than as {collector}.collect(value)"
            continue
        info.collector_methods[method] = (collector, params[1:-1])
    if A.check_class is not None and info.convertible:  # a model's own conditions (PyFlink: runtime context use)
        A.check_class(info, resolver)
    return info


def _method(node: cst.ClassDef, name: str) -> Optional[cst.FunctionDef]:
    for stmt in node.body.body:
        if isinstance(stmt, cst.FunctionDef) and stmt.name.value == name:
            return stmt
    return None


def _is_stateful(node: cst.ClassDef) -> bool:
    """A class whose instances may carry state between calls (an __init__ or self.x = ...)."""
    if _method(node, "__init__") is not None:
        return True
    return any(is_self_attribute(t.target) for t in nodes(node, cst.AssignTarget))


# --------------------------------------------------------------------------------------
# Rewriting collector methods into generators


class _CollectorToYield(Transformer):
    def __init__(self, collector: str, iterators: list[str], generator: bool):
        self.collector = collector
        self.iterators = set(iterators)
        self.generator = generator
        self.depth = 0
        self.uses_has_next: set[str] = set()
        self.uses_next: set[str] = set()

    def _nested(self, node) -> bool:
        self.depth += 1
        return True

    def _unnest(self, original, updated):
        self.depth -= 1
        return updated

    visit_FunctionDef = _nested  # type: ignore[assignment]
    visit_Lambda = _nested  # type: ignore[assignment]
    visit_ClassDef = _nested  # type: ignore[assignment]
    leave_FunctionDef = _unnest  # type: ignore[assignment]
    leave_Lambda = _unnest  # type: ignore[assignment]
    leave_ClassDef = _unnest  # type: ignore[assignment]

    def leave_Expr(self, original: cst.Expr, updated: cst.Expr):
        v = updated.value
        if self.depth == 1 and _delegation(v, self.collector):
            args = list(v.args[:-1])  # type: ignore[attr-defined]
            if args:
                args[-1] = args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
            return updated.with_changes(value=cst.Yield(value=cst.From(item=v.with_changes(args=args))))
        if self.depth == 1 and is_method_call(v, self.collector, "collect"):
            return updated.with_changes(value=cst.Yield(value=v.args[0].value))  # type: ignore[attr-defined]
        return updated

    def leave_SimpleStatementLine(self, original, updated):
        if self.depth != 1:
            return updated
        if not self.generator:
            # Flink collects nothing for a None result; Spark needs an iterable
            body = [
                cst.Return(value=cst.List([])) if isinstance(st, cst.Return) and (st.value is None or is_name(st.value, "None")) else st
                for st in updated.body
            ]
            return updated.with_changes(body=body)
        body = []
        for stmt in updated.body:
            if isinstance(stmt, cst.Return) and stmt.value is not None and not is_name(stmt.value, "None"):
                body.append(cst.Expr(cst.Yield(value=cst.From(item=stmt.value))))
                body.append(cst.Return(value=None))
            else:
                body.append(stmt)
        return updated.with_changes(body=body)

    def leave_Call(self, original: cst.Call, updated: cst.Call):
        f = updated.func
        if isinstance(f, cst.Attribute) and isinstance(f.value, cst.Name) and f.value.value in self.iterators and not updated.args:
            if f.attr.value == "next":
                self.uses_next.add(f.value.value)
                return cst.Call(func=cst.Name("next"), args=[cst.Arg(f.value)])
            if f.attr.value == "has_next":
                self.uses_has_next.add(f.value.value)
        if isinstance(f, cst.Name) and f.value == "next" and len(updated.args) == 1:
            a = updated.args[0].value
            if isinstance(a, cst.Name) and a.value in self.iterators:
                self.uses_next.add(a.value)
        return updated


def _ends_with_exit(body) -> bool:
    last = body[-1] if body else None
    return isinstance(last, cst.SimpleStatementLine) and isinstance(last.body[-1], (cst.Return, cst.Raise))


def rewrite_collector_method(fdef: cst.FunctionDef, collector: str, iterators: list[str], add_import) -> cst.FunctionDef:
    """``def m(self, it, collector)`` with ``collector.collect(x)`` -> generator ``def m(self, it)``."""
    _, count = _collect_calls_ok(fdef.body, collector)
    t = _CollectorToYield(collector, iterators, generator=count > 0)
    t.depth = 0
    new = fdef.visit(t)
    assert isinstance(new, cst.FunctionDef)
    params = list(new.params.params)[:-1]
    if params:
        params[-1] = params[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    new = new.with_changes(params=new.params.with_changes(params=params))
    if count == 0 and isinstance(new.body, cst.IndentedBlock) and not _ends_with_exit(new.body.body):
        # no collect() and the body can fall off its end: Flink emitted nothing, Spark needs []
        new = new.with_changes(body=new.body.with_changes(body=[*new.body.body, cst.SimpleStatementLine([cst.Return(value=cst.List([]))])]))
    prologue = []
    for it in iterators:
        if it in t.uses_has_next:
            name = add_import("flink2spark.runtime.dataset", "FlinkIterator")
            prologue.append(cst.parse_statement(f"{it} = {name}({it})"))
        elif it in t.uses_next:
            prologue.append(cst.parse_statement(f"{it} = iter({it})"))
    if prologue and isinstance(new.body, cst.IndentedBlock):
        body = list(new.body.body)
        at = 1 if body and _docstring(body[0]) else 0
        new = new.with_changes(body=new.body.with_changes(body=body[:at] + prologue + body[at:]))
    return new


# --------------------------------------------------------------------------------------
# Lambdas


def _fresh(base: str, taken: set[str]) -> str:
    name = base
    i = 2
    while name in taken:
        name = f"{base}{i}"
        i += 1
    return name


class _Substitute(Transformer):
    def __init__(self, mapping: dict[str, cst.BaseExpression]):
        self.mapping = mapping

    def leave_Name(self, original: cst.Name, updated: cst.Name):
        return self.mapping.get(updated.value, updated)

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        return True

    def leave_Attribute(self, original, updated):
        return updated.with_changes(attr=original.attr)

    def leave_Arg(self, original, updated):
        return updated.with_changes(keyword=original.keyword)


def substitute(body: cst.BaseExpression, mapping: dict[str, cst.BaseExpression]) -> Optional[cst.BaseExpression]:
    """Replace free uses of parameter names; None when a nested scope rebinds one of them."""
    rebinding = nodes(body, cst.Lambda, cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp, cst.NamedExpr)
    if rebinding:
        bound = set()
        for node in rebinding:
            for n in nodes(node, cst.Param, cst.CompFor, cst.NamedExpr):
                if isinstance(n, cst.Param):
                    bound.add(n.name.value)
                elif isinstance(n, cst.CompFor):
                    bound.update(x.value for x in nodes(n.target, cst.Name))
                else:
                    bound.update(x.value for x in nodes(n.target, cst.Name))
        if bound & set(mapping):
            return None
    return body.visit(_Substitute(mapping))  # type: ignore[return-value]


def lambda_params(lam: cst.Lambda) -> Optional[list[str]]:
    p = lam.params
    if p.star_arg not in (cst.MaybeSentinel.DEFAULT, None) and not isinstance(p.star_arg, cst.MaybeSentinel):
        return None
    if p.kwonly_params or p.star_kwarg or p.posonly_params:
        return None
    if any(x.default is not None for x in p.params):
        return None
    return [x.name.value for x in p.params]


def make_lambda(params: list[str], body: cst.BaseExpression) -> cst.Lambda:
    return cst.Lambda(
        params=cst.Parameters(params=[cst.Param(cst.Name(n)) for n in params]),
        body=body,
    )


def pack_lambda(lam_params: list[str], body: cst.BaseExpression, base: str) -> Optional[cst.Lambda]:
    """``lambda a, b: f(a, b)`` -> ``lambda pair: f(pair[0], pair[1])``."""
    taken = {n.value for n in nodes(body, cst.Name)} | set(lam_params)
    name = _fresh(base, taken)
    mapping = {
        p: cst.Subscript(value=cst.Name(name), slice=[cst.SubscriptElement(cst.Index(cst.Integer(str(i))))])
        for i, p in enumerate(lam_params)
    }
    new_body = substitute(body, mapping)
    if new_body is None:
        return None
    return make_lambda([name], new_body)


def drop_collector(lam: cst.Lambda, params: list[str], collector: str) -> Optional[cst.BaseExpression]:
    """The lambda's body with its collector parameter gone; None if the collector is used otherwise."""
    body = lam.body
    uses = [n for n in names_in(body) if n.value == collector]
    if not uses:
        return body
    if _collect_call(body, collector):
        inner = body.args[0].value  # type: ignore[attr-defined]
        if not [n for n in names_in(inner) if n.value == collector]:
            return cst.List([cst.Element(inner)])
    return None
