"""libcst visitor bases that dispatch by a table instead of by name.

libcst's ``CSTVisitor``/``CSTTransformer`` find a node's ``visit_<Node>``/``leave_<Node>``
hooks with an f-string and a ``getattr`` at every node, and the hooks of each of the node's
attributes (``visit_<Node>_<attribute>``) the same way, whether the visitor has any or not.
Most nodes are whitespace and punctuation with no hook at all. These bases look a node type's
hooks up once per visitor class, and have no per-attribute hooks: a subclass that defines one
fails when it is defined, instead of being silently skipped.
"""

from __future__ import annotations

import re
from typing import Callable, Optional

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
