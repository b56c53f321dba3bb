"""Kafka tables (``'connector' = 'kafka'``) as Structured Streaming code.

Source (``source(table, parts, env)``): the table becomes a temporary view over
``spark.readStream.format("kafka")``: the topic(s) (``topic`` 'a;b' -> ``subscribe`` "a,b",
``topic-pattern`` -> ``subscribePattern``), ``properties.bootstrap.servers`` ->
``kafka.bootstrap.servers`` (and the other ``properties.*`` -> ``kafka.*``),
``scan.startup.mode`` -> ``startingOffsets``, the record value read with
``from_json(CAST(value AS STRING), schema)`` (format ``json``), the ``timestamp``/``partition``/
``offset``/``topic``/``timestamp-type``/``headers`` metadata columns from Spark's Kafka columns
(``_METADATA_SQL``; headers with ``includeHeaders``), computed columns in the declared
order, and ``WATERMARK FOR ts AS ts - INTERVAL ...`` -> ``withWatermark("ts", "...")``. Spark's
watermark needs a TIMESTAMP (with local time zone) column: a TIMESTAMP(3) watermark column is
cast to one in the session time zone (``read_columns`` gives the translator that type, and the
window alignment check of ``_sql`` refuses sizes that the zone could shift).

Sink (``sink(table, parts)``): the Spark options of a ``writeStream.format("kafka")`` (or
``write`` for a bounded query) and the ``to_json`` value of the sink's columns, cast to its
types (``INSERT INTO`` maps columns by position); an ``upsert-kafka`` sink's record key is the
json of its PRIMARY KEY columns (``record_key``), so the topic's latest record per key is the
table's row.

A csv value (``'format' = 'csv'``) is read by ``from_csv`` as text, then cast (``_CSV_TYPES``),
and written as Flink's csv serializer writes it (``_csv_value``).

What is not converted raises ``Untranslatable`` naming the option: other formats (avro...),
csv sinks of other delimiters or types, ``key.format``/``key.fields`` (but an upsert-kafka sink's json key), ``specific-offsets``,
an ``upsert-kafka`` table read (a changelog), sink columns
Flink's json writes otherwise than Spark's ``to_json`` (TIMESTAMP_LTZ, decimals unless
'json.encode.decimal-as-plain-number', ``_plain_decimal``...).
"""

from __future__ import annotations

import re
from typing import Mapping, Optional

from flink2spark.rules.table import _sql
from flink2spark.rules.table._program import python_string
from flink2spark.rules.table._sql import LEGACY_JSON_TIMESTAMP, LEGACY_LINE_DELIMITER, ROWTIME_FROM, TableDef, Untranslatable

# Flink's default scan.startup.mode is group-offsets (Flink 2.x)
_STARTING = {"earliest-offset": "earliest", "latest-offset": "latest"}
# consumer settings Spark's Kafka source sets itself and refuses (Spark's Kafka integration guide)
_SPARK_OWNED = {"group.id", "auto.offset.reset", "key.deserializer", "value.deserializer", "enable.auto.commit",
                "interceptor.classes", "key.serializer", "value.serializer"}
_METADATA = {"timestamp": "TIMESTAMP", "partition": "INT", "offset": "BIGINT", "topic": "STRING",
             "timestamp-type": "STRING", "headers": "MAP<STRING, BINARY>"}
# Flink's value of a metadata key from Spark's Kafka columns, where it is not the column itself:
# timestamp-type the name of Spark's timestampType code (Kafka's TimestampType ids); headers
# Flink's map of the record's headers (a header key twice: the last one's value, as its HashMap
# keeps; no headers: an empty map) of Spark's array of (key, value) structs (includeHeaders, null
# when a record has none). Checked on PySpark 4 by tests/test_table_kafka_metadata.py.
_METADATA_SQL = {
    "timestamp-type": "CASE timestampType WHEN 0 THEN 'CreateTime' WHEN 1 THEN 'LogAppendTime' ELSE 'NoTimestampType' END",
    "headers": "coalesce(map_from_entries(filter(headers, (h, i) -> NOT exists(slice(headers, i + 2, size(headers)),"
               " x -> x.key = h.key))), CAST(map() AS MAP<STRING, BINARY>))",
}
# types whose JSON text Flink's json format and Spark's from_json/to_json agree on
_JSON_TYPES = {"INT", "BIGINT", "SMALLINT", "TINYINT", "STRING", "BOOLEAN", "DOUBLE"}
_FLINK_TIMESTAMP = "yyyy-MM-dd HH:mm:ss[.SSSSSSSSS]"
# Flink 1.x's JSON schema format reads a 'date-time' as RFC 3339 text with a literal Z
# (TimeFormats.RFC3339_TIMESTAMP_FORMAT: 2024-05-01T10:00:00Z, 10:00:00.5Z), the wall clock kept
_RFC3339_TIMESTAMP = "yyyy-MM-dd'T'HH:mm:ss[.SSSSSSSSS]'Z'"
# types of a csv record value read alike (seen on Flink 2.3 and Spark 4 with the text read as STRING
# by from_csv, then try_cast): Flink parses the trimmed text (' 6 ' is 6), as Spark's cast does; a
# field that does not parse (an empty number too) fails Flink's job, or is NULL with
# 'csv.ignore-parse-errors', as in Spark; an empty STRING field is '' in Flink (no
# 'csv.null-literal'), NULL in from_csv. Not BOOLEAN: Flink reads any text but 'true' as false
_CSV_TYPES = {"INT", "BIGINT", "SMALLINT", "TINYINT", "DOUBLE", "FLOAT", "STRING"}


def _value_format(options: dict) -> str:
    fmt = options.pop("value.format", None) or options.pop("format", None)
    if fmt is None:
        raise Untranslatable("Kafka table without 'format' / 'value.format'")
    if fmt not in ("json", "raw", "csv"):
        raise Untranslatable(f"Kafka table of format {fmt!r} (json, csv and raw are converted)")
    charset = options.pop("raw.charset", options.pop("value.raw.charset", "UTF-8"))
    if fmt == "raw" and charset.upper().replace("-", "") != "UTF8":
        raise Untranslatable(f"raw format with charset {charset!r}")
    for key in ("key.format", "key.fields", "key.fields-prefix", "value.fields-include"):
        if key in options and not (key == "value.fields-include" and options[key] == "ALL"):
            raise Untranslatable(f"Kafka table option {key!r} (record keys are not converted)")
        options.pop(key, None)
    return fmt


def _json_options(options: dict, prefix: str) -> dict[str, str]:
    """The json format's options (``json.`` or ``value.json.``), removed from ``options``."""
    return _format_options(options, "json")


def _format_options(options: dict, fmt: str) -> dict[str, str]:
    """The options of the value format ``fmt`` (``<fmt>.`` or ``value.<fmt>.``) by their names
    after the prefix, removed from ``options``."""
    found = {}
    for key in list(options):
        for p in (f"value.{fmt}.", f"{fmt}."):
            if key.startswith(p):
                found[key[len(p):]] = options.pop(key)
    return found


def _brokers(options: dict) -> list[tuple[str, str]]:
    out = []
    servers = options.pop("properties.bootstrap.servers", None)
    if servers is None:
        raise Untranslatable("Kafka table without 'properties.bootstrap.servers'")
    out.append(("kafka.bootstrap.servers", servers))
    for key in sorted(options):
        if key.startswith("properties."):
            name = key[len("properties."):]
            if name in _SPARK_OWNED:
                continue  # read by the caller (group.id, auto.offset.reset) or Spark's own
            out.append(("kafka." + name, options.pop(key)))
    return out


def _top_level(text: str) -> list[str]:
    """``text`` cut at its commas outside ``<>``."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += ch in "<("
        depth -= ch in ">)"
        if ch == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    return parts + [text[start:].strip()]


def _readable(spark_type: str, written: bool = False) -> bool:
    """Whether Spark's from_json reads the type from the JSON Flink's json format reads it from
    (arrays, maps of string keys and rows of such types are JSON arrays and objects in both);
    ``written``: whether Spark's to_json writes it as Flink's json format does (seen on Flink
    2.3 and Spark 4: INT, STRING, DOUBLE, FLOAT (1.1, 1.0E10), BOOLEAN, DATE ("0999-12-31") and
    arrays, rows and maps of them with their NULLs; not DECIMAL, which Flink writes with its
    trailing zeros stripped, 12.50 as 12.5 and 1000000000 as 1E+9; TIMESTAMP_NTZ only as a
    column of its own, formatted by ``_timestamp_text``)."""
    base = _JSON_TYPES | {"DATE", "FLOAT"}
    if spark_type in base or (not written and (spark_type == "TIMESTAMP_NTZ" or re.fullmatch(r"DECIMAL\(\d+, \d+\)", spark_type))):
        return True
    match = re.fullmatch(r"(ARRAY|MAP|STRUCT)<(.*)>", spark_type)
    if match is None:
        return False
    kind, inner = match.groups()
    if kind == "ARRAY":
        return _readable(inner, written)
    if kind == "MAP":
        key, _, value = inner.partition(",")
        return key.strip() == "STRING" and _readable(value.strip(), written)
    fields = [f.split(":", 1) for f in _top_level(inner)]
    return all(len(f) == 2 and _readable(f[1].strip(), written) for f in fields)


def _plain_decimal(spark_type: str) -> bool:
    """Whether Spark's to_json writes a DECIMAL as Flink's json does with
    'json.encode.decimal-as-plain-number' (seen on Flink 2.3 and Spark 4: both write every digit
    of the scale, 12.50, 1000000000.00, 0.0000): Flink the plain text of the BigDecimal, Spark its
    toString, which is the same text unless the scale is above 6 (0E-7 where Flink writes
    0.0000000)."""
    match = re.fullmatch(r"DECIMAL\((\d+), (\d+)\)", spark_type)
    return match is not None and int(match.group(2)) <= 6


def _timestamp_text(column: str) -> str:
    """Flink's json text of a TIMESTAMP: '2024-01-01 10:00:00', the fraction without its trailing
    zeros ('10:00:00.5', '10:00:00.123'; seen on Flink 2.3). A TIMESTAMP (with local time zone)
    column of the query, such as a window bound over the watermark column, is read in the
    session time zone, as Flink's cast to TIMESTAMP does."""
    return (f"regexp_replace(date_format(CAST({column} AS TIMESTAMP_NTZ), 'yyyy-MM-dd HH:mm:ss.SSSSSS'), "
            "'\\\\.?0+$', '')")


def read_columns(table: TableDef) -> TableDef:
    """``table`` as its Spark view has it: the watermark column, a TIMESTAMP (without time zone)
    in Flink, is a TIMESTAMP in Spark (the only type Spark's watermark takes)."""
    if table.watermark is None:
        return table
    column = table.watermark[0]
    columns = tuple((n, "TIMESTAMP" if n == column and t == "TIMESTAMP_NTZ" else t) for n, t in table.columns)
    from dataclasses import replace

    return replace(table, columns=columns)


def _watermark_cast(table: TableDef) -> bool:
    """Whether the watermark column is cast to TIMESTAMP (a TIMESTAMP_NTZ or a computed one)."""
    column = table.watermark[0] if table.watermark is not None else None
    return column is not None and (dict(table.columns).get(column) == "TIMESTAMP_NTZ" or column in dict(table.computed))


def stream_columns(table: TableDef, first: list[str], prefix: str = "", renames: Mapping[str, str] = {}) -> list[list[str]]:
    """The ``selectExpr`` steps of a streaming table's view after ``first`` (which gives its
    physical columns, under ``prefix``, and metadata columns): the columns in declared order, the
    watermark column cast to TIMESTAMP (Spark's watermark refuses a TIMESTAMP_NTZ), then the
    computed columns, which read the others by name. ``renames``: the physical columns read from
    a field of another name (a legacy ``Rowtime().timestamps_from_field``)."""
    watermark = table.watermark
    physical = dict(table.columns)
    computed = dict(table.computed)
    cast = _watermark_cast(table)
    order = table.order or tuple(physical)
    second = []  # physical and metadata columns as declared, the watermark column cast
    for name in order:
        if name in physical:
            value = f"{prefix}{_quote(renames.get(name, name))}"
            if cast and name == watermark[0]:
                value = f"CAST({value} AS TIMESTAMP) AS {_quote(name)}"
            elif name in renames:
                value = f"{value} AS {_quote(name)}"
            second.append(value)
        elif name not in computed:
            second.append(_quote(name))
    steps = [first, second]
    if computed:  # computed columns read the others by name: one more projection
        def item(n):
            if n not in computed:
                return _quote(n)
            if watermark is not None and n == watermark[0]:  # TIMESTAMP(3) or TIMESTAMP_LTZ(3) in Flink
                return f"CAST({computed[n]} AS TIMESTAMP) AS {_quote(n)}"
            if n == table.proctime_watermark():  # the micro-batch's time, the column watermarked (no delay)
                return f"current_timestamp() AS {_quote(n)}"
            return f"{computed[n]} AS {_quote(n)}"
        steps.append([item(n) for n in order])
    return steps


def _ending(options: dict, spark_options: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The options of Spark's batch Kafka read (``spark.read``) that end where a bounded Kafka
    table ends (``scan.bounded.mode``, removed from ``options``): ``latest-offset`` ->
    ``endingOffsets`` latest (the offsets when the job starts, in both), ``specific-offsets``
    ('partition:0,offset:42;...') -> ``endingOffsets`` of the one topic as JSON, ``timestamp``
    -> ``endingTimestamp``; the end offset is not read in either (Flink's stopping offsets and
    Spark's ending offsets are exclusive). [] for an unbounded table."""
    mode = options.pop("scan.bounded.mode", "unbounded")
    if mode == "unbounded":
        return []
    if dict(spark_options).get("startingOffsets") == "latest":
        raise Untranslatable("scan.bounded.mode with scan.startup.mode 'latest-offset' (Spark's batch Kafka read refuses "
                             "latest starting offsets)")
    if mode == "latest-offset":
        return [("endingOffsets", "latest")]
    if mode == "timestamp" and "scan.bounded.timestamp-millis" in options:
        return [("endingTimestamp", options.pop("scan.bounded.timestamp-millis"))]
    if mode == "specific-offsets" and "scan.bounded.specific-offsets" in options:
        topic = dict(spark_options).get("subscribe", "")
        text = options.pop("scan.bounded.specific-offsets")
        found = [re.fullmatch(r"\s*partition:(\d+),\s*offset:(\d+)\s*", p) for p in text.strip().strip(";").split(";")]
        if not topic or "," in topic or not all(found):
            raise Untranslatable(f"scan.bounded.specific-offsets {text!r} (converted for one topic)")
        import json

        return [("endingOffsets", json.dumps({topic: {m.group(1): int(m.group(2)) for m in found}}))]
    raise Untranslatable(f"scan.bounded.mode {mode!r}")


def source(table: TableDef, parts: tuple[str, ...], env: str) -> tuple[str, list[str]]:
    """(the Python statement creating the view of a Kafka source table, the NOTEs it needs)."""
    if table.connector != "kafka":
        raise Untranslatable(f"connector {table.connector!r} as a source")
    options = {k: v for k, v in table.options.items() if k != "connector"}
    notes = []
    fmt = _value_format(options)
    csv = _csv_options(options) if fmt == "csv" else {}
    json = _json_options(options, "json.")
    strict = json.pop("fail-on-missing-field", "false").lower() == "true"
    lenient = json.pop("ignore-parse-errors", "false").lower() == "true"
    if strict and lenient:  # Flink refuses the table
        raise Untranslatable("json options 'fail-on-missing-field' and 'ignore-parse-errors' both 'true' (Flink refuses them)")
    standard = json.pop("timestamp-format.standard", "SQL")
    if standard not in ("SQL", LEGACY_JSON_TIMESTAMP):
        raise Untranslatable("json option 'timestamp-format.standard' other than SQL")
    # a connect() descriptor's Rowtime().timestamps_from_field(f): the column reads the field f
    renames = dict([options.pop(ROWTIME_FROM).split("=", 1)]) if ROWTIME_FROM in options else {}
    if json:
        raise Untranslatable(f"json option {sorted(json)[0]!r}")
    spark_options = _brokers(options)
    group = options.pop("properties.group.id", None)
    reset = options.pop("properties.auto.offset.reset", None)
    if "topic" in options:
        spark_options.append(("subscribe", ",".join(t.strip() for t in options.pop("topic").split(";"))))
    elif "topic-pattern" in options:
        spark_options.append(("subscribePattern", options.pop("topic-pattern")))
    else:
        raise Untranslatable("Kafka source without 'topic' or 'topic-pattern'")
    mode = options.pop("scan.startup.mode", "group-offsets")
    if mode in _STARTING:
        spark_options.append(("startingOffsets", _STARTING[mode]))
        if group is not None:
            notes.append("properties.group.id: Spark's Kafka source uses a consumer group of its own and keeps the offsets "
                         "in the query's checkpoint, not in the group")
    elif mode == "group-offsets":
        start = {"earliest": "earliest", "latest": "latest"}.get((reset or "").lower())
        if start is None:
            # Flink 2.x's Kafka table source reads group-offsets with the reset strategy
            # 'properties.auto.offset.reset', NONE when it is not set (KafkaDynamicSource): a
            # fresh group fails the job (NoOffsetForPartitionException), a group with committed
            # offsets starts there. Neither has a Spark form: Spark never reads a group's offsets,
            # and startingOffsets earliest/latest would run where Flink fails.
            raise Untranslatable(
                f"scan.startup.mode 'group-offsets' without properties.auto.offset.reset earliest/latest: Flink starts "
                f"from the offsets group {group!r} committed, and fails the job for a group with none (reset strategy "
                "none); Spark's Kafka source never reads a group's offsets: choose startingOffsets (earliest, latest or "
                "per-partition JSON offsets)")
        spark_options.append(("startingOffsets", start))
        notes.append(f"scan.startup.mode 'group-offsets': Flink starts from the committed offsets of group {group!r} "
                     f"({reset} where it has none); Spark starts from the {start} offsets at its first run and from its "
                     "checkpoint afterwards, never from the group's offsets")
    elif mode == "timestamp" and "scan.startup.timestamp-millis" in options:
        spark_options.append(("startingTimestamp", options.pop("scan.startup.timestamp-millis")))
    else:
        raise Untranslatable(f"scan.startup.mode {mode!r}")
    ending = _ending(options, spark_options)
    spark_options += ending
    if ending and ending[0][1].startswith("{"):
        notes.append("scan.bounded.specific-offsets: Flink reads nothing of a partition the offsets do not name; Spark's "
                     "read needs every partition of the topic named in endingOffsets (it fails otherwise)")
    for key in ("scan.topic-partition-discovery.interval", "scan.parallelism"):
        options.pop(key, None)
    if options:
        raise Untranslatable(f"Kafka table option {sorted(options)[0]!r}")
    if any(key == "headers" for _, _, key in table.metadata):
        spark_options.append(("includeHeaders", "true"))
    fields = []
    for name, spark_type in table.columns:
        if fmt == "json" and not _readable(spark_type):
            raise Untranslatable(f"json value with a {spark_type} column ({name})")
        fields.append(f"{_quote(renames.get(name, name))} {spark_type}")
    reader = [f'{env}.{"read" if table.bounded else "readStream"}.format("kafka")']
    reader += [f".option({python_string(k)}, {python_string(v, parts)})" for k, v in spark_options]
    reader.append(".load()")
    json_options = ""
    if any(t == "TIMESTAMP_NTZ" for _, t in table.columns):
        text = _FLINK_TIMESTAMP if standard == "SQL" else _RFC3339_TIMESTAMP.replace("'", "\\'")
        json_options = f", map('timestampNTZFormat', '{text}')"
    first = [f"from_json(CAST(value AS STRING), '{', '.join(fields)}'{json_options}) AS value"]
    if fmt == "csv":  # read as text, then cast (see _CSV_TYPES); metadata columns pass through
        reader.append(".selectExpr(" + ", ".join(python_string(e) for e in _csv_record(table, csv)) + ")")
        first = [_csv_row(table)]
    elif fmt == "raw":  # the record value is the one column: its bytes, or their UTF-8 text
        name, spark_type = _raw_column(table)
        first = [f"named_struct('{name}', {'CAST(value AS STRING)' if spark_type == 'STRING' else 'value'}) AS value"]
    for name, spark_type, key in table.metadata:
        if key not in _METADATA or _METADATA[key] != spark_type:
            raise Untranslatable(f"METADATA {key!r} of type {spark_type} ({name})")
        first.append(f"{_METADATA_SQL.get(key, _quote(key))} AS {_quote(name)}")
    watermark = table.watermark
    cast = _watermark_cast(table)
    for step in stream_columns(table, first, "value.", renames):
        reader.append(".selectExpr(" + ", ".join(python_string(e) for e in step) + ")")
    proctime = table.proctime_watermark()
    if watermark is not None:
        reader.append(f".withWatermark({python_string(watermark[0])}, {python_string(watermark[1])})")
    elif proctime is not None:
        reader.append(f".withWatermark({python_string(proctime)}, \"0 seconds\")")
    reader.append(f".createOrReplaceTempView({python_string(table.name)})")
    package = ("Kafka table: Spark's Kafka source is the spark-sql-kafka-0-10 package (spark-submit --packages "
               "org.apache.spark:spark-sql-kafka-0-10_2.13:<Spark version>)")
    if fmt == "raw":
        notes.append(package)
    elif fmt == "csv":
        notes.append(package + (
            "; with 'csv.ignore-parse-errors' Flink reads a field that does not parse as its column's type as NULL, "
            "as Spark does, but skips a record that is not well-formed csv (more fields than the table's, an unclosed "
            "quote), where Spark's from_csv reads what it can"
            if csv["lenient"] else
            "; Flink's csv format fails the job on a field that does not parse as its column's type (an empty "
            "number too; 'csv.ignore-parse-errors' false), Spark's from_csv and try_cast give NULL there"))
    elif lenient:
        notes.append(package + "; with 'json.ignore-parse-errors' Flink skips a malformed record, Spark's from_json gives a row of NULLs")
    else:
        notes.append(package + "; Flink's json format fails the job on a malformed record ('json.ignore-parse-errors' false)"
                     + (" or one without a field of the table ('json.fail-on-missing-field' true)" if strict else "")
                     + ", Spark's from_json gives NULL fields there")
    if watermark is not None:
        notes.append(f"WATERMARK on {watermark[0]}: Spark moves its watermark (the largest {watermark[0]} so far minus "
                     f"{watermark[1]}) between micro-batches, Flink record by record and across Kafka partitions by the "
                     "smallest; a window is emitted in the micro-batch after its end passes the watermark, and records "
                     "behind the watermark are dropped by both" + (
                         f"; {watermark[0]} becomes a TIMESTAMP in the session time zone (Spark's watermark needs one)"
                         if cast else ""))
    return "".join(reader), notes


def _csv_options(options: dict) -> dict:
    """The csv format's options of a Kafka source (``csv.`` or ``value.csv.``), removed from
    ``options``: ``sep`` (Spark's from_csv option) and ``lenient`` ('csv.ignore-parse-errors')."""
    found = _format_options(options, "csv")
    found.pop(LEGACY_LINE_DELIMITER[len("csv."):], None)  # a connect() descriptor's Csv().line_delimiter(): written only
    sep = found.pop("field-delimiter", ",")
    lenient = found.pop("ignore-parse-errors", "false").lower() == "true"
    if found.pop("quote-character", '"') != '"' or found.pop("disable-quote-character", "false").lower() == "true":
        raise Untranslatable("csv quote character other than '\"'")
    if found:
        raise Untranslatable(f"csv option {sorted(found)[0]!r}")
    if len(sep) != 1 or sep in "'\\\n\r\"":
        raise Untranslatable(f"csv field delimiter {sep!r}")
    return {"sep": sep, "lenient": lenient}


def _csv_record(table: TableDef, csv: dict) -> list[str]:
    """The first projection of a csv Kafka source: the record value's fields as text (a quote
    inside a quoted field doubled, as Flink's csv format writes it) and the metadata columns."""
    for name, spark_type in table.columns:
        if spark_type not in _CSV_TYPES:
            raise Untranslatable(f"csv value with a {spark_type} column ({name})")
    fields = ", ".join(f"{_quote(n)} STRING" for n, _ in table.columns)
    options = "map('escape', '\"'" + (f", 'sep', '{csv['sep']}'" if csv["sep"] != "," else "") + ")"
    return [f"from_csv(CAST(value AS STRING), '{fields}', {options}) AS value"] + [
        _quote(key) for _, _, key in table.metadata]


def _csv_row(table: TableDef) -> str:
    """The record value of a csv Kafka source with its columns' types: an empty STRING field ''
    (Flink's, without 'csv.null-literal'), the others cast from their text."""
    fields = ", ".join(
        f"'{n}', " + (f"coalesce(value.{_quote(n)}, '')" if t == "STRING" else f"try_cast(value.{_quote(n)} AS {t})")
        for n, t in table.columns)
    return f"named_struct({fields}) AS value"


def _raw_column(table: TableDef) -> tuple[str, str]:
    """The one column of a raw format table (Flink's raw format has one: the record value)."""
    if len(table.columns) != 1 or table.columns[0][1] not in ("STRING", "BINARY"):
        raise Untranslatable("raw format of other than one STRING or BYTES column")
    return table.columns[0]


def _quote(name: str) -> str:
    return name if name.isidentifier() and name.lower() not in ("value", "timestamp", "offset", "partition", "topic") else f"`{name}`"


def sink(table: TableDef, parts: tuple[str, ...]) -> tuple[list[tuple[str, str]], str, list[str]]:
    """(the Spark Kafka options, the SQL expression of the record value, the NOTEs) of a Kafka
    sink table; the value reads the query's columns renamed to the table's (by position). An
    ``upsert-kafka`` table's record key is ``record_key``."""
    if table.connector not in ("kafka", "upsert-kafka"):
        raise Untranslatable(f"connector {table.connector!r} as a sink")
    if table.computed or table.metadata:
        raise Untranslatable("Kafka sink table with computed or metadata columns")
    options = {k: v for k, v in table.options.items() if k != "connector"}
    if table.connector == "upsert-kafka":
        record_key(table, options)
    fmt = _value_format(options)
    csv_value = _csv_value(table, options) if fmt == "csv" else None
    json = _json_options(options, "json.")
    if json.pop("encode.ignore-null-fields", "false").lower() == "true":
        null_fields = "true"
    else:
        null_fields = "false"
    plain = json.pop("encode.decimal-as-plain-number", "false").lower() == "true"
    for key in ("ignore-parse-errors", "fail-on-missing-field"):
        json.pop(key, None)  # reading options
    if json.get("timestamp-format.standard") == LEGACY_JSON_TIMESTAMP and not any("TIMESTAMP" in t for _, t in table.columns):
        json.pop("timestamp-format.standard")  # Flink 1.x's legacy json format: other than TIMESTAMPs, the same JSON
    if json:
        raise Untranslatable(f"json option {sorted(json)[0]!r}")
    spark_options = _brokers(options)
    options.pop("properties.group.id", None)
    options.pop("scan.startup.mode", None)
    topic = options.pop("topic", None)
    if topic is None or ";" in topic:
        raise Untranslatable("Kafka sink without one 'topic'")
    spark_options.append(("topic", topic))
    notes = []
    guarantee = options.pop("sink.delivery-guarantee", "at-least-once")
    options.pop("sink.transactional-id-prefix", None)
    if guarantee == "exactly-once":
        notes.append("sink.delivery-guarantee 'exactly-once': Spark's Kafka sink writes at least once "
                     "(a record may be written again after a failure)")
    if options.pop("sink.partitioner", "default") != "default":
        raise Untranslatable(f"Kafka sink option 'sink.partitioner' = {table.options['sink.partitioner']!r}")
    options.pop("sink.parallelism", None)
    if table.connector == "upsert-kafka":
        for option in ("sink.buffer-flush.max-rows", "sink.buffer-flush.interval"):
            if option in options:  # Flink keeps each key's last change of the buffer: the latest values stay the same
                notes.append(f"{option}: Flink writes a key's last change per flush, Spark a key's row per micro-batch")
                options.pop(option)
    if options:
        raise Untranslatable(f"Kafka table option {sorted(options)[0]!r}")
    if fmt == "raw":
        name, spark_type = _raw_column(table)
        return spark_options, f"CAST({_quote(name)} AS {spark_type}) AS value", notes
    if csv_value is not None:
        return spark_options, csv_value, notes
    return spark_options, f"{_json_record(table.columns, plain, null_fields)} AS value", notes


# column types whose text Flink's csv format (CsvRowDataSerializationSchema) writes as Spark's
# CAST(... AS STRING) does (seen on Flink 2.3 and Spark 4: 7, -2, 2.5, 1.0E10, 1.0E-5, -0.0)
_CSV_SINK_TYPES = {"INT", "BIGINT", "SMALLINT", "TINYINT", "DOUBLE", "STRING"}


def _csv_value(table: TableDef, options: dict) -> str:
    """The record value of a csv Kafka sink as Flink's csv format writes it (seen on Flink 2.3's
    CsvRowDataSerializationSchema): the fields joined by ',' with no line separator, NULL as an
    empty field (an empty string too), numbers as their text, a string quoted (its quotes
    doubled) when it holds a character below '-' (Jackson's loose quoting: space, tab, line
    breaks, '"', ',', "'", '(', ')', '+'... below the separator's code), else as it is. The
    options read are removed from ``options``."""
    found = _format_options(options, "csv")
    for key in ("ignore-parse-errors", "allow-comments"):
        found.pop(key, None)  # reading options
    if found.pop("field-delimiter", ",") != "," or found:
        raise Untranslatable(f"csv sink option {sorted(found)[0] if found else 'field-delimiter'!r} (the default csv "
                             "writer of ',' is converted)")
    fields = []
    for name, spark_type in table.columns:
        if spark_type not in _CSV_SINK_TYPES:
            raise Untranslatable(f"csv sink column {name} of type {spark_type}")
        text = f"CAST({_quote(name)} AS STRING)"
        if spark_type == "STRING":
            text = (f"CASE WHEN {_quote(name)} RLIKE '[\\\\x00-\\\\x2C]' THEN concat('\"', replace({_quote(name)}, "
                    f"'\"', '\"\"'), '\"') ELSE {_quote(name)} END")
        fields.append(f"coalesce({text}, '')")
    return f"concat_ws(',', {', '.join(fields)}) AS value"


def _json_record(columns, plain: bool = False, null_fields: str = "false") -> str:
    """The json text Flink's json format writes for a row of ``columns`` (``to_json``)."""
    fields = []
    for name, spark_type in columns:
        if spark_type == "TIMESTAMP_NTZ":
            fields.append(f"'{name}', {_timestamp_text(_quote(name))}")
            continue
        if re.fullmatch(r"DECIMAL\(\d+, \d+\)", spark_type) and not plain:
            # seen on Flink 2.3 (filesystem json sink of DECIMAL(32, 2) and DECIMAL(5, 0)): Java's
            # BigDecimal.stripTrailingZeros().toString() (12.5, 1E+2, -1.5E+3, 0, 1.05), where
            # Spark's to_json writes every digit of the scale (12.50, 100.00); to_json writes no
            # number text of our own
            raise Untranslatable(
                f"Kafka sink column {name} of type {spark_type}: Flink's json writes a DECIMAL with its trailing zeros "
                "stripped, in Java's scientific form for whole tens (12.50 as 12.5, 100.00 as 1E+2, -1500 as -1.5E+3), "
                "Spark's to_json with every digit of its scale (12.50, 100.00) ('json.encode.decimal-as-plain-number' = "
                "'true' makes Flink write them as Spark does)")
        if not (_readable(spark_type, written=True) or (plain and _plain_decimal(spark_type))):
            raise Untranslatable(f"Kafka sink column {name} of type {spark_type}: Flink's json and Spark's to_json write it differently")
        fields.append(f"'{name}', CAST({_quote(name)} AS {spark_type})")
    return f"to_json(named_struct({', '.join(fields)}), map('ignoreNullFields', '{null_fields}'))"


def record_key(table: TableDef, options: Optional[dict] = None) -> Optional[str]:
    """The SQL expression of the record key of an ``upsert-kafka`` sink (None for a ``kafka``
    one): its PRIMARY KEY columns in the json of 'key.format' (the options read are removed from
    ``options``). Its values are all the columns ('value.fields-include' ALL, Flink's default);
    a row's changes keep its key, so the topic's latest record per key is the row
    (upsert-kafka's meaning)."""
    if table.connector != "upsert-kafka":
        return None
    options = dict(table.options) if options is None else options
    if not table.primary_key:
        raise Untranslatable("upsert-kafka table without a PRIMARY KEY (Flink refuses it)")
    key_format = options.pop("key.format", None)
    if key_format != "json" or any(k.startswith("key.json.") for k in options):
        raise Untranslatable(f"upsert-kafka 'key.format' {key_format!r} (json is converted)")
    if options.pop("key.fields-prefix", "") or options.pop("value.fields-include", "ALL") != "ALL":
        raise Untranslatable("upsert-kafka 'key.fields-prefix' / 'value.fields-include' EXCEPT_KEY")
    columns = dict(table.columns)
    return f"{_json_record([(n, columns[n]) for n in table.primary_key])} AS key"


def create(ctx, env, table: TableDef, parts: tuple[str, ...], model) -> object:
    """The conversion of the declaration of a Kafka table: the view of a table the program
    reads, REMOVE for a table it only writes (its writes carry the options); Untranslatable."""
    import libcst as cst

    from flink2spark.transpiler import markers as M
    from flink2spark.transpiler.results import REMOVE

    if table.name in model.sinks and not model.reads(table.name):
        sink(table, parts)  # refused here if the writes would be
        if not ctx.is_statement:
            raise Untranslatable("the declaration of a Kafka sink table used as a value")
        return REMOVE
    if table.connector == "upsert-kafka":
        raise Untranslatable("upsert-kafka table read as a source (a changelog of each key's rows: Spark's Kafka source reads "
                             "records, not upserts)")
    code, notes = source(table, parts, cst.Module([]).code_for_node(env))
    for note in notes:
        ctx.note(M.TB_KAFKA, note)
    read_as = table.rowtime_read()
    if read_as is not None:
        ctx.note(M.TB_ROWTIME_ZONE, f"{read_as} is a wall-clock time in Flink, a TIMESTAMP in the session time zone in "
                 "Spark (its watermark needs one): the same values and windows while that zone keeps one offset over the "
                 "data (UTC, a fixed offset); across a daylight-saving change a time in the skipped hour moves an hour on "
                 "and a window ending in it or in the repeated hour ends an hour off: set spark.sql.session.timeZone to "
                 "UTC for Flink's results")
    proctime = table.proctime_watermark()
    if proctime is not None:
        ctx.note(M.TB_PROCTIME, f"{proctime} AS PROCTIME(): Spark's column is current_timestamp(), the time its micro-batch "
                 "starts (all rows of a micro-batch share it, so they fall in one window), watermarked with no delay; a "
                 "window over it is emitted by the first micro-batch after its end, which runs when new records arrive "
                 "(Flink emits it when the wall clock passes its end); which rows share a window depends on arrival "
                 "in both, and neither emits a window still open when the job stops")
    if table.options.get("json.timestamp-format.standard") == LEGACY_JSON_TIMESTAMP \
            and any(t == "TIMESTAMP_NTZ" for _, t in table.columns):
        ctx.note(M.TB_LEGACY, "Flink 1.x's json format (gone from Flink 2.3) reads a TIMESTAMP from RFC 3339 text in UTC "
                 "('2024-03-01T10:00:05Z' is 2024-03-01 10:00:05), and so does this view; Flink 2.x's json format reads "
                 "'2024-03-01 10:00:05' instead")
    return cst.parse_expression(code)

