"""The rule registry: one module per rule under ``flink2spark.rules.<generation>``.

A rule module defines ``rule = Rule(__name__, matches=[...], ...)`` and decorates its converter
with ``@rule.converter``. ``matches`` names the API constructs as ``"Type.method"`` (types from
``api_model``); for builder chains (join/where/equal_to/using...) the rule of the chain's first
call receives the whole chain. Each rule carries before/after examples and look-alike no-op
examples; ``tests/test_rule_examples.py`` runs all of them.
"""

from __future__ import annotations

import importlib
import re
import pkgutil
from dataclasses import dataclass, field
from typing import Callable, Optional


@dataclass(frozen=True)
class Example:
    before: str
    after: str


@dataclass
class Rule:
    module: str
    matches: tuple[str, ...]
    summary: str
    exact: bool = True
    examples: tuple[Example, ...] = ()
    noop: tuple[str, ...] = ()
    codes: tuple[str, ...] = ()  # marker codes the rule may emit
    convert: Optional[Callable] = field(default=None, repr=False)

    def __post_init__(self) -> None:
        self.matches = tuple(self.matches)
        self.examples = tuple(self.examples)
        self.noop = tuple(self.noop)

    @property
    def id(self) -> str:
        """``generation.name`` from the module path ``flink2spark.rules.<generation>.<name>``."""
        parts = self.module.split(".")
        return ".".join(parts[-2:])

    @property
    def form(self) -> str:
        """``"shim"`` when one of the rule's examples converts to code calling the runtime shim
        (``flink2spark.runtime``, imported as ``f2s``), else ``"native"`` (Spark's own API only).
        Every example is a real conversion (``tests/test_rule_examples.py`` runs them), so a rule
        with a shim path must show it in an example to be listed as one."""
        return "shim" if any(_SHIM_CALL.search(e.after) for e in self.examples) else "native"

    @property
    def generation(self) -> str:
        return self.module.split(".")[-2]

    def converter(self, fn: Callable) -> Callable:
        self.convert = fn
        return fn


_SHIM_CALL = re.compile(r"\bf2s(?:_\w+)?\.")
_RULES: Optional[list[Rule]] = None


def all_rules() -> list[Rule]:
    """Every rule of every generation, loaded once, sorted by id."""
    global _RULES
    if _RULES is None:
        import flink2spark.rules as pkg

        found: list[Rule] = []
        for gen in pkgutil.iter_modules(pkg.__path__):
            if not gen.ispkg:
                continue
            sub = importlib.import_module(f"{pkg.__name__}.{gen.name}")
            for mod in pkgutil.iter_modules(sub.__path__):
                module = importlib.import_module(f"{sub.__name__}.{mod.name}")
                rule = getattr(module, "rule", None)
                if isinstance(rule, Rule):
                    found.append(rule)
        _RULES = sorted(found, key=lambda r: r.id)
    return _RULES


def dispatch_table(*rule_sets: str) -> dict[tuple[str, str], Rule]:
    """(type, method) -> the rule converting it, over the rules of ``rule_sets`` (packages of
    ``flink2spark.rules``: a generation's own and those of the APIs it includes)."""
    table: dict[tuple[str, str], Rule] = {}
    for rule in all_rules():
        if rule.generation not in rule_sets:
            continue
        for m in rule.matches:
            typ, _, method = m.partition(".")
            key = (typ, method)
            if key in table:
                raise RuntimeError(f"{m} is matched by both {table[key].id} and {rule.id}")
            table[key] = rule
    return table
