"""Window functions: ``reduce``, ``aggregate``, ``process``, ``apply`` on windowed streams,
and the window settings ``allowed_lateness``, ``side_output_late_data``, ``trigger``,
``evictor``.

The windowed stream is a ``f2s.windows.Windows`` (rule ``windows``); its methods mirror
PyFlink's and run the function on every window that fires:

* ``reduce(f[, window_function])``: the window's elements reduced in stream order (never
  Spark's ``reduceByKey``, whose order is not the stream's: a non-commutative reduce would
  change); a ``ProcessWindowFunction``/``WindowFunction`` then gets the single result;
* ``aggregate(AggregateFunction[, window_function])``: ``create_accumulator``, ``add`` per
  element, ``get_result`` (``merge`` is never needed: each window is computed in one place);
* ``process(ProcessWindowFunction)``: ``process(key, context, elements)`` with
  ``context.window()`` (``start``, ``end``, ``max_timestamp()``) and
  ``context.current_watermark()`` (Long.MAX_VALUE: windows fire at the end of the input);
  ``ProcessAllWindowFunction.process(context, elements)``;
* ``apply(WindowFunction)``: ``apply(key, window, elements)`` (all-windows: ``apply(window,
  elements)``).

The functions' PyFlink bases are dropped; ``output_type``/``accumulator_type`` only type the
values inside Flink and are dropped.

The shim's windows fire once, at the end of the bounded input, with all their records: no
watermark passes a window before (the watermark is ``Long.MIN_VALUE`` until then), so no
record is late and ``allowed_lateness(ms)`` is dropped (NOTE F2S222), the stream
``side_output_late_data(tag)`` makes (``get_side_output(tag)`` of the results) is empty (NOTE
F2S222). Flink 2.3 in STREAMING mode emits a watermark every 200 ms
(``pipeline.auto-watermark-interval``, by the wall clock, at the largest timestamp so far minus
the out-of-orderness minus 1 ms, not per record): a record behind it in a window that has fired
is dropped (within the allowed lateness: the window fires again, an extra result). Which records
that hits depends on timing, so the shim cannot emulate it; NOTE F2S270 marks a window function
whose input can have such a record (``_event_windows.shim_late``: the decision of the frame
form, ``late_records``, over the collection's literal timestamps), nothing when none can or
when the program sets the interval to 0 (no watermark before the end: the shim's result is
Flink's).

``trigger(t)`` -> ``Windows.trigger(t)``: the shim's triggers (``EventTimeTrigger``,
``ContinuousEventTimeTrigger``, ``ProcessingTimeTrigger``, ``ContinuousProcessingTimeTrigger``,
``CountTrigger``, ``PurgingTrigger``, ``NeverTrigger``) and the user's ``Trigger`` classes run
per key as PyFlink's window operator runs them (state scoped to the window, timers, merging),
exact on bounded input; ``allowed_lateness`` is then kept (it moves the cleanup timers the
trigger sees). On an unbounded stream ``f2s_stream.windows(...).trigger(t)`` runs them in
transformWithState (the windows rule says when: NOTE F2S260). TODO in BATCH mode (Flink 2.3
misbehaves there).
``evictor`` does not exist in PyFlink (the program fails on Flink): TODO.

Session windows merge: Flink merges the windows' states in its own order (and merges
``AggregateFunction`` accumulators with ``merge()``), the shim hands a merged session's
elements in arrival order to one accumulator: a NOTE (F2S223) says so.

On a stream the program model lowers to a DataFrame (``StreamFacts.frame``, issue 14; the
decisions are ``_event_windows``'s): a ``reduce`` lambda whose fields are
the key, ``a[i] + b[i]``, ``max``/``min`` of integer fields and an ``AggregateFunction`` whose
accumulator only adds integer expressions of the value (``get_result`` a Column expression
of it) become built-in aggregates, ``groupBy(<key field>, F.window(...)).agg(F.sum(...), F.count("*"))``
(order does not change them); another ``AggregateFunction`` (with its window function) or a
``ProcessWindowFunction`` runs per (key, window) with ``applyInPandas``
(``runtime/frame_windows.py``: the window's bounds, ``context.window()``), its elements in
timestamp order: NOTE F2S271 when that can differ from Flink's arrival order. NOTE F2S270 when
Flink's periodic watermark could drop a record of an out-of-order input that Spark counts.
``allowed_lateness(ms)`` before the function is dropped when no record can come late (the
literal timestamps, as for F2S270): Flink then fires each window once, as Spark's batch window
does; when one can, its window fires again on Flink: the shim's windows. ``window_all`` and
``count_window`` functions: the same, grouped by the window only / by (key, window id)
(``_count_windows``: ``CountWindow(id)``, full windows only). Custom triggers and evictors keep
the shim's windows (Spark has no trigger per window).
"""


import libcst as cst

from flink2spark.rules.pyflink import _kafka as K
from flink2spark.rules.pyflink._common import followed, program, runtime_mode, spark_program
from flink2spark.rules.pyflink._event_windows import frame_rewrite, shim_late
from flink2spark.rules.pyflink._process import context_problem
from flink2spark.rules.pyflink._time import BATCH_TRIGGER, SESSION_WINDOWS, WINDOW_SETTINGS, sets_trigger
from flink2spark.rules.pyflink._streams import facts, graph
from flink2spark.transpiler import functions as F
from flink2spark.transpiler import markers as M
from flink2spark.transpiler import pyflink_model as P
from flink2spark.transpiler.registry import Example, Rule

# F2S222: true of the conversion whatever Flink's watermark does (NOTE F2S270 says when it can make a record late)
LATENESS_DROPPED = ("allowed_lateness(): dropped: each window fires once, at the end of the bounded input, with all its records"
                    " (nothing is late before; NOTE F2S270 where Flink's watermark can make a record late)")
LATE_OUTPUT_EMPTY = ("side_output_late_data(): the conversion's windows take every record, so the late-data side output is empty"
                     " (on Flink: the records its watermark made late; NOTE F2S270 where one can be)")
FUNCTIONS = ("reduce", "aggregate", "process", "apply")
SETTINGS = WINDOW_SETTINGS
WINDOWS = ("window", "window_all", "count_window", *SETTINGS)  # PyFlink calls left as they were

rule = Rule(
    __name__,
    matches=[f"{t}.{m}" for t in ("WindowedStream", "AllWindowedStream") for m in FUNCTIONS + SETTINGS],
    summary="on a DataFrame: reduce/aggregate that are sums/counts/min/max -> built-in aggregates per (key, F.window), other aggregate/process -> applyInPandas per (key, window); on an RDD: the same methods of f2s.windows.Windows",
    codes=(M.PF_EVENT_TIME, M.PF_LATENESS, M.PF_FRAME_LATE, M.PF_FUNCTION, M.PF_WINDOW_ORDER, M.PF_OPEN_CLOSE, M.PF_STATE, M.PF_PROCESSING_TIME),
    examples=[
        Example(  # a frame (StreamFacts.frame): event-time windows as groupBy(key, F.window(...))
            program(
                '\n'
                '\n'
                'class At(TimestampAssigner):\n'
                '    def extract_timestamp(self, value, record_timestamp):\n'
                '        return value[2]\n'
                '\n'
                '\n'
                'class SumCount(AggregateFunction):\n'
                '    def create_accumulator(self):\n'
                '        return 0, 0\n'
                '\n'
                '    def add(self, value, acc):\n'
                '        return acc[0] + value[1], acc[1] + 1\n'
                '\n'
                '    def get_result(self, acc):\n'
                '        return acc[0], acc[1]\n'
                '\n'
                '\n'
                'class Spread(ProcessWindowFunction):\n'
                '    def process(self, key, context, clicks):\n'
                '        yield key, context.window().end, max(c[1] for c in clicks) - min(c[1] for c in clicks)\n'
                '\n'
                '\n'
                "clicks = env.from_collection([('a', 1, 1000), ('b', 2, 4000), ('a', 3, 7000)], Types.TUPLE([Types.STRING(), Types.INT(), Types.LONG()]))\n"
                'by_user = clicks.assign_timestamps_and_watermarks(WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(At())).key_by(lambda c: c[0])\n'
                'by_user.window(SlidingEventTimeWindows.of(Time.seconds(10), Time.seconds(5))).aggregate(SumCount(), output_type=Types.TUPLE([Types.LONG(), Types.LONG()])).print()\n'
                'by_user.window(SlidingEventTimeWindows.of(Time.seconds(10), Time.seconds(5))).process(Spread(), Types.TUPLE([Types.STRING(), Types.LONG(), Types.INT()])).print()\n',
                imports=(
                    'from pyflink.common import Duration, Time, Types, WatermarkStrategy\n'
                    'from pyflink.common.watermark_strategy import TimestampAssigner\n'
                    'from pyflink.datastream.functions import AggregateFunction, ProcessWindowFunction\n'
                    'from pyflink.datastream.window import SlidingEventTimeWindows\n'
                ),
            ),
            (
                'from flink2spark.runtime import frame_windows as f2s_windows\n'
                'from pyspark.sql import SparkSession, functions as F\n'
                '\n'
                'env = SparkSession.builder.getOrCreate()\n'
                '\n'
                '\n'
                'class Spread:\n'
                '    def process(self, key, context, clicks):\n'
                '        yield (\n'
                '            key,\n'
                '            context.window().end,\n'
                '            max(c[1] for c in clicks) - min(c[1] for c in clicks),\n'
                '        )\n'
                '\n'
                '\n'
                'clicks = env.createDataFrame(\n'
                '    [("a", 1, 1000), ("b", 2, 4000), ("a", 3, 7000)], "f0 STRING, f1 INT, f2 BIGINT"\n'
                ')\n'
                'by_user = clicks.withColumn("ts", F.timestamp_millis(F.col("f2")))\n'
                'by_user.groupBy("f0", F.window("ts", "10 seconds", "5 seconds").alias("window")).agg(\n'
                '    F.sum(F.col("f1")).alias("acc0"), F.count("*").alias("f1")\n'
                ').select(F.col("acc0").alias("f0"), "f1").show(2147483647, truncate=False)\n'
                'by_user.withColumn("window", F.window("ts", "10 seconds", "5 seconds")).groupBy(\n'
                '    "f0",\n'
                '    F.unix_millis("window.start").alias("start"),\n'
                '    F.unix_millis("window.end").alias("end"),\n'
                ').applyInPandas(\n'
                '    f2s_windows.per_window(\n'
                '        Spread(), "process", ["f0", "f1", "f2"], "tuple", ["f0", "f1", "f2"], "ts"\n'
                '    ),\n'
                '    "f0 STRING, f1 BIGINT, f2 INT",\n'
                ').show(2147483647, truncate=False)\n'
            ),
        ),
        Example(  # session windows and a function per window: Spark merges sessions in an aggregation only, so each
                  # session's records are collected and made rows again with its bounds, then per_window as above
            program(
                '\n\nclass At(TimestampAssigner):\n'
                '    def extract_timestamp(self, value, record_timestamp):\n'
                '        return value[1]\n\n\n'
                'class Visit(AllWindowFunction):\n'
                '    def apply(self, window, views):\n'
                "        yield '%d-%d: %s' % (window.start, window.end, ','.join(sorted(v[0] for v in views)))\n\n\n"
                "views = env.from_collection([('/a', 1000), ('/b', 4000), ('/c', 9000), ('/a', 20000)], Types.TUPLE([Types.STRING(), Types.LONG()]))\n"
                'views = views.assign_timestamps_and_watermarks(WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(At()))\n'
                'views.window_all(EventTimeSessionWindows.with_gap(Time.seconds(5))).apply(Visit(), Types.STRING()).print()\n',
                imports=(
                    'from pyflink.common import Time, Types, WatermarkStrategy\n'
                    'from pyflink.common.watermark_strategy import TimestampAssigner\n'
                    'from pyflink.datastream.functions import AllWindowFunction\n'
                    'from pyflink.datastream.window import EventTimeSessionWindows\n'
                ),
            ),
            (
                'from flink2spark.runtime import frame_windows as f2s_windows\n'
                'from pyspark.sql import SparkSession, functions as F\n'
                '\n'
                'env = SparkSession.builder.getOrCreate()\n'
                '\n'
                '\n'
                'class Visit:\n'
                '    def apply(self, window, views):\n'
                '        yield "%d-%d: %s" % (\n'
                '            window.start,\n'
                '            window.end,\n'
                '            ",".join(sorted(v[0] for v in views)),\n'
                '        )\n'
                '\n'
                '\n'
                'views = env.createDataFrame(\n'
                '    [("/a", 1000), ("/b", 4000), ("/c", 9000), ("/a", 20000)], "f0 STRING, f1 BIGINT"\n'
                ')\n'
                'views = views.withColumn("ts", F.timestamp_millis(F.col("f1")))\n'
                'views.groupBy(F.session_window("ts", "5 seconds").alias("window")).agg(\n'
                '    F.collect_list(F.struct("f0", "f1", "ts")).alias("records")\n'
                ').select("window", F.inline("records")).groupBy(\n'
                '    F.unix_millis("window.start").alias("start"),\n'
                '    F.unix_millis("window.end").alias("end"),\n'
                ').applyInPandas(\n'
                '    f2s_windows.per_window(\n'
                '        Visit(), "apply", ["f0", "f1"], "tuple", ["value"], "ts", keyed=False\n'
                '    ),\n'
                '    "value STRING",\n'
                ').show(2147483647, truncate=False)\n'
            ),
        ),
        Example(  # window_all on a frame: groupBy(F.window) with no key; map/filter carry the timestamp column
            program(
                '\n'
                '\n'
                'class At(TimestampAssigner):\n'
                '    def extract_timestamp(self, value, record_timestamp):\n'
                '        return value[1]\n'
                '\n'
                '\n'
                'class Pages(AllWindowFunction):\n'
                '    def apply(self, window, views):\n'
                "        yield '%d: %s' % (window.start, ','.join(v[0] for v in views))\n"
                '\n'
                '\n'
                "views = env.from_collection([('/a', 1000), ('/b', 4000), ('/a', 7000)], Types.TUPLE([Types.STRING(), Types.LONG()]))\n"
                'views = views.assign_timestamps_and_watermarks(WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(At()))\n'
                'views.window_all(TumblingEventTimeWindows.of(Time.seconds(5))).apply(Pages(), Types.STRING()).print()\n'
                "views.filter(lambda v: v[0] != '/b').map(lambda v: v[1] // 1000, Types.LONG()).window_all(TumblingEventTimeWindows.of(Time.seconds(5))).reduce(lambda a, b: max(a, b)).print()\n",
                imports=(
                    'from pyflink.common import Time, Types, WatermarkStrategy\n'
                    'from pyflink.common.watermark_strategy import TimestampAssigner\n'
                    'from pyflink.datastream.functions import AllWindowFunction\n'
                    'from pyflink.datastream.window import TumblingEventTimeWindows\n'
                ),
            ),
            (
                'from flink2spark.runtime import frame_windows as f2s_windows\n'
                'from pyspark.sql import SparkSession, functions as F\n'
                '\n'
                'env = SparkSession.builder.getOrCreate()\n'
                '\n'
                '\n'
                'class Pages:\n'
                '    def apply(self, window, views):\n'
                '        yield "%d: %s" % (window.start, ",".join(v[0] for v in views))\n'
                '\n'
                '\n'
                'views = env.createDataFrame(\n'
                '    [("/a", 1000), ("/b", 4000), ("/a", 7000)], "f0 STRING, f1 BIGINT"\n'
                ')\n'
                'views = views.withColumn("ts", F.timestamp_millis(F.col("f1")))\n'
                'views.withColumn("window", F.window("ts", "5 seconds")).groupBy(\n'
                '    F.unix_millis("window.start").alias("start"),\n'
                '    F.unix_millis("window.end").alias("end"),\n'
                ').applyInPandas(\n'
                '    f2s_windows.per_window(\n'
                '        Pages(), "apply", ["f0", "f1"], "tuple", ["value"], "ts", keyed=False\n'
                '    ),\n'
                '    "value STRING",\n'
                ').show(2147483647, truncate=False)\n'
                'views.where(F.col("f0") != "/b").select(\n'
                '    F.expr(\n'
                '        "`f1` div 1000 - CASE WHEN `f1` % 1000 != 0 AND (`f1` < 0) != (1000 < 0) THEN 1 ELSE 0 END"\n'
                '    ).alias("value"),\n'
                '    "ts",\n'
                ').groupBy(F.window("ts", "5 seconds").alias("window")).agg(\n'
                '    F.max("value").alias("value")\n'
                ').select("value").show(2147483647, truncate=False)\n'
            ),
        ),
        Example(
            program(
                "\n\nclass Count(AggregateFunction):\n"
                "    def create_accumulator(self):\n        return 0\n\n"
                "    def add(self, value, accumulator):\n        return accumulator + 1\n\n"
                "    def get_result(self, accumulator):\n        return accumulator\n\n"
                "    def merge(self, a, b):\n        return a + b\n\n\n"
                "class Label(WindowFunction):\n"
                "    def apply(self, key, window, counts):\n"
                "        yield '%s: %d' % (key, counts[0])\n\n\n"
                "counts = env.from_collection([1, 2, 3]).key_by(lambda x: x % 2).count_window(2).aggregate(Count(), Label(), output_type=None)\n",
                imports="from pyflink.datastream.functions import AggregateFunction, WindowFunction\n",
            ),
            spark_program(
                "\n\nclass Count(f2s.AggregateFunction):\n"
                "    def create_accumulator(self):\n        return 0\n\n"
                "    def add(self, value, accumulator):\n        return accumulator + 1\n\n"
                "    def get_result(self, accumulator):\n        return accumulator\n\n"
                "    def merge(self, a, b):\n        return a + b\n\n\n"
                "class Label:\n"
                "    def apply(self, key, window, counts):\n"
                '        yield "%s: %d" % (key, counts[0])\n\n\n'
                "counts = f2s.windows.Windows(\n"
                "    env.sparkContext.parallelize([1, 2, 3]).keyBy(lambda x: x % 2),\n"
                "    f2s.CountTumblingWindowAssigner.of(2),\n"
                ").aggregate(Count(), Label())\n",
                shim=True,
                rdd='the source `.from_collection()` at line 26 has no type_info (no DataFrame schema)',
            ),
        ),
        Example(  # a trigger: the shim's triggers run per key as PyFlink's window operator runs them
            program(
                "batches = env.from_collection([1, 2, 3]).key_by(lambda x: x % 2).window(GlobalWindows.create()).trigger(\n"
                "    PurgingTrigger.of(CountTrigger.of(2))\n"
                ").reduce(lambda a, b: a + b)\n",
                imports="from pyflink.datastream.window import CountTrigger, GlobalWindows, PurgingTrigger\n",
            ),
            spark_program(
                "batches = (\n"
                "    f2s.windows.Windows(\n"
                "        env.sparkContext.parallelize([1, 2, 3]).keyBy(lambda x: x % 2),\n"
                "        f2s.GlobalWindows.create(),\n"
                "    )\n"
                "    .trigger(f2s.PurgingTrigger.of(f2s.CountTrigger.of(2)))\n"
                "    .reduce(lambda a, b: a + b)\n"
                ")\n",
                shim=True,
                rdd='the source `.from_collection()` at line 5 has no type_info (no DataFrame schema)',
            ),
        ),
    ],
    noop=[
        "import pandas as pd\n\nr = pd.Series([1]).rolling(2).apply(sum)\n",
        "class Alarm:\n    def trigger(self, when):\n        return self\n\n\nAlarm().trigger(5)\n",
    ],
)


@rule.converter
def convert(ctx):
    seg = ctx.site.head
    if facts(ctx.resolver, seg.original).frame is not None:  # groupBy(key, F.window(...)) (_event_windows)
        return frame_rewrite(ctx, seg)
    receiver = ctx.site.receiver
    base = receiver
    while isinstance(base, cst.Call) and isinstance(base.func, cst.Attribute) and base.func.attr.value in SETTINGS:
        base = base.func.value  # converted on the shim's Windows, or left on a window left as it was
    if isinstance(base, cst.Call) and isinstance(base.func, cst.Attribute) and base.func.attr.value in WINDOWS:
        return ctx.keep("a function of a window left as it was: the window's TODO covers it")
    if seg.method == "allowed_lateness":
        if facts(ctx.resolver, seg.original.func.value).micro_batches:  # type: ignore[attr-defined]
            found = ctx.arg(seg, 0, "time_ms")
            if found is None:
                return ctx.todo(M.PF_EVENT_TIME, "allowed_lateness(): no lateness found")
            return cst.Call(func=cst.Attribute(value=receiver, attr=cst.Name(seg.method)), args=[cst.Arg(found[1])])
        if sets_trigger(ctx.resolver, seg.original):
            found = ctx.arg(seg, 0, "time_ms")
            if found is not None:  # the trigger sees the cleanup timers it moves
                return cst.Call(func=cst.Attribute(value=receiver, attr=cst.Name(seg.method)), args=[cst.Arg(found[1])])
        ctx.note(M.PF_LATENESS, LATENESS_DROPPED)
        return receiver
    if seg.method == "side_output_late_data":
        found = ctx.arg(seg, 0, "output_tag")
        if found is None:
            return ctx.todo(M.PF_EVENT_TIME, "side_output_late_data(): no output tag found")
        if not facts(ctx.resolver, seg.original.func.value).micro_batches:  # type: ignore[attr-defined]
            ctx.note(M.PF_LATENESS, LATE_OUTPUT_EMPTY)
        return cst.Call(func=cst.Attribute(value=receiver, attr=cst.Name(seg.method)), args=[cst.Arg(found[1])])
    if seg.method == "evictor":
        return ctx.todo(M.PF_EVENT_TIME, "evictor(): PyFlink's windowed streams have no evictor() (the program fails on Flink 2.3): port the eviction by hand")
    if seg.method == "trigger":
        return _trigger(ctx, seg, receiver)
    if seg.method == "reduce":
        found = ctx.arg(seg, 0, "reduce_function")
        known = ctx.conv.class_of(found[0]) if found is not None else None
        if known is not None and (F._method(known[0].node, "open") or F._method(known[0].node, "close")):
            return ctx.todo(M.PF_EVENT_TIME, f"reduce() with {known[0].node.name.value}.open()/close(): call them by hand")
        if found is not None and isinstance(found[0], cst.Lambda):
            fn = found[1]
        elif found is not None:
            fn = ctx.conv.adapt_function(ctx, found[0], found[1], ctx.conv.conventions["reduce"], False, "pair")
        else:
            fn = ctx.function(seg, "reduce")
        if fn is None:
            return ctx.todo_left()
        first = fn
        extra = ctx.arg(seg, 1, "window_function")
    else:
        keyword = {"aggregate": "aggregate_function", "process": "process_window_function", "apply": "window_function"}[seg.method]
        found = ctx.arg(seg, 0, keyword)
        if found is None:
            return ctx.todo(M.PF_FUNCTION, f"{seg.method}(): no function argument found")
        if not _convertible(ctx, found[0], seg.original.func.value):
            return ctx.todo_left()
        first = found[1]
        extra = ctx.arg(seg, 1, "window_function") if seg.method == "aggregate" else None
    if facts(ctx.resolver, seg.original.func.value).windowed_by in SESSION_WINDOWS:  # type: ignore[attr-defined]
        what = {
            "reduce": "reduces the elements of a merged session in arrival order (Flink: in the order its window state merges them, with the reduce function)",
            "aggregate": "adds the elements of a merged session to one accumulator in arrival order (Flink merges the sessions' accumulators with merge())",
        }.get(seg.method, "gets the elements of a merged session in arrival order (Flink: in the order its window state merges them)")
        ctx.note(M.PF_WINDOW_ORDER, f"{seg.method}() {what}: same results unless the function depends on that order")
    late = shim_late(graph(ctx.resolver), seg.original)
    if late is not None:  # the shim's windows count every record (no watermark before the end of the input)
        ctx.note(M.PF_FRAME_LATE, late)
    args = [cst.Arg(first)]
    if extra is not None and not (isinstance(extra[0], cst.Name) and extra[0].value == "None"):
        if not _convertible(ctx, extra[0], seg.original.func.value):
            return ctx.todo_left()
        args.append(cst.Arg(extra[1]))
    return cst.Call(func=cst.Attribute(value=receiver, attr=cst.Name(seg.method)), args=args)


def _convertible(ctx, original, windowed: cst.BaseExpression) -> bool:
    """A function object of a class of this program; with open()/close(), on keyed windows
    only and with a runtime context the shim serves (task information, keyed state)."""
    known = ctx.conv.class_of(original)
    if known is None:
        return True  # any object with the method: PyFlink calls it the same way
    info = known[0]
    name = info.node.name.value
    if not info.convertible:
        ctx.todo(M.PF_STATE, f"{name} could not be converted (see the class)")
        return False
    if F._method(info.node, "open") or F._method(info.node, "close"):
        if not _keyed_window(ctx, windowed):
            ctx.todo(M.PF_EVENT_TIME, f"{name}.open()/close() in a function of window_all(): not converted")
            return False
        problem = context_problem(info.node)
        if problem is not None:
            ctx.todo(M.PF_EVENT_TIME, f"{name}: {problem}; convert it by hand")
            return False
        ctx.note(
            M.PF_OPEN_CLOSE,
            f"{name}.open()/close() run once per Spark partition (Flink: once per parallel instance), its keyed state"
            " per key as on Flink; results are the same unless they have side effects",
        )
    return True


def _keyed_window(ctx, windowed: cst.BaseExpression) -> bool:
    """Whether the windowed stream ``windowed`` (original) is ``KeyedStream.window()``/
    ``count_window()``, followed through names and ``allowed_lateness``/``side_output_late_data``."""
    expr = windowed
    for _ in range(20):
        expr = followed(ctx.resolver, expr)
        if not (isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute)):
            return False
        method = expr.func.attr.value
        if method in ("window", "count_window"):
            return ctx.resolver.type_of(expr.func.value) == P.KEYED
        if method not in ("allowed_lateness", "side_output_late_data", "trigger"):
            return False
        expr = expr.func.value
    return False


def _trigger(ctx, seg, receiver):
    """``trigger(t)``: ``Windows.trigger(t)`` (bounded) or ``StreamWindows.trigger(t)``
    (unbounded, when the windows rule converted the window), with the shim's triggers or the
    user's ``Trigger`` class (PyFlink runs triggers in Python too)."""
    if runtime_mode(ctx) == "batch" and not facts(ctx.resolver, seg.original.func.value).micro_batches:
        return ctx.todo(M.PF_EVENT_TIME, BATCH_TRIGGER)
    found = ctx.arg(seg, 0, "trigger")
    if found is None:
        return ctx.todo(M.PF_EVENT_TIME, "trigger(): no trigger found")
    known = ctx.conv.class_of(found[0])
    if known is not None and not known[0].convertible:
        return ctx.todo(M.PF_STATE, f"{known[0].node.name.value} could not be converted (see the class)")
    if K.processing_trigger(ctx.resolver, found[0]) is not False:
        ctx.note(
            M.PF_PROCESSING_TIME,
            "trigger() with processing-time timers (or one the converter cannot follow): they fire when the wall clock"
            " passes them, so which firings happen depends on when each engine runs (on a bounded input, before it ends)",
        )
    return cst.Call(func=cst.Attribute(value=receiver, attr=cst.Name("trigger")), args=[cst.Arg(found[1])])
