"""Over windows ordered by a rowtime in streaming mode (NOTE F2S323, the program model's
``over_late``/``sql_over_late``): Flink's over aggregation drops the records that arrive at or
behind its watermark, and with a watermark of no delay (``WATERMARK FOR ts AS ts``) a record
with the time of an earlier one is such a record; Spark's window keeps every record. Before,
these over windows converted with no marker.

The Flink side is measured here on Flink 2.3 (a program of ours over a csv file with equal
times), the Spark side on Spark: the same rows give more records on Spark."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from flink2spark.transpiler.engine import convert_source

sys.path.insert(0, str(Path(__file__).parent))
from flink_reference import flink_available, flink_python  # noqa: E402

ROWS = ("acc-1,2024-01-05 09:00:00,100.0\nacc-2,2024-01-05 09:00:00,250.0\nacc-1,2024-01-05 09:20:00,-30.0\n"
        "acc-1,2024-01-05 09:20:00,5.0\nacc-2,2024-01-05 10:30:00,-100.0\n")


def _program(path: str, mode: str = "in_streaming_mode", delay: str = "") -> str:
    return (
        "from pyflink.table import EnvironmentSettings, TableEnvironment\n"
        "from pyflink.table.expressions import UNBOUNDED_RANGE, col\n"
        "from pyflink.table.window import Over\n\n"
        f"t_env = TableEnvironment.create(EnvironmentSettings.{mode}())\n"
        "t_env.get_config().set('parallelism.default', '1')\n"
        "t_env.execute_sql(\"CREATE TABLE tx (account STRING, tx_time TIMESTAMP(3), amount DOUBLE, "
        f"WATERMARK FOR tx_time AS tx_time{delay}) WITH ('connector' = 'filesystem', 'path' = '{path}', "
        "'format' = 'csv')\")\n"
        "tx = t_env.from_path('tx')\n"
        "tx.over_window(Over.partition_by(col('account')).order_by(col('tx_time')).preceding(UNBOUNDED_RANGE)"
        ".alias('w')).select(col('account'), col('tx_time'), col('amount').count.over(col('w')).alias('n'))"
        ".execute().print()\n"
        "t_env.execute_sql('SELECT account, tx_time, COUNT(amount) OVER (PARTITION BY account ORDER BY tx_time) AS n "
        "FROM tx').print()\n"
    )


def test_over_windows_on_a_rowtime_of_no_delay_carry_the_note():
    out = convert_source(_program("/tmp/tx.csv"), "job.py").output
    assert out.count("F2S323") == 2, out  # the Table API's over_window and the SQL OVER
    assert "a record with the same tx_time as an earlier one (its watermark is tx_time itself, with no delay)" in out, out
    assert "TODO" not in out, out


def test_over_windows_on_a_rowtime_with_a_delay_name_the_delay():
    out = convert_source(_program("/tmp/tx.csv", delay=" - INTERVAL '5' SECOND"), "job.py").output
    assert out.count("F2S323") == 2 and "a record more than 5 seconds behind the largest tx_time before it" in out, out


def test_over_windows_in_batch_mode_or_over_another_column_carry_no_note():
    assert "F2S323" not in convert_source(_program("/tmp/tx.csv", "in_batch_mode"), "job.py").output
    other = _program("/tmp/tx.csv").replace("order_by(col('tx_time'))", "order_by(col('amount'))").replace(
        "ORDER BY tx_time", "ORDER BY amount")
    assert "F2S323" not in convert_source(other, "job.py").output


@pytest.mark.flink
@pytest.mark.skipif(os.environ.get("CI", "").lower() != "true" and not flink_available(),
                    reason="reference Flink not installed (.venv-flink)")
def test_flink_drops_records_at_the_watermark_and_spark_keeps_them(tmp_path):
    """What the NOTE says, measured: on Flink 2.3 the over windows give fewer records than the
    5 rows (the second 09:20 row of acc-1 comes at the watermark 09:20, it is dropped; which
    others are depends on timing); Spark's converted window gives all 5."""
    data = tmp_path / "tx.csv"
    data.write_text(ROWS)
    job = tmp_path / "job.py"
    job.write_text(_program(str(data)))
    ran = subprocess.run([str(flink_python()), str(job)], capture_output=True, text=True, timeout=300)
    assert ran.returncode == 0, ran.stderr[-2000:]
    counts = [int(line.split()[0]) for line in ran.stdout.splitlines() if line.endswith("rows in set")]
    assert len(counts) == 2 and all(c < 5 for c in counts), ran.stdout
    assert counts[0] >= 3 and counts[1] >= 3, ran.stdout

    converted = tmp_path / "converted.py"
    converted.write_text(convert_source(_program(str(data)), "job.py").output)
    sparked = subprocess.run([sys.executable, str(converted)], capture_output=True, text=True, timeout=600)
    assert sparked.returncode == 0, sparked.stderr[-2000:]
    shown = [line for line in sparked.stdout.splitlines() if line.startswith("|acc-")]
    assert len(shown) == 10, sparked.stdout  # 5 rows from each of the two queries
