"""``order_by(exprs)`` -> ``orderBy(columns)``; ``fetch(n)``/``limit(n)`` -> ``limit(n)``;
``offset(n)`` -> ``offset(n)``; ``limit(n, offset)`` -> ``offset(offset).limit(n)``.

Both sort ascending unless ``.desc`` is given; Flink's Table API puts NULLs last in ascending
order and first in descending order (seen on Flink 2.3; Spark's defaults are the other way), so
every key says where its NULLs go (``asc_nulls_last()``, ``desc_nulls_first()``).
"""

import libcst as cst

from flink2spark.rules.table._common import code, columns, program, spark_program, on_stream
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule

rule = Rule(
    __name__,
    matches=["Table.order_by", "Table.fetch", "Table.limit", "Table.offset"],
    summary="order_by/fetch/limit/offset -> orderBy/limit/offset",
    codes=(M.TB_EXPRESSION,),
    examples=[
        Example(
            program(
                "scores = t_env.from_elements([('a', 3)], ['name', 'score'])\n"
                "top = scores.order_by(col('score').desc).fetch(3)\n",
                imports="from pyflink.table.expressions import col\n",
            ),
            spark_program(
                'scores = t_env.createDataFrame([("a", 3)], ["name", "score"])\n'
                'top = scores.orderBy(F.col("score").desc_nulls_first()).limit(3)\n',
                functions=True,
            ),
        ),
    ],
    noop=['rows = sorted([3, 1])\nfirst = rows[:1]\n'],
)


@rule.converter
def convert(ctx):
    seg = ctx.site.head
    refused = on_stream(ctx, f"{seg.method}()", "Spark sorts and limits a stream only after a complete-mode aggregation")
    if refused is not None:
        return refused
    if seg.method == "order_by":
        cols = columns(ctx, seg.original.args, "order_by()")
        if cols is None:
            return ctx.todo_left()
        keys = [c.code if c.code.endswith(("_nulls_last()", "_nulls_first()")) else f"{c.code}.asc_nulls_last()" for c in cols]
        return ctx.expr(f"{{r}}.orderBy({', '.join(keys)})", r=ctx.site.receiver)
    args = [code(ctx, a.value) for a in seg.updated.args if a.keyword is None]
    keywords = {a.keyword.value: code(ctx, a.value) for a in seg.updated.args if a.keyword is not None}
    if seg.method in ("fetch", "offset") and len(args) == 1 and not keywords:
        return ctx.expr(f"{{r}}.{'limit' if seg.method == 'fetch' else 'offset'}({args[0]})", r=ctx.site.receiver)
    if seg.method == "limit":
        fetch = args[0] if args else keywords.get("fetch")
        offset = args[1] if len(args) > 1 else keywords.get("offset")
        if fetch is None:
            return ctx.todo(M.TB_UNSUPPORTED, "limit() without a row count")
        if offset is not None:
            return ctx.expr(f"{{r}}.offset({offset}).limit({fetch})", r=ctx.site.receiver)
        return ctx.expr(f"{{r}}.limit({fetch})", r=ctx.site.receiver)
    return ctx.todo(M.TB_UNSUPPORTED, f"{seg.method}() with these arguments")
