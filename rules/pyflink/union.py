"""``a.union(b, c, ...)`` -> ``a.union(b).union(c)``: all elements of all streams.

DataFrames of one schema (the program model's frame form: every input a frame of the same
columns) union by position, as Flink's streams of one type do.

Flink interleaves the inputs in no particular order; Spark's union keeps them one after the
other, one of Flink's possible orders. Keyed streams contribute their elements (``values()``).
On unbounded (Kafka, monitored files) streams the same ``a.union(b)`` runs on
``f2s_stream.MicroBatches``: each input's elements, pickled after its operators, in one
streaming DataFrame (``unionByName``). A union of an unbounded stream with a bounded one, or
of unbounded streams with and without timestamps or of keyed ones, keeps TODO F2S254.

Like ``key_by``, a union passes the elements through Flink's serializers: where that changes
objects a Python function made (``Types.ROW``/``TUPLE``/``FLOAT`` streams),
``map(f2s.decoded(type_info))`` follows.
"""

from flink2spark.rules.pyflink._streams import union_problem
from flink2spark.rules.pyflink._common import as_stream, decoding, program, spark_program
from flink2spark.rules.pyflink._time import windows_shim
from flink2spark.rules.pyflink._streams import facts
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule

rule = Rule(
    __name__,
    matches=["DataStream.union"],
    summary="union(*streams) -> DataFrame.union(...) of frames of one schema; RDD.union(...) per stream (MicroBatches.union on unbounded streams)",
    codes=(M.PF_UNSUPPORTED, M.PF_UNBOUNDED_STATE),
    examples=[
        Example(  # DataFrames of one schema (the program model's frame form)
            program(
                "a = env.from_collection(['x'], type_info=Types.STRING())\n"
                "b = env.from_collection(['y'], type_info=Types.STRING())\n"
                "a.union(b, a).print()\n",
                imports="from pyflink.common import Types\n",
            ),
            "from pyspark.sql import SparkSession\n\n"
            "env = SparkSession.builder.getOrCreate()\n"
            'a = env.createDataFrame(["x"], "string")\n'
            'b = env.createDataFrame(["y"], "string")\n'
            "a.union(b).union(a).show(2147483647, truncate=False)\n",
        ),
        Example(  # pickled lists have no DataFrame schema: RDDs
            program("a = env.from_collection([[1]])\nb = env.from_collection([[2]])\nall_ = a.union(b, a)\n"),
            spark_program("a = env.sparkContext.parallelize([[1]])\nb = env.sparkContext.parallelize([[2]])\nall_ = a.union(b).union(a)\n", rdd='the source `.from_collection()` at line 4 has no type_info (no DataFrame schema)'),
        ),
        Example(  # pickled literals of one type: frames of their values (a union reads no column)
            program("a = env.from_collection([1])\nb = env.from_collection([2])\nall_ = a.union(b, a)\n"),
            "from pyspark.sql import SparkSession\n\n"
            "env = SparkSession.builder.getOrCreate()\n"
            'a = env.createDataFrame([1], "bigint")\n'
            'b = env.createDataFrame([2], "bigint")\n'
            "all_ = a.union(b).union(a)\n",
        ),
    ],
    noop=["names = {'a'}.union({'b'}, {'c'})\n"],
)


@rule.converter
def convert(ctx):
    seg = ctx.site.head
    if not seg.args or any(a.keyword is not None or a.star for a in seg.original_args):
        return ctx.todo(M.PF_UNSUPPORTED, "union() takes the streams as positional arguments")
    streams = [seg.original.func.value, *(a.value for a in seg.original_args)]  # type: ignore[attr-defined]
    if facts(ctx.resolver, seg.original).frame is not None:  # DataFrames of one schema: by position, as Flink's
        result = ctx.site.receiver
        for converted in seg.args:
            result = ctx.expr("{a}.union({b})", a=result, b=converted.value)
        return result
    if facts(ctx.resolver, seg.original).micro_batches:
        problem = union_problem(ctx.resolver, streams)
        if problem is not None:
            return ctx.todo(M.PF_UNBOUNDED_STATE, problem)
    # With event timestamps on any input, all become (timestamp, value) pairs (f2s.windows.NO_TIMESTAMP: none).
    stamped = [facts(ctx.resolver, s).timestamped for s in streams]

    def element(converted, original, has_timestamps):
        stream = as_stream(ctx, converted, ctx.resolver.type_of(original))
        if any(stamped) and not has_timestamps:
            return ctx.expr("{w}({s})", w=windows_shim(ctx, "without_timestamps"), s=stream)
        return stream

    result = element(ctx.site.receiver, streams[0], stamped[0])
    for original, converted, has_timestamps in zip(streams[1:], seg.args, stamped[1:]):
        result = ctx.expr("{a}.union({b})", a=result, b=element(converted.value, original, has_timestamps))
    decode = decoding(ctx, streams, seg.original)
    return result if decode is None else ctx.expr("{u}.%s({d})" % ("mapValues" if any(stamped) else "map"), u=result, d=decode)
