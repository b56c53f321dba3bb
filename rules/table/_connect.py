"""The connect() descriptors of Flink 1.9-1.13 (``pyflink.table.descriptors``, removed in 1.14)
read into the ``_sql.TableDef`` a ``CREATE TABLE`` gives:

    t_env.connect(FileSystem().path(p))
        .with_format(OldCsv().field_delimiter(",").field("word", DataTypes.STRING()))
        .with_schema(Schema().field("word", DataTypes.STRING()))
        .in_append_mode()
        .create_temporary_table("words")     # or register_table_source / register_table_sink

- ``FileSystem().path(p)`` -> connector ``filesystem``, ``path``;
- ``Kafka().version(v).topic(t).property(k, v).start_from_earliest()...`` -> connector
  ``kafka`` with the options of its SQL DDL (``topic``, ``properties.<k>``,
  ``scan.startup.mode``);
- ``OldCsv()`` -> format ``csv`` as Flink's legacy csv source reads it: no quote character
  (``csv.disable-quote-character``) unless ``quote_character(c)``, ``field_delimiter``,
  ``ignore_parse_errors``, ``comment_prefix("#")``; ``Csv()`` -> format ``csv`` with its options;
  ``Json()`` -> format ``json``;
- ``Schema().field(name, DataTypes...)`` -> the columns;
- ``Json().json_schema("{type: 'object', properties: {...}}")`` (Flink 1.x's JSON schema text,
  unquoted keys and single quotes as its parser allows): the fields it lists must be the table's,
  by name and type ('string' STRING, 'string' of format 'date-time' TIMESTAMP, 'boolean'
  BOOLEAN); Flink 1.x reads a 'date-time' as RFC 3339 text ``2024-05-01T10:00:00Z``, the ``Z``
  dropped (``LEGACY_JSON_TIMESTAMP``);
- ``Schema().field("rowtime", DataTypes.TIMESTAMP()).rowtime(Rowtime().timestamps_from_field("ts")
  .watermarks_periodic_bounded(ms))``: the column ``rowtime`` holds the format's field ``ts``
  (which is no column of the table: ``ROWTIME_FROM`` names it), with a watermark ``ms`` behind
  the largest timestamp, as ``WATERMARK FOR rowtime AS rowtime - INTERVAL ...`` of the SQL DDL is
  (Flink 1.x's BoundedOutOfOrderTimestamps: the largest timestamp minus the delay). Only a Kafka
  table converts with it (its view reads ``ts`` into ``rowtime``).

``OldCsv().ignore_first_line()`` -> the option ``csv.ignore-first-line`` (Flink 1.x's legacy csv
format's own: no csv option of the SQL DDL skips a header), which only a table the program reads
converts with (Spark's ``header``).

``t_env.register_table_sink(name, CsvTableSink(field_names, field_types, path[, field_delimiter]))``
of Flink 1.9-1.13 (``read_csv_sink``) is the table ``connect(FileSystem().path(path))
.with_format(OldCsv().field_delimiter(d)).with_schema(...)`` declares: Flink's legacy csv sink
under both, with the job's parallelism as its number of files and no overwrite.

``Schema().field("pt", DataTypes.TIMESTAMP()).proctime()`` of a Kafka table: the computed column
``pt AS PROCTIME()`` of the SQL DDL (the Kafka view's ``current_timestamp()``, NOTE F2S332).

A descriptor call this module does not know (``line_delimiter`` other than
``\\n``, other ``Rowtime``s, a retract or upsert mode...) makes the table unreadable
(``_descriptors.Unreadable`` names it): its statement keeps a TODO.

``Csv().line_delimiter(d)`` of a Kafka table: the option ``csv.line-delimiter``
(``LEGACY_LINE_DELIMITER``), which Flink 1.x's csv format only writes: the Kafka view reads the
table as without it; a Kafka sink with it keeps a TODO naming it.
"""

from __future__ import annotations

from typing import Optional

import json
import re

import libcst as cst

from flink2spark.rules.pyflink._common import chain
from flink2spark.rules.table import _sql
from flink2spark.rules.table import _types as TY
from flink2spark.rules.table._descriptors import Unreadable, _Reader, _positional
from flink2spark.rules.table._sql import IGNORE_FIRST_LINE, LEGACY_CSV_SINK, LEGACY_JSON_TIMESTAMP, LEGACY_LINE_DELIMITER, ROWTIME_FROM

MODULE = "pyflink.table.descriptors."
REGISTER = ("create_temporary_table", "register_table_source", "register_table_sink", "register_table_source_and_sink")
_SCHEMA_ALIASES = ("pyflink.table.Schema", "pyflink.table.schema.Schema")
_STARTUP = {"start_from_earliest": "earliest-offset", "start_from_latest": "latest-offset",
            "start_from_group_offsets": "group-offsets"}


def _descriptor(reader: _Reader, node, kinds: tuple[str, ...]) -> tuple[str, list[tuple[str, cst.Call]]]:
    """(the descriptor class, its builder calls) of ``Kind().m1(...).m2(...)``."""
    found = chain(reader.resolver, node)
    kind = reader.names(found[0].func) if found is not None else None
    if kind in _SCHEMA_ALIASES:  # Schema() of pyflink.table where both modules' star imports bring one
        kind = MODULE + "Schema"
    if kind is None or not kind.startswith(MODULE) or kind[len(MODULE):] not in kinds:
        known = f"{kind[len(MODULE):]}() " if kind is not None and kind.startswith(MODULE) else ""
        raise Unreadable(f"a descriptor {known}other than {'/'.join(k + '()' for k in kinds)}")
    if _positional(found[0]):
        raise Unreadable(f"{kind[len(MODULE):]}() with arguments")
    return kind[len(MODULE):], found[1]


def _flag(reader: _Reader, args, what: str) -> str:
    if not args:
        return "true"
    node = args[0]
    if isinstance(node, cst.Name) and node.value in ("True", "False"):
        return node.value.lower()
    raise Unreadable(f"{what}() of a value that is not True/False")


def _connector(reader: _Reader, node, options: dict) -> str:
    kind, calls = _descriptor(reader, node, ("FileSystem", "Kafka"))
    for method, call in calls:
        args = _positional(call)
        if kind == "FileSystem" and method == "path" and len(args) == 1:
            options["path"] = reader.string(args[0])
        elif kind == "Kafka" and method == "version" and len(args) == 1:
            pass  # the universal connector of the SQL DDL reads every broker version since 0.10
        elif kind == "Kafka" and method == "topic" and len(args) == 1:
            options["topic"] = reader.string(args[0])
        elif kind == "Kafka" and method == "property" and len(args) == 2:
            options[f"properties.{reader.literal(args[0], 'a property key')}"] = reader.string(args[1])
        elif kind == "Kafka" and method in _STARTUP and not args:
            options["scan.startup.mode"] = _STARTUP[method]
        else:
            raise Unreadable(f"{kind}().{method}()")
    return "filesystem" if kind == "FileSystem" else "kafka"


def _format(reader: _Reader, node, options: dict) -> Optional[list]:
    """The format's options into ``options``; the fields the format lists (OldCsv's
    ``field(name, type)``: names; Json's ``schema(DataTypes.ROW(...))``: (name, type) pairs),
    None when it lists none: they must be the table's."""
    kind, calls = _descriptor(reader, node, ("OldCsv", "Csv", "Json"))
    fmt = "json" if kind == "Json" else "csv"
    options["format"] = fmt
    if kind == "OldCsv":  # Flink's legacy csv source parses no quotes unless it is given a quote character
        options["csv.disable-quote-character"] = "true"
        options[LEGACY_CSV_SINK] = "true"  # of a FileSystem() table: Flink's legacy csv sink (read() drops it otherwise)
    fields = None
    for method, call in calls:
        args = _positional(call)
        if fmt == "csv" and method == "field_delimiter" and len(args) == 1:
            options["csv.field-delimiter"] = reader.literal(args[0], "a field delimiter")
        elif fmt == "csv" and method == "quote_character" and len(args) == 1:
            options.pop("csv.disable-quote-character", None)
            options["csv.quote-character"] = reader.literal(args[0], "a quote character")
        elif fmt == "csv" and method == "line_delimiter" and len(args) == 1 \
                and reader.literal(args[0], "a line delimiter") == "\n":
            pass
        elif kind == "Csv" and method == "line_delimiter" and len(args) == 1:
            # Flink 1.x's csv format ends each record it writes with it; its deserializer never
            # reads it (a Kafka record is one row): only a Kafka table the program reads converts
            options[LEGACY_LINE_DELIMITER] = reader.literal(args[0], "a line delimiter")
        elif kind == "OldCsv" and method == "ignore_first_line" and not args:
            # the legacy csv source skips the first line of each file (a header): read by the
            # table's Spark reader only (``_sql.file_source``), never written
            options[IGNORE_FIRST_LINE] = "true"
        elif fmt == "csv" and method == "comment_prefix" and len(args) == 1 \
                and reader.literal(args[0], "a comment prefix") == "#":
            options["csv.allow-comments"] = "true"
        elif kind == "Csv" and method == "allow_comments" and len(args) <= 1:
            options["csv.allow-comments"] = _flag(reader, args, method)
        elif kind == "Csv" and method == "escape_character" and len(args) == 1:
            options["csv.escape-character"] = reader.literal(args[0], "an escape character")
        elif kind == "Csv" and method == "null_literal" and len(args) == 1:
            options["csv.null-literal"] = reader.literal(args[0], "a null literal")
        elif method == "ignore_parse_errors" and len(args) <= 1:
            options[f"{fmt}.ignore-parse-errors"] = _flag(reader, args, method)
        elif kind == "Json" and method == "fail_on_missing_field" and len(args) <= 1:
            options["json.fail-on-missing-field"] = _flag(reader, args, method)
        elif kind == "Json" and method == "json_schema" and len(args) == 1:
            fields = _json_schema(reader, args[0])
            options["json.timestamp-format.standard"] = LEGACY_JSON_TIMESTAMP
        elif kind != "OldCsv" and method == "derive_schema" and not args:
            pass  # the table's schema: what the SQL DDL's formats always use
        elif kind == "OldCsv" and method == "field" and len(args) == 2:
            fields = (fields or []) + [reader.literal(args[0], "a field name")]
        elif kind == "Json" and method == "schema" and len(args) == 1:
            try:
                text = TY.spark_schema(reader.resolver.single_value(args[0]) or args[0] if isinstance(args[0], cst.Name) else args[0], reader.names)
            except TY.Untranslatable as exc:
                raise Unreadable(f"Json().schema(): {exc}") from None
            fields = [tuple(part.strip().split(" ", 1)) for part in text.split(", ")] if "(" not in text else None
            if fields is None:
                raise Unreadable("Json().schema() of parameterised types")
        else:
            raise Unreadable(f"{kind}().{method}()")
    return fields


# Flink 1.x's JSON schema types (JsonRowSchemaConverter) that are a Spark type of the same values
_JSON_SCHEMA_TYPES = {("string", None): "STRING", ("string", "date-time"): "TIMESTAMP_NTZ", ("boolean", None): "BOOLEAN"}


def _json_schema(reader: _Reader, node) -> list[tuple[str, str]]:
    """The (name, Spark type) fields of ``Json().json_schema(text)``: an object of flat properties."""
    if isinstance(node, cst.Name):
        node = reader.resolver.single_value(node) or node
    text = node.evaluated_value if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)) else None
    if not isinstance(text, str):
        raise Unreadable("Json().json_schema() of a text that is not a string literal")
    # Flink 1.x's parser takes unquoted keys and single-quoted strings: make it JSON
    text = re.sub(r"'([^'\"\\]*)'", r'"\1"', text)
    text = re.sub(r"([{,]\s*)([A-Za-z_$][\w$]*)\s*:", r'\1"\2":', text)
    try:
        schema = json.loads(text)
    except ValueError:
        raise Unreadable("Json().json_schema() of a text this rule cannot parse") from None
    properties = schema.get("properties") if isinstance(schema, dict) and schema.get("type") == "object" else None
    if not isinstance(properties, dict) or not properties:
        raise Unreadable("Json().json_schema() that is not an object of properties")
    fields = []
    for name, spec in properties.items():
        spark = _JSON_SCHEMA_TYPES.get((spec.get("type"), spec.get("format"))) if isinstance(spec, dict) else None
        if spark is None or set(spec) - {"type", "format"}:
            raise Unreadable(f"Json().json_schema() field {name!r} of {json.dumps(spec)}")
        fields.append((name, spark))
    return fields


def _rowtime(reader: _Reader, node) -> tuple[str, str]:
    """(the format's field, the watermark delay) of ``Rowtime().timestamps_from_field(f)
    .watermarks_periodic_bounded(ms)``."""
    _, calls = _descriptor(reader, node, ("Rowtime",))
    field, delay = None, None
    for method, call in calls:
        args = _positional(call)
        if method == "timestamps_from_field" and len(args) == 1:
            field = reader.literal(args[0], "a rowtime field")
        elif method == "watermarks_periodic_bounded" and len(args) == 1 and isinstance(args[0], cst.Integer):
            millis = int(args[0].value, 0)
            delay = f"{millis // 1000} seconds" if millis % 1000 == 0 else f"{millis} milliseconds"
        else:
            raise Unreadable(f"Rowtime().{method}()")
    if field is None or delay is None:
        raise Unreadable("a Rowtime() without timestamps_from_field() and watermarks_periodic_bounded()")
    return field, delay


def _schema(reader: _Reader, node) -> tuple[list[tuple[str, str]], Optional[tuple[str, str, str]], Optional[str]]:
    """(the columns, (rowtime column, the format's field it holds, watermark delay) or None,
    the processing-time column or None)."""
    _, calls = _descriptor(reader, node, ("Schema",))
    columns, rowtime, proctime = [], None, None
    for method, call in calls:
        args = _positional(call)
        if method == "rowtime" and len(args) == 1 and columns and rowtime is None:
            if columns[-1][1] != "TIMESTAMP_NTZ":
                raise Unreadable(f"Schema().rowtime() of a {columns[-1][1]} column")
            rowtime = (columns[-1][0], *_rowtime(reader, args[0]))
            continue
        if method == "proctime" and not args and columns and proctime is None and columns[-1][0] != (rowtime or ("",))[0]:
            # Schema().field(c, TIMESTAMP).proctime(): c is no field of the format, but the
            # processing time, as ``c AS PROCTIME()`` of the SQL DDL
            if columns[-1][1] != "TIMESTAMP_NTZ":
                raise Unreadable(f"Schema().proctime() of a {columns[-1][1]} column")
            proctime = columns[-1][0]
            continue
        if method != "field" or len(args) != 2:
            raise Unreadable(f"Schema().{method}()")
        try:
            columns.append((reader.literal(args[0], "a field name"), TY.spark_type(args[1], reader.names)))
        except TY.Untranslatable as exc:
            raise Unreadable(str(exc)) from None
    if not columns:
        raise Unreadable("a Schema() without fields")
    return columns, rowtime, proctime


def read(resolver, names, calls: list[cst.Call]) -> tuple[str, _sql.TableDef, tuple[str, ...]]:
    """(name, table, the source of its markers) of the chain ``t_env.connect(...)...register("name")``
    given as its calls, the connect() call first."""
    reader = _Reader(resolver, names)
    *body, last = calls
    method = last.func.attr.value
    name = reader.literal((_positional(last) or [None])[0], f"{method}() of a name") if len(last.args) == 1 else None
    if name is None:
        raise Unreadable(f"{method}() with other arguments than a table name")
    options: dict[str, str] = {}
    connector_args = _positional(body[0])
    if len(connector_args) != 1:
        raise Unreadable("connect() with other arguments than a connector descriptor")
    connector = _connector(reader, connector_args[0], options)
    options = {"connector": connector, **options}
    columns, fields, rowtime, proctime = None, None, None, None
    for call in body[1:]:
        step, args = call.func.attr.value, _positional(call)
        if step == "with_format" and len(args) == 1:
            fields = _format(reader, args[0], options)
        elif step == "with_schema" and len(args) == 1:
            columns, rowtime, proctime = _schema(reader, args[0])
        elif step == "in_append_mode" and not args:
            pass  # what a table without a primary key is in the SQL DDL
        else:
            raise Unreadable(f"connect()...{step}()")
    if columns is None:
        raise Unreadable("a connect() descriptor without with_schema()")
    if "format" not in options:
        raise Unreadable("a connect() descriptor without with_format()")
    if connector != "filesystem":
        options.pop(LEGACY_CSV_SINK, None)
    if LEGACY_LINE_DELIMITER in options and connector != "kafka":
        raise Unreadable("Csv().line_delimiter() of a table other than a Kafka table")
    order = tuple(n for n, _ in columns)
    computed, computed_types = (), {}
    if proctime is not None:
        if connector != "kafka":
            raise Unreadable("Schema().proctime() of a table other than a Kafka table")
        # the column the SQL DDL's ``proctime AS PROCTIME()`` declares: the same computed column
        columns = [(n, t) for n, t in columns if n != proctime]
        expression, computed_types[proctime] = _sql._expression("PROCTIME()", name, columns)
        computed = ((proctime, expression),)
    # the format's fields: the rowtime column's is the field it is read from
    read = [(rowtime[1], t) if rowtime is not None and n == rowtime[0] else (n, t) for n, t in columns]
    if rowtime is not None:
        if connector != "kafka" or options["format"] != "json":
            raise Unreadable("Schema().rowtime() of a table other than a Kafka table in the json format")
        if rowtime[1] in dict(columns):
            raise Unreadable(f"Schema().rowtime() from field {rowtime[1]!r}, also a column of the table")
        options[ROWTIME_FROM] = f"{rowtime[0]}={rowtime[1]}"
    # OldCsv's fields are the columns in order; Json's schema names the columns' (JSON reads by name)
    same = fields == [n for n, _ in read] if fields and isinstance(fields[0], str) else dict(fields or ()) == dict(read)
    if fields is not None and not same:
        raise Unreadable("format fields that are not the schema's")
    table = _sql.TableDef(name=name, columns=tuple(columns), computed=computed, connector=connector, options=options,
                          watermark=(rowtime[0], rowtime[2]) if rowtime else None, primary_key=(),
                          order=order if computed else (), computed_types=computed_types,
                          bounded=_sql.is_bounded(connector.lower(), options))
    return name, table, tuple(reader.parts)


def calls_of(resolver, last: cst.Call) -> Optional[list[cst.Call]]:
    """The calls of the chain ``t_env.connect(...)....<last>(...)``, the connect() call first."""
    calls = [last]
    node = last.func.value
    while isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute):
        calls.append(node)
        if node.func.attr.value == "connect":
            return list(reversed(calls))
        node = node.func.value
    return None


_CSV_SINK = ("pyflink.table.CsvTableSink", "pyflink.table.sinks.CsvTableSink")
_CSV_SINK_ARGS = ("field_names", "field_types", "path", "field_delimiter", "num_files", "write_mode")


def csv_sink(resolver, names, node) -> bool:
    """Whether ``node`` is a ``CsvTableSink(...)`` call of Flink 1.9-1.13."""
    return isinstance(node, cst.Call) and names(node.func) in _CSV_SINK


def _csv_call(reader: _Reader, call: cst.Call, what: str, order: tuple[str, ...], required: int) -> tuple[str, dict, tuple]:
    """(the table's name, the arguments by name, the columns) of ``t_env.register_table_<what>(name,
    Csv<...>(...))``: positional arguments in the constructor's ``order``, of which the first
    ``required`` must be given; the columns of its field names and field types."""
    kind = call.args[1].value.func
    kind = kind.attr.value if isinstance(kind, cst.Attribute) else kind.value
    name = reader.literal(call.args[0].value, f"register_table_{what}() of a name")
    args: dict[str, cst.BaseExpression] = {}
    for index, arg in enumerate(call.args[1].value.args):
        key = arg.keyword.value if arg.keyword is not None else (order[index] if index < len(order) else None)
        if key is None or arg.star or key in args or key not in order:
            raise Unreadable(f"{kind}() of other arguments than {', '.join(order)}")
        args[key] = arg.value
    if any(k not in args for k in order[:required]):
        raise Unreadable(f"{kind}() without {', '.join(order[:required])}")
    field_names, field_types = args["field_names"], args["field_types"]
    if not (isinstance(field_names, cst.List) and isinstance(field_types, cst.List)
            and len(field_names.elements) == len(field_types.elements) and field_names.elements):
        raise Unreadable(f"{kind}() of field names and types that are not lists of the same length")
    try:
        columns = tuple((reader.literal(n.value, "a field name"), TY.spark_type(t.value, reader.names))
                        for n, t in zip(field_names.elements, field_types.elements))
    except TY.Untranslatable as exc:
        raise Unreadable(str(exc)) from None
    return name, args, columns


def read_csv_sink(resolver, names, call: cst.Call) -> tuple[str, _sql.TableDef, tuple[str, ...]]:
    """(name, table, the source of its markers) of ``t_env.register_table_sink(name, CsvTableSink(...))``."""
    reader = _Reader(resolver, names)
    name, args, columns = _csv_call(reader, call, "sink", _CSV_SINK_ARGS, 3)
    if "num_files" in args and not (isinstance(args["num_files"], cst.UnaryOperation)
                                    and resolver.module.code_for_node(args["num_files"]) == "-1"):
        raise Unreadable("CsvTableSink() of a number of files")
    if "write_mode" in args and not (isinstance(args["write_mode"], cst.Name) and args["write_mode"].value == "None"):
        raise Unreadable("CsvTableSink() of a write mode")
    options = {"connector": "filesystem", "path": reader.string(args["path"]), "format": "csv",
               "csv.disable-quote-character": "true", LEGACY_CSV_SINK: "true"}
    if "field_delimiter" in args:
        options["csv.field-delimiter"] = reader.literal(args["field_delimiter"], "a field delimiter")
    table = _sql.TableDef(name=name, columns=columns, computed=(), connector="filesystem", options=options,
                          watermark=None, primary_key=(), bounded=True)
    return name, table, tuple(reader.parts)


_CSV_SOURCE = ("pyflink.table.CsvTableSource", "pyflink.table.sources.CsvTableSource")
_CSV_SOURCE_ARGS = ("source_path", "field_names", "field_types", "field_delim", "line_delim", "quote_character",
                    "ignore_first_line", "ignore_comments", "lenient", "empty_column_as_null")


def csv_source(resolver, names, node) -> bool:
    """Whether ``node`` is a ``CsvTableSource(...)`` call of Flink 1.9-1.13."""
    return isinstance(node, cst.Call) and names(node.func) in _CSV_SOURCE


def _true(reader: _Reader, node, what: str) -> bool:
    """The value of a flag argument given as True/False/None."""
    if isinstance(node, cst.Name) and node.value in ("True", "False", "None"):
        return node.value == "True"
    raise Unreadable(f"CsvTableSource() {what} that is not True, False or None")


def read_csv_source(resolver, names, call: cst.Call) -> tuple[str, _sql.TableDef, tuple[str, ...]]:
    """(name, table, the source of its markers) of ``t_env.register_table_source(name,
    CsvTableSource(path, field_names, field_types, ...))``: the Java CsvTableSource that PyFlink
    1.9-1.13 builds (``CsvTableSource.builder()``: path, fields, fieldDelimiter, lineDelimiter,
    quoteCharacter, ignoreFirstLine, commentPrefix, ignoreParseErrors), which is the source the
    legacy properties ``'connector.type' = 'filesystem', 'format.type' = 'csv'`` build as well
    (``_sql.legacy_options``): the same options, read by Spark only."""
    reader = _Reader(resolver, names)
    name, args, columns = _csv_call(reader, call, "source", _CSV_SOURCE_ARGS, 3)
    options = {"connector": "filesystem", "path": reader.string(args["source_path"]), "format": "csv",
               "csv.disable-quote-character": "true", _sql.LEGACY_SOURCE: "true"}
    given = {k: v for k, v in args.items() if not (isinstance(v, cst.Name) and v.value == "None")}
    if "field_delim" in given:
        options["csv.field-delimiter"] = reader.literal(given["field_delim"], "a field delimiter")
    if "line_delim" in given and reader.literal(given["line_delim"], "a line delimiter") != "\n":
        raise Unreadable("CsvTableSource() of a line delimiter other than '\\n'")
    if "quote_character" in given:
        options.pop("csv.disable-quote-character")
        options["csv.quote-character"] = reader.literal(given["quote_character"], "a quote character")
    if "ignore_first_line" in given and _true(reader, given["ignore_first_line"], "ignore_first_line"):
        options[IGNORE_FIRST_LINE] = "true"
    if "ignore_comments" in given:
        if reader.literal(given["ignore_comments"], "a comment prefix") != "#":
            raise Unreadable("CsvTableSource() of a comment prefix other than '#'")
        options["csv.allow-comments"] = "true"
    if "lenient" in given and _true(reader, given["lenient"], "lenient"):
        options["csv.ignore-parse-errors"] = "true"
    if "empty_column_as_null" in given and _true(reader, given["empty_column_as_null"], "empty_column_as_null"):
        raise Unreadable("CsvTableSource(empty_column_as_null=True) (an empty field read as NULL)")
    table = _sql.TableDef(name=name, columns=columns, computed=(), connector="filesystem", options=options,
                          watermark=None, primary_key=(), bounded=True)
    return name, table, tuple(reader.parts)
