"""Settings made on the environment or on the config objects it hands out
(``get_checkpoint_config()``, ``get_config()``), for rules that remove them (not a rule)."""

from __future__ import annotations

import libcst as cst

from flink2spark.transpiler import markers as M
from flink2spark.transpiler import pyflink_model as P
from flink2spark.transpiler.convert import REMOVE


def drop(ctx, code: str, message: str):
    """Remove a setting statement with a NOTE (TODO when its result is used)."""
    if not ctx.is_statement:
        return ctx.todo(M.PF_UNSUPPORTED, f"the result of {ctx.site.head.method}() is used")
    ctx.note(code, message)
    return REMOVE


def _setter_uses(ctx, target: cst.Name, config_type: str) -> bool:
    """Whether every use of the variable is ``target.setter(...)`` as a statement."""
    resolver = ctx.resolver
    assignments = resolver.scope_bindings(target) or []
    if len(assignments) != 1:
        return False
    for ref in assignments[0].references:
        attr = resolver.parent(ref.node)
        call = resolver.parent(attr) if isinstance(attr, cst.Attribute) else None
        if not (isinstance(call, cst.Call) and call.func is attr and isinstance(resolver.parent(call), cst.Expr)):
            return False
        if P.METHODS[config_type].get(attr.attr.value) is None:  # a getter
            return False
    return True


def convert(ctx, getter: str, config_type: str, code: str, message: str):
    """``env.<getter>()`` (read by setters), setters of the config object, other settings."""
    seg = ctx.site.head
    resolver = ctx.resolver
    if ctx.site.receiver_type == config_type:
        if P.METHODS[config_type].get(seg.method) is None or not ctx.is_statement:
            return ctx.todo(M.PF_UNSUPPORTED, f"{config_type}.{seg.method}(): a Flink setting read back has no Spark counterpart")
        receiver = seg.original.func.value  # type: ignore[attr-defined]
        if isinstance(receiver, cst.Name):
            return REMOVE  # the variable's assignment carries the NOTE
        ctx.note(code, f"{getter}().{seg.method}(): " + message.split(": ", 1)[1])
        return REMOVE
    if seg.method != getter:
        return drop(ctx, code, message)
    parent = resolver.parent(ctx.outer)
    if isinstance(parent, cst.Attribute) and parent.value is ctx.outer:
        return ctx.keep(f"env.{getter}().setter(...): the setter removes its statement")
    if isinstance(parent, cst.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0].target, cst.Name):
        if _setter_uses(ctx, parent.targets[0].target, config_type):
            ctx.note(code, message)
            ctx.remove_statement(parent)
            return ctx.keep(f"a {config_type} only set: its assignment is removed, and so are its setters")
    return ctx.todo(M.PF_UNSUPPORTED, f"{getter}(): the {config_type} is used other than by calling its setters")
