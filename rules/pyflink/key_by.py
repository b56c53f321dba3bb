"""``key_by(key_selector)`` -> ``RDD.keyBy(key)``: a keyed stream is a pair RDD.

On a DataFrame (the program model's frame form: the selector picks fields, ``lambda o:
o.region``, ``lambda t: (t[0], t[1])``, ``_frames.key_fields``) the keyed stream is the
DataFrame itself: the operator reading it groups by those columns (``groupBy``).

The key selector is a lambda, a def, any callable or a ``KeySelector`` class
(``Cls().get_key``); ``key_type`` only types the key inside Flink and is dropped. The operators
of a keyed stream unwrap it: ``reduce``/``sum``/... reduce per key, ``map``/``filter``/``print``
work on its ``values()``.

``key_by`` sends the elements through Flink's serializers for the stream's type: the keyed
operators get them decoded again, which changes objects a Python function made in a way that
does not match the type (a positional ``Row`` under ``Types.ROW_NAMED`` gets the field names,
a list under ``Types.TUPLE`` becomes a tuple, ``Types.FLOAT`` keeps 32 bits). Where that can
happen (a ``Types.ROW``/``TUPLE``/``FLOAT`` stream made by a Python function),
``mapValues(f2s.decoded(type_info))`` does the same; elements straight from a source are
decoded already.

On an unbounded (Kafka) stream the keyed stream read only by rolling aggregations
(``reduce``/``sum``/``min``/``max``/``min_by``/``max_by``) or by ``process()`` of a keyed
process function without timers (``_kafka.streaming_process_class``) becomes
``stream.keyBy(key)`` of the ``f2s_stream`` micro-batch stream, read by
``f2s_stream.rolling_reduce``/``keyed_process`` (per-key state in ``transformWithState``,
STREAMING runtime mode); any other use of it (windows, map...) keeps the TODO F2S254.
"""

import libcst as cst

from flink2spark.rules.pyflink import _kafka as K
from flink2spark.rules.pyflink._common import as_stream, decoding, program, runtime_mode, spark_program
from flink2spark.rules.pyflink._time import windows_shim
from flink2spark.rules.pyflink._streams import facts
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule

rule = Rule(
    __name__,
    matches=["DataStream.key_by"],
    summary="key_by(field selector) on a DataFrame -> the DataFrame (its consumer groups by the fields); else key_by(selector) -> RDD.keyBy(selector) (pair RDD; MicroBatches.keyBy on an unbounded stream read by rolling aggregations)",
    codes=(M.PF_FUNCTION, M.PF_UNBOUNDED_STATE),
    examples=[
        Example(  # on a DataFrame: the keys are the grouping columns of what reads it
            program(
                "env.set_runtime_mode(RuntimeExecutionMode.BATCH)\n"
                "sales = env.from_collection([('north', 5)], Types.TUPLE([Types.STRING(), Types.INT()]))\n"
                "by_store = sales.key_by(lambda s: s[0])\n"
                "by_store.sum(1).print()\n",
                imports="from pyflink.common import Types\nfrom pyflink.datastream import RuntimeExecutionMode\n",
            ),
            "from pyspark.sql import SparkSession, functions as F\n\n"
            "env = SparkSession.builder.getOrCreate()\n"
            'sales = env.createDataFrame([("north", 5)], "f0 STRING, f1 INT")\n'
            "by_store = sales\n"
            'by_store.groupBy("f0").agg(F.sum("f1").cast("int").alias("f1")).show(\n'
            "    2147483647, truncate=False\n"
            ")\n",
        ),
        Example(
            program(
                "\n\nclass ByFirst(KeySelector):\n    def get_key(self, value):\n        return value[0]\n\n\n"
                "pairs = env.from_collection([('a', 1)])\n"
                "a = pairs.key_by(lambda p: p[0], key_type=Types.STRING())\n"
                "b = pairs.key_by(ByFirst())\n"
                "c = pairs.map(lambda p: [p[0], p[1]], Types.TUPLE([Types.STRING(), Types.INT()])).key_by(lambda p: p[0])\n",
                imports="from pyflink.common import Types\nfrom pyflink.datastream import KeySelector\n",
            ),
            spark_program(
                "\n\nclass ByFirst:\n    def get_key(self, value):\n        return value[0]\n\n\n"
                'pairs = env.sparkContext.parallelize([("a", 1)])\n'
                "a = pairs.keyBy(lambda p: p[0])\n"
                "b = pairs.keyBy(ByFirst().get_key)\n"
                "c = (\n"
                "    pairs.map(lambda p: [p[0], p[1]])\n"
                "    .keyBy(lambda p: p[0])\n"
                "    .mapValues(f2s.decoded(f2s.Types.TUPLE([f2s.Types.STRING(), f2s.Types.INT()])))\n"
                ")\n",
                shim=True,
                rdd='the source `.from_collection()` at line 13 has no type_info (no DataFrame schema)',
            ),
        ),
    ],
    noop=["class Table:\n    def key_by(self, f):\n        return self\n\n\nTable().key_by(len)\n"],
)


@rule.converter
def convert(ctx):
    seg = ctx.site.head
    if facts(ctx.resolver, seg.original).frame is not None:
        # a DataFrame: the keys are read by the aggregation that groups by them (groupBy)
        return ctx.site.receiver
    unbounded = facts(ctx.resolver, seg.original.func.value).micro_batches  # type: ignore[attr-defined]
    if unbounded and (runtime_mode(ctx) != "streaming" or K.rolling_key_by(ctx.resolver, seg.original) is None):
        return ctx.todo(M.PF_UNBOUNDED_STATE, K.KEYED_TODO)
    fn = ctx.function(seg, "key")
    if fn is None:
        return ctx.todo_left()
    stream = as_stream(ctx, ctx.site.receiver, ctx.site.receiver_type)
    decode = decoding(ctx, [seg.original.func.value], seg.original)  # type: ignore[attr-defined]
    if facts(ctx.resolver, seg.original.func.value).timestamped and not unbounded:  # type: ignore[attr-defined]
        # (key, (timestamp, value)): the records keep their timestamps (runtime/windows.py)
        if decode is not None:
            stream = ctx.expr("{s}.mapValues({d})", s=stream, d=decode)
        return cst.Call(func=windows_shim(ctx, "keyed"), args=[cst.Arg(stream), cst.Arg(fn)])
    keyed = ctx.expr("{ds}.keyBy({fn})", ds=stream, fn=fn)
    return keyed if decode is None else ctx.expr("{k}.mapValues({d})", k=keyed, d=decode)
