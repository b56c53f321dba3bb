"""``assign_timestamps_and_watermarks(strategy)`` -> ``f2s.windows.with_timestamps(rdd, extract)``.

The records of a converted stream carry Flink's record timestamps as ``(timestamp, value)``
pairs from here on (see ``flink2spark.runtime.windows`` and ``rules/pyflink/_time.py``):
Spark's RDDs have no record timestamps, so the pairs are the plain way to keep them next to
the values for the windows, process functions and timers that read them.

* ``.with_timestamp_assigner(assigner)``: PyFlink calls ``assigner.extract_timestamp(value,
  record_timestamp)`` on every element (``TimestampAssigner`` subclass, whose PyFlink base is
  dropped); the shim does the same.
* ``for_monotonous_timestamps()``, ``for_bounded_out_of_orderness(d)``, ``no_watermarks()``,
  ``with_idleness(d)``, ``with_watermark_alignment(...)`` only decide when Flink's watermark
  advances. On a bounded input it reaches ``Long.MAX_VALUE`` at the end, and before that
  advances only every 200 ms: on batch-sized inputs every window gets all its elements and
  fires at the end, which the conversion computes (windows are computed on the whole input).
  They are dropped. Where lateness is asked for (``allowed_lateness``,
  ``side_output_late_data``) the window rule says so with a NOTE.
* Without a timestamp assigner the records keep the timestamps they had (none for
  ``from_collection``): the stream is returned as it is.

The strategy may be written in the call (the assigner's ``extract_timestamp`` is passed) or in
a variable assigned once: ``WatermarkStrategy``, ``Duration`` and ``Time`` become the shim's
(``f2s.WatermarkStrategy``...) and the shim takes the assigner from the strategy. Anything else
leaves a TODO.

On a stream the program model lowers to a DataFrame (``StreamFacts.frame``, issue 14; the
decisions are ``_event_windows``'s): the assigner's ``extract_timestamp``
(one ``return`` of a field) becomes a ``ts`` column, ``F.timestamp_millis(F.col("f2"))``,
read by the event-time windows after ``key_by``. The strategy is dropped: whether Flink's
watermark could drop a record is the window function's NOTE (F2S270).
"""


import libcst as cst

from flink2spark.rules.pyflink._common import _MapNames, as_stream, call_arg, decoding, program, spark_program, visible_at
from flink2spark.rules.pyflink._event_windows import frame_rewrite
from flink2spark.rules.pyflink._time import watermark_strategy, windows_shim
from flink2spark.rules.pyflink._streams import facts
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule


_IMPORTS = (
    "from pyflink.common import Duration, WatermarkStrategy\n"
    "from pyflink.common.watermark_strategy import TimestampAssigner\n"
)

rule = Rule(
    __name__,
    matches=["DataStream.assign_timestamps_and_watermarks"],
    summary="assign_timestamps_and_watermarks(strategy) -> withColumn('ts', F.timestamp_millis(<assigner's field>)) on a DataFrame; f2s.windows.with_timestamps(rdd, assigner.extract_timestamp) on an RDD",
    codes=(M.PF_EVENT_TIME,),
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
                "clicks = env.from_collection([('a', 1, 1000), ('a', 2, 9000), ('a', 3, 2000)], Types.TUPLE([Types.STRING(), Types.INT(), Types.LONG()]))\n"
                'clicks.assign_timestamps_and_watermarks(\n'
                '    WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_seconds(1)).with_timestamp_assigner(At())\n'
                ').key_by(lambda c: c[0]).window(EventTimeSessionWindows.with_gap(Time.seconds(3))).reduce(lambda a, b: (a[0], max(a[1], b[1]), min(a[2], b[2]))).print()\n',
                imports=(
                    'from pyflink.common import Duration, Time, Types, WatermarkStrategy\n'
                    'from pyflink.common.watermark_strategy import TimestampAssigner\n'
                    'from pyflink.datastream.window import EventTimeSessionWindows\n'
                ),
            ),
            (
                'from pyspark.sql import SparkSession, functions as F\n'
                '\n'
                'env = SparkSession.builder.getOrCreate()\n'
                '\n'
                '\n'
                'clicks = env.createDataFrame(\n'
                '    [("a", 1, 1000), ("a", 2, 9000), ("a", 3, 2000)], "f0 STRING, f1 INT, f2 BIGINT"\n'
                ')\n'
                "# NOTE(flink2spark): F2S270 event-time windows: the record at 2000 ms comes after one at 9000 ms; Flink's periodic watermark (every 200 ms, at the largest timestamp so far minus 1000 ms minus 1 ms) drops a record whose window has ended behind it (which records depends on timing), Spark's batch window counts every record\n"
                'clicks.withColumn("ts", F.timestamp_millis(F.col("f2"))).groupBy(\n'
                '    "f0", F.session_window("ts", "3 seconds").alias("window")\n'
                ').agg(F.max("f1").alias("f1"), F.min("f2").alias("f2")).select("f0", "f1", "f2").show(\n'
                '    2147483647, truncate=False\n'
                ')\n'
            ),
        ),
        Example(  # timestamps no operator after them reads (no window, no process function): the frame goes on without them
            program(
                '\n'
                '\n'
                'class At(TimestampAssigner):\n'
                '    def extract_timestamp(self, value, record_timestamp):\n'
                '        return value[2]\n'
                '\n'
                '\n'
                "pays = env.from_collection([('c1', 5, 1000), ('c2', 3, 4000), ('c1', 7, 2000)], Types.TUPLE([Types.STRING(), Types.INT(), Types.LONG()]))\n"
                'env.set_parallelism(1)\n'
                'pays.assign_timestamps_and_watermarks(\n'
                '    WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(At())\n'
                ').key_by(lambda p: p[0]).sum(1).print()\n',
                imports=(
                    'from pyflink.common import Types, WatermarkStrategy\n'
                    'from pyflink.common.watermark_strategy import TimestampAssigner\n'
                ),
            ),
            (
                'from pyspark.sql import SparkSession, Window, functions as F\n'
                '\n'
                'env = SparkSession.builder.getOrCreate()\n'
                '\n'
                '\n'
                'pays = env.createDataFrame(\n'
                '    [("c1", 5, 1000), ("c2", 3, 4000), ("c1", 7, 2000)], "f0 STRING, f1 INT, f2 BIGINT"\n'
                ')\n'
                'by_key = Window.partitionBy("f0").orderBy("seq")\n'
                'pays.withColumn("seq", F.monotonically_increasing_id()).select(\n'
                '    "f0",\n'
                '    F.sum("f1").over(by_key).cast("int").alias("f1"),\n'
                '    F.first("f2").over(by_key).alias("f2"),\n'
                ').show(2147483647, truncate=False)\n'
            ),
        ),
        Example(  # a frame whose assigner class is read elsewhere too: the class stays (else it goes)
            program(
                "\n\nclass At(TimestampAssigner):\n"
                "    def extract_timestamp(self, value, record_timestamp):\n"
                "        return value[1]\n\n\n"
                "clicks = env.from_collection([('a', 1000)], Types.TUPLE([Types.STRING(), Types.LONG()]))\n"
                "clicks.assign_timestamps_and_watermarks(\n"
                "    WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(At())\n"
                ").key_by(lambda c: c[0]).window(EventTimeSessionWindows.with_gap(Time.seconds(3))).reduce(lambda a, b: (a[0], min(a[1], b[1]))).print()\n"
                "print(At().extract_timestamp(('a', 5), 0))\n",
                imports=(
                    "from pyflink.common import Time, Types, WatermarkStrategy\n"
                    "from pyflink.common.watermark_strategy import TimestampAssigner\n"
                    "from pyflink.datastream.window import EventTimeSessionWindows\n"
                ),
            ),
            "from pyspark.sql import SparkSession, functions as F\n\n"
            "env = SparkSession.builder.getOrCreate()\n\n\n"
            "class At:\n"
            "    def extract_timestamp(self, value, record_timestamp):\n"
            "        return value[1]\n\n\n"
            'clicks = env.createDataFrame([("a", 1000)], "f0 STRING, f1 BIGINT")\n'
            'clicks.withColumn("ts", F.timestamp_millis(F.col("f1"))).groupBy(\n'
            '    "f0", F.session_window("ts", "3 seconds").alias("window")\n'
            ').agg(F.min("f1").alias("f1")).select("f0", "f1").show(2147483647, truncate=False)\n'
            "print(At().extract_timestamp(('a', 5), 0))\n",
        ),
        Example(
            program(
                "\n\nclass ByField(TimestampAssigner):\n"
                "    def extract_timestamp(self, value, record_timestamp):\n"
                "        return value[1]\n\n\n"
                "events = env.from_collection([('a', 1000)]).assign_timestamps_and_watermarks(\n"
                "    WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_seconds(2)).with_timestamp_assigner(ByField())\n"
                ")\n"
                "names = events.map(lambda e: e[0]).filter(lambda n: n != 'b')\n",
                imports=_IMPORTS,
            ),
            spark_program(
                "\n\nclass ByField:\n"
                "    def extract_timestamp(self, value, record_timestamp):\n"
                "        return value[1]\n\n\n"
                "events = f2s.windows.with_timestamps(\n"
                '    env.sparkContext.parallelize([("a", 1000)]), ByField().extract_timestamp\n'
                ")\n"
                "names = events.mapValues(lambda e: e[0]).filter(\n"
                '    f2s.windows.by_value(lambda n: n != "b")\n'
                ")\n",
                shim=True,
                rdd='the source `.from_collection()` at line 13 has no type_info (no DataFrame schema)',
            ),
        ),
        Example(
            program(
                "\n\nclass ByField(TimestampAssigner):\n"
                "    def extract_timestamp(self, value, record_timestamp):\n"
                "        return value[1]\n\n\n"
                "strategy = WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(ByField())\n"
                "events = env.from_collection([('a', 1000)]).assign_timestamps_and_watermarks(strategy)\n"
                "plain = env.from_collection([1]).assign_timestamps_and_watermarks(WatermarkStrategy.no_watermarks())\n",
                imports=_IMPORTS,
            ),
            spark_program(
                "\n\nclass ByField:\n"
                "    def extract_timestamp(self, value, record_timestamp):\n"
                "        return value[1]\n\n\n"
                "strategy = f2s.WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(\n"
                "    ByField()\n"
                ")\n"
                "events = f2s.windows.with_timestamps(\n"
                '    env.sparkContext.parallelize([("a", 1000)]), strategy\n'
                ")\n"
                "plain = env.sparkContext.parallelize([1])\n",
                shim=True,
                rdd='the source `.from_collection()` at line 14 has no type_info (no DataFrame schema)',
            ),
        ),
    ],
    noop=["class Source:\n    def assign_timestamps_and_watermarks(self, s):\n        return self\n\n\nSource().assign_timestamps_and_watermarks(None)\n"],
)


@rule.converter
def convert(ctx):
    seg = ctx.site.head
    if facts(ctx.resolver, seg.original).frame is not None:  # a timestamp column (_event_windows)
        return frame_rewrite(ctx, seg)
    original_stream = seg.original.func.value  # type: ignore[attr-defined]
    stream = as_stream(ctx, ctx.site.receiver, ctx.site.receiver_type)
    strategy = call_arg(seg.original, 0, "watermark_strategy")
    if strategy is None:
        return ctx.todo(M.PF_EVENT_TIME, "assign_timestamps_and_watermarks(): no watermark strategy found")
    assigner, problem = watermark_strategy(ctx, strategy)
    if problem is not None:
        return ctx.todo(M.PF_EVENT_TIME, f"assign_timestamps_and_watermarks(): {problem}")
    if isinstance(assigner, cst.Lambda):
        return ctx.todo(M.PF_EVENT_TIME, "assign_timestamps_and_watermarks(): a lambda has no extract_timestamp() (PyFlink fails too)")
    if assigner is None:
        return stream
    if isinstance(strategy, cst.Name) or facts(ctx.resolver, original_stream).micro_batches:
        # the shim's WatermarkStrategy: on an unbounded stream its watermark delay matters
        extract = ctx.arg(seg, 0, "watermark_strategy")[1]  # type: ignore[index]
    elif visible_at(ctx, assigner, seg.original):
        extract = cst.Attribute(value=assigner.visit(_MapNames(ctx.conv)), attr=cst.Name("extract_timestamp"))  # type: ignore[arg-type]
    else:
        return ctx.todo(M.PF_EVENT_TIME, "assign_timestamps_and_watermarks(): the timestamp assigner uses names that mean something else here")
    args = [cst.Arg(stream), cst.Arg(extract)]
    if facts(ctx.resolver, original_stream).timestamped:
        args.append(cst.Arg(cst.Name("True"), keyword=cst.Name("timestamped")))
    result = cst.Call(func=windows_shim(ctx, "with_timestamps"), args=args)
    decode = decoding(ctx, [original_stream], seg.original)  # PyFlink's assigner runs as a Python operator
    return result if decode is None else ctx.expr("{r}.mapValues({d})", r=result, d=decode)
