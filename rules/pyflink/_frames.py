"""The frame form of PyFlink streams (issue 14): which operators have a native DataFrame form,
and the Columns they become (not a rule: it defines no ``rule``).

The program model decides, in one place (``_streams.StreamFacts.frame``), whether a stream is
lowered to a DataFrame: its source has a schema (``from_collection(data, type_info=T)`` with
``T`` a ``Types.ROW_NAMED/ROW/TUPLE`` of basic types or a basic type, bounded by nature; dates,
decimals and arrays where their data is exact in Spark's types, literal ``Instant.of_epoch_milli(n)``
values of ``Types.INSTANT()`` fields for a stream only made a Table, and untyped literal data:
``source_shape``, ``pickled_shape``; a bounded insert-only table's ``to_data_stream``:
``table_shape``) and
every consumer of it, and of the streams derived from it, has a native form. The consumers
with one are the table ``_streams.NATIVE_CONSUMERS``: each entry names a method and a function
``(graph, call, input shape) -> Shape | True | None`` giving the shape of the stream the call
makes (a DataFrame's columns), ``True`` for a sink, ``None`` when this call has no exact
native form (then its input stays an RDD, and so does everything upstream of it).

This module holds those functions and what the rules write from them: the function of a
``map``/``filter`` translated to Columns (``transpiler/python_columns.py``, exact or refused),
the key fields of a ``key_by`` selector, the per-field aggregates of a BATCH keyed reduction.
"""

from __future__ import annotations

import decimal
import re
from dataclasses import dataclass, replace
from typing import Optional, Union

import libcst as cst

from flink2spark.rules._frame_ops import Column, operand
from flink2spark.transpiler import pyflink_model as P
from flink2spark.transpiler.visitors import nodes
from flink2spark.transpiler.python_columns import Field, FlatTranslation, Refusal, Shape, Translation, translate, translate_flat

# Spark types a frame's column may have. FLOAT is not one: Flink hands Python the 32-bit float
# as a double with its binary digits (0.10000000149011612), which PyFlink prints, where Spark
# prints the float (0.1).
FRAME_TYPES = frozenset({"tinyint", "smallint", "int", "bigint", "double", "string", "boolean"})
_INTS = ("tinyint", "smallint", "int", "bigint")
# Spark types a source's column may have beyond FRAME_TYPES (see ``source_shape``): Python
# functions see the same values on both engines, but no Column translation reads them, and
# only the consumers ``LIMITED_CONSUMERS`` take such a frame (the program model checks it).
# ``date``: Flink hands Python a ``java.sql.Date`` decoded again, which is the Julian
# calendar's date before 1582-10-15 where Spark's DATE keeps the proleptic Gregorian one: only
# literal dates from 1582-10-15 on.
_FIRST_GREGORIAN = (1582, 10, 15)
# ``float`` (FLOAT): Flink hands Python the 32-bit value widened to a double
# (1.100000023841858), as Spark hands Python a FLOAT column's value (measured on both); only
# literal floats within the 32-bit range (Spark's FLOAT would make a larger one infinite).
_FLOAT_MAX = 3.4028234663852886e38
# ``time(6)`` (SQL_TIME): Flink's from_collection cuts a time to milliseconds and hands Python a
# naive ``datetime.time`` (an aware one is shifted to the JVM's zone); Spark's TIME(6) keeps
# microseconds and hands Python the same ``datetime.time``: only literal naive
# ``datetime.time(h, m, s, us)`` of whole milliseconds.
# ``struct<a:int,...>`` (a nested ROW/ROW_NAMED of basic types): Flink hands Python a Row, as
# Spark does where PyFlink's ``Row`` is Spark's (a program without RDDs); only literal
# collections whose nested values are ``Row(...)`` calls of the fields (by position, or named
# as the fields in their order) or None.


# ``decimal`` (BIG_DEC): Flink hands Python each ``Decimal`` with its own scale (a sum keeps
# it: 19.99 + 0.01 = 20.00), where Spark's DECIMAL(p, s) gives every value the scale s: only
# literal decimals all of one scale s >= 0 (no -0, which Flink makes 0) are DECIMAL(38, s).
_MAX_DIGITS = 38


def source_type(spark_type: str) -> bool:
    """Whether a source's column may have ``spark_type``: FRAME_TYPES, ``float``, ``date``,
    ``time(6)``, ``decimal``, ``array<T>``, ``struct<...>``."""
    return spark_type in FRAME_TYPES or spark_type in ("float", "date", "time(6)", "decimal") or spark_type.startswith(("array<", "struct<"))


def limited(shape: Shape) -> bool:
    """Whether a frame of ``shape`` may only go to ``LIMITED_CONSUMERS``: it has a column of a
    type beyond FRAME_TYPES, or holds pickled Python objects (a source with no type_info)."""
    return shape.pickled or any(f.type not in FRAME_TYPES for f in shape.fields)


# the consumers of a ``limited`` frame: sinks, Column functions (which read no column of the
# other types and make FRAME_TYPES columns), unions (which read no column), operator settings
LIMITED_CONSUMERS = frozenset({"print", "execute_and_collect", "map", "filter", "flat_map", "union", "name", "uid",
                               "set_parallelism", "set_description", "set_max_parallelism", "disable_chaining",
                               "start_new_chain", "slot_sharing_group", "set_buffer_timeout", "forward", "rebalance",
                               "rescale", "shuffle"})
_LITERALS = (cst.Integer, cst.Float, cst.SimpleString)


def ddl(shape: Shape) -> str:
    """The DDL schema of a frame: ``"id INT, name STRING"``; a basic value's type alone
    (``"string"``: ``createDataFrame`` then names the column ``value``)."""
    if shape.kind == "value":
        return shape.fields[0].type
    return ", ".join(f"{f.name} {_ddl_type(f.type)}" for f in shape.fields)


def _ddl_type(spark_type: str) -> str:
    """A column type in DDL: ``INT``, ``ARRAY<INT>``, ``STRUCT<a: INT, b: STRING>`` (the field names as they are)."""
    if spark_type.startswith("struct<"):
        fields = (part.split(":", 1) for part in spark_type[len("struct<"):-1].split(","))
        return "STRUCT<" + ", ".join(f"{n}: {t.upper()}" for n, t in fields) + ">"
    return spark_type.upper()


def _qualified(resolver):
    return resolver.qualified_name


def _literal(node) -> bool:
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        node = node.expression
    return isinstance(node, _LITERALS) or isinstance(node, cst.Name) and node.value in ("True", "False")


def _literal_fits(node, spark_type: str) -> bool:
    """Whether a literal is a value ``createDataFrame`` takes for the type as Flink does
    (``createDataFrame`` refuses an int for a DOUBLE, say): else the source stays an RDD."""
    if isinstance(node, cst.UnaryOperation):
        node = node.expression
    if isinstance(node, cst.Name):
        return spark_type == "boolean"
    if isinstance(node, cst.Integer):
        return spark_type in _INTS
    if isinstance(node, cst.Float):
        return spark_type == "double" or spark_type == "float" and abs(float(node.value.replace("_", ""))) <= _FLOAT_MAX
    return spark_type == "string" and isinstance(node, cst.SimpleString) and "b" not in node.prefix.lower()


def _element_values(resolver, element) -> Optional[list]:
    """The field values of one element of a collection literal: a tuple or a Row(...) call."""
    if isinstance(element, (cst.Tuple, cst.List)):
        return [e.value for e in element.elements if isinstance(e, cst.Element)]
    if isinstance(element, cst.Call) and resolver.qualified_name(element.func) in P.ROWS:
        return [a.value for a in element.args]
    return None


def source_shape(g, call: cst.Call) -> Optional[Shape]:
    """The shape of ``env.from_collection(data, type_info=T)`` as a DataFrame, or None.

    Fields hold no None when every element of a literal collection is a tuple or ``Row`` of
    literals (Python's None would be read by the functions); else as Flink's type allows.
    A ``Row`` with keywords must name the type's fields in their order (``createDataFrame``
    reads a keyword ``Row`` by name, Flink by position)."""
    from flink2spark.rules.pyflink._common import call_arg, record_shape

    resolver = g.resolver
    info = call_arg(call, 1, "type_info")
    if info is None:
        return pickled_shape(g, call)
    shape = record_shape(resolver, info)
    if shape is None:
        shape = record_shape(resolver, info, instants=True)
        if shape is None or shape.kind == "value" or not _literal_instants(g, call, shape):
            return None
    if not all(source_type(f.type) or f.type == "timestamp" for f in shape.fields):
        return None
    if any(f.type.startswith("struct<") for f in shape.fields) and not _literal_rows(g, call, shape):
        return None
    if any(f.type in ("date", "time(6)", "decimal") for f in shape.fields):
        shape = _literal_columns(g, call, shape)
        if shape is None:
            return None
    nested = {id(v) for e in g.node(call).literal_elements or () for v in _element_values(resolver, e) or ()}
    for row in row_calls(g, call):
        if id(row) in nested and any(f.type.startswith("struct<") for f in shape.fields):
            continue  # a struct field's Row (``_literal_rows``)
        names = [a.keyword.value if a.keyword is not None else None for a in row.args]
        if any(names) and names != [f.name for f in shape.fields]:
            return None
    elements = g.node(call).literal_elements
    if elements is None:
        return shape
    if shape.kind == "value":
        if all(_literal(e) for e in elements):
            if not all(_literal_fits(e, shape.fields[0].type) for e in elements):
                return None
            return Shape.value(Field("value", shape.fields[0].type, False, nan=False))
        return shape
    rows = [_element_values(resolver, e) for e in elements]
    if any(values is not None and len(values) != len(shape.fields) for values in rows):
        return None
    for values in rows:
        if values is not None and any(_literal(v) and not _literal_fits(v, f.type) for v, f in zip(values, shape.fields)):
            return None
    if all(values is not None and all(_literal(v) for v in values) for values in rows):
        # literal data: no None, and no NaN (a literal float is never one)
        return Shape(shape.kind, tuple(Field(f.name, f.type, False, f.key, nan=False) for f in shape.fields))
    return shape


def _instant_literal(resolver, node) -> bool:
    """Whether ``node`` is a call ``Instant.of_epoch_milli(n)`` of a non-negative integer literal."""
    return (isinstance(node, cst.Call) and resolver.qualified_name(node.func) in INSTANT_OF_EPOCH_MILLI
            and len(node.args) == 1 and node.args[0].keyword is None and not node.args[0].star
            and isinstance(node.args[0].value, cst.Integer))


def _literal_instants(g, call: cst.Call, shape: Shape) -> bool:
    """Whether every value of the ``timestamp`` (``Types.INSTANT()``) fields of the literal
    collection of ``call`` is a literal ``Instant.of_epoch_milli(n)``: whole milliseconds, which
    Flink's source keeps and ``f2s.table_values`` makes the UTC datetime of (Spark's TIMESTAMP)."""
    resolver = g.resolver
    elements = g.node(call).literal_elements
    if elements is None:
        return False
    for element in elements:
        values = _element_values(resolver, element)
        if values is None or len(values) != len(shape.fields):
            return False
        if not all(_instant_literal(resolver, v) for v, f in zip(values, shape.fields) if f.type == "timestamp"):
            return False
    return True


def instants(shape: Shape) -> bool:
    """Whether a frame of ``shape`` has ``timestamp`` columns of Instants (``source_shape``):
    Flink hands a Python function an ``Instant`` there, Spark a datetime, so only
    ``INSTANT_CONSUMERS`` take it."""
    return any(f.type == "timestamp" for f in shape.fields)


# the consumers of a frame with Instants: none but the Table of the stream (``TABLE_VIEWS``,
# TIMESTAMP_LTZ columns: Spark's TIMESTAMP), which ``_streams.consumer_shape`` asks first
INSTANT_CONSUMERS: frozenset = frozenset()
INSTANT_OF_EPOCH_MILLI = frozenset({"pyflink.common.time.Instant.of_epoch_milli", "pyflink.common.Instant.of_epoch_milli"})


def _literal_rows(g, call: cst.Call, shape: Shape) -> bool:
    """Whether every value of the ``struct<...>`` fields of the literal collection of ``call``
    is a ``Row(...)`` call of the struct's fields, by position or named as they are in their
    order, or None in a ROW."""
    resolver = g.resolver
    elements = g.node(call).literal_elements
    if elements is None:
        return False
    for element in elements:
        values = [element] if shape.kind == "value" else _element_values(resolver, element)
        if values is None or len(values) != len(shape.fields):
            return False
        for v, f in zip(values, shape.fields):
            if not f.type.startswith("struct<"):
                continue
            if f.nullable and isinstance(v, cst.Name) and v.value == "None":
                continue
            names = [part.split(":", 1)[0] for part in f.type[len("struct<"):-1].split(",")]
            if not (isinstance(v, cst.Call) and resolver.qualified_name(v.func) in P.ROWS and len(v.args) == len(names)
                    and not any(a.star for a in v.args)):
                return False
            given = [a.keyword.value if a.keyword is not None else None for a in v.args]
            if any(given) and given != names:
                return False
    return True


def _date_literal(resolver, node) -> Optional[tuple]:
    """``(y, m, d)`` of a call ``datetime.date(y, m, d)`` of integer literals, else None."""
    if not (isinstance(node, cst.Call) and "datetime.date" in resolver.qualified_names(node.func) and len(node.args) == 3
            and all(a.keyword is None and not a.star and isinstance(a.value, cst.Integer) for a in node.args)):
        return None
    return tuple(int(a.value.value, 0) for a in node.args)


def _time_literal(resolver, node) -> bool:
    """Whether ``node`` is a call ``datetime.time(h[, m[, s[, us]]])`` of integer literals (no
    tzinfo, no keywords) whose microseconds are whole milliseconds."""
    if not (isinstance(node, cst.Call) and "datetime.time" in resolver.qualified_names(node.func) and 1 <= len(node.args) <= 4
            and all(a.keyword is None and not a.star and isinstance(a.value, cst.Integer) for a in node.args)):
        return False
    return len(node.args) < 4 or int(node.args[3].value.value, 0) % 1000 == 0


def _decimal_literal(resolver, node) -> Optional[decimal.Decimal]:
    """The value of a call ``decimal.Decimal("text")`` of a string literal, else None."""
    if not (isinstance(node, cst.Call) and "decimal.Decimal" in resolver.qualified_names(node.func) and len(node.args) == 1
            and node.args[0].keyword is None and not node.args[0].star and isinstance(node.args[0].value, cst.SimpleString)):
        return None
    try:
        return decimal.Decimal(node.args[0].value.evaluated_value)
    except (decimal.InvalidOperation, ValueError, TypeError):
        return None


def _literal_columns(g, call: cst.Call, shape: Shape) -> Optional[Shape]:
    """``shape`` with its ``date``, ``time(6)`` and ``decimal`` fields checked against the
    literal collection of ``call`` (None when a value is not one both engines hand Python alike):
    a date is a literal ``datetime.date(y, m, d)`` from 1582-10-15 on; a time a literal naive
    ``datetime.time(h, m, s, us)`` of whole milliseconds; the decimals of a field
    are literal ``Decimal("text")`` values, finite, not -0, all of one scale s >= 0 with at most
    38 digits: the field is ``decimal(38,s)``. None in a ROW field either way."""
    resolver = g.resolver
    elements = g.node(call).literal_elements
    if elements is None:
        return None
    scales: dict[int, set] = {i: set() for i, f in enumerate(shape.fields) if f.type == "decimal"}
    for element in elements:
        values = [element] if shape.kind == "value" else _element_values(resolver, element)
        if values is None or len(values) != len(shape.fields):
            return None
        for i, (v, f) in enumerate(zip(values, shape.fields)):
            if f.type not in ("date", "time(6)", "decimal") or f.nullable and isinstance(v, cst.Name) and v.value == "None":
                continue
            if f.type == "time(6)":
                if not _time_literal(resolver, v):
                    return None
                continue
            if f.type == "date":
                date = _date_literal(resolver, v)
                if date is None or date < _FIRST_GREGORIAN:
                    return None
                continue
            number = _decimal_literal(resolver, v)
            if number is None or not number.is_finite() or number.is_zero() and number.is_signed():
                return None
            sign, digits, exponent = number.as_tuple()
            if exponent > 0 or len(digits) > _MAX_DIGITS or -exponent > _MAX_DIGITS:
                return None
            scales[i].add(-exponent)
    if any(len(found) > 1 for found in scales.values()):
        return None
    fields = tuple(replace(f, type=f"decimal({_MAX_DIGITS},{scales[i].pop() if scales[i] else 0})") if i in scales else f
                   for i, f in enumerate(shape.fields))
    return Shape(shape.kind, fields, shape.pickled)


_PICKLED_TYPES = {cst.Integer: "bigint", cst.Float: "double", cst.SimpleString: "string", cst.Name: "boolean"}
_LONGS = (-(2**63), 2**63 - 1)


def _pickled_type(node) -> Optional[str]:
    """The Spark type of a literal that holds its value exactly: an int within BIGINT, a float,
    a str (not bytes), True/False; else None."""
    negative = isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus)
    if negative:
        node = node.expression
    if not _literal(node) or isinstance(node, cst.SimpleString) and "b" in node.prefix.lower():
        return None
    if isinstance(node, cst.Name) and negative:
        return None
    if isinstance(node, cst.Integer) and not _LONGS[0] <= (-1 if negative else 1) * int(node.value.replace("_", ""), 0) <= _LONGS[1]:
        return None
    return _PICKLED_TYPES[type(node)]


def pickled_shape(g, call: cst.Call) -> Optional[Shape]:
    """The shape of ``env.from_collection(data)`` with no type_info as a DataFrame, or None.

    Flink pickles the elements: Python functions get them as they are. A literal collection
    whose elements are all literals of one type, or all tuples of one length whose fields are
    literals of one type per position, is a frame whose columns hold those values exactly
    (``value`` / ``f0, f1...``, never None or NaN); anything else (lists, Rows, other objects,
    ints beyond BIGINT, mixed types) stays an RDD. Such a frame is ``limited``: Python's
    integers have no bound, so only Column functions (which check their ranges) read it."""
    elements = g.node(call).literal_elements
    if not elements:
        return None
    if all(not isinstance(e, cst.Tuple) for e in elements):
        types = {_pickled_type(e) for e in elements}
        if len(types) != 1 or None in types:
            return None
        return Shape("value", (Field("value", types.pop(), False, nan=False),), pickled=True)
    if not all(isinstance(e, cst.Tuple) and all(isinstance(x, cst.Element) for x in e.elements) for e in elements):
        return None
    width = {len(e.elements) for e in elements}
    if len(width) != 1 or width == {0}:
        return None
    columns = []
    for i in range(width.pop()):
        types = {_pickled_type(e.elements[i].value) for e in elements}
        if len(types) != 1 or None in types:
            return None
        columns.append(Field(f"f{i}", types.pop(), False, nan=False))
    return Shape("tuple", tuple(columns), pickled=True)


# the records of a text file source: its lines, never None
TEXT_LINES = Shape.value(Field("value", "string", False, nan=False))
# the records of a NumberSequenceSource: Flink's longs (``spark.range(a, b + 1)`` renamed), never None
NUMBERS = Shape.value(Field("value", "bigint", False, nan=False))


def _no_event_time(g, strategy) -> bool:
    """Whether a source's watermark strategy changes no record: ``no_watermarks()``, or one that
    only makes watermarks no operator of the module reads (``_common.unused_watermarks``, as the
    source's rule decides)."""
    from flink2spark.rules.pyflink._common import unused_watermarks

    if isinstance(strategy, cst.Call) and g.resolver.qualified_name(strategy.func) in P.NO_WATERMARKS:
        return True
    return strategy is not None and unused_watermarks(g, strategy)


def text_source_shape(g, call: cst.Call) -> Optional[Shape]:
    """The shape of a text file source as a DataFrame (``spark.read.text``: one ``value``
    string column, a row per line; ``spark.readStream.text`` of the one folder a
    ``monitor_continuously()`` source watches), or None: ``env.read_text_file(path)`` (UTF-8,
    PyFlink 1.x) and ``env.from_source(FileSource.for_record_stream_format(
    StreamFormat.text_line_format(), *paths).build(), WatermarkStrategy.no_watermarks(), name)``
    (or a strategy no operator reads). ``env.from_source(NumberSequenceSource(a, b), ...)`` is
    ``NUMBERS`` (``spark.range``: a ``bigint`` column, ``b`` included by both).

    The lines are the same (the RDD form reads them with ``read.text`` too, see ``from_source``
    and ``read_text_file``): Java's ``readLine`` and Spark's line reader both end a line at
    ``\\n``, ``\\r\\n`` or ``\\r``, keep empty lines and a last line without terminator, and drop
    no line at the end of a file; files whose names start with ``.`` or ``_`` are skipped by both.
    Files are read in no set order by either (parallel readers), so the records are a multiset."""
    from flink2spark.rules.pyflink._common import call_arg, source_kind

    resolver = g.resolver
    method = call.func.attr.value  # type: ignore[attr-defined]
    if method == "read_text_file":
        charset = call_arg(call, 1, "charset_name")
        if call_arg(call, 0, "file_path") is None or any(a.star for a in call.args):
            return None
        if charset is not None and not (isinstance(charset, cst.SimpleString)
                                        and charset.evaluated_value.upper().replace("-", "") == "UTF8"):
            return None
        return TEXT_LINES
    if method != "from_source":
        return None
    kind = source_kind(resolver, call_arg(call, 0, "source"))
    if kind is None or kind[0] not in ("text", "stream_text", "numbers") or not _no_event_time(g, call_arg(call, 1, "watermark_strategy")):
        return None
    if kind[0] == "numbers":
        return NUMBERS if call_arg(kind[1], 0, "start") is not None and call_arg(kind[1], 1, "end") is not None else None
    builder = kind[1]
    if any(a.keyword is not None or a.star for a in builder.args) or len(builder.args) < 2:
        return None
    if kind[0] == "stream_text" and len(builder.args) != 2:  # a monitored folder: one path (spark.readStream.text)
        return None
    fmt = call_arg(builder, 0, "stream_format")
    charset = call_arg(fmt, 0, "charset_name") if isinstance(fmt, cst.Call) else None
    if charset is not None and not (isinstance(charset, cst.SimpleString) and charset.evaluated_value.upper().replace("-", "") == "UTF8"):
        return None
    return TEXT_LINES


def kafka_source_shape(g, call: cst.Call) -> Optional[Shape]:
    """The shape of an unbounded ``env.from_source(KafkaSource...build(), no_watermarks(), name)``
    or ``env.add_source(FlinkKafkaConsumer(...))`` as a streaming DataFrame (``spark.readStream.format("kafka")``, the value decoded as
    ``_kafka`` decodes it), or None: ``SimpleStringSchema()`` (UTF-8) gives one ``value``
    string column (Flink's schema fails the job on a null value, a tombstone, which Spark's
    cast reads as null: no result of Flink's to compare), ``JsonRowDeserializationSchema``/
    ``CsvRowDeserializationSchema`` of a ``Types.ROW_NAMED``/``ROW`` of frame types the
    row's fields, each of which may be null (a missing JSON field, an empty CSV field), an
    ``AvroRowDeserializationSchema`` of a record of frame types its fields (taken as nullable:
    a null value, which Flink fails on, gives null fields). Other schemas (bytes),
    ``set_bounded`` sources and event-time strategies keep the micro-batch form."""
    from flink2spark.rules.pyflink import _kafka as K
    from flink2spark.rules.pyflink._common import call_arg, record_shape

    resolver = g.resolver
    if K.kafka_source_call(resolver, call) is None:
        return None
    if call.func.attr.value == "add_source":  # type: ignore[attr-defined]  # a FlinkKafkaConsumer: no watermarks, unbounded
        schema = K.frame_schema(resolver, call_arg(call, 0, "source_func"))
    elif not _no_event_time(g, call_arg(call, 1, "watermark_strategy")) or K.source_bounded(resolver, call):
        return None
    else:
        schema = K.frame_schema(resolver, call_arg(call, 0, "source"))
    if schema is None:
        return None
    if schema.kind == "string":
        return TEXT_LINES if schema.charset is None else None
    if schema.kind == "avro":  # from_avro(value, schema).select("value.*"): the record's fields
        fields = K.avro_frame_fields(schema)
        return Shape.row(*(Field(n, t, True) for n, t in fields)) if fields else None
    if schema.kind not in ("json", "csv") or schema.type_info is None:
        return None
    shape = record_shape(resolver, schema.type_info, nullable=True)
    if shape is None or shape.kind != "row" or any(f.type not in FRAME_TYPES for f in shape.fields):
        return None
    if any(not f.name.isidentifier() for f in shape.fields):
        return None
    return shape


_PLAIN_CALLS = frozenset({"range", "zip", "enumerate", "list", "tuple", "int", "str", "float", "bool", "len", "sorted",
                          "reversed", "min", "max", "abs", "round"})


def needs_spark_rows(g, call: cst.Call) -> bool:
    """Whether the data of ``from_collection`` may hold PyFlink ``Row``s: a ``Row(...)`` in its
    expression, or, in a module that uses ``Row``, a call of another function (which may
    return some)."""
    resolver = g.resolver
    if row_calls(g, call):
        return True
    data = _collection(g, call)
    if data is None:
        return False
    opaque = any(not (isinstance(c.func, cst.Name) and c.func.value in _PLAIN_CALLS and not resolver.referents(c.func)
                      or _date_literal(resolver, c) is not None or _decimal_literal(resolver, c) is not None)
                 for c in nodes(data, cst.Call))
    return opaque and g.uses_rows


def _collection(g, call: cst.Call):
    from flink2spark.rules.pyflink._common import call_arg

    collection = call_arg(call, 0, "collection")
    if isinstance(collection, cst.Name):
        collection = g.resolver.single_value(collection) or collection
    return collection


def row_calls(g, call: cst.Call) -> list[cst.Call]:
    """The PyFlink ``Row(...)`` calls in the collection ``from_collection`` reads (its
    expression, or the value of the name it is): in a frame's data they must become Spark's
    ``Row`` (``createDataFrame`` cannot read PyFlink's), which only a program whose streams are
    all DataFrames gets (``StreamGraph.spark_rows``)."""
    resolver = g.resolver
    collection = _collection(g, call)
    if collection is None:
        return []
    return [c for c in nodes(collection, cst.Call) if resolver.qualified_name(c.func) in P.ROWS]


# --------------------------------------------------------------------------------------------
# map / filter: the function as Columns


def function_node(resolver, arg: Optional[cst.BaseExpression], method: str):
    """The lambda or def an operator runs (a name of a def of the module, a lambda, or an
    instance of a function class of the module: its ``method`` without ``self``), or None."""
    from flink2spark.rules.pyflink._common import instance_class

    if isinstance(arg, cst.Lambda):
        return arg
    if isinstance(arg, cst.Name):
        target = resolver.local_def(arg)
        if isinstance(target, cst.FunctionDef):
            return target
        bindings = resolver.visible_bindings(arg.value, arg)
        if bindings and all(resolver.is_builtin(b) for b in bindings):  # map(len): the builtin called on the record
            return cst.parse_expression(f"lambda value: {arg.value}(value)")
    cls = instance_class(resolver, arg)
    if cls is None or any(isinstance(s, cst.FunctionDef) and s.name.value in ("open", "close", "__init__")
                          for s in cls.body.body):
        return None
    for s in cls.body.body:
        if isinstance(s, cst.FunctionDef) and s.name.value == method and len(s.params.params) == 2:
            return s.with_changes(params=s.params.with_changes(params=s.params.params[1:]))
    return None


def translated(g, call: cst.Call, shape: Shape) -> Union[Translation, Refusal]:
    """The translation of the function of ``call`` (``map``/``filter``) over ``shape``, once per call."""
    return g.fact("frame_translation", call, _translate, Refusal("not computed"), shape)


def _translate(g, call: cst.Call, shape: Shape):
    from flink2spark.rules.pyflink._common import call_arg

    method = call.func.attr.value  # type: ignore[attr-defined]
    fn = function_node(g.resolver, call_arg(call, 0, "func"), method)
    if fn is None:
        return Refusal("a function that is not a lambda, a def or a function class without open()/close()")
    declared = _declared(g, call) if method == "map" else shape
    checked = declared is not None and any(f.type in _INTS for f in declared.fields)
    return translate(fn, shape, predicate=method == "filter", checked=checked, qualified=g.resolver.qualified_name)


# types a Python UDTF's results may have beyond FRAME_TYPES (``frame_process._stored`` stores
# them as Flink's serializer does): FLOAT, which the next Python function reads as Flink's
# (the 32-bit value widened); no Column translation reads or makes it
UDTF_TYPES = FRAME_TYPES | {"float"}


def _declared(g, call: cst.Call, udtf: bool = False) -> Optional[Shape]:
    """The shape of the ``output_type`` of ``call`` when its fields are of FRAME_TYPES (or, for
    results of a Python UDTF, ``udtf``: of UDTF_TYPES), else None."""
    from flink2spark.rules.pyflink._common import record_shape

    t = g.node(call).element_type
    if not isinstance(t, cst.BaseExpression):
        return None
    shape = record_shape(g.resolver, t)
    if shape is None or any(f.type not in (UDTF_TYPES if udtf else FRAME_TYPES) for f in shape.fields):
        return None
    return shape


def map_columns(g, call: cst.Call, shape: Shape) -> Optional[tuple[Shape, tuple[Column, ...]]]:
    """(shape, columns) of ``map(f, output_type=T)`` over a frame of ``shape``, or None when
    the function is refused or its results are not exactly what ``T``'s serializer gives."""
    declared = _declared(g, call)
    found = translated(g, call, shape)
    if isinstance(found, Refusal):
        return None
    if declared is None and not _makes_rows(g, call):
        declared = untyped_shape(call, found)
    if declared is None:
        return None
    return declared_columns(declared, found)


def _makes_rows(g, call: cst.Call) -> bool:
    """Whether the function of ``call`` calls PyFlink's ``Row`` (a pickled ``Row`` is no tuple)."""
    from flink2spark.rules.pyflink._common import call_arg

    fn = function_node(g.resolver, call_arg(call, 0, "func"), call.func.attr.value)  # type: ignore[attr-defined]
    return fn is None or any(g.resolver.qualified_name(c.func) in P.ROWS for c in nodes(fn, cst.Call))


def untyped_shape(call: cst.Call, found: Translation) -> Optional[Shape]:
    """The shape of the results of a map with no output_type whose function the translator
    types exactly (``found``), or None. Flink pickles them: later functions read the objects the
    function made, a print shows ``str()`` of each. When the function gives a basic value or a
    tuple of them (not a ``Row``), none of them None, of a type Python reads back from Spark as
    it made it (str, int, float, bool: FRAME_TYPES; an int within its column's range: the
    translator refuses an integer result past 64 bits when no output_type checks it), the
    column(s) hold the same values: a ``value`` column, or ``f0, f1...`` that Python functions
    read as the same tuple (``lambda n: ("tail", n)`` over a BIGINT frame: STRING, BIGINT)."""
    if any(a.keyword is not None and a.keyword.value == "output_type" for a in call.args) or len(call.args) != 1:
        return None
    outputs = found.outputs
    if any(out.nullable or out.name is not None or out.type not in FRAME_TYPES for out in outputs):
        return None
    if not found.tuple:
        return Shape.value(Field("value", outputs[0].type))
    return Shape.tuple(*(Field(f"f{i}", out.type) for i, out in enumerate(outputs)))


def flat_translated(g, call: cst.Call, shape: Shape) -> Union[FlatTranslation, Refusal]:
    """The translation of the function of a ``flat_map`` over ``shape``, once per call."""
    return g.fact("frame_flat_translation", call, _translate_flat, Refusal("not computed"), shape)


def _translate_flat(g, call: cst.Call, shape: Shape):
    from flink2spark.rules.pyflink._common import call_arg

    fn = function_node(g.resolver, call_arg(call, 0, "func"), "flat_map")
    if fn is None:
        return Refusal("a function that is not a lambda, a def or a function class without open()/close()")
    declared = _declared(g, call)
    checked = declared is not None and any(f.type in _INTS for f in declared.fields)
    return translate_flat(fn, shape, checked=checked, qualified=g.resolver.qualified_name, single=True)


def flat_map_columns(g, call: cst.Call, shape: Shape) -> Optional[tuple[Shape, FlatTranslation, tuple[Column, ...]]]:
    """(shape, translation, columns of each item's record) of ``flat_map(f, output_type=T)``
    over a frame of ``shape``: ``select(F.explode(items))`` then the columns; None when the
    function is refused or its records are not exactly what ``T``'s serializer gives (no
    ``output_type``: Flink hands on pickled objects, the stream stays an RDD)."""
    declared = _declared(g, call)
    found = flat_translated(g, call, shape)
    if declared is None or isinstance(found, Refusal):
        return None
    columns = declared_columns(declared, found.element)
    return None if columns is None else (columns[0], found, columns[1])


def flat_map_shape(g, call: cst.Call, shape: Shape) -> Optional[Shape]:
    found = flat_map_columns(g, call, shape)
    return None if found is None else found[0]


def declared_columns(declared: Shape, found: Translation) -> Optional[tuple[Shape, tuple[Column, ...]]]:
    """(shape, columns) of the outputs of ``found`` as the declared type ``declared`` has them."""
    outputs = found.outputs
    if (declared.kind == "value") == found.tuple or len(outputs) != len(declared.fields):
        return None
    if any(out.name is not None and out.name != f.name for out, f in zip(outputs, declared.fields)):
        return None  # Row(b=..., a=...) under other names: which field gets which value is not followed
    columns = []
    fields = []
    for out, f in zip(outputs, declared.fields):
        if out.nullable and (declared.kind != "row"):
            return None  # Flink fails the job on a None there; Spark would write NULL
        if out.type == f.type:
            code = out.code
        elif out.type in _INTS and f.type in _INTS:
            code = f'{operand(out.code)}.cast("{f.type}")'  # Flink's serializer fails out of range; ANSI cast too
        else:
            return None
        columns.append(Column(code, f.name))
        fields.append(Field(f.name, f.type, out.nullable, f.key))
    return Shape(declared.kind, tuple(fields)), tuple(columns)


def map_shape(g, call: cst.Call, shape: Shape) -> Optional[Shape]:
    found = map_columns(g, call, shape)
    return None if found is None else found[0]


def filter_shape(g, call: cst.Call, shape: Shape) -> Optional[Shape]:
    found = translated(g, call, shape)
    return None if isinstance(found, Refusal) else shape


def notes(g, call: cst.Call, shape: Shape) -> tuple[str, ...]:
    """The approximations of the Columns a map/filter/flat_map over ``shape`` becomes (the
    translation's notes: a NOTE at the operator)."""
    found = flat_translated(g, call, shape) if call.func.attr.value == "flat_map" else translated(g, call, shape)  # type: ignore[attr-defined]
    if isinstance(found, Refusal):
        return ()
    return found.notes + (found.element.notes if isinstance(found, FlatTranslation) else ())


def sink(g, call: cst.Call, shape: Shape) -> bool:
    """A ``print()`` standing as a statement (``show()`` returns no sink object to use)."""
    return isinstance(g.resolver.parent(call), cst.Expr)


_ITERATING = frozenset({"list", "tuple", "sorted", "set", "enumerate"})


def collect_sink(g, call: cst.Call, shape: Shape) -> bool:
    """Whether ``execute_and_collect([name][, limit])`` of a frame is read with Spark's own
    iterator (``rules/pyflink/execute_and_collect.py``): Flink decodes a ROW type as a ``Row`` named
    as its fields (``f0...`` for ``Types.ROW``), which Spark's ``Row`` of the same columns is, a TUPLE as a tuple, a basic type
    as the value. Without ``limit`` Flink's result is a closeable iterator: the call must be
    iterated where it stands (a ``with`` item, the iterable of a ``for`` or a comprehension, the
    argument of ``list()``...), where ``df.toLocalIterator()`` (in a ``with``: under
    ``contextlib.closing``) does what it does."""
    resolver = g.resolver
    if not P.is_stream(resolver.type_of(call.func.value)) or any(a.star for a in call.args):  # type: ignore[attr-defined]
        return False
    from flink2spark.rules.pyflink._common import call_arg

    if call_arg(call, 1, "limit") is not None:
        return True
    parent = resolver.parent(call)
    if isinstance(parent, cst.WithItem) or isinstance(parent, (cst.For, cst.CompFor)) and parent.iter is call:
        return True
    if isinstance(parent, cst.Arg) and parent.keyword is None and not parent.star:
        outer = resolver.parent(parent)
        return (isinstance(outer, cst.Call) and isinstance(outer.func, cst.Name) and outer.func.value in _ITERATING
                and not resolver.referents(outer.func) and outer.args[0] is parent)
    return False


def same_shape(g, call: cst.Call, shape: Shape) -> Shape:
    return shape


# --------------------------------------------------------------------------------------------
# key_by and BATCH keyed aggregations: groupBy(keys).agg(...)

_COL = re.compile(r'F\.col\("([^"]+)"\)')


def key_fields(g, key_by: cst.Call, shape: Shape) -> Optional[tuple[str, ...]]:
    """The columns a ``key_by`` selector picks (``lambda o: o.region``, ``lambda t: t[0]``, a
    tuple of fields, a def or ``KeySelector`` doing the same), or None for a computed key."""
    return g.fact("frame_keys", key_by, _key_fields, None, shape)


def _key_fields(g, key_by: cst.Call, shape: Shape):
    from flink2spark.rules.pyflink._common import call_arg

    fn = function_node(g.resolver, call_arg(key_by, 0, "key_selector"), "get_key")
    found = translate(fn, shape, qualified=g.resolver.qualified_name) if fn is not None else None
    if not isinstance(found, Translation):
        return None
    names = []
    for out in found.outputs:
        m = _COL.fullmatch(out.code)
        if m is None:
            return None
        names.append(m.group(1))
    return tuple(names) if len(set(names)) == len(names) else None


def key_by_of(g, keyed) -> Optional[cst.Call]:
    """The ``key_by(...)`` call a keyed stream expression comes from (through a name)."""
    resolver = g.resolver
    if isinstance(keyed, cst.Name):
        values = resolver.sources_of(keyed)
        keyed = values[0] if len(values) == 1 else None
    if isinstance(keyed, cst.Call) and isinstance(keyed.func, cst.Attribute) and keyed.func.attr.value == "key_by":
        return keyed
    return None


def key_by_shape(g, call: cst.Call, shape: Shape) -> Optional[Shape]:
    return shape if key_fields(g, call, shape) is not None else None


# Aggregates whose Spark form gives what Python's reduction gives, per field type: sums of
# integers (Python's are unbounded, Flink's serializer fails the job out of the field's range,
# as Spark's ANSI cast of the BIGINT sum does), min/max of integers and strings (Python compares
# code points, Spark UTF-8 bytes: the same order). Floats are not: Python adds in arrival order
# (Spark in another: the last digits may differ) and its min/max of NaN depend on the order.
_AGGREGATES = {"sum": _INTS, "min": (*_INTS, "string"), "max": (*_INTS, "string")}


@dataclass(frozen=True)
class Aggregation:
    keys: tuple[str, ...]
    fields: tuple[tuple[str, str], ...]  # (column, "key" | "sum" | "min" | "max") in record order


def aggregation(g, call: cst.Call, shape: Shape) -> Optional[Aggregation]:
    """The per-field aggregates of a BATCH ``sum/min/max(field)`` or ``reduce(f)`` on a keyed
    frame, or None when Flink's result would differ from ``groupBy(keys).agg(...)``: every
    field must be a key field or aggregated (PyFlink keeps the other fields of the key's FIRST
    element, which a grouped DataFrame does not know), and aggregated fields hold no None
    (Python fails on it, Spark's aggregates skip NULLs)."""
    if g.runtime_mode != "batch" or shape.kind == "value":
        return None
    key_by = key_by_of(g, call.func.value)  # type: ignore[attr-defined]
    keys = key_fields(g, key_by, shape) if key_by is not None else None
    if keys is None:
        return None
    method = call.func.attr.value  # type: ignore[attr-defined]
    if method == "reduce":
        kinds = _reduce_kinds(g, call, shape, keys)
        kinds = kinds and ["key" if k in ("first", "last") else k for k in kinds]  # must be keys (below)
    else:
        kinds = _field_kinds(call, method, shape, keys)
    if kinds is None or any(kind != "key" and kind not in _AGGREGATES for kind in kinds):
        return None  # the key's element chosen by min_by/max_by: ``_rolling.final``
    for f, kind in zip(shape.fields, kinds):
        if kind != "key" and (f.nullable or f.type not in _AGGREGATES[kind]):
            return None
        if kind == "key" and f.name not in keys:
            return None
    return Aggregation(keys, tuple((f.name, k) for f, k in zip(shape.fields, kinds)))


def _field_kinds(call: cst.Call, method: str, shape: Shape, keys) -> Optional[list[str]]:
    if len(call.args) != 1 or call.args[0].keyword is not None:
        return None
    arg = call.args[0].value
    names = [f.name for f in shape.fields]
    if isinstance(arg, cst.Integer) and int(arg.value) < len(names):
        field = names[int(arg.value)]
    elif isinstance(arg, cst.SimpleString) and shape.kind == "row" and arg.evaluated_value in names:
        field = arg.evaluated_value
    else:
        return None
    return [method if n == field else "key" for n in names]


def _reduce_kinds(g, call: cst.Call, shape: Shape, keys) -> Optional[list[str]]:
    """Per field of the record the reduce function builds from ``(a, b)``: ``a.x`` ("first"),
    ``b.x`` ("last"), ``a.x + b.x``, ``min(a.x, b.x)``, ``max(a.x, b.x)`` (any order of a and b)."""
    from flink2spark.rules.pyflink._common import call_arg

    fn = _reduce_function(g.resolver, call_arg(call, 0, "func"))
    if fn is None:
        return None
    params, body = fn
    a, b = params
    if isinstance(body, cst.IfExp):
        return _reduce_choice(shape, body, a, b)
    if isinstance(body, cst.Tuple) and shape.kind == "tuple":
        values, names = [e.value for e in body.elements if isinstance(e, cst.Element)], None
    elif isinstance(body, cst.Call) and g.resolver.qualified_name(body.func) in P.ROWS and shape.kind == "row":
        values = [arg.value for arg in body.args]
        names = [arg.keyword.value if arg.keyword is not None else None for arg in body.args]
        if any(names) and names != [f.name for f in shape.fields]:
            return None
    else:
        return None
    if len(values) != len(shape.fields):
        return None
    if any(g.resolver.referents(n) for n in nodes(body, cst.Name) if n.value in ("min", "max")):
        return None  # the module's own min/max
    kinds = []
    for f, value in zip(shape.fields, values):
        kind = _reduce_field(shape, f, value, a, b)
        if kind is None:
            return None
        kinds.append(kind)
    return kinds


def _reduce_function(resolver, arg) -> Optional[tuple[tuple[str, str], cst.BaseExpression]]:
    """((a, b), returned expression) of a two-parameter lambda/def/ReduceFunction whose body is
    ``return EXPR``."""
    from flink2spark.rules.pyflink._common import instance_class

    fn = None
    if isinstance(arg, cst.Lambda):
        fn = arg
    elif isinstance(arg, cst.Name) and isinstance(resolver.local_def(arg), cst.FunctionDef):
        fn = resolver.local_def(arg)
    else:
        cls = instance_class(resolver, arg)
        methods = [s for s in cls.body.body if isinstance(s, cst.FunctionDef)] if cls is not None else []
        if cls is not None and all(m.name.value == "reduce" for m in methods):
            fn = next((m for m in methods if len(m.params.params) == 3), None)
            if fn is not None:
                fn = fn.with_changes(params=fn.params.with_changes(params=fn.params.params[1:]))
    if fn is None:
        return None
    params = fn.params
    if len(params.params) != 2 or params.star_arg not in (None, cst.MaybeSentinel.DEFAULT) or params.kwonly_params or params.star_kwarg:
        return None
    names = (params.params[0].name.value, params.params[1].name.value)
    if isinstance(fn, cst.Lambda):
        return names, fn.body
    body = fn.body.body if isinstance(fn.body, cst.IndentedBlock) else []
    stmts = [s for s in body if not (isinstance(s, cst.SimpleStatementLine) and isinstance(s.body[0], cst.Expr)
                                     and isinstance(s.body[0].value, cst.SimpleString))]
    if len(stmts) == 1 and isinstance(stmts[0], cst.SimpleStatementLine) and isinstance(stmts[0].body[0], cst.Return):
        value = stmts[0].body[0].value
        return (names, value) if value is not None else None
    return None


def _field_of(shape: Shape, node, param: str) -> Optional[str]:
    """The field ``node`` reads of the parameter ``param`` (``a.x``, ``a[0]``, ``a["x"]``)."""
    if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value == param:
        return node.attr.value if shape.kind == "row" and node.attr.value in [f.name for f in shape.fields] else None
    if isinstance(node, cst.Subscript) and isinstance(node.value, cst.Name) and node.value.value == param and len(node.slice) == 1:
        index = node.slice[0].slice
        if isinstance(index, cst.Index) and isinstance(index.value, cst.Integer):
            i = int(index.value.value)
            return shape.fields[i].name if 0 <= i < len(shape.fields) else None
        if isinstance(index, cst.Index) and isinstance(index.value, cst.SimpleString) and shape.kind == "row":
            name = index.value.evaluated_value
            return name if name in [f.name for f in shape.fields] else None
    return None


# a comparison's operator -> (its negation, the operator with its sides swapped)
_COMPARISONS = {cst.GreaterThan: (cst.LessThanEqual, cst.LessThan), cst.GreaterThanEqual: (cst.LessThan, cst.LessThanEqual),
                cst.LessThan: (cst.GreaterThanEqual, cst.GreaterThan), cst.LessThanEqual: (cst.GreaterThan, cst.GreaterThanEqual)}


def _reduce_choice(shape: Shape, body: cst.IfExp, a: str, b: str) -> Optional[list[str]]:
    """The kinds of ``a if a.x >= b.x else b`` (any side order, either parameter first): PyFlink's
    ``max_by(x)`` (``<=``: ``min_by``), which keeps the accumulator ``a``, the earlier element,
    on ties; the other fields are the chosen element's. A strict comparison keeps the later
    element on ties (no plan here: None)."""
    chosen = [v.value if isinstance(v, cst.Name) else None for v in (body.body, body.orelse)]
    test = body.test
    if sorted(chosen, key=str) != sorted([a, b]) or not isinstance(test, cst.Comparison) or len(test.comparisons) != 1:
        return None
    op = type(test.comparisons[0].operator)
    if op not in _COMPARISONS:
        return None
    left, right = test.left, test.comparisons[0].comparator
    names = [f.name for f in shape.fields]
    sides = [(p, _field_of(shape, node, p)) for node in (left, right) for p in (a, b) if _field_of(shape, node, p) is not None]
    if len(sides) != 2 or sides[0][1] != sides[1][1] or {sides[0][0], sides[1][0]} != {a, b}:
        return None
    if sides[0][0] == b:  # b.x OP a.x: a.x OP' b.x
        op = _COMPARISONS[op][1]
    if chosen[0] == b:  # b if a.x OP b.x else a: a when not (a.x OP b.x)
        op = _COMPARISONS[op][0]
    kind = {cst.GreaterThanEqual: "max_by", cst.LessThanEqual: "min_by"}.get(op)
    if kind is None:
        return None
    return [kind if n == sides[0][1] else "element" for n in names]


def _reduce_field(shape: Shape, f: Field, value, a: str, b: str) -> Optional[str]:
    if _field_of(shape, value, a) == f.name:
        return "first"  # the accumulator's: the key's first element's (a key field: the key)
    if _field_of(shape, value, b) == f.name:
        return "last"  # the element's (a key field: the key)
    pair = None
    if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Add):
        kind, pair = "sum", (value.left, value.right)
    elif (isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value in ("min", "max")
          and len(value.args) == 2 and all(arg.keyword is None and not arg.star for arg in value.args)):
        kind, pair = value.func.value, (value.args[0].value, value.args[1].value)
    if pair is None:
        return None
    fields = {(_field_of(shape, pair[0], p), _field_of(shape, pair[1], q)) for p, q in ((a, b), (b, a))}
    return kind if (f.name, f.name) in fields else None


def aggregate_shape(g, call: cst.Call, shape: Shape) -> Optional[Shape]:
    return shape if aggregation(g, call, shape) is not None else None


def aggregate_code(agg: Aggregation, shape: Shape) -> tuple[str, str]:
    """(``groupBy`` arguments, ``agg`` arguments) and whether a ``select`` restores the order."""
    types = {f.name: f.type for f in shape.fields}
    group = ", ".join(f'"{k}"' for k in agg.keys)
    aggs = []
    for name, kind in agg.fields:
        if kind == "key":
            continue
        code = f'F.{kind}("{name}")'
        if kind == "sum" and types[name] != "bigint":  # Spark's sum of integers is a BIGINT
            code += f'.cast("{types[name]}")'
        aggs.append(f'{code}.alias("{name}")')
    return group, ", ".join(aggs)


def aggregate_order(agg: Aggregation) -> Optional[str]:
    """``select`` arguments restoring the record's field order after ``groupBy(keys).agg``, or None."""
    after = [*agg.keys, *(n for n, k in agg.fields if k != "key")]
    order = [n for n, _ in agg.fields]
    return None if after == order else ", ".join(f'"{n}"' for n in order)


# --------------------------------------------------------------------------------------------
# a Table's stream: t_env.to_data_stream(table) and the like (issue 15)


# t_env calls that make a Table of a DataStream: the index of the stream's argument
TABLE_VIEWS = {"from_data_stream": 0, "create_temporary_view": 1}


def table_view_argument(resolver, arg: cst.Arg) -> bool:
    """Whether ``arg`` is the stream of ``t_env.from_data_stream(arg, ...)`` or
    ``t_env.create_temporary_view(name, arg, ...)`` of a StreamTableEnvironment."""
    from flink2spark.transpiler import table_model as T

    call = resolver.parent(arg)
    if not (isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute) and call.func.attr.value in TABLE_VIEWS):
        return False
    if resolver.type_of(call.func.value) != T.STREAM_TABLE_ENV or arg.keyword is not None or arg.star:
        return False
    index = TABLE_VIEWS[call.func.attr.value]
    return len(call.args) > index and call.args[index] is arg and not any(a.star for a in call.args[:index])


def table_view_problem(g, call: cst.Call, shape: Shape) -> Optional[str]:
    """Why the Table ``t_env.from_data_stream(ds, ...)`` / the view ``t_env.create_temporary_view(name,
    ds, ...)`` of a frame of ``shape`` is not that DataFrame (its columns renamed as Flink names the
    table's: ``ROW_NAMED``'s names, f0, f1... for ``Types.ROW``/``TUPLE``, f0 for a basic type), or None
    when it is: a bounded stream of elements (not keyed, not timestamped pairs) whose fields have the
    table's column types, by position (the table model's ``from_stream``)."""
    from flink2spark.rules.table._program import tables

    stream = call.args[TABLE_VIEWS[call.func.attr.value]].value  # type: ignore[attr-defined]
    node = g.node(stream)
    if node.api_type != P.DATASTREAM or node.timestamped:
        return "a keyed stream or (timestamp, element) pairs"
    if shape.pickled or shape.kind == "untyped":
        return "records with no type_info"
    found, problem = tables(g.resolver).from_stream(call)
    if found is None:
        return problem
    if found.unbounded:  # a streaming table: f2s_stream.table of the stream's elements
        return "a table of an unbounded stream is made of its elements after its Python operators"
    if found.instants and not instants(shape):
        return "a field of Types.INSTANT() whose values are not all literal Instant.of_epoch_milli(n)"
    if [f.type.upper() for f in shape.fields] != [t for _, t in found.columns]:
        return ("fields of other types than the table's columns ("
                + ", ".join(f"{n} {t}" for n, t in found.columns) + ")")
    return None


def table_shape(g, call: cst.Call) -> Optional[Shape]:
    """The shape of the stream a bounded table that gives only inserts becomes
    (``to_data_stream``/``to_changelog_stream``: Rows named as the table's columns, the
    table model's ``stream_of``; ``to_append_stream(table, type_info)``: the type's fields,
    by position; a printed retract stream of an updating table: its rows, ``TablesModel.printed_changelog``),
    or None: a retract stream's (flag, row) pairs, a column of a type with no
    frame form, a bridge the model does not convert. Any column may hold None (a table's
    columns are nullable unless declared NOT NULL)."""
    from flink2spark.rules.pyflink._common import RetractPairs, TableRows, record_shape
    from flink2spark.rules.table._program import tables

    model = tables(g.resolver)
    found, problem = model.stream_of(call)
    if problem is not None or model.unbounded_stream(call):  # a streaming one: micro-batches
        return None
    if isinstance(found, RetractPairs):  # (flag, row) pairs; only printed, an updating table's final rows (shown)
        if model.insert_only(call.args[0].value) or not model.printed_changelog(call):
            return None
        found = found.row
    if isinstance(found, TableRows):
        types = [P.SPARK_TYPES.get(kind, "").lower() for _, kind in found.fields]
        shape = Shape.row(*(Field(name, t, True) for (name, _), t in zip(found.fields, types)))
    else:
        shape = record_shape(g.resolver, found, nullable=True)
    if shape is None or shape.kind == "value" or any(f.type not in FRAME_TYPES for f in shape.fields):
        return None
    if any(not f.name.isidentifier() for f in shape.fields):  # `EXPR$0`, "a.b": Columns by name would misread them
        return None
    return shape
