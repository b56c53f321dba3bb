"""scripts/heldout_eval.py's comparison of what a Table API program prints on Flink and, converted,
on Spark (the stdouts below are of the kind both engines print: a print-connector sink on Flink,
``show()`` on Spark, each with the lines py4j and PyFlink log to stdout)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))

import heldout_eval  # noqa: E402

FLINK = """Using Any for unsupported type: typing.Sequence[~T]
No module named google.cloud.bigquery_storage_v1. As a result, the ReadFromBigQuery transform *CANNOT* be used with `method=DIRECT_READ`.
PYFLINK_CYTHON_ENABLED: True
2> +I[7, north]
2> +I[9, south]
"""

SPARK = """+-----+------+
|store|region|
+-----+------+
|7    |north |
|9    |south |
+-----+------+

Closing down clientserver connection
"""


def test_same_table_records_without_chatter():
    assert heldout_eval._same_table_records(FLINK, SPARK)


def test_other_records_still_differ():
    assert not heldout_eval._same_table_records(FLINK, SPARK.replace("|9    |south |", "|9    |east  |"))
