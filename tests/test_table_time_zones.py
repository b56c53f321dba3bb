"""Event-time windows over Flink's TIMESTAMP(3) (a wall-clock time, no time zone) and the Spark
session time zone.

Flink aligns a TUMBLE over a TIMESTAMP(3) rowtime on its wall-clock values (seen on Flink 2.3:
fixtures dock_scans_window_bounds, taxi_rides_tumble_window).  Spark's watermark takes only a
TIMESTAMP, so the view of a Kafka table casts its TIMESTAMP(3) watermark column to one in the
session time zone, and ``window()`` aligns those instants in UTC.  What the conversion writes
must say when that gives other windows: these tests run the converted view's cast on Spark in
UTC and in America/New_York and compare with the wall-clock windows, then check the markers.
"""

import datetime
import re

import pytest

from flink2spark.transpiler import markers as M
from flink2spark.transpiler.engine import convert_source

KAFKA_JOB = '''
from pyflink.table import EnvironmentSettings, TableEnvironment

t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
t_env.execute_sql("""
    CREATE TABLE scans (
        parcel STRING,
        hub INT,
        scanned_at TIMESTAMP(3),
        WATERMARK FOR scanned_at AS scanned_at - INTERVAL '5' SECOND
    ) WITH ('connector' = 'kafka', 'topic' = 'scans', 'properties.bootstrap.servers' = 'kafka:9092',
            'scan.startup.mode' = 'earliest-offset', 'format' = 'json')
""")
t_env.execute_sql("""
    CREATE TABLE hub_counts (window_start TIMESTAMP(3), window_end TIMESTAMP(3), hub INT, scans BIGINT)
    WITH ('connector' = 'print')
""")
t_env.execute_sql("""
    INSERT INTO hub_counts
    SELECT window_start, window_end, hub, COUNT(*)
    FROM TABLE(TUMBLE(TABLE scans, DESCRIPTOR(scanned_at), INTERVAL 'SIZE'))
    GROUP BY window_start, window_end, hub
""").wait()
'''

# wall-clock times around New York's daylight-saving changes: 2024-03-10 02:00 -> 03:00 (02:30
# does not exist there) and 2024-11-03 02:00 -> 01:00 (01:55 happens twice); and a plain one
TIMES = ["2024-03-10 01:55:00", "2024-03-10 02:30:00", "2024-11-03 01:55:00", "2024-06-01 12:34:00"]
CHANGED = {"2024-03-10 01:55:00", "2024-03-10 02:30:00", "2024-11-03 01:55:00"}


def _converted(size: str):
    return convert_source(KAFKA_JOB.replace("'SIZE'", size), "job.py")


def _wall_clock_window(text: str, minutes: int) -> tuple[str, str]:
    """Flink's window of a TIMESTAMP(3): multiples of the size since 1970-01-01 00:00 of the wall clock."""
    t = datetime.datetime.fromisoformat(text)
    since = int((t - datetime.datetime(1970, 1, 1)).total_seconds()) // 60
    start = datetime.datetime(1970, 1, 1) + datetime.timedelta(minutes=since - since % minutes)
    return str(start), str(start + datetime.timedelta(minutes=minutes))


def _spark_windows(spark, cast: str, zone: str, minutes: int) -> dict[str, tuple[str, str]]:
    """The windows Spark gives each of TIMES read through the view's ``cast``, shown as the
    print and Kafka sinks show a TIMESTAMP (its wall-clock time in the session time zone)."""
    key = "spark.sql.session.timeZone"
    before = spark.conf.get(key)
    spark.conf.set(key, zone)
    try:
        rows = spark.createDataFrame([(t,) for t in TIMES], "text STRING").selectExpr(
            "text", "CAST(text AS TIMESTAMP_NTZ) AS scanned_at").selectExpr("text", f"{cast} AS scanned_at").selectExpr(
            "text", f"window(scanned_at, '{minutes} minutes') AS w").selectExpr(
            "text", "CAST(CAST(w.start AS TIMESTAMP_NTZ) AS STRING) AS s", "CAST(CAST(w.end AS TIMESTAMP_NTZ) AS STRING) AS e",
        ).collect()
    finally:
        spark.conf.set(key, before)
    return {r.text: (r.s, r.e) for r in rows}


def test_view_of_a_timestamp3_rowtime_gives_flinks_windows_only_without_offset_changes(spark):
    result = _converted("'10' MINUTE")
    found = re.search(r"CAST\((\S+) AS TIMESTAMP\) AS `?scanned_at`?", result.output)
    assert found, result.output  # the view reads the TIMESTAMP(3) column (the json field) in the session time zone
    cast = "CAST(scanned_at AS TIMESTAMP)"
    flink = {t: _wall_clock_window(t, 10) for t in TIMES}
    assert _spark_windows(spark, cast, "UTC", 10) == flink
    new_york = _spark_windows(spark, cast, "America/New_York", 10)
    assert {t for t in TIMES if new_york[t] != flink[t]} == CHANGED
    # so the conversion says so where the view is declared
    notes = [m for m in result.markers if m.code == M.TB_ROWTIME_ZONE]
    assert len(notes) == 1 and "TIMESTAMP(3) rowtime column scanned_at" in notes[0].message, result.markers
    assert "daylight-saving" in notes[0].message and "UTC" in notes[0].message


def test_hour_window_over_a_timestamp3_rowtime_names_the_column():
    """Spark aligns an hour in UTC, Flink on the wall clock: other windows in a zone of a
    half-hour offset, so a TODO; it names the TIMESTAMP(3) column the view reads in the session
    time zone (it said "a TIMESTAMP_LTZ column" before)."""
    result = _converted("'1' HOUR")
    todos = [m for m in result.markers if m.severity == "todo"]
    assert len(todos) == 1, result.markers
    assert "over the TIMESTAMP(3) rowtime column scanned_at" in todos[0].message
    assert "TIMESTAMP_LTZ" not in todos[0].message


def test_no_zone_note_for_a_timestamp_ltz_rowtime():
    source = KAFKA_JOB.replace("'SIZE'", "'5' MINUTE").replace(
        "scanned_at TIMESTAMP(3),", "ms BIGINT,\n        scanned_at AS TO_TIMESTAMP_LTZ(ms, 3),")
    result = convert_source(source, "job.py")
    assert not [m for m in result.markers if m.severity == "todo"], result.markers
    assert M.TB_ROWTIME_ZONE not in {m.code for m in result.markers}
