"""A processing-time window over a Kafka table (``PROCTIME()``, NOTE F2S332) on Spark.

Which records share a processing-time window depends on when they arrive, in Flink as in Spark,
so no recorded Flink output can be compared (the fixture kiosk_taps_kafka_proctime_window
compares what both print when the input ends: nothing, the window still open). This test checks
what the conversion promises instead: the converted query runs as a streaming query, a window
is emitted only once a later micro-batch passes its end, and the windows emitted hold every
record of the micro-batches before, each once, with the counts and sums Flink's query computes.
"""

from __future__ import annotations

import contextlib
import datetime
import io
import json
import tempfile
import time
from collections import Counter
from pathlib import Path

import pytest

from flink2spark.transpiler.engine import convert_source

FIXTURE = Path(__file__).parent.parent / "fixtures" / "table" / "kiosk_taps_kafka_proctime_window"


def _sql_program() -> str:
    """The fixture's program with windows of 1 s (a short wait in the test)."""
    source = (FIXTURE / "input.py").read_text().replace("INTERVAL '5' SECOND", "INTERVAL '1' SECOND")
    assert source.count("INTERVAL '1' SECOND") == 3
    return source


def _table_api_program() -> str:
    """The same query with the Table API: Tumble.over(...).on(col('arrived'))."""
    source = _sql_program()
    start = source.index('    t_env.execute_sql("""\n        INSERT INTO')
    end = source.index(".wait()", start)
    return (source[:start] + "    t_env.from_path('taps').window(Tumble.over(lit(1).seconds).on(col('arrived')).alias('w')) \\\n"
            "        .group_by(col('kiosk'), col('w')) \\\n"
            "        .select(col('kiosk'), col('w').start, col('w').end, col('card_id').count, col('fare').sum) \\\n"
            "        .execute_insert('kiosk_totals')" + source[end:]).replace(
        "from pyflink.table import EnvironmentSettings, TableEnvironment\n",
        "from pyflink.table import EnvironmentSettings, TableEnvironment\nfrom pyflink.table.expressions import col, lit\n"
        "from pyflink.table.window import Tumble\n")


def _program(source: str) -> str:
    result = convert_source(source, "input.py")
    assert "TODO(flink2spark)" not in result.output and "F2S332" in result.output
    return result.output


def _records(text: str) -> list[tuple[str, str, str, int, int]]:
    """The rows of the show() tables printed: (kiosk, window start, window end, taps, fares)."""
    rows = []
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) == 5 and cells[0] != "kiosk":
            rows.append((cells[0], cells[1], cells[2], int(cells[3]), int(cells[4])))
    return rows


@pytest.mark.parametrize("source", [_sql_program, _table_api_program], ids=["sql", "table_api"])
def test_processing_time_windows_hold_each_record_once(source, spark, tmp_path, monkeypatch, state_store_reset):
    from pyspark.sql.streaming import DataStreamReader, DataStreamWriter

    topic = tmp_path / "topic"  # the Kafka topic: a folder of text files, one record a line
    topic.mkdir()
    load, start = DataStreamReader.load, DataStreamWriter.start
    monkeypatch.setattr(DataStreamReader, "load", lambda self, *a, **k: load(
        spark.readStream.format("text"), str(topic)).selectExpr("CAST(value AS BINARY) AS value"))
    # each run reads what the topic holds (available-now), the checkpoint kept between runs
    monkeypatch.setattr(DataStreamWriter, "start", lambda self, *a, **k: start(self.trigger(availableNow=True), *a, **k))
    checkpoint = tmp_path / "checkpoint"
    checkpoint.mkdir()
    monkeypatch.setattr(tempfile, "mkdtemp", lambda *a, **k: str(checkpoint))
    code = compile(_program(source()), "converted.py", "exec")

    def run(records: list[dict]) -> list:
        name = f"part-{len(list(topic.iterdir()))}.json"
        (topic / name).write_text("".join(json.dumps(r) + "\n" for r in records))
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(code, {"__name__": "__main__"})
        return _records(out.getvalue())

    first = [{"kiosk": "north", "card_id": 1, "fare": 250}, {"kiosk": "south", "card_id": 2, "fare": 180},
             {"kiosk": "north", "card_id": 3, "fare": 250}, {"kiosk": "east", "card_id": 4, "fare": 320}]
    before = datetime.datetime.now()
    assert run(first) == []  # the window of the micro-batch's time is still open when the run ends
    time.sleep(1.2)  # past the end of that window
    later = datetime.datetime.now()
    emitted = run([{"kiosk": "north", "card_id": 5, "fare": 400}])
    # the first run's records, each once, in one window of 1 s around their micro-batch's time;
    # the second run's record stays in its open window
    assert Counter((k, n, f) for k, _, _, n, f in emitted) == Counter(
        {("north", 2, 500): 1, ("south", 1, 180): 1, ("east", 1, 320): 1})
    windows = {(s, e) for _, s, e, _, _ in emitted}
    assert len(windows) == 1
    (window_start, window_end), = windows
    window_start = datetime.datetime.fromisoformat(window_start)
    window_end = datetime.datetime.fromisoformat(window_end)
    assert window_end - window_start == datetime.timedelta(seconds=1)
    assert before.replace(microsecond=0) <= window_start and window_end <= later
