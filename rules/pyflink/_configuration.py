"""A ``Configuration()`` built in a variable and given to ``get_execution_environment``
(not a rule: helpers for ``configuration`` and ``environment``)."""

from __future__ import annotations

from typing import Optional

import libcst as cst

from flink2spark.rules.pyflink._common import call_arg
from flink2spark.transpiler import pyflink_model as P

RUNTIME_MODE = "execution.runtime-mode"
_MODES = {"batch": "batch", "streaming": "streaming", "automatic": "batch"}


def _entry(resolver, node) -> bool:
    return isinstance(node, cst.Call) and P.ENTRY_POINTS.get(resolver.qualified_name(node.func) or "") == P.CONFIGURATION


def settings(ctx, config: Optional[cst.BaseExpression]) -> Optional[list[tuple[str, cst.BaseExpression, cst.CSTNode]]]:
    """``[(key, value, statement call)]`` of ``config = Configuration()`` followed by
    ``config.set_xxx("key", value)`` statements, when those and ``get_execution_environment(config)``
    calls are all its uses (keys literal); else None."""
    resolver = ctx.resolver
    if not isinstance(config, cst.Name):
        return None
    value = resolver.single_value(config)
    if value is None:
        return None
    return assigned_settings(ctx, resolver.parent(value))


def assigned_settings(ctx, assign) -> Optional[list[tuple[str, cst.BaseExpression, cst.CSTNode]]]:
    """``settings`` for the assignment ``config = Configuration()``."""
    resolver = ctx.resolver
    if not (isinstance(assign, cst.Assign) and len(assign.targets) == 1 and isinstance(assign.targets[0].target, cst.Name)):
        return None
    if not (_entry(resolver, assign.value) and not assign.value.args):  # type: ignore[attr-defined]
        return None
    target = assign.targets[0].target
    assignments = resolver.scope_bindings(target) or []
    if len(assignments) != 1:
        return None
    found, environments = [], 0
    for ref in assignments[0].references:
        parent = resolver.parent(ref.node)
        if isinstance(parent, cst.Arg):
            env_call = resolver.parent(parent)
            if not (isinstance(env_call, cst.Call) and P.ENTRY_POINTS.get(resolver.qualified_name(env_call.func) or "") == P.ENVIRONMENT):
                return None
            environments += 1
            continue
        call = resolver.parent(parent) if isinstance(parent, cst.Attribute) else None
        if not (isinstance(call, cst.Call) and call.func is parent and isinstance(resolver.parent(call), cst.Expr)):
            return None
        if not parent.attr.value.startswith("set_"):  # type: ignore[union-attr]
            return None
        key, val = call_arg(call, 0, "key"), call_arg(call, 1, "value")
        if not isinstance(key, cst.SimpleString) or val is None:
            return None
        found.append((key.evaluated_value, val, call))
    return found if environments >= 1 else None


def configured_mode(ctx, env_call: cst.Call) -> Optional[str]:
    """The runtime mode ``get_execution_environment(config)`` sets: "streaming" or "batch";
    "" when the configuration does not set it; None when it cannot be told. ``ctx``: anything
    with the module's ``resolver`` (a rule's context, the stream graph)."""
    found = settings(ctx, call_arg(env_call, 0, "configuration"))
    if found is None:
        return None
    modes = [v for k, v, _ in found if k == RUNTIME_MODE]
    if not modes:
        return ""
    if len(modes) == 1 and isinstance(modes[0], cst.SimpleString):
        return _MODES.get(modes[0].evaluated_value.lower())
    return None
