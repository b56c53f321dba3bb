"""``KeyedStream.reduce(f)``: rolling in STREAMING mode, final in BATCH mode.

PyFlink keeps a reducing state per key (``ReduceProcessKeyedProcessFunctionAdapter``):

* STREAMING (Flink's default): every element emits the reduction of its key's elements so
  far -> ``f2s.rolling_reduce(keyed, f)``;
* BATCH (``set_runtime_mode(RuntimeExecutionMode.BATCH)``, or AUTOMATIC with these bounded
  sources): one record per key at the end of the input -> ``f2s.final_reduce(keyed, f)``.

Spark has no rolling keyed reduce, hence the shim: each key's elements are reduced in stream
order (Flink's order at parallelism 1) and results come out in stream order. The mode is that
of the module's ``set_runtime_mode`` calls; when it cannot be told, a TODO is left.

On a DataFrame (the program model's frame form) in BATCH mode, a reduce function whose
result builds each field as a key field (``a.region``), ``a.x + b.x``, ``min(a.x, b.x)`` or
``max(a.x, b.x)`` (a lambda, a def or a ``ReduceFunction`` with only ``reduce``) is
``groupBy(keys).agg(F.sum/min/max(...))``: the same per key whatever the order of the
elements, for integers (and strings for min/max) that are never None (``_frames.aggregation``);
with ``a.x``/``b.x`` of a field that is not a key (the key's first/last element's), the same
``groupBy`` over a source-order column: ``F.min_by/max_by(x, seq)`` (``_rolling.final``, NOTE
F2S288: Flink sorts the records by key first and does not promise a key's order).
In STREAMING mode the same reduce functions are window functions over the source order
(``_rolling``: one record per element, the running sums/min/max of the key so far).

On an unbounded (Kafka) stream (STREAMING mode), a frame whose reduce function has the per-field
form above -> ``df.groupBy(keys).transformWithState(RollingReduce(), ...)`` with a
StatefulProcessor class that keeps the key's reduction so far (``_rolling.streamed``); other
functions, on the micro-batch form -> ``f2s_stream.rolling_reduce(keyed, f)``: the same
transformWithState over pickled records. Both emit the reduction after every element, per
micro-batch (NOTE F2S258: what the job needs to run).
"""

from flink2spark.rules.pyflink import _kafka as K
from flink2spark.rules.pyflink._common import decoded_output, program, runtime_mode, spark_head, spark_program
from flink2spark.rules.pyflink._time import windows_shim
from flink2spark.rules.pyflink._rolling import finalled, rolled
from flink2spark.rules.pyflink._streams import facts
from flink2spark.transpiler import functions as F
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule
from flink2spark.transpiler.results import unconverted

rule = Rule(
    __name__,
    matches=["KeyedStream.reduce"],
    summary="BATCH on a DataFrame, per-field sums/min/max/first/last: reduce(f) -> groupBy(keys).agg(...); STREAMING: window functions over the source order; else KeyedStream.reduce(f) -> f2s.rolling_reduce(keyed, f) (STREAMING) / f2s.final_reduce(keyed, f) (BATCH); unbounded: groupBy().transformWithState() on a streaming DataFrame, else f2s_stream.rolling_reduce",
    codes=(M.PF_RUNTIME_MODE, M.PF_FUNCTION, M.PF_UNSUPPORTED, M.PF_UNBOUNDED_STATE, M.PF_ROLLING_STATE, M.PF_ROLLING_ORDER, M.PF_FINAL_ORDER),
    examples=[
        Example(  # BATCH, on a DataFrame, a reduce function of per-field sums/min/max: groupBy().agg()
            program(
                "\n\nclass AddUp(ReduceFunction):\n"
                "    def reduce(self, a, b):\n"
                "        return Row(region=a.region, amount=a.amount + b.amount, items=max(a.items, b.items))\n\n\n"
                "env.set_runtime_mode(RuntimeExecutionMode.BATCH)\n"
                "orders = env.from_collection([Row(region='eu', amount=120, items=2), Row(region='eu', amount=45, items=3)],\n"
                "                             Types.ROW_NAMED(['region', 'amount', 'items'], [Types.STRING(), Types.INT(), Types.INT()]))\n"
                "orders.key_by(lambda o: o.region).reduce(AddUp()).print()\n",
                imports="from pyflink.common import Row, Types\nfrom pyflink.datastream import RuntimeExecutionMode\n"
                "from pyflink.datastream.functions import ReduceFunction\n",
            ),
            "from pyspark.sql import Row, SparkSession, functions as F\n\n"
            "env = SparkSession.builder.getOrCreate()\n"
            # AddUp: read by nothing once its reduce is an aggregation (transpiler/unread.py)
            "orders = env.createDataFrame(\n"
            '    [Row(region="eu", amount=120, items=2), Row(region="eu", amount=45, items=3)],\n'
            '    "region STRING, amount INT, items INT",\n'
            ")\n"
            'orders.groupBy("region").agg(\n'
            '    F.sum("amount").cast("int").alias("amount"), F.max("items").alias("items")\n'
            ").show(2147483647, truncate=False)\n",
        ),
        Example(  # STREAMING (rolling) on a DataFrame, per-field sums/min/max: window functions over the source order
            program(
                "orders = env.from_collection([Row(region='eu', amount=120, items=2), Row(region='eu', amount=45, items=3)],\n"
                "                             Types.ROW_NAMED(['region', 'amount', 'items'], [Types.STRING(), Types.INT(), Types.INT()]))\n"
                "orders.key_by(lambda o: o.region).reduce(\n"
                "    lambda a, b: Row(region=a.region, amount=a.amount + b.amount, items=max(a.items, b.items))).print()\n",
                imports="from pyflink.common import Row, Types\n",
            ),
            "from pyspark.sql import Row, SparkSession, Window, functions as F\n\n"
            "env = SparkSession.builder.getOrCreate()\n"
            "orders = env.createDataFrame(\n"
            '    [Row(region="eu", amount=120, items=2), Row(region="eu", amount=45, items=3)],\n'
            '    "region STRING, amount INT, items INT",\n'
            ")\n"
            'by_key = Window.partitionBy("region").orderBy("seq")\n'
            'orders.withColumn("seq", F.monotonically_increasing_id()).select(\n'
            '    "region",\n'
            '    F.sum("amount").over(by_key).cast("int").alias("amount"),\n'
            '    F.max("items").over(by_key).alias("items"),\n'
            ").show(2147483647, truncate=False)\n",
        ),
        Example(
            program("counts = env.from_collection([('a', 1)]).key_by(lambda p: p[0]).reduce(lambda a, b: (a[0], a[1] + b[1]))\n"),
            spark_program(
                "counts = f2s.rolling_reduce(\n"
                '    env.sparkContext.parallelize([("a", 1)]).keyBy(lambda p: p[0]),\n'
                "    lambda a, b: (a[0], a[1] + b[1]),\n"
                ")\n",
                shim=True,
                rdd='the source `.from_collection()` at line 4 has no type_info (no DataFrame schema)',
            ),
        ),
        Example(
            program(
                "env.set_runtime_mode(RuntimeExecutionMode.BATCH)\n\n\n"
                "class Add(ReduceFunction):\n    def reduce(self, a, b):\n        return a + b\n\n\n"
                "total = env.from_collection([1, 2]).key_by(lambda x: x % 2).reduce(Add())\n",
                imports="from pyflink.datastream import ReduceFunction, RuntimeExecutionMode\n",
            ),
            spark_program(
                "\n\nclass Add:\n    def reduce(self, a, b):\n        return a + b\n\n\n"
                "total = f2s.final_reduce(\n"
                "    env.sparkContext.parallelize([1, 2]).keyBy(lambda x: x % 2), Add().reduce\n"
                ")\n",
                shim=True,
                rdd='the source `.from_collection()` at line 13 has no type_info (no DataFrame schema)',
            ),
        ),
        Example(
            program(
                "source = (\n    KafkaSource.builder()\n    .set_bootstrap_servers('kafka:9092')\n    .set_topics('words')\n"
                "    .set_value_only_deserializer(SimpleStringSchema())\n    .build()\n)\n"
                "words = env.from_source(source, WatermarkStrategy.no_watermarks(), 'words')\n"
                "counts = words.map(lambda w: (w, 1)).key_by(lambda p: p[0]).reduce(lambda a, b: (a[0], a[1] + b[1]))\n",
                imports="from pyflink.common import SimpleStringSchema, WatermarkStrategy\n"
                "from pyflink.datastream.connectors.kafka import KafkaSource\n",
            ),
            'from pyspark.sql import Row, SparkSession, functions as F\n'
            'from pyspark.sql.streaming import StatefulProcessor\n'
            '\n'
            'env = SparkSession.builder.getOrCreate()\n'
            '# NOTE(flink2spark): F2S250 the Kafka connector is not part of PySpark: run with spark-submit --packages org.apache.spark:spark-sql-kafka-0-10_2.13:<your Spark version>\n'
            'words = (\n'
            '    env.readStream.format("kafka")\n'
            '    .option("kafka.bootstrap.servers", "kafka:9092")\n'
            '    .option("subscribe", "words")\n'
            '    .option("startingOffsets", "earliest")\n'
            '    .load()\n'
            '    .select(F.col("value").cast("string").alias("value"))\n'
            ')\n'
            '\n'
            '\n'
            "# NOTE(flink2spark): F2S258 keyed rolling aggregation on an unbounded stream: each key's aggregate so far is kept by groupBy().transformWithState() in the query's checkpoint (Spark >= 4.1, pyarrow, pandas and protobuf on the driver and the workers, the RocksDB state store, set here); the running values come out per micro-batch, and a key's rows of one micro-batch in the order Spark's shuffle gives them (each Kafka partition's in offset order unless the sort spills to disk; Flink: arrival order)\n"
            'class RollingReduce(StatefulProcessor):\n'
            '    """Flink\'s keyed rolling reduce(): per key, the aggregate so far after each row."""\n'
            '\n'
            '    def init(self, handle):\n'
            '        self.so_far = handle.getValueState("so_far", "f0 STRING, f1 INT")\n'
            '\n'
            '    def handleInputRows(self, key, rows, timerValues):\n'
            '        so_far = self.so_far.get()\n'
            '        for row in rows:\n'
            '            so_far = (\n'
            '                (row["f0"], row["f1"])\n'
            '                if so_far is None\n'
            '                else (row["f0"], so_far[1] + row["f1"])\n'
            '            )\n'
            '            yield Row(f0=so_far[0], f1=so_far[1])\n'
            '        if so_far is not None:\n'
            '            self.so_far.update(so_far)\n'
            '\n'
            '\n'
            'SparkSession.active().conf.set(\n'
            '    "spark.sql.streaming.stateStore.providerClass",\n'
            '    "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider",\n'
            ')\n'
            'counts = (\n'
            '    words.select(F.col("value").alias("f0"), F.lit(1).alias("f1"))\n'
            '    .groupBy("f0")\n'
            '    .transformWithState(RollingReduce(), "f0 STRING, f1 INT", "Append", "None")\n'
            ')\n'
        ),
    ],
    noop=["from functools import reduce\n\ntotal = reduce(lambda a, b: a + b, [1, 2])\n"],
)


def reducer(ctx):
    """``f2s.rolling_reduce`` or ``f2s.final_reduce`` for the module's runtime mode; when there
    is none, the rule's result that leaves the call as it is (``results.unconverted``)."""
    mode = runtime_mode(ctx)
    if mode is None:
        return ctx.todo(
            M.PF_RUNTIME_MODE,
            f"{ctx.site.head.method}(): the runtime mode (STREAMING: one result per element, BATCH: one per key)"
            " is set from an expression or a configuration; use f2s.rolling_reduce or f2s.final_reduce",
        )
    keyed = ctx.site.head.original.func.value  # type: ignore[attr-defined]
    if facts(ctx.resolver, keyed).micro_batches:
        if mode != "streaming" or K.rolling_key_by(ctx.resolver, keyed) is None:
            return ctx.keep("an aggregation of an unbounded keyed stream: the key_by() it reads has the TODO")
        ctx.note(M.PF_ROLLING_STATE, K.ROLLING_NOTE)
        return K.shim(ctx, "rolling_reduce")
    return ctx.shim("rolling_reduce" if mode == "streaming" else "final_reduce")


def grouped(ctx, seg):
    """A BATCH keyed reduction of a frame (the program model's plan): ``groupBy(keys).agg(...)``
    of the per-field aggregates (``_frames.aggregation``), in the record's field order."""
    from flink2spark.rules.pyflink import _frames
    from flink2spark.rules.pyflink._streams import graph
    from flink2spark.transpiler import imports as I

    g = graph(ctx.resolver)
    shape = facts(ctx.resolver, seg.original).frame
    agg = _frames.aggregation(g, seg.original, shape)
    if agg is None:  # it needs the order of the key's elements
        return finalled(ctx, seg)
    I.need(ctx.conv.codemod, "pyspark.sql", "functions", "F")
    keys, aggs = _frames.aggregate_code(agg, shape)
    out = ctx.expr("{df}.groupBy(%s).agg(%s)" % (keys, aggs), df=ctx.site.receiver)
    order = _frames.aggregate_order(agg)
    return out if order is None else ctx.expr("{df}.select(%s)" % order, df=out)


@rule.converter
def convert(ctx):
    seg = ctx.site.head
    if facts(ctx.resolver, seg.original).frame is not None:
        return rolled(ctx, seg) if runtime_mode(ctx) == "streaming" else grouped(ctx, seg)
    found = ctx.arg(seg, 0, "func")
    known = ctx.conv.class_of(found[0]) if found is not None else None
    if known is not None and (F._method(known[0].node, "open") or F._method(known[0].node, "close")):
        return ctx.todo(M.PF_UNSUPPORTED, f"reduce() with {known[0].node.name.value}.open()/close(): call them by hand")
    shim = reducer(ctx)
    if unconverted(shim):
        return shim
    fn = ctx.function(seg, "reduce")
    if fn is None:
        return ctx.todo_left()
    return reduced(ctx, shim, fn)


def reduced(ctx, shim, fn):
    """``shim(keyed, fn)`` of the site's keyed stream; on a bounded timestamped stream ``fn``
    reduces the values of (timestamp, value) pairs (``reducing_values``; on an unbounded one
    the shim keeps the timestamps itself)."""
    keyed = ctx.site.head.original.func.value  # type: ignore[attr-defined]
    if facts(ctx.resolver, keyed).timestamped and not facts(ctx.resolver, keyed).micro_batches:
        fn = ctx.expr("{r}({fn})", r=windows_shim(ctx, "reducing_values"), fn=fn)
    return decoded_output(ctx, ctx.expr("{reduce}({keyed}, {fn})", reduce=shim, keyed=ctx.site.receiver, fn=fn))
