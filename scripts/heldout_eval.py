"""Measure the converter on PyFlink programs written by others (held out from the fixtures).

    .venv/bin/python scripts/heldout_eval.py DIR [DIR ...] [--run] [--json OUT.json]

Every ``*.py`` under each DIR is one program.  For each it reports:

* ``clean``: converted with no TODO marker outside Table API parts (TODO F2S210, and F2S208
  on imports that only the Table API part uses, belong to the Table API step);
* ``parses``: the output compiles;
* ``imports_marked``: every ``pyflink`` import left in the output has a TODO beside it;
* ``idempotent``: converting the output again gives the same bytes;
* for Structured Streaming outputs, that every PySpark method, function and Kafka option they
  call exists in the installed PySpark (the checker of ``tests/test_pyflink_streaming.py``).

With ``--run``, each *bounded* program (one whose conversion uses no Structured Streaming
shim and no connector source; see ``_bounded``) also runs on the reference Flink
(``.venv-flink``, ``scripts/flink_reference.sh``) and, converted, on local Spark (this
interpreter): the records both print (normalized with ``tests/flink_reference.py``) and the
files both write under the output folder (``--output``/``--output_path``/``--output-path``
options are given a fresh folder when the program declares them) are compared as multisets.
A program with TODOs left is run too, but counts as different unless it runs and matches; a
program that fails on Flink itself (an older PyFlink API, a missing input or jar) is counted
apart, not compared.

The programs are not part of the repository: they are read where they are (Flink's own
examples ship in ``.venv-flink/lib/python3*/site-packages/pyflink/examples/datastream``).
``--keep DIR`` writes both stdouts of each compared program to DIR (``NAME.flink.txt``,
``NAME.spark.txt``), to read why records differ.
Exit status: 0 always (a measurement, not a test); the summary is on the last lines.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))

from flink_reference import (  # noqa: E402
    _CHATTER as CHATTER,
    FlinkRunError,
    normalize_flink_print,
    normalize_time_buckets,
    read_output_files,
    run_on_flink,
)

from flink2spark.transpiler.engine import convert_source  # noqa: E402

TABLE_API = re.compile(r"Table API")
# sources that make a program unbounded, and connectors to services that are not here
UNBOUNDED = re.compile(
    r"f2s_stream|KafkaSource|FlinkKafkaConsumer|FlinkKafkaProducer|KafkaSink|Pulsar|Kinesis|"
    r"Elasticsearch|Jdbc|RabbitMQ|Cassandra|socket_text_stream|monitor_continuously|"
    r"add_source\(|datagen|'kafka'|\"kafka\""
)
KEEP: Path | None = None  # --keep: where both stdouts of each compared program are written
OUTPUT_OPTION = re.compile(r"""['"](--output(?:[_-]path)?)['"]""")


def _todo_outside_table_api(markers) -> list[str]:
    out = []
    for m in markers:
        if m.severity != "todo":
            continue
        if m.code == "F2S210" or (m.code == "F2S208" and TABLE_API.search(m.message)):
            continue
        out.append(f"{m.code}@{m.line}")
    return out


def _imports_marked(output: str) -> bool:
    lines = output.splitlines()
    for i, line in enumerate(lines):
        if re.match(r"\s*(from|import)\s+pyflink\b", line):
            above = lines[i - 1] if i else ""
            if "TODO(flink2spark)" not in above and "TODO(flink2spark)" not in line:
                return False
    return True


def _bounded(source: str, output: str) -> bool:
    """Runnable here on both engines: finite sources, no external service."""
    return not UNBOUNDED.search(source) and not UNBOUNDED.search(output)


def _args(source: str, out_dir: Path) -> list[str]:
    m = OUTPUT_OPTION.search(source)
    return [m.group(1), str(out_dir / "out")] if m else []


def _run_spark(program: Path, args: list[str], timeout: float = 600, cwd: Path | None = None) -> str:
    env = dict(os.environ)
    env["PYSPARK_PYTHON"] = sys.executable
    env["PYSPARK_DRIVER_PYTHON"] = sys.executable
    proc = subprocess.run(
        [sys.executable, str(program), *args],
        cwd=cwd if cwd is not None else program.parent,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )
    if proc.returncode != 0:
        tail = "\n".join(proc.stderr.splitlines()[-15:])
        raise RuntimeError(f"exit {proc.returncode}\n{tail}")
    return proc.stdout


def _converted_tree(root: Path, dest: Path) -> None:
    """``root`` copied to ``dest`` with every Python file converted (a job and its modules)."""
    for path in sorted(root.rglob("*")):
        target = dest / path.relative_to(root)
        if path.is_dir():
            target.mkdir(parents=True, exist_ok=True)
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        if path.suffix == ".py":
            result = convert_source(path.read_text(), str(path))
            target.write_text(result.output if result.output is not None else path.read_text())
        else:
            shutil.copyfile(path, target)


def _output_files(root: Path) -> dict[str, list[str]]:
    """``read_output_files`` of the records a program wrote (not the engines' own files), the
    part files of a folder merged whatever their names."""
    merged: dict[str, list[str]] = {}
    for key, lines in read_output_files(root, own_files=False).items():  # Flink's part-<uuid>-<n>, Spark's part-<n>-<uuid>-c000.txt
        folder, _, name = key.rpartition("/")
        merged.setdefault(f"{folder}/part-*" if name.startswith("part-") else key, []).extend(lines)
    return {k: sorted(v) for k, v in merged.items()}


def _without_chatter(stdout: str) -> str:
    """``stdout`` less the engines' chatter lines (PyFlink's type-extraction and Beam probes,
    py4j's gateway) that ``normalize_flink_print`` drops too: they are not records."""
    return "\n".join(line for line in stdout.splitlines() if not any(p.search(line) for p in CHATTER))


def _same_table_records(flink_stdout: str, spark_stdout: str) -> bool:
    """Whether both prints hold the same records as the table fixtures read them
    (``tests/table_output.py``: Flink's tableau boxes and print-connector changelogs folded into
    the final table, Spark's ``show()`` boxes)."""
    from table_output import ChangelogError, flink_records, spark_records

    flink_stdout, spark_stdout = _without_chatter(flink_stdout), _without_chatter(spark_stdout)
    try:
        return flink_records(flink_stdout) == spark_records(spark_stdout)
    except ChangelogError:
        return False


def _same_stream_records(flink_stdout: str, spark_stdout: str) -> bool:
    """Whether both prints hold the same DataStream records as the PyFlink fixtures read them
    (``tests/table_output.py``: Flink's per-type print lines against a converted RDD stream's
    ``print(record)`` in Python's form, or a DataFrame's ``show()`` boxes), as values."""
    from table_output import flink_stream_records, spark_stream_records

    return flink_stream_records(normalize_flink_print(flink_stdout)) == spark_stream_records(spark_stdout, normalize_flink_print)


def _compare(
    path: Path, source: str, output: str, work: Path, root: Path | None = None, args: list[str] = (), cwd: Path | None = None
) -> tuple[bool, str]:
    spark_cwd = None
    if root is None:
        converted = work / "converted" / path.name
        converted.parent.mkdir(parents=True, exist_ok=True)
        converted.write_text(output)
    else:
        _converted_tree(root, work / "converted")
        converted = work / "converted" / path.relative_to(root)
        spark_cwd = work / "converted" / cwd.relative_to(root) if cwd is not None else None
    flink_out, spark_out = work / "flink", work / "spark"
    try:
        flink_stdout = run_on_flink(path, [*args, *_args(source, flink_out)], timeout=600, cwd=cwd)
    except FlinkRunError as exc:
        lines = [ln for ln in str(exc).splitlines() if ln.strip()]
        return False, f"Flink failed: {lines[-1] if lines else exc}"
    try:
        spark_stdout = _run_spark(converted, [*args, *_args(source, spark_out)], cwd=spark_cwd)
    except (RuntimeError, subprocess.TimeoutExpired) as exc:
        return False, f"Spark failed: {exc}"
    if KEEP is not None:
        KEEP.mkdir(parents=True, exist_ok=True)
        (KEEP / f"{path.stem}.flink.txt").write_text(flink_stdout)
        (KEEP / f"{path.stem}.spark.txt").write_text(spark_stdout)
    want = Counter(normalize_flink_print(flink_stdout))
    got = Counter(normalize_flink_print(spark_stdout))
    files_want = normalize_time_buckets(_output_files(flink_out)) if flink_out.exists() else {}
    files_got = normalize_time_buckets(_output_files(spark_out)) if spark_out.exists() else {}
    if want != got and (_same_table_records(flink_stdout, spark_stdout) or _same_stream_records(flink_stdout, spark_stdout)):
        want = got  # Table API prints (tableau boxes, +I/-U changelogs folded) against show() boxes; Flink's
        # DataStream print format against Python's print(record)
    if want != got:
        missing = sorted((want - got).elements())[:5]
        extra = sorted((got - want).elements())[:5]
        return False, f"print differs: missing {missing} extra {extra}"
    if files_want != files_got:
        return False, f"files differ: {sorted(files_want)} vs {sorted(files_got)}"
    return True, f"{sum(want.values())} records, {sum(len(v) for v in files_want.values())} file lines"


def evaluate(paths: list[Path], run: bool, roots: dict[Path, tuple[Path, list[str], Path | None]] | None = None) -> list[dict]:
    """``roots``: for a program that is part of a repository, (the repository's folder, the
    arguments it runs with, the folder it runs in): its modules are converted with it and its
    data files copied."""
    rows = []
    roots = roots or {}
    for path in paths:
        source = path.read_text()
        row: dict = {"file": str(path)}
        try:
            result = convert_source(source, str(path))
        except Exception as exc:  # a converter crash is a finding, not a stop
            row.update(error=f"converter crashed: {exc!r}", clean=False)
            rows.append(row)
            print(f"{path}: converter crashed: {exc!r}", flush=True)
            continue
        output = result.output if result.output is not None else source
        todo = _todo_outside_table_api(result.markers)
        try:
            compile(output, str(path), "exec")
            parses = True
        except SyntaxError:
            parses = False
        again = convert_source(output, str(path)).output if result.output is not None else output
        api_problems = None
        if "f2s_stream" in output and parses:  # Structured Streaming code: every method and option exists
            from test_pyflink_streaming import _Checker

            checker = _Checker()
            checker.visit(ast.parse(output))
            api_problems = checker.problems
        row.update(
            spark_api_problems=api_problems,
            status=result.status,
            todo=todo,
            clean=not todo,
            parses=parses,
            imports_marked=_imports_marked(output),
            idempotent=again == output,
            bounded=_bounded(source, output),
        )
        if run and row["bounded"]:
            with tempfile.TemporaryDirectory(prefix="heldout-") as tmp:
                root, args, cwd = roots.get(path, (None, [], None))
                row["same"], row["detail"] = _compare(path, source, output, Path(tmp), root, args, cwd)
        rows.append(row)
        flags = " ".join(k for k in ("parses", "imports_marked", "idempotent") if not row[k])
        if api_problems:
            flags += f" spark-api-ok ({'; '.join(api_problems)})"
        same = "" if "same" not in row else (" same" if row["same"] else f" DIFFERENT ({row['detail']})")
        print(
            f"{path}: {'clean' if not todo else 'TODO ' + ','.join(todo)}"
            f"{' bounded' if row['bounded'] else ''}{same}{' NOT ' + flags if flags else ''}",
            flush=True,
        )
    return rows


def summary(rows: list[dict]) -> str:
    n = len(rows)
    clean = sum(r.get("clean", False) for r in rows)
    parses = sum(r.get("parses", False) for r in rows)
    marked = sum(r.get("imports_marked", False) for r in rows)
    idem = sum(r.get("idempotent", False) for r in rows)
    lines = [
        f"programs: {n}",
        f"no TODO outside Table API parts: {clean}/{n} ({100 * clean / max(n, 1):.0f}%)",
        f"outputs parse: {parses}/{n}; Flink imports all marked: {marked}/{n}; idempotent: {idem}/{n}",
    ]
    streaming = [r for r in rows if r.get("spark_api_problems") is not None]
    if streaming:
        ok = sum(not r["spark_api_problems"] for r in streaming)
        lines.append(f"Structured Streaming outputs whose every PySpark method and option exists: {ok}/{len(streaming)}")
    ran = [r for r in rows if "same" in r]
    broken = [r for r in ran if r["detail"].startswith("Flink failed")]
    ran = [r for r in ran if r not in broken]
    if ran:
        same = sum(r["same"] for r in ran)
        lines.append(f"bounded, same records on Spark as on Flink 2.3: {same}/{len(ran)} ({100 * same / len(ran):.0f}%)")
    if broken:
        lines.append(f"bounded, not compared (they fail on Flink 2.3 itself): {len(broken)}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dirs", nargs="+", type=Path)
    parser.add_argument("--run", action="store_true", help="run bounded programs on Flink and Spark")
    parser.add_argument("--json", type=Path, help="write the per-program rows here")
    parser.add_argument(
        "--manifest",
        action="store_true",
        help="each DIR holds manifest.json: [{program, args, cwd}] with paths relative to DIR, the "
        "program's first folder being its repository (its other modules and data files); cwd "
        "(default: the program's folder) is where it runs",
    )
    parser.add_argument("--keep", type=Path, help="write both stdouts of each compared program here")
    args = parser.parse_args(argv)
    global KEEP
    KEEP = args.keep
    paths: list[Path] = []
    roots: dict[Path, tuple[Path, list[str], Path | None]] = {}
    for d in args.dirs:
        if args.manifest:
            for entry in json.loads((d / "manifest.json").read_text()):
                program = (d / entry["program"]).resolve()
                paths.append(program)
                cwd = (d / entry["cwd"]).resolve() if entry.get("cwd") else None
                roots[program] = ((d / Path(entry["program"]).parts[0]).resolve(), list(entry.get("args", [])), cwd)
        else:
            paths += [d] if d.is_file() else sorted(p for p in d.rglob("*.py") if "__pycache__" not in p.parts)
    rows = evaluate(paths, args.run, roots)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2))
    print(summary(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
