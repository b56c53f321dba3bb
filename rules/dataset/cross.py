"""``cross(other)`` [``.using(f)`` | ``.project_first/second(...)``] -> ``RDD.cartesian``.

Without ``using`` Flink emits ``(left, right)`` pairs, as ``cartesian`` does.
``cross_with_huge``/``cross_with_tiny`` are size hints with the same result.
"""

from flink2spark.rules.dataset._common import program, spark_program
from flink2spark.rules.dataset.join import projection
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule

rule = Rule(
    __name__,
    matches=["DataSet.cross", "DataSet.cross_with_huge", "DataSet.cross_with_tiny"],
    summary="cross()[.using()|.project_*()] -> RDD.cartesian (+ map)",
    examples=[
        Example(
            program(
                "a = env.from_elements(1, 2)\nb = env.from_elements('x')\n"
                "pairs = a.cross(b)\nlabels = a.cross_with_tiny(b).using(lambda n, s: s * n)\n"
            ),
            spark_program(
                'a = env.sparkContext.parallelize([1, 2])\nb = env.sparkContext.parallelize(["x"])\n'
                "pairs = a.cartesian(b)\nlabels = a.cartesian(b).map(lambda pair: pair[1] * pair[0])\n"
            ),
        ),
    ],
    noop=["import itertools\n\nclass Grid:\n    def cross(self, other):\n        return list(itertools.product([1], other))\n\n\nGrid().cross([2])\n"],
)


@rule.converter
def convert(ctx):
    site = ctx.site
    other = ctx.arg(site.head, 0)
    if other is None:
        return ctx.todo(M.DS_UNSUPPORTED, "cross() without the other data set")
    crossed = ctx.expr("{a}.cartesian({b})", a=site.receiver, b=other[1])
    using = site.segment("using")
    if using is not None:
        fn = ctx.function(using, "cross", packed=True)
        return ctx.todo_left() if fn is None else ctx.expr("{c}.map({fn})", c=crossed, fn=fn)
    projections = [s for s in site.segments if s.method.startswith("project_")]
    if projections:
        fn = projection(ctx, projections)
        return ctx.todo_left() if fn is None else ctx.expr("{c}.map({fn})", c=crossed, fn=fn)
    return crossed
