"""What a rule's converter returns: every path says what became of the construct it matched.

* a rewrite: the expression that replaces the call (any libcst expression);
* ``REMOVE``: drop the call's expression statement (``env.execute()``);
* a ``Todo``: the call stays as it is with a TODO marker saying why. ``ctx.todo(code, message)``
  writes the marker and returns it (``return ctx.todo(...)``); ``ctx.todo_left()`` is the result
  when a helper wrote it (``ctx.function``, ``ctx.key``... return None after a TODO);
* a ``Keep``: the call stays as it is, on purpose and with no marker, because another call
  converts it (a builder's part, converted with the call that uses the builder):
  ``return ctx.keep("part of the FileSink builder, converted with sink_to()")``.

Anything else, ``None`` above all (a path that says nothing: the construct would stay as it
is, unconverted and unmarked), is refused by the engine (``Converter._apply``): in strict mode
(``F2S_STRICT_RULES=1``, which the test suite sets) it raises ``RuleContractError``; otherwise
the construct gets TODO F2S008 naming the rule, so the output is never silently wrong.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

STRICT_ENV = "F2S_STRICT_RULES"


class RuleContractError(Exception):
    """A rule returned something that is no rule result (a flink2spark bug)."""


class _Remove:
    """Returned by a rule: drop this call's expression statement (e.g. ``env.execute()``)."""

    def __repr__(self) -> str:
        return "REMOVE"


REMOVE = _Remove()


@dataclass(frozen=True)
class Todo:
    """The call stays as it is; the TODO marker ``code message`` says why (made by ``ctx.todo``)."""

    code: str
    message: str


@dataclass(frozen=True)
class Keep:
    """The call stays as it is, with no marker: ``reason`` says which call converts it."""

    reason: str


def unconverted(value: object) -> bool:
    """Whether a helper's return value is a rule result that leaves the call as it is (a TODO it
    wrote, a reason to keep it) rather than a part of a rewrite: the rule returns it."""
    return isinstance(value, (Todo, Keep))


def strict() -> bool:
    """Whether a refused rule result raises (tests) instead of leaving TODO F2S008."""
    return os.environ.get(STRICT_ENV) == "1"
