"""benchmarks/bench_native.py keeps working: its three jobs at a tiny size, and its output check.

The benchmark itself (converted against hand-written PySpark on 1M records) is not a test;
this runs it on 2,000 records, once, in the test session's Spark, so that CI notices when a
program stops converting or running, when the converted and hand-written outputs stop
agreeing, and that outputs which differ get no ratio.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from collections import Counter
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
_spec = importlib.util.spec_from_file_location("bench_native", BENCHMARKS / "bench_native.py")
bench_native = importlib.util.module_from_spec(_spec)
sys.modules["bench_native"] = bench_native  # its dataclasses look their module up
_spec.loader.exec_module(bench_native)

TINY = ["--records", "2000", "--repeat", "1"]
RESULT = re.compile(r"^(\w+) .* ([\d,]+) +([\d.]+) +([\d.]+) +([\d.]+)x  (pass|FAIL) \(target 1.3x\)$", re.M)


def _lines(path: Path) -> list[str]:
    """Every line of the non-hidden files under ``path`` (a file or a folder)."""
    files = [path] if path.is_file() else [p for p in path.rglob("*") if p.is_file() and not p.name.startswith((".", "_"))]
    return [line for f in files for line in f.read_text().splitlines()]


def test_three_jobs_convert_run_and_agree(spark, tmp_path, capsys):
    status = bench_native.main([*TINY, "--warmup", "0", "--keep", str(tmp_path)])
    out = capsys.readouterr().out
    assert status == 0, out
    results = {m.group(1): m for m in RESULT.finditer(out)}
    assert set(results) == {"window", "rolling", "wordcount"}, out
    for name, match in results.items():
        converted, hand_written, ratio = (float(match.group(i)) for i in (3, 4, 5))
        assert converted > 0 and hand_written > 0
        # the times are printed to 0.01 s and the ratio to 0.01 (from the unrounded times): at
        # this size a job takes well under a second, so the printed times bound the ratio only
        low, high = (converted - 0.005) / (hand_written + 0.005), (converted + 0.005) / max(hand_written - 0.005, 1e-9)
        assert low - 0.005 <= ratio <= high + 0.005, (name, converted, hand_written, ratio)

    # the record counts, from the generated inputs (plain Python), and the written records
    rides = [line.split(",") for line in (tmp_path / "window" / "input.txt").read_text().splitlines()]
    windows = Counter((zone, int(pickup) // 900_000) for _, zone, pickup, _ in rides)
    words = [w for line in (tmp_path / "rolling" / "input.txt").read_text().splitlines() for w in line.split()]
    text = (tmp_path / "wordcount" / "input.txt").read_text().split()
    assert len(rides) == len((tmp_path / "rolling" / "input.txt").read_text().splitlines()) == 2000
    counts = {"window": len(windows), "rolling": len(words), "wordcount": len(set(text))}
    for name, count in counts.items():
        assert int(results[name].group(2).replace(",", "")) == count, name
    # rolling: word,1 .. word,n for each word seen n times; word count: word,n
    assert Counter(_lines(tmp_path / "rolling" / "out-converted")) == Counter(
        f"{w},{i}" for w, n in Counter(words).items() for i in range(1, n + 1)
    )
    assert sorted(_lines(tmp_path / "wordcount" / "out-converted")) == sorted(f"{w},{n}" for w, n in Counter(text).items())
    # window: zone, window start, rides, total fare, highest fare
    fares: dict = {}
    for _, zone, pickup, fare in rides:
        key = (zone, int(pickup) // 900_000 * 900_000)
        n, total, top = fares.get(key, (0, 0, 0))
        fares[key] = (n + 1, total + int(fare), max(top, int(fare)))
    assert sorted(_lines(tmp_path / "window" / "out-converted")) == sorted(
        "%s,%d,%d,%d,%d" % (*key, *value) for key, value in fares.items()
    )


def test_different_outputs_get_no_ratio(spark, tmp_path, capsys):
    # a hand-written word count that counts one too many
    source = (BENCHMARKS / "native" / "dataset_word_count_spark.py").read_text()
    wrong = source.replace('.groupBy("word").count()', '.groupBy("word").count().withColumn("count", F.col("count") + 1)')
    assert wrong != source
    program = tmp_path / "off_by_one.py"
    program.write_text(wrong)
    status = bench_native.main([*TINY, "--warmup", "0", "--jobs", "wordcount", "--hand-written", f"wordcount={program}"])
    out = capsys.readouterr().out
    assert status == 1, out
    assert "wordcount DataSet word count" in " ".join(out.split())
    assert "OUTPUTS DIFFER wordcount run 1:" in out and "outputs differ: no ratio" in out
    assert not RESULT.search(out), out


def test_a_failing_program_is_a_failed_run(spark, tmp_path, capsys):
    program = tmp_path / "broken.py"
    program.write_text("raise RuntimeError('no such table')\n")
    status = bench_native.main([*TINY, "--warmup", "0", "--jobs", "rolling", "--hand-written", f"rolling={program}"])
    out = capsys.readouterr().out
    assert status == 1, out
    assert "rolling    run failed: broken.py failed: RuntimeError: no such table" in out
    assert not RESULT.search(out), out
