"""Tables of Flink's ``jdbc`` connector -> Spark's JDBC data source.

A table the program reads (a bounded scan of the database table, in batch and streaming mode
alike) becomes a temporary view of the same name over
``spark.read.format("jdbc").option("url", ...).option("dbtable", ...)...load()``, its columns
those the DDL declares, cast to their declared types (``selectExpr``: Flink reads the named
columns and converts them to the DDL's types; the database may hold more columns, in another
order). A table the program does not read is declared nowhere in Spark: each write appends the
rows under the DDL's column names, ``df.toDF(<columns>).write.format("jdbc")...mode("append").save()``
(Flink's append-only JDBC sink inserts them, named, in the same way).

Options: ``url`` -> ``url``, ``table-name`` -> ``dbtable``, ``username``/``password`` ->
``user``/``password``, ``driver`` -> ``driver``, ``scan.fetch-size`` -> ``fetchsize``. Options that
change how, not what, Flink reads and writes (retries, buffering, parallelism, the cache of
lookup joins, which are not converted) are dropped. Not converted (TODO F2S305): a sink with a
PRIMARY KEY (Flink upserts by the key, replacing the database's row; Spark's JDBC writer only
inserts), ``scan.partition.*`` (Flink reads only the rows between the bounds, Spark all of
them), computed, metadata and watermark columns, any other option. The database's JDBC driver
must be on Spark's classpath as it was on Flink's (NOTE F2S322).
"""

from __future__ import annotations

from flink2spark.rules.table._program import python_string, python_value
from flink2spark.rules.table._sql import TableDef, Untranslatable

# Flink option -> Spark's JDBC option of the same meaning
_OPTIONS = {"url": "url", "table-name": "dbtable", "username": "user", "password": "password", "driver": "driver",
            "scan.fetch-size": "fetchsize"}
# Options of how (not what) Flink reads and writes; lookup.*: lookup joins (FOR SYSTEM_TIME AS OF) stay TODOs
_DROPPED = ("connection.max-retry-timeout", "scan.auto-commit", "sink.buffer-flush.max-rows", "sink.buffer-flush.interval",
            "sink.max-retries", "sink.parallelism")

DRIVER_NOTE = "JDBC table: the database's JDBC driver must be on Spark's classpath (spark-submit --jars or --packages), as on Flink's"


def _options(table: TableDef, parts: tuple[str, ...]) -> list[tuple[str, str]]:
    """(Spark option, the Python expression of its value) for the table's options
    (Untranslatable for what has no same meaning)."""
    if table.computed or table.metadata or table.watermark is not None:
        raise Untranslatable("a JDBC table with computed, metadata or watermark columns")
    options = {k: v for k, v in table.options.items() if k != "connector"}
    settings = []
    for key, value in options.items():
        if key in _OPTIONS:
            settings.append((_OPTIONS[key], python_value(value, parts)))
        elif key.startswith("scan.partition."):
            raise Untranslatable(f"JDBC option {key!r} (Flink reads only the rows between the partition bounds, Spark all of them)")
        elif not (key in _DROPPED or key.startswith("lookup.")):
            raise Untranslatable(f"JDBC option {key!r}")
    for required in ("url", "table-name"):
        if required not in options:
            raise Untranslatable(f"a JDBC table without {required!r}")
    return settings


def source(table: TableDef, parts: tuple[str, ...], env: str) -> str:
    """The Python statement creating the view of a JDBC table the program reads."""
    settings = "".join(f".option({python_string(k)}, {v})" for k, v in _options(table, parts))
    columns = ", ".join(python_string(f"CAST(`{name}` AS {typ}) AS `{name}`") for name, typ in table.columns)
    return (f'{env}.read.format("jdbc"){settings}.load()'
            f".selectExpr({columns}).createOrReplaceTempView({python_string(table.name)})")


def sink(table: TableDef, parts: tuple[str, ...]) -> tuple[str, dict[str, str]]:
    """(the template of the write of a DataFrame ``{df}`` into a JDBC table, appending its rows;
    the Python expressions of its ``{jdbcN}`` holes)."""
    if table.primary_key:
        raise Untranslatable(f"JDBC sink with PRIMARY KEY ({', '.join(table.primary_key)}): Flink upserts by the key, "
                             "replacing the database's row of the same key; Spark's JDBC writer only inserts")
    settings = _options(table, parts)
    names = ", ".join(python_string(name) for name, _ in table.columns)
    calls = "".join(f".option({python_string(k)}, {{jdbc{i}}})" for i, (k, _) in enumerate(settings))
    return ('{df}.toDF(%s).write.format("jdbc")%s.mode("append").save()' % (names, calls),
            {f"jdbc{i}": v for i, (_, v) in enumerate(settings)})


def create(ctx, env, table: TableDef, parts: tuple[str, ...], model) -> object:
    """The conversion of the declaration of a JDBC table: the view of a table the program reads,
    REMOVE for one it does not read (its writes carry the options); Untranslatable."""
    import libcst as cst

    from flink2spark.transpiler import markers as M
    from flink2spark.transpiler.results import REMOVE

    if not model.reads(table.name):  # Spark's reader connects to the database at load(): only for a table read
        if table.name in model.sinks:
            sink(table, parts)  # refused here if the writes would be
        if not ctx.is_statement:
            raise Untranslatable("the declaration of a JDBC table the program does not read used as a value")
        return REMOVE
    code = source(table, parts, cst.Module([]).code_for_node(env))
    ctx.note(M.TB_JDBC, DRIVER_NOTE)
    return cst.parse_expression(code)
