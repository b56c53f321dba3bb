#!/usr/bin/env python
"""Converted against hand-written PySpark: the time of the same three jobs, in the same run.

    python benchmarks/bench_native.py [--records 1000000] [--repeat 3] [--jobs window,rolling,wordcount]

Issue 14's yardstick: a converted job should take at most 1.3x the time of the same job
written by hand in idiomatic PySpark. The jobs (``benchmarks/native/``), each a Flink program
written for this benchmark and its hand-written PySpark twin (``*_spark.py``):

  window     PyFlink DataStream: taxi fares per zone and 15-minute event-time tumbling window
             (AggregateFunction + ProcessWindowFunction, timestamps from a field, FileSink);
             by hand: ``groupBy(zone, F.window(...)).agg(...)``
  rolling    PyFlink DataStream in STREAMING mode: a rolling word count (keyed reduce), every
             update written by a FileSink; by hand: ``row_number()`` over the word's source order
  wordcount  DataSet API (``flink.plan``) word count, a combinable group reduce written as CSV;
             by hand: ``groupBy("word").count()``

The inputs are generated (seeded, nothing is downloaded): ``--records`` lines of rides
(``ride_id,zone,pickup_ms,fare_cents``, pickup times at most 30 s out of order, under the
program's 1-minute bound, so no ride is late for Flink) or of text (1 to 6 words of a
vocabulary with Zipf-like frequencies). The Flink programs are converted at run time with the
project's converter (``convert_source``) into a temporary folder; a conversion with a TODO is
a failed run.

How it measures: one process, one SparkSession (``--master``, default ``local[*]``; the Spark
UI off), shared by the converted and the hand-written programs, each run as its file's
``__main__`` (``runpy``, with ``sys.argv`` = input, output) as ``spark-submit`` would run it,
its ``SparkSession.builder.getOrCreate()`` getting the shared session. So both run with the
same settings, and the times hold the jobs only: a ``spark-submit`` per run would add the JVM
start and session creation (several seconds, the same for both), which would pull the ratio
towards 1 on small inputs and say nothing about the code. Before timing, every program runs
once on a small input (``--warmup`` records) so that class loading, JIT warm-up, the Python
workers' start and the runtime shim's import are not charged to whichever program runs first;
then each repeat runs both, alternating which goes first, and the best of ``--repeat`` times
is kept. Every run writes to a fresh folder, and its output is compared with the other
version's (as multisets of lines: count and sums of hashes, untimed; where they differ, Spark's
``exceptAll`` shows the lines): when they differ the
job gets no ratio, the differing lines are printed and the exit status is 1. A failed run
also exits 1; otherwise the exit status is 0 whatever the ratios (a benchmark, not a test).

``--hand-written JOB=PATH`` replaces a job's hand-written program (to measure another way of
writing it; the test uses it to check that different outputs are refused). ``--flink`` also
runs the two PyFlink programs once on the reference Flink 2.3 (``.venv-flink``, see
``tests/flink_reference.py``; untimed) on the same input and checks that Flink wrote the
records the hand-written program writes (the DataSet API has no engine left to run it on).
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import runpy
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
NATIVE = HERE / "native"
TARGET = 1.3
SEED = 14


def write_rides(path: Path, records: int) -> None:
    """Taxi rides: ``ride_id,zone,pickup_ms,fare_cents``, about two a second, jittered by < 30 s."""
    rng = random.Random(SEED)
    zones = [f"zone{z:02d}" for z in range(60)]
    start = 1_767_225_600_000  # 2026-01-01T00:00:00Z
    with path.open("w") as out:
        for ride in range(records):
            pickup = start + ride * 500 + rng.randrange(30_000)
            fare = 250 + int(rng.expovariate(1 / 1800))
            out.write(f"{ride},{rng.choice(zones)},{pickup},{fare}\n")


def write_text(path: Path, records: int) -> None:
    """Lines of 1 to 6 words from a 5,000-word vocabulary with Zipf-like frequencies."""
    rng = random.Random(SEED)
    vocabulary = [f"w{rng.randrange(36**4):x}{i}" for i in range(5_000)]
    cumulative = list(itertools.accumulate(1 / (rank + 1) for rank in range(len(vocabulary))))
    with path.open("w") as out:
        for _ in range(records):
            out.write(" ".join(rng.choices(vocabulary, cum_weights=cumulative, k=rng.randint(1, 6))) + "\n")


@dataclass(frozen=True)
class Job:
    name: str
    what: str
    flink: str
    spark: str
    make_input: Callable[[Path, int], None]
    pyflink: bool


JOBS = {
    "window": Job("window", "keyed event-time window aggregate", "window_fares.py", "window_fares_spark.py", write_rides, True),
    "rolling": Job("rolling", "rolling keyed reduce (STREAMING)", "rolling_word_count.py", "rolling_word_count_spark.py", write_text, True),
    "wordcount": Job("wordcount", "DataSet word count", "dataset_word_count.py", "dataset_word_count_spark.py", write_text, False),
}


class BenchError(Exception):
    """A run failed or a conversion left a TODO."""


def convert(job: Job, folder: Path) -> Path:
    """The job's Flink program converted by the project's converter, written into ``folder``."""
    from flink2spark.transpiler.engine import convert_source

    source = NATIVE / job.flink
    result = convert_source(source.read_text(), str(source))
    todos = [m.format(job.flink) for m in result.markers if m.severity == "todo"]
    if result.output is None or result.status != "converted" or todos:
        raise BenchError(f"{job.flink} did not convert: status {result.status}; {todos}")
    target = folder / job.flink
    target.write_text(result.output)
    return target


def run_program(program: Path, input_path: Path, output: Path) -> float:
    """Seconds to run ``program`` as ``__main__`` with ``sys.argv`` = [program, input, output]."""
    if output.exists():
        shutil.rmtree(output) if output.is_dir() else output.unlink()
    argv = sys.argv
    sys.argv = [str(program), str(input_path), str(output)]
    start = time.perf_counter()
    try:
        runpy.run_path(str(program), run_name="__main__")
    except Exception as exc:  # noqa: BLE001 - any failure of the job is reported as such
        raise BenchError(f"{program.name} failed: {type(exc).__name__}: {exc}") from exc
    finally:
        sys.argv = argv
    return time.perf_counter() - start


def compare(spark, got: Path, want: Path, label: str, examples: int = 5) -> tuple[int, list[str]]:
    """(records, problems): the lines under ``got`` and ``want`` as multisets (hidden files skipped).

    Equal multisets have the same count and the same sums of two hashes of their lines (one
    pass over each side, no shuffle); when those differ, ``exceptAll`` finds the lines.
    """
    from pyspark.sql import functions as F

    a = spark.read.text(str(got))
    b = spark.read.text(str(want))

    def fingerprint(lines):
        return tuple(lines.agg(
            F.count("*"),
            F.sum(F.xxhash64("value").cast("decimal(38,0)")),
            F.sum(F.hash("value").cast("decimal(38,0)")),
        ).first())

    mark = fingerprint(a)
    records = mark[0]
    if mark == fingerprint(b):
        return records, [] if records else [f"{label}: both outputs are empty"]
    problems = []
    for name, left, right in (("extra", a, b), ("missing", b, a)):
        diff = left.exceptAll(right)
        count = diff.count()
        if count:
            shown = [row.value for row in diff.limit(examples).collect()]
            problems.append(f"{label}: {count} {name} lines, e.g. {shown}")
    return records, problems or [f"{label}: the outputs differ"]


def run_on_flink(job: Job, input_path: Path, output: Path) -> None:
    sys.path.insert(0, str(HERE.parent / "tests"))
    from flink_reference import FlinkRunError, run_on_flink as flink_run

    try:
        flink_run(NATIVE / job.flink, [input_path, output], timeout=1800)
    except FlinkRunError as exc:
        raise BenchError(f"{job.flink} failed on Flink: {exc}") from exc


def session(master: str, driver_memory: str):
    # Python workers must run this interpreter (pyspark, the flink2spark runtime).
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    from pyspark.sql import SparkSession

    spark = (
        SparkSession.builder.master(master)
        .appName("bench_native")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.driver.memory", driver_memory)
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--records", type=int, default=1_000_000, help="input lines per job (default 1,000,000)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each program; the best is kept (default 3)")
    parser.add_argument("--warmup", type=int, default=10_000, help="records of the untimed first run (0: none)")
    parser.add_argument("--jobs", default=",".join(JOBS), help=f"comma-separated, of {', '.join(JOBS)}")
    parser.add_argument("--master", default="local[*]")
    parser.add_argument("--driver-memory", default="4g")
    parser.add_argument("--hand-written", action="append", default=[], metavar="JOB=PATH",
                        help="run PATH as the job's hand-written program")
    parser.add_argument("--flink", action="store_true", help="also run the PyFlink programs on the reference Flink")
    parser.add_argument("--keep", metavar="DIR", help="work in DIR (inputs, converted programs, outputs) and keep it")
    args = parser.parse_args(argv)
    args.jobs = [name.strip() for name in args.jobs.split(",") if name.strip()]
    unknown = [name for name in args.jobs if name not in JOBS]
    if unknown or not args.jobs:
        parser.error(f"unknown jobs {unknown}; choose from {', '.join(JOBS)}")
    replaced = {}
    for item in args.hand_written:
        name, _, path = item.partition("=")
        if name not in JOBS or not path:
            parser.error(f"--hand-written takes JOB=PATH with JOB one of {', '.join(JOBS)}: {item!r}")
        replaced[name] = Path(path).resolve()
    args.hand_written = replaced
    if args.records < 1 or args.repeat < 1 or args.warmup < 0:
        parser.error("--records and --repeat must be positive, --warmup not negative")
    return args


def bench_job(spark, job: Job, args, work: Path) -> tuple[str, bool]:
    """One job: its result line and whether its outputs agreed."""
    folder = work / job.name
    folder.mkdir()
    programs = {"converted": convert(job, folder), "hand-written": args.hand_written.get(job.name, NATIVE / job.spark)}
    if args.warmup:
        small = folder / "warmup.txt"
        job.make_input(small, min(args.warmup, args.records))
        for label, program in programs.items():
            run_program(program, small, folder / f"warmup-{label}")
    data = folder / "input.txt"
    job.make_input(data, args.records)
    best = {label: float("inf") for label in programs}
    problems: list[str] = []
    for repeat in range(args.repeat):
        order = list(programs) if repeat % 2 == 0 else list(programs)[::-1]
        outputs = {}
        for label in order:
            outputs[label] = folder / f"out-{label}"
            best[label] = min(best[label], run_program(programs[label], data, outputs[label]))
        records, found = compare(spark, outputs["converted"], outputs["hand-written"], f"{job.name} run {repeat + 1}")
        problems += found
        if found:
            break
    if args.flink and job.pyflink and not problems:
        run_on_flink(job, data, folder / "out-flink")
        problems += compare(spark, folder / "out-flink", outputs["hand-written"], f"{job.name} on Flink")[1]
    if problems:
        for problem in problems:
            print(f"  OUTPUTS DIFFER {problem}")
        return f"{job.name:10} {job.what:36} outputs differ: no ratio", False
    ratio = best["converted"] / best["hand-written"]
    verdict = "pass" if ratio <= TARGET else "FAIL"
    checked = " (Flink: same)" if args.flink and job.pyflink else ""
    line = (
        f"{job.name:10} {job.what:36} {records:>11,} {best['converted']:>11.2f} {best['hand-written']:>14.2f}"
        f" {ratio:>6.2f}x  {verdict} (target {TARGET}x){checked}"
    )
    return line, True


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    spark = session(args.master, args.driver_memory)
    work = Path(args.keep or tempfile.mkdtemp(prefix="bench-native-")).resolve()
    work.mkdir(parents=True, exist_ok=True)
    print(
        f"{args.records:,} input records per job, best of {args.repeat}, master {args.master}"
        f" ({spark.sparkContext.defaultParallelism} cores)"
    )
    header = f"{'job':10} {'':36} {'records out':>11} {'converted s':>11} {'hand-written s':>14} {'ratio':>7}"
    lines, status = [], 0
    try:
        for name in args.jobs:
            try:
                line, same = bench_job(spark, JOBS[name], args, work)
            except BenchError as exc:
                line, same = f"{name:10} run failed: {exc}", False
            lines.append(line)
            print(line, flush=True)
            status = status or (0 if same else 1)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    print()
    print(header)
    print("\n".join(lines))
    return status


if __name__ == "__main__":
    sys.exit(main())
