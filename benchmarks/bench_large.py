#!/usr/bin/env python
"""Large inputs: time and peak memory of ``flink2spark convert`` on 1 MB and 5 MB files.

    python benchmarks/bench_large.py [--sizes 1,5] [--shapes helpers,literal,plain] [--libcst]

Each input is generated (nothing is downloaded) and converted by ``flink2spark convert FILE
--out DIR`` in a child process; its wall time and peak resident memory (``wait4``'s
``ru_maxrss``) are printed with lines per second and the ratio to CPython's own
``compile()`` of the same file, measured in the same run (the floor: every conversion
compiles the file once to reject what CPython rejects). ``--libcst`` adds a bare libcst
parse and render of the same file as a second baseline (slow on 5 MB).

Shapes:
  helpers  a module of many small helper functions and one DataSet job using two of them
  literal  a DataSet job whose data is one list literal of N elements (25,000 per MB)
  plain    the helpers module without any Flink import (decided at read speed)

Linear means the 5 MB time and memory stay within about 5x the 1 MB ones: the last lines
print those ratios.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HEAD = "from flink.plan.Environment import get_environment\n\nenv = get_environment()\n\n"
JOB = "env.from_elements(1, 2, 3).map(lambda x: helper_1(x, 2)).filter(lambda x: helper_2(x, 1)).output()\nenv.execute(local=True)\n"


def helpers(size: int) -> str:
    parts, total, i = [], 0, 0
    while total < size:
        part = (
            f"def helper_{i}(x, y):\n    total = x + y * {i}\n    if total > 10:\n"
            f"        return [total, x, y, {{'k': {i}}}]\n    return None\n\n\n"
        )
        parts.append(part)
        total += len(part)
        i += 1
    return "".join(parts)


def make(shape: str, megabytes: int) -> str:
    size = megabytes * 1_000_000
    if shape == "helpers":
        return HEAD + helpers(size) + JOB
    if shape == "literal":
        count = 25_000 * megabytes
        return HEAD + "DATA = [" + ", ".join(str(i) for i in range(count)) + "]\n\nenv.from_elements(*DATA).output()\nenv.execute(local=True)\n"
    if shape == "plain":
        return helpers(size)
    raise SystemExit(f"unknown shape {shape!r}")


def run(argv: list[str]) -> tuple[float, int, int]:
    """(seconds, peak RSS in MB, exit status) of a child process."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return time.perf_counter() - start, usage.ru_maxrss // 1024, proc.returncode


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="1,5", help="sizes in MB, comma-separated")
    parser.add_argument("--shapes", default="helpers,literal,plain")
    parser.add_argument("--libcst", action="store_true", help="also time a bare libcst parse+render")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    exe = [sys.executable, "-m", "flink2spark.cli", "convert"]
    results: dict[tuple[str, int], tuple[float, int]] = {}
    print(f"{'shape':8} {'MB':>3} {'lines':>9} {'convert s':>10} {'lines/s':>9} {'peak MB':>8} {'compile s':>10} {'x compile':>10}" + (f" {'libcst s':>9}" if args.libcst else ""))
    with tempfile.TemporaryDirectory() as tmp:
        for shape in args.shapes.split(","):
            for mb in sizes:
                path = Path(tmp) / f"{shape}_{mb}mb.py"
                text = make(shape, mb)
                path.write_text(text)
                lines = text.count("\n")
                seconds, peak, status = run(exe + [str(path), "--out", str(Path(tmp) / "out"), "--quiet"])
                if status != 0:
                    raise SystemExit(f"convert exited {status} on {shape} {mb} MB")
                floor, _, _ = run([sys.executable, "-c", f"compile(open({str(path)!r}).read(), 'f', 'exec')"])
                row = f"{shape:8} {mb:>3} {lines:>9} {seconds:>10.2f} {lines / seconds:>9.0f} {peak:>8} {floor:>10.2f} {seconds / floor:>10.1f}"
                if args.libcst:
                    cst_s, _, _ = run([sys.executable, "-c", f"import libcst; libcst.parse_module(open({str(path)!r}).read()).code"])
                    row += f" {cst_s:>9.2f}"
                print(row, flush=True)
                results[(shape, mb)] = (seconds, peak)
    if len(sizes) >= 2:
        small, large = min(sizes), max(sizes)
        for shape in args.shapes.split(","):
            (t1, m1), (t2, m2) = results[(shape, small)], results[(shape, large)]
            print(f"{shape}: {large} MB / {small} MB = time x{t2 / t1:.1f}, peak memory x{m2 / m1:.1f} (size x{large / small:.0f})")


if __name__ == "__main__":
    main()
