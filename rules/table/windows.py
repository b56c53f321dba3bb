"""Group windows of the Table API -> Spark's time windows:

``table.window(Tumble.over(lit(10).minutes).on(col("ts")).alias("w"))
     .group_by(col("w"), col("k")).select(col("k"), col("w").start, col("v").sum.alias("total"))``
-> ``df.groupBy(F.window("ts", "10 minutes").alias("w"), F.col("k")).agg(...)`` with a
``select`` of the items, where ``col("w").start``/``.end`` are ``F.col("w.start")``/``"w.end"``
and ``.rowtime`` is the end minus 1 ms (Flink's last timestamp of the window); a property plus or
minus ``lit(n).<time unit>`` is the Spark Column plus or minus ``F.expr("INTERVAL n unit")``.

- ``Tumble.over(size)`` -> ``F.window(col, size)``; ``Slide.over(size).every(slide)`` ->
  ``F.window(col, size, slide)``; ``Session.with_gap(gap)`` -> ``F.session_window(col, gap)``.
  Both engines align tumbling and sliding windows to the epoch (over a TIMESTAMP_LTZ column Flink
  aligns in the session time zone: a size that does not divide a quarter hour is then a TODO, as
  over a column of unknown type), and end a session ``gap`` after its last row.
- Sizes: ``lit(n).minutes`` (``seconds``, ``hours``, ``days``, ``millis``, singular too).
- Row-count windows (``.rows``) have no Spark form: TODO.
- Over the rowtime column of a stream's table (``from_data_stream`` with a watermark) in
  streaming mode: on bounded input Flink's end-of-input watermark fires every window, so the
  batch window gives the same rows, unless records arrive behind the watermark (Flink drops
  them). The program model (``TablesModel.late_records``) decides when none can: literal
  ``Instant.of_epoch_milli(n)`` timestamps out of order by less than the watermark's delay;
  otherwise NOTE F2S317.
- Over an unbounded table (a Kafka table, read by ``from_path``/``scan``, maybe filtered): a
  Tumble/Slide window on the table's watermark column (``TablesModel.event_time``) is Spark's
  streaming aggregation finalised by the watermark, written in append mode as Flink fires each
  window once the watermark passes its end; any other window over a stream is a TODO.
"""

from __future__ import annotations

import re
from typing import Optional

import libcst as cst

from flink2spark.rules.pyflink._common import chain
from flink2spark.rules.table import _expressions as E
from flink2spark.rules.table._sql import Untranslatable, check_alignment
from flink2spark.rules.table._common import columns, program, spark_program, use, on_stream
from flink2spark.rules.table._program import tables
from flink2spark.rules.table.connect import SPARK_VIEWS, VIEWS
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule

_UNITS = {"millis": "milliseconds", "milli": "milliseconds", "second": "seconds", "seconds": "seconds",
          "minute": "minutes", "minutes": "minutes", "hour": "hours", "hours": "hours", "day": "days", "days": "days"}
_WINDOWS = ("pyflink.table.window.", "pyflink.table.")
_PROPERTIES = {"start": 'F.col("{w}.start")', "end": 'F.col("{w}.end")',
               "rowtime": 'F.col("{w}.end") - F.expr("INTERVAL 1 MILLISECOND")'}

rule = Rule(
    __name__,
    matches=["Table.window"],
    summary="window(Tumble/Slide/Session).group_by(w, keys).select(...) -> groupBy(F.window/F.session_window, keys).agg(...)",
    codes=(M.TB_EXPRESSION, M.TB_UNSUPPORTED, M.TB_LATE, M.TB_FLOAT_SUM, M.TB_NAN_EXTREME),
    examples=[
        Example(
            program(
                "clicks = t_env.from_path('clicks')\n"
                "counts = (\n"
                "    clicks.window(Tumble.over(lit(15).minutes).on(col('ts')).alias('w'))\n"
                "    .group_by(col('w'), col('user'))\n"
                "    .select(col('user'), col('w').start.alias('hour'), col('url').count.alias('n'))\n"
                ")\n",
                imports="from pyflink.table.expressions import col, lit\nfrom pyflink.table.window import Tumble\n",
            ),
            spark_program(
                "# NOTE(flink2spark): F2S334 from_path() reads table 'clicks', which this program does not declare (Flink"
                " finds it in its catalog): Spark needs a table or view named 'clicks' in its session catalog,"
                " registered as Flink's catalog holds it\n"
                'clicks = t_env.table("clicks")\n'
                "counts = (\n"
                '    clicks.groupBy(F.window(F.col("ts"), "15 minutes").alias("w"), F.col("user"))\n'
                '    .agg(F.count(F.col("url")).alias("n"))\n'
                '    .select(F.col("user"), F.col("w.start").alias("hour"), F.col("n"))\n'
                ")\n",
                functions=True,
            ),
        ),
        Example(  # window bounds shifted by a time interval: the type of the time column in both engines
            program(
                "clicks = t_env.from_path('clicks')\n"
                "counts = clicks.window(Tumble.over(lit(15).minutes).on(col('ts')).alias('w')).group_by(col('w')).select(\n"
                "    (col('w').end - lit(1).seconds).alias('last_second'), col('url').count.alias('n'))\n",
                imports="from pyflink.table.expressions import col, lit\nfrom pyflink.table.window import Tumble\n",
            ),
            spark_program(
                "# NOTE(flink2spark): F2S334 from_path() reads table 'clicks', which this program does not declare (Flink"
                " finds it in its catalog): Spark needs a table or view named 'clicks' in its session catalog,"
                " registered as Flink's catalog holds it\n"
                'clicks = t_env.table("clicks")\n'
                "counts = (\n"
                '    clicks.groupBy(F.window(F.col("ts"), "15 minutes").alias("w"))\n'
                '    .agg(F.count(F.col("url")).alias("n"))\n'
                "    .select(\n"
                '        (F.col("w.end") - F.expr("INTERVAL 1 seconds")).alias("last_second"), F.col("n")\n'
                "    )\n"
                ")\n",
                functions=True,
            ),
        ),
        Example(  # a stream's timestamps 7 s out of order, more than the watermark's 5 s: Flink may drop the late one
            "from pyflink.common import Types\nfrom pyflink.common.time import Instant\n"
            "from pyflink.datastream import StreamExecutionEnvironment\n"
            "from pyflink.table import Schema, StreamTableEnvironment\n"
            "from pyflink.table.expressions import col, lit\nfrom pyflink.table.window import Tumble\n\n"
            "env = StreamExecutionEnvironment.get_execution_environment()\n"
            "t_env = StreamTableEnvironment.create(env)\n"
            "taps = env.from_collection([(Instant.of_epoch_milli(9000), 'a'), (Instant.of_epoch_milli(2000), 'b')],\n"
            "                           type_info=Types.ROW([Types.INSTANT(), Types.STRING()]))\n"
            "table = t_env.from_data_stream(taps, Schema.new_builder().column_by_expression('ts', 'CAST(f0 AS TIMESTAMP(3))')\n"
            "                               .watermark('ts', \"ts - INTERVAL '5' SECOND\").build())\n"
            "counts = table.window(Tumble.over(lit(10).seconds).on(col('ts')).alias('w')) \\\n"
            "    .group_by(col('w'), col('f1')).select(col('f1'), col('f1').count.alias('n'))\n",
            "from flink2spark.runtime import datastream as f2s\nfrom pyspark.sql import SparkSession, functions as F\n\n"
            "env = SparkSession.builder.getOrCreate()\nt_env = SparkSession.builder.getOrCreate()\n"
            "taps = env.createDataFrame(\n"
            "    [\n"
            "        f2s.table_values(r)\n"
            "        for r in [\n"
            '            (f2s.Instant.of_epoch_milli(9000), "a"),\n'
            '            (f2s.Instant.of_epoch_milli(2000), "b"),\n'
            "        ]\n"
            "    ],\n"
            '    "f0 TIMESTAMP, f1 STRING",\n'
            ")\n"
            'table = taps.selectExpr("f0", "f1", "CAST(f0 AS TIMESTAMP_NTZ) AS ts")\n'
            "# NOTE(flink2spark): F2S317 window over the rowtime column ts of a stream (watermark ts - 5 seconds): its"
            " records come up to 7000 ms behind the largest timestamp before them; Flink's streaming mode drops the"
            " records that arrive behind its watermark (moved every 200 ms by default: which ones depends on timing),"
            " Spark's batch window counts them\n"
            "counts = (\n"
            '    table.groupBy(F.window(F.col("ts"), "10 seconds").alias("w"), F.col("f1"))\n'
            '    .agg(F.count(F.col("f1")).alias("n"))\n'
            '    .select(F.col("f1"), F.col("n"))\n'
            ")\n",
        ),
        # over a Kafka table's PROCTIME() column (no WATERMARK): its view watermarks the micro-batch's time (NOTE F2S332)
        Example(
            'from pyflink.table import EnvironmentSettings, TableEnvironment\n'
            'from pyflink.table.expressions import col, lit\n'
            'from pyflink.table.window import Tumble\n'
            '\n'
            't_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())\n'
            't_env.execute_sql("CREATE TABLE taps (k STRING, fare INT, pt AS PROCTIME()) WITH (\'connector\' = \'kafka\', \'topic\' = \'taps\', \'properties.bootstrap.servers\' = \'k:9092\', \'scan.startup.mode\' = \'earliest-offset\', \'format\' = \'json\')")\n'
            't_env.execute_sql("CREATE TABLE counts (k STRING, window_end TIMESTAMP(3), total INT) WITH (\'connector\' = \'print\')")\n'
            't_env.from_path("taps").window(Tumble.over(lit(10).seconds).on(col("pt")).alias("w")).group_by(col("k"), col("w")).select(col("k"), col("w").end, col("fare").sum).execute_insert("counts").wait()\n',
            'import tempfile\n'
            'from pyspark.sql import SparkSession, functions as F\n'
            '\n'
            't_env = SparkSession.builder.getOrCreate()\n'
            "# NOTE(flink2spark): F2S307 Kafka table: Spark's Kafka source is the spark-sql-kafka-0-10 package (spark-submit --packages org.apache.spark:spark-sql-kafka-0-10_2.13:<Spark version>); Flink's json format fails the job on a malformed record ('json.ignore-parse-errors' false), Spark's from_json gives NULL fields there\n"
            "# NOTE(flink2spark): F2S332 pt AS PROCTIME(): Spark's column is current_timestamp(), the time its micro-batch starts (all rows of a micro-batch share it, so they fall in one window), watermarked with no delay; a window over it is emitted by the first micro-batch after its end, which runs when new records arrive (Flink emits it when the wall clock passes its end); which rows share a window depends on arrival in both, and neither emits a window still open when the job stops\n"
            't_env.readStream.format("kafka").option("kafka.bootstrap.servers", "k:9092").option(\n'
            '    "subscribe", "taps"\n'
            ').option("startingOffsets", "earliest").load().selectExpr(\n'
            '    "from_json(CAST(value AS STRING), \'k STRING, fare INT\') AS value"\n'
            ').selectExpr("value.k", "value.fare").selectExpr(\n'
            '    "k", "fare", "current_timestamp() AS pt"\n'
            ').withWatermark("pt", "0 seconds").createOrReplaceTempView("taps")\n'
            "# NOTE(flink2spark): F2S308 streaming query: rows come out per micro-batch (a window's in the micro-batch after the watermark passes its end); the checkpoint is a fresh folder per run, so the query starts from its starting offsets as a newly submitted Flink job: give a durable folder to resume across runs\n"
            't_env.table("taps").groupBy(\n'
            '    F.window(F.col("pt"), "10 seconds").alias("w"), F.col("k")\n'
            ').agg(F.sum(F.col("fare")).cast("INT").alias("_c2")).select(\n'
            '    F.col("k"), F.col("w.end"), F.col("_c2")\n'
            ').writeStream.foreachBatch(\n'
            '    lambda batch, _: batch.show(2147483647, truncate=False)\n'
            ').option("checkpointLocation", tempfile.mkdtemp(prefix="f2s-checkpoint-")).outputMode(\n'
            '    "append"\n'
            ').start().awaitTermination()\n',
        ),
        # over a Kafka table, on its watermark column: a streaming aggregation in append mode
        Example(
            VIEWS.replace("Schema\n", "Schema\nfrom pyflink.table.window import Tumble\n", 1)
            + "counts = t_env.scan('views').window(Tumble.over('5.minutes').on('rowtime').alias('w')).group_by('w, page') \\\n"
              "    .select('page, w.end as ends, page.count as n')\n"
              'counts.execute().print()\n',
            'import tempfile\nfrom pyspark.sql import SparkSession, functions as F\n\n' + SPARK_VIEWS
            + 'counts = (\n'
              '    t_env.table("views")\n'
              '    .groupBy(F.window(F.col("rowtime"), "5 minutes").alias("w"), F.col("page"))\n'
              '    .agg(F.count(F.col("page")).alias("n"))\n'
              '    .select(F.col("page"), F.col("w.end").alias("ends"), F.col("n"))\n'
              ')\n'
              "# NOTE(flink2spark): F2S308 streaming query: rows come out per micro-batch (a window's in the micro-batch after the watermark passes its end); the checkpoint is a fresh folder per run, so the query starts from its starting offsets as a newly submitted Flink job: give a durable folder to resume across runs\n"
              'counts.writeStream.foreachBatch(\n'
              '    lambda batch, _: batch.show(2147483647, truncate=False)\n'
              ').option("checkpointLocation", tempfile.mkdtemp(prefix="f2s-checkpoint-")).outputMode(\n'
              '    "append"\n'
              ').start().awaitTermination()\n',
        ),
    ],
    noop=['import pandas as pd\n\nframe = pd.DataFrame({"a": [1]})\nrolled = frame.rolling(window=2).sum()\n'],
)


_LEGACY_SIZE = re.compile(r"^\s*(\d+)\s*\.\s*([a-z]+)\s*$")
_ROW_COUNT = re.compile(r"^\s*\d+\s*\.\s*rows?\s*$")  # Flink 1.x's "2.rows": a row-count window


def _interval(ctx, node) -> Optional[str]:
    """``lit(10).minutes`` (or Flink 1.x's string ``"10.minutes"``) -> "10 minutes"."""
    if isinstance(node, cst.SimpleString) and isinstance(node.evaluated_value, str):
        found = _LEGACY_SIZE.match(node.evaluated_value)
        if found and found.group(2) in _UNITS:
            return f"{found.group(1)} {_UNITS[found.group(2)]}"
        return None
    if isinstance(node, cst.Attribute) and node.attr.value in _UNITS and isinstance(node.value, cst.Call):
        q = ctx.resolver.qualified_name(node.value.func)
        if q == "pyflink.table.expressions.lit" and len(node.value.args) == 1 and isinstance(node.value.args[0].value, cst.Integer):
            return f"{node.value.args[0].value.value} {_UNITS[node.attr.value]}"
    return None


def _window(ctx, spec) -> Optional[tuple[str, str, str, Optional[str]]]:
    """(Spark window Column code, alias, Tumble/Slide/Session, the time column's name) of a
    window spec, or None (a TODO)."""
    found = chain(ctx.resolver, spec)
    if found is None or not isinstance(found[0].func, cst.Attribute):
        ctx.todo(M.TB_UNSUPPORTED, "window() of a window this rule cannot read")
        return None
    first, rest = found
    q = (ctx.resolver.qualified_name(first.func) or "").rsplit(".", 1)[0]
    kind = next((q[len(p):] for p in _WINDOWS if q.startswith(p) and q[len(p):] in ("Tumble", "Slide", "Session")), None)
    calls = {first.func.attr.value: first, **dict(rest)}
    if kind is None or "on" not in calls or "alias" not in calls:
        ctx.todo(M.TB_UNSUPPORTED, "window() of a window this rule cannot read (Tumble/Slide/Session...on(...).alias(...))")
        return None
    alias = calls["alias"].args[0].value if calls["alias"].args else None
    time = columns(ctx, [calls["on"].args[0]], "window().on()") if calls["on"].args else None
    if not isinstance(alias, cst.SimpleString) or not time:
        if time is not None:
            ctx.todo(M.TB_UNSUPPORTED, "window(...).alias() of a name that is not a literal")
        return None
    name = alias.evaluated_value
    sizes = []
    for step in {"Tumble": ("over",), "Slide": ("over", "every"), "Session": ("with_gap",)}[kind]:
        call = calls.get(step)
        size = _interval(ctx, call.args[0].value) if call is not None and call.args else None
        if size is None:
            written = call.args[0].value if call is not None and call.args else None
            rows = written is not None and (
                _ROW_COUNT.match(written.evaluated_value or "") if isinstance(written, cst.SimpleString)
                else isinstance(written, cst.Call)
                and ctx.resolver.qualified_name(written.func) == "pyflink.table.expressions.row_interval")
            ctx.todo(M.TB_UNSUPPORTED, f"{kind} window: {step}(" + (f"{ctx.resolver.module.code_for_node(written)}): a row-count "
                     "window (Spark's windows are of time: no form of N rows per key)" if rows else
                     ") of a size that is not lit(n).<time unit> (row-count windows have no Spark form)"))
            return None
        sizes.append(size)
    try:  # Flink aligns windows over a TIMESTAMP_LTZ in the session time zone, Spark in UTC (_sql)
        model = tables(ctx.resolver)
        table = ctx.site.head.original.func.value
        read_as = model.rowtime_read(table) if model.event_time(table) == time[0].name else None
        check_alignment(kind.upper(), sizes, time[0].type, read_as)
    except Untranslatable as exc:
        ctx.todo(M.TB_UNSUPPORTED, str(exc))
        return None
    fn = "F.session_window" if kind == "Session" else "F.window"
    return f"{fn}({time[0].code}, {', '.join(repr(s) for s in sizes)}).alias({name!r})", name, kind, time[0].name


def _items(args) -> list:
    """The arguments of group_by()/select(), a string of several items (Flink 1.x's ``"w, user"``)
    split into one string argument per item."""
    out = []
    for arg in args:
        if isinstance(arg.value, (cst.SimpleString, cst.ConcatenatedString)) and isinstance(arg.value.evaluated_value, str) and arg.keyword is None:
            out.extend(cst.Arg(cst.SimpleString(repr(item))) for item in E._split_top_level(arg.value.evaluated_value))
        else:
            out.append(arg)
    return out


_LEGACY_PROPERTY = re.compile(r"^\s*(\w+)\.(start|end|rowtime)\s*(?:\s+as\s+(\w+)\s*)?$", re.IGNORECASE)


def _legacy_property(node, window: str) -> Optional[str]:
    """``"w.start as s"`` (Flink 1.x's string for ``col("w").start.alias("s")``) -> its Spark
    Column code, as ``_property`` gives it; None for anything else."""
    found = _LEGACY_PROPERTY.match(node.evaluated_value) if isinstance(node, cst.SimpleString) else None
    if found is None or found.group(1) != window:
        return None
    prop, alias = found.group(2).lower(), found.group(3)
    return _property_code(window, prop, alias)


_SHIFTS = {cst.Add: "+", cst.Subtract: "-"}


def _property(ctx, node, window: str) -> Optional[str]:
    """``col("w").start`` (or ``.end``/``.rowtime``, aliased or not) -> its Spark Column code;
    also shifted by a time interval, ``col("w").end - lit(1).seconds`` -> ``F.col("w.end") -
    F.expr("INTERVAL 1 seconds")``: a bound keeps the type of the time column in both engines
    (Flink's TIMESTAMP(3), Spark's TIMESTAMP_NTZ, or both zoned), and a second, minute, hour or
    day interval moves it by that many milliseconds in Flink, microseconds in Spark: the same
    value (a day is 24 hours in both, for the zoned types too)."""
    alias = None
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "alias" \
            and len(node.args) == 1 and isinstance(node.args[0].value, cst.SimpleString):
        alias, node = node.args[0].value.evaluated_value, node.func.value
    if isinstance(node, cst.BinaryOperation) and type(node.operator) in _SHIFTS:
        size = _interval(ctx, node.right)
        bound = _property(ctx, node.left, window) if size is not None else None
        if bound is None:
            return None
        code = f'{bound} {_SHIFTS[type(node.operator)]} F.expr("INTERVAL {size}")'
        return f"({code}).alias({alias!r})" if alias else code
    if not (isinstance(node, cst.Attribute) and node.attr.value in _PROPERTIES and isinstance(node.value, cst.Call)):
        return None
    inner = node.value
    if ctx.resolver.qualified_name(inner.func) != "pyflink.table.expressions.col" or len(inner.args) != 1:
        return None
    if not (isinstance(inner.args[0].value, cst.SimpleString) and inner.args[0].value.evaluated_value == window):
        return None
    return _property_code(window, node.attr.value, alias)


def _property_code(window: str, prop: str, alias: Optional[str]) -> str:
    code = _PROPERTIES[prop].format(w=window)
    return f"({code}).alias({alias!r})" if alias and prop == "rowtime" else f"{code}.alias({alias!r})" if alias else code


@rule.converter
def convert(ctx):
    segs = ctx.site.segments
    if [s.method for s in segs] != ["window", "group_by", "select"]:
        refused = on_stream(ctx, "window()", "Table API group windows over a stream are converted as window().group_by().select() only")
        return refused or ctx.todo(M.TB_UNSUPPORTED, "window() not followed by group_by(...).select(...)")
    found = _window(ctx, segs[0].original.args[0].value) if segs[0].original.args else None
    if found is None:
        return ctx.todo_left() if ctx.todos else ctx.todo(M.TB_UNSUPPORTED, "window() without a window")
    window, name, kind, time = found
    # over a stream: a tumbling or sliding window on the table's watermark column, which Spark's
    # append mode finalises as Flink fires it (when the watermark passes its end)
    if kind == "Session" or tables(ctx.resolver).event_time(segs[0].original.func.value) != time:
        refused = on_stream(ctx, "window()", "Table API group windows over a stream are converted only as Tumble/Slide "
                            "windows on the watermark column of the table read")
        if refused is not None:
            return refused
    keys, key_args = [], []
    for arg in _items(segs[1].original.args):
        v = arg.value
        if isinstance(v, cst.SimpleString) and v.evaluated_value == name:
            continue  # group_by("w, user"): Flink 1.x's string expressions
        if isinstance(v, cst.Call) and ctx.resolver.qualified_name(v.func) == "pyflink.table.expressions.col" \
                and v.args and isinstance(v.args[0].value, cst.SimpleString) and v.args[0].value.evaluated_value == name:
            continue
        key_args.append(arg)
    if len(key_args) == len(_items(segs[1].original.args)):
        return ctx.todo(M.TB_UNSUPPORTED, f"group_by() of window() does not name the window {name!r}")
    keys = columns(ctx, key_args, "group_by()") or ([] if not key_args else None)
    if keys is None:
        return ctx.todo_left()
    aggregates, items = [], []
    for index, arg in enumerate(_items(segs[2].original.args)):
        prop = _legacy_property(arg.value, name) or _property(ctx, arg.value, name)
        if prop is not None:
            items.append(prop)
            continue
        col = columns(ctx, [arg], "select() of a window")
        if col is None:
            return ctx.todo_left()
        col = col[0]
        if col.aggregate:
            name_of = col.name
            if name_of is None:  # the select below needs a name: Spark names it after its expression
                name_of = f"_c{index}"
                col = E.Column(f"{col.code}.alias({name_of!r})", True, name_of, col.uses)
            aggregates.append(col.code)
            items.append(f"F.col({name_of!r})")
        elif col.name is not None and col.code in {k.code for k in keys}:
            items.append(col.code)
        else:
            return ctx.todo(M.TB_EXPRESSION, "select() of a window: an item that is neither a key, a window property nor a named aggregate")
    if not aggregates:
        return ctx.todo(M.TB_UNSUPPORTED, "select() of a window with no aggregate")
    late = tables(ctx.resolver).late_records(segs[0].original.func.value)
    if late is not None:
        ctx.note(M.TB_LATE, late)
    use(ctx, {"F"})
    code = f"{{r}}.groupBy({', '.join([window] + [k.code for k in keys])}).agg({', '.join(aggregates)}).select({', '.join(items)})"
    return ctx.expr(code, r=ctx.site.receiver)
