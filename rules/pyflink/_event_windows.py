"""Event-time windows of a stream planned as a DataFrame -> ``groupBy(key, F.window(...))``
(issue 14). Shared by the rules ``timestamps``, ``windows`` and ``window_functions``: the
decisions are here, each a small function of the program model's facts, the rules only write
the code they return.

What Spark gives and Flink gives (``/work/shared/reference/flink-spark-semantics.md`` C.3,
checked again on PySpark 4.3 and Flink 2.3 by ``tests/test_event_windows.py``):

* Assignment: ``F.window(ts, size[, slide[, start]])`` places a record in the windows
  ``[start, end)`` Flink's ``TumblingEventTimeWindows.of(size[, offset])`` /
  ``SlidingEventTimeWindows.of(size, slide[, offset])`` give it (epoch-aligned, UTC, windows
  before 0 too); both refuse an offset whose size is not below the slide (Flink: size).
  ``F.session_window(ts, gap)`` merges records less than ``gap`` apart, and exactly ``gap``
  apart, as ``EventTimeSessionWindows.with_gap(gap)`` does; the session ends at the last
  record + gap in both.
* Firing: on a bounded input Flink's last watermark (``Long.MAX_VALUE``) fires every window
  with the records it was given, which a batch ``groupBy`` computes. Before that, a periodic
  watermark (every 200 ms) at ``max timestamp - delay - 1 ms`` makes Flink drop a record whose
  windows all ended at or before it (STREAMING mode; BATCH mode has no watermarks before the
  end). Whether it happens depends on timing; whether it CAN happen is decided here from the
  literal timestamps of a collection (``late_records``): a NOTE (F2S270) when it can, nothing
  when no record comes behind an earlier one by more than the delay.
* Timestamps: ``TimestampAssigner.extract_timestamp(value, record_timestamp)`` returning an
  expression of the value -> ``F.timestamp_millis(<Column of that expression>)`` through
  ``transpiler/python_columns.translate`` (exact or refused).
* Aggregates: a ``reduce`` or ``AggregateFunction`` that is recognisably a sum/count/min/max of
  integer fields becomes built-in aggregates (order does not change them;
  ``_builtin_aggregates``), followed by a ``ProcessWindowFunction`` whose ``process`` yields one
  Column expression per result; anything else runs
  the user's functions per (key, window) with ``applyInPandas`` (``runtime/frame_windows.py``),
  elements ordered by timestamp (Flink: arrival order: NOTE F2S223 when those can differ).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, replace
from typing import Optional, Union

import libcst as cst

from flink2spark.rules.pyflink._builtin_aggregates import Aggregates, aggregate_function, rebound_builtins, then_process
from flink2spark.rules.pyflink._common import call_arg, followed
from flink2spark.rules.pyflink._count_windows import SEQ, CountPlan
from flink2spark.transpiler import pyflink_model as P
from flink2spark.transpiler import python_columns as PC
from flink2spark.transpiler.visitors import nodes

TIMESTAMP_COLUMN = "ts"  # the DataFrame column holding the record timestamp (TimestampType)
WINDOW_COLUMN = "window"

_UNITS = {  # factory -> milliseconds per unit
    ("Time", "milliseconds"): 1, ("Time", "seconds"): 1000, ("Time", "minutes"): 60_000, ("Time", "hours"): 3_600_000,
    ("Time", "days"): 86_400_000,
    ("Duration", "of_millis"): 1, ("Duration", "of_seconds"): 1000, ("Duration", "of_minutes"): 60_000,
    ("Duration", "of_hours"): 3_600_000, ("Duration", "of_days"): 86_400_000,
}
_SPARK_UNITS = ((86_400_000, "days"), (3_600_000, "hours"), (60_000, "minutes"), (1000, "seconds"), (1, "milliseconds"))
_INTEGERS = ("tinyint", "smallint", "int", "bigint")


def duration_millis(resolver, node: Optional[cst.BaseExpression]) -> Optional[int]:
    """Milliseconds of ``Time.seconds(10)``, ``Duration.of_millis(500)``... with an integer
    literal (names followed once); None otherwise."""
    node = followed(resolver, node) if node is not None else None
    if not (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and len(node.args) == 1):
        return None
    owner = (resolver.qualified_name(node.func.value) or "").rsplit(".", 1)[-1]
    unit = _UNITS.get((owner, node.func.attr.value))
    if unit is None or not (resolver.qualified_name(node.func.value) or "").startswith("pyflink."):
        return None
    value = node.args[0].value
    negative = isinstance(value, cst.UnaryOperation) and isinstance(value.operator, cst.Minus)
    if negative:
        value = value.expression  # type: ignore[attr-defined]
    if not isinstance(value, cst.Integer):
        return None
    return (-1 if negative else 1) * int(value.value) * unit


def interval(ms: int) -> str:
    """Spark's interval text for ``ms`` milliseconds, in the largest unit that is exact."""
    if ms == 0:
        return "0 seconds"
    for size, name in _SPARK_UNITS:
        if ms % size == 0:
            return f"{ms // size} {name}"
    raise AssertionError(ms)


@dataclass(frozen=True)
class WindowPlan:
    """How records fall into windows: ``kind`` "tumbling", "sliding" or "session", sizes in ms."""

    kind: str
    size: int  # session: the gap
    slide: int
    offset: int = 0

    def column(self, ts: str = TIMESTAMP_COLUMN) -> str:
        """The window Column's code (``F`` is ``pyspark.sql.functions``)."""
        if self.kind == "session":
            return f"F.session_window({ts!r}, {interval(self.size)!r})"
        args = [repr(ts), repr(interval(self.size))]
        if self.kind == "sliding":
            args.append(repr(interval(self.slide)))
        if self.offset:
            if self.kind == "tumbling":
                args.append("None")
            args.append(repr(interval(self.offset)))
        return f"F.window({', '.join(args)})"

    def ends(self, ts: int) -> int:
        """The end of the earliest-ending window of a record at ``ts`` (not merged)."""
        if self.kind == "session":
            return ts + self.size
        start = ts - (ts - self.offset + self.slide) % self.slide  # Flink's getWindowStartWithOffset
        return start + self.slide if self.kind == "sliding" else start + self.size


def window_plan(resolver, assigner: Optional[cst.BaseExpression]) -> Union[WindowPlan, str]:
    """The ``WindowPlan`` of an event-time assigner expression (original), or why none."""
    node = followed(resolver, assigner) if assigner is not None else None
    if not (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute)):
        return "the window assigner cannot be followed"
    q = resolver.qualified_name(node.func.value) or ""
    name, factory = q.rsplit(".", 1)[-1], node.func.attr.value
    if not q.startswith("pyflink."):
        return "not a PyFlink window assigner"
    sizes = [duration_millis(resolver, a.value) for a in node.args if a.keyword is None]
    if None in sizes or any(a.keyword is not None for a in node.args):
        return f"{name}.{factory}(): sizes that are not Time/Duration of an integer literal"
    if (name, factory) == ("TumblingEventTimeWindows", "of") and len(sizes) in (1, 2):
        plan = WindowPlan("tumbling", sizes[0], sizes[0], sizes[1] if len(sizes) == 2 else 0)
    elif (name, factory) == ("SlidingEventTimeWindows", "of") and len(sizes) in (2, 3):
        plan = WindowPlan("sliding", sizes[0], sizes[1], sizes[2] if len(sizes) == 3 else 0)
    elif (name, factory) == ("EventTimeSessionWindows", "with_gap") and len(sizes) == 1:
        plan = WindowPlan("session", sizes[0], sizes[0])
    else:
        return f"{name}.{factory}(): no Spark window function has this assigner's form"
    if plan.size <= 0 or plan.slide <= 0 or abs(plan.offset) >= plan.slide:
        return f"{name}.{factory}(): sizes Flink refuses (the program fails on Flink)"
    return plan


# --------------------------------------------------------------------------------------------
# timestamps and watermarks


def watermark_delay(resolver, strategy: Optional[cst.BaseExpression]) -> Union[int, None, str]:
    """The out-of-orderness (ms) of a WatermarkStrategy chain: 0 for
    ``for_monotonous_timestamps()``, d for ``for_bounded_out_of_orderness(d)``; None for
    ``no_watermarks()`` (no watermark before the end of the input); a str when not known."""
    node = followed(resolver, strategy) if strategy is not None else None
    for _ in range(20):
        if not (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute)):
            break
        method = node.func.attr.value
        if method == "for_monotonous_timestamps":
            return 0
        if method == "no_watermarks":
            return None
        if method == "for_bounded_out_of_orderness":
            delay = duration_millis(resolver, call_arg(node, 0, "max_out_of_orderness"))
            return "the out-of-orderness is not a literal Duration" if delay is None else delay
        node = followed(resolver, node.func.value)
    return "the watermark strategy cannot be followed"


def extract_function(assigner: cst.ClassDef) -> Union[cst.Lambda, str]:
    """``extract_timestamp(self, value, record_timestamp)`` of a TimestampAssigner class whose
    body is one ``return EXPR`` of the value only, as ``lambda value: EXPR``."""
    method = next((s for s in assigner.body.body if isinstance(s, cst.FunctionDef) and s.name.value == "extract_timestamp"), None)
    if method is None:
        return f"{assigner.name.value} has no extract_timestamp()"
    params = method.params.params
    body = method.body.body
    if len(params) != 3 or isinstance(method.params.star_arg, cst.Param) or method.params.kwonly_params or method.decorators:
        return "extract_timestamp() does not take (self, value, record_timestamp)"
    if not (len(body) == 1 and isinstance(body[0], cst.SimpleStatementLine) and len(body[0].body) == 1
            and isinstance(body[0].body[0], cst.Return) and body[0].body[0].value is not None):
        return "extract_timestamp() is more than one return statement"
    expr = body[0].body[0].value
    used = {n.value for n in _names(expr)}
    if params[0].name.value in used or params[2].name.value in used:
        return "extract_timestamp() reads self or the record's previous timestamp"
    return cst.Lambda(params=cst.Parameters(params=[cst.Param(name=params[1].name)]), body=expr)


def timestamp_column(function: cst.Lambda, shape: PC.Shape, qualified=None) -> Union[PC.Output, str]:
    """The Column (code) of the record timestamp, in epoch milliseconds (an integer), or why
    not. Flink takes the assigner's result as a Java long: an int within 64 bits."""
    found = PC.translate(function, shape, checked=True, qualified=qualified)
    if isinstance(found, PC.Refusal):
        return f"extract_timestamp(): {found.reason}"
    if found.tuple or found.outputs[0].type not in _INTEGERS or found.notes:
        return "extract_timestamp() does not return an integer field of the record"
    return found.outputs[0]


def with_timestamp(frame: str, millis: PC.Output) -> str:
    """``frame.withColumn("ts", F.timestamp_millis(...))``."""
    return f"{frame}.withColumn({TIMESTAMP_COLUMN!r}, F.timestamp_millis({millis.code}))"


def literal_values(elements, column: str, shape: PC.Shape, resolver=None) -> Optional[list]:
    """The value of the Column ``column`` (a field: ``F.col("f2")``) in each literal element of
    a collection, in order, when each is a string literal or an integer constant (literals,
    ``+ - *`` of them and, with a ``resolver``, names assigned one); None otherwise."""
    names = [f.name for f in shape.fields]
    field = next((n for n in names if column == f"F.col({n!r})" or column == f'F.col("{n}")'), None)
    if elements is None or field is None:
        return None
    index, found = names.index(field), []
    for element in elements:
        if isinstance(element, (cst.Tuple, cst.List)):
            values = [e.value for e in element.elements]
        elif isinstance(element, cst.Call) and not any(a.keyword for a in element.args):  # Row(...)
            values = [a.value for a in element.args]
        elif shape.kind == "value":
            values = [element]
        else:
            return None
        value = values[index] if index < len(values) else None
        if isinstance(value, cst.SimpleString):
            found.append(value.evaluated_value)
            continue
        number = _constant(value, resolver)
        if number is None:
            return None
        found.append(number)
    return found


def _constant(node, resolver, depth: int = 0, field=None) -> Optional[int]:
    """The integer an expression of integer literals, ``+ - *`` and constant names is;
    ``field``: what a subscript (``value[2]``) is, when it may be one."""
    if depth > 10:
        return None
    if isinstance(node, cst.Integer):
        return int(node.evaluated_value)
    if field is not None and isinstance(node, cst.Subscript):
        return field(node)
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        inner = _constant(node.expression, resolver, depth + 1, field)
        return None if inner is None else -inner
    if isinstance(node, cst.Name) and resolver is not None:
        value = resolver.single_value(node)
        return _constant(value, resolver, depth + 1) if value is not None else None
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, (cst.Add, cst.Subtract, cst.Multiply)):
        a, b = _constant(node.left, resolver, depth + 1, field), _constant(node.right, resolver, depth + 1, field)
        if a is None or b is None:
            return None
        return a + b if isinstance(node.operator, cst.Add) else a - b if isinstance(node.operator, cst.Subtract) else a * b
    return None


def late_records(timestamps: Optional[list[int]], delay: Union[int, None, str], plan: WindowPlan, batch: bool,
                 lateness: int = 0, unknown: str = "the timestamps of the records are not known here") -> Optional[str]:
    """Why Flink may drop records a batch window in Spark counts (a NOTE's text), or None when
    no record can be late: in BATCH mode, without watermarks, or when every record's windows
    end after the watermark the records before it can make (largest timestamp - delay - 1 ms:
    Flink's window has fired without a record whose window's last millisecond is at or behind
    it). ``lateness``: ``allowed_lateness(ms)``; such a record then fires its window again (an
    extra, updated result) unless the watermark is ``lateness`` ms past the window too, when it
    is dropped. Both engines of the conversion (batch windows, the shim's windows) fire every
    window once, at the end of the input, with all its records."""
    if batch or delay is None:
        return None
    if isinstance(delay, str):
        why = delay
    elif timestamps is None:
        why = unknown
    else:
        late = [ts for i, ts in enumerate(timestamps) if i and plan.ends(ts) - 1 <= max(timestamps[:i]) - delay - 1]
        if not late:
            return None
        why = f"the record at {late[0]} ms comes after one at {max(timestamps[:timestamps.index(late[0])])} ms"
    minus = f" minus {delay} ms" if isinstance(delay, int) and delay else "" if isinstance(delay, int) else " minus the delay"
    what = (" drops a record whose window has ended behind it (which records depends on timing), Spark's batch window"
            " counts every record")
    if lateness:
        what = (" makes late a record whose window has ended behind it (which records depends on timing): within"
                f" {f'allowed_lateness ({lateness} ms)' if lateness > 0 else 'the allowed lateness'} of the window's end Flink fires that window again with it (an extra,"
                " updated result), after that it drops it; the conversion fires each window once, at the end, with every record")
    return f"event-time windows: {why}; Flink's periodic watermark (every 200 ms, at the largest timestamp so far{minus} minus 1 ms)" + what


_INTERVAL = "pipeline.auto-watermark-interval"


def periodic_watermarks(resolver) -> bool:
    """Whether Flink emits watermarks before the end of a bounded input: False only when the
    program turns the periodic watermark off, every setting of the interval being 0
    (``env.get_config().set_auto_watermark_interval(0)``, ``Configuration.set_string(
    "pipeline.auto-watermark-interval", "0 ms")``): the strategies' generators then emit
    nothing per record, only Flink's final watermark fires the windows (late_program.py so
    set gave the batch result in two runs on Flink 2.3), as in both forms of the conversion."""
    settings = []
    for call in resolver.calls_of("set_auto_watermark_interval"):
        if resolver.type_of(call.func.value) == P.EXECUTION_CONFIG:  # type: ignore[attr-defined]
            arg = call_arg(call, 0, "interval")
            settings.append(arg is not None and _constant(arg, resolver) == 0)
    for call in resolver.calls_of("set_string"):
        key, value = call_arg(call, 0, "key"), call_arg(call, 1, "value")
        if isinstance(key, cst.SimpleString) and key.evaluated_value == _INTERVAL:
            text = value.evaluated_value.strip() if isinstance(value, cst.SimpleString) else None
            settings.append(text is not None and text.split(" ")[0] == "0" and text.lstrip("0 ") in ("", "ms", "s", "min"))
    return not (settings and all(settings))


def shim_late(g, call: cst.Call) -> Optional[str]:
    """``late_records`` for a window function ``call`` the shim runs on a bounded stream (the
    RDD form: its windows fire at the end of the input with every record; no watermark before): the window, its
    ``allowed_lateness`` and the literal timestamps of the collection the timestamps are
    assigned to, from the program model. Only event-time windows (a str when the window's
    assigner is one that cannot be planned)."""
    from flink2spark.rules.pyflink._time import WINDOW_SETTINGS
    from flink2spark.rules.pyflink.windows import EVENT_TIME

    resolver = g.resolver
    windowed = call.func.value  # type: ignore[attr-defined]
    window = g.node(windowed).window_call
    if window is None or g.node(windowed).windowed_by not in {name for name, _ in EVENT_TIME} or g.runtime_mode == "batch":
        return None
    if g.node(windowed).micro_batches:  # an unbounded stream: Spark's own watermark (rule windows' NOTEs)
        return None
    lateness, node = 0, followed(resolver, windowed)
    for _ in range(20):  # the settings between the window and the function
        if not (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value in WINDOW_SETTINGS):
            break
        if node.func.attr.value == "allowed_lateness":
            arg = call_arg(node, 0, "time_ms")
            found = _constant(arg, resolver) if arg is not None else None
            found = found if found is not None else duration_millis(resolver, arg) if arg is not None else None
            lateness = found if found is not None else -1  # some lateness, not known here
        node = followed(resolver, node.func.value)
    plan = window_plan(resolver, call_arg(window, 0, "window_assigner"))
    stamped = _stamped_input(resolver, window)
    if stamped is None:
        why = "the watermark strategy of the window's input cannot be followed" if periodic_watermarks(resolver) else None
        return late_records(None, why, plan, False, lateness)
    delay = watermark_delay(resolver, call_arg(stamped, 0, "watermark_strategy")) if periodic_watermarks(resolver) else None
    timestamps = None
    cls = _assigner_class(resolver, call_arg(stamped, 0, "watermark_strategy"))
    function = extract_function(cls) if cls is not None else None
    elements = g.node(stamped.func.value).literal_elements  # type: ignore[attr-defined]
    if isinstance(function, cst.Lambda) and elements is not None and isinstance(plan, WindowPlan):
        timestamps = _literal_field(function, elements, resolver)
    unknown = f"the windows' ends are not known here ({plan})" if isinstance(plan, str) else None
    return late_records(timestamps, delay, plan, False, lateness, *([unknown] if unknown else []))


# operators between the timestamps and a window that keep each record's timestamp and order (one
# record in, at most one out or copies of it): Flink's watermark makes the same records late or fewer
_KEEP_ORDER = ("map", "filter", "flat_map")


def _stamped_input(resolver, window: cst.Call) -> Optional[cst.Call]:
    """The ``assign_timestamps_and_watermarks`` call whose records ``window`` (a ``window``/
    ``window_all`` call) windows, through ``key_by`` and ``_KEEP_ORDER`` operators, or None."""
    node = followed(resolver, window.func.value)  # type: ignore[attr-defined]
    if window.func.attr.value == "window":  # type: ignore[attr-defined]
        ok = isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "key_by"
        node = followed(resolver, node.func.value) if ok else None  # type: ignore[union-attr]
    for _ in range(20):
        if not (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and P.is_stream(resolver.type_of(node.func.value))):
            return None
        if node.func.attr.value == "assign_timestamps_and_watermarks":
            return node
        if node.func.attr.value not in _KEEP_ORDER:
            return None
        node = followed(resolver, node.func.value)
    return None


def _literal_field(function: cst.Lambda, elements, resolver) -> Optional[list[int]]:
    """What ``lambda value: EXPR`` gives for each literal tuple/list element, EXPR being
    integer constants, fields ``value[i]`` of integer constants and ``+ - *`` of them; or None."""
    from flink2spark.transpiler.visitors import nodes

    param = function.params.params[0].name.value
    uses = sum(n.value == param for n in _names(function.body))
    if uses != sum(isinstance(n.value, cst.Name) and n.value.value == param for n in nodes(function.body, cst.Subscript)):
        return None  # the value itself somewhere, not only fields of it
    found = []
    for element in elements:
        if not isinstance(element, (cst.Tuple, cst.List)):
            return None
        values = [e.value for e in element.elements]

        def field(node, values=values):
            if not (isinstance(node.value, cst.Name) and node.value.value == param and len(node.slice) == 1
                    and isinstance(node.slice[0].slice, cst.Index)):
                return None
            index = _constant(node.slice[0].slice.value, None)
            return _constant(values[index], resolver) if index is not None and 0 <= index < len(values) else None

        number = _constant(function.body, resolver, field=field)
        if number is None:
            return None
        found.append(number)
    return found


# --------------------------------------------------------------------------------------------
# aggregates


def reduce_aggregates(function: cst.Lambda, shape: PC.Shape, key_field: Optional[str]) -> Union[Aggregates, str]:
    """A reduce ``lambda a, b: (a[0], a[1] + b[1])`` whose every field is the key field of the
    first, ``a[i] + b[i]``, ``max(a[i], b[i])`` or ``min(a[i], b[i])`` of integer fields (the
    order of the records changes none of them), or ``lambda a, b: a + b`` / ``max`` over a
    basic integer value; else why not."""
    params = function.params.params
    if len(params) != 2 or isinstance(function.params.star_arg, cst.Param):
        return "the reduce function does not take two records"
    a, b = params[0].name.value, params[1].name.value
    body = function.body
    parts = [e.value for e in body.elements] if isinstance(body, cst.Tuple) else [body]
    if shape.kind == "value" and isinstance(body, cst.Tuple):
        return "the reduce function builds a tuple of basic values"
    if shape.kind == "row":  # the tuple it builds goes on under a Row type: not the record Flink's serializer takes
        return "a reduce over Rows"
    if shape.kind != "value" and (not isinstance(body, cst.Tuple) or len(parts) != len(shape.fields)):
        return "the reduce function does not build a record of the same fields"
    columns, outputs = [], []
    for i, (part, field) in enumerate(zip(parts, shape.fields)):
        agg = _reduce_part(part, a, b, None if shape.kind == "value" else i)
        if agg == "first" and field.name == key_field:
            pass  # the key: the grouping column of that name
        elif agg in ("sum", "max", "min") and field.type in _INTEGERS and not field.nullable:
            cast = "" if agg != "sum" else f".cast({field.type!r})"  # Flink's type: overflow fails both jobs (ANSI)
            columns.append(f"F.{agg}({field.name!r}){cast}.alias({field.name!r})")
        else:
            return f"field {i} of the reduce is not a sum/min/max of an integer field or the key"
        outputs.append(PC.Output(f"F.col({field.name!r})", field.type, field.nullable, field.name))
    return Aggregates(tuple(columns), tuple(outputs), shape.kind != "value")


def _reduce_part(part, a: str, b: str, index: Optional[int]) -> Optional[str]:
    def field(node, name):
        if index is None:
            return isinstance(node, cst.Name) and node.value == name
        return (isinstance(node, cst.Subscript) and isinstance(node.value, cst.Name) and node.value.value == name
                and len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index)
                and isinstance(node.slice[0].slice.value, cst.Integer) and int(node.slice[0].slice.value.value) == index)

    if field(part, a):
        return "first"
    if isinstance(part, cst.BinaryOperation) and isinstance(part.operator, cst.Add):
        if {field(part.left, a), field(part.right, b)} == {True} or {field(part.left, b), field(part.right, a)} == {True}:
            return "sum"
    if (isinstance(part, cst.Call) and isinstance(part.func, cst.Name) and part.func.value in ("max", "min")
            and len(part.args) == 2 and not any(x.keyword or x.star for x in part.args)):
        x, y = part.args[0].value, part.args[1].value
        if (field(x, a) and field(y, b)) or (field(x, b) and field(y, a)):
            return part.func.value
    return None


def aliased(code: str, name: str) -> str:
    """``code.alias(name)``, the code in parentheses unless it is a call or an attribute."""
    simple = isinstance(ast.parse(code, mode="eval").body, (ast.Call, ast.Attribute, ast.Name))
    return f"{code if simple else '(' + code + ')'}.alias({name!r})"


def _names(node: cst.CSTNode) -> list[cst.Name]:
    from flink2spark.transpiler.visitors import nodes

    return nodes(node, cst.Name)


def window_aggregate(frame: str, key: Optional[str], plan: "WindowPlan | CountPlan", aggregates: Aggregates) -> str:
    """``frame.groupBy(key, F.window(...)).agg(...).select(...)`` over a frame whose column
    ``key`` is the key_by selector's field (None: ``window_all``, no key): one row per (key,
    window) with the aggregates' result columns."""
    aggregates = _named_at_once(aggregates, key)
    keys = "" if key is None else f"{key!r}, "
    if isinstance(plan, CountPlan):  # full count windows only: (key, window id) groups of `size` records
        counted = f"{plan.numbered(frame, key)}.groupBy({key!r}, {WINDOW_COLUMN!r})"
        grouped = f"{counted}.agg({', '.join(aggregates.columns)}, F.count('*').alias('records')).where({plan.full()})"
    else:
        grouped = f"{frame}.groupBy({keys}{plan.column()}.alias({WINDOW_COLUMN!r})).agg({', '.join(aggregates.columns)})"
    select = [repr(o.name) if o.code in (f"F.col({o.name!r})", f'F.col("{o.name}")') else aliased(o.code, o.name or f"f{i}")
              for i, o in enumerate(aggregates.result)]
    return f"{grouped}.select({', '.join(select)})"


def _named_at_once(aggregates: Aggregates, key: str) -> Aggregates:
    """The aggregates with their result names where a result is one of them as it is
    (``F.count("*").alias("f1")`` rather than ``.alias("acc0")`` and ``F.col("acc0").alias("f1")``),
    unless that name is the grouping key's (it would be ambiguous)."""
    columns, result = list(aggregates.columns), list(aggregates.result)
    for i, out in enumerate(result):
        for j, column in enumerate(columns):
            suffix = f".alias('acc{j}')" if column.endswith(f".alias('acc{j}')") else None
            if suffix is None or out.name is None or out.name.startswith("acc") or out.name == key or out.code not in (f'F.col("acc{j}")', f"F.col('acc{j}')"):
                continue
            if sum(o.code == out.code for o in result) == 1:
                columns[j] = column[: -len(suffix)] + f".alias({out.name!r})"
                result[i] = PC.Output(f"F.col({out.name!r})", out.type, out.nullable, out.name, out.range)
    return replace(aggregates, columns=tuple(columns), result=tuple(result))


# --------------------------------------------------------------------------------------------
# window functions: the user's function per (key, window) with applyInPandas


_SESSION_RECORDS = "records"  # a session's records, between its aggregation and its rows again


def window_bounds(frame: str, plan: WindowPlan, key: Optional[str] = None, columns: Optional[list[str]] = None) -> Optional[str]:
    """A keyed ``frame`` with one row per (record, window): a ``window`` column (struct of
    ``start``, ``end``). Spark merges session windows in an aggregation only (``F.session_window``
    in ``withColumn`` gives each record its own ``[t, t + gap)``, checked): a session's records
    are collected per (``key``, session) and made rows again with the session's bounds
    (``columns``: the frame's, the timestamp's included); None for sessions without them."""
    if plan.kind == "session":
        if columns is None:
            return None
        keys = f"{key!r}, " if key is not None else ""
        struct = ", ".join(repr(c) for c in columns)
        return (f"{frame}.groupBy({keys}{plan.column()}.alias({WINDOW_COLUMN!r}))"
                f".agg(F.collect_list(F.struct({struct})).alias({_SESSION_RECORDS!r}))"
                f".select({WINDOW_COLUMN!r}, F.inline({_SESSION_RECORDS!r}))")
    return f"{frame}.withColumn({WINDOW_COLUMN!r}, {plan.column()})"


def per_window(grouped: str, key: Optional[str], function: str, method: str, fields: list[str], kind: str, output: PC.Shape,
               order: Optional[str], runtime: str = "f2s_windows", count: Optional[int] = None) -> str:
    """``grouped.groupBy("key", <window start>, <window end>).applyInPandas(<runtime>.per_window(...),
    schema)`` over a frame with the ``key`` and ``window`` columns: the user's window function object
    (code ``function``) on each window's elements; ``key`` None: ``window_all``, grouped by the
    window only, the function called without a key (``ProcessAllWindowFunction``...)."""
    names = [f.name for f in output.fields]
    schema = ", ".join(f"{f.name} {f.type.upper()}" for f in output.fields)
    args = [function, repr(method), repr(fields), repr(kind), repr(names)]
    if order is not None:
        args.append(repr(order))
    if key is None:
        args.append("keyed=False")
    if count is not None:  # a count window: grouped by (key, window id), which the function gets as a CountWindow
        args.append(f"count={count}")
        return f"{grouped}.groupBy({key!r}, {WINDOW_COLUMN!r}).applyInPandas({runtime}.per_window({', '.join(args)}), {schema!r})"
    bounds = ", ".join(f"F.unix_millis({WINDOW_COLUMN + '.' + b!r}).alias({b!r})" for b in ("start", "end"))
    keys = "" if key is None else f"{key!r}, "
    return f"{grouped}.groupBy({keys}{bounds}).applyInPandas({runtime}.per_window({', '.join(args)}), {schema!r})"


def arrival_order(timestamps: Optional[list[int]], keys: Optional[list[object]], batch: bool) -> Optional[str]:
    """Why the elements of a window may reach the function in another order than Flink's
    (a NOTE's text), or None: Flink hands them in arrival order (BATCH mode: by timestamp, its
    sort of the keyed input), the conversion by timestamp; the same when each key's literal
    timestamps increase."""
    if batch:
        return None
    if timestamps is not None and keys is not None:
        last: dict[object, int] = {}
        for key, ts in zip(keys, timestamps):
            if key in last and ts <= last[key]:  # ties: Spark gives them in no set order
                break
            last[key] = ts
        else:
            return None
        why = f"records of key {key!r} come out of timestamp order"
    else:
        why = "the order of the records' timestamps is not known here"
    return (f"window function per (key, window) with applyInPandas: {why}; it gets each window's elements in timestamp"
            " order, Flink in arrival order (same results unless the function depends on the order)")


# --------------------------------------------------------------------------------------------
# the frame form: the program model's entries (_streams.NATIVE_CONSUMERS) and the plan of one
# window function call, computed once per call


@dataclass(frozen=True)
class FrameWindow:
    """How ``key_by(k).window(assigner).<function>(...)`` over a frame is lowered."""

    plan: "WindowPlan | CountPlan"  # CountPlan: count_window (rules/pyflink/_count_windows.py)
    key: Optional[str]  # the column key_by keys by; None: window_all (one group per window)
    output: PC.Shape  # the frame the window function makes
    aggregates: Optional[Aggregates]  # built-in aggregates; None: the function per window
    kind: str  # how an element reaches the function: "tuple", "row", "value"
    late: Optional[str]  # a NOTE (F2S270): records Flink's watermark can drop
    order: Optional[str]  # a NOTE (F2S271): elements in timestamp order, not Flink's
    method: str = "process"  # what per_window calls: process(key, context, elements) or apply(key, window, elements)


# the argument holding the function of each window function method
FUNCTION_ARGS = {"reduce": "reduce_function", "aggregate": "aggregate_function", "process": "function", "apply": "window_function"}


def _receiver(resolver, call: cst.Call, method: str) -> Optional[cst.Call]:
    """The call ``x.method(...)`` that ``call``'s receiver is (through a name), or None."""
    node = followed(resolver, call.func.value)  # type: ignore[attr-defined]
    ok = isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == method
    return node if ok else None


def _assigner_class(resolver, strategy) -> Optional[cst.ClassDef]:
    from flink2spark.rules.pyflink._common import instance_class

    node = followed(resolver, strategy) if strategy is not None else None
    for _ in range(20):
        if not (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute)):
            return None
        if node.func.attr.value == "with_timestamp_assigner":
            return instance_class(resolver, call_arg(node, 0, "timestamp_assigner"))
        node = followed(resolver, node.func.value)
    return None


def unread_assigner(resolver, call: cst.Call) -> Optional[cst.ClassDef]:
    """The timestamp assigner class of ``assign_timestamps_and_watermarks(strategy)`` (the
    original call) when the frame's timestamp column replaces its only use: a class of the
    module's top level, undecorated, whose every read stands inside ``call`` (the strategy
    written there, not in a variable). None otherwise: the class stays."""
    return read_only_in(resolver, _assigner_class(resolver, call_arg(call, 0, "watermark_strategy")), call)


def read_only_in(resolver, cls: Optional[cst.ClassDef], call: cst.CSTNode) -> Optional[cst.ClassDef]:
    """``cls`` when it is a class of the module's top level, undecorated, bound once, whose
    every read stands inside ``call`` (an original node): the conversion can drop it when it
    replaces ``call`` by code that does not read it. None otherwise."""
    if cls is None or cls.decorators or cls not in resolver.module.body:
        return None
    bindings = resolver.scope_bindings(cls.name) or []
    if len(bindings) != 1 or bindings[0].node is not cls:
        return None
    inside = {id(n) for n in nodes(call, cst.Name)}
    reads = bindings[0].references
    return cls if reads and all(id(r.node) in inside for r in reads) else None


def stamp(g, call: cst.Call, shape: PC.Shape) -> Optional[PC.Output]:
    """The timestamp Column of ``assign_timestamps_and_watermarks(strategy)`` over a frame of
    ``shape``: the assigner's ``extract_timestamp`` translated; None when it is not exact."""
    def compute(g, call, shape):
        function = assigner_function(g, call)
        if isinstance(function, cst.Lambda):
            function = _constants_inlined(g.resolver, function)
        found = timestamp_column(function, shape, g.resolver.qualified_name) if isinstance(function, cst.Lambda) else function
        return found if isinstance(found, PC.Output) and not found.nullable else None

    return g.fact("frame_stamp", call, compute, None, shape)


def assigner_function(g, call: cst.Call) -> Union[cst.Lambda, str]:
    """The assigner's ``extract_timestamp`` of ``assign_timestamps_and_watermarks`` ``call`` as a
    lambda of the value (original nodes), or why not."""
    cls = _assigner_class(g.resolver, call_arg(call, 0, "watermark_strategy"))
    return extract_function(cls) if cls is not None else "no assigner class"


class _Inline(cst.CSTTransformer):
    """Names of integer constants (``MINUTE = 60_000`` at the module's top) as their literal."""

    def __init__(self, resolver, param: str):
        super().__init__()
        self.resolver, self.param = resolver, param

    def leave_Name(self, original_node, updated_node):
        if original_node.value == self.param:
            return updated_node
        value = _constant(original_node, self.resolver)
        if value is None:
            return updated_node
        return cst.Integer(str(value)) if value >= 0 else cst.UnaryOperation(cst.Minus(), cst.Integer(str(-value)))

    def leave_Attribute(self, original_node, updated_node):
        return updated_node.with_changes(attr=original_node.attr)  # x.MINUTE is not the constant

    def leave_Arg(self, original_node, updated_node):
        return updated_node.with_changes(keyword=original_node.keyword)


def _constants_inlined(resolver, function: cst.Lambda) -> cst.Lambda:
    param = function.params.params[0].name.value
    return function.with_changes(body=function.body.visit(_Inline(resolver, param)))


def key_column(g, call: cst.Call, shape: PC.Shape) -> Optional[PC.Output]:
    """The key Column of ``key_by(selector)`` over a frame (the selector translated)."""
    from flink2spark.rules.pyflink._frames import function_node

    function = function_node(g.resolver, call_arg(call, 0, "key_selector"), "get_key")
    found = PC.translate(function, shape, qualified=g.resolver.qualified_name) if function is not None else None
    if not isinstance(found, PC.Translation) or found.tuple or found.notes:
        return None
    return found.outputs[0]


def _uses_are(g, call: cst.Call, methods) -> bool:
    uses = _uses(g, call)
    return bool(uses) and all(u.func.attr.value in methods for u in uses)  # type: ignore[attr-defined]


def stamped_shape(g, call: cst.Call, shape: PC.Shape) -> Optional[PC.Shape]:
    """NATIVE_CONSUMERS: ``assign_timestamps_and_watermarks`` over a frame adds a timestamp
    column, read only by ``key_by`` and event-time windows or keyed ``process`` after it (a
    StatefulProcessor, ``_stateful``, which drops the column): other operators would carry the
    column along."""
    if unread_stamps(g, call) and stamp(g, call, shape) is not None:
        return shape  # no operator after it reads a timestamp (and the assigner is a field expression, which cannot fail): the frame goes on as it is
    if g.node(call.func.value).micro_batches and stream_delay(g, call) is None:  # type: ignore[attr-defined]
        return None  # an unbounded stream: Spark's watermark needs the delay
    if stamp(g, call, shape) is None or any(f.name == TIMESTAMP_COLUMN for f in shape.fields):
        return None  # (a field named as the timestamp column: withColumn would replace it)
    if _uses_are(g, call, ("key_by",)) and all(_uses_are(g, key_by, ("window", "count_window", "process")) for key_by in _uses(g, call)):
        return shape
    if _uses_are(g, call, ("connect",)):  # a KeyedCoProcessFunction reads the assigner's field itself (_stateful.two_input_plan)
        # (the plan itself needs this frame's shape: the connect's own entry checks it)
        if all(_uses_are(g, use, ("key_by",)) and all(_uses_are(g, k, ("process",)) for k in _uses(g, use)) for use in _uses(g, call)):
            return shape
    return shape if _windows_only(g, call) else None


_CARRIERS = ("map", "filter")  # frame operators that carry the timestamp column along (select(..., "ts") / where)


def _windows_only(g, call: cst.Call, depth: int = 0) -> bool:
    """Whether every use of the stream ``call`` makes, through ``map``/``filter`` (which carry
    the timestamp column), is an event-time window: ``window_all(...)`` or ``key_by(...)`` read
    only by ``window(...)``. No other operator sees the column (a print would show it)."""
    uses = _uses(g, call)
    if not uses or depth > 20:
        return False
    for use in uses:
        method = use.func.attr.value  # type: ignore[attr-defined]
        if method == "key_by" and _uses_are(g, use, ("window", "count_window")) or method == "window_all":
            continue
        if method not in _CARRIERS or not _windows_only(g, use, depth + 1):
            return False
    return True


def stamp_of(g, stream: cst.BaseExpression) -> Optional[cst.Call]:
    """The ``assign_timestamps_and_watermarks`` call (original) whose timestamp column the frame
    of ``stream`` carries: that call, or a ``map``/``filter`` of it (``_windows_only``), through
    names; None otherwise."""
    node = followed(g.resolver, stream)
    for _ in range(20):
        if not (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute)):
            return None
        method = node.func.attr.value
        if method == "assign_timestamps_and_watermarks":
            return node if windows_read_stamp(g, node) else None
        if method not in _CARRIERS or _names_stamp(g, node):
            return None
        node = followed(g.resolver, node.func.value)
    return None


def _names_stamp(g, call: cst.Call) -> bool:
    """Whether the frame of ``call`` has a field named as the timestamp column (not carried)."""
    from flink2spark.rules.pyflink._streams import _frame_shape

    shape = g.fact("frame_shape", call, _frame_shape, None)
    return shape is None or any(f.name == TIMESTAMP_COLUMN for f in shape.fields)


def carries_stamp(g, call: cst.Call) -> bool:
    """Whether the ``map``/``filter`` ``call`` reads a frame with the timestamp column (it keeps it)."""
    return stamp_of(g, call.func.value) is not None  # type: ignore[attr-defined]


# operators that neither read a record's timestamp nor let a later one read it differently:
# records, rolling keyed aggregations and printed lines do not depend on it (a sink, a window, a
# process function, a timer may: not here)
_TIME_BLIND = frozenset({"map", "filter", "flat_map", "union", "key_by", "print", "sum", "min", "max", "min_by", "max_by",
                         "reduce", "name", "uid", "set_parallelism", "set_description", "set_max_parallelism",
                         "disable_chaining", "start_new_chain", "slot_sharing_group", "set_buffer_timeout", "forward",
                         "rebalance", "rescale", "shuffle"})
_ROLLING = ("sum", "min", "max", "min_by", "max_by", "reduce")


def unread_stamps(g, call: cst.Call) -> bool:
    """Whether no operator downstream of ``assign_timestamps_and_watermarks`` ``call`` reads the
    timestamps it assigns (or the watermarks): every use, and every use of theirs, is a
    ``_TIME_BLIND`` operator (a ``reduce``... only on a keyed stream: a rolling one). Such a stamp
    changes no record (Flink carries the timestamps along unread) and the frame drops it."""
    from flink2spark.rules.pyflink._streams import _frame_uses

    def compute(g, call):
        seen, todo = set(), [call]
        while todo:
            node = todo.pop()
            if id(node) in seen:
                continue
            seen.add(id(node))
            uses = _frame_uses(g, node)
            if uses is None:
                return False
            for use in uses:
                method = use.func.attr.value  # type: ignore[attr-defined]
                if method not in _TIME_BLIND or method in _ROLLING and g.resolver.type_of(use.func.value) != P.KEYED:  # type: ignore[attr-defined]
                    return False
                todo.append(use)
        return True

    return g.fact("unread_stamps", call, compute, False)


def windows_read_stamp(g, call: cst.Call) -> bool:
    """Whether the frame of ``assign_timestamps_and_watermarks`` ``call`` gets the timestamp
    column: a window reads it (a keyed ``process`` reads the assigner's field itself)."""
    return (any(u.func.attr.value == "window" for key_by in _uses(g, call) for u in _uses(g, key_by))  # type: ignore[attr-defined]
            or stamped_shape_uses_windows(g, call))


def stamped_shape_uses_windows(g, call: cst.Call) -> bool:
    """A stamp read by ``window_all`` or by windows after a ``map``/``filter``."""
    return not (_uses_are(g, call, ("key_by",)) and all(_uses_are(g, k, ("window", "count_window", "process")) for k in _uses(g, call))) \
        and _windows_only(g, call)


def _uses(g, call: cst.Call) -> list:
    """The calls reading the stream ``call`` makes, also through a name assigned again
    (``s = s.assign_timestamps_and_watermarks(...)``); [] when one cannot be followed."""
    from flink2spark.rules.pyflink._streams import _frame_uses

    return _frame_uses(g, call) or []


def windowed_shape(g, call: cst.Call, shape: PC.Shape) -> Optional[PC.Shape]:
    """NATIVE_CONSUMERS: ``window(assigner)`` of such a keyed frame (the functions decide)."""
    if call.func.attr.value == "window_all":  # type: ignore[attr-defined]
        if stamp_of(g, call.func.value) is None:  # type: ignore[attr-defined]
            return None
    elif call.func.attr.value == "count_window":  # type: ignore[attr-defined]
        from flink2spark.rules.pyflink._count_windows import count_plan

        if g.resolver.type_of(call.func.value) != P.KEYED or count_plan(g, call) is None:  # type: ignore[attr-defined]
            return None
        return shape if _uses_are(g, call, tuple(FUNCTION_ARGS)) else None
    elif g.resolver.type_of(call.func.value) != P.KEYED or _receiver(g.resolver, call, "key_by") is None:  # type: ignore[attr-defined]
        return None
    if not isinstance(window_plan(g.resolver, call_arg(call, 0, "window_assigner")), WindowPlan):
        return None
    return shape if _uses_are(g, call, (*FUNCTION_ARGS, "allowed_lateness", "side_output_late_data")) else None


def lateness_shape(g, call: cst.Call, shape: PC.Shape) -> Optional[PC.Shape]:
    """NATIVE_CONSUMERS: ``allowed_lateness(ms)`` of such a window, read by window functions
    only: ``frame_window`` decides (a literal lateness, no record that can come late)."""
    if _receiver(g.resolver, call, "window") is None or _lateness(g, call) is None:
        return None
    return shape if _uses_are(g, call, (*FUNCTION_ARGS, "side_output_late_data")) else None


def late_tag_shape(g, call: cst.Call, shape: PC.Shape) -> Optional[PC.Shape]:
    """NATIVE_CONSUMERS: ``side_output_late_data(tag)`` of such a window (after its
    ``allowed_lateness``), read by window functions only: ``frame_window`` decides (no record
    can come late, so the late side output is empty: ``late_side_shape``)."""
    if (_receiver(g.resolver, call, "window") or _receiver(g.resolver, call, "allowed_lateness")) is None:
        return None
    return shape if _uses_are(g, call, tuple(FUNCTION_ARGS)) else None


def late_side_shape(g, call: cst.Call, shape: PC.Shape) -> Optional[PC.Shape]:
    """NATIVE_CONSUMERS: ``get_side_output(tag)`` of a frame window function whose window sends
    late records to ``tag`` (``side_output_late_data``): the tag's type, an empty frame (the
    function's frame form exists only when no record can come late)."""
    from flink2spark.rules.pyflink._side_outputs import _tag_shape, output_tag

    resolver = g.resolver
    function = followed(resolver, call.func.value)  # type: ignore[attr-defined]
    if not (isinstance(function, cst.Call) and isinstance(function.func, cst.Attribute) and function.func.attr.value in FUNCTION_ARGS):
        return None
    tagged = _receiver(resolver, function, "side_output_late_data")
    tag = output_tag(resolver, call_arg(call, 0, "output_tag"))
    if tagged is None or tag is None or output_tag(resolver, call_arg(tagged, 0, "output_tag")) != tag:
        return None
    return _tag_shape(resolver, tag[1])


def _lateness(g, call: cst.Call) -> Optional[int]:
    """The milliseconds of ``allowed_lateness(ms)`` (an integer constant), or None."""
    found = _constant(call_arg(call, 0, "time_ms"), g.resolver)
    return found if found is not None and found >= 0 else None


def function_shape(g, call: cst.Call, shape: PC.Shape) -> Optional[PC.Shape]:
    """NATIVE_CONSUMERS: ``reduce``/``aggregate``/``process``/``apply`` of such a window; on an
    unbounded stream only built-in aggregates of tumbling/sliding windows (``streaming_window``)."""
    found = frame_window(g, call, shape)
    if found is not None and g.node(call.func.value).micro_batches and not streaming_window(found):  # type: ignore[attr-defined]
        return None
    return found.output if found is not None else None


# Flink's event time on an unbounded stream and Spark's (rules/pyflink/_event_windows.py: the
# NOTE F2S272 of every such window). Both fire a window once, with its records, when the watermark
# passes its end: Flink's watermark is the largest timestamp so far - delay - 1 ms, a window
# [start, end) fires at watermark >= end - 1; Spark's (withWatermark(ts, delay), append mode) is
# the largest event time so far - delay, the window is emitted at watermark >= end: both when the
# largest timestamp reaches end + delay. They differ in which records come late (dropped):
# Flink's watermark advances every 200 ms (pipeline.auto-watermark-interval) per source split (a
# Kafka partition), the operator's is the minimum over its inputs (an idle partition holds it
# back, unless with_idleness), and a record whose windows all end at or before it is dropped;
# Spark's advances only between micro-batches (the largest event time of the earlier batches -
# delay, the minimum over the query's inputs), and a record is dropped only when its windows ended
# at or before that: within one micro-batch no record is late, and across partitions Spark's
# watermark may be ahead of Flink's (it drops a record Flink keeps). Without such records (no record
# more than the delay behind a later-window record read before it) both give the same windows.
STREAM_WATERMARK_NOTE = (
    "event-time windows on an unbounded stream: withWatermark(ts, delay) and the append mode emit a window once"
    " the largest timestamp reaches its end + delay, as Flink's watermark (largest timestamp - delay - 1 ms) fires it;"
    " late records differ: Flink drops a record whose windows ended at or before its watermark, advanced every 200 ms"
    " and the minimum over the source's partitions, Spark one whose windows ended at or before the watermark of the"
    " earlier micro-batches (largest event time seen - delay, over all partitions): records late within one"
    " micro-batch are counted, and one partition's lag drops records in Spark that Flink keeps"
)


def streaming_window(found: FrameWindow) -> bool:
    """Whether a window over an unbounded frame is a Structured Streaming aggregation: built-in
    aggregates of tumbling or sliding event-time windows (``groupBy(key, F.window(...))`` after
    ``withWatermark``, append mode). A function per window (``applyInPandas``), count windows
    (window functions over a frame) and merged sessions have no streaming form here."""
    return found.aggregates is not None and isinstance(found.plan, WindowPlan) and found.plan.kind in ("tumbling", "sliding")


def stream_delay(g, call: cst.Call) -> Optional[int]:
    """The watermark delay (ms) of ``assign_timestamps_and_watermarks(strategy)`` on an unbounded
    stream as ``withWatermark`` takes it: a literal out-of-orderness (0: monotonous) with
    Flink's periodic watermarks; None otherwise (no watermark: Flink's windows never fire)."""
    delay = watermark_delay(g.resolver, call_arg(call, 0, "watermark_strategy"))
    return delay if isinstance(delay, int) and delay >= 0 and periodic_watermarks(g.resolver) else None


def frame_window(g, call: cst.Call, shape: PC.Shape) -> Optional[FrameWindow]:
    """The lowering of the window function ``call`` over a windowed frame of ``shape``."""
    return g.fact("frame_window", call, _frame_window, None, shape)


def _frame_window(g, call: cst.Call, shape: PC.Shape) -> Optional[FrameWindow]:
    resolver = g.resolver
    if resolver.type_of(call.func.value) not in (P.WINDOWED, P.ALL_WINDOWED):  # type: ignore[attr-defined]
        return None
    tagged = _receiver(resolver, call, "side_output_late_data")
    lateness = _receiver(resolver, tagged or call, "allowed_lateness")
    window = _receiver(resolver, lateness or tagged or call, "window") or _receiver(resolver, call, "window_all")
    if window is None and (counted := _receiver(resolver, call, "count_window")) is not None:
        return _count_frame_window(g, call, counted, shape)
    every = window is not None and window.func.attr.value == "window_all"  # type: ignore[attr-defined]
    keyed = _receiver(resolver, window, "key_by") if window is not None and not every else None
    upstream = window.func.value if every else keyed.func.value if keyed is not None else None  # type: ignore[union-attr]
    stamped = stamp_of(g, upstream) if upstream is not None else None
    mode = g.runtime_mode
    if stamped is None or mode is None:
        return None
    from flink2spark.rules.pyflink._streams import _frame_shape

    stamped_shape_ = g.fact("frame_shape", stamped.func.value, _frame_shape, None)  # type: ignore[attr-defined]
    plan = window_plan(resolver, call_arg(window, 0, "window_assigner"))
    millis = stamp(g, stamped, stamped_shape_) if stamped_shape_ is not None else None
    key = key_column(g, keyed, shape) if keyed is not None else None
    names = {f"F.col({f.name!r})": f.name for f in shape.fields} | {f'F.col("{f.name}")': f.name for f in shape.fields}
    if not isinstance(plan, WindowPlan) or millis is None or not every and (key is None or key.code not in names):
        return None  # a key that is not one field (a computed key, a tuple): the shim's windows
    key_name = None if every else names[key.code]  # type: ignore[union-attr]
    found = _window_function(g, call, shape, key_name, sessions=plan.kind == "session")
    if found is None:
        return None
    output, aggregates = found
    method = call.func.attr.value  # type: ignore[attr-defined]
    elements = g.node(stamped.func.value).literal_elements  # type: ignore[attr-defined]
    timestamps = literal_values(elements, millis.code, stamped_shape_, resolver)
    function = assigner_function(g, stamped)
    if timestamps is None and elements is not None and isinstance(function, cst.Lambda):
        timestamps = _literal_field(function, elements, resolver)  # value[2] * MINUTE...
    batch = mode == "batch"
    delay = watermark_delay(resolver, call_arg(stamped, 0, "watermark_strategy")) if periodic_watermarks(resolver) else None
    late = late_records(timestamps, delay, plan, batch)
    if lateness is not None and (late is not None or _lateness(g, lateness) is None):
        return None  # a record that may come late fires its window again (allowed lateness): the shim's windows
    if tagged is not None and late is not None:
        return None  # a record that may come late goes to the late side output: the shim's windows
    order = None
    if aggregates is None:
        keys = [None] * len(timestamps) if every and timestamps is not None else \
            None if every or stamped_shape_ != shape else literal_values(elements, key.code, shape, resolver)  # type: ignore[union-attr]
        order = arrival_order(timestamps, keys, batch)
    return FrameWindow(plan, key_name, output, aggregates, shape.kind, late, order, "apply" if method == "apply" else "process")


def _window_function(g, call: cst.Call, shape: PC.Shape, key: Optional[str], sessions: bool):
    """(output shape, built-in aggregates or None: the user's function per window) of the window
    function ``call`` over a windowed frame of ``shape`` keyed by the field ``key``; None when it
    has no frame form (``sessions``: merged windows take a ``process``/``apply`` function only,
    which gets every element of the session, in timestamp order: NOTE F2S271 as for the other windows)."""
    from flink2spark.rules.pyflink._common import instance_class, record_shape
    from flink2spark.rules.pyflink._frames import FRAME_TYPES

    resolver = g.resolver
    method = call.func.attr.value  # type: ignore[attr-defined]
    declared_type = call_arg(call, {"aggregate": 3, "reduce": 2}.get(method, 1), "output_type")
    declared = record_shape(resolver, declared_type) if declared_type is not None else None
    if declared is not None and any(f.type not in FRAME_TYPES for f in declared.fields):
        return None
    first = call_arg(call, 0, FUNCTION_ARGS[method])
    then = call_arg(call, 1, "window_function") if method in ("reduce", "aggregate") else None
    if isinstance(then, cst.Name) and then.value == "None":
        then = None
    aggregates = None
    if method == "reduce" and then is None and isinstance(first, cst.Lambda):
        found = reduce_aggregates(first, shape, key)
        same = declared is None or [f.type for f in declared.fields] == [f.type for f in shape.fields]
        aggregates = found if isinstance(found, Aggregates) and same else None
    elif method == "aggregate" and then is None and declared is not None:
        cls = instance_class(resolver, first)
        found = aggregate_function(cls, shape, resolver.qualified_name, checked=any(f.type in _INTEGERS for f in declared.fields),
                                   shadowed=rebound_builtins(resolver.module)) \
            if cls is not None and not _has_lifecycle(cls) else None
        aggregates = _declared_result(found, declared) if isinstance(found, Aggregates) else None
    elif method == "aggregate" and declared is not None and key is not None:  # built-in aggregates, then process() per (key, window)
        field = next(f for f in shape.fields if f.name == key)
        aggregates = _aggregate_then(resolver, first, then, shape, PC.Field(key, field.type), declared)
    if aggregates is not None and sessions and not aggregates.mergeable:
        aggregates = None  # Flink merges the accumulators of merged sessions: only a matching merge() gives the same
    if aggregates is not None:
        output = shape if method == "reduce" else declared
    else:  # the user's objects per (key, window)
        if sessions and (method not in ("process", "apply") or {f.name for f in shape.fields} & {WINDOW_COLUMN, _SESSION_RECORDS}):
            return None  # merged sessions: Flink merges accumulators (reduce, aggregate) in its own order; process/apply get every element
        for i, function in enumerate(f for f in (first, then) if f is not None):
            cls = instance_class(resolver, function)
            if not (cls is not None and not _has_lifecycle(cls) or i == 0 and method == "reduce" and isinstance(function, cst.Lambda)):
                return None
        output = declared if declared is not None else shape if method == "reduce" and then is None else None
        if output is None:
            return None
    return output, aggregates


def _count_frame_window(g, call: cst.Call, window: cst.Call, shape: PC.Shape) -> Optional[FrameWindow]:
    """The lowering of a window function over ``key_by(<field>).count_window(...)``."""
    from flink2spark.rules.pyflink._count_windows import WINDOW_ID, count_plan

    plan = count_plan(g, window)
    keyed = _receiver(g.resolver, window, "key_by")
    key = key_column(g, keyed, shape) if keyed is not None else None
    names = {f"F.col({f.name!r})": f.name for f in shape.fields} | {f'F.col("{f.name}")': f.name for f in shape.fields}
    if plan is None or key is None or key.code not in names or {f.name for f in shape.fields} & {SEQ, WINDOW_ID, "n", "records"}:
        return None
    found = _window_function(g, call, shape, names[key.code], sessions=False)
    if found is None:
        return None
    output, aggregates = found
    return FrameWindow(plan, names[key.code], output, aggregates, shape.kind, None, None,  # type: ignore[arg-type]
                       "apply" if call.func.attr.value == "apply" else "process")  # type: ignore[attr-defined]


def _aggregate_then(resolver, first, then, shape: PC.Shape, key: PC.Field, declared: PC.Shape) -> Optional[Aggregates]:
    """``aggregate(f, window_function=w)``: ``f`` as built-in aggregates and ``w``'s ``process`` as
    Columns of their result (``_builtin_aggregates.then_process``), or None."""
    from flink2spark.rules.pyflink._common import instance_class

    cls, then_cls = instance_class(resolver, first), instance_class(resolver, then)
    if cls is None or then_cls is None or _has_lifecycle(cls) or _has_lifecycle(then_cls):
        return None
    found = aggregate_function(cls, shape, resolver.qualified_name, shadowed=rebound_builtins(resolver.module))
    found = then_process(then_cls, key, found, declared, resolver.qualified_name) if isinstance(found, Aggregates) else found
    return _declared_result(found, declared) if isinstance(found, Aggregates) else None


def _has_lifecycle(cls: cst.ClassDef) -> bool:
    """Whether a function class has open()/close() (or state): not run per window here."""
    return any(isinstance(s, cst.FunctionDef) and s.name.value in ("open", "close", "__init__") for s in cls.body.body)


def _declared_result(found: Aggregates, declared: PC.Shape) -> Optional[Aggregates]:
    """The aggregates' results named and typed as the declared ``output_type``, or None."""
    from flink2spark.rules.pyflink._frames import operand

    if (declared.kind == "value") == found.tuple or len(found.result) != len(declared.fields):
        return None
    outputs = []
    for out, f in zip(found.result, declared.fields):
        if out.type != f.type and not (out.type in _INTEGERS and f.type in _INTEGERS):
            return None
        code = out.code if out.type == f.type else f"{operand(out.code)}.cast({f.type!r})"
        outputs.append(PC.Output(code, f.type, out.nullable, f.name))
    return replace(found, result=tuple(outputs))


# --------------------------------------------------------------------------------------------
# what the rules write for a frame-form call


def frame_rewrite(ctx, seg):
    """The DataFrame code of ``assign_timestamps_and_watermarks``, ``window`` or a window
    function (``reduce``/``aggregate``/``process``) on a stream the program model lowers
    to a frame (``StreamFacts.frame`` of the call is not None), with its NOTEs."""
    from flink2spark.rules.pyflink._common import instance_class
    from flink2spark.rules.pyflink._streams import facts, graph
    from flink2spark.transpiler import imports as I
    from flink2spark.transpiler import markers as M

    g, original = graph(ctx.resolver), seg.original
    shape = facts(ctx.resolver, original.func.value).frame
    receiver = ctx.site.receiver
    if seg.method in ("window", "window_all", "count_window", "allowed_lateness", "side_output_late_data"):  # the keyed frame (key_by: the frame itself): the window function groups it
        return receiver
    if seg.method == "assign_timestamps_and_watermarks" and (unread := unread_assigner(ctx.resolver, original)) is not None:
        ctx.remove_class(unread)  # only the strategy read it: a timestamp column or field replaces it
    if seg.method == "assign_timestamps_and_watermarks" and not windows_read_stamp(g, original):  # the frame goes on as it is
        parent = ctx.resolver.parent(original)
        if (isinstance(parent, cst.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0].target, cst.Name)
                and isinstance(original.func.value, cst.Name) and parent.targets[0].target.value == original.func.value.value):
            ctx.remove_statement(parent)  # s = s.assign_timestamps_and_watermarks(...) would be s = s
        return receiver
    I.need(ctx.conv.codemod, "pyspark.sql", "functions", "F")
    if seg.method == "assign_timestamps_and_watermarks":
        code = with_timestamp("", stamp(g, original, shape))
        if g.node(original).micro_batches:  # an unbounded stream: Spark's event-time watermark (STREAM_WATERMARK_NOTE)
            code += f".withWatermark({TIMESTAMP_COLUMN!r}, {interval(stream_delay(g, original))!r})"  # type: ignore[arg-type]
        return ctx.expr("{df}" + code, df=receiver)
    found = frame_window(g, original, shape)
    if g.node(original).micro_batches:
        ctx.note(M.PF_STREAM_WATERMARK, STREAM_WATERMARK_NOTE)
    elif found.late is not None:
        ctx.note(M.PF_FRAME_LATE, found.late)
    if found.order is not None:
        ctx.note(M.PF_FRAME_WINDOW_ORDER, found.order)
    if found.aggregates is not None:
        if seg.method == "aggregate":  # the user's classes become built-in aggregates and Columns
            for i, keyword in enumerate(("aggregate_function", "window_function")):
                arg = call_arg(original, i, keyword)
                unread = read_only_in(ctx.resolver, instance_class(ctx.resolver, arg), original) if arg is not None else None
                if unread is not None:
                    ctx.remove_class(unread)
        if isinstance(found.plan, CountPlan):
            I.need(ctx.conv.codemod, "pyspark.sql", "Window")
        return ctx.expr("{df}" + window_aggregate("", found.key, found.plan, found.aggregates), df=receiver)
    I.need(ctx.conv.codemod, "flink2spark.runtime", "frame_windows", "f2s_windows")
    fields = [f.name for f in shape.fields]
    function = ctx.arg(seg, 0, FUNCTION_ARGS[seg.method])[1]
    if seg.method in ("reduce", "aggregate"):  # one function per window: the user's objects in a row
        then = ctx.arg(seg, 1, "window_function")
        parts = [function] if then is None or (isinstance(then[0], cst.Name) and then[0].value == "None") else [function, then[1]]
        adapter = "Reduced" if seg.method == "reduce" else "Aggregated"
        function = ctx.expr(f"f2s_windows.{adapter}(%s)" % ", ".join("{p%d}" % i for i in range(len(parts))),
                            **{f"p{i}": p for i, p in enumerate(parts)})
    if isinstance(found.plan, CountPlan):  # (key, window id) groups; the function sees the full ones in arrival order
        I.need(ctx.conv.codemod, "pyspark.sql", "Window")
        code = per_window(found.plan.numbered("", found.key), found.key, "{fn}", found.method, fields, found.kind, found.output, SEQ,
                          count=found.plan.size)
    else:
        bounds = window_bounds("", found.plan, found.key, [*fields, TIMESTAMP_COLUMN])
        code = per_window(bounds, found.key, "{fn}", found.method, fields, found.kind, found.output, TIMESTAMP_COLUMN)
    return ctx.expr("{df}" + code, df=receiver, fn=function)
