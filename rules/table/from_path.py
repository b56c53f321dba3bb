"""``t_env.from_path("name")`` -> ``spark.table("name")``: a table the program declared with
``CREATE TABLE`` (the program model's catalog) or a view it created. A name the program does not
declare comes from a Flink catalog outside it: in batch mode the call converts with a NOTE (Spark's
session catalog must hold a table of that name); in streaming mode with a TODO (whether the table is
bounded is the catalog's).
"""

from flink2spark.rules.pyflink._common import call_arg
from flink2spark.rules.table._common import program, spark_program
from flink2spark.rules.table._program import tables
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule

rule = Rule(
    __name__,
    matches=["TableEnvironment.from_path", "TableEnvironment.scan"],
    summary="from_path(name) (and the legacy scan(name)) -> SparkSession.table(name)",
    codes=(M.TB_CONNECTOR, M.TB_CATALOG_TABLE, M.TB_CATALOG_STREAM),
    examples=[
        Example(
            program("t_env.create_temporary_view('v', t_env.from_elements([(1,)], ['a']))\nv = t_env.from_path('v')\n"),
            spark_program('t_env.createDataFrame([(1,)], ["a"]).createOrReplaceTempView("v")\nv = t_env.table("v")\n'),
        ),
    ],
    noop=['import os\n\npath = os.path.join("a", "b")\n'],
)


@rule.converter
def convert(ctx):
    method = ctx.site.head.method
    name = call_arg(ctx.site.head.original, 0, "path")
    model = tables(ctx.resolver)
    table = model.name(name)  # a literal, or a name bound once to one
    if table is None or (method == "scan" and len(ctx.site.head.original.args) != 1):
        return ctx.todo(M.TB_UNSUPPORTED, f"{method}() of a name given by an expression")
    if table in model.problems and table not in model.catalog and table not in model.views:
        ctx.todo(M.TB_CONNECTOR, f"{method}({table!r}): the table is not converted: {model.problems[table]}")
    elif model.undeclared(table):  # a Flink catalog's table: Spark's session catalog's, in batch mode
        refused = model.catalog_refused(table)
        if refused is not None:
            ctx.todo(M.TB_CATALOG_STREAM, f"{method}(): {refused}")
        else:
            ctx.note(M.TB_CATALOG_TABLE, model.catalog_note(table, f"{method}() reads"))
    elif table not in model.catalog and table not in model.views:
        ctx.todo(M.TB_CONNECTOR, f"{method}({table!r}): the table is not declared by this program (a Flink catalog's): give Spark a table of that name")
    return ctx.expr("{env}.table({name})", env=ctx.site.receiver, name=ctx.site.head.updated.args[0].value)
