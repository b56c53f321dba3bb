"""``group_by(k).sort_group(field, Order...)`` [``.sort_group(...)``] ``.reduce_group(f)`` / ``.first(n)``.

Each group's values are sorted before the group function sees them: several ``sort_group``
calls sort by the first as primary key (stable sorts applied from the last to the first).
"""

import libcst as cst

from flink2spark.rules.dataset._common import program, spark_program
from flink2spark.transpiler import api_model as A
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule

NOTE = (
    "# NOTE(flink2spark): F2S113 Flink's Python API sorted groups by the field's serialized bytes"
    " (same order for ints 0-127 and equal-length strings); Spark sorts by Python value\n"
)

rule = Rule(
    __name__,
    matches=["UnsortedGrouping.sort_group"],
    summary="sort_group(...).reduce_group(f)/.first(n) -> groupByKey().values().map(sorted).flatMap(f)",
    exact=False,
    codes=(M.DS_SPLIT_CHAIN, M.DS_SORT_ORDER),
    examples=[
        Example(
            program(
                "edges = env.from_elements((1, 3), (1, 2))\n"
                "firsts = edges.group_by(0).sort_group(1, Order.ASCENDING).first(1)\n"
                "desc = edges.group_by(0).sort_group(1, Order.DESCENDING).reduce_group(lambda it, c: [list(it)])\n",
                imports="from flink.plan.Constants import Order\n",
            ),
            spark_program(
                "edges = env.sparkContext.parallelize([(1, 3), (1, 2)])\n"
                + NOTE
                + "firsts = (\n    edges.keyBy(lambda t: t[0])\n    .groupByKey()\n    .values()\n"
                "    .map(lambda group: sorted(group, key=lambda t: t[1]))\n    .flatMap(lambda group: group[:1])\n)\n"
                + NOTE
                + "desc = (\n    edges.keyBy(lambda t: t[0])\n    .groupByKey()\n    .values()\n"
                "    .map(lambda group: sorted(group, key=lambda t: t[1], reverse=True))\n"
                "    .flatMap(lambda it: [list(it)])\n)\n"
            ),
        ),
    ],
    noop=["rows = [(1, 2)]\nrows.sort(key=lambda r: r[1])\n"],
)


@rule.converter
def convert(ctx):
    site = ctx.site
    sorts = [s for s in site.segments if s.method == "sort_group"]
    terminal = site.tail
    if terminal.method not in ("reduce_group", "first"):
        return ctx.todo(M.DS_SPLIT_CHAIN, "sort_group() must be followed by reduce_group() or first() in the same expression")
    sorted_expr = cst.Name("group")
    for seg in reversed(sorts):
        if len(seg.args) != 2:
            return ctx.todo(M.DS_UNSUPPORTED, "sort_group() takes a field and an Order", seg.original)
        field_o, field_u = ctx.arg(seg, 0)
        order_o, _ = ctx.arg(seg, 1)
        q = ctx.qualified(order_o)
        if q not in A.ORDERS:
            return ctx.todo(M.DS_UNSUPPORTED, "sort_group() order must be Order.ASCENDING or Order.DESCENDING", seg.original)
        if isinstance(field_u, cst.Lambda):
            key = field_u
        else:
            key = ctx.expr("lambda t: t[{f}]", f=field_u)
        reverse = ", reverse=True" if A.ORDERS[q] else ""
        ctx.note(
            M.DS_SORT_ORDER,
            "Flink's Python API sorted groups by the field's serialized bytes (same order for ints 0-127"
            " and equal-length strings); Spark sorts by Python value",
            seg.original,
        )
        sorted_expr = ctx.expr("sorted({g}, key={k}%s)" % reverse, g=sorted_expr, k=key)
    grouped = ctx.expr("{g}.groupByKey().values().map(lambda group: {s})", g=site.receiver, s=sorted_expr)
    if terminal.method == "first":
        n = ctx.arg(terminal, 0)
        if n is None:
            return ctx.todo(M.DS_UNSUPPORTED, "first() without a count", terminal.original)
        return ctx.expr("{g}.flatMap(lambda group: group[:{n}])", g=grouped, n=n[1])
    fn = ctx.function(terminal, "reduce_group")
    return ctx.todo_left() if fn is None else ctx.expr("{g}.flatMap({fn})", g=grouped, fn=fn)
