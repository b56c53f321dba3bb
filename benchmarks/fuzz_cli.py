#!/usr/bin/env python
"""Fuzz ``flink2spark convert`` (issues 16 and 17): mutated fixtures and hostile shapes.

    python benchmarks/fuzz_cli.py [--cases N] [--seed S] [--large-flink]

Each case writes one or more files into a fresh ``in/`` folder, runs
``flink2spark convert in --out out`` (in this process, as ``tests/test_fuzz_cli.py`` does) and
checks, for every case:

* the command ends normally with status 0, 1 or 2 (no exception, no traceback, no F2S007
  "internal error in the converter");
* nothing is written outside ``out`` and the input files are unchanged;
* every input file is in ``out``, unless it is reported as ``path:line:col: error:`` (and
  then the status is 2); a file without Flink text comes out byte for byte, every other
  output parses (CPython compiles it);
* converting ``out`` again (``--out out2``) exits 0 and changes nothing.

Cases: ``--cases`` random mutations of the ``fixtures/*/*/input.py`` programs (lines deleted,
duplicated or swapped, truncation, random tokens, CRLF, BOM, tabs, NUL and non-UTF-8 bytes,
nesting 150 to 260 deep), 1 to 3 mutations each, then every generator of issue 17 once at full
size (1,300 nested parentheses, lists nested 120 deep, a 250-call DataSet chain, a
25,000-element list literal, a 5 MB file without Flink text; with ``--large-flink`` also a
5 MB Flink file, which takes very long today). It prints the number of cases per mutation kind
and per outcome (exit status and the fuzzed file's report status), and the failures. Exit
status 1 if any case broke a property.

The CI test (``tests/test_fuzz_cli.py``) uses the same mutations and checks through
hypothesis, with a bounded number of cases and smaller generators.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import random
import re
import shutil
import sys
import tempfile
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

REPO = Path(__file__).resolve().parent.parent
FIXTURES = sorted(REPO.glob("fixtures/*/*/input.py"))

# --------------------------------------------------------------------------- mutations of a fixture


def _lines(data: bytes) -> list[bytes]:
    return data.splitlines(keepends=True) or [b""]


def delete_lines(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    start = rng.randrange(len(lines))
    del lines[start : start + rng.randint(1, 3)]
    return b"".join(lines)


def duplicate_lines(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    start = rng.randrange(len(lines))
    chunk = lines[start : start + rng.randint(1, 3)]
    where = rng.randrange(len(lines) + 1)
    return b"".join(lines[:where] + chunk + lines[where:])


def swap_lines(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    return b"".join(lines)


def truncate(data: bytes, rng: random.Random) -> bytes:
    return data[: rng.randrange(len(data) + 1)]  # may cut a UTF-8 character in two


TOKENS = [
    "(", ")", "[", "]", "{", "}", ":", ",", ";", "=", ":=", "->", "*", "**", "@", ".", "...", "\\", "#",
    "'", '"', '"""', "f'{", "\\N{", "0x", "1e", "lambda", "lambda x:", "yield", "await", "async", "def",
    "class", "return", "global x", "nonlocal y", "None", "print", "env", ".map(", ".key_by(", ".output()",
    "import pyflink", "from flink.plan.Environment import get_environment", "# TODO(flink2spark): F2S100 x",
    "\n", "\n    ", "\t", "\r", "\x0c", "\u00e9", "\u200b", "\U0001f600",
]


def random_tokens(data: bytes, rng: random.Random) -> bytes:
    for _ in range(rng.randint(1, 4)):
        where = rng.randrange(len(data) + 1)
        data = data[:where] + rng.choice(TOKENS).encode("utf-8") + data[where:]
    return data


def crlf(data: bytes, rng: random.Random) -> bytes:
    if rng.random() < 0.5:
        return data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")  # every line
    lines = _lines(data)  # mixed: some lines only, or a lone CR
    for i in rng.sample(range(len(lines)), k=min(len(lines), rng.randint(1, 5))):
        lines[i] = lines[i].rstrip(b"\r\n") + rng.choice([b"\r\n", b"\r"])
    return b"".join(lines)


def bom(data: bytes, rng: random.Random) -> bytes:
    data = b"\xef\xbb\xbf" + data
    if rng.random() < 0.3:  # a second one inside the file
        where = rng.randrange(len(data) + 1)
        data = data[:where] + b"\xef\xbb\xbf" + data[where:]
    return data


def tabs(data: bytes, rng: random.Random) -> bytes:
    choice = rng.randrange(3)
    if choice == 0:  # every indentation level a tab
        return re.sub(rb"(?m)^((?:    )+)", lambda m: b"\t" * (len(m.group(1)) // 4), data)
    lines = _lines(data)
    for i in rng.sample(range(len(lines)), k=min(len(lines), rng.randint(1, 4))):
        if choice == 1:  # mixed tabs and spaces
            lines[i] = re.sub(rb"^    ", b"\t", lines[i])
        else:  # a tab somewhere in the line
            cut = rng.randrange(len(lines[i]) + 1)
            lines[i] = lines[i][:cut] + b"\t" + lines[i][cut:]
    return b"".join(lines)


def nul(data: bytes, rng: random.Random) -> bytes:
    where = rng.randrange(len(data) + 1)
    return data[:where] + b"\x00" + data[where:]


def non_utf8(data: bytes, rng: random.Random) -> bytes:
    choice = rng.randrange(3)
    if choice == 0:  # a lone byte that is not UTF-8
        where = rng.randrange(len(data) + 1)
        return data[:where] + bytes([rng.randrange(0x80, 0x100)]) + data[where:]
    if choice == 1:  # the whole file in another encoding
        return data.decode("utf-8", "replace").encode("utf-16")
    return data + "# café\n".encode("latin-1")


def deep_nesting(data: bytes, rng: random.Random) -> bytes:
    """An assignment nested 150 to 260 deep (CPython's parser stops at 200 parentheses)."""
    depth = rng.randint(150, 260)
    opening, closing = rng.choice([("(", ")"), ("[", "]"), ("f(", ")"), ("{1: ", "}")])
    line = f"deep = {opening * depth}1{closing * depth}\n".encode()
    lines = _lines(data)
    where = rng.randrange(len(lines) + 1)
    return b"".join(lines[:where] + [line] + lines[where:])


MUTATIONS: dict[str, Callable[[bytes, random.Random], bytes]] = {
    f.__name__: f
    for f in (
        delete_lines, duplicate_lines, swap_lines, truncate, random_tokens,
        crlf, bom, tabs, nul, non_utf8, deep_nesting,
    )
}


def mutate(data: bytes, kinds: list[str], seed: int) -> bytes:
    rng = random.Random(seed)
    for kind in kinds:
        data = MUTATIONS[kind](data, rng)
    return data


# --------------------------------------------------------------------------- generators (issue 17)

DATASET_HEAD = "from flink.plan.Environment import get_environment\n\nenv = get_environment()\n"
DATASET_TAIL = "env.execute(local=True)\n"


def nested_parentheses(depth: int = 1300, flink: bool = True) -> bytes:
    """Nested parentheses (1,300 deep crashed libcst's parser); CPython rejects more than 200."""
    body = "x = " + "(" * depth + "1" + ")" * depth + "\n"
    return ((DATASET_HEAD if flink else "") + body).encode()


def nested_lists(depth: int = 120) -> bytes:
    """A Flink file with a list literal nested ``depth`` deep, used by the job."""
    return (DATASET_HEAD + "data = " + "[" * depth + "1" + "]" * depth + "\n"
            "env.from_elements(data).output()\n" + DATASET_TAIL).encode()


def call_chain(calls: int = 250) -> bytes:
    """A DataSet chain of ``calls`` ``.map(...)`` calls."""
    chain = "".join(f"    .map(lambda x: x + {i})\n" for i in range(calls))
    return (DATASET_HEAD + "(\n    env.from_elements(1, 2, 3)\n" + chain + "    .output()\n)\n" + DATASET_TAIL).encode()


def long_list(elements: int = 25_000) -> bytes:
    """A Flink file with an ``elements``-element list literal (25,000 take about 30 s today)."""
    items = ", ".join(str(i) for i in range(elements))
    return (DATASET_HEAD + f"data = [{items}]\nenv.from_elements(*data).output()\n" + DATASET_TAIL).encode()


def large_file(size: int = 5 << 20, flink: bool = False) -> bytes:
    """A file of ``size`` bytes: plain Python (copied byte for byte), or a Flink job's statements repeated."""
    if flink:
        line = "env.from_elements(1, 2, 3).map(lambda x: x * 2).output()\n"
        head = DATASET_HEAD
    else:
        line = "VALUES = [1, 2, 3]  # no Stream API text here, only plain Python\n"
        head = "import os\n"
    return (head + line * ((size - len(head)) // len(line))).encode()


def generators(full: bool, large_flink: bool = False) -> dict[str, bytes]:
    """Every generator of issue 17, at full size or at the size the CI test uses."""
    cases = {
        "nested_parentheses": nested_parentheses(1300),
        "nested_parentheses_plain": nested_parentheses(1300, flink=False),
        "nested_lists": nested_lists(120),
        "call_chain": call_chain(250),
        "long_list": long_list(25_000 if full else 2_000),
        "large_plain": large_file(5 << 20),
    }
    if large_flink:
        cases["large_flink"] = large_file(5 << 20, flink=True)
    return cases


# --------------------------------------------------------------------------- running and checking


class PropertyBroken(AssertionError):
    """A fuzz case broke one of the properties checked by ``check_run``."""


@dataclass
class Run:
    exit_code: int
    stdout: str
    stderr: str


def run_cli(args: list[str], cwd: Path, in_process: bool = True) -> Run:
    """``flink2spark ARGS`` from ``cwd``: in this process (an exception propagates) or as the installed command."""
    if in_process:
        from typer.testing import CliRunner

        from flink2spark.cli import app

        before = os.getcwd()
        os.chdir(cwd)
        try:
            result = CliRunner().invoke(app, args, catch_exceptions=False)
        finally:
            os.chdir(before)
        return Run(result.exit_code, result.stdout, result.stderr)
    import subprocess

    command = Path(sys.executable).parent / "flink2spark"
    proc = subprocess.run([str(command), *args], cwd=cwd, capture_output=True, text=True)
    return Run(proc.returncode, proc.stdout, proc.stderr)


def snapshot(folder: Path, skip: tuple[Path, ...] = ()) -> dict[str, bytes]:
    """Every file below ``folder`` (relative name -> bytes), not entering the ``skip`` folders."""
    found = {}
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames[:] = [d for d in dirnames if Path(dirpath, d) not in skip]
        for name in filenames:
            path = Path(dirpath, name)
            found[str(path.relative_to(folder))] = path.read_bytes()
    return found


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise PropertyBroken(message)


def compiles(data: bytes) -> bool:
    with warnings.catch_warnings():  # an input's own oddities ('str' object is not callable...)
        warnings.simplefilter("ignore")
        try:
            compile(data, "<output>", "exec", dont_inherit=True)
        except (SyntaxError, ValueError):
            return False
    return True


@dataclass
class Outcome:
    exit_code: int
    statuses: dict[str, str] = field(default_factory=dict)  # input name -> report status (or error code)

    def label(self) -> str:
        return f"exit {self.exit_code}: " + ", ".join(sorted(set(self.statuses.values())))


def convert_and_check(work: Path, files: dict[str, bytes], in_process: bool = True) -> Outcome:
    """Write ``files`` under ``work/in``, convert to ``work/out``, check every property (see above)."""
    src, out, out2, meta = work / "in", work / "out", work / "out2", work / "meta"
    for name, data in files.items():
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        (src / name).write_bytes(data)
    meta.mkdir()
    (work / "cwd").mkdir()  # the working folder of the runs: nothing may be written there either
    report = meta / "report.json"
    before = snapshot(work, skip=(meta,))
    run = run_cli(["convert", str(src), "--out", str(out), "--report", str(report)], work / "cwd", in_process)
    what = f"exit {run.exit_code}\n{run.stderr[-3000:]}"
    _require(run.exit_code in (0, 1, 2), f"unexpected exit status: {what}")
    _require("Traceback" not in run.stderr + run.stdout, f"traceback: {what}")
    _require("internal error in the converter" not in run.stderr, f"converter crash (F2S007): {what}")
    after = snapshot(work, skip=(meta, out))
    _require(after == before, f"files outside --out written or inputs changed: {sorted(set(after) ^ set(before))}")

    written = snapshot(out) if out.exists() else {}
    errors = set(re.findall(r"^(.*?):\d+:\d+: error: ", run.stderr, re.M))
    statuses = {}
    for entry in json.loads(report.read_text("utf-8"))["files"]:
        name = str(Path(entry["path"]).relative_to(src))
        codes = [m["code"] for m in entry["markers"] if m["severity"] == "error"]
        statuses[name] = entry["status"] + (f" {codes[0]}" if codes else "")
    for name, data in files.items():
        if name not in written:
            _require(str(src / name) in errors and statuses.get(name, "").startswith("error"),
                     f"{name}: missing from --out without an error: {what}")
        elif b"flink" not in data:
            _require(written[name] == data, f"{name}: a file without Flink text was not copied byte for byte")
        else:
            _require(compiles(written[name]), f"{name}: the output does not parse")
    _require(set(written) <= set(files), f"unexpected files in --out: {sorted(set(written) - set(files))}")
    _require((run.exit_code == 2) == bool(errors), f"exit status and error lines disagree: {what}")

    if written:
        again = run_cli(["convert", str(out), "--out", str(out2), "--quiet"], work / "cwd", in_process)
        _require(again.exit_code == 0, f"converting the output again: exit {again.exit_code}\n{again.stderr[-3000:]}")
        _require(snapshot(out2) == written, "converting the output again changed it: "
                 + str(sorted(n for n, d in snapshot(out2).items() if written.get(n) != d)))
    return Outcome(run.exit_code, statuses)


def random_case(rng: random.Random) -> tuple[Path, list[str], int]:
    """A fixture, 1 to 3 mutation kinds and a seed for their parameters (what the CI test draws too)."""
    fixture = rng.choice(FIXTURES)
    kinds = [rng.choice(sorted(MUTATIONS)) for _ in range(rng.randint(1, 3))]
    return fixture, kinds, rng.randrange(2**32)


def fixture_files(fixture: Path, kinds: list[str], seed: int) -> dict[str, bytes]:
    """The mutated fixture, beside a plain module in a sub-folder (a small tree)."""
    return {"fuzzed.py": mutate(fixture.read_bytes(), kinds, seed), "pkg/plain.py": b"VALUES = [1, 2]\n"}


# --------------------------------------------------------------------------- command line

GENERATOR_LABELS: set[str] = set()  # cases whose time is printed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=200, help="random mutation cases (default 200)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the random cases (default 0)")
    parser.add_argument("--large-flink", action="store_true", help="also convert a 5 MB Flink file (very slow)")
    args = parser.parse_args(argv)

    rng = random.Random(args.seed)
    per_kind: collections.Counter = collections.Counter()
    per_outcome: collections.Counter = collections.Counter()
    failures: list[str] = []
    started = time.perf_counter()

    def one(label: str, kinds: list[str], files: dict[str, bytes], reproduce: str) -> None:
        with tempfile.TemporaryDirectory(prefix="f2s-fuzz-") as tmp:
            begin = time.perf_counter()
            try:
                outcome = convert_and_check(Path(tmp), files)
                per_outcome[f"{outcome.exit_code} / {outcome.statuses.get('fuzzed.py', 'empty: skipped')}"] += 1
            except PropertyBroken as broken:
                per_outcome["PROPERTY BROKEN"] += 1
                failures.append(f"{label} ({reproduce}): {broken}")
            per_kind.update(kinds)
            if label in GENERATOR_LABELS:
                print(f"{label}: {time.perf_counter() - begin:.1f} s", file=sys.stderr)

    for case in range(args.cases):
        fixture, kinds, seed = random_case(rng)
        reproduce = f"mutate({fixture.relative_to(REPO)}, {kinds}, {seed})"
        one(f"case {case}", kinds, fixture_files(fixture, kinds, seed), reproduce)
    for name, data in generators(full=True, large_flink=args.large_flink).items():
        GENERATOR_LABELS.add(name)
        one(name, [name], {"fuzzed.py": data}, f"generators(full=True)[{name!r}]")

    tried = sum(per_outcome.values())
    print(f"{tried} cases tried ({args.cases} random with seed {args.seed}, {tried - args.cases} generators) "
          f"in {time.perf_counter() - started:.0f} s")
    print("per mutation kind (a case may have several):")
    for kind, count in sorted(per_kind.items()):
        print(f"  {kind:28} {count}")
    print("per outcome (exit status / report status of the fuzzed file):")
    for label, count in sorted(per_outcome.items()):
        print(f"  {label:28} {count}")
    for failure in failures:
        print("FAILED", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
