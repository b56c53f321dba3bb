"""``key_by(...).window(assigner)``, ``count_window(size[, slide])``, ``window_all(assigner)``
-> ``f2s.windows.Windows(rdd, assigner, ...)``.

Spark has no window operator over RDDs, and its DataFrame ``groupBy(F.window(...))`` cannot
run the Python window functions of PyFlink (``ReduceFunction``, ``AggregateFunction``,
``ProcessWindowFunction``, ``WindowFunction``) on the elements in Flink's order, nor session
merging with dynamic gaps or count windows: the shim computes the windows per key
(``groupByKey``) with PyFlink's own assigner formulas (its window operator is Python too),
the window function rule (``window_functions``) then runs the function on each window.

* Event-time windows (``TumblingEventTimeWindows.of(size[, offset])``,
  ``SlidingEventTimeWindows.of(size, slide[, offset])``, ``EventTimeSessionWindows.with_gap``
  / ``with_dynamic_gap``): on a bounded input every window fires at the end (Flink's final
  ``Long.MAX_VALUE`` watermark) with all its elements (see ``runtime/windows.py`` on
  lateness). Results carry the timestamp ``window.max_timestamp()``. Flink's periodic
  watermark can fire a window before the end and drop a record that comes behind it: NOTE
  F2S270 on the window function where the input can hold one (rule ``window_functions``).
* Count windows (PyFlink's Python ``CountTumblingWindowAssigner``/``CountSlidingWindowAssigner``
  with ``CountTrigger(size)``): a window fires when it holds ``size`` elements; partial windows
  never fire, not even at the end of the input (checked on Flink 2.3).
* Elements reach the window function in stream order (BATCH mode: by timestamp, as Flink sorts
  keyed input). Merged sessions: Flink merges the window states in merge order, the shim gives
  arrival order (NOTE F2S223 for ``process``/``apply`` on sessions).
* ``GlobalWindows.create()``: one window per key, fired only by a trigger (rule
  ``window_functions``); without one it never fires, on Flink too (``NeverTrigger``).
* Processing-time windows place elements by the wall clock (NOTE F2S221).
* Event-time windows on a stream without timestamps make Flink fail: TODO; on the timestamps
  of Kafka records (a Kafka source whose strategy has no assigner), which the conversion does
  not read: TODO.

On a stream the program model lowers to a DataFrame (``StreamFacts.frame``, issue 14; the
decisions are ``_event_windows``'s): ``key_by(k).window(Tumbling/Sliding
EventTimeWindows.of(...) | EventTimeSessionWindows.with_gap(g))`` is the keyed DataFrame
itself: the window function rule writes ``groupBy(<key field>, F.window("ts", size[, slide[,
offset]]))`` / ``F.session_window("ts", gap)``, which place records in the windows Flink's
assigners give them; ``window_all(<the same assigners>)`` groups by the window only
(``groupBy(F.window(...))``, the function called without a key), also after a ``map``/``filter``
of the stamped frame (they carry the ``ts`` column along). ``count_window(size[, slide])`` of a
frame whose records reach ``key_by`` in the source order (STREAMING mode) numbers a key's
records (``F.row_number()`` over ``monotonically_increasing_id()``) and groups the full windows
(``_count_windows``). Triggers, evictors, allowed lateness, late-data side outputs, other
count windows, global and processing-time windows keep the form above (the planner does not
make such a stream a frame).
"""


import libcst as cst

from flink2spark.rules.pyflink import _kafka as K
from flink2spark.rules.pyflink._common import as_stream, call_arg, program, runtime_mode, spark_program
from flink2spark.rules.pyflink._event_windows import frame_rewrite
from flink2spark.rules.pyflink._time import BATCH_TRIGGER, sets_trigger, window_assigner, windows_shim
from flink2spark.rules.pyflink._streams import facts
from flink2spark.transpiler import markers as M
from flink2spark.transpiler import pyflink_model as P
from flink2spark.transpiler.registry import Example, Rule

EVENT_TIME = {
    ("TumblingEventTimeWindows", "of"),
    ("SlidingEventTimeWindows", "of"),
    ("EventTimeSessionWindows", "with_gap"),
    ("EventTimeSessionWindows", "with_dynamic_gap"),
    ("DynamicEventTimeSessionWindows", "with_dynamic_gap"),
}
COUNT = {("CountTumblingWindowAssigner", "of"), ("CountSlidingWindowAssigner", "of")}
GLOBAL = {("GlobalWindows", "create")}
PROCESSING_TIME = {
    ("TumblingProcessingTimeWindows", "of"),
    ("SlidingProcessingTimeWindows", "of"),
    ("ProcessingTimeSessionWindows", "with_gap"),
    ("ProcessingTimeSessionWindows", "with_dynamic_gap"),
    ("DynamicProcessingTimeSessionWindows", "with_dynamic_gap"),
}
PROCESSING_NOTE = (
    "processing-time windows: an element goes to the window of the wall-clock time it reaches the window operator"
    " (on Spark, a bounded job's elements when its stage runs, an unbounded one's the micro-batch's time) and a window"
    " fires when the clock passes its end; in STREAMING mode the windows still open when a bounded input ends never fire,"
    " as on Flink. Which elements share a window depends on when each engine runs, so results differ between runs"
)

_IMPORTS = (
    "from pyflink.common import Time, WatermarkStrategy\n"
    "from pyflink.common.watermark_strategy import TimestampAssigner\n"
    "from pyflink.datastream.window import TumblingEventTimeWindows\n"
)
_ASSIGNER = (
    "\n\nclass At(TimestampAssigner):\n"
    "    def extract_timestamp(self, value, record_timestamp):\n"
    "        return value[1]\n\n\n"
    "events = env.from_collection([('a', 1000)]).assign_timestamps_and_watermarks(\n"
    "    WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(At())\n"
    ")\n"
)
_SPARK_ASSIGNER = (
    "\n\nclass At:\n"
    "    def extract_timestamp(self, value, record_timestamp):\n"
    "        return value[1]\n\n\n"
    "events = f2s.windows.with_timestamps(\n"
    '    env.sparkContext.parallelize([("a", 1000)]), At().extract_timestamp\n'
    ")\n"
)

rule = Rule(
    __name__,
    matches=["KeyedStream.window", "KeyedStream.count_window", "DataStream.window_all"],
    summary="window(event-time assigner) on a DataFrame -> groupBy(key field, F.window/F.session_window(...)), window_all -> groupBy(F.window(...)), count_window -> groupBy(key, row number per key div size) of full windows (written with the window function); window/count_window/window_all -> f2s.windows.Windows(rdd, assigner) on an RDD",
    codes=(M.PF_EVENT_TIME, M.PF_PROCESSING_TIME, M.PF_WINDOW_ORDER, M.PF_STREAMING_TIMERS, M.PF_STREAMING_COUNT_WINDOWS),
    examples=[
        Example(  # count windows of a frame whose records reach key_by in the source order: a row number per key
            program(
                "readings = env.from_collection([('m1', 3), ('m2', 10), ('m1', 4), ('m1', 8)], Types.TUPLE([Types.STRING(), Types.INT()]))\n"
                'readings.key_by(lambda r: r[0]).count_window(2).reduce(lambda a, b: (a[0], max(a[1], b[1]))).print()\n',
                imports='from pyflink.common import Types\n',
            ),
            (
                'from pyspark.sql import SparkSession, Window, functions as F\n'
                '\n'
                'env = SparkSession.builder.getOrCreate()\n'
                'readings = env.createDataFrame(\n'
                '    [("m1", 3), ("m2", 10), ("m1", 4), ("m1", 8)], "f0 STRING, f1 INT"\n'
                ')\n'
                'readings.withColumn("seq", F.monotonically_increasing_id()).withColumn(\n'
                '    "window",\n'
                '    F.floor((F.row_number().over(Window.partitionBy("f0").orderBy("seq")) - 1) / 2),\n'
                ').groupBy("f0", "window").agg(\n'
                '    F.max("f1").alias("f1"), F.count("*").alias("records")\n'
                ').where(F.col("records") == 2).select("f0", "f1").show(2147483647, truncate=False)\n'
            ),
        ),
        Example(  # a frame (StreamFacts.frame): event-time windows as groupBy(key, F.window(...))
            program(
                '\n'
                '\n'
                'class At(TimestampAssigner):\n'
                '    def extract_timestamp(self, value, record_timestamp):\n'
                '        return value[2]\n'
                '\n'
                '\n'
                "clicks = env.from_collection([('a', 1, 1000), ('b', 2, 4000), ('a', 3, 12000)], Types.TUPLE([Types.STRING(), Types.INT(), Types.LONG()]))\n"
                'stamped = clicks.assign_timestamps_and_watermarks(WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(At()))\n'
                'stamped.key_by(lambda c: c[0]).window(TumblingEventTimeWindows.of(Time.seconds(10))).reduce(lambda a, b: (a[0], a[1] + b[1], max(a[2], b[2]))).print()\n',
                imports=(
                    'from pyflink.common import Duration, Time, Types, WatermarkStrategy\n'
                    'from pyflink.common.watermark_strategy import TimestampAssigner\n'
                    'from pyflink.datastream.window import TumblingEventTimeWindows\n'
                ),
            ),
            (
                'from pyspark.sql import SparkSession, functions as F\n'
                '\n'
                'env = SparkSession.builder.getOrCreate()\n'
                '\n'
                '\n'
                'clicks = env.createDataFrame(\n'
                '    [("a", 1, 1000), ("b", 2, 4000), ("a", 3, 12000)], "f0 STRING, f1 INT, f2 BIGINT"\n'
                ')\n'
                'stamped = clicks.withColumn("ts", F.timestamp_millis(F.col("f2")))\n'
                'stamped.groupBy("f0", F.window("ts", "10 seconds").alias("window")).agg(\n'
                '    F.sum("f1").cast("int").alias("f1"), F.max("f2").alias("f2")\n'
                ').select("f0", "f1", "f2").show(2147483647, truncate=False)\n'
            ),
        ),
        Example(
            program(
                _ASSIGNER + "peaks = events.key_by(lambda e: e[0]).window(TumblingEventTimeWindows.of(Time.seconds(10))).reduce(max)\n"
                "counts = env.from_collection([1, 2, 3]).key_by(lambda x: x % 2).count_window(2).reduce(lambda a, b: a + b)\n",
                imports=_IMPORTS,
            ),
            spark_program(
                _SPARK_ASSIGNER + "peaks = f2s.windows.Windows(\n"
                "    f2s.windows.keyed(events, lambda e: e[0]),\n"
                "    f2s.TumblingEventTimeWindows.of(f2s.Time.seconds(10)),\n"
                "    timestamped=True,\n"
                ").reduce(max)\n"
                "counts = f2s.windows.Windows(\n"
                "    env.sparkContext.parallelize([1, 2, 3]).keyBy(lambda x: x % 2),\n"
                "    f2s.CountTumblingWindowAssigner.of(2),\n"
                ").reduce(lambda a, b: a + b)\n",
                shim=True,
                rdd='the source `.from_collection()` at line 14 has no type_info (no DataFrame schema)',
            ),
        ),
        Example(  # processing time: the shim's assigners, by the wall clock (NOTE F2S221)
            program(
                "totals = env.from_collection([('a', 1)]).key_by(lambda e: e[0]).window(\n"
                "    TumblingProcessingTimeWindows.of(Time.seconds(5))\n"
                ").reduce(lambda x, y: (x[0], x[1] + y[1]))\n",
                imports="from pyflink.common import Time\nfrom pyflink.datastream.window import TumblingProcessingTimeWindows\n",
            ),
            spark_program(
                "# NOTE(flink2spark): F2S221 " + PROCESSING_NOTE + "\n"
                "totals = f2s.windows.Windows(\n"
                '    env.sparkContext.parallelize([("a", 1)]).keyBy(lambda e: e[0]),\n'
                "    f2s.TumblingProcessingTimeWindows.of(f2s.Time.seconds(5)),\n"
                ").reduce(lambda x, y: (x[0], x[1] + y[1]))\n",
                shim=True,
                rdd='the source `.from_collection()` at line 6 has no type_info (no DataFrame schema)',
            ),
        ),
    ],
    noop=["class Frame:\n    def window(self, spec):\n        return self\n\n\nFrame().window(3)\n"],
)


@rule.converter
def convert(ctx):
    seg = ctx.site.head
    if facts(ctx.resolver, seg.original).frame is not None:  # groupBy(key, F.window(...)) (_event_windows)
        return frame_rewrite(ctx, seg)
    original_stream = seg.original.func.value  # type: ignore[attr-defined]
    stamped = facts(ctx.resolver, original_stream).timestamped
    kind = None
    if seg.method == "count_window":
        size = ctx.arg(seg, 0, "size")
        slide = ctx.arg(seg, 1, "slide")
        if size is None:
            return ctx.todo(M.PF_EVENT_TIME, "count_window(): no size found")
        slide_literal = ctx.int_literal(slide[0]) if slide is not None else 0
        if slide is None or slide_literal == 0:
            assigner = ctx.expr("{a}.of({n})", a=ctx.shim("CountTumblingWindowAssigner"), n=size[1])
        elif slide_literal is None:
            return ctx.todo(M.PF_EVENT_TIME, "count_window(size, slide): slide is not a literal (0 means tumbling)")
        else:
            assigner = ctx.expr("{a}.of({n}, {s})", a=ctx.shim("CountSlidingWindowAssigner"), n=size[1], s=slide[1])
    else:
        found = ctx.arg(seg, 0, "window_assigner")
        kind = window_assigner(ctx.resolver, found[0]) if found is not None else None
        if kind is None:
            return ctx.todo(M.PF_EVENT_TIME, f"{seg.method}(): the window assigner could not be followed")
        if (kind[0], kind[1]) not in EVENT_TIME | COUNT | PROCESSING_TIME | GLOBAL:
            return ctx.todo(M.PF_EVENT_TIME, f"{seg.method}({kind[0]}.{kind[1]}()): this window assigner is not converted")
        if (kind[0], kind[1]) in EVENT_TIME and not stamped:
            if facts(ctx.resolver, original_stream).kafka_timestamps:
                return ctx.todo(
                    M.PF_EVENT_TIME,
                    f"{seg.method}(): event-time windows on the timestamps of Kafka records (the strategy has no timestamp assigner):"
                    " the conversion does not read them; give the strategy a TimestampAssigner that takes the event time from"
                    " the record, or port it by hand",
                )
            return ctx.todo(M.PF_EVENT_TIME, f"{seg.method}(): event-time windows on a stream without timestamps (Flink fails: assign_timestamps_and_watermarks() with a timestamp assigner first)")
        assigner = found[1]
    stream = ctx.site.receiver
    keyed = seg.method != "window_all"
    if stamped and keyed and ctx.site.receiver_type != P.KEYED:
        return ctx.todo(M.PF_EVENT_TIME, f"{seg.method}() on a stream with timestamps that is not a KeyedStream: not converted")
    if facts(ctx.resolver, original_stream).micro_batches:
        if seg.method == "window_all":
            if runtime_mode(ctx) == "batch" or not K.streamable_window(ctx.resolver, seg.original) or facts(ctx.resolver, original_stream).unstreamable(True) is not None:
                return ctx.keep("a window of an unbounded stream that micro-batches cannot run: the window function has the TODO")
        elif not K.streamable_window(ctx.resolver, seg.original) or K.rolling_key_by(ctx.resolver, original_stream) is None:
            return ctx.keep("a window of an unbounded keyed stream that is not converted: the key_by() it reads has the TODO")
        if sets_trigger(ctx.resolver, seg.original) or (kind is not None and (kind[0], kind[1]) in GLOBAL):
            ctx.note(M.PF_STREAMING_TIMERS, K.TRIGGER_NOTE)
        elif seg.method == "count_window":
            ctx.note(M.PF_STREAMING_COUNT_WINDOWS, K.COUNT_WINDOWS_NOTE)
        elif (kind[0], kind[1]) in EVENT_TIME:
            ctx.note(M.PF_STREAMING_TIMERS, K.WINDOWS_NOTE)
        else:
            ctx.note(M.PF_PROCESSING_TIME, PROCESSING_NOTE)
        return cst.Call(func=K.shim(ctx, "windows_all" if seg.method == "window_all" else "windows"), args=[cst.Arg(stream), cst.Arg(assigner)])
    if runtime_mode(ctx) == "batch" and sets_trigger(ctx.resolver, seg.original):
        return ctx.todo(M.PF_EVENT_TIME, BATCH_TRIGGER)
    if not keyed:
        stream = as_stream(ctx, stream, ctx.site.receiver_type)
    args = [cst.Arg(stream), cst.Arg(assigner)]
    if not keyed:
        args.append(cst.Arg(cst.Name("False"), keyword=cst.Name("keyed")))
    if stamped:
        args.append(cst.Arg(cst.Name("True"), keyword=cst.Name("timestamped")))
    if runtime_mode(ctx) == "batch":
        args.append(cst.Arg(cst.Name("True"), keyword=cst.Name("batch")))
    if seg.method != "count_window" and (kind[0], kind[1]) in PROCESSING_TIME:
        ctx.note(M.PF_PROCESSING_TIME, PROCESSING_NOTE)
    return cst.Call(func=windows_shim(ctx, "Windows"), args=args)
