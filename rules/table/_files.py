"""Filesystem tables as Spark code: ``create(ctx, env, table, parts)`` gives the expression a
``CREATE TABLE``/``create_temporary_table`` of a filesystem table becomes:

- ``spark.sql("CREATE TABLE name (...) USING <format> OPTIONS (...)")`` (``_sql.spark_create_table``):
  a table Spark reads and writes as Flink does;
- for a csv/json table the program only reads, whose columns Spark would not write as Flink
  does (TIMESTAMP, DATE, DECIMAL) or a csv table with STRING columns:
  ``spark.read.format(...).options(...).schema(...).load(path)[.fillna("", subset=[...])]
  .createOrReplaceTempView(name)``; the ``fillna`` when the table sets no ``csv.null-literal``,
  since Flink reads an empty field of a STRING column as '' where Spark reads NULL
  (``_sql.file_source``);
- a csv table the program only writes (no query or ``from_path`` reads it) may have STRING
  columns: Spark writes them as Flink does when told to (``_sql.file_source``'s ``write_only``).

A table ``PARTITIONED BY (...)`` its last columns: Flink and Spark write and read the same
``col=value/`` folders (NOTE F2S330 for the folder of a NULL value); one the program only writes
is a Spark table ``PARTITIONED BY`` them, one it only reads the ``spark.read`` above, which finds
the partitions under the path and gives their columns the schema's types.
"""

from __future__ import annotations

import libcst as cst

from flink2spark.rules.table import _sql
from flink2spark.transpiler import markers as M
from flink2spark.rules.table._program import python_string, tables
from flink2spark.transpiler.results import REMOVE


_CANAL_TYPES = ("STRING", "TINYINT", "SMALLINT", "INT", "BIGINT", "BOOLEAN")


def canal_json_sink(model, table: _sql.TableDef) -> None:
    """Untranslatable unless ``table`` is a ``canal-json`` file table the program only writes, in
    batch mode (its rows are all inserts: each a ``{"data":[{...}],"type":"INSERT"}`` line, seen
    on Flink 2.3), of columns ``to_json`` writes as Flink's json does."""
    if model.mode != "batch":
        raise _sql.Untranslatable("filesystem format 'canal-json' in streaming mode (updates become UPDATE/DELETE messages)")
    if table.name not in model.sinks or model.reads(table.name):
        raise _sql.Untranslatable("filesystem format 'canal-json' of a table the program reads")
    options = {k: v for k, v in table.options.items() if k not in ("connector", "path", "format")}
    if options or "path" not in table.options or table.computed:
        raise _sql.Untranslatable("canal-json table with " + (f"option {sorted(options)[0]!r}" if options else "no path or computed columns"))
    for name, spark_type in table.columns:
        if spark_type not in _CANAL_TYPES:
            raise _sql.Untranslatable(f"canal-json with a {spark_type} column ({name})")


def canal_json_rows(table: _sql.TableDef) -> str:
    """The Spark SQL of a canal-json line of a row of ``table`` (``to_json``, nulls kept)."""
    fields = ", ".join(f"'{n}', `{n}`" for n, _ in table.columns)
    return f"to_json(named_struct('data', array(named_struct({fields})), 'type', 'INSERT'), map('ignoreNullFields', 'false')) AS value"


def _strict_json_note(ctx, model, table: _sql.TableDef) -> None:
    """'json.fail-on-missing-field' of a table the program reads: both engines read a record with
    every field alike (Flink as without the option); Flink fails the job on one without."""
    if table.options.get("json.fail-on-missing-field", "false").lower() == "true" and model.reads(table.name):
        ctx.note(M.TB_FILE_FORMAT, "'json.fail-on-missing-field' true: Flink fails the job on a record without one of "
                 f"the fields of table {table.name!r}, Spark's json reader reads NULL there")


def _notes(ctx, model, table: _sql.TableDef) -> None:
    _strict_json_note(ctx, model, table)
    partitioned = _sql.partition_note(table)
    if partitioned is not None:
        ctx.note(M.TB_PARTITION_NAME, partitioned)


def create(ctx, env, table: _sql.TableDef, parts: tuple[str, ...]) -> cst.BaseExpression:
    """The Spark expression declaring ``table``; Untranslatable when there is none. A canal-json
    table the program only writes needs none: its writes are text lines (``canal_json_rows``)."""
    model = tables(ctx.resolver)
    if table.options.get("format") == "canal-json":
        canal_json_sink(model, table)
        if not ctx.is_statement:
            raise _sql.Untranslatable("the declaration of a canal-json table used as a value")
        return REMOVE
    try:
        # a table the program never reads is declared lazily (Spark's CREATE TABLE, like Flink's, does not
        # look at the path: a spark.read here would fail on a folder that does not exist yet)
        ddl = _sql.spark_create_table(table, write_only=not model.reads(table.name))
        _notes(ctx, model, table)
        return ctx.expr("{env}.sql({text})", env=env, text=cst.parse_expression(python_string(ddl, parts)))
    except _sql.Untranslatable:
        if table.name in model.sinks:
            raise
        using, options, columns = _sql.file_source(table, read_only=True)
    path = python_string(dict(options)["path"], parts)
    settings = ", ".join(f"{k}={python_string(v, parts)}" for k, v in options if k != "path")
    schema = ", ".join(f"`{n}` {t}" if not n.isidentifier() else f"{n} {t}" for n, t in columns)
    # Flink reads an empty field of a STRING column as '' (NULL only with 'csv.null-literal' = '')
    strings = [n for n, t in columns if t == "STRING" and n not in table.partitioned_by] if using == "csv" and "csv.null-literal" not in table.options else []
    source = cst.Module([]).code_for_node(env)
    computed = _sql.file_columns(table)  # the view adds the computed columns (``ts AS TO_TIMESTAMP(s)``)
    _notes(ctx, model, table)
    return cst.parse_expression(
        f'{source}.read.format("{using}").options({settings}).schema({python_string(schema)}).load({path})'
        + (f'.fillna("", subset={strings!r})' if strings else "")
        + (f".selectExpr({', '.join(python_string(c) for c in computed)})" if computed else "")
        + f".createOrReplaceTempView({python_string(table.name)})"
    )
