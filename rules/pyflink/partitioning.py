"""Partitioning: ``forward()``/``rebalance()``/``rescale()``/``shuffle()`` are dropped,
``partition_custom(partitioner, key_selector)`` -> ``f2s.partitioned(stream, partitioner,
key)``, ``broadcast()`` -> ``f2s.broadcast_all(stream)``, ``broadcast(descriptor, ...)`` ->
``f2s.broadcast(stream, descriptor, ...)`` (for ``connect``).

Flink's partitioners only decide which parallel instance gets an element: the elements stay
the same. ``forward`` keeps Spark's partitions as they are (exact); ``rebalance``/``rescale``/
``shuffle`` spread elements evenly or at random over the instances, which only changes which
Spark partition holds an element and the order printed (NOTE F2S235): they are dropped, since
the RDD is already spread over the default parallelism. ``partition_custom`` places each element
in partition ``partitioner.partition(key, n)`` as Flink does (``n``: the program's
``env.set_parallelism(n)``, else the default parallelism, the number of cores on both). ``broadcast()`` sends every element to every
instance of the next operator: the shim gives each of the ``n`` partitions a copy.
"""

import libcst as cst

from flink2spark.rules.pyflink._common import as_stream, program, spark_program
from flink2spark.rules.pyflink._process import env_parallelism, shim_call
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule

rule = Rule(
    __name__,
    matches=[
        "DataStream.forward",
        "DataStream.rebalance",
        "DataStream.rescale",
        "DataStream.shuffle",
        "DataStream.partition_custom",
        "DataStream.broadcast",
    ],
    exact=False,
    summary="forward/rebalance/rescale/shuffle dropped; partition_custom -> f2s.partitioned; broadcast() -> f2s.broadcast_all / f2s.broadcast",
    codes=(M.PF_PARTITIONING, M.PF_FUNCTION, M.PF_PROCESS),
    examples=[
        Example(
            program("numbers = env.from_collection([[1], [2]]).rebalance().map(lambda x: x[0] + 1).forward()\n"),
            'from pyspark.sql import SparkSession\n'
            '\n'
            '# NOTE(flink2spark): F2S205 PyFlink streams become RDDs: Python functions over records run on the RDD API (SparkContext), which Spark Connect does not offer; here because the source `.from_collection()` at line 4 has no type_info (no DataFrame schema)\n'
            'env = SparkSession.builder.getOrCreate()\n'
            "# NOTE(flink2spark): F2S235 rebalance(): dropped (the RDD is spread over Spark's default parallelism already); same elements, the order they are printed in may differ\n"
            'numbers = env.sparkContext.parallelize([[1], [2]]).map(lambda x: x[0] + 1)\n',
        ),
        Example(
            program(
                "\n\nclass ByParity(Partitioner):\n"
                "    def partition(self, key, num_partitions):\n"
                "        return key % num_partitions\n\n\n"
                "numbers = env.from_collection([1, 2]).partition_custom(ByParity(), lambda x: x)\n",
                imports="from pyflink.datastream import Partitioner\n",
            ),
            spark_program(
                "\n\nclass ByParity(f2s.Partitioner):\n"
                "    def partition(self, key, num_partitions):\n"
                "        return key % num_partitions\n\n\n"
                "numbers = f2s.partitioned(env.sparkContext.parallelize([1, 2]), ByParity(), lambda x: x)\n",
                shim=True,
                rdd='the source `.from_collection()` at line 12 has no type_info (no DataFrame schema)',
            ),
        ),
    ],
    noop=["import random\n\nitems = [1, 2]\nrandom.shuffle(items)\n"],
)


@rule.converter
def convert(ctx):
    seg = ctx.site.head
    stream = as_stream(ctx, ctx.site.receiver, ctx.site.receiver_type)
    if seg.method == "forward":
        return stream
    if seg.method in ("rebalance", "rescale", "shuffle"):
        ctx.note(
            M.PF_PARTITIONING,
            f"{seg.method}(): dropped (the RDD is spread over Spark's default parallelism already); same elements,"
            " the order they are printed in may differ",
        )
        return stream
    if seg.method == "broadcast":
        if not seg.args:
            parallelism = _parallelism(ctx, "broadcast()")
            return ctx.todo_left() if parallelism is False else shim_call(ctx, "broadcast_all", [stream], {"parallelism": parallelism})
        if any(a.star or a.keyword is not None for a in seg.original_args):
            return ctx.todo(M.PF_PROCESS, "broadcast(): state descriptors given with * or keywords")
        return cst.Call(func=ctx.shim("broadcast"), args=[cst.Arg(stream), *ctx.call_args(seg.args)])
    partitioner = ctx.arg(seg, 0, "partitioner")
    if partitioner is None:
        return ctx.todo(M.PF_FUNCTION, "partition_custom(): no partitioner argument found")
    key = ctx.function(seg, "key", index=1)
    if key is None:
        return ctx.todo_left()
    parallelism = _parallelism(ctx, "partition_custom()")
    if parallelism is False:
        return ctx.todo_left()
    return shim_call(ctx, "partitioned", [stream, partitioner[1], key], {"parallelism": parallelism})


def _parallelism(ctx, what):
    """``parallelism=n`` for the shim when the program sets ``env.set_parallelism(n)`` (the
    number of instances the elements go to), None for Flink's default (the number of cores,
    Spark's local default parallelism); False after a TODO when it cannot be told."""
    known, n = env_parallelism(ctx)
    if not known:
        ctx.todo(M.PF_PROCESS, f"{what}: the parallelism (how many instances get the elements) is set from an expression; pass parallelism=n to the shim")
        return False
    return None if n is None else cst.Integer(str(n))
