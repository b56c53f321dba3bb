"""Table connectors that become something else than a Spark table (``_sql.spark_create_table``
gives the filesystem ones):

- ``datagen`` with ``number-of-rows`` whose every field is a ``sequence`` -> a temporary view
  over ``range``: Flink gives the i-th row ``start + i`` in each field, and stops after
  ``number-of-rows`` rows or when the shortest sequence ends (seen on Flink 2.3: 6 rows of 1..10
  with number-of-rows 6; 4 rows of 0..3 with number-of-rows 9). Without ``number-of-rows`` the
  table is unbounded (Flink 2.3 refuses it in batch mode): not translated.
- ``random`` fields (the default kind) of the same kind of values: integers uniform in
  [min, max] (both inclusive in Flink; the type's range by default), DOUBLE/FLOAT uniform in
  [min, max] (given), BOOLEAN, STRING of ``length`` (100 by default) lowercase hex digits (seen on
  Flink 2.3: ``f0db090e9123`` for length 12). The values themselves come from each engine's
  generator: ``random_fields`` names them for the NOTE F2S310.
"""

from __future__ import annotations

import re
from typing import Optional

from flink2spark.rules.table._sql import TableDef, Untranslatable
from flink2spark.transpiler import markers as M

PLACEHOLDER = re.compile(r"__f2s_\d+__")  # a value the program computes (_program._MARK)

_SEQUENCE_TYPES = ("TINYINT", "SMALLINT", "INT", "BIGINT", "STRING")


_INTEGER_RANGES = {"TINYINT": 8, "SMALLINT": 16, "INT": 32, "INTEGER": 32, "BIGINT": 64}
_FIELD_OPTIONS = ("kind", "start", "end", "min", "max", "length", "max-past")


def random_fields(table: TableDef) -> list[str]:
    """The fields of a datagen table whose values are random (the NOTE F2S310 names them)."""
    options = {k.lower(): v for k, v in table.options.items()}
    return [name for name, _ in table.columns if options.get(f"fields.{name.lower()}.kind", "random") == "random"]


def _random_value(table: TableDef, name: str, typ: str, options: dict, made_at: Optional[str] = None) -> str:
    """A Spark SQL expression of random values of the kind Flink's datagen gives ``name`` (``made_at``: the
    time a row is made, for timestamps; the query's current time by default)."""
    prefix = f"fields.{name.lower()}."
    typ = typ.upper()

    def bound(option: str, parse):
        try:
            return parse(options[prefix + option]) if prefix + option in options else None
        except ValueError:
            raise Untranslatable(f"datagen field {name}: {option} {options[prefix + option]!r} is not a number") from None

    if typ in _INTEGER_RANGES:
        bits = _INTEGER_RANGES[typ]
        given = [options.get(prefix + o) for o in ("min", "max")]
        if any(v is not None and PLACEHOLDER.fullmatch(v) for v in given):
            # a bound the program computes (str(len(words) - 1)): the same arithmetic in SQL, at run time
            lo, hi = (v if v is not None else str(d) for v, d in zip(given, (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1)))
            return f"CAST(floor(rand() * (CAST({hi} AS DOUBLE) - CAST({lo} AS DOUBLE) + 1D) + CAST({lo} AS DOUBLE)) AS {typ})"
        low, high = bound("min", int), bound("max", int)
        low = -(2 ** (bits - 1)) if low is None else low
        high = 2 ** (bits - 1) - 1 if high is None else high
        if low > high:
            raise Untranslatable(f"datagen field {name}: min above max")
        # in [low, high + 1) before floor: both ends included, as in Flink. (Not Spark's uniform(),
        # which truncates toward zero: uniform(-2, 3) never gave -2.)
        return f"CAST(floor(rand() * {float(high - low + 1)!r}D + {float(low)!r}D) AS {typ})"
    if typ in ("DOUBLE", "FLOAT"):
        low, high = bound("min", float), bound("max", float)
        if low is None or high is None:
            raise Untranslatable(f"datagen field {name} of type {typ} without min and max")
        return f"CAST(rand() * {high - low!r}D + {low!r}D AS {typ})"
    if typ == "BOOLEAN":
        return "rand() < 0.5D"
    decimal = re.fullmatch(r"DECIMAL\((\d+),\s*(\d+)\)", typ)
    if decimal:
        precision, scale = int(decimal.group(1)), int(decimal.group(2))
        low, high = bound("min", float), bound("max", float)
        # Seen on Flink 2.3: DECIMAL(5, 1) without min/max gave values from 3.5 to 9999.7 in 2000 rows
        # (from Java's Double.MIN_VALUE, a tiny positive number, to the type's largest)
        low = 0.0 if low is None else low
        high = 10.0 ** (precision - scale) - 10.0 ** -scale if high is None else high
        return f"CAST(rand() * {high - low!r}D + {low!r}D AS {typ})"
    if typ in ("TIMESTAMP", "TIMESTAMP_NTZ"):
        # Seen on Flink 2.3: the time the row is made, less a random part of max-past (0 by default)
        now = made_at or ("current_timestamp()" if typ == "TIMESTAMP" else "localtimestamp()")
        past = _duration_seconds(options.get(prefix + "max-past", "0"), name)
        offset = f" - make_dt_interval(0, 0, 0, CAST(rand() * {past!r} AS DECIMAL(18, 6)))" if past else ""
        value = f"date_trunc('MILLISECOND', {now}{offset})"
        return value if typ == "TIMESTAMP" else f"CAST({value} AS TIMESTAMP_NTZ)"
    if typ == "STRING":
        length = bound("length", int)
        declared = re.fullmatch(r"(VAR)?CHAR\((\d+)\)", table.declared.get(name, ""))
        if declared and int(declared.group(2)) != 2**31 - 1:  # Flink 2.3 gave VARCHAR(5) 5 digits, CHAR(3) 3
            if length is not None:
                raise Untranslatable(f"datagen field {name} of type {declared.group(0)} with a length option")
            length = int(declared.group(2))
        elif table.declared.get(name) not in ("STRING", "VARCHAR", "VARCHAR(2147483647)"):
            raise Untranslatable(f"datagen random field {name} of a string type whose length is not known")
        length = 100 if length is None else length
        digests = ", ".join(["sha2(CAST(rand() AS STRING), 256)"] * max(1, -(-length // 64)))
        return f"substring(concat({digests}), 1, {length})"
    raise Untranslatable(f"datagen random field {name} of type {typ}")


_DURATION_UNITS = {"ms": 0.001, "milli": 0.001, "millis": 0.001, "s": 1, "sec": 1, "secs": 1, "second": 1, "seconds": 1,
                   "min": 60, "mins": 60, "minute": 60, "minutes": 60, "h": 3600, "hour": 3600, "hours": 3600,
                   "d": 86400, "day": 86400, "days": 86400}


def _duration_seconds(text: str, name: str) -> float:
    """Seconds of a Flink duration option ("1 h", "30 s", "500 ms"; a bare number is milliseconds)."""
    match = re.fullmatch(r"\s*(\d+)\s*([a-z]*)\s*", text.lower())
    if not match or (match.group(2) and match.group(2) not in _DURATION_UNITS):
        raise Untranslatable(f"datagen field {name}: max-past {text!r}")
    return int(match.group(1)) * _DURATION_UNITS.get(match.group(2) or "ms", 0.001)


def datagen_stream(table: TableDef, env: str, parts: tuple[str, ...] = ()) -> str:
    """The Python statement creating the view of an unbounded datagen table (no number-of-rows,
    random fields only): a streaming DataFrame of Spark's rate source, ``rows-per-second``
    (Flink's default 10000) random rows a second, its computed columns and watermark as a Kafka
    table's (``_kafka.stream_columns``)."""
    from flink2spark.rules.table._kafka import stream_columns
    from flink2spark.rules.table._program import python_string

    options = {k.lower(): v for k, v in table.options.items()}
    extra = set(options) - {"connector", "rows-per-second"} - {
        f"fields.{n.lower()}.{o}" for n, _ in table.columns for o in _FIELD_OPTIONS}
    if extra:
        raise Untranslatable(f"datagen option {sorted(extra)[0]!r}")
    if table.metadata:
        raise Untranslatable("datagen table with metadata columns")
    if any(options.get(f"fields.{n.lower()}.kind", "random") != "random" for n, _ in table.columns):
        raise Untranslatable("unbounded datagen table with a field that is not random")
    try:
        rate = int(options.get("rows-per-second", "10000"))
    except ValueError:
        raise Untranslatable(f"datagen rows-per-second {options['rows-per-second']!r}") from None
    # a timestamp is the time the row is made (the rate source's timestamp), not the micro-batch's
    first = [f"{_random_value(table, name, typ, options, '`timestamp`')} AS `{name}`" for name, typ in table.columns]
    reader = [f'{env}.readStream.format("rate").option("rowsPerSecond", {rate}).load()']
    for step in stream_columns(table, first):
        reader.append(".selectExpr(" + ", ".join(python_string(e, parts) for e in step) + ")")
    if table.watermark is not None:
        reader.append(f".withWatermark({python_string(table.watermark[0])}, {python_string(table.watermark[1])})")
    reader.append(f".createOrReplaceTempView({python_string(table.name)})")
    return "".join(reader)


def datagen_view(table: TableDef, streaming: bool = False) -> str:
    """Spark SQL creating the rows of a bounded datagen table, as a temporary view: number-of-rows
    rows, or fewer where a sequence field ends; in streaming mode (``streaming``), a table without
    number-of-rows that has a sequence field too (Flink 2.3 plans it as unbounded, refuses it in
    batch mode, and its streaming job ends with the shortest sequence)."""
    options = {k.lower(): v for k, v in table.options.items()}
    lengths, items = [], []
    if table.computed or table.metadata:
        raise Untranslatable("datagen table with computed or metadata columns")
    for name, typ in table.columns:
        prefix = f"fields.{name.lower()}."
        kind = options.get(prefix + "kind", "random")
        if kind == "random":
            items.append(f"{_random_value(table, name, typ, options)} AS `{name}`")
            continue
        if kind != "sequence":
            raise Untranslatable(f"datagen field {name} of kind {kind!r}")
        if typ.upper() not in _SEQUENCE_TYPES:
            raise Untranslatable(f"datagen sequence of type {typ}")
        try:
            start, end = int(options[prefix + "start"]), int(options[prefix + "end"])
        except (KeyError, ValueError):
            raise Untranslatable(f"datagen sequence {name} without integer start and end") from None
        lengths.append(end - start + 1)
        items.append(f"CAST({start} + id AS {typ.upper()}) AS `{name}`")
    extra = set(options) - {"connector", "number-of-rows", "rows-per-second"} - {
        f"fields.{n.lower()}.{o}" for n, _ in table.columns for o in _FIELD_OPTIONS}
    if extra:
        raise Untranslatable(f"datagen option {sorted(extra)[0]!r}")
    if "number-of-rows" not in options and not (streaming and lengths):
        raise Untranslatable("datagen without number-of-rows (an unbounded source in Flink 2.3" + (
            ": batch mode refuses it even with a sequence field)" if lengths else ")"))
    # without number-of-rows, Flink 2.3's streaming job ends where the shortest sequence ends
    rows = min(lengths + [int(options["number-of-rows"])] if "number-of-rows" in options else lengths)
    return f"CREATE TEMPORARY VIEW `{table.name}` AS SELECT {', '.join(items)} FROM range(0, {max(rows, 0)})"


def note_random(ctx, table: TableDef) -> None:
    """The NOTE F2S310 of a datagen table with random fields."""
    fields = random_fields(table)
    if fields:
        ctx.note(M.TB_GENERATED, f"datagen table {table.name!r}: random field{'s' if len(fields) > 1 else ''} "
                 f"{', '.join(fields)} get{'' if len(fields) > 1 else 's'} Spark's random values of the same kinds and ranges, not Flink's: results that depend "
                 "on them differ from run to run and engine to engine")


def declare_datagen(ctx, env, table: TableDef, parts: tuple[str, ...]):
    """The Spark statement declaring a datagen table on ``env``: a view over ``range`` (bounded),
    or over the rate source (unbounded: a streaming table), with the NOTEs it needs."""
    import libcst as cst

    from flink2spark.rules.table._program import python_string

    if table.bounded:
        from flink2spark.rules.table._program import tables

        view = datagen_view(table, streaming=tables(ctx.resolver).mode == "streaming")
        code = f"{cst.Module([]).code_for_node(env)}.sql({python_string(view, parts)})"
    else:
        code = datagen_stream(table, cst.Module([]).code_for_node(env), parts)
        ctx.note(M.TB_STREAMING, f"datagen table {table.name!r} without number-of-rows: an unbounded stream, Spark's rate "
                 "source (rows-per-second rows a second); queries over it are streaming queries")
    note_random(ctx, table)
    return cst.parse_expression(code)
