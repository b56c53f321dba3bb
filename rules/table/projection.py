"""Column operations of a Table -> the DataFrame's:

- ``select(exprs)`` -> ``select(columns)``
- ``filter(pred)``/``where(pred)`` -> ``filter(column)``
- ``add_columns``/``add_or_replace_columns`` (named expressions) -> ``withColumns({name: column})``
- ``drop_columns(col("a"), ...)`` -> ``drop("a", ...)``
- ``rename_columns(col("a").alias("b"), ...)`` -> ``withColumnsRenamed({"a": "b"})``
- ``distinct()`` -> ``distinct()``
- ``alias("a", "b")`` (every column renamed, in order) -> ``toDF("a", "b")``

Expressions are translated by ``_expressions`` (exact or a TODO naming what has no form).
"""

import libcst as cst

from flink2spark.rules.table._common import columns, program, spark_program, on_stream
from flink2spark.rules.table._program import alias_names, tables, unnamed
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule

rule = Rule(
    __name__,
    matches=["Table.select", "Table.filter", "Table.where", "Table.add_columns", "Table.add_or_replace_columns",
             "Table.drop_columns", "Table.rename_columns", "Table.distinct", "Table.alias"],
    summary="select/filter/where/add_columns/drop_columns/rename_columns/distinct -> the DataFrame's",
    codes=(M.TB_EXPRESSION, M.TB_FLOAT_SUM, M.TB_NAN_EXTREME, M.TB_LEGACY),
    examples=[
        Example(
            program(
                "orders = t_env.from_elements([(1, 'a', 3)], ['id', 'item', 'qty'])\n"
                "big = orders.filter(col('qty') > 2).select(col('id'), col('item'))\n",
                imports="from pyflink.table.expressions import col\n",
            ),
            spark_program(
                'orders = t_env.createDataFrame([(1, "a", 3)], ["id", "item", "qty"])\n'
                'big = orders.filter(F.col("qty") > F.lit(2)).select(F.col("id"), F.col("item"))\n',
                functions=True,
            ),
        ),
    ],
    noop=['import pandas as pd\n\nframe = pd.DataFrame({"a": [1]})\nframe.filter(items=["a"])\n'],
)


def _unaliased(column) -> str:
    """The code of a named column without its ``.alias(name)``: withColumns names it."""
    suffix = f".alias({column.name!r})".replace("'", '"')
    code = column.code
    if code.endswith(suffix):
        code = code[: -len(suffix)]
        if code.startswith("(") and code.endswith(")") and _balanced(code[1:-1]):
            code = code[1:-1]
    return code


def _balanced(code: str) -> bool:
    depth = 0
    for ch in code:
        depth += ch == "("
        depth -= ch == ")"
        if depth < 0:
            return False
    return depth == 0


def _argument(code: str) -> str:
    """Column code as a call's argument: without parentheses around all of it."""
    while code.startswith("(") and code.endswith(")") and _balanced(code[1:-1]):
        code = code[1:-1]
    return code


def _call(ctx, method, args):
    return cst.Call(func=cst.Attribute(value=ctx.site.receiver, attr=cst.Name(method)), args=[cst.Arg(cst.parse_expression(_argument(a))) for a in args])


@rule.converter
def convert(ctx):
    seg = ctx.site.head
    method = seg.method
    if method == "distinct":
        refused = on_stream(ctx, "distinct()", "an updating table in Flink; Spark keeps no such state without a watermark")
        if refused is not None:
            return refused
        return _call(ctx, "distinct", [])
    if method == "alias":  # renames every column, in order
        names = alias_names(seg.original.args)
        if names is None:
            return ctx.todo(M.TB_UNSUPPORTED, "Table.alias() of names that are not plain column names (string literals)")
        if len(names) > len(seg.original.args):
            ctx.note(M.TB_LEGACY, "Table.alias() of one string of names: Flink 1.x read it as a list of names, as Spark's"
                     " toDF() here; Flink 2.x names the first column by the whole string")
        return _call(ctx, "toDF", [repr(name) for name in names])
    cols = columns(ctx, seg.original.args, f"{method}()")
    if cols is None:
        return ctx.todo_left()
    if method == "select" and tables(ctx.resolver).aggregated(ctx.outer):
        # select() of aggregates of a stream: an updating table, written in update mode where its uses take updates
        refused = tables(ctx.resolver).updates_consumed(ctx.outer)
        if refused is not None:
            return ctx.todo(M.TB_UNSUPPORTED, f"select() of an aggregate of an unbounded table (Flink updates its one row "
                            f"as records come: an updating table): {refused}")
    if method == "select":  # an unnamed item gets Flink's name, _c<position> (as the program model names it)
        return _call(ctx, "select", [c.code if c.name is not None else f"{c.code}.alias({unnamed(i)!r})" for i, c in enumerate(cols)])
    if method in ("filter", "where"):
        if len(cols) != 1:
            return ctx.todo(M.TB_EXPRESSION, f"{method}() with {len(cols)} predicates")
        return _call(ctx, "filter", [cols[0].code])
    if method in ("add_columns", "add_or_replace_columns"):
        if any(c.name is None for c in cols):
            return ctx.todo(M.TB_EXPRESSION, f"{method}(): every added column needs a name (alias)")
        return _call(ctx, "withColumns", ["{" + ", ".join(f"{c.name!r}: {_unaliased(c)}" for c in cols) + "}"])
    if method == "drop_columns":
        if any(c.name is None or c.code != f'F.col("{c.name}")' for c in cols):
            return ctx.todo(M.TB_EXPRESSION, "drop_columns() of anything but col('name')")
        return _call(ctx, "drop", [repr(c.name) for c in cols])
    if method == "rename_columns":
        renames = {}
        for arg in seg.original.args:
            value = arg.value
            if not (isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) and value.func.attr.value == "alias"):
                return ctx.todo(M.TB_EXPRESSION, "rename_columns() of anything but col('a').alias('b')")
        for arg, c in zip(seg.original.args, cols):
            inner = columns(ctx, [cst.Arg(arg.value.func.value)], "rename_columns()")
            if inner is None or inner[0].name is None:
                return ctx.todo(M.TB_EXPRESSION, "rename_columns() of anything but col('a').alias('b')")
            renames[inner[0].name] = c.name
        return _call(ctx, "withColumnsRenamed", ["{" + ", ".join(f"{a!r}: {b!r}" for a, b in renames.items()) + "}"])
    return ctx.todo(M.TB_UNSUPPORTED, f"Table.{method}()")
