"""No-op corpus: the installed ``pyspark`` package has no Flink code, so converting any of its
files must give it back byte for byte, and ``check`` must find nothing.

About 500 files / 10 MB, all of them, no sampling. ``convert_bytes`` runs in one worker
process per CPU while the ``flink2spark check`` command runs on the whole tree at the same
time. Since every output must equal its input byte for byte, that one ``check`` run is the
check of every output (parsing is the cost: checking the outputs again in the workers would
double it). Empty files are skipped, as the CLI skips them when walking a directory.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pyspark = pytest.importorskip("pyspark")

CORPUS = Path(pyspark.__file__).resolve().parent

# Run in a worker process: convert every file named on stdin; print the problems as JSON.
WORKER = r"""
import json, sys
from pathlib import Path
from flink2spark.transpiler.engine import convert_bytes

names = json.load(sys.stdin)
problems = []
for name in names:
    data = Path(name).read_bytes()
    result = convert_bytes(data, name)
    if result.output is None:
        problems.append([name, "error", [m.format(name) for m in result.markers]])
    elif result.output.encode("utf-8") != data:
        problems.append([name, "changed", result.status])
    elif result.status != "unchanged" or result.markers:
        problems.append([name, "status", result.status, [m.format(name) for m in result.markers]])
print(json.dumps({"files": len(names), "problems": problems}))
"""


def corpus_files() -> list[str]:
    return [str(p) for p in sorted(CORPUS.rglob("*.py")) if p.stat().st_size > 0 and "__pycache__" not in p.parts]


def workers() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


@pytest.fixture(scope="module")
def cli_check():
    """``flink2spark check`` on the whole corpus, started now and awaited by the last test."""
    command = Path(sys.executable).parent / "flink2spark"
    process = subprocess.Popen(
        [str(command), "check", str(CORPUS)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    yield process
    if process.poll() is None:
        process.kill()
        process.wait()


def test_convert_is_a_noop_on_pyspark(cli_check):
    files = corpus_files()
    assert len(files) > 300, f"unexpectedly small pyspark tree at {CORPUS}"
    n = workers()
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(n)
    ]
    outputs = [proc.communicate(json.dumps(files[i::n])) for i, proc in enumerate(procs)]
    problems, seen = [], 0
    for proc, (stdout, stderr) in zip(procs, outputs):
        assert proc.returncode == 0, stderr
        report = json.loads(stdout)
        seen += report["files"]
        problems += report["problems"]
    assert seen == len(files)
    assert problems == [], f"{len(problems)} of {len(files)} files: {problems[:5]}"


def test_check_cli_is_clean_on_pyspark(cli_check):
    stdout, stderr = cli_check.communicate(timeout=600)
    assert cli_check.returncode == 0, (stdout[-2000:], stderr[-2000:])
    assert stdout == ""
    assert "0 finding(s) in 0 of " in stderr
