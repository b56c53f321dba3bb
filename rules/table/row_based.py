"""Row-based operations with the program's Python functions:

- ``table.map(f)`` of a ``@udf`` (one row in, one row out; a ROW result type gives the
  columns) -> ``df.select(f(F.struct("*")).alias("_row")).select("_row.*")``: the function gets
  the row (a Spark ``Row``: by position and by name, as Flink's) and its result's fields are the
  columns.
- ``table.flat_map(f)`` of a ``@udtf`` -> ``df.lateralJoin(f(F.struct(<columns>.outer())))``
  keeping only the function's columns (``f0, f1...``); the columns come from the table's schema
  (the program model) or from ``df.columns`` when the table is a name.

``aggregate``/``flat_aggregate`` (Python aggregate functions over rows) are not converted yet.
"""

import libcst as cst

from flink2spark.rules.table._common import program, row_columns, spark_program, use
from flink2spark.rules.table._program import tables
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule

rule = Rule(
    __name__,
    matches=["Table.map", "Table.flat_map"],
    summary="map(@udf)/flat_map(@udtf) over whole rows -> select(f(struct(*)))/lateralJoin(f(struct(...)))",
    codes=(M.TB_UNSUPPORTED,),
    examples=[
        Example(
            program(
                "\n\n@udf(result_type=DataTypes.ROW([DataTypes.FIELD('word', DataTypes.STRING()), DataTypes.FIELD('n', DataTypes.INT())]))\n"
                "def shout(row):\n    return row.word.upper(), row.n\n\n\n"
                "words = t_env.from_elements([('a', 1)], ['word', 'n'])\nloud = words.map(shout)\n",
                imports="from pyflink.table import DataTypes\nfrom pyflink.table.udf import udf\n",
            ),
            spark_program(
                '\n\n@F.udf(\n    returnType=T.StructType(\n        [T.StructField("word", T.StringType()), T.StructField("n", T.IntegerType())]\n    )\n)\ndef shout(row):\n    return row.word.upper(), row.n\n\n\n'
                'words = t_env.createDataFrame([("a", 1)], ["word", "n"])\nloud = words.select(shout(F.struct("*")).alias("_row")).select("_row.*")\n',
                functions=True, types=True,
            ),
        ),
    ],
    noop=['words = ["a", "b"]\nloud = list(map(str.upper, words))\n'],
)


@rule.converter
def convert(ctx):
    seg = ctx.site.head
    model = tables(ctx.resolver)
    args = seg.original.args
    fn = args[0].value if len(args) == 1 and args[0].keyword is None else None
    kind = model.functions.get(fn.value) if isinstance(fn, cst.Name) else None
    if seg.method == "map":
        if kind != "udf":
            return ctx.todo(M.TB_UNSUPPORTED, "map() of something else than a @udf function of this program")
        use(ctx, {"F"})
        return ctx.expr('{r}.select({f}(F.struct("*")).alias("_row")).select("_row.*")', r=ctx.site.receiver, f=seg.updated.args[0].value)
    if kind != "udtf" or fn.value not in model.udtf_columns:
        return ctx.todo(M.TB_UNSUPPORTED, "flat_map() of something else than a @udtf function of this program")
    inputs = row_columns(ctx, seg.original.func.value, outer=True)
    if inputs is None:
        return ctx.todo(M.TB_UNSUPPORTED, "flat_map() of a table whose columns are not known when converting")
    outputs = ", ".join(repr(f"f{i}") for i in range(model.udtf_columns[fn.value]))
    use(ctx, {"F"})
    return ctx.expr("{r}.lateralJoin({f}(F.struct(%s))).select(%s)" % (inputs, outputs), r=ctx.site.receiver, f=seg.updated.args[0].value)
