"""``KeyedStream.reduce(f)``: rolling in STREAMING mode, final in BATCH mode.

PyFlink keeps a reducing state per key (``ReduceProcessKeyedProcessFunctionAdapter``):

* STREAMING (Flink's default): every element emits the reduction of its key's elements so
  far -> ``f2s.rolling_reduce(keyed, f)``;
* BATCH (``set_runtime_mode(RuntimeExecutionMode.BATCH)``, or AUTOMATIC with these bounded
  sources): one record per key at the end of the input -> ``f2s.final_reduce(keyed, f)``.

Spark has no rolling keyed reduce, hence the shim: each key's elements are reduced in stream
order (Flink's order at parallelism 1) and results come out in stream order. The mode is that
of the module's ``set_runtime_mode`` calls; when it cannot be told, a TODO is left.

On an unbounded (Kafka) stream (STREAMING mode) -> ``f2s_stream.rolling_reduce(keyed, f)``:
``groupBy().transformWithState()`` keeps each key's reduction so far across micro-batches and
emits it after every element (NOTE F2S258: what the job needs to run).
"""

from flink2spark.rules.pyflink import _kafka as K
from flink2spark.rules.pyflink._common import SPARK_HEAD, decoded_output, program, runtime_mode, spark_program
from flink2spark.rules.pyflink._time import windows_shim
from flink2spark.rules.pyflink._streams import facts
from flink2spark.transpiler import functions as F
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule
from flink2spark.transpiler.results import unconverted

rule = Rule(
    __name__,
    matches=["KeyedStream.reduce"],
    summary="KeyedStream.reduce(f) -> f2s.rolling_reduce(keyed, f) (STREAMING) / f2s.final_reduce(keyed, f) (BATCH); unbounded: f2s_stream.rolling_reduce",
    codes=(M.PF_RUNTIME_MODE, M.PF_FUNCTION, M.PF_UNSUPPORTED, M.PF_UNBOUNDED_STATE, M.PF_ROLLING_STATE),
    examples=[
        Example(
            program("counts = env.from_collection([('a', 1)]).key_by(lambda p: p[0]).reduce(lambda a, b: (a[0], a[1] + b[1]))\n"),
            spark_program(
                "counts = f2s.rolling_reduce(\n"
                '    env.sparkContext.parallelize([("a", 1)]).keyBy(lambda p: p[0]),\n'
                "    lambda a, b: (a[0], a[1] + b[1]),\n"
                ")\n",
                shim=True,
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
            "from flink2spark.runtime import datastream as f2s, streaming as f2s_stream\n"
            "from pyspark.sql import SparkSession, functions as F\n"
            + SPARK_HEAD
            + "# NOTE(flink2spark): F2S250 " + K.PACKAGE_NOTE + "\n"
            "words = f2s_stream.micro_batches(\n"
            '    env.readStream.format("kafka")\n'
            '    .option("kafka.bootstrap.servers", "kafka:9092")\n'
            '    .option("subscribe", "words")\n'
            '    .option("startingOffsets", "earliest")\n'
            "    .load()\n"
            '    .select(F.col("value").cast("string").alias("value")),\n'
            "    f2s.Types.STRING(),\n"
            ")\n"
            "# NOTE(flink2spark): F2S258 " + K.ROLLING_NOTE + "\n"
            "counts = f2s_stream.rolling_reduce(\n"
            "    words.map(lambda w: (w, 1)).keyBy(lambda p: p[0]), lambda a, b: (a[0], a[1] + b[1])\n"
            ")\n",
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


@rule.converter
def convert(ctx):
    seg = ctx.site.head
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
