"""``map_partition(f)`` -> ``RDD.coalesce(1).mapPartitions(f)``.

Flink's DataSet jobs ran at parallelism 1, so the function saw ONE partition holding every
element (Flink's own test suites verify whole results inside a map_partition). ``coalesce(1)``
reproduces that exactly; a Spark engineer may drop it where the function does not depend on
partition boundaries. ``count_elements_per_partition`` keeps Spark's partitions, with a NOTE.
"""

from flink2spark.rules.dataset._common import program, spark_program
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule

rule = Rule(
    __name__,
    matches=["DataSet.map_partition", "DataSet.count_elements_per_partition"],
    summary="map_partition(f) -> RDD.coalesce(1).mapPartitions(f) (one partition, as at Flink's parallelism 1)",
    codes=(M.DS_PARTITION,),
    examples=[
        Example(
            program("sums = env.from_elements(1, 2).map_partition(lambda it, c: [sum(it)])\n"),
            spark_program(
                "sums = (\n    env.sparkContext.parallelize([1, 2]).coalesce(1).mapPartitions(lambda it: [sum(it)])\n)\n"
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
        return ctx.todo_left()
    return ctx.expr("{ds}.coalesce(1).mapPartitions({fn})", ds=ctx.site.receiver, fn=fn)
