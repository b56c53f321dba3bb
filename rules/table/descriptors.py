"""``t_env.create_temporary_table("name", TableDescriptor.for_connector(...)...build())`` (and
``create_table``): the same table as a ``CREATE TABLE`` statement (``_descriptors`` reads the
builder chain into the program model's catalog):

- ``filesystem`` -> ``spark.sql("CREATE TABLE name (...) USING <format> OPTIONS (path ...)")``,
  with the descriptor's non-literal values (``.option("path", input_path)``) as the
  placeholders of an f-string;
- ``print``/``blackhole`` -> removed: a ``show``/``noop`` write where a table is inserted into it;
- ``datagen`` of sequences -> a temporary view over ``range``;
- ``kafka`` -> a temporary view over ``readStream.format("kafka")`` (``_kafka``), removed for a
  table the program only writes.
"""

import libcst as cst

from flink2spark.rules.table import _kafka, _sql
from flink2spark.rules.table._common import program, spark_program
from flink2spark.rules.table._connectors import declare_datagen
from flink2spark.rules.table._files import create
from flink2spark.rules.table._program import python_string, tables
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule
from flink2spark.transpiler.results import REMOVE

rule = Rule(
    __name__,
    matches=["TableEnvironment.create_temporary_table", "TableEnvironment.create_table"],
    summary="create_temporary_table(name, TableDescriptor...) -> Spark CREATE TABLE / removed (print, blackhole)",
    codes=(M.TB_CONNECTOR, M.TB_SQL, M.TB_GENERATED, M.TB_FILE_FORMAT, M.TB_ROWTIME_ZONE),
    examples=[
        Example(
            program(
                "t_env.create_temporary_table('out', TableDescriptor.for_connector('print')\n"
                "    .schema(Schema.new_builder().column('word', DataTypes.STRING()).build()).build())\n"
                "t_env.from_elements([('a',)], ['word']).execute_insert('out').wait()\n",
                imports="from pyflink.table import DataTypes, Schema, TableDescriptor\n",
            ),
            spark_program('t_env.createDataFrame([("a",)], ["word"]).show(2147483647, truncate=False)\n'),
        ),
    ],
    noop=['tables = {}\ntables.setdefault("out", [])\n'],
)


@rule.converter
def convert(ctx):
    model = tables(ctx.resolver)
    found = model.descriptors.get(id(ctx.site.head.original))
    if found is None:
        name = ctx.site.head.original.args[0].value if ctx.site.head.original.args else None
        why = model.problems.get(name.evaluated_value) if isinstance(name, cst.SimpleString) else None
        return ctx.todo(M.TB_CONNECTOR, f"{ctx.site.head.method}(): " + (why or "a table descriptor this rule cannot read"))
    table, parts = found
    if table.name in model.problems:
        return ctx.todo(M.TB_CONNECTOR, f"{ctx.site.head.method}(): table {table.name!r} {model.problems[table.name]}")
    return declare(ctx, ctx.site.receiver, table, parts, f"{ctx.site.head.method}()")


def declare(ctx, env, table: _sql.TableDef, parts: tuple[str, ...], what: str):
    """The Spark form of declaring ``table`` (from a descriptor) on the environment ``env``."""
    try:
        if table.connector == "filesystem":
            return create(ctx, env, table, parts)
        if table.connector == "datagen":
            return declare_datagen(ctx, env, table, parts)
        if table.connector == "kafka":
            return _kafka.create(ctx, env, table, parts, tables(ctx.resolver))
    except _sql.Untranslatable as exc:
        return ctx.todo(M.TB_CONNECTOR, f"{what}: {exc}")
    if table.connector in ("print", "blackhole") and ctx.is_statement:
        return REMOVE
    return ctx.todo(M.TB_CONNECTOR, f"{what}: connector {table.connector!r} is not converted yet")
