"""``table.group_by(keys).select(items)`` -> ``df.groupBy(keys).agg(aggregates)``.

The items of the select are group keys or aggregate expressions; Spark's ``agg`` gives the
keys first, then the aggregates, so a ``select`` of the names follows when the items come in
another order or leave a key out (an unnamed aggregate is then named ``_c<position>``). An item that is neither (an expression over a key, an
unnamed aggregate) is left with a TODO. ``group_by(...).aggregate(udaf)`` is not converted yet.
"""

from flink2spark.rules.table import _expressions as E
from flink2spark.rules.table._common import columns, program, spark_program, on_stream
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule

rule = Rule(
    __name__,
    matches=["Table.group_by"],
    summary="group_by(keys).select(keys, aggregates) -> groupBy(keys).agg(aggregates)",
    codes=(M.TB_EXPRESSION, M.TB_UNSUPPORTED),
    examples=[
        Example(
            program(
                "words = t_env.from_elements([('a', 1)], ['word', 'n'])\n"
                "counts = words.group_by(col('word')).select(col('word'), col('n').sum.alias('total'))\n",
                imports="from pyflink.table.expressions import col\n",
            ),
            spark_program(
                'words = t_env.createDataFrame([("a", 1)], ["word", "n"])\n'
                'counts = words.groupBy(F.col("word")).agg(F.sum(F.col("n")).alias("total"))\n',
                functions=True,
            ),
        ),
    ],
    noop=['import pandas as pd\n\nframe = pd.DataFrame({"a": [1]})\ng = frame.groupby("a").sum()\n'],
)


@rule.converter
def convert(ctx):
    segs = ctx.site.segments
    refused = on_stream(ctx, "group_by() without a window", "Flink updates each group's row as records come (an updating table)")
    if refused is not None:
        return refused
    if len(segs) != 2 or segs[1].method != "select":
        what = segs[1].method if len(segs) > 1 else "nothing"
        return ctx.todo(M.TB_UNSUPPORTED, f"group_by() followed by {what}() is not converted yet")
    keys = columns(ctx, segs[0].original.args, "group_by()")
    if keys is None:
        return ctx.todo_left()
    items = columns(ctx, segs[1].original.args, "select() of group_by()")
    if items is None:
        return ctx.todo_left()
    key_names = [k.name for k in keys]
    if any(k.aggregate for k in keys):
        return ctx.todo(M.TB_EXPRESSION, "group_by() on an aggregate")
    aggregates, names = [], []
    for index, item in enumerate(items):
        if item.aggregate:
            if item.name is None:  # Spark names it after its expression; a select below needs a name
                item = E.Column(f"{item.code}.alias('_c{index}')", True, f"_c{index}", item.uses)
            aggregates.append(item.code)
        elif item.name is None or item.name not in key_names or item.code not in {k.code for k in keys}:
            return ctx.todo(M.TB_EXPRESSION, "group_by().select(): an item that is neither a group key nor a named aggregate")
        names.append(item.name)
    if None in key_names and any(not i.aggregate for i in items):
        return ctx.todo(M.TB_EXPRESSION, "group_by() on an unnamed expression")
    if not aggregates:
        # the distinct keys: Flink's group_by(k).select(k)
        return ctx.expr(f"{{r}}.select({', '.join(repr(n) for n in names)}).distinct()", r=ctx.site.receiver)
    out = f"{{r}}.groupBy({', '.join(k.code for k in keys)}).agg(<aggregates>)"
    in_order = [i.name for i in items if not i.aggregate] == key_names and all(
        i.aggregate for i in items[len(key_names):])
    if in_order:  # Spark's agg gives the keys, then the aggregates: the select's order
        aggregates = [i.code for i in items if i.aggregate]
    else:
        out += f".select({', '.join(repr(n) for n in names)})"
    out = out.replace("<aggregates>", ", ".join(aggregates))
    return ctx.expr(out, r=ctx.site.receiver)
