"""``TableDescriptor`` builders read into the ``_sql.TableDef`` a ``CREATE TABLE`` gives:

    TableDescriptor.for_connector("filesystem")
        .schema(Schema.new_builder().column("word", DataTypes.STRING()).build())
        .option("path", input_path)
        .format("csv")                    # or FormatDescriptor.for_format("csv").option(...).build()
        .build()

Option values that are not literals (``input_path``) stand in the TableDef as the markers of
``_program.SqlText`` (``__f2s_<i>__``), with their source in ``parts``: the Spark DDL written
from it is an f-string with the same placeholders. A builder call this module does not know
makes the descriptor unreadable (``Unreadable`` names it).
"""

from __future__ import annotations

import re
from typing import Optional

import libcst as cst

from flink2spark.rules.pyflink._common import chain
from flink2spark.rules.table import _sql
from flink2spark.rules.table import _types as TY

_MARK = "__f2s_{}__"
_DESCRIPTOR = ("pyflink.table.TableDescriptor", "pyflink.table.table_descriptor.TableDescriptor")
_SCHEMA = ("pyflink.table.Schema", "pyflink.table.schema.Schema")
_FORMAT = ("pyflink.table.FormatDescriptor", "pyflink.table.table_descriptor.FormatDescriptor")


class Unreadable(Exception):
    pass


def _is_none(node) -> bool:
    return isinstance(node, cst.Name) and node.value == "None"


def _calls(resolver, node) -> list:
    """The calls of a builder chain in order, the first one a Flink name's (``_common.chain``)."""
    found = chain(resolver, node)
    if found is None or not isinstance(found[0].func, cst.Attribute):
        return []
    return [found[0], *(call for _, call in found[1])]


def _positional(call: cst.Call) -> list:
    if any(a.keyword is not None or a.star for a in call.args):
        raise Unreadable(f"{call.func.attr.value}() with keyword arguments")
    return [a.value for a in call.args]


class _Reader:
    def __init__(self, resolver, names, physical=(), millis=frozenset()):
        self.resolver = resolver
        self.names = names  # _program.dotted_names
        self.physical = list(physical)  # columns computed columns may read besides the declared ones (a stream's fields)
        self.millis = millis  # TIMESTAMP columns of those whose values are whole milliseconds
        self.parts: list[str] = []
        self.declared: dict[str, str] = {}  # column -> its DataTypes call as a Flink type (TableDef.declared)

    def string(self, node) -> str:
        """A literal, or a marker standing for the expression."""
        if isinstance(node, cst.SimpleString):
            return node.evaluated_value
        self.parts.append(self.resolver.module.code_for_node(node))
        return _MARK.format(len(self.parts) - 1)

    def literal(self, node, what: str) -> str:
        if isinstance(node, cst.Name):
            value = self.resolver.single_value(node)
            node = value if value is not None else node
        if not isinstance(node, cst.SimpleString):
            raise Unreadable(f"{what} that is not a string literal")
        return node.evaluated_value

    def schema(self, node) -> dict:
        """The columns of a ``Schema.new_builder()`` chain: ``columns`` (physical), ``computed``
        (``column_by_expression``), ``metadata`` (``column_by_metadata``), ``order`` and
        ``watermark``, as ``_sql.create_table`` gives them."""
        calls = _calls(self.resolver, node)
        if not calls or calls[0].func.attr.value != "new_builder" or (self.names(calls[0].func.value) or "") not in _SCHEMA:
            raise Unreadable("schema() of something else than a Schema.new_builder() chain")
        found = {"columns": [], "computed": [], "computed_types": {}, "metadata": [], "order": [], "watermark": None,
                 "casts": {}}  # casts: a computed column -> the field of whole milliseconds it casts (_millis_cast)
        try:
            for call in calls[1:]:
                method, args = call.func.attr.value, _positional(call)
                if method == "column" and len(args) == 2:
                    name = self.literal(args[0], "a column name")
                    found["columns"].append((name, TY.spark_type(args[1], self.names)))
                    declared = TY.flink_type_text(args[1], self.names)
                    if declared is not None:
                        self.declared[name] = declared
                elif method == "column_by_expression" and len(args) == 2:
                    name = self.literal(args[0], "a column name")
                    declared = found["columns"] + [(n, t) for n, t, _ in found["metadata"]]
                    visible = declared + [(n, t) for n, t in self.physical if n not in dict(declared)]
                    text = self.literal(args[1], "an expression")
                    cast = _millis_cast(text, self.millis)
                    if cast is not None:
                        found["casts"][name] = _CAST.match(text).group(1)
                    expression, found["computed_types"][name] = cast or _sql._expression(text, "t", visible)
                    found["computed"].append((name, expression))
                elif method == "column_by_metadata" and 2 <= len(args) <= 4:
                    name = self.literal(args[0], "a column name")
                    key = self.literal(args[2], "a metadata key") if len(args) > 2 and not _is_none(args[2]) else name
                    found["metadata"].append((name, TY.spark_type(args[1], self.names), key))
                elif method == "watermark" and len(args) == 2:
                    column = self.literal(args[0], "a column name")
                    found["watermark"] = (column, _sql._watermark_delay(column, self.literal(args[1], "a watermark expression")))
                    continue
                elif method == "build" and not args:
                    continue
                else:
                    raise Unreadable(f"Schema builder's {method}()")
                found["order"].append(name)
        except (TY.Untranslatable, _sql.Untranslatable) as exc:
            raise Unreadable(str(exc)) from None
        if found["watermark"] and found["watermark"][0] not in found["order"]:
            raise Unreadable(f"watermark on unknown column {found['watermark'][0]}")
        return found

    def format(self, node, options: dict) -> None:
        if isinstance(node, cst.SimpleString):
            options["format"] = node.evaluated_value
            return
        calls = _calls(self.resolver, node)
        if not calls or calls[0].func.attr.value != "for_format" or (self.names(calls[0].func.value) or "") not in _FORMAT:
            raise Unreadable("format() of something else than a format name or FormatDescriptor.for_format()")
        fmt = self.literal(_positional(calls[0])[0], "a format name")
        options["format"] = fmt
        for call in calls[1:]:
            method, args = call.func.attr.value, _positional(call)
            if method == "option" and len(args) == 2:
                options[f"{fmt}.{self.literal(args[0], 'an option key')}"] = self.string(args[1])
            elif method != "build":
                raise Unreadable(f"FormatDescriptor builder's {method}()")

    def table(self, name: str, node) -> _sql.TableDef:
        if isinstance(node, cst.Name):
            value = self.resolver.single_value(node)
            node = value if value is not None else node
        calls = _calls(self.resolver, node)
        if not calls or calls[0].func.attr.value != "for_connector" or (self.names(calls[0].func.value) or "") not in _DESCRIPTOR:
            raise Unreadable("a table descriptor that is not a TableDescriptor.for_connector(...) chain")
        connector = self.literal(_positional(calls[0])[0], "a connector name")
        options = {"connector": connector}
        schema: dict = {"columns": []}
        for call in calls[1:]:
            method, args = call.func.attr.value, _positional(call)
            if method == "schema" and len(args) == 1:
                schema = self.schema(args[0])
            elif method == "option" and len(args) == 2:
                options[self.literal(args[0], "an option key")] = self.string(args[1])
            elif method == "format" and len(args) == 1:
                self.format(args[0], options)
            elif method == "build" and not args:
                pass
            else:
                raise Unreadable(f"TableDescriptor builder's {method}()")
        if not schema["columns"]:
            raise Unreadable("a table descriptor without a schema")
        return _sql.TableDef(name=name, columns=tuple(schema["columns"]), computed=tuple(schema["computed"]),
                             connector=connector.lower(), options=options, watermark=schema["watermark"], primary_key=(),
                             metadata=tuple(schema["metadata"]), order=tuple(schema["order"]),
                             bounded=_sql.is_bounded(connector.lower(), options), declared=dict(self.declared),
                             computed_types=dict(schema["computed_types"]))


def read(resolver, names, name: str, node) -> tuple[_sql.TableDef, tuple[str, ...]]:
    """(the table ``node`` describes, the source of the expressions its markers stand for)."""
    reader = _Reader(resolver, names)
    return reader.table(name, node), tuple(reader.parts)


def is_schema(resolver, names, node) -> bool:
    """Whether ``node`` (or what a name bound once holds) is a ``Schema.new_builder()...`` chain."""
    if isinstance(node, cst.Name):
        value = resolver.single_value(node)
        node = value if value is not None else node
    calls = _calls(resolver, node)
    return bool(calls) and calls[0].func.attr.value == "new_builder" and (names(calls[0].func.value) or "") in _SCHEMA


_CAST = re.compile(r"^\s*CAST\s*\(\s*([A-Za-z_]\w*)\s+AS\s+(TIMESTAMP|TIMESTAMP_LTZ)\s*\(\s*([3-9])\s*\)\s*\)\s*$", re.I)


def _millis_cast(text: str, millis) -> Optional[tuple[str, str]]:
    """``CAST(ts AS TIMESTAMP(p))`` / ``TIMESTAMP_LTZ(p)`` (p >= 3) of a TIMESTAMP_LTZ column whose
    values are whole milliseconds (an INSTANT field of a collection): no digit is cut, so Spark's
    CAST (in the session time zone, as Flink's) gives the same values; None for other text."""
    found = _CAST.match(text)
    if found is None or found.group(1) not in millis:
        return None
    if found.group(2).upper() == "TIMESTAMP_LTZ":
        return found.group(1), "TIMESTAMP"
    return f"CAST({found.group(1)} AS TIMESTAMP_NTZ)", "TIMESTAMP_NTZ"


def schema_of(resolver, names, node, physical=(), millis=frozenset()) -> dict:
    """The columns of a ``Schema.new_builder()`` chain (``_Reader.schema``), for a Schema given
    elsewhere than a table descriptor (``from_data_stream(ds, schema)``: its computed columns may
    read the ``physical`` (name, Spark type) fields of the stream too)."""
    if isinstance(node, cst.Name):
        value = resolver.single_value(node)
        node = value if value is not None else node
    return _Reader(resolver, names, physical, millis).schema(node)
