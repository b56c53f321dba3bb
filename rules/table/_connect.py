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
- ``Schema().field(name, DataTypes...)`` -> the columns.

``OldCsv().ignore_first_line()`` -> the option ``csv.ignore-first-line`` (Flink 1.x's legacy csv
format's own: no csv option of the SQL DDL skips a header), which only a table the program reads
converts with (Spark's ``header``).

A descriptor call this module does not know (``line_delimiter`` other than
``\\n``, ``Rowtime``, ``proctime``, a retract or upsert mode...) makes the table unreadable
(``_descriptors.Unreadable`` names it): its statement keeps a TODO.
"""

from __future__ import annotations

from typing import Optional

import libcst as cst

from flink2spark.rules.pyflink._common import chain
from flink2spark.rules.table import _sql
from flink2spark.rules.table import _types as TY
from flink2spark.rules.table._descriptors import Unreadable, _Reader, _positional
from flink2spark.rules.table._sql import IGNORE_FIRST_LINE

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
        raise Unreadable(f"a descriptor other than {'/'.join(k + '()' for k in kinds)}")
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


def _schema(reader: _Reader, node) -> list[tuple[str, str]]:
    _, calls = _descriptor(reader, node, ("Schema",))
    columns = []
    for method, call in calls:
        args = _positional(call)
        if method != "field" or len(args) != 2:
            raise Unreadable(f"Schema().{method}()")
        try:
            columns.append((reader.literal(args[0], "a field name"), TY.spark_type(args[1], reader.names)))
        except TY.Untranslatable as exc:
            raise Unreadable(str(exc)) from None
    if not columns:
        raise Unreadable("a Schema() without fields")
    return columns


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
    columns, fields = None, None
    for call in body[1:]:
        step, args = call.func.attr.value, _positional(call)
        if step == "with_format" and len(args) == 1:
            fields = _format(reader, args[0], options)
        elif step == "with_schema" and len(args) == 1:
            columns = _schema(reader, args[0])
        elif step == "in_append_mode" and not args:
            pass  # what a table without a primary key is in the SQL DDL
        else:
            raise Unreadable(f"connect()...{step}()")
    if columns is None:
        raise Unreadable("a connect() descriptor without with_schema()")
    if "format" not in options:
        raise Unreadable("a connect() descriptor without with_format()")
    # OldCsv's fields are the columns in order; Json's schema names the columns' (JSON reads by name)
    same = fields == [n for n, _ in columns] if fields and isinstance(fields[0], str) else dict(fields or ()) == dict(columns)
    if fields is not None and not same:
        raise Unreadable("format fields that are not the schema's")
    table = _sql.TableDef(name=name, columns=tuple(columns), computed=(), connector=connector, options=options,
                          watermark=None, primary_key=(), bounded=_sql.is_bounded(connector.lower(), options))
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
