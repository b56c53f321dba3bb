"""Helpers shared by the process-function rules (not a rule: it defines no ``rule``)."""

from __future__ import annotations

from typing import Optional

import libcst as cst

from flink2spark.transpiler.visitors import nodes, is_method_call, is_self_attribute
from flink2spark.rules.pyflink._common import decoding, runtime_mode
from flink2spark.rules.pyflink._streams import facts, graph
from flink2spark.transpiler import foreign
from flink2spark.transpiler import markers as M
from flink2spark.transpiler import pyflink_model as P
from flink2spark.transpiler.functions import _method


def user_class(ctx, original: cst.BaseExpression) -> Optional[tuple[cst.ClassDef, str]]:
    """(class, PyFlink base name) for ``Cls(...)`` (or a name bound to one) where ``Cls`` is a
    class of this module deriving, directly or through classes of this module, from one of
    PyFlink's process function classes (``KeyedProcessFunction``, ``CoMapFunction``...), or a
    class of a sibling module deriving from one directly."""
    expr = original
    if isinstance(expr, cst.Name):
        value = ctx.resolver.single_value(expr)
        if value is None:
            return None
        expr = value
    if not isinstance(expr, cst.Call):
        return None
    target = ctx.resolver.local_def(expr.func)
    if target is None and isinstance(expr.func, (cst.Name, cst.Attribute)):
        target = foreign.lookup(ctx.resolver, expr.func, ctx.conv.path)  # a sibling module's class
        if not isinstance(target, cst.ClassDef):
            return None
        names = foreign.base_names(target) or []
        kind = next((P.PROCESS_FUNCTIONS[q] for q in names if q in P.PROCESS_FUNCTIONS), None)
        return (target, kind) if kind is not None else None
    if not isinstance(target, cst.ClassDef):
        return None
    kind = _base_kind(ctx, target, 0)
    return (target, kind) if kind is not None else None


def function_class(ctx, seg, kinds: tuple[str, ...], what: str):
    """(class, PyFlink base name, converted instance) of the function argument of ``seg`` when
    it is a class of this module deriving from one of ``kinds`` whose ``open()`` the shim's
    runtime context serves; None after a TODO otherwise."""
    found = ctx.arg(seg, 0, "func")
    known = user_class(ctx, found[0]) if found is not None else None
    if known is None or known[1] not in kinds:
        ctx.todo(M.PF_PROCESS, f"{what}: the function is not a {' / '.join(kinds)} class of this module; convert it by hand")
        return None
    problem = context_problem(known[0])
    if problem is not None:
        ctx.todo(M.PF_PROCESS, f"{known[0].name.value}: {problem}; convert it by hand")
        return None
    return known[0], known[1], found[1]  # type: ignore[index]


def _base_kind(ctx, cls: cst.ClassDef, depth: int) -> Optional[str]:
    if depth > 10:
        return None
    for base in cls.bases:
        q = ctx.resolver.qualified_name(base.value)
        if q in P.PROCESS_FUNCTIONS:
            return P.PROCESS_FUNCTIONS[q]
        target = ctx.resolver.local_def(base.value)
        if isinstance(target, cst.ClassDef):
            kind = _base_kind(ctx, target, depth + 1)
            if kind is not None:
                return kind
    return None


def calls(cls: cst.ClassDef, method: str) -> bool:
    """Whether the class body calls ``<anything>.method(...)``."""
    return any(is_method_call(c, method=method) for c in nodes(cls, cst.Call))


def context_problem(cls: cst.ClassDef) -> Optional[str]:
    """Why the runtime context ``open(runtime_context)`` gets cannot be the shim's: a method
    other than task information and keyed state, or the context kept or passed on."""
    from flink2spark.transpiler.functions import names_in

    opener = _method(cls, "open")
    if opener is None or len(opener.params.params) < 2:
        return None
    context = opener.params.params[1].name.value
    allowed = P.RUNTIME_CONTEXT_METHODS | P.STATE_METHODS
    uses = 0
    for call in (c for c in nodes(opener.body, cst.Call) if is_method_call(c, context)):
        method = call.func.attr.value  # type: ignore[attr-defined]
        if method not in allowed:
            return f"open() calls {context}.{method}(), which is not converted"
        uses += 1
    if sum(1 for n in names_in(opener.body) if n.value == context) != uses:
        return f"open() keeps or passes on its runtime context '{context}'"
    return None


def mode_or_todo(ctx, what: str) -> Optional[str]:
    """The module's runtime mode; None after a TODO when it cannot be told."""
    mode = runtime_mode(ctx)
    if mode is None:
        ctx.todo(
            M.PF_RUNTIME_MODE,
            f"{what}: the runtime mode (STREAMING or BATCH: element order and when timers fire) is set from an"
            ' expression or a configuration; pass mode="streaming" or "batch" to the shim call',
        )
    return mode


def timer_notes(ctx, cls: cst.ClassDef, mode: str) -> None:
    """NOTEs for what timers do differently from a Flink run (STREAMING only: in BATCH mode
    every timer of a key fires after that key's elements, on Flink as here)."""
    name = cls.name.value
    if mode == "streaming" and calls(cls, "register_event_time_timer"):
        ctx.note(
            M.PF_EVENT_TIMERS,
            f"{name}: event-time timers fire at the end of the input (final watermark Long.MAX_VALUE); Flink fires"
            " them earlier when a periodic watermark (every 200 ms) passes them, which only a longer-running job sees",
        )
    if calls(cls, "register_processing_time_timer"):
        when = (
            "those still pending at the end of the input do not fire (as on Flink 2.3 in STREAMING mode)"
            if mode == "streaming"
            else "in BATCH mode those of a key fire after the key's elements"
        )
        ctx.note(M.PF_PROCESSING_TIMERS, f"{name}: processing-time timers fire when the wall clock passes them between elements; {when}")
    if calls(cls, "enable_time_to_live"):
        ctx.note(
            M.PF_STATE_TTL, f"{name}: state TTL is not applied (state never expires); same results when the job runs shorter than the TTL"
        )


def shim_call(ctx, name: str, args: list, keywords: dict) -> cst.BaseExpression:
    """``f2s.name(*args, k=v...)`` with the keywords whose value is not None."""
    arguments = [cst.Arg(a) for a in args]
    for k, v in keywords.items():
        if v is None:
            continue
        value = cst.SimpleString(f'"{v}"') if isinstance(v, str) else v
        arguments.append(cst.Arg(value, keyword=cst.Name(k), equal=cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace(""))))
    return cst.Call(func=ctx.shim(name), args=arguments)


def decode_of(ctx) -> Optional[cst.BaseExpression]:
    """``f2s.decoded(output_type)`` when the operator's output has several consumers (Flink
    then decodes it from its serializers, see ``_common.decoded_output``), else None."""
    outer = ctx.outer
    if facts(ctx.resolver, outer).readers < 2:
        return None
    return decoding(ctx, [outer], outer)


def flag(value: bool) -> Optional[cst.BaseExpression]:
    """``True`` for a shim keyword that is set, None (left out) otherwise."""
    return cst.Name("True") if value else None


def keeps_instance_data(cls: cst.ClassDef) -> bool:
    """Whether a function class keeps data in its instance between calls: ``self.x = ...``
    outside ``__init__``/``open`` (``open`` assigns its state objects)."""
    for fdef in cls.body.body:
        if isinstance(fdef, cst.FunctionDef) and fdef.name.value not in ("open", "__init__"):
            if any(is_self_attribute(n.target) for n in nodes(fdef, cst.AssignTarget, cst.AugAssign)):
                return True
    return False


def keeps_data(cls: cst.ClassDef) -> bool:
    """Whether a function class keeps data between calls: keyed state (``get_state``...),
    ``__init__``, or ``self.x = ...`` outside ``open``."""
    if _method(cls, "__init__") is not None:
        return True
    if any(is_method_call(c) and c.func.attr.value in P.STATE_METHODS for c in nodes(cls, cst.Call)):  # type: ignore[attr-defined]
        return True
    return keeps_instance_data(cls)


def input_order_note(ctx, cls: cst.ClassDef, what: str) -> None:
    """NOTE F2S237 for a function that keeps data and reads two inputs' elements (connect, or
    a union before it): Flink interleaves them as they arrive, in no order a run fixes."""
    if keeps_data(cls):
        ctx.note(
            M.PF_INPUT_ORDER,
            f"{cls.name.value} keeps data and reads the elements of {what}: Flink interleaves them as they arrive (no run"
            " fixes the order), the conversion takes the first input's, then the second's (per partition or key);"
            " results that depend on that order may differ",
        )


def instance_note(ctx, cls: cst.ClassDef) -> Optional[cst.BaseExpression]:
    """For a function not on a keyed stream: ``1`` (the shim's ``parallelism``) when the
    program runs at parallelism 1, where one instance sees the whole stream in order as on
    Flink; otherwise NOTE F2S236 when the instance keeps data between calls (``__init__``, or
    ``self.x = ...`` outside ``open``): each Spark partition has its own instance, as each of
    Flink's parallel instances has, but the elements are spread differently."""
    stateful = _method(cls, "__init__") is not None
    for fdef in cls.body.body:
        if isinstance(fdef, cst.FunctionDef) and fdef.name.value not in ("open", "__init__"):
            if any(is_self_attribute(n.target) for n in nodes(fdef, cst.AssignTarget, cst.AugAssign)):
                stateful = True
    if not stateful:
        return None
    known, parallelism = env_parallelism(ctx)
    if known and parallelism == 1:
        return cst.Integer("1")
    ctx.note(
        M.PF_INSTANCES,
        f"{cls.name.value} keeps data in its instance: one instance per Spark partition (Flink: per parallel"
        " instance); same results when the partitions match Flink's parallelism or the result does not depend on them",
    )
    return None


def env_parallelism(ctx) -> tuple[bool, Optional[int]]:
    """The parallelism the module's environments set (``StreamGraph.parallelism``)."""
    return graph(ctx.resolver).parallelism


def unbounded_todo(ctx, original: cst.BaseExpression, what: str) -> bool:
    """A TODO (and True) when the stream reads an unbounded source: the shim runs bounded jobs."""
    if not facts(ctx.resolver, original).unbounded_source:
        return False
    ctx.todo(
        M.PF_PROCESS,
        f"{what} on an unbounded source: the shim runs bounded jobs; on Structured Streaming use"
        " groupBy(key).transformWithState(StatefulProcessor) (Spark 4) for keyed state and timers",
    )
    return True
