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
  integer fields becomes built-in aggregates (order does not change them); anything else runs
  the user's functions per (key, window) with ``applyInPandas`` (``runtime/frame_windows.py``),
  elements ordered by timestamp (Flink: arrival order: NOTE F2S223 when those can differ).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Optional, Union

import libcst as cst

from flink2spark.rules.pyflink._common import call_arg, followed
from flink2spark.transpiler import python_columns as PC

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


def literal_timestamps(elements, millis: PC.Output, shape: PC.Shape) -> Optional[list[int]]:
    """The timestamps of the literal elements of a collection when the timestamp is one field
    of each (an integer literal there); None otherwise."""
    names = [f.name for f in shape.fields]
    field = next((n for n in names if millis.code == f"F.col({n!r})"), None)
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
        negative = isinstance(value, cst.UnaryOperation) and isinstance(value.operator, cst.Minus)
        literal = value.expression if negative else value  # type: ignore[union-attr]
        if not isinstance(literal, cst.Integer):
            return None
        found.append((-1 if negative else 1) * int(literal.evaluated_value))
    return found


def late_records(timestamps: Optional[list[int]], delay: Union[int, None, str], plan: WindowPlan, batch: bool) -> Optional[str]:
    """Why Flink may drop records a batch window in Spark counts (a NOTE's text), or None when
    no record can be late: in BATCH mode, without watermarks, or when every record's windows
    end after the watermark the records before it can make (largest timestamp - delay - 1 ms:
    Flink drops a record from a window whose last millisecond is at or behind it)."""
    if batch or delay is None:
        return None
    if isinstance(delay, str):
        why = delay
    elif timestamps is None:
        why = "the timestamps of the records are not known here"
    else:
        late = [ts for i, ts in enumerate(timestamps) if i and plan.ends(ts) - 1 <= max(timestamps[:i]) - delay - 1]
        if not late:
            return None
        why = f"the record at {late[0]} ms comes after one at {max(timestamps[:timestamps.index(late[0])])} ms"
    return (f"event-time windows: {why}; Flink's periodic watermark (every 200 ms, at the largest timestamp so far"
            f" minus {interval(delay) if isinstance(delay, int) else 'the delay'} minus 1 ms) drops a record whose window"
            " has ended behind it (which records depends on timing), Spark's batch window counts every record")


# --------------------------------------------------------------------------------------------
# aggregates


@dataclass(frozen=True)
class Aggregates:
    """Built-in aggregates per (key, window): ``columns`` for ``agg(...)`` (aliased), then
    ``result`` Columns over them, in the order of the values the function gives."""

    columns: tuple[str, ...]
    result: tuple[PC.Output, ...]
    tuple: bool  # the function's result is a tuple (one Column per field)


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
    if shape.kind != "value" and (not isinstance(body, cst.Tuple) or len(parts) != len(shape.fields)):
        return "the reduce function does not build a record of the same fields"
    columns, outputs = [], []
    for i, (part, field) in enumerate(zip(parts, shape.fields)):
        agg = _reduce_part(part, a, b, None if shape.kind == "value" else i)
        if agg == "first" and field.name == key_field:
            columns.append(f"F.first({field.name!r}).alias({field.name!r})")  # the key: the same in every record
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


def aggregate_function(cls: cst.ClassDef, shape: PC.Shape, qualified=None, checked: bool = False) -> Union[Aggregates, str]:
    """An ``AggregateFunction`` class whose accumulator is integer literals (or a tuple of
    them) that ``add`` only adds to (``accumulator[i] + <integer expression of the value>``)
    and whose ``get_result`` is a Column expression of the accumulator: built-in sums/counts
    and that expression; else why not. ``merge`` is never called (no session merging here).
    ``checked``: the result is declared an integer type (``output_type``), whose overflow fails
    the Flink job as Spark's ANSI arithmetic fails it (``python_columns``)."""
    methods = {s.name.value: s for s in cls.body.body if isinstance(s, cst.FunctionDef)}
    if not {"create_accumulator", "add", "get_result"} <= methods.keys() or {"open", "close"} & methods.keys():
        return f"{cls.name.value} is not a plain AggregateFunction"
    create, add, get = (_returned(methods[m], n) for m, n in (("create_accumulator", 1), ("add", 3), ("get_result", 2)))
    if create is None or add is None or get is None:
        return f"{cls.name.value}: create_accumulator/add/get_result are not one return statement each"
    initial = [e.value for e in create[0].elements] if isinstance(create[0], cst.Tuple) else [create[0]]
    if not all(isinstance(v, cst.Integer) for v in initial):
        return f"{cls.name.value}: the accumulator is not integer literals"
    value, acc = add[1][1], add[1][2]
    added = [e.value for e in add[0].elements] if isinstance(add[0], cst.Tuple) else [add[0]]
    if isinstance(add[0], cst.Tuple) != isinstance(create[0], cst.Tuple) or len(added) != len(initial):
        return f"{cls.name.value}.add() does not give an accumulator of the same form"
    columns, fields = [], []
    for i, (start, part) in enumerate(zip(initial, added)):
        term = _accumulated(part, acc, i if isinstance(create[0], cst.Tuple) else None)
        if term is None or any(n.value == acc for n in _names(term)):
            return f"{cls.name.value}.add(): accumulator field {i} is not the accumulator plus an expression of the value"
        name = f"acc{i}"
        if isinstance(term, cst.Integer):
            column = f"F.count('*') * {term.value}" if term.value != "1" else "F.count('*')"
        else:
            found = PC.translate(cst.Lambda(params=cst.Parameters(params=[cst.Param(cst.Name(value))]), body=term), shape,
                                 qualified=qualified)
            if isinstance(found, PC.Refusal) or found.tuple or found.outputs[0].type not in _INTEGERS or found.notes:
                return f"{cls.name.value}.add(): accumulator field {i} does not add an integer expression of the value"
            column = f"F.sum({found.outputs[0].code})"
        if start.value not in ("0",):
            column = f"F.lit({start.value}) + {column}"
        columns.append(aliased(column, name))
        fields.append(PC.Field(name, "bigint"))
    acc_shape = PC.Shape.tuple(*fields) if isinstance(create[0], cst.Tuple) else PC.Shape.value(fields[0])
    result = PC.translate(cst.Lambda(params=cst.Parameters(params=[cst.Param(cst.Name(get[1][1]))]), body=get[0]), acc_shape,
                          qualified=qualified, checked=checked)
    if isinstance(result, PC.Refusal) or result.notes:
        return f"{cls.name.value}.get_result(): {getattr(result, 'reason', 'approximate')}"
    return Aggregates(tuple(columns), result.outputs, result.tuple)


def aliased(code: str, name: str) -> str:
    """``code.alias(name)``, the code in parentheses unless it is a call or an attribute."""
    simple = isinstance(ast.parse(code, mode="eval").body, (ast.Call, ast.Attribute, ast.Name))
    return f"{code if simple else '(' + code + ')'}.alias({name!r})"


def _returned(method: cst.FunctionDef, params: int):
    """(returned expression, parameter names) of a method that is one ``return EXPR``."""
    names = [p.name.value for p in method.params.params]
    body = method.body.body
    if len(names) != params or isinstance(method.params.star_arg, cst.Param) or method.decorators or len(body) != 1:
        return None
    if not (isinstance(body[0], cst.SimpleStatementLine) and len(body[0].body) == 1 and isinstance(body[0].body[0], cst.Return)):
        return None
    value = body[0].body[0].value
    return (value, names) if value is not None else None


def _accumulated(part, acc: str, index: Optional[int]):
    """X of ``acc[index] + X`` (or ``X + acc[index]``; ``acc + X`` for a scalar accumulator)."""
    def is_acc(node):
        if index is None:
            return isinstance(node, cst.Name) and node.value == acc
        return (isinstance(node, cst.Subscript) and isinstance(node.value, cst.Name) and node.value.value == acc
                and len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index)
                and isinstance(node.slice[0].slice.value, cst.Integer) and int(node.slice[0].slice.value.value) == index)

    if isinstance(part, cst.BinaryOperation) and isinstance(part.operator, cst.Add):
        if is_acc(part.left):
            return part.right
        if is_acc(part.right):
            return part.left
    return None


def _names(node: cst.CSTNode) -> list[cst.Name]:
    from flink2spark.transpiler.visitors import nodes

    return nodes(node, cst.Name)


def window_aggregate(frame: str, key: str, plan: WindowPlan, aggregates: Aggregates, with_bounds: bool = False) -> str:
    """``frame.groupBy(key, F.window(...)).agg(...).select(...)``: one row per (key, window)
    with the aggregates' result columns (``with_bounds``: the key and the window's start and
    end in epoch ms first, for a window function)."""
    grouped = f"{frame}.groupBy({key}, {plan.column()}.alias({WINDOW_COLUMN!r})).agg({', '.join(aggregates.columns)})"
    select = [aliased(o.code, o.name or f"f{i}") for i, o in enumerate(aggregates.result)]
    if with_bounds:
        select = ["'key'", f"F.unix_millis({WINDOW_COLUMN + '.start'!r}).alias('start')",
                  f"F.unix_millis({WINDOW_COLUMN + '.end'!r}).alias('end')", *select]
    return f"{grouped}.select({', '.join(select)})"


# --------------------------------------------------------------------------------------------
# window functions: the user's function per (key, window) with applyInPandas


def window_bounds(frame: str, key: str, plan: WindowPlan, fields: list[str]) -> Optional[str]:
    """``frame`` with one row per (record, window): its fields, ``key``, the window's ``start``
    and ``end`` (epoch ms) and ``ts``; None for session windows (Spark merges them in an
    aggregation only)."""
    if plan.kind == "session":
        return None
    window = f"{plan.column()}.alias({WINDOW_COLUMN!r})"
    columns = ", ".join([*map(repr, fields), "'key'", f"F.unix_millis({WINDOW_COLUMN + '.start'!r}).alias('start')",
                         f"F.unix_millis({WINDOW_COLUMN + '.end'!r}).alias('end')", repr(TIMESTAMP_COLUMN)])
    return f"{frame}.select('*', {key}, {window}).select({columns})"


def per_window(grouped: str, function: str, method: str, fields: list[str], kind: str, output: PC.Shape,
               order: Optional[str], runtime: str = "f2s_windows") -> str:
    """``grouped.groupBy("key", "start", "end").applyInPandas(<runtime>.per_window(...), schema)``:
    the user's window function object (code ``function``) on each window's elements."""
    names = [f.name for f in output.fields]
    schema = ", ".join(f"{f.name} {f.type.upper()}" for f in output.fields)
    args = [function, repr(method), repr(fields), repr(kind), repr(names)]
    if order is not None:
        args.append(repr(order))
    return f"{grouped}.groupBy('key', 'start', 'end').applyInPandas({runtime}.per_window({', '.join(args)}), {schema!r})"


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
