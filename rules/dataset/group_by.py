"""``group_by(*keys)`` -> ``RDD.keyBy(key)``: a pair RDD that the grouped operations use.

Keys are field indexes (``group_by(0, 1)`` -> ``lambda t: (t[0], t[1])``), a lambda or def, or
a ``KeySelectorFunction`` (``KeyByWord().get_key``). On a data set the program model lowers to a
DataFrame (``rules/dataset/_frames.py``: field indexes, read by an aggregation with a frame
form): ``groupBy`` of the key columns.
"""

from flink2spark.rules.dataset import _frames
from flink2spark.rules.dataset._common import frame_program, program, spark_program
from flink2spark.transpiler.registry import Example, Rule

rule = Rule(
    __name__,
    matches=["DataSet.group_by"],
    summary="group_by(keys) -> RDD.keyBy(key function); field indexes of a DataFrame: groupBy(columns) (native)",
    examples=[
        Example(
            program("counts = env.from_elements(('a', 1)).group_by(0).reduce(lambda a, b: (a[0], a[1] + b[1]))\n"),
            spark_program(
                'counts = (\n    env.sparkContext.parallelize([("a", 1)])\n    .keyBy(lambda t: t[0])\n'
                "    .reduceByKey(lambda a, b: (a[0], a[1] + b[1]))\n    .values()\n)\n"
            ),
        ),
        Example(
            program("grouped = env.from_elements((1, 2, 3)).group_by(0, 2)\n"),
            spark_program("grouped = env.sparkContext.parallelize([(1, 2, 3)]).keyBy(lambda t: (t[0], t[2]))\n"),
        ),
        Example(  # on a DataFrame (rules/dataset/_frames.py): groupBy of the key columns
            program("env.from_elements(('a', 1, 2)).group_by(0, 1).min(2).output()\n"),
            frame_program(
                'env.createDataFrame([("a", 1, 2)], "f0 STRING, f1 INT, f2 INT").groupBy("f0", "f1").agg(\n'
                '    F.min("f2").alias("f2")\n'
                ").show(2147483647, truncate=False)\n"
            ),
        ),
    ],
    noop=["import pandas as pd\n\ndf = pd.DataFrame({'a': [1]})\ng = df.groupby('a').sum()\n"],
)


@rule.converter
def convert(ctx):
    grouping = _frames.frame(ctx.resolver, ctx.site.head.original)
    if grouping is not None:  # a frame's key fields (rules/dataset/_frames.py)
        keys = ", ".join(f'"{grouping.shape.fields[k].name}"' for k in grouping.keys)
        return ctx.expr("{df}.groupBy(%s)" % keys, df=ctx.site.receiver)
    key = ctx.key(ctx.site.head)
    if key is None:
        return ctx.todo_left()
    return ctx.expr("{ds}.keyBy({key})", ds=ctx.site.receiver, key=key)
