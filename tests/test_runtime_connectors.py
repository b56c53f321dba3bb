"""runtime.connectors: FileSink layout (folders, part-file names, records) written by Spark."""

from __future__ import annotations

import datetime
import re

import pytest

from flink_reference import read_output_files
from flink2spark.runtime import connectors as io
from flink2spark.runtime import datastream as f2s

PART = re.compile(r"^(?P<prefix>.+)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}-(?P<n>\d+)(?P<suffix>.*)$")


def test_java_time_format():
    assert io.java_time_format("yyyy-MM-dd--HH") == "%Y-%m-%d--%H"
    assert io.java_time_format("yyyy/MM/dd 'at' HH:mm:ss") == "%Y/%m/%d at %H:%M:%S"
    assert io.java_time_format("'100%'yy") == "100%%%y"
    with pytest.raises(ValueError):
        io.java_time_format("yyyy-ww")  # week of year: no strftime counterpart kept


def test_date_time_bucket_is_the_current_hour():
    before = datetime.datetime.now().strftime("%Y-%m-%d--%H")
    bucket = io.date_time_bucket()
    after = datetime.datetime.now().strftime("%Y-%m-%d--%H")
    assert bucket in (before, after)
    assert re.fullmatch(r"\d{4}-\d\d-\d\d--\d\d", bucket)
    assert re.fullmatch(r"\d{4}", io.date_time_bucket("yyyy", "UTC"))


def test_write_rows_names_part_files_like_flink(sc, tmp_path):
    # 6 partitions for 3 records: empty partitions write no part file
    io.write_rows(sc.parallelize(["a", "b", "c"], 6), str(tmp_path / "out"), f2s.Types.STRING(), part_prefix="pre", part_suffix=".csv")
    files = sorted(p for p in tmp_path.rglob("*") if p.is_file())
    names = [p.name for p in files]
    assert all(p.parent == tmp_path / "out" for p in files), files  # no in-progress folder, _SUCCESS or .crc left
    matches = [PART.match(n) for n in names]
    assert all(matches), names
    assert {(m["prefix"], m["suffix"]) for m in matches} == {("pre", ".csv")}
    assert sorted(int(m["n"]) for m in matches) == list(range(len(files)))
    assert len(files) == 3
    assert sorted(line for p in files for line in p.read_text().splitlines()) == ["a", "b", "c"]


def test_write_rows_default_names_buckets_and_java_strings(sc, tmp_path):
    pairs = sc.parallelize([("x", 1), ("y", 2)], 1)
    io.write_rows(pairs, str(tmp_path), f2s.Types.TUPLE([f2s.Types.STRING(), f2s.Types.INT()]), bucket="2024-01-01--10")
    io.write_rows(sc.parallelize([19.0, 1e-05, 1e20], 1), str(tmp_path / "d"), f2s.Types.DOUBLE())
    io.write_rows(sc.parallelize(["é ü", "line"], 1), str(tmp_path / "s"), f2s.Types.STRING())
    assert read_output_files(tmp_path) == {
        "2024-01-01--10/part-UUID-N": ["(x,1)", "(y,2)"],
        "d/part-UUID-N": ["1.0E-5", "1.0E20", "19.0"],
        "s/part-UUID-N": ["line", "é ü"],
    }


def test_write_rows_appends_to_an_existing_folder(sc, tmp_path):
    for batch in (["a"], ["b"]):
        io.write_rows(sc.parallelize(batch, 1), str(tmp_path), f2s.Types.STRING())
    assert len([p for p in tmp_path.iterdir() if p.is_file()]) == 2


def test_pickled_streams_are_refused(sc, tmp_path):
    with pytest.raises(TypeError):
        io.write_rows(sc.parallelize([1]), str(tmp_path), None)


def test_streaming_file_sink_part_names(sc, tmp_path):
    # StreamingFileSink on Flink 2.3 names parts <prefix>-<subtask>-<counter><suffix> (x-0-0.y)
    io.write_rows(sc.parallelize(["a", "b"], 3), str(tmp_path), f2s.Types.STRING(), part_prefix="x", part_suffix=".y", part_names="subtask")
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["x-%d-0.y" % i for i in range(len(names))] and len(names) == 2
    with pytest.raises(ValueError):
        io.write_rows(sc.parallelize(["a"]), str(tmp_path), f2s.Types.STRING(), part_names="random")
