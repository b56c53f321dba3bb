"""``aggregate(Sum|Min|Max, field)`` [``.and_agg(...)``], ``sum``/``min``/``max``, grouped or not.

Flink's Python aggregation copies the first element of each group and overwrites the aggregated
fields; Spark has no such operator, so ``f2s.aggregate`` computes it (lazily) on the RDD.
"""

import libcst as cst

from flink2spark.rules.dataset._common import program, spark_program
from flink2spark.transpiler import api_model as A
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule

rule = Rule(
    __name__,
    matches=[
        "DataSet.aggregate", "DataSet.sum", "DataSet.min", "DataSet.max",
        "UnsortedGrouping.aggregate", "UnsortedGrouping.sum", "UnsortedGrouping.min", "UnsortedGrouping.max",
    ],
    summary="aggregate/and_agg/sum/min/max -> f2s.aggregate(rdd, [(op, field)], key=...)",
    examples=[
        Example(
            program(
                "sales = env.from_elements(('a', 3, 1.0))\n"
                "per_shop = sales.group_by(0).aggregate(Aggregation.Sum, 1).and_agg(Aggregation.Max, 2)\n"
                "overall = sales.sum(1)\n",
                imports="from flink.functions import Aggregation\n",
            ),
            spark_program(
                'sales = env.sparkContext.parallelize([("a", 3, 1.0)])\n'
                'per_shop = f2s.aggregate(sales, [("sum", 1), ("max", 2)], key=lambda t: t[0])\n'
                'overall = f2s.aggregate(sales, [("sum", 1)])\n',
                shim=True,
            ),
        ),
    ],
    noop=["import numpy as np\n\na = np.array([1, 2])\ntotal = a.sum(0) + a.max(0)\n"],
)


def _aggregation(ctx, seg):
    """(aggregation name, field) of one call; None once a TODO was left."""
    if seg.method in ("sum", "min", "max"):
        field = ctx.arg(seg, 0, "field")
        if field is None:
            ctx.todo(M.DS_UNSUPPORTED, f"{seg.method}() without a field", seg.original)
            return None
        return seg.method, field[1]
    agg, field = ctx.arg(seg, 0, "aggregation"), ctx.arg(seg, 1, "field")
    if agg is None or field is None:
        ctx.todo(M.DS_UNSUPPORTED, "aggregate() needs an aggregation and a field", seg.original)
        return None
    name = A.AGGREGATIONS.get(ctx.qualified(agg[0]) or "")
    if name is None:
        ctx.todo(M.DS_UNSUPPORTED, "aggregation must be Aggregation.Sum, Min or Max", seg.original)
        return None
    return name, field[1]


@rule.converter
def convert(ctx):
    site = ctx.site
    aggs = []
    for seg in site.segments:
        found = _aggregation(ctx, seg)
        if found is None:
            return ctx.todo_left()
        aggs.append(cst.Element(cst.Tuple([cst.Element(cst.SimpleString(f'"{found[0]}"')), cst.Element(found[1])])))
    args = [cst.Arg(site.receiver), cst.Arg(cst.List(aggs))]
    if site.receiver_type == A.UNSORTED:
        recv = site.receiver
        # the grouping is `ds.keyBy(key)`: aggregate over ds with that key
        if isinstance(recv, cst.Call) and isinstance(recv.func, cst.Attribute) and recv.func.attr.value == "keyBy":
            args = [cst.Arg(recv.func.value), args[1], cst.Arg(recv.args[0].value, keyword=cst.Name("key"))]
        else:
            args = [cst.Arg(ctx.expr("{g}.values()", g=recv)), args[1], cst.Arg(ctx.expr("lambda kv: kv"), keyword=cst.Name("key"))]
            return ctx.todo(M.DS_SPLIT_CHAIN, "aggregate on a grouping kept in a variable: pass the group_by key as key=", site.head.original)
    return cst.Call(func=ctx.shim("aggregate"), args=args)
