"""Where nodes of a module start: libcst's ``PositionProvider`` starts, for the nodes asked only.

The provider computes the range of every node of the module, line and column token by token;
markers need the start of a few nodes. This renders the module once with libcst's own code
generation, noting for the nodes asked (and the nodes their syntactic start is taken from) the
number of tokens written before them, then counts lines and columns in the tokens before each.
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Iterable, Iterator, Optional

import libcst as cst
from libcst._add_slots import add_slots
from libcst._nodes.internal import CodegenState

NEWLINE_RE = re.compile(r"\r\n?|\n")  # as PositionProvider counts lines


@add_slots
@dataclass(frozen=False)
class _StartsState(CodegenState):
    wanted: set = field(default_factory=set)  # ids of the nodes whose start is asked
    types: tuple = ()  # and every node of these types (found in ``typed``, in the module's order)
    starts: dict = field(default_factory=dict)  # id -> tokens written before its start
    pending: dict = field(default_factory=dict)
    typed: list = field(default_factory=list)

    def _asked(self, node: cst.CSTNode) -> bool:
        return id(node) in self.wanted or (bool(self.types) and isinstance(node, self.types))


    def before_codegen(self, node: cst.CSTNode) -> None:
        if self._asked(node):
            self.pending[id(node)] = len(self.tokens)

    def after_codegen(self, node: cst.CSTNode) -> None:
        start = self.pending.pop(id(node), None)
        if start is None:
            return
        self.starts.setdefault(id(node), start)  # a syntactic start noted already stays
        if self.types and isinstance(node, self.types):
            self.typed.append(node)

    @contextmanager
    def record_syntactic_position(
        self, node: cst.CSTNode, *, start_node: Optional[cst.CSTNode] = None, end_node: Optional[cst.CSTNode] = None
    ) -> Iterator[None]:
        if not self._asked(node):
            yield
            return
        start = len(self.tokens)
        if start_node is not None:
            self.wanted.add(id(start_node))  # an indented block starts where its first statement does
        try:
            yield
        finally:
            self.starts[id(node)] = self.starts[id(start_node)] if start_node is not None else start


class _AllFound(Exception):
    """Every node asked is written: the rest of the module need not be."""


@add_slots
@dataclass(frozen=False)
class _WantedState(_StartsState):
    """``_StartsState`` for nodes asked by id only (no ``types``): the check every node's code
    generation makes twice is a set lookup, and the code generation stops once the last node
    asked is written (``_AllFound``)."""

    remaining: set = field(default_factory=set)  # ids of the nodes asked that are not written yet

    def before_codegen(self, node: cst.CSTNode) -> None:
        if id(node) in self.wanted:
            self.pending[id(node)] = len(self.tokens)

    def after_codegen(self, node: cst.CSTNode) -> None:
        if id(node) in self.pending:
            self.starts.setdefault(id(node), self.pending.pop(id(node)))
            self.remaining.discard(id(node))
            if not self.remaining:
                raise _AllFound()

    def _asked(self, node: cst.CSTNode) -> bool:
        return id(node) in self.wanted


def starts(module: cst.Module, nodes: Iterable[cst.CSTNode], types: tuple = ()) -> tuple[dict[int, tuple[int, int]], list]:
    """(line, 1-based column) of each of ``nodes`` found in ``module``, by id, as
    ``PositionProvider`` gives their start; and the nodes of ``types`` of the module, in order
    (their starts are in the dict too)."""
    kind = _StartsState if types else _WantedState
    state = kind(default_indent=module.default_indent, default_newline=module.default_newline)
    asked = {id(n) for n in nodes}
    state.wanted = set(asked)
    state.types = types
    if not types:
        state.remaining = set(asked)
    try:
        if asked or types:
            module._codegen(state)
    except _AllFound:
        pass  # what comes after the last node asked changes none of their starts
    asked.update(id(n) for n in state.typed)
    found: dict[int, tuple[int, int]] = {}
    line, column, done = 1, 0, 0
    tokens = state.tokens
    for key, index in sorted(state.starts.items(), key=lambda item: item[1]):
        if index > done:  # the text written since the last start, as PositionProvider counts
            segments = NEWLINE_RE.split("".join(tokens[done:index]))
            line += len(segments) - 1
            column = len(segments[-1]) if len(segments) > 1 else column + len(segments[0])
        done = max(done, index)
        if key in asked:  # (not the nodes a start was taken from)
            found[key] = (line, column + 1)
    return found, state.typed
