"""Over windows: ``table.over_window(Over.partition_by(k).order_by(t).preceding(p).alias("w"))
.select(..., col("v").sum.over(col("w")).alias("total"))`` -> ``df.select(...,
F.sum(F.col("v")).over(<window>).alias("total"))`` with the window
``Window.partitionBy(k).orderBy(t)`` and its frame:

- ``UNBOUNDED_RANGE`` (Flink's default) -> ``rangeBetween(Window.unboundedPreceding,
  Window.currentRow)``: rows with the same order key as the current one are in its frame, in
  both engines.
- ``UNBOUNDED_ROW`` -> ``rowsBetween(Window.unboundedPreceding, Window.currentRow)``.
- ``lit(n).rows``, ``row_interval(n)`` -> ``rowsBetween(-n, Window.currentRow)``.
- ``.following(CURRENT_ROW)`` after a rows bound, ``.following(CURRENT_RANGE)`` after a range
  bound: Flink's default end, the same frame; other ends: TODO.
- a time interval (``lit(1).hours``): Spark's DataFrame frames range over numbers, not
  timestamps, so the window is ordered by the order column's time in microseconds
  (``F.timestamp_diff("MICROSECOND", <1970-01-01 00:00 NTZ>, ts)`` for Flink's TIMESTAMP,
  ``F.unix_micros(ts)`` for TIMESTAMP_LTZ) with ``rangeBetween(-n * unit, Window.currentRow)``:
  rows at equal times are in each other's frame in both engines; an order column of another
  or unknown type: TODO.
- in a batch program: the same, with NOTE F2S325 (seen on Flink 2.3: the Table API's over
  windows fail there with "Invalid function call: over(...)", whatever their frame and order
  column; Flink SQL's OVER of the same window runs there and gives Spark's rows).
"""

from __future__ import annotations

from typing import Optional

import libcst as cst

from flink2spark.rules.pyflink._common import chain
from flink2spark.rules.table._common import IMPORT, columns, program, spark_program, use, on_stream
from flink2spark.rules.table._program import tables
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule

_OVER = ("pyflink.table.window.Over", "pyflink.table.Over")
# following(CURRENT_ROW / CURRENT_RANGE): Flink's default end of a rows / range frame (the frame
# of _BOUNDS, ending at Window.currentRow); other ends (n rows following) are not converted.
_CURRENT = {"pyflink.table.expressions.CURRENT_ROW": "rows", "pyflink.table.expressions.CURRENT_RANGE": "range"}
_BOUNDS = {
    "pyflink.table.expressions.UNBOUNDED_RANGE": "rangeBetween(Window.unboundedPreceding, Window.currentRow)",
    "pyflink.table.expressions.UNBOUNDED_ROW": "rowsBetween(Window.unboundedPreceding, Window.currentRow)",
}

def _streaming_program(body: str, imports: str) -> str:
    """A small streaming-mode Table API program (Flink runs over windows in streaming mode only)."""
    return IMPORT + imports + "\nt_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())\n" + body


rule = Rule(
    __name__,
    matches=["Table.over_window"],
    summary="over_window(Over.partition_by().order_by().preceding()).select(agg.over(w)) -> F.<agg>().over(Window...)",
    codes=(M.TB_UNSUPPORTED, M.TB_EXPRESSION, M.TB_FLOAT_SUM, M.TB_NAN_EXTREME, M.TB_OVER_BATCH, M.TB_OVER_LATE),
    examples=[
        Example(
            _streaming_program(
                "tx = t_env.from_elements([('a', 1, 2.0)], ['account', 'seq', 'amount'])\n"
                "running = tx.over_window(\n"
                "    Over.partition_by(col('account')).order_by(col('seq')).preceding(UNBOUNDED_ROW).alias('w')\n"
                ").select(col('account'), col('amount').sum.over(col('w')).alias('balance'))\n",
                imports="from pyflink.table.expressions import UNBOUNDED_ROW, col\nfrom pyflink.table.window import Over\n",
            ),
            "from pyspark.sql import SparkSession, Window, functions as F\n\n"
            "t_env = SparkSession.builder.getOrCreate()\n"
            'tx = t_env.createDataFrame([("a", 1, 2.0)], ["account", "seq", "amount"])\n'
            "running = tx.select(\n"
            '    F.col("account"),\n'
            '    F.sum(F.col("amount"))\n'
            "    .over(\n"
            '        Window.partitionBy(F.col("account"))\n'
            '        .orderBy(F.col("seq"))\n'
            "        .rowsBetween(Window.unboundedPreceding, Window.currentRow)\n"
            "    )\n"
            '    .alias("balance"),\n'
            ")\n",
        ),
        Example(
            _streaming_program(
                "tx = t_env.from_elements([('a', 1, 2.0)], ['account', 'seq', 'amount'])\n"
                "running = tx.over_window(\n"
                "    Over.partition_by(col('account')).order_by(col('seq')).preceding(UNBOUNDED_RANGE).following(CURRENT_RANGE)\n"
                "    .alias('w')\n"
                ").select(col('account'), col('seq').max.over(col('w')).alias('top'))\n",
                imports="from pyflink.table.expressions import CURRENT_RANGE, UNBOUNDED_RANGE, col\nfrom pyflink.table.window import Over\n",
            ),
            "from pyspark.sql import SparkSession, Window, functions as F\n\n"
            "t_env = SparkSession.builder.getOrCreate()\n"
            'tx = t_env.createDataFrame([("a", 1, 2.0)], ["account", "seq", "amount"])\n'
            "running = tx.select(\n"
            '    F.col("account"),\n'
            '    F.max(F.col("seq"))\n'
            "    .over(\n"
            '        Window.partitionBy(F.col("account"))\n'
            '        .orderBy(F.col("seq"))\n'
            "        .rangeBetween(Window.unboundedPreceding, Window.currentRow)\n"
            "    )\n"
            '    .alias("top"),\n'
            ")\n",
        ),
        Example(  # batch mode: Flink 2.3 refuses the Table API's over window, its SQL OVER gives Spark's rows
            program(
                "tx = t_env.from_elements([('a', 1, 2.0)], ['account', 'seq', 'amount'])\n"
                "running = tx.over_window(\n"
                "    Over.partition_by(col('account')).order_by(col('seq')).preceding(UNBOUNDED_RANGE).alias('w')\n"
                ").select(col('account'), col('seq').avg.over(col('w')))\n",
                imports="from pyflink.table.expressions import UNBOUNDED_RANGE, col\nfrom pyflink.table.window import Over\n",
            ),
            "from pyspark.sql import SparkSession, Window, functions as F\n\n"
            "t_env = SparkSession.builder.getOrCreate()\n"
            'tx = t_env.createDataFrame([("a", 1, 2.0)], ["account", "seq", "amount"])\n'
            "# NOTE(flink2spark): F2S325 over_window() in batch mode: Flink 2.3 refuses the Table API's over windows there"
            " (ValidationException: Invalid function call over(...)); Spark gives what Flink's SQL OVER (...) of the same"
            " window gives in batch mode\n"
            "running = tx.select(\n"
            '    F.col("account"),\n'
            "    F.call_function(\n"
            '        "div",\n'
            '        F.sum(F.col("seq")).over(\n'
            '            Window.partitionBy(F.col("account"))\n'
            '            .orderBy(F.col("seq"))\n'
            "            .rangeBetween(Window.unboundedPreceding, Window.currentRow)\n"
            "        ),\n"
            '        F.count(F.col("seq")).over(\n'
            '            Window.partitionBy(F.col("account"))\n'
            '            .orderBy(F.col("seq"))\n'
            "            .rangeBetween(Window.unboundedPreceding, Window.currentRow)\n"
            "        ),\n"
            "    )\n"
            '    .cast("BIGINT")\n'
            '    .alias("_c1"),\n'
            ")\n",
        ),
    ],
    noop=['import pandas as pd\n\nframe = pd.DataFrame({"a": [1]})\nrunning = frame.expanding().sum()\n'],
)


def _window(ctx, spec) -> Optional[tuple[str, str, Optional[str]]]:
    """(Window spec code, alias, the name of its one order column) of an ``Over...`` spec, or
    None after a TODO."""
    found = chain(ctx.resolver, spec)
    first = found[0] if found is not None else None
    if first is None or not isinstance(first.func, cst.Attribute) or (ctx.resolver.qualified_name(first.func.value) or "") not in _OVER:
        ctx.todo(M.TB_UNSUPPORTED, "over_window() of a window this rule cannot read (Over.partition_by(...).order_by(...)...alias(...))")
        return None
    parts, alias, frame = ["Window"], None, _BOUNDS["pyflink.table.expressions.UNBOUNDED_RANGE"]
    following, order, span = None, None, None
    for method, call in [(first.func.attr.value, first), *found[1]]:
        if method in ("partition_by", "order_by"):
            cols = columns(ctx, call.args, f"Over.{method}()")
            if cols is None:
                return None
            parts.append(f"{'partitionBy' if method == 'partition_by' else 'orderBy'}({', '.join(c.code for c in cols)})")
            order = cols if method == "order_by" else order
        elif method == "preceding" and len(call.args) == 1:
            value = call.args[0].value
            q = ctx.resolver.qualified_name(value) or ""
            count = _row_count(ctx, value)
            if q in _BOUNDS:
                frame = _BOUNDS[q]
            elif count is not None:
                frame = f"rowsBetween(-{count}, Window.currentRow)"
            elif (span := _interval_micros(value)) is not None:
                frame = f"rangeBetween(-{span}, Window.currentRow)"
            else:
                ctx.todo(M.TB_UNSUPPORTED, "over_window(): a preceding bound other than UNBOUNDED_RANGE/UNBOUNDED_ROW, "
                         "lit(n).rows, row_interval(n) or lit(n).<time unit>")
                return None
        elif method == "following" and len(call.args) == 1 and (ctx.resolver.qualified_name(call.args[0].value) or "") in _CURRENT:
            following = _CURRENT[ctx.resolver.qualified_name(call.args[0].value)]
        elif method == "alias" and len(call.args) == 1 and isinstance(call.args[0].value, cst.SimpleString):
            alias = call.args[0].value.evaluated_value
        else:
            ctx.todo(M.TB_UNSUPPORTED, f"over_window(): Over...{method}() is not converted yet")
            return None
    if alias is None or not any(p.startswith("orderBy") for p in parts):
        ctx.todo(M.TB_UNSUPPORTED, "over_window() without order_by() or alias()")
        return None
    if following is not None and not frame.startswith(following):
        ctx.todo(M.TB_UNSUPPORTED, "over_window(): Over...following() of another kind (rows/range) than preceding()")
        return None
    if span is not None:
        # a time range: Spark's DataFrame frames range over numbers, so the window is ordered by the
        # time in microseconds (rows whose times are equal are in each other's frame, as in Flink)
        key = _micros(order[0]) if order is not None and len(order) == 1 else None
        if key is None:
            ctx.todo(M.TB_UNSUPPORTED, "over_window(): a preceding range of time over an order key that is not one "
                     "TIMESTAMP column of a known type")
            return None
        parts = [f"orderBy({key})" if p.startswith("orderBy(") else p for p in parts]
    return ".".join(parts + [frame]), alias, order[0].name if order is not None and len(order) == 1 else None


_ROW_INTERVAL = "pyflink.table.expressions.row_interval"
# Flink's time interval units (Expression.seconds...) in microseconds
_UNITS = {"milli": 1000, "millis": 1000, "second": 10**6, "seconds": 10**6, "minute": 60 * 10**6, "minutes": 60 * 10**6,
          "hour": 3600 * 10**6, "hours": 3600 * 10**6, "day": 86400 * 10**6, "days": 86400 * 10**6}


def _literal_int(node) -> Optional[int]:
    """n of ``lit(n)`` (or the integer itself)."""
    if isinstance(node, cst.Call) and len(node.args) == 1:
        node = node.args[0].value
    return int(node.value) if isinstance(node, cst.Integer) else None


def _row_count(ctx, node) -> Optional[int]:
    """n of ``lit(n).rows`` / ``row_interval(n)``."""
    if isinstance(node, cst.Attribute) and node.attr.value == "rows":
        return _literal_int(node.value) if isinstance(node.value, cst.Call) else None
    if isinstance(node, cst.Call) and len(node.args) == 1 and ctx.resolver.qualified_name(node.func) == _ROW_INTERVAL:
        return _literal_int(node.args[0].value)
    return None


def _interval_micros(node) -> Optional[int]:
    """The microseconds of ``lit(n).hours`` (and the other time units), or None."""
    if isinstance(node, cst.Attribute) and node.attr.value in _UNITS and isinstance(node.value, cst.Call):
        n = _literal_int(node.value)
        return n * _UNITS[node.attr.value] if n is not None else None
    return None


def _micros(column) -> Optional[str]:
    """The order key of a time range frame: the column's time in microseconds. A TIMESTAMP_NTZ
    (Flink's TIMESTAMP) counts from 1970-01-01 00:00 without a time zone (timestamp_diff: the
    wall-clock distance, as Flink's; unix_micros of a cast would move it at daylight saving
    changes); a TIMESTAMP (Flink's TIMESTAMP_LTZ) is an instant: unix_micros."""
    if column.type == "TIMESTAMP_NTZ":
        return f'F.timestamp_diff("MICROSECOND", F.lit("1970-01-01 00:00:00").cast("TIMESTAMP_NTZ"), {column.code})'
    if column.type == "TIMESTAMP":
        return f"F.unix_micros({column.code})"
    return None


def _over(node, alias: str):
    """(aggregate expression, output alias) of ``<agg>.over(col(alias))[.alias(name)]``, else None."""
    name = None
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "alias" \
            and len(node.args) == 1 and isinstance(node.args[0].value, cst.SimpleString):
        name, node = node.args[0].value.evaluated_value, node.func.value
    if not (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "over" and len(node.args) == 1):
        return None
    target = node.args[0].value
    if not (isinstance(target, cst.Call) and target.args and isinstance(target.args[0].value, cst.SimpleString)
            and target.args[0].value.evaluated_value == alias):
        return None
    return node.func.value, name


# the Spark aggregates the Table expressions translate to (_expressions): each one gets the window
_AGGREGATES = frozenset({"sum", "count", "min", "max", "avg", "stddev_pop", "stddev_samp", "var_pop", "var_samp",
                         "collect_list"})


class _Over(cst.CSTTransformer):
    def __init__(self, window: cst.BaseExpression):
        self.window = window

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        f = original.func
        if isinstance(f, cst.Attribute) and isinstance(f.value, cst.Name) and f.value.value == "F" \
                and f.attr.value in _AGGREGATES:
            return cst.Call(func=cst.Attribute(value=original, attr=cst.Name("over")), args=[cst.Arg(self.window)])
        return updated


def _windowed(code: str, window: str) -> str:
    """``code`` of an aggregate expression with ``.over(window)`` on each Spark aggregate in it:
    Flink's integral AVG, ``div(sum, count)`` cast to the input type, is the division of the
    windowed sum and count (Spark refuses ``.over`` of the cast)."""
    expr = cst.parse_expression(code).visit(_Over(cst.parse_expression(window)))
    return cst.Module([]).code_for_node(expr)


@rule.converter
def convert(ctx):
    segs = ctx.site.segments
    refused = on_stream(ctx, "over_window()", "Spark has no OVER windows on streams")
    if refused is not None:
        return refused
    if [s.method for s in segs] != ["over_window", "select"]:
        return ctx.todo(M.TB_UNSUPPORTED, "over_window() not followed by select()")
    if len(segs[0].original.args) != 1:
        return ctx.todo(M.TB_UNSUPPORTED, "over_window() of several windows")
    found = _window(ctx, segs[0].original.args[0].value)
    if found is None:
        return ctx.todo_left()
    window, alias, order = found
    items = []
    for position, arg in enumerate(segs[1].original.args):
        over = _over(arg.value, alias)
        if over is None:
            col = columns(ctx, [arg], "select() of an over window")
            if col is None:
                return ctx.todo_left()
            if col[0].aggregate:
                return ctx.todo(M.TB_EXPRESSION, "select() of an over window: an aggregate without over()")
            items.append(col[0].code)
            continue
        expr, name = over
        col = columns(ctx, [cst.Arg(expr)], "over()")
        if col is None:
            return ctx.todo_left()
        if not col[0].aggregate:
            return ctx.todo(M.TB_EXPRESSION, "over() of an expression that is not an aggregate")
        # an unnamed item gets Flink's name: _c<its position>
        items.append(f"{_windowed(col[0].code, window)}.alias({name or f'_c{position}'!r})")
    if tables(ctx.resolver).mode == "batch":
        # Seen on Flink 2.3: every over_window().select(agg.over(w)) of a batch program fails with
        # "ValidationException: Invalid function call: over(...)" (rows and range frames, over a
        # time attribute or a number); the same window in Flink SQL (OVER (PARTITION BY ... ORDER
        # BY ... RANGE/ROWS BETWEEN ...)) runs in batch mode and gives what Spark's window gives
        # (fixture shift_sales_over_window_batch, recorded by its reference.py).
        ctx.note(M.TB_OVER_BATCH, "over_window() in batch mode: Flink 2.3 refuses the Table API's over windows there "
                 "(ValidationException: Invalid function call over(...)); Spark gives what Flink's SQL OVER (...) of "
                 "the same window gives in batch mode")
    late = tables(ctx.resolver).over_late(segs[0].original.func.value, order)
    if late is not None:
        ctx.note(M.TB_OVER_LATE, late)
    use(ctx, {"F", "Window"})
    return cst.Call(func=cst.Attribute(value=ctx.site.receiver, attr=cst.Name("select")),
                    args=[cst.Arg(cst.parse_expression(item)) for item in items])
