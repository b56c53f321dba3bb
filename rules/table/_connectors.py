"""Table connectors that become something else than a Spark table (``_sql.spark_create_table``
gives the filesystem ones):

- ``datagen`` with ``number-of-rows`` whose every field is a ``sequence`` -> a temporary view
  over ``range``: Flink gives the i-th row ``start + i`` in each field, and stops after
  ``number-of-rows`` rows or when the shortest sequence ends (seen on Flink 2.3: 6 rows of 1..10
  with number-of-rows 6; 4 rows of 0..3 with number-of-rows 9). Without ``number-of-rows`` the
  table is unbounded (Flink 2.3 refuses it in batch mode); random fields give other values on
  every run and engine: neither is translated.
"""

from __future__ import annotations

from flink2spark.rules.table._sql import TableDef, Untranslatable

_SEQUENCE_TYPES = ("TINYINT", "SMALLINT", "INT", "BIGINT", "STRING")


def datagen_view(table: TableDef) -> str:
    """Spark SQL creating the rows of a datagen table of sequences, as a temporary view."""
    options = {k.lower(): v for k, v in table.options.items()}
    lengths, items = [], []
    if table.computed or table.metadata:
        raise Untranslatable("datagen table with computed or metadata columns")
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
    if "number-of-rows" not in options:
        raise Untranslatable("datagen without number-of-rows (an unbounded source in Flink 2.3)")
    rows = min(lengths + [int(options["number-of-rows"])])
    return f"CREATE TEMPORARY VIEW `{table.name}` AS SELECT {', '.join(items)} FROM range(0, {max(rows, 0)})"
