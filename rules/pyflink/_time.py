"""Which converted streams carry Flink record timestamps (not a rule: it defines no ``rule``).

A Flink record may carry a timestamp (event time). A converted stream whose records do is a
*timestamped stream*: an RDD of ``(timestamp, value)`` pairs (``timestamp`` an int in
milliseconds, Long.MIN_VALUE for a record without one as in PyFlink); keyed, it is the pair RDD
``(key, (timestamp, value))``. Every other stream stays an RDD of plain values: its records have
no timestamp (PyFlink's ``ctx.timestamp()`` gives Long.MIN_VALUE). See ``flink2spark.runtime.windows``.

Timestamps start at ``assign_timestamps_and_watermarks`` (with a timestamp assigner) and at
the results of time windows (``window.max_timestamp()``); every operator keeps its input's
timestamp on what it emits, as Flink does: ``map``/``flat_map``/``filter``/``key_by``/
``union``/``process``, the keyed reductions, count windows (the timestamp of the element that
fired the window). Rules converting an operator on a timestamped stream must work on the pairs
(``mapValues``, ``flatMapValues``...) and print/collect the values only.
"""

from __future__ import annotations

from typing import Optional

import libcst as cst

from flink2spark.rules.pyflink._common import SAME_TYPE, call_arg, followed

# The settings of a windowed stream (they return the windowed stream)
WINDOW_SETTINGS = ("allowed_lateness", "side_output_late_data", "trigger", "evictor")
# Methods of DataStream/KeyedStream/windowed streams whose output records keep the timestamps
# of their input (the output is timestamped exactly when the input is).
KEEPS = frozenset({
    *SAME_TYPE, "map", "flat_map", "process", "window", "window_all", "count_window", "count_window_all",
    *WINDOW_SETTINGS,
})
TIME_WINDOWS = frozenset({
    "TumblingEventTimeWindows", "SlidingEventTimeWindows", "EventTimeSessionWindows", "DynamicEventTimeSessionWindows",
    "TumblingProcessingTimeWindows", "SlidingProcessingTimeWindows", "ProcessingTimeSessionWindows",
    "DynamicProcessingTimeSessionWindows",
})
WINDOW_MODULES = ("pyflink.datastream.window", "pyflink.datastream")
STRATEGIES = frozenset({"for_monotonous_timestamps", "for_bounded_out_of_orderness", "no_watermarks"})
STRATEGY_SETTINGS = frozenset({"with_idleness", "with_watermark_alignment"})
STRATEGY_CLASSES = {"pyflink.common.WatermarkStrategy", "pyflink.common.watermark_strategy.WatermarkStrategy"}


def window_assigner(resolver, expr: Optional[cst.BaseExpression]) -> Optional[tuple[str, str, cst.Call]]:
    """(assigner class name, factory method, call) for ``TumblingEventTimeWindows.of(...)``,
    ``EventTimeSessionWindows.with_gap(...)``, ``GlobalWindows.create()``... (names followed once)."""
    if expr is None:
        return None
    node = followed(resolver, expr)
    if not (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute)):
        return None
    q = resolver.qualified_name(node.func.value) or ""
    for module in WINDOW_MODULES:
        if q.startswith(module + ".") and q.count(".") == module.count(".") + 1:
            return q.rsplit(".", 1)[1], node.func.attr.value, node
    return None


def strategy_has_assigner(resolver, expr: Optional[cst.BaseExpression]) -> Optional[bool]:
    """Whether a WatermarkStrategy expression ends with ``.with_timestamp_assigner(...)``
    somewhere in its chain (None: not a strategy expression that can be followed)."""
    node = followed(resolver, expr) if expr is not None else None
    depth = 0
    while isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and depth < 20:
        method = node.func.attr.value
        if method == "with_timestamp_assigner":
            return True
        q = resolver.qualified_name(node.func) or ""
        if q.startswith("pyflink.common.") and "WatermarkStrategy." in q:
            return False
        node = followed(resolver, node.func.value)
        depth += 1
    return None


BATCH_TRIGGER = (
    "trigger() in BATCH mode is not converted: on Flink 2.3 a BATCH job with window triggers fired windows"
    " without elements they had been given, and did not finish (seen); run it in STREAMING mode or port it by hand"
)


def sets_trigger(resolver, call: cst.Call) -> bool:
    """Whether the window chain of ``call`` (original: ``window(...)``, ``allowed_lateness(...)``...)
    sets a ``trigger``, before it (through names) or after it in the same expression."""
    settings = WINDOW_SETTINGS
    expr = call
    for _ in range(20):
        expr = followed(resolver, expr)
        if not (isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute)) or expr.func.attr.value not in settings:
            break
        if expr.func.attr.value == "trigger":
            return True
        expr = expr.func.value
    node: cst.CSTNode = call
    for _ in range(20):
        parent = resolver.parent(node)
        if not (isinstance(parent, cst.Attribute) and parent.value is node):
            return False
        outer = resolver.parent(parent)
        if not (isinstance(outer, cst.Call) and outer.func is parent and parent.attr.value in settings):
            return False
        if parent.attr.value == "trigger":
            return True
        node = outer
    return False


SESSION_WINDOWS = frozenset({
    "EventTimeSessionWindows", "DynamicEventTimeSessionWindows", "ProcessingTimeSessionWindows", "DynamicProcessingTimeSessionWindows",
})


def windows_shim(ctx, name: str) -> cst.Attribute:
    """``f2s.windows.<name>``: a member of the runtime module ``flink2spark.runtime.windows``
    (reached through the shim ``f2s``, whose import the engine adds)."""
    return cst.Attribute(value=ctx.shim("windows"), attr=cst.Name(name))


def watermark_strategy(ctx, expr):
    """(assigner expression or None, problem or None) of a WatermarkStrategy expression
    (original nodes; a name assigned once is followed)."""
    resolver = ctx.resolver
    node = expr
    if isinstance(expr, cst.Name):
        node = resolver.single_value(expr)
        if node is None:
            return None, f"the watermark strategy '{expr.value}' cannot be followed"
    assigner = None
    depth = 0
    while True:
        depth += 1
        if depth > 20 or not (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute)):
            return None, "the watermark strategy is not a WatermarkStrategy.for_*()/no_watermarks() chain"
        method = node.func.attr.value
        if method == "with_timestamp_assigner":
            if assigner is None:  # the last one wins
                assigner = call_arg(node, 0, "timestamp_assigner")
        elif method in STRATEGIES and resolver.qualified_name(node.func.value) in STRATEGY_CLASSES:
            break
        elif method not in STRATEGY_SETTINGS:
            return None, f"WatermarkStrategy.{method}() is not converted"
        node = node.func.value
    return assigner, None
