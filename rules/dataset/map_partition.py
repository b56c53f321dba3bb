"""``map_partition(f)`` -> ``RDD.mapPartitions(f)``, with a NOTE.

Flink's DataSet jobs ran at parallelism 1, so the function saw ONE partition holding every
element; Spark calls it once per partition. Results agree when the function's output does not
depend on where partitions split (per-element work, sums that are added up later); prefix the
call with ``.coalesce(1)`` to reproduce Flink exactly.
"""

from flink2spark.rules.dataset._common import program, spark_program
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule

rule = Rule(
    __name__,
    matches=["DataSet.map_partition", "DataSet.count_elements_per_partition"],
    summary="map_partition(f) -> RDD.mapPartitions(f) (partition boundaries differ: NOTE)",
    exact=False,
    codes=(M.DS_PARTITION,),
    examples=[
        Example(
            program("sums = env.from_elements(1, 2).map_partition(lambda it, c: [sum(it)])\n"),
            spark_program(
                "# NOTE(flink2spark): F2S108 Flink ran this function once over all elements (parallelism 1);"
                " Spark runs it once per partition: add .coalesce(1) before it if the result depends on that\n"
                "sums = env.sparkContext.parallelize([1, 2]).mapPartitions(lambda it: [sum(it)])\n"
            ),
        ),
    ],
    noop=["import numpy as np\n\nclass Frame:\n    def map_partition(self, f):\n        return f\n\n\nFrame().map_partition(np.sum)\n"],
)


@rule.converter
def convert(ctx):
    seg = ctx.site.head
    if seg.method == "count_elements_per_partition":
        ctx.note(M.DS_PARTITION, "Spark's partitions are not Flink's subtasks: counts per partition differ")
        return ctx.expr("{ds}.mapPartitionsWithIndex(lambda index, part: [(index, sum(1 for _ in part))])", ds=ctx.site.receiver)
    fn = ctx.function(seg, "map_partition")
    if fn is None:
        return None
    ctx.note(
        M.DS_PARTITION,
        "Flink ran this function once over all elements (parallelism 1); Spark runs it once per partition:"
        " add .coalesce(1) before it if the result depends on that",
    )
    return ctx.expr("{ds}.mapPartitions({fn})", ds=ctx.site.receiver, fn=fn)
