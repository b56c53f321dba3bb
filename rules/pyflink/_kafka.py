"""Kafka sources and sinks, and unbounded streams, for the PyFlink rules (not a rule: it defines
no ``rule``).

Sources: ``KafkaSource.builder()...build()`` read by ``env.from_source(...)`` and the legacy
``FlinkKafkaConsumer(topics, schema, properties)`` read by ``env.add_source(...)`` become
``spark.readStream.format("kafka").option(...).load()`` (``spark.read`` when the source is
``set_bounded(...)``) with the record value decoded by Spark's functions, wrapped in
``f2s_stream.micro_batches(df, type_info)`` (``f2s_stream.elements`` when bounded).

Sinks: ``KafkaSink.builder()...build()`` (``sink_to``) and ``FlinkKafkaProducer`` (``add_sink``)
become ``df.write.format("kafka")`` of the elements as a DataFrame with the value serialized by
Spark's functions: directly for a bounded stream, in ``foreachBatch`` for an unbounded one
(``writeStream`` with a checkpoint location).

Expressions of the original program (servers, topics, type information) are copied to the
converted site; they must mean the same there (``visible_at``) and builders must be written
as one chain (or a variable holding one) read only by the source/sink.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Optional

import libcst as cst

from flink2spark.transpiler.visitors import nodes, is_self_attribute
from flink2spark.rules.pyflink._common import (
    chain,
    flink_qualified,
    EVENT_TIME_NAMES,
    _MapNames,
    assigned_uses,
    call_arg,
    followed,
    instance_class,
    names_any,
    runtime_mode,
    visible_at,
)
from flink2spark.rules.pyflink._streams import facts
from flink2spark.transpiler import imports as I
from flink2spark.transpiler import markers as M
from flink2spark.transpiler import pyflink_model as P

SHIM_MODULE, SHIM_NAME, SHIM_ALIAS = "flink2spark.runtime", "streaming", "f2s_stream"
PACKAGE_NOTE = (
    "the Kafka connector is not part of PySpark: run with spark-submit --packages"
    " org.apache.spark:spark-sql-kafka-0-10_2.13:<your Spark version>"
)
AVRO_NOTE = " and org.apache.spark:spark-avro_2.13:<your Spark version> (from_avro/to_avro)"
CHECKPOINT_NOTE = (
    "streaming query checkpoint: f2s_stream.checkpoint() is a fresh temporary folder per run (the job starts"
    " from its starting offsets, as a newly submitted Flink job); set F2S_CHECKPOINT_DIR to a durable folder"
    " to resume across runs"
)
MICRO_BATCH_NOTE = (
    "unbounded stream: the Python operators run on each micro-batch (foreachBatch), so records come out"
    " per micro-batch rather than one at a time; same records"
)


def _suffixes(*names: str) -> set[str]:
    mods = (
        "pyflink.common.",
        "pyflink.common.serialization.",
        "pyflink.datastream.formats.json.",
        "pyflink.datastream.formats.csv.",
        "pyflink.datastream.formats.avro.",
        "pyflink.datastream.formats.",
        "pyflink.datastream.connectors.kafka.",
        "pyflink.datastream.connectors.",
        "pyflink.datastream.connectors.base.",
    )
    return {mod + n for mod in mods for n in names}


SIMPLE_STRING = _suffixes("SimpleStringSchema")
BYTE_ARRAY = _suffixes("ByteArraySchema")
ROW_FIELD = _suffixes("RowFieldExtractorSchema")
JSON_DESER = _suffixes("JsonRowDeserializationSchema.builder", "JsonRowDeserializationSchema.Builder")
JSON_SER = _suffixes("JsonRowSerializationSchema.builder", "JsonRowSerializationSchema.Builder")
CSV_DESER = _suffixes("CsvRowDeserializationSchema.Builder")
CSV_SER = _suffixes("CsvRowSerializationSchema.Builder")
AVRO_DESER = _suffixes("AvroRowDeserializationSchema")
AVRO_SER = _suffixes("AvroRowSerializationSchema")
OFFSETS = _suffixes("KafkaOffsetsInitializer")
RESET = _suffixes("KafkaOffsetResetStrategy")
GUARANTEE = _suffixes("DeliveryGuarantee")
SEMANTIC = _suffixes("Semantic")

# Flink basic types -> Spark SQL DDL types
DDL = P.SPARK_TYPES
AVRO_TYPES = {"string": "STRING", "int": "INT", "long": "LONG", "float": "FLOAT", "double": "DOUBLE", "boolean": "BOOLEAN"}


OTHER_SCHEMA = "a (de)serialization schema other than SimpleStringSchema/ByteArraySchema/Json/Csv/Avro row schemas"


class Problem(Exception):
    """Why a Kafka construct is not converted (becomes a TODO)."""


# --------------------------------------------------------------------------------------------
# reading the original program


def _str(node) -> Optional[str]:
    return node.evaluated_value if isinstance(node, cst.SimpleString) else None


def _literal_dict(resolver, node) -> list[tuple[cst.BaseExpression, cst.BaseExpression]]:
    node = followed(resolver, node)
    if not isinstance(node, cst.Dict) or any(not isinstance(e, cst.DictElement) for e in node.elements):
        raise Problem("Kafka properties not given as a dict literal: set the Spark Kafka options by hand")
    return [(e.key, e.value) for e in node.elements]  # type: ignore[union-attr]


@dataclass
class Schema:
    kind: str  # "string" | "bytes" | "field" | "json" | "csv" | "avro"
    type_info: Optional[cst.BaseExpression] = None  # original Types expression (json/csv)
    avro: Optional[str] = None  # the Avro schema (literal)
    avro_node: Optional[cst.BaseExpression] = None
    options: list = field(default_factory=list)  # (Spark option, value) for from_csv/to_csv
    notes: list = field(default_factory=list)
    index: int = 0  # RowFieldExtractorSchema(index): the serialized field
    charset: Optional[str] = None  # SimpleStringSchema: a deserializer's charset other than UTF-8


_UTF8 = frozenset({"utf-8", "utf8"})  # Java's names (and aliases) for UTF-8, case-insensitive
# Java's names for ISO-8859-1 (every byte is one character: Spark's decode() reads it exactly)
_LATIN1 = frozenset({"iso-8859-1", "iso8859-1", "iso8859_1", "iso_8859_1", "latin1", "l1", "8859_1", "cp819", "ibm819"})


def _utf8_charset(resolver, call: cst.Call, serialize: bool) -> Optional[str]:
    """``SimpleStringSchema(charset='UTF-8')``: Spark's string casts are UTF-8 (None); a
    deserializer's ISO-8859-1 gives ``"ISO-8859-1"`` (``F.decode``); another charset (or one
    that is not a literal, or ISO-8859-1 to write: Java writes '?' for what it cannot encode)
    is not converted."""
    charset = call_arg(call, 0, "charset")
    if charset is None:
        return None
    name = _str(followed(resolver, charset))
    if name is not None and not serialize and name.strip().lower() in _LATIN1:
        return "ISO-8859-1"
    if name is None or name.strip().lower() not in _UTF8:
        shown = repr(name) if name is not None else "a non-literal charset"
        raise Problem(
            f"SimpleStringSchema with charset {shown}: Spark's CAST(value AS STRING) reads and writes UTF-8;"
            " decode/encode the Kafka value with F.decode()/F.encode() and that charset by hand"
        )


def _schema(resolver, node, serialize: bool) -> Schema:
    node = followed(resolver, node) if node is not None else None
    if isinstance(node, cst.Call) and flink_qualified(resolver, node.func) in SIMPLE_STRING:
        charset = _utf8_charset(resolver, node, serialize)
        return Schema("string", charset=charset)
    if isinstance(node, cst.Call) and flink_qualified(resolver, node.func) in BYTE_ARRAY and not node.args:
        return Schema("bytes")
    if serialize and isinstance(node, cst.Call) and flink_qualified(resolver, node.func) in ROW_FIELD:
        index = followed(resolver, call_arg(node, 0, "field_index"))
        if not isinstance(index, cst.Integer):
            raise Problem("RowFieldExtractorSchema with a field index that is not an integer literal")
        return Schema("field", index=int(index.value, 0))
    if isinstance(node, cst.Call) and flink_qualified(resolver, node.func) in (AVRO_SER if serialize else AVRO_DESER):
        text = call_arg(node, 1, "avro_schema_string")
        value = _str(followed(resolver, text)) if text is not None else None
        if value is None:
            raise Problem("Avro schema not given as a string literal (or record_class=...): convert it by hand")
        return Schema("avro", avro=value, avro_node=text)
    found = chain(resolver, node)
    if found is None:
        raise Problem(OTHER_SCHEMA)
    first, calls = found
    q = flink_qualified(resolver, first.func)
    if not calls:
        raise Problem(OTHER_SCHEMA)
    methods = [c[0] for c in calls]
    if not methods or methods[-1] != "build":
        raise Problem("a schema builder without build()")
    if q in (JSON_SER if serialize else JSON_DESER):
        schema = Schema("json")
        for method, call in calls[:-1]:
            if method in ("type_info", "with_type_info"):
                schema.type_info = call_arg(call, 0, "type_info")
            elif method == "ignore_parse_errors":
                schema.notes.append("ignore_parse_errors(): Spark's from_json gives null fields for malformed records (Flink skips them)")
            elif method == "fail_on_missing_field":
                raise Problem("fail_on_missing_field(): Spark's from_json gives null for missing fields and cannot fail")
            else:
                raise Problem(f"JSON schema option {method}() is not converted")
        if schema.type_info is None:
            raise Problem("JSON schema without type_info: convert it by hand")
        if not serialize and not any("parse" in n for n in schema.notes):
            schema.notes.append(
                "Flink's JSON deserializer fails the job on a malformed record and coerces mismatched values"
                ' ("7" -> 7, 2.5 -> 2 for INT); Spark\'s from_json gives null fields there'
            )
        return schema
    if q in (CSV_SER if serialize else CSV_DESER):
        schema = Schema("csv", type_info=call_arg(first, 0, "type_info"))
        for method, call in calls[:-1]:
            value = call_arg(call, 0)
            if method == "set_field_delimiter":
                schema.options.append(("sep", value))
            elif method == "set_quote_character":
                schema.options.append(("quote", value))
            elif method == "set_escape_character":
                schema.options.append(("escape", value))
            elif method == "set_null_literal":
                schema.options.append(("nullValue", value))
            elif method == "set_ignore_parse_errors":
                schema.notes.append("set_ignore_parse_errors(): Spark's from_csv gives null fields for malformed records")
            else:
                raise Problem(f"CSV schema option {method}() is not converted")
        if schema.type_info is None:
            raise Problem("CSV schema without type information: convert it by hand")
        if not serialize:
            schema.notes.append(
                "CSV records: Flink's deserializer fails the job on a malformed record (missing or non-numeric"
                " fields); Spark's from_csv gives null fields"
            )
        return schema
    raise Problem(OTHER_SCHEMA)


def _row_field_nodes(resolver, type_info, tuples: bool = False) -> list[tuple[str, cst.BaseExpression]]:
    """[(name, type expression)] of a literal ``Types.ROW([...])``/``ROW_NAMED([...], [...])``
    (and ``Types.TUPLE([...])``, fields f0, f1..., with ``tuples``)."""
    node = followed(resolver, type_info)
    if not (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and flink_qualified(resolver, node.func.value) in P.TYPES):
        raise Problem("the record type is not a Types.ROW/ROW_NAMED expression of this module")
    kind = node.func.attr.value
    args = [followed(resolver, a.value) for a in node.args]
    if kind not in ("ROW", "ROW_NAMED", *(("TUPLE",) if tuples else ())) or not args or not isinstance(args[-1], cst.List):
        raise Problem(f"records of Types.{kind}: only Types.ROW/ROW_NAMED{'/TUPLE' if tuples else ''} records are converted")
    types = [followed(resolver, e.value) for e in args[-1].elements]  # type: ignore[attr-defined]
    if kind in ("ROW", "TUPLE"):
        return [(f"f{i}", t) for i, t in enumerate(types)]
    names = args[0]
    if not isinstance(names, cst.List) or not all(isinstance(e.value, cst.SimpleString) for e in names.elements):
        raise Problem("ROW_NAMED field names are not string literals")
    return list(zip([e.value.evaluated_value for e in names.elements], types))  # type: ignore[attr-defined]


def _row_fields(resolver, type_info) -> list[tuple[str, str]]:
    """[(name, Flink basic type)] of a literal ``Types.ROW([...])``/``ROW_NAMED([...], [...])``."""
    fields = []
    for name, t in _row_field_nodes(resolver, type_info):
        if not (isinstance(t, cst.Call) and isinstance(t.func, cst.Attribute) and flink_qualified(resolver, t.func.value) in P.TYPES and t.func.attr.value in DDL):
            raise Problem("a record field type other than a basic Types.X() (nested rows, arrays, dates...)")
        fields.append((name, t.func.attr.value))
    return fields


def _avro_fields(schema: Schema) -> list[tuple[str, str]]:
    try:
        parsed = json.loads(schema.avro or "")
    except ValueError:
        raise Problem("the Avro schema is not valid JSON")
    if not isinstance(parsed, dict) or parsed.get("type") != "record":
        raise Problem("an Avro schema other than a record")
    out = []
    for f in parsed.get("fields", []):
        t = f.get("type")
        if t not in AVRO_TYPES:
            raise Problem(f"Avro field type {t!r} is not converted (unions, nested records, logical types)")
        out.append((f["name"], AVRO_TYPES[t]))
    return out


# Avro field types as the Spark types of a frame's columns (FLOAT: no frame type)
_AVRO_FRAME_TYPES = {"STRING": "string", "INT": "int", "LONG": "bigint", "DOUBLE": "double", "BOOLEAN": "boolean"}


def avro_frame_fields(schema: Schema) -> Optional[list[tuple[str, str]]]:
    """[(name, Spark type)] of an Avro record schema's fields, each of a frame type, or None."""
    try:
        fields = _avro_fields(schema)
    except Problem:
        return None
    if any(t not in _AVRO_FRAME_TYPES or not n.isidentifier() for n, t in fields):
        return None
    return [(n, _AVRO_FRAME_TYPES[t]) for n, t in fields]


def _ddl(fields) -> str:
    return ", ".join(f"`{n}` {DDL[t]}" for n, t in fields)


@dataclass
class SourceSpec:
    options: list  # (option, original expression or literal str)
    schema: Schema
    bounded: bool = False
    notes: list = field(default_factory=list)
    statements: list = field(default_factory=list)  # consumer.set_start_from_*() statements


@dataclass
class Choice:
    """An option value chosen by a condition of the program: ``a if test else b``."""

    test: cst.BaseExpression
    body: str
    orelse: str


def _offsets(resolver, node, key: str) -> tuple[str, object, Optional[str]]:
    """(option, value, note) of ``KafkaOffsetsInitializer.X(...)``, or of ``X(...) if test
    else Y(...)`` when both give the same option (a ``Choice`` of their values)."""
    node = followed(resolver, node)
    if isinstance(node, cst.IfExp):
        a, b = _offsets(resolver, node.body, key), _offsets(resolver, node.orelse, key)
        if a[0] != b[0] or not isinstance(a[1], str) or not isinstance(b[1], str):
            raise Problem("offsets chosen by a condition between initializers that set different Spark options")
        return a[0], Choice(node.test, a[1], b[1]), a[2] or b[2]
    if not (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and flink_qualified(resolver, node.func.value) in OFFSETS):
        raise Problem("offsets given other than by KafkaOffsetsInitializer")
    kind = node.func.attr.value
    if kind in ("earliest", "latest"):
        return key, kind, None
    if kind == "timestamp" and key == "startingOffsets":
        ts = call_arg(node, 0, "timestamp")
        return "startingTimestamp", ts if not isinstance(ts, cst.Integer) else ts.value, None
    if kind == "committed_offsets" and key == "startingOffsets":
        strategy = call_arg(node, 0, "offset_reset_strategy")
        reset = strategy.attr.value if isinstance(strategy, cst.Attribute) and flink_qualified(resolver, strategy.value) in RESET else "NONE"
        start = "latest" if reset == "LATEST" else "earliest"
        return key, start, (
            f"committed_offsets(): Spark does not read the consumer group's committed offsets; it starts from"
            f" {start} and keeps its offsets in the checkpoint"
        )
    raise Problem(f"KafkaOffsetsInitializer.{kind}() as {key}: set Spark's {key} by hand")


def _properties(resolver, pairs, spec_options: list, notes: list, legacy_start: Optional[list] = None) -> None:
    for key, value in pairs:
        k = _str(key)
        if k is None:
            raise Problem("a Kafka property whose name is not a string literal")
        if k == "bootstrap.servers":
            spec_options.append(("kafka.bootstrap.servers", value))
        elif k == "group.id":
            notes.append("group.id: Spark keeps the offsets in the checkpoint and uses its own consumer group (kafka.group.id would share one)")
        elif k == "auto.offset.reset":
            if legacy_start is not None and _str(value) in ("earliest", "latest"):
                legacy_start[0] = _str(value)
            else:
                raise Problem("auto.offset.reset: Spark takes startingOffsets instead")
        elif k in ("key.deserializer", "value.deserializer", "key.serializer", "value.serializer", "enable.auto.commit", "interceptor.classes"):
            raise Problem(f"Kafka property {k}: Spark's Kafka connector does not accept it")
        else:
            spec_options.append((f"kafka.{k}", value))


def source_spec(ctx, source) -> SourceSpec:
    """What ``from_source(KafkaSource...)`` or ``add_source(FlinkKafkaConsumer(...))`` reads."""
    resolver = ctx.resolver
    node = followed(resolver, source)
    if isinstance(node, cst.Call) and resolver.type_of(node) == P.KAFKA_CONSUMER and isinstance(node.func, (cst.Name, cst.Attribute)):
        return _consumer_spec(ctx, source, node)
    found = chain(resolver, source)
    if found is None or resolver.type_of(found[0]) != P.KAFKA_SOURCE_BUILDER or found[1][-1][0] != "build":
        raise Problem("a source other than KafkaSource.builder()...build()")
    options: list = []
    notes: list = []
    start: tuple = ("startingOffsets", "earliest", None)  # KafkaSourceBuilder's default
    schema = None
    bounded = False
    statements: list = []
    for method, call in found[1][:-1]:
        arg = call_arg(call, 0)
        if method == "set_bootstrap_servers":
            options.append(("kafka.bootstrap.servers", arg))
        elif method == "set_topics":
            topics = [a.value for a in call.args]
            if len(topics) == 1:
                options.append(("subscribe", topics[0]))
            elif all(_str(t) is not None for t in topics):
                options.append(("subscribe", ",".join(_str(t) for t in topics)))  # type: ignore[misc]
            else:
                raise Problem("set_topics() with several non-literal topics")
        elif method == "set_topic_pattern":
            options.append(("subscribePattern", arg))
        elif method == "set_group_id":
            notes.append("set_group_id(): Spark keeps the offsets in the checkpoint and uses its own consumer group")
        elif method == "set_starting_offsets":
            start = _offsets(resolver, arg, "startingOffsets")
            statements += _read_only_here(resolver, arg)
        elif method == "set_bounded":
            option, value, _ = _offsets(resolver, arg, "endingOffsets")
            options.append((option, value))
            statements += _read_only_here(resolver, arg)
            bounded = True
        elif method == "set_value_only_deserializer":
            schema = _schema(resolver, arg, False)
        elif method == "set_client_id_prefix":
            continue  # client ids change no result
        elif method == "set_property":
            _properties(resolver, [(arg, call_arg(call, 1))], options, notes)
        elif method == "set_properties":
            _properties(resolver, _literal_dict(resolver, arg), options, notes)
        else:
            raise Problem(f"KafkaSourceBuilder.{method}() is not converted")
    if schema is None:
        raise Problem("KafkaSource without set_value_only_deserializer(): convert the deserializer by hand")
    options.insert(0 if not options else len(options), (start[0], start[1]))
    if start[2]:
        notes.append(start[2])
    return SourceSpec(_ordered(options), schema, bounded, notes, statements)


def frame_schema(resolver, source) -> Optional[Schema]:
    """The value schema of a ``KafkaSource.builder()...build()`` (or a ``FlinkKafkaConsumer``) that ``source_spec`` converts
    (None: another source, or one left with a TODO), for the program model's frame form."""
    node = followed(resolver, source) if source is not None else None
    if not isinstance(node, cst.Call) or resolver.type_of(node) not in (P.KAFKA_SOURCE, P.KAFKA_CONSUMER):
        return None
    from types import SimpleNamespace

    try:  # source_spec reads only the resolver of a KafkaSource builder
        return source_spec(SimpleNamespace(resolver=resolver), source).schema
    except Problem:
        return None


def frame_sink_schema(resolver, sink, shape) -> Optional[SinkSpec]:
    """The spec of a ``KafkaSink.builder()...build()`` writing a frame of ``shape`` with
    ``writeStream.format("kafka")`` (bounded: ``write``) (``frame_value``), or None: a ``SimpleStringSchema``
    value (and key) of a string frame that holds no None (Flink's serializer fails on one), a
    ``JsonRowSerializationSchema`` whose type has the frame's fields (names, types, order:
    ``to_json(struct("*"))`` writes the frame's columns, Flink the type's fields), a
    ``CsvRowSerializationSchema`` of such a type (``f2s_stream.flink_csv``: the Column of
    Flink's CSV line, numbers as Java's ``toString``), an ``AvroRowSerializationSchema`` whose
    record has the frame's fields (``to_avro(struct("*"), schema)``). Other schemas (bytes,
    field extractors) keep the micro-batch form. ``KafkaSink`` or ``FlinkKafkaProducer`` alike."""
    from types import SimpleNamespace

    from flink2spark.rules.pyflink._common import record_shape

    if not is_kafka_sink(resolver, sink):
        return None
    try:  # sink_spec reads only the resolver of a KafkaSink builder
        spec = sink_spec(SimpleNamespace(resolver=resolver), sink)
    except Problem:
        return None
    if spec.key_schema is not None and spec.key_schema.kind != spec.schema.kind:
        return None
    if spec.schema.kind == "string":
        value = shape.kind == "value" and shape.fields[0].type == "string" and not shape.fields[0].nullable
        return spec if value and spec.schema.charset is None else None
    if spec.schema.kind not in ("json", "csv", "avro") or spec.key_schema is not None or shape.kind != "row":
        return None
    if spec.schema.kind == "avro":  # to_avro(struct("*"), schema): the record's fields are the frame's columns
        fields = avro_frame_fields(spec.schema)
        return spec if fields is not None and fields == [(f.name, f.type) for f in shape.fields] else None
    declared = record_shape(resolver, spec.schema.type_info) if spec.schema.type_info is not None else None
    if declared is None or [(f.name, f.type) for f in declared.fields] != [(f.name, f.type) for f in shape.fields]:
        return None
    return spec


def _read_only_here(resolver, arg) -> list:
    """``[name = value]`` when ``arg`` is a name assigned once and read only here (an offsets
    initializer kept in a variable): the conversion writes its value where it is read."""
    value = resolver.single_value(arg) if isinstance(arg, cst.Name) else None
    refs = assigned_uses(resolver, value) if value is not None else None
    return [resolver.parent(value)] if refs is not None and len(refs) == 1 else []


_ORDER = ["kafka.bootstrap.servers", "subscribe", "subscribePattern", "startingOffsets", "startingTimestamp", "endingOffsets"]


def _ordered(options: list) -> list:
    return sorted(options, key=lambda o: _ORDER.index(o[0]) if o[0] in _ORDER else len(_ORDER))


def _consumer_spec(ctx, source, node: cst.Call) -> SourceSpec:
    resolver = ctx.resolver
    topics = call_arg(node, 0, "topics")
    schema = _schema(resolver, call_arg(node, 1, "deserialization_schema"), False)
    props = call_arg(node, 2, "properties")
    if topics is None or props is None:
        raise Problem("FlinkKafkaConsumer(topics, deserialization_schema, properties): arguments not found")
    options: list = []
    notes: list = []
    topic_list = followed(resolver, topics)
    if isinstance(topic_list, cst.List):
        names = [_str(e.value) for e in topic_list.elements]
        if any(n is None for n in names):
            raise Problem("FlinkKafkaConsumer topics that are not string literals")
        options.append(("subscribe", ",".join(names)))  # type: ignore[arg-type]
    elif isinstance(topic_list, cst.SimpleString):
        options.append(("subscribe", topics))
    else:
        raise Problem("FlinkKafkaConsumer topics neither a string nor a list of strings written in the program")
    start = ["latest"]  # group offsets, else auto.offset.reset (Kafka's default: latest)
    _properties(resolver, _literal_dict(resolver, props), options, notes, start)
    explicit = None
    statements = []
    for stmt, method, call in consumer_calls(ctx, source, node):
        statements.append(stmt)
        if method == "set_start_from_earliest":
            explicit = ("startingOffsets", "earliest")
        elif method == "set_start_from_latest":
            explicit = ("startingOffsets", "latest")
        elif method == "set_start_from_timestamp":
            ts = call_arg(call, 0, "startup_offsets_timestamp")
            explicit = ("startingTimestamp", ts.value if isinstance(ts, cst.Integer) else ts)
        elif method == "set_start_from_group_offsets":
            explicit = None
        elif method == "set_commit_offsets_on_checkpoints":
            continue
        else:
            raise Problem(f"FlinkKafkaConsumer.{method}() is not converted")
    if explicit is None:
        notes.append(
            f"FlinkKafkaConsumer starts from the group's committed offsets; Spark does not read them and starts from"
            f" {start[0]} (auto.offset.reset)"
        )
        options.append(("startingOffsets", start[0]))
    else:
        options.append(explicit)
    spec = SourceSpec(_ordered(options), schema, False, notes)
    spec.statements = statements
    return spec


def consumer_calls(ctx, source, node: cst.Call) -> list:
    """[(statement, method, call)] of ``consumer.set_start_from_...()`` statements on the
    variable holding the consumer (every use but the one in ``add_source``)."""
    resolver = ctx.resolver
    if not isinstance(source, cst.Name):
        return []
    parent = resolver.parent(node)
    if not isinstance(parent, cst.Assign):
        raise Problem("the consumer object is used in a way that cannot be followed")
    target = parent.targets[0].target
    out = []
    for assignment in resolver.scope_bindings(target) or []:
        for ref in assignment.references:
            name = ref.node
            if name is source:
                continue
            attr = resolver.parent(name)
            call = resolver.parent(attr) if isinstance(attr, cst.Attribute) else None
            expr = resolver.parent(call) if isinstance(call, cst.Call) else None
            line = resolver.parent(expr) if isinstance(expr, cst.Expr) else None
            if line is None or call.func is not attr:  # type: ignore[union-attr]
                raise Problem("the consumer object is used other than by add_source() and set_start_from_*() statements")
            out.append((expr, attr.attr.value, call))  # type: ignore[union-attr]
    return out


@dataclass
class SinkSpec:
    options: list
    schema: Schema
    notes: list = field(default_factory=list)
    key_schema: Optional[Schema] = None  # serializes the whole element into the record key


def sink_spec(ctx, sink) -> SinkSpec:
    resolver = ctx.resolver
    node = followed(resolver, sink)
    options: list = []
    notes: list = []
    if isinstance(node, cst.Call) and resolver.type_of(node) == P.KAFKA_PRODUCER and isinstance(node.func, (cst.Name, cst.Attribute)):
        topic = call_arg(node, 0, "topic")
        schema = _schema(resolver, call_arg(node, 1, "serialization_schema"), True)
        config = call_arg(node, 2, "producer_config")
        if topic is None or config is None:
            raise Problem("FlinkKafkaProducer(topic, serialization_schema, producer_config): arguments not found")
        _properties(resolver, _literal_dict(resolver, config), options, notes)
        options.append(("topic", topic))
        semantic = call_arg(node, 4, "semantic")
        if isinstance(semantic, cst.Attribute) and semantic.attr.value == "EXACTLY_ONCE":
            notes.append("Semantic.EXACTLY_ONCE: Spark's Kafka sink writes at least once")
        return SinkSpec(_ordered(options), schema, notes)
    found = chain(resolver, sink)
    if found is None or resolver.type_of(found[0]) != P.KAFKA_SINK_BUILDER or found[1][-1][0] != "build":
        raise Problem("a sink other than KafkaSink.builder()...build() / FlinkKafkaProducer")
    schema = key_schema = None
    for method, call in found[1][:-1]:
        arg = call_arg(call, 0)
        if method == "set_bootstrap_servers":
            options.append(("kafka.bootstrap.servers", arg))
        elif method == "set_delivery_guarantee":
            if isinstance(arg, cst.Attribute) and arg.attr.value == "EXACTLY_ONCE":
                notes.append("DeliveryGuarantee.EXACTLY_ONCE: Spark's Kafka sink writes at least once")
        elif method == "set_transactional_id_prefix":
            continue
        elif method == "set_property":
            _properties(resolver, [(arg, call_arg(call, 1))], options, notes)
        elif method == "set_record_serializer":
            record = chain(resolver, arg)
            if record is None or resolver.type_of(record[0]) != P.KAFKA_RECORD_BUILDER or record[1][-1][0] != "build":
                raise Problem("a record serializer other than KafkaRecordSerializationSchema.builder()...build()")
            for rmethod, rcall in record[1][:-1]:
                rarg = call_arg(rcall, 0)
                if rmethod == "set_topic":
                    options.append(("topic", rarg))
                elif rmethod == "set_value_serialization_schema":
                    schema = _schema(resolver, rarg, True)
                elif rmethod == "set_key_serialization_schema":
                    key_schema = _schema(resolver, rarg, True)
                    if key_schema.kind not in ("string", "bytes", "field"):
                        raise Problem(
                            "a key serialization schema other than SimpleStringSchema/ByteArraySchema/RowFieldExtractorSchema:"
                            " write the key column by hand"
                        )
                else:
                    raise Problem(f"KafkaRecordSerializationSchemaBuilder.{rmethod}() is not converted (keys, topic selectors)")
        else:
            raise Problem(f"KafkaSinkBuilder.{method}() is not converted")
    if schema is None or not any(o[0] == "topic" for o in options):
        raise Problem("KafkaSink without a topic and value serialization schema")
    return SinkSpec(_ordered(options), schema, notes, key_schema)


# --------------------------------------------------------------------------------------------
# what a stream is


def kafka_source_call(resolver, expr) -> Optional[cst.Call]:
    """The ``from_source``/``add_source`` call when ``expr`` (original) is one reading Kafka."""
    if not (isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute)):
        return None
    if resolver.type_of(expr.func.value) != P.ENVIRONMENT or expr.func.attr.value not in ("from_source", "add_source"):
        return None
    source = call_arg(expr, 0, "source" if expr.func.attr.value == "from_source" else "source_func")
    node = followed(resolver, source) if source is not None else None
    if isinstance(node, cst.Call) and resolver.type_of(node) in (P.KAFKA_SOURCE, P.KAFKA_CONSUMER):
        return expr
    return None


def monitored_files_call(resolver, expr) -> Optional[cst.Call]:
    """The ``from_source`` call when ``expr`` (original) reads a ``FileSource`` that
    ``monitor_continuously()`` (an unbounded stream of text lines)."""
    from flink2spark.rules.pyflink._common import source_kind

    if not (isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute)):
        return None
    if resolver.type_of(expr.func.value) != P.ENVIRONMENT or expr.func.attr.value != "from_source":
        return None
    kind = source_kind(resolver, call_arg(expr, 0, "source"))
    return expr if kind is not None and kind[0] == "stream_text" else None


def source_bounded(resolver, call: cst.Call) -> bool:
    found = chain(resolver, call_arg(call, 0, "source"))
    return found is not None and any(method == "set_bounded" for method, _ in found[1])


MICRO_BATCH_OPS = frozenset({"map", "flat_map", "filter", "get_side_output", "assign_timestamps_and_watermarks", *P.MODIFIERS})
# KeyedStream's rolling aggregations: f2s_stream.rolling_reduce on an unbounded stream
ROLLING = frozenset({"reduce", "sum", "min", "max", "min_by", "max_by"})
ROLLING_NOTE = (
    "keyed rolling aggregation on an unbounded stream: each key's reduction so far is kept by"
    " groupBy().transformWithState() in the query's checkpoint (Spark >= 4.1, pyarrow, pandas and protobuf on the driver"
    " and the workers, the RocksDB state store, which f2s_stream.rolling_reduce selects); keys are grouped by their"
    " pickled bytes and the running values come out per micro-batch"
)


MICRO_BATCH_PROCESS_NOTE = (
    "process() on an unbounded stream: the ProcessFunction (no state, timers or timestamps) runs on each micro-batch,"
    " open()/close() around each micro-batch partition; same records, per micro-batch"
)
PROCESS_NOTE = (
    "keyed process function on an unbounded stream: f2s_stream.keyed_process runs process_element on each key's"
    " elements in order with its keyed state, kept by groupBy().transformWithState() in the query's checkpoint (Spark"
    " >= 4.1, pyarrow, pandas and protobuf on the driver and the workers, the RocksDB state store, which it selects);"
    " open() runs once per Spark task, keys are grouped by their pickled bytes and results come out per micro-batch"
)


TIMERS_NOTE = (
    "timers on an unbounded stream: transformWithState keeps them per key and fires them between micro-batches,"
    " when Spark's watermark (the strategy's delay behind the largest timestamp so far, as Flink's) or clock has passed"
    " them; those due fire before the key's elements of the next micro-batch (Flink fires them as soon as its periodic"
    " watermark passes them)"
)


TRIGGER_NOTE = (
    "windows with a trigger (or GlobalWindows, or allowed lateness of sessions) on an unbounded stream: f2s_stream.windows"
    " runs each key's windows through the trigger as Flink's window operator does, kept in transformWithState (Spark >= 4.1,"
    " pyarrow, pandas and protobuf, the RocksDB state store); the trigger's timers fire when a micro-batch's watermark (or"
    " clock) has passed them, those due before the key's elements of that micro-batch, and the timers a firing registers"
    " at a later watermark, as on Flink; Spark advances the watermark between micro-batches, so timers fire at the first"
    " micro-batch after Flink would have fired them"
)


COUNT_WINDOWS_NOTE = (
    "count windows on an unbounded stream: f2s_stream.windows keeps each key's windows and element count in"
    " transformWithState (Spark >= 4.1, pyarrow, pandas and protobuf, the RocksDB state store) across micro-batches and"
    " restarts from the same checkpoint; a window fires when full, results per micro-batch"
)


WINDOWS_NOTE = (
    "event-time windows on an unbounded stream: f2s_stream.windows keeps each key's windows in transformWithState"
    " (Spark >= 4.1, pyarrow, pandas and protobuf, the RocksDB state store) and fires a window when Spark's watermark,"
    " the strategy's delay behind the largest timestamp so far as Flink's, passes its end; Spark advances it between"
    " micro-batches, so a window fires at the first micro-batch after Flink would have fired it; elements behind the"
    " watermark (by more than the allowed lateness) are late as on Flink"
)


def _rolling_use(resolver, call: cst.Call) -> bool:
    """Whether ``call`` (``keyed.method(...)``, original) is a rolling aggregation
    ``.reduce/.sum/...()``, a ``.process()`` of a function
    ``f2s_stream.keyed_process`` runs or a ``.window()`` ``f2s_stream.windows`` runs."""
    method = call.func.attr.value  # type: ignore[attr-defined]
    if method == "process":
        return streaming_process_class(resolver, call) is not None
    if method in ("window", "count_window"):
        return streamable_window(resolver, call)
    return method in ROLLING  # on a timestamped stream the results carry the elements' timestamps


# what f2s_stream.windows runs after key_by(...).window(event-time assigner) on an unbounded stream
STREAM_WINDOW_FUNCTIONS = frozenset({"reduce", "aggregate", "process", "apply"})


def streamable_window(resolver, call: cst.Call) -> bool:
    """Whether ``keyed.window(assigner)`` or ``keyed.count_window(...)`` (original) runs on an
    unbounded stream (``f2s_stream.windows``): count windows, ``GlobalWindows``, a
    processing-time tumbling, sliding or session assigner, or an event-time one on a
    timestamped stream that no stateful operator without event time made (``after_state``), read only by
    ``reduce``/``aggregate``/``process``/``apply`` (the window context's ``current_watermark()``
    is the micro-batch's watermark), through ``side_output_late_data``, ``allowed_lateness`` and a
    ``trigger`` whose timers are of the stream's time domain."""
    from flink2spark.rules.pyflink._time import window_assigner
    from flink2spark.rules.pyflink.windows import EVENT_TIME, GLOBAL, PROCESSING_TIME

    kind = None
    keyed = call.func.value  # type: ignore[attr-defined]
    stamped = facts(resolver, keyed).timestamped
    if call.func.attr.value != "count_window":  # type: ignore[attr-defined]
        kind = window_assigner(resolver, call_arg(call, 0, "window_assigner"))
        if kind is None or (kind[0], kind[1]) not in EVENT_TIME | PROCESSING_TIME | GLOBAL:
            return False
        if (kind[0], kind[1]) in EVENT_TIME and (not stamped or facts(resolver, keyed).after_state):
            return False
    # the operator's time domain: event time on a timestamped stream, unless the windows are of processing time
    event = stamped and (kind is None or (kind[0], kind[1]) not in PROCESSING_TIME)
    pending, seen = [call], 0
    while pending and seen < 20:
        seen += 1
        consumers = facts(resolver, pending.pop()).consumer_calls
        if not consumers:
            return False
        for consumer in consumers:
            method = consumer.func.attr.value  # type: ignore[attr-defined]
            if method == "trigger":
                processing = processing_trigger(resolver, call_arg(consumer, 0, "trigger"))
                if processing is None or (processing and event) or (event and facts(resolver, keyed).after_state):
                    return False
                pending.append(consumer)
            elif method in ("side_output_late_data", "allowed_lateness"):
                pending.append(consumer)
            elif method not in STREAM_WINDOW_FUNCTIONS:
                return False
    if kind is not None and (kind[0], kind[1]) in GLOBAL and event and facts(resolver, keyed).after_state:
        return False
    return not pending


_EVENT_TRIGGERS = frozenset({"EventTimeTrigger", "ContinuousEventTimeTrigger", "CountTrigger", "NeverTrigger"})
_PROCESSING_TRIGGERS = frozenset({"ProcessingTimeTrigger", "ContinuousProcessingTimeTrigger"})


def processing_trigger(resolver, expr: Optional[cst.BaseExpression], depth: int = 0) -> Optional[bool]:
    """Whether a trigger expression (original) registers processing-time timers: PyFlink's
    triggers by name (``PurgingTrigger.of(t)``: ``t``'s), a user class by the timer methods it
    names; None when it cannot be followed."""
    if expr is None or depth > 10:
        return None
    node = followed(resolver, expr)
    cls = instance_class(resolver, node)
    if cls is not None:
        return names_any(cls, PROCESSING_TIMERS)
    if not isinstance(node, cst.Call):
        return None
    target = node.func.value if isinstance(node.func, cst.Attribute) else node.func
    name = (resolver.qualified_name(target) or "").rsplit(".", 1)[-1]
    if name == "PurgingTrigger":
        return processing_trigger(resolver, call_arg(node, 0, "nested_trigger"), depth + 1)
    if name in _PROCESSING_TRIGGERS:
        return True
    return False if name in _EVENT_TRIGGERS else None


# What a process function may not use to run on an unbounded stream
_NOT_STREAMED = EVENT_TIME_NAMES | {"OutputTag", "get_broadcast_state"}
# what f2s_stream.keyed_process runs of it: record timestamps, the watermark and timers of one domain
_KEYED_NOT_STREAMED = (EVENT_TIME_NAMES - {"timestamp", "timer_service", "current_watermark", "on_timer"}) | {"get_broadcast_state"}
EVENT_TIMERS = frozenset({"register_event_time_timer", "delete_event_time_timer"})
PROCESSING_TIMERS = frozenset({"register_processing_time_timer", "delete_processing_time_timer"})


def streaming_timers(resolver, call: cst.Call) -> Optional[str]:
    """The timer domain ("event", "processing" or None) of the function of ``keyed.process(Cls())``
    (original) that ``streaming_process_class`` accepts."""
    cls = instance_class(resolver, call_arg(call, 0, "func"))
    if cls is None:
        return None
    if names_any(cls, EVENT_TIMERS):
        return "event"
    return "processing" if names_any(cls, PROCESSING_TIMERS) else None


def micro_batch_process_class(resolver, call: cst.Call) -> Optional[cst.ClassDef]:
    """The class of ``stream.process(Cls(...))`` (original, a stream that is not keyed) when it
    runs per micro-batch: a class of this module deriving from ``ProcessFunction`` (directly)
    that names no timestamp, timer, watermark or keyed state and keeps no data in its
    instance (``f2s.process`` on the micro-batches, as on an RDD). Else None."""
    return _streamable_class(resolver, call, "ProcessFunction", (_NOT_STREAMED - {"OutputTag"}) | P.STATE_METHODS)


def streaming_process_class(resolver, call: cst.Call) -> Optional[cst.ClassDef]:
    """The class of ``keyed.process(Cls(...))`` (original) when ``f2s_stream.keyed_process``
    runs it on an unbounded stream: a class of this module deriving from
    ``KeyedProcessFunction`` (directly) that keeps no data of its own outside keyed state, uses
    no broadcast state and timers of one domain only (Spark's transformWithState has one time
    mode), record timestamps, the watermark and event-time timers on a timestamped stream only.
    Else None."""
    cls = _streamable_class(resolver, call, "KeyedProcessFunction", _KEYED_NOT_STREAMED)
    if cls is None or (names_any(cls, EVENT_TIMERS) and names_any(cls, PROCESSING_TIMERS)):
        return None
    # without an assigner a Kafka record's timestamp is the broker's (not converted), a file line has none
    if names_any(cls, EVENT_TIMERS | {"timestamp", "current_watermark"}) and not facts(resolver, call.func.value).timestamped:  # type: ignore[attr-defined]
        return None
    if names_any(cls, EVENT_TIMERS) and facts(resolver, call.func.value).after_state:  # type: ignore[attr-defined]
        return None
    return cls


def _streamable_class(resolver, call: cst.Call, kind: str, banned) -> Optional[cst.ClassDef]:
    """The class of ``x.process(Cls(...))`` (original): a class of this module deriving
    directly from PyFlink's ``kind`` whose code names none of ``banned``, whose ``open()`` uses
    its runtime context for keyed state only and that keeps no data in its instance."""
    from flink2spark.rules.pyflink._process import context_problem, keeps_instance_data

    cls = instance_class(resolver, call_arg(call, 0, "func"))
    if cls is None or not any(P.PROCESS_FUNCTIONS.get(resolver.qualified_name(b.value) or "") == kind for b in cls.bases):
        return None
    if names_any(cls, banned) or context_problem(cls) is not None:
        return None
    return None if keeps_instance_data(cls) or not _only_state_attributes(cls) else cls


def _only_state_attributes(cls: cst.ClassDef) -> bool:
    """Whether the methods other than ``__init__``/``open`` read no attribute of ``self`` but
    the state objects ``open`` makes and the class's own methods and constants: no instance data that would
    live per Spark task instead of per Flink instance."""
    methods = {s.name.value for s in cls.body.body if isinstance(s, cst.FunctionDef)}
    for line in cls.body.body:  # class constants: the same in every instance
        if isinstance(line, cst.SimpleStatementLine):
            for small in line.body:
                targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else [small.target] if isinstance(small, cst.AnnAssign) else []
                methods.update(t.value for t in targets if isinstance(t, cst.Name))
    opener = next((s for s in cls.body.body if isinstance(s, cst.FunctionDef) and s.name.value == "open"), None)
    states = set()
    if opener is not None:
        for assign in (a for a in nodes(opener, cst.Assign) if len(a.targets) == 1 and is_self_attribute(a.targets[0].target) and type(a.value) is cst.Call):
            call = assign.value  # type: ignore[attr-defined]
            if isinstance(call.func, cst.Attribute) and call.func.attr.value in P.STATE_METHODS:
                states.add(assign.targets[0].target.attr.value)  # type: ignore[attr-defined]
    allowed = states | methods | _client_attributes(cls)
    for fdef in cls.body.body:
        if isinstance(fdef, cst.FunctionDef) and fdef.name.value not in ("open", "__init__"):
            for attr in (a for a in nodes(fdef, cst.Attribute) if is_self_attribute(a)):
                if attr.attr.value not in allowed:  # type: ignore[attr-defined]
                    return False
    return True


# methods that change a container in place: an attribute they are called on keeps data
_MUTATORS = frozenset({"append", "extend", "insert", "remove", "pop", "popitem", "clear", "update", "add", "discard", "setdefault", "sort", "reverse"})


def _client_attributes(cls: cst.ClassDef) -> set[str]:
    """Attributes ``__init__``/``open`` set only to None or to what a function of another module
    returns (``self.db = pymysql.connect(...)``: a client of an outside service, the same for
    every key), which the other methods only call methods on (none that changes a container)
    and never assign to or subscript."""
    found: dict[str, bool] = {}
    for fdef in cls.body.body:
        if isinstance(fdef, cst.FunctionDef) and fdef.name.value in ("open", "__init__"):
            for assign in (a for a in nodes(fdef, cst.Assign) if len(a.targets) == 1 and is_self_attribute(a.targets[0].target)):
                name = assign.targets[0].target.attr.value  # type: ignore[attr-defined]
                value = assign.value  # type: ignore[attr-defined]
                client = (isinstance(value, cst.Name) and value.value == "None") or (
                    isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) and isinstance(value.func.value, cst.Name)
                    and value.func.value.value != "self" and value.func.attr.value not in P.STATE_METHODS
                )
                found[name] = found.get(name, True) and client
    clients = {name for name, ok in found.items() if ok}
    for fdef in cls.body.body:
        if not (isinstance(fdef, cst.FunctionDef) and fdef.name.value not in ("open", "__init__")):
            continue
        for use in (a for a in nodes(fdef, cst.Attribute) if is_self_attribute(a.value)):  # self.x.y
            if use.attr.value in _MUTATORS:  # type: ignore[attr-defined]
                clients.discard(use.value.attr.value)  # type: ignore[attr-defined]
        for target in (t for t in nodes(fdef, cst.AssignTarget) if type(t.target) is cst.Attribute and is_self_attribute(t.target.value)):  # self.x.y = ...
            clients.discard(target.target.value.attr.value)  # type: ignore[attr-defined]
        for target in (s for s in nodes(fdef, cst.Subscript) if is_self_attribute(s.value)):  # self.x[k]
            clients.discard(target.value.attr.value)  # type: ignore[attr-defined]
    return clients


def rolling_key_by(resolver, keyed) -> Optional[cst.Call]:
    """The ``key_by(...)`` call (original) making the keyed stream ``keyed`` when every operator
    reading it is a rolling aggregation, windows or a process function ``f2s_stream.keyed_process``
    runs: on an unbounded stream it becomes ``stream.keyBy(f)``
    read by ``f2s_stream.rolling_reduce``/``keyed_process``. Else None."""
    call = followed(resolver, keyed)
    if not (isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute) and call.func.attr.value == "key_by"):
        return None
    if not P.is_stream(resolver.type_of(call.func.value)):
        return None
    consumers = facts(resolver, call).consumer_calls
    return call if consumers and all(_rolling_use(resolver, c) for c in consumers) else None


def streaming_todo(ctx, stream) -> bool:
    """TODO (and True) when the unbounded ``stream`` (original) went through an operator that
    the micro-batch conversion cannot run."""
    method = facts(ctx.resolver, stream).unstreamable(runtime_mode(ctx) == "streaming")
    if method is None:
        return False
    ctx.todo(
        M.PF_UNBOUNDED_STATE,
        f"{method}() on an unbounded stream is not converted: per-record Python operators run per micro-batch,"
        " but keyed state, windows, process functions and unions need Structured Streaming operators"
        " (groupBy().agg() in update mode, window(), transformWithState, DataFrame union) written by hand",
    )
    return True


def element_type(resolver, call: cst.Call):
    """The element type of a Kafka source stream: "STRING", the original Types expression of a
    JSON/CSV row schema, or None."""
    try:
        method = call.func.attr.value  # type: ignore[attr-defined]
        source = call_arg(call, 0, "source" if method == "from_source" else "source_func")
        node = followed(resolver, source)
        if isinstance(node, cst.Call) and resolver.type_of(node) == P.KAFKA_CONSUMER:
            schema = _schema(resolver, call_arg(node, 1, "deserialization_schema"), False)
        else:
            found = chain(resolver, source)
            args = [call_arg(c, 0) for meth, c in (found[1] if found else []) if meth == "set_value_only_deserializer"]
            if not args:
                return None
            schema = _schema(resolver, args[0], False)
    except Problem:
        return None
    if schema.kind == "string":
        return "STRING"
    if schema.kind == "bytes":
        from flink2spark.rules.pyflink._common import BYTES

        return BYTES
    return schema.type_info


# --------------------------------------------------------------------------------------------
# writing the converted program


def _import(ctx, module: str, name: str, alias: Optional[str] = None) -> cst.Name:
    """``name`` (or ``alias``), adding ``from module import name [as alias]``."""
    I.need(ctx.conv.codemod, module, name, alias)
    return cst.Name(alias or name)


def shim(ctx, name: str) -> cst.Attribute:
    return cst.Attribute(_import(ctx, SHIM_MODULE, SHIM_NAME, SHIM_ALIAS), cst.Name(name))


def functions(ctx) -> cst.Name:
    return _import(ctx, "pyspark.sql", "functions", "F")


def _value(ctx, value, site) -> cst.BaseExpression:
    if isinstance(value, str):
        return cst.SimpleString(json.dumps(value))
    if isinstance(value, Choice):
        return cst.IfExp(test=_value(ctx, value.test, site), body=_value(ctx, value.body, site), orelse=_value(ctx, value.orelse, site))
    if not visible_at(ctx, value, site):
        raise Problem("the Kafka settings use names that mean something else here")
    return value.visit(_MapNames(ctx.conv))  # type: ignore[return-value]


def _options(ctx, base: cst.BaseExpression, options: list, site) -> cst.BaseExpression:
    for key, value in options:
        base = cst.Call(
            func=cst.Attribute(base, cst.Name("option")),
            args=[cst.Arg(cst.SimpleString(json.dumps(key))), cst.Arg(_value(ctx, value, site))],
        )
    return base


def _fields(ctx, schema: Schema) -> list[tuple[str, str]]:
    if schema.kind == "avro":
        return _avro_fields(schema)
    return _row_fields(ctx.resolver, schema.type_info)


def type_code(ctx, schema: Schema, site) -> cst.BaseExpression:
    """The ``f2s.Types`` expression of the records a schema reads or writes."""
    if schema.kind == "string":
        return ctx.expr("{t}.STRING()", t=ctx.shim("Types"))
    if schema.kind == "bytes":
        return ctx.expr("{t}.PRIMITIVE_ARRAY({t}.BYTE())", t=ctx.shim("Types"))
    if schema.kind == "avro":
        fields = _avro_fields(schema)
        names = cst.List([cst.Element(cst.SimpleString(json.dumps(n))) for n, _ in fields])
        types = cst.List([cst.Element(ctx.expr("{t}.%s()" % t, t=ctx.shim("Types"))) for _, t in fields])
        return ctx.expr("{t}.ROW_NAMED({n}, {ty})", t=ctx.shim("Types"), n=names, ty=types)
    _row_fields(ctx.resolver, schema.type_info)
    return _value(ctx, schema.type_info, site)


def _csv_options(ctx, schema: Schema, site) -> Optional[cst.Dict]:
    """from_csv options: Flink's CSV (Jackson) doubles quotes inside quoted fields."""
    options = list(schema.options)
    if schema.kind != "csv":
        return None
    if not any(k == "escape" for k, _ in options):
        options.append(("escape", '"'))
    return cst.Dict([cst.DictElement(cst.SimpleString(json.dumps(k)), _value(ctx, v, site)) for k, v in options])


def _decode(ctx, schema: Schema, site) -> tuple[str, dict]:
    """(template, parts) selecting the decoded record from a Kafka DataFrame ``{df}``."""
    F = functions(ctx)
    if schema.kind == "string" and schema.charset is not None:
        return '{df}.select({F}.decode({F}.col("value"), "%s").alias("value"))' % schema.charset, {"F": F}
    if schema.kind == "string":
        return '{df}.select({F}.col("value").cast("string").alias("value"))', {"F": F}
    if schema.kind == "bytes":  # Spark's value column is binary already
        return '{df}.select({F}.col("value"))', {"F": F}
    if schema.kind == "avro":
        from_avro = _import(ctx, "pyspark.sql.avro.functions", "from_avro")
        return '{df}.select({fa}({F}.col("value"), {s}).alias("value")).select("value.*")', {"F": F, "fa": from_avro, "s": _value(ctx, schema.avro_node, site)}
    ddl = cst.SimpleString(json.dumps(_ddl(_fields(ctx, schema))))
    fn = "from_json" if schema.kind == "json" else "from_csv"
    options = _csv_options(ctx, schema, site)
    if options is None:
        return '{df}.select({F}.%s({F}.col("value").cast("string"), {ddl}).alias("value")).select("value.*")' % fn, {"F": F, "ddl": ddl}
    return (
        '{df}.select({F}.%s({F}.col("value").cast("string"), {ddl}, {o}).alias("value")).select("value.*")' % fn,
        {"F": F, "ddl": ddl, "o": options},
    )


def _encode(ctx, schema: Schema, site) -> cst.BaseExpression:
    """The serialized record (a Column) of a DataFrame of the schema's fields."""
    F = functions(ctx)
    if schema.kind in ("string", "bytes"):
        return ctx.expr('{F}.col("value")', F=F)
    if schema.kind == "json":
        _fields(ctx, schema)
        keep_nulls = cst.parse_expression('{"ignoreNullFields": "false"}')
        return ctx.expr('{F}.to_json({F}.struct("*"), {o})', F=F, o=keep_nulls)
    if schema.kind == "csv":
        _fields(ctx, schema)
        args = [cst.Arg(type_code(ctx, schema, site))]
        for option, value in schema.options:
            if option == "sep":
                args.append(cst.Arg(_value(ctx, value, site)))
            elif option == "nullValue":
                args.append(cst.Arg(_value(ctx, value, site), keyword=cst.Name("null_literal")))
            else:
                raise Problem("CSV serialization with a quote/escape character other than Flink's default")
        return cst.Call(func=shim(ctx, "flink_csv"), args=args)
    _fields(ctx, schema)
    to_avro = _import(ctx, "pyspark.sql.avro.functions", "to_avro")
    return ctx.expr('{ta}({F}.struct("*"), {s})', ta=to_avro, F=F, s=_value(ctx, schema.avro_node, site))


def _notes(ctx, spec) -> None:
    """The NOTEs of a converted Kafka source or sink (``SourceSpec``/``SinkSpec``)."""
    for note in spec.notes:
        ctx.note(M.PF_KAFKA_OFFSETS, note)
    for note in spec.schema.notes:
        ctx.note(M.PF_KAFKA_FORMAT, note)
    ctx.note(M.PF_KAFKA_PACKAGE, PACKAGE_NOTE + (AVRO_NOTE if spec.schema.kind == "avro" else ""))


def convert_source(ctx, env: cst.BaseExpression, source) -> Optional[cst.BaseExpression]:
    """The converted ``from_source``/``add_source`` of a Kafka source (None: a TODO was left)."""
    site = ctx.outer
    try:
        spec = source_spec(ctx, source)
        reader = "read" if spec.bounded else "readStream"
        df = _options(ctx, ctx.expr('{env}.%s.format("kafka")' % reader, env=env), spec.options, site)
        template, parts = _decode(ctx, spec.schema, site)
        decoded = ctx.expr(template, df=ctx.expr("{d}.load()", d=df), **parts)
        type_info = type_code(ctx, spec.schema, site)
    except Problem as problem:
        ctx.todo(M.PF_KAFKA_UNSUPPORTED, str(problem))
        return None
    _notes(ctx, spec)
    for stmt in spec.statements:
        ctx.remove_statement(stmt)
    if facts(ctx.resolver, ctx.site.head.original).frame is not None:  # a streaming DataFrame (the program model's plan)
        return decoded
    wrap = shim(ctx, "elements" if spec.bounded else "micro_batches")
    return cst.Call(func=wrap, args=[cst.Arg(decoded), cst.Arg(type_info)])


def streaming_sink(ctx, stream: cst.BaseExpression, name: str, body=None, function: Optional[cst.BaseExpression] = None) -> cst.BaseExpression:
    """``f2s_stream.foreach_batch(stream, lambda batch: BODY).option("checkpointLocation", ...).start()``:
    ``body(batch)`` is the batch code for the RDD ``batch`` (or ``function`` is called with it)."""
    batch = cst.Name("batch")
    fn = function if function is not None else cst.Lambda(params=cst.Parameters([cst.Param(batch)]), body=body(batch))
    ctx.note(M.PF_MICRO_BATCH, MICRO_BATCH_NOTE)
    ctx.note(M.PF_CHECKPOINT, CHECKPOINT_NOTE)
    return ctx.expr(
        '{fb}({s}, {fn}).option("checkpointLocation", {cp}({n})).start()',
        fb=shim(ctx, "foreach_batch"),
        s=stream,
        fn=fn,
        cp=shim(ctx, "checkpoint"),
        n=cst.SimpleString(json.dumps(name)),
    )


def streaming_query(ctx, writer: cst.BaseExpression, name: str) -> cst.BaseExpression:
    """``writer.option("checkpointLocation", f2s_stream.checkpoint(name)).start()``: the
    streaming query of a streaming DataFrame's sink (``writer``: its ``writeStream``)."""
    ctx.note(M.PF_CHECKPOINT, CHECKPOINT_NOTE)
    return ctx.expr('{w}.option("checkpointLocation", {cp}({n})).start()', w=writer, cp=shim(ctx, "checkpoint"),
                    n=cst.SimpleString(json.dumps(name)))


def convert_frame_sink(ctx, frame: cst.BaseExpression, sink) -> Optional[cst.BaseExpression]:
    """``sink_to(KafkaSink)`` of a frame (``frame_sink_schema``): the serialized value (and
    key) selected, ``writeStream.format("kafka")`` with the sink's options (a bounded frame:
    ``write.format("kafka")...save()``)."""
    site = ctx.outer
    spec = frame_sink_schema(ctx.resolver, sink, facts(ctx.resolver, ctx.site.head.original.func.value).frame)
    assert spec is not None
    try:
        value = _encode(ctx, spec.schema, site)
        columns = '{v}.alias("key"), {v}.alias("value")' if spec.key_schema is not None else '{v}.alias("value")'
        if spec.schema.kind == "string" and spec.key_schema is None:
            df = frame  # a frame of strings: its value column is the record
        else:
            df = ctx.expr("{s}.select(%s)" % columns, s=frame, v=value)
        streaming = facts(ctx.resolver, ctx.site.head.original.func.value).micro_batches
        writer = _options(ctx, ctx.expr('{d}.%s.format("kafka")' % ("writeStream" if streaming else "write"), d=df), spec.options, site)
    except Problem as problem:
        ctx.todo(M.PF_KAFKA_UNSUPPORTED, str(problem))
        return None
    if not streaming:  # a bounded frame: one batch write
        _notes(ctx, spec)
        return ctx.expr("{w}.save()", w=writer)
    topic = next((v for k, v in spec.options if k == "topic"), None)
    result = streaming_query(ctx, writer, "kafka-" + (_str(topic) or "sink") if topic is not None else "kafka-sink")
    _notes(ctx, spec)
    return result


def convert_sink(ctx, stream: cst.BaseExpression, original_stream, sink) -> Optional[cst.BaseExpression]:
    """The converted ``sink_to(KafkaSink)``/``add_sink(FlinkKafkaProducer)`` (None: TODO left)."""
    site = ctx.outer
    try:
        spec = sink_spec(ctx, sink)
        for schema in (spec.schema, spec.key_schema):
            if schema is not None and schema.kind == "string" and not _string_stream(ctx.resolver, original_stream):
                raise Problem("SimpleStringSchema on a stream whose type is not Types.STRING(): Flink's serializer needs strings")
            if schema is not None and schema.kind == "bytes" and not _bytes_stream(ctx.resolver, original_stream):
                raise Problem(
                    "ByteArraySchema on a stream whose type is not Types.PRIMITIVE_ARRAY(Types.BYTE()): Flink's serializer needs"
                    " byte arrays (a stream without output_type would be written as pickled bytes)"
                )
            if schema is not None and schema.kind != spec.schema.kind:
                raise Problem("key and value serialization schemas of different kinds: write the key column by hand")
        if spec.schema.kind == "field":
            row_type, names = _extracted_row_type(ctx.resolver, original_stream, spec)
            type_info = _value(ctx, row_type, site)
            value = _field_column(ctx, names[spec.schema.index])
            key = _field_column(ctx, names[spec.key_schema.index]) if spec.key_schema is not None else None
        else:
            type_info = type_code(ctx, spec.schema, site)
            value = _encode(ctx, spec.schema, site)
            key = value if spec.key_schema is not None else None
        columns = "{k}.alias(\"key\"), {v}.alias(\"value\")" if key is not None else "{v}.alias(\"value\")"

        def write(rdd):
            keys = {"k": key} if key is not None else {}
            df = ctx.expr("{td}({s}, {t}).select(%s)" % columns, td=shim(ctx, "to_dataframe"), s=rdd, t=type_info, v=value, **keys)
            return ctx.expr("{w}.save()", w=_options(ctx, ctx.expr('{d}.write.format("kafka")', d=df), spec.options, site))

        if facts(ctx.resolver, original_stream).micro_batches:
            if streaming_todo(ctx, original_stream):
                return None
            topic = next((v for k, v in spec.options if k == "topic"), None)
            name = "kafka-" + (_str(topic) or "sink") if topic is not None else "kafka-sink"
            result = streaming_sink(ctx, stream, name, write)
        else:
            result = write(stream)
            result = result.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
    except Problem as problem:
        ctx.todo(M.PF_KAFKA_UNSUPPORTED, str(problem))
        return None
    _notes(ctx, spec)
    return result


def _extracted_row_type(resolver, stream, spec) -> tuple[cst.BaseExpression, list[str]]:
    """The stream's ``Types.ROW``/``ROW_NAMED`` type and its field names: ``RowFieldExtractorSchema``
    serializes fields that must be ``Types.PRIMITIVE_ARRAY(Types.BYTE())`` (Flink fails on others)."""
    from flink2spark.rules.pyflink._common import byte_array_type

    t = facts(resolver, stream).element_type
    if not isinstance(t, cst.BaseExpression):
        raise Problem("RowFieldExtractorSchema on a stream whose Types.ROW type could not be followed")
    fields = _row_field_nodes(resolver, t)
    for schema in (spec.schema, spec.key_schema):
        if schema is None:
            continue
        if schema.index >= len(fields) or not byte_array_type(resolver, fields[schema.index][1]):
            raise Problem(
                f"RowFieldExtractorSchema({schema.index}): field {schema.index} of the stream's rows is not"
                " Types.PRIMITIVE_ARRAY(Types.BYTE()) (Flink's serializer needs byte arrays)"
            )
    return t, [name for name, _ in fields]


def _field_column(ctx, name: str) -> cst.BaseExpression:
    """``RowFieldExtractorSchema(i)``: field i's bytes, a null field as empty bytes (as Flink's)."""
    return ctx.expr('{F}.coalesce({F}.col({n}), {F}.lit(b""))', F=functions(ctx), n=cst.SimpleString(json.dumps(name)))


def _string_stream(resolver, stream) -> bool:
    from flink2spark.rules.pyflink._common import basic_type

    t = facts(resolver, stream).element_type
    return t == "STRING" or (isinstance(t, cst.BaseExpression) and basic_type(resolver, t) == "STRING")


def _bytes_stream(resolver, stream) -> bool:
    from flink2spark.rules.pyflink._common import BYTES, byte_array_type

    t = facts(resolver, stream).element_type
    return t == BYTES or (isinstance(t, cst.BaseExpression) and byte_array_type(resolver, t))


def is_kafka_sink(resolver, sink) -> bool:
    node = followed(resolver, sink) if sink is not None else None
    if isinstance(node, cst.Call) and resolver.type_of(node) in (P.KAFKA_SINK, P.KAFKA_PRODUCER):
        return True
    return False


def is_kafka_source(resolver, source) -> bool:
    node = followed(resolver, source) if source is not None else None
    return isinstance(node, cst.Call) and resolver.type_of(node) in (P.KAFKA_SOURCE, P.KAFKA_CONSUMER)


# --------------------------------------------------------------------------------------------
# the objects themselves (rule kafka_builders)


def _consumer_site(resolver, value: cst.Call):
    """(assignment or None, the add_source/from_source/sink_to/add_sink call reading the object
    built by ``value``, uses other than that one)."""
    parent = resolver.parent(value)
    if isinstance(parent, cst.Arg):
        return None, resolver.parent(parent), []
    if not isinstance(parent, cst.Assign) or len(parent.targets) != 1 or not isinstance(parent.targets[0].target, cst.Name):
        return None, None, []
    target = parent.targets[0].target
    assignments = resolver.scope_bindings(target) or []
    if len(assignments) != 1:
        return None, None, []
    reader, others = None, []
    for ref in assignments[0].references:
        arg = resolver.parent(ref.node)
        call = resolver.parent(arg) if isinstance(arg, cst.Arg) else None
        if (
            isinstance(call, cst.Call)
            and isinstance(call.func, cst.Attribute)
            and call.func.attr.value in ("from_source", "add_source", "sink_to", "add_sink", "set_record_serializer")
            and call.args
            and call.args[0] is arg
            and reader is None
        ):
            reader = call
        else:
            others.append(ref.node)
    return parent, reader, others


def _root(resolver, call: cst.Call) -> Optional[cst.Call]:
    """The Kafka source/sink/consumer/producer whose construction contains ``call``."""
    node = call
    for _ in range(100):
        typ = resolver.type_of(node)
        if typ in (P.KAFKA_SOURCE, P.KAFKA_SINK, P.KAFKA_CONSUMER, P.KAFKA_PRODUCER):
            return node
        parent = resolver.parent(node)
        if isinstance(parent, cst.Attribute) and isinstance(resolver.parent(parent), cst.Call):
            node = resolver.parent(parent)
        elif isinstance(parent, cst.Arg) and isinstance(resolver.parent(parent), cst.Call):
            node = resolver.parent(parent)
        elif isinstance(parent, cst.Assign) and typ == P.KAFKA_RECORD_SCHEMA:
            _, reader, _ = _consumer_site(resolver, node)
            if reader is None:
                return None
            node = reader
        else:
            return None
    return None


class _Checking:
    """A context that removes nothing (checking only)."""

    def __init__(self, ctx):
        self._ctx = ctx

    def __getattr__(self, name):
        return getattr(self._ctx, name)

    def remove_statement(self, small):
        pass


def drop_schema(ctx, value: cst.Call) -> None:
    """Drop ``schema = ...`` when its only use is in a Kafka source/sink that converts."""
    resolver = ctx.resolver
    parent = resolver.parent(value)
    if not isinstance(parent, cst.Assign) or len(parent.targets) != 1 or not isinstance(parent.targets[0].target, cst.Name):
        return
    target = parent.targets[0].target
    assignments = resolver.scope_bindings(target) or []
    refs = list(assignments[0].references) if len(assignments) == 1 else []
    if len(refs) != 1:
        return
    arg = resolver.parent(refs[0].node)
    call = resolver.parent(arg) if isinstance(arg, cst.Arg) else None
    root = _root(resolver, call) if isinstance(call, cst.Call) else None
    if root is not None and check_object(_Checking(ctx), root) is None:
        ctx.remove_statement(parent)


def check_object(ctx, value: cst.Call) -> Optional[str]:
    """Why the Kafka object built by ``value`` (original) is not converted where it is read,
    or None; its assignment (and consumer set_start_from_*() statements) are then dropped."""
    resolver = ctx.resolver
    assignment, reader, others = _consumer_site(resolver, value)
    if reader is None:
        return "a Kafka object used other than as the source/sink of one from_source/add_source/sink_to/add_sink: convert it by hand"
    typ = resolver.type_of(value)
    if reader.func.attr.value == "set_record_serializer":  # type: ignore[attr-defined]
        if others:
            return "the record serializer is used elsewhere too: convert it by hand"
        root = _root(resolver, reader)
        if assignment is not None and root is not None and check_object(_Checking(ctx), root) is None:
            ctx.remove_statement(assignment)
        return None
    if others and typ != P.KAFKA_CONSUMER:
        return "the Kafka object is used elsewhere too: convert it by hand"
    arg = reader.args[0].value
    try:
        if typ in (P.KAFKA_SOURCE, P.KAFKA_CONSUMER):
            if resolver.type_of(reader.func.value) != P.ENVIRONMENT:  # type: ignore[attr-defined]
                return "a Kafka source read other than by env.from_source()/add_source()"
            spec = source_spec(ctx, arg)
            values = [v for _, v in spec.options] + [spec.schema.type_info, spec.schema.avro_node]
        else:
            if not P.is_stream(resolver.type_of(reader.func.value)):  # type: ignore[attr-defined]
                return "a Kafka sink written other than by stream.sink_to()/add_sink()"
            sspec = sink_spec(ctx, arg)
            values = [v for _, v in sspec.options] + [sspec.schema.type_info, sspec.schema.avro_node]
            spec = None
        for v in values:
            v = v.test if isinstance(v, Choice) else v
            if v is not None and not isinstance(v, str) and not visible_at(ctx, v, reader):
                return "the Kafka settings use names that mean something else where they are read"
    except Problem as problem:
        return str(problem)
    if assignment is not None:
        ctx.remove_statement(assignment)
    for stmt in spec.statements if spec is not None else []:
        ctx.remove_statement(stmt)
    return None


KEYED_TODO = (
    "key_by() on an unbounded stream read other than by reduce/sum/min/max/min_by/max_by in STREAMING runtime mode, the"
    " windows and keyed process functions the shim runs: Flink keeps per-key state across records; port it to a streaming"
    " aggregation (groupBy().agg() in update output mode) or groupBy().transformWithState()"
)


def source_type(ctx, expr) -> Optional[cst.BaseExpression]:
    """The ``f2s.Types`` expression of the records of a Kafka source stream ``expr`` (original)."""
    if isinstance(expr, cst.Name):
        expr = ctx.resolver.value_at(expr)
    call = kafka_source_call(ctx.resolver, expr)
    if call is None:
        return None
    try:
        method = call.func.attr.value  # type: ignore[attr-defined]
        spec = source_spec(ctx, call_arg(call, 0, "source" if method == "from_source" else "source_func"))
        return type_code(ctx, spec.schema, ctx.outer)
    except Problem:
        return None


def await_queries(ctx, env: cst.BaseExpression) -> cst.BaseExpression:
    """``env.execute()`` in a program with streaming queries: wait for them to end."""
    return ctx.expr("{a}({env})", a=shim(ctx, "await_termination"), env=env)
