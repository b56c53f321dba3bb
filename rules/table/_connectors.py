"""Table connectors that become something else than a Spark table (``_sql.spark_create_table``
gives the filesystem ones):

- ``datagen`` whose every field is a ``sequence`` -> a temporary view over ``range``: Flink
  gives the i-th row ``start + i`` in each field, and stops after ``number-of-rows`` rows or when
  the shortest sequence ends (from 0 to the smaller of those); random fields give other values
  on every run and engine: not translated (their results could not match).
"""

from __future__ import annotations

from flink2spark.rules.table._sql import TableDef, Untranslatable

_SEQUENCE_TYPES = ("TINYINT", "SMALLINT", "INT", "BIGINT", "STRING")


def datagen_view(table: TableDef) -> str:
    """Spark SQL creating the rows of a datagen table of sequences, as a temporary view."""
    options = {k.lower(): v for k, v in table.options.items()}
    lengths, items = [], []
    if table.computed:
        raise Untranslatable("datagen table with computed columns")
    for name, typ in table.columns:
        prefix = f"fields.{name.lower()}."
        kind = options.get(prefix + "kind", "random")
        if kind != "sequence":
            raise Untranslatable(f"datagen field {name} of kind {kind!r} (random values differ from run to run and engine to engine)")
        if typ.upper() not in _SEQUENCE_TYPES:
            raise Untranslatable(f"datagen sequence of type {typ}")
        try:
            start, end = int(options[prefix + "start"]), int(options[prefix + "end"])
        except (KeyError, ValueError):
            raise Untranslatable(f"datagen sequence {name} without integer start and end") from None
        lengths.append(end - start + 1)
        items.append(f"CAST({start} + id AS {typ.upper()}) AS `{name}`")
    extra = set(options) - {"connector", "number-of-rows", "rows-per-second"} - {
        f"fields.{n.lower()}.{o}" for n, _ in table.columns for o in ("kind", "start", "end")}
    if extra:
        raise Untranslatable(f"datagen option {sorted(extra)[0]!r}")
    rows = min(lengths) if lengths else 0
    if "number-of-rows" in options:
        rows = min(rows, int(options["number-of-rows"]))
    return f"CREATE TEMPORARY VIEW `{table.name}` AS SELECT {', '.join(items)} FROM range(0, {max(rows, 0)})"
