#!/usr/bin/env python
"""Conversion speed: lines per second of ``convert_source`` against a bare libcst round trip.

    python benchmarks/bench_convert.py [--repeat N] [--corpus pyspark] [FILES_OR_DIRS...]
    python benchmarks/bench_convert.py --cli [--jobs 1,2] [--copies N] [--repeat N] [FILES_OR_DIRS...]

By default the inputs are ``fixtures/**/input.py`` and ``examples/*.py``. Both measurements
run in the same process on the same files: ``libcst.parse_module(text).code`` is the floor
(every conversion parses and renders at least once), ``convert_source`` is the whole engine
(generation detection, rules, import fixing, formatting, validation). Each number is the best
of ``--repeat`` runs, so a busy machine disturbs it less.

``--corpus pyspark`` adds the full no-op run over the installed pyspark package (about 500
files) that ``tests/test_noop_corpus.py`` also does: every file must come back unchanged.

``--cli`` times the whole command instead, ``flink2spark convert TREE --out OUT --quiet
--jobs N`` for each N of ``--jobs`` (default 1,2), on a tree holding ``--copies`` copies of
the inputs; the runs of each N alternate, each figure is the best of ``--repeat``, and the
outputs of every N must be the same bytes. It prints the speed-up over the first N.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

import libcst

from flink2spark.transpiler.engine import convert_bytes, convert_source

REPO = Path(__file__).resolve().parent.parent


def default_inputs() -> list[Path]:
    return sorted(REPO.glob("fixtures/**/input.py")) + sorted(REPO.glob("examples/*.py"))


def expand(args: list[str]) -> list[Path]:
    found: list[Path] = []
    for arg in args:
        path = Path(arg)
        found += sorted(path.rglob("*.py")) if path.is_dir() else [path]
    return found


def best_time(fn: Callable[[str, str], object], texts: list[tuple[str, str]], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for name, text in texts:
            fn(text, name)
        best = min(best, time.perf_counter() - start)
    return best


def libcst_round_trip(text: str, name: str) -> str:
    return libcst.parse_module(text).code


def noop_corpus() -> None:
    import pyspark

    root = Path(pyspark.__file__).resolve().parent
    files = [p for p in sorted(root.rglob("*.py")) if p.stat().st_size > 0]
    start = time.perf_counter()
    changed = [str(p) for p in files if (r := convert_bytes(p.read_bytes(), str(p))).output is None or r.changed]
    elapsed = time.perf_counter() - start
    start = time.perf_counter()
    for p in files:
        libcst_round_trip(p.read_text("utf-8"), str(p))
    floor = time.perf_counter() - start
    lines = sum(p.read_bytes().count(b"\n") for p in files)
    print(
        f"\nno-op corpus: {len(files)} pyspark files, {lines} lines in {elapsed:.1f}s "
        f"({lines / elapsed:,.0f} lines/s); {len(changed)} changed or failed\n"
        f"  libcst parse + render of the same files: {floor:.1f}s; convert is {floor / elapsed:,.0f}x faster"
        " (target: at least 5x)"
    )
    for name in changed[:10]:
        print(f"  {name}")
    if changed:
        sys.exit(1)


def command() -> list[str]:
    script = Path(sys.executable).parent / "flink2spark"
    return [str(script)] if script.exists() else [sys.executable, "-m", "flink2spark.cli"]


def tree_bytes(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def bench_cli(paths: list[Path], copies: int, jobs: list[int], repeat: int) -> None:
    """Wall-clock time of the whole convert command, per --jobs value."""
    with tempfile.TemporaryDirectory(prefix="f2s-bench-") as folder:
        tree = Path(folder) / "jobs"
        for copy in range(copies):
            for number, path in enumerate(paths):  # one folder per input: every name is kept
                target = tree / f"copy{copy}" / f"{number:03}_{path.parent.name}" / path.name
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(path, target)
        files = copies * len(paths)
        lines = copies * sum(p.read_bytes().count(b"\n") for p in paths)
        load = " ".join(f"{x:.2f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
        print(f"flink2spark convert TREE --out OUT: {files} files, {lines} lines; {os.cpu_count()} CPUs, "
              f"load average {load}; best of {repeat} runs, alternating\n")
        times: dict[int, list[float]] = {n: [] for n in jobs}
        outputs: dict[int, dict[str, bytes]] = {}
        for _ in range(repeat):
            for n in jobs:
                out = Path(folder) / f"out{n}"
                shutil.rmtree(out, ignore_errors=True)
                start = time.perf_counter()
                subprocess.run([*command(), "convert", str(tree), "--out", str(out), "--quiet", "--jobs", str(n)],
                               check=True, stdout=subprocess.DEVNULL)
                times[n].append(time.perf_counter() - start)
                outputs.setdefault(n, tree_bytes(out))
        if any(outputs[n] != outputs[jobs[0]] for n in jobs):
            sys.exit("the outputs differ between --jobs values")
        first = min(times[jobs[0]])
        print(f"{'--jobs':>8}{'best s':>10}{'files/s':>10}{'speed-up':>10}   all runs (s)")
        for n in jobs:
            best = min(times[n])
            runs = " ".join(f"{t:.1f}" for t in times[n])
            print(f"{n:>8}{best:>10.2f}{files / best:>10.1f}{first / best:>9.2f}x   {runs}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", help="files or directories (default: fixtures and examples)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per measurement; the best is kept")
    parser.add_argument("--corpus", choices=["pyspark"], help="also run the full no-op corpus")
    parser.add_argument("--cli", action="store_true", help="time the whole convert command per --jobs value")
    parser.add_argument("--jobs", default="1,2", help="with --cli: the --jobs values, comma-separated")
    parser.add_argument("--copies", type=int, default=1, help="with --cli: copies of the inputs in the tree")
    args = parser.parse_args()

    paths = expand(args.paths) if args.paths else default_inputs()
    if not paths:
        sys.exit("no input files")
    if args.cli:
        bench_cli(paths, args.copies, [int(n) for n in args.jobs.split(",")], args.repeat)
        return
    texts = [(str(p), p.read_text("utf-8")) for p in paths]
    lines = sum(text.count("\n") for _, text in texts)
    size = sum(len(text.encode("utf-8")) for _, text in texts)

    convert_source(*reversed(texts[0]))  # warm-up: imports, rule registry, black
    rows = [
        ("libcst parse + render", best_time(libcst_round_trip, texts, args.repeat)),
        ("convert_source", best_time(lambda text, name: convert_source(text, name), texts, args.repeat)),
    ]

    print(f"{len(texts)} files, {lines} lines, {size / 1024:.0f} KiB; best of {args.repeat} runs\n")
    print(f"{'':24}{'seconds':>10}{'lines/s':>12}{'ms/file':>10}{'time':>10}{'speed':>10}")
    floor = rows[0][1]
    for label, seconds in rows:
        print(
            f"{label:24}{seconds:>10.3f}{lines / seconds:>12,.0f}"
            f"{1000 * seconds / len(texts):>10.1f}{seconds / floor:>9.1f}x{floor / seconds:>9.3f}x"
        )
    print("\nspeed: convert's speed as a fraction of a bare parse + render (issue 13's target: at least 0.25x)")
    if args.corpus == "pyspark":
        noop_corpus()


if __name__ == "__main__":
    main()
