"""``env.from_elements(*elements)`` -> ``sparkContext.parallelize([...])``.

Order is kept: ``collect()`` returns a parallelized list in order, as Flink's parallelism-1
source did. Literal scalars or tuples of one shape (str, int, bool) that the program model
lowers to a DataFrame (``rules/dataset/_frames.py``): ``createDataFrame([...], "f0 STRING, f1
INT")`` (INT where every literal fits 32 bits, else BIGINT; larger ints and floats: an RDD).
"""

import json

import libcst as cst

from flink2spark.rules.dataset import _frames
from flink2spark.rules.dataset._common import frame_program, program, spark_program
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule

rule = Rule(
    __name__,
    matches=["Environment.from_elements"],
    summary="from_elements(*xs) -> sparkContext.parallelize([*xs]); literals of one shape: createDataFrame(xs, schema) (native)",
    examples=[
        Example(
            program('words = env.from_elements("a", ("b", 1))\n'),
            spark_program('words = env.sparkContext.parallelize(["a", ("b", 1)])\n'),
        ),
        Example(
            program("rows = env.from_elements(*records)\n"),
            spark_program("rows = env.sparkContext.parallelize([*records])\n"),
        ),
        Example(  # literals of one shape: a DataFrame of their types (rules/dataset/_frames.py)
            program(
                "env.from_elements(('a', 1), ('b', 2)).filter(lambda t: t[1] > 1).output()\n",
            ),
            frame_program(
                'env.createDataFrame([("a", 1), ("b", 2)], "f0 STRING, f1 INT").where(\n'
                '    F.col("f1") > 1\n'
                ').show(2147483647, truncate=False)\n'
            ),
        ),
    ],
    noop=["import pandas as pd\n\nclass E:\n    def from_elements(self, *a):\n        return a\n\n\nE().from_elements(1, 2)\n"],
)


@rule.converter
def convert(ctx):
    elements = []
    for arg in ctx.site.head.args:
        if arg.keyword is not None:
            return ctx.todo(M.DS_UNSUPPORTED, f"from_elements(): keyword argument {arg.keyword.value}=")
        if arg.star == "*":
            elements.append(cst.StarredElement(arg.value))
        else:
            elements.append(cst.Element(arg.value))
    shape = _frames.frame(ctx.resolver, ctx.site.head.original)
    if shape is not None:  # literals of one shape: a DataFrame of their types (rules/dataset/_frames.py)
        from flink2spark.rules.pyflink._frames import ddl

        return ctx.expr("{env}.createDataFrame({xs}, {schema})", env=ctx.site.receiver, xs=cst.List(elements),
                        schema=cst.SimpleString(json.dumps(ddl(shape))))
    return ctx.expr("{env}.sparkContext.parallelize({xs})", env=ctx.site.receiver, xs=cst.List(elements))
