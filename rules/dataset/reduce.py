"""``reduce(f)`` on a DataSet or a grouping.

* Grouped: ``keyBy(k).reduceByKey(f).values()``.
* Whole DataSet: ``keyBy(lambda _: None).reduceByKey(f).values()``, which stays lazy and gives
  an empty result for empty input, as Flink does (``RDD.reduce`` is an action and raises).

On a grouped data set the program model lowers to a DataFrame (``rules/dataset/_frames.py``:
integer fields, min/max of strings too, every field not aggregated a key field, so no field
comes from the group's first record): ``groupBy(keys).agg(F.sum/min/max(field))``, then a
``select`` restoring the field order. Spark's sum of integers is a BIGINT: NOTE F2S280 on a
sum of a BIGINT field (past 64 bits Spark's ANSI sum fails the job, Python's int goes on).
"""

from flink2spark.rules.dataset import _frames
from flink2spark.rules.dataset._common import frame_program, program, spark_program
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule

rule = Rule(
    __name__,
    matches=["DataSet.reduce", "UnsortedGrouping.reduce"],
    # exact; a BIGINT sum of a DataFrame carries NOTE F2S280 (past 64 bits Spark fails the job)
    codes=(M.DS_FRAME_SUM,),
    summary="reduce(f) -> reduceByKey(f).values() (lazy; empty input gives empty output); on a grouped DataFrame: groupBy(keys).agg(F.sum/min/max) (native; NOTE F2S280 on a BIGINT sum)",
    examples=[
        Example(
            program("total = env.from_elements(1, 2).reduce(lambda a, b: a + b)\n"),
            spark_program(
                "total = (\n    env.sparkContext.parallelize([1, 2])\n    .keyBy(lambda _: None)\n"
                "    .reduceByKey(lambda a, b: a + b)\n    .values()\n)\n"
            ),
        ),
        Example(  # on a DataFrame (rules/dataset/_frames.py): each field a key, a sum, a min or a max: groupBy().agg
            program(
                "env.from_elements(('a', 3), ('a', 5)).group_by(0).reduce(lambda a, b: (a[0], min(a[1], b[1]))).output()\n",
            ),
            frame_program(
                'env.createDataFrame([("a", 3), ("a", 5)], "f0 STRING, f1 INT").groupBy("f0").agg(\n'
                '    F.min("f1").alias("f1")\n'
                ').show(2147483647, truncate=False)\n'
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
