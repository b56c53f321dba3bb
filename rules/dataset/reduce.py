"""``reduce(f)`` on a DataSet or a grouping.

* Grouped: ``keyBy(k).reduceByKey(f).values()``.
* Whole DataSet: ``keyBy(lambda _: None).reduceByKey(f).values()``, which stays lazy and gives
  an empty result for empty input, as Flink does (``RDD.reduce`` is an action and raises).
"""

from flink2spark.rules.dataset import _frames
from flink2spark.rules.dataset._common import program, spark_program
from flink2spark.transpiler.registry import Example, Rule

rule = Rule(
    __name__,
    matches=["DataSet.reduce", "UnsortedGrouping.reduce"],
    summary="reduce(f) -> reduceByKey(f).values() (lazy; empty input gives empty output)",
    examples=[
        Example(
            program("total = env.from_elements(1, 2).reduce(lambda a, b: a + b)\n"),
            spark_program(
                "total = (\n    env.sparkContext.parallelize([1, 2])\n    .keyBy(lambda _: None)\n"
                "    .reduceByKey(lambda a, b: a + b)\n    .values()\n)\n"
            ),
        ),
    ],
    noop=["from functools import reduce\n\ntotal = reduce(lambda a, b: a + b, [1, 2])\n"],
)


@rule.converter
def convert(ctx):
    seg = ctx.site.head
    grouping = _frames.receiver_frame(ctx)
    if grouping is not None:  # groupBy(keys).agg(...) (rules/dataset/_frames.py)
        return _frames.aggregated(ctx, grouping)
    fn = ctx.function(seg, "reduce")
    if fn is None:
        return ctx.todo_left()
    if ctx.site.receiver_type == "UnsortedGrouping":
        return ctx.expr("{g}.reduceByKey({fn}).values()", g=ctx.site.receiver, fn=fn)
    return ctx.expr("{ds}.keyBy(lambda _: None).reduceByKey({fn}).values()", ds=ctx.site.receiver, fn=fn)
