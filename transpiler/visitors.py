"""libcst visitor bases that dispatch by a table instead of by name.

libcst's ``CSTVisitor``/``CSTTransformer`` find a node's ``visit_<Node>``/``leave_<Node>``
hooks with an f-string and a ``getattr`` at every node, and the hooks of each of the node's
attributes (``visit_<Node>_<attribute>``) the same way, whether the visitor has any or not.
Most nodes are whitespace and punctuation with no hook at all. These bases look a node type's
hooks up once per visitor class, and have no per-attribute hooks: a subclass that defines one
fails when it is defined, instead of being silently skipped.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Callable, Iterator, Optional, Union

import libcst as cst

_ATTRIBUTE_HOOK = re.compile(r"^(visit|leave)_[A-Z][A-Za-z]*_\w+$")


def _prepare(cls: type) -> None:
    """Give a visitor class its own table of hooks (filled as node types come), after checking
    it has no per-attribute hooks."""
    hooks = [name for name in vars(cls) if _ATTRIBUTE_HOOK.match(name)]
    if hooks:
        raise TypeError(f"{cls.__name__}: per-attribute hooks are not dispatched by this base: {hooks}")
    cls._hooks = {}  # type: ignore[attr-defined]


def _hook(visitor: type, prefix: str, node: type) -> Optional[Callable]:
    """``visitor``'s ``visit_<Node>``/``leave_<Node>`` function for a node type, or None."""
    table = visitor._hooks  # type: ignore[attr-defined]
    key = (prefix, node)
    try:
        return table[key]
    except KeyError:
        found = table[key] = getattr(visitor, prefix + node.__name__, None)
        return found


class _Table:
    """What both bases share: hooks by table, no per-attribute hooks."""

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        _prepare(cls)

    def on_visit(self, node: cst.CSTNode) -> bool:
        hook = _hook(type(self), "visit_", type(node))
        return hook is None or hook(self, node) is not False

    def on_visit_attribute(self, node: cst.CSTNode, attribute: str) -> None:
        pass

    def on_leave_attribute(self, original_node: cst.CSTNode, attribute: str) -> None:
        pass


class Visitor(_Table, cst.CSTVisitor):
    def on_leave(self, original_node: cst.CSTNode) -> None:
        hook = _hook(type(self), "leave_", type(original_node))
        if hook is not None:
            hook(self, original_node)


class Transformer(_Table, cst.CSTTransformer):
    def on_leave(self, original_node, updated_node):
        hook = _hook(type(self), "leave_", type(original_node))
        return updated_node if hook is None else hook(self, original_node, updated_node)


_IS_NODE: dict[type, bool] = {}  # type -> whether it is a libcst node (CSTNode is an ABC: isinstance is slow)


def _node_type(kind: type) -> bool:
    found = _IS_NODE.get(kind)
    if found is None:
        found = _IS_NODE[kind] = issubclass(kind, cst.CSTNode)
    return found


def children(node: cst.CSTNode, fields: tuple[str, ...]) -> list[cst.CSTNode]:
    """The nodes that ``node``'s ``fields`` hold, in that order."""
    below: list[cst.CSTNode] = []
    for name in fields:
        value = getattr(node, name)
        kind = type(value)
        if kind is tuple or kind is list:
            below.extend(v for v in value if _node_type(type(v)))
        elif _node_type(kind):
            below.append(value)
    return below


# -- finding nodes ---------------------------------------------------------------------------
# fields that hold only whitespace, comments and punctuation: no name is read or bound there
_TOKEN_FIELDS = frozenset({
    "lpar", "rpar", "leading_lines", "lines_after_decorators", "header", "footer", "comma", "semicolon", "dot",
    "colon", "equal", "operator", "trailing_whitespace", "newline", "lbracket", "rbracket", "lbrace", "rbrace",
    "asynchronous", "star", "whitespace_after_star", "whitespace_before_colon", "default_indent",
    "default_newline", "first_line", "indent", "await_", "walrus", "arrow",
})
_FIELDS: dict[type, tuple[str, ...]] = {  # node class -> the fields the walk visits, in libcst's order
    # (libcst visits format_spec only when there is one: the first instance seen may have none)
    cst.FormattedStringExpression: ("expression", "format_spec"),
}


class _FieldOrder(cst.CSTVisitor):
    """Records the fields of a node in the order libcst visits them (not their declared order)."""

    def __init__(self) -> None:
        super().__init__()
        self.fields: list[str] = []

    def on_visit(self, node: cst.CSTNode) -> bool:
        return False

    def on_leave(self, original_node: cst.CSTNode) -> None:
        pass

    def on_visit_attribute(self, node: cst.CSTNode, attribute: str) -> None:
        self.fields.append(attribute)

    def on_leave_attribute(self, original_node: cst.CSTNode, attribute: str) -> None:
        pass


def node_fields(node: cst.CSTNode) -> tuple[str, ...]:
    """The fields of ``node`` that can hold nodes other than whitespace, comments and
    punctuation, in the order libcst visits them (the walks of ``walk``, the scope analysis
    and the resolver's pre-pass go by them)."""
    kind = type(node)
    found = _FIELDS.get(kind)
    if found is None:
        order = _FieldOrder()
        node._visit_and_replace_children(order)
        found = _FIELDS[kind] = tuple(f for f in order.fields if f not in _TOKEN_FIELDS and not f.startswith("whitespace"))
    return found


# the nodes an import statement can stand in: walks that look for imports enter nothing else
STATEMENT_PARTS = (cst.Module, cst.BaseStatement, cst.BaseSuite, cst.Else, cst.ExceptHandler, cst.ExceptStarHandler, cst.Finally, cst.MatchCase)


def simple_statements(module: cst.Module) -> Iterator[Union[cst.SimpleStatementLine, cst.SimpleStatementSuite]]:
    """Every line of simple statements of ``module`` (``.body``: its small statements), at any
    depth (defs, classes, branches, handlers, match cases, ``if x: import y``), without walking
    an expression."""
    pending: list[cst.CSTNode] = [module]
    while pending:
        node = pending.pop()
        if type(node) is cst.SimpleStatementLine or type(node) is cst.SimpleStatementSuite:
            yield node  # type: ignore[misc]
            continue
        for child in children(node, node_fields(node)):
            if isinstance(child, STATEMENT_PARTS):
                pending.append(child)


def walk(root: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """``root`` and every node below it, in the order libcst visits them, except whitespace,
    comments and punctuation (the fields ``node_fields`` leaves out)."""
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed(children(node, node_fields(node))))


def nodes(root: cst.CSTNode, *kinds: type) -> list:
    """The nodes of ``kinds`` in ``root`` (``root`` too), in the order libcst visits them: what
    ``libcst.matchers.findall(root, m.Kind() | ...)`` finds, without libcst's matchers (their
    module takes longer to import than libcst itself) and without a visitor going over every
    whitespace and punctuation node. Not for whitespace or comments (``comments``)."""
    wanted = frozenset(kinds)
    return [node for node in walk(root) if type(node) in wanted]


def is_name(node: object, value: Optional[str] = None) -> bool:
    """``node`` is the name ``value`` (any name without one)."""
    return type(node) is cst.Name and (value is None or node.value == value)  # type: ignore[attr-defined]


def is_self_attribute(node: object) -> bool:
    """``node`` is ``self.<something>``."""
    return type(node) is cst.Attribute and is_name(node.value, "self")  # type: ignore[attr-defined]


def is_method_call(node: object, receiver: Optional[str] = None, method: Optional[str] = None) -> bool:
    """``node`` is a call ``<receiver>.<method>(...)`` (a name receiver; any one without it)."""
    if type(node) is not cst.Call or type(node.func) is not cst.Attribute:  # type: ignore[attr-defined]
        return False
    func = node.func  # type: ignore[attr-defined]
    return (receiver is None or is_name(func.value, receiver)) and (method is None or func.attr.value == method)


def is_plain_arg(arg: object, name: Optional[str] = None) -> bool:
    """``arg`` is a positional argument (no keyword, no star), the name ``name`` if given."""
    return type(arg) is cst.Arg and arg.keyword is None and arg.star == "" and (name is None or is_name(arg.value, name))  # type: ignore[attr-defined]


_DECLARED: dict[type, tuple[str, ...]] = {}


def comments(root: cst.CSTNode) -> list[str]:
    """The comments in ``root`` (whitespace included), by the nodes' declared fields: five
    times faster than ``m.findall(root, m.Comment())``, and in its order on every statement
    of the fixtures and examples."""
    found: list[str] = []
    stack: list[cst.CSTNode] = [root]
    while stack:
        node = stack.pop()
        kind = type(node)
        if kind is cst.Comment:
            found.append(node.value)  # type: ignore[attr-defined]
            continue
        names = _DECLARED.get(kind)
        if names is None:
            names = _DECLARED[kind] = tuple(f.name for f in dataclasses.fields(node))  # type: ignore[arg-type]
        stack.extend(reversed(children(node, names)))
    return found
