"""``a.union(b, c, ...)`` -> ``a.union(b).union(c)``: all elements of all streams.

Flink interleaves the inputs in no particular order; Spark's union keeps them one after the
other, one of Flink's possible orders. Keyed streams contribute their elements (``values()``).
Like ``key_by``, a union passes the elements through Flink's serializers: where that changes
objects a Python function made (``Types.ROW``/``TUPLE``/``FLOAT`` streams),
``map(f2s.decoded(type_info))`` follows.
"""

from flink2spark.rules.pyflink._common import as_stream, decoding, program, spark_program
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule

rule = Rule(
    __name__,
    matches=["DataStream.union"],
    summary="union(*streams) -> RDD.union(...) per stream",
    codes=(M.PF_UNSUPPORTED,),
    examples=[
        Example(
            program("a = env.from_collection([1])\nb = env.from_collection([2])\nall_ = a.union(b, a)\n"),
            spark_program("a = env.sparkContext.parallelize([1])\nb = env.sparkContext.parallelize([2])\nall_ = a.union(b).union(a)\n"),
        ),
    ],
    noop=["names = {'a'}.union({'b'}, {'c'})\n"],
)


@rule.converter
def convert(ctx):
    seg = ctx.site.head
    if not seg.args or any(a.keyword is not None or a.star for a in seg.original_args):
        ctx.todo(M.PF_UNSUPPORTED, "union() takes the streams as positional arguments")
        return None
    result = as_stream(ctx, ctx.site.receiver, ctx.site.receiver_type)
    for original, converted in zip(seg.original_args, seg.args):
        other = as_stream(ctx, converted.value, ctx.resolver.type_of(original.value))
        result = ctx.expr("{a}.union({b})", a=result, b=other)
    streams = [seg.original.func.value, *(a.value for a in seg.original_args)]  # type: ignore[attr-defined]
    decode = decoding(ctx, streams, seg.original)
    return result if decode is None else ctx.expr("{u}.map({d})", u=result, d=decode)
