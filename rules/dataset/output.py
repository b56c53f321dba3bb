"""``ds.output(to_error=False)`` -> ``f2s.output(rdd)``: prints in Flink's format.

Flink prints every element with its ``Stringify`` (``(a, 1)``: no quotes, nested tuples
recursive), which differs from Python's ``repr``; the shim collects and prints that way.
"""

from flink2spark.rules.dataset._common import program, spark_program
from flink2spark.transpiler.registry import Example, Rule

rule = Rule(
    __name__,
    matches=["DataSet.output"],
    summary="output() -> f2s.output(rdd): shim, Flink printed Stringify ((a, 1), (5)), not Python's str() ('a', 1)",
    examples=[
        Example(
            program('env.from_elements(("a", 1)).output()\n'),
            spark_program('f2s.output(env.sparkContext.parallelize([("a", 1)]))\n', shim=True),
        ),
        Example(
            program("env.from_elements(1).output(to_error=True)\n"),
            spark_program("f2s.output(env.sparkContext.parallelize([1]), to_error=True)\n", shim=True),
        ),
    ],
    noop=["import logging\n\nlog = logging.getLogger()\nlog.output = print\nlog.output()\n"],
)


@rule.converter
def convert(ctx):
    args = [ctx.site.receiver, *(a.value if a.keyword is None else a for a in ctx.site.head.args)]
    import libcst as cst

    return cst.Call(func=ctx.shim("output"), args=[a if isinstance(a, cst.Arg) else cst.Arg(a) for a in args])
