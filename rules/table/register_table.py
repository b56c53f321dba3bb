"""``t_env.register_table("name", table)`` of Flink 1.9-1.13 (removed since; the same as
``create_temporary_view("name", table)``: a temporary view of the table in the current catalog
and database) -> ``table.createOrReplaceTempView("name")``.
"""

from flink2spark.rules.table._common import program, spark_program
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule
from flink2spark.transpiler import table_model as T

rule = Rule(
    __name__,
    matches=["TableEnvironment.register_table"],
    summary="register_table(name, table) (Flink 1.9-1.13) -> table.createOrReplaceTempView(name)",
    codes=(M.TB_UNSUPPORTED,),
    examples=[
        Example(
            program("t_env.register_table('v', t_env.from_elements([(1,)], ['a']))\nt_env.sql_query('SELECT a FROM v').execute().print()\n"),
            spark_program('t_env.createDataFrame([(1,)], ["a"]).createOrReplaceTempView("v")\n'
                          't_env.sql("SELECT a FROM v").show(2147483647, truncate=False)\n'),
        ),
    ],
    noop=["registry = {}\nregistry.register_table = None\n"],
)


@rule.converter
def convert(ctx):
    head = ctx.site.head
    args = head.original.args
    if len(args) != 2 or any(a.keyword is not None or a.star for a in args) or ctx.resolver.type_of(args[1].value) != T.TABLE:
        return ctx.todo(M.TB_UNSUPPORTED, "register_table() with other arguments than (name, table)")
    return ctx.expr("{t}.createOrReplaceTempView({n})", t=head.updated.args[1].value, n=head.updated.args[0].value)
