"""Run PyFlink programs on real Flink (the reference engine) and normalize what they print.

The reference interpreter is ``.venv-flink/bin/python`` at the repo root, created by
``scripts/flink_reference.sh`` (PyPI ``apache-flink==2.3.0`` in its own virtualenv, never a
dependency of the tool).  ``FLINK_REFERENCE_PYTHON`` overrides the interpreter path.

API
---
``flink_available()``                  the reference venv exists and imports pyflink.
``run_on_flink(program, args)``        runs ``program`` with the reference interpreter in a
                                       subprocess (cwd = the program's folder) and returns its
                                       stdout, i.e. what its sinks printed (raw, not normalized).
``normalize_flink_print(lines)``       stdout text or lines -> records without ``N> `` prefixes
                                       and engine chatter, ready for a multiset comparison.
``read_output_files(root)``            what a FileSink wrote under ``root``, with the random part
                                       file names (``part-<uuid>-<n>``) taken out.
``records_by_folder(files)``           those lines per folder, whatever the files' names (the
                                       records a sink wrote, not how it named its part files).
``run_fixture_raw(fixture)``           a fixtures/table/ program's raw stdout and written files;
                                       ``python tests/flink_reference.py --set table [NAME ...]``
                                       records them (tests/table_output.py reads the raw text).

Findings on local PyFlink 2.3.0 (mini cluster, Java 17, measured on a 2-core machine)
-------------------------------------------------------------------------------------
Where output goes
    ``python program.py`` starts a JVM (py4j gateway, a child process) that runs the job in a
    local mini cluster; Python UDFs run in a separate Python worker process (Beam, "process"
    mode).  The JVM and the worker inherit the client's stdout, so *everything the job prints
    ends up on the client process's stdout*: the ``print()`` sink (Java ``PrintSinkFunction``,
    ``System.out``), ``print()`` calls inside UDFs (unprefixed, interleaved) and ``print()`` in
    the client (e.g. over ``execute_and_collect``).  Nothing of the job goes to stderr; Flink's
    logs go to files in ``$FLINK_LOG_DIR`` (default: ``site-packages/pyflink/log/``, which
    this module redirects to a temporary folder per run), so stdout carries no log lines.
    stderr only gets Python tracebacks / warnings.

    Worker start: PyFlink launches its Python workers with ``python`` *from PATH*
    (``python.executable`` defaults to ``"python"``), not with ``sys.executable``; without the
    venv's ``bin`` on PATH the job fails with ``ModuleNotFoundError: No module named 'pyflink'``.
    ``run_on_flink`` prepends it.  Java is found through ``JAVA_HOME`` or else ``java`` on PATH.

Prefixes (Java ``PrintSinkOutputWriter``)
    sink parallelism 1, no identifier:   ``+I[1,a]``
    sink parallelism 1, ``print("out")``: ``out> +I[1,a]``
    sink parallelism > 1:                ``1> +I[1,a]``  (subtask index + 1)
    sink parallelism > 1, identifier:    ``out:2> +I[1,a]``
    The default parallelism is the number of cores (2 here), so programs without
    ``env.set_parallelism(1)`` print ``1> ``/``2> `` prefixes and their order is
    nondeterministic.  ``KeyedStream.print(identifier)`` silently *drops* the identifier
    (``KeyedStream.print`` calls ``self._values().print()``).

Record formats (what the sink prints after the prefix; all seen on PyFlink 2.3.0)
    Types.ROW / ROW_NAMED  -> ``+I[1,a]``   PyFlink turns rows into strings in Python before the
                              Java sink: ``'{}[{}]'.format(row_kind, ','.join(str(v) ...))``.
                              No space after commas, strings unquoted, field names never shown,
                              null -> ``None``, booleans ``True``, floats by Python ``str``
                              (``2.5``, ``1e-05``; a Types.FLOAT field 1.1 -> ``1.100000023841858``),
                              a nested row -> ``Row(f0=2, f1='x')``.
    Types.TUPLE            -> ``(keyboard,101)``  Java ``Tuple.toString()``: no space, unquoted,
                              null -> ``null``, booleans ``true``.
    pickled (no type_info / no output_type) -> Python ``str(value)``: tuple ``('tail', 19)``,
                              str ``x y`` (unquoted), int ``1``, float ``1e+20``, ``True``,
                              ``None``, list ``[1, 2]``, positional Row ``<Row(1, 'a')>``, named
                              Row ``Row(id=1, name='a')``.
    Types.STRING / INT / LONG / DOUBLE / FLOAT -> Java ``toString``: ``x y``, ``202``, ``19.0``,
                              ``1.0E-5``, ``1.0E20``.
    Types.MAP              -> ``{a=1}`` (Java ``HashMap.toString``).
    ``execute_and_collect()`` yields Python objects (and runs the job itself); the client's own
    ``print`` gives Python reprs: Types.ROW -> ``Row(f0=1, f1='a')`` (fields f0, f1, ...),
    ROW_NAMED -> ``Row(id=1, name='a')``, Types.TUPLE -> ``(1, 'a')``; ``limit=n`` returns a list.

Traps seen while writing the fixtures
    * ``from_collection([1, 2], type_info=Types.DOUBLE())``: Python ints are not widened; the
      job fails with a NullPointerException.  ``Types.LIST(...)`` in ``from_collection`` fails at
      graph building (ClassCastException Object[] -> List).
    * Chained Python operators pass their Python objects on unchanged: ``output_type`` does not
      convert them.  A positional ``Row(w, 1)`` under ``output_type=ROW_NAMED`` has no field
      names downstream (``r.word`` -> AttributeError: _fields), and tuples under
      ``output_type=Types.ROW`` make ``print()`` fail (``assert isinstance(value, Row)``).
    * ``KeyedStream.print(identifier)`` drops the identifier.
    * In BATCH mode Flink 2.x's adaptive batch scheduler picks the parallelism from the data
      size: a tiny job prints without ``N> `` prefixes although no parallelism was set.

Example (``env.set_parallelism(2)``)::

    >>> normalize_flink_print("2> +I[1,a]\\nsum:1> (b,3)\\n1> hello\\n")
    ['+I[1,a]', '(b,3)', 'hello']

Install (scripts/flink_reference.sh): ~30 s from a fast package mirror (pip downloads 422 MB of
wheels, 314 MB of which is apache-flink-libraries), 842 MB on disk.  One program run costs
about 6-8 s (JVM mini cluster + Python worker start), whatever its size.
"""

from __future__ import annotations

import functools
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Iterable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
FLINK_VENV = REPO / ".venv-flink"
SETUP_SCRIPT = REPO / "scripts" / "flink_reference.sh"


class FlinkRunError(RuntimeError):
    """A PyFlink program failed, timed out, or the reference interpreter is missing."""

    def __init__(self, message: str, stdout: str = "", stderr: str = "", log: str = ""):
        super().__init__(message)
        self.stdout = stdout
        self.stderr = stderr
        self.log = log


def flink_python() -> Path:
    """Path of the reference interpreter (may not exist)."""
    override = os.environ.get("FLINK_REFERENCE_PYTHON")
    return Path(override) if override else FLINK_VENV / "bin" / "python"


@functools.lru_cache(maxsize=None)
def _imports_pyflink(python: str) -> bool:
    try:
        proc = subprocess.run(
            [python, "-c", "import pyflink.datastream"],
            capture_output=True,
            timeout=120,
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return proc.returncode == 0


def flink_available() -> bool:
    """True when the reference venv exists and imports pyflink."""
    python = flink_python()
    return python.is_file() and _imports_pyflink(str(python))


def _java_home() -> str | None:
    home = os.environ.get("JAVA_HOME")
    if home and (Path(home) / "bin" / "java").exists():
        return home
    java = shutil.which("java")
    if java:
        return str(Path(java).resolve().parent.parent)
    return None


def flink_env(log_dir: str | None = None) -> dict[str, str]:
    """Environment for the reference interpreter and the workers it starts."""
    python = flink_python()
    env = dict(os.environ)
    for var in ("PYTHONPATH", "PYTHONHOME", "PYSPARK_PYTHON", "PYSPARK_DRIVER_PYTHON"):
        env.pop(var, None)
    # PyFlink starts its Python workers as `python` from PATH.
    env["PATH"] = str(python.parent) + os.pathsep + env.get("PATH", "")
    env["VIRTUAL_ENV"] = str(python.parent.parent)
    env["PYTHONUNBUFFERED"] = "1"
    env["PYTHONHASHSEED"] = "0"
    java_home = _java_home()
    if java_home:
        env["JAVA_HOME"] = java_home
    if log_dir:
        env["FLINK_LOG_DIR"] = log_dir
    return env


def _read_logs(log_dir: str, limit: int = 6000) -> str:
    text = []
    for path in sorted(Path(log_dir).glob("*")):
        if path.is_file():
            text.append(path.read_text(errors="replace"))
    joined = "\n".join(text)
    return joined[-limit:]


def run_on_flink(
    program: Path, args: list[str] | tuple[str, ...] = (), timeout: float = 300, cwd: Path | None = None
) -> str:
    """Run a PyFlink program on the reference interpreter and return its stdout.

    The program runs with cwd = its folder (or ``cwd``).  Raises ``FlinkRunError`` (with stdout, stderr and
    the tail of Flink's log) when the interpreter is missing, the program exits non-zero, or it
    runs longer than ``timeout`` seconds (the whole process group, JVM included, is killed).
    """
    program = Path(program).resolve()
    python = flink_python()
    if not flink_available():
        raise FlinkRunError(
            f"reference Flink interpreter not available at {python}; run {SETUP_SCRIPT}"
        )
    with tempfile.TemporaryDirectory(prefix="flink-log-") as log_dir:
        proc = subprocess.Popen(
            [str(python), str(program), *map(str, args)],
            cwd=cwd if cwd is not None else program.parent,
            env=flink_env(log_dir),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,  # own process group: the JVM and workers die with it
        )
        try:
            stdout, stderr = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            _kill_group(proc)
            stdout, stderr = proc.communicate()
            raise FlinkRunError(
                f"{program} timed out after {timeout} s",
                stdout,
                stderr,
                _read_logs(log_dir),
            ) from None
        finally:
            _kill_group(proc)  # stray workers, if any
        if proc.returncode != 0:
            raise FlinkRunError(
                f"{program} exited with {proc.returncode}:\n{_tail(stderr)}",
                stdout,
                stderr,
                _read_logs(log_dir),
            )
    return stdout


def _kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _tail(text: str, lines: int = 40) -> str:
    return "\n".join(text.splitlines()[-lines:])


# `N> ` or `identifier:N> ` (sink parallelism > 1).  The identifier is whatever was passed to
# print(); brackets and parentheses are excluded so that record text is never taken for it.
_SUBTASK_PREFIX = re.compile(r"^(?:[^\[\](){}<>:\n]+:)?\d+> ")
# `identifier> ` (sink parallelism 1 with an identifier): only word-like identifiers.
_IDENT_PREFIX = re.compile(r"^[A-Za-z_][\w.\- ]*> ")
# Engine chatter that may reach stdout in other setups (log4j console appenders, JVM and
# Python warnings, `flink run` client messages).  Local PyFlink 2.3 prints none of it on stdout.
_CHATTER = [
    re.compile(r"^\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d"),  # log4j / logging timestamps
    re.compile(r"^\d\d:\d\d:\d\d[.,]\d+ "),
    re.compile(r"^(?:SLF4J|log4j|Picked up (?:JAVA_TOOL_OPTIONS|_JAVA_OPTIONS))[:( ]"),
    re.compile(r"^(?:WARNING|WARN|ERROR|INFO|DEBUG|TRACE)(?::| -|\s+\S+\s+\[)"),
    re.compile(r"^\s+at [\w$.<>]+\(.*\)$"),  # Java stack frames
    re.compile(r"^\S+\.py:\d+: \w*Warning: "),  # Python warnings
    re.compile(r"^Job has been submitted with JobID [0-9a-f]+$"),
    re.compile(r"^Program execution finished$"),
    re.compile(r"^Job with JobID [0-9a-f]+ has finished\.$"),
    re.compile(r"^Job Runtime: \d+ ms$"),
    # Python library log records, printed bare by programs that call
    # logging.basicConfig(stream=sys.stdout, format="%(message)s"): PyFlink's type
    # extraction and optional-module probes, py4j's gateway (Flink and Spark alike)
    re.compile(r"^Using Any for unsupported type: "),
    # (Beam's probe, bare or with its sentence on ReadFromBigQuery)
    re.compile(r"^No module named '?google\.cloud\.bigquery_storage_v1'?(?:$|\. As a result, the ReadFromBigQuery transform )"),
    re.compile(r"^PYFLINK_CYTHON_ENABLED"),
    re.compile(r"^(?:Closing down clientserver connection|Callback Server Starting|Socket listening on|Error while receiving\.|Closing down callback connection)"),
]


def normalize_flink_print(
    lines: str | Iterable[str], identifiers: Iterable[str] | None = None
) -> list[str]:
    """Records printed by Flink sinks, without prefixes and engine chatter, in input order.

    ``lines`` is stdout text or its lines.  Strips ``N> `` and ``identifier:N> `` always; strips
    ``identifier> `` (parallelism-1 sink with an identifier) for the given ``identifiers``, or,
    when none are given, for any word-like identifier (``[A-Za-z_][\\w.- ]*``).  Drops empty
    lines, log lines, Java stack frames, Python warnings.  Compare the result as a multiset
    (``sorted()`` or ``collections.Counter``): with parallelism > 1 the order is arbitrary.
    """
    if isinstance(lines, str):
        lines = lines.splitlines()
    idents = None if identifiers is None else tuple(f"{i}> " for i in identifiers)
    out = []
    for raw in lines:
        line = raw.rstrip("\r\n")
        if not line.strip() or any(p.search(line) for p in _CHATTER):
            continue
        m = _SUBTASK_PREFIX.match(line)
        if m:
            line = line[m.end():]
        elif idents is not None:
            for ident in idents:
                if line.startswith(ident):
                    line = line[len(ident):]
                    break
        else:
            m = _IDENT_PREFIX.match(line)
            if m:
                line = line[m.end():]
        out.append(line)
    return out


# <prefix>-<uuid>-<n><suffix> (FileSink part files) and part-<uuid>-task-<n>-file-<n><suffix>
# (the Table API filesystem connector's) -> <prefix>-UUID-N<suffix>; in-progress
# files (.<prefix>-<uuid>-<n><suffix>.inprogress.<uuid>) would keep their name: a sign that
# the sink never committed.
_PART_FILE = re.compile(
    r"^(?P<prefix>.*?)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?:-task-\d+-file-\d+|-\d+)(?P<suffix>.*)$"
)


def read_output_files(root: Path, own_files: bool = True) -> dict[str, list[str]]:
    """Lines written under ``root``, by relative path, with part file names normalized
    (``own_files=False``: without the files an engine keeps for itself, whose names start with
    ``.`` or ``_``: Spark's ``.crc`` checksums and ``_SUCCESS``, Flink's in-progress parts).

    All part files of one folder and name pattern are merged:
    ``{"clean/readings-UUID-N.csv": sorted lines}``.  Lines are sorted (the split of records between part files is arbitrary).
    """
    root = Path(root)
    merged: dict[str, list[str]] = {}
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        rel = path.relative_to(root)
        if not own_files and any(part.startswith((".", "_")) for part in rel.parts):
            continue
        m = _PART_FILE.match(rel.name)
        name = f"{m['prefix']}-UUID-N{m['suffix']}" if m else rel.name
        key = str(rel.parent / name) if str(rel.parent) != "." else name
        merged.setdefault(key, []).extend(path.read_text().splitlines())
    return {k: sorted(v) for k, v in sorted(merged.items())}


# DateTimeBucketAssigner's default folders (yyyy-MM-dd--HH) name the hour the job wrote in
_HOUR_BUCKET = re.compile(r"(^|/)\d{4}-\d\d-\d\d--\d\d(/|$)")


def normalize_time_buckets(files: dict[str, list[str]]) -> dict[str, list[str]]:
    """``read_output_files`` keys with date-time bucket folders as ``<yyyy-MM-dd--HH>``."""
    out: dict[str, list[str]] = {}
    for k, v in files.items():  # a run that crosses an hour writes two buckets: one pattern
        out.setdefault(_HOUR_BUCKET.sub(r"\1<yyyy-MM-dd--HH>\2", k), []).extend(v)
    return {k: sorted(v) for k, v in out.items()}


def records_by_folder(files: dict[str, list[str]]) -> dict[str, list[str]]:
    """``read_output_files`` lines merged per folder (sorted): the records a file sink wrote in
    each folder, not the names of its part files (Flink's ``<prefix>-<uuid>-<n><suffix>``,
    Spark's ``part-00000-<uuid>-c000.txt``: NOTE F2S241). Read the Spark side with
    ``own_files=False`` (``_SUCCESS``, ``.crc`` files are not records)."""
    out: dict[str, list[str]] = {}
    for k, v in files.items():
        folder = k.rsplit("/", 1)[0] if "/" in k else "."
        out.setdefault(folder, []).extend(v)
    return {k: sorted(v) for k, v in sorted(out.items())}


# --- fixtures/pyflink/<name>/: input.py, fixture.json, expected_stdout.txt, expected_files/ ---

FIXTURES = REPO / "fixtures" / "pyflink"
# fixtures/table/<name>/: Table API / SQL programs; their expected_stdout.txt is the RAW stdout
# (tableau boxes, changelog rows), read by tests/table_output.py's flink_records
TABLE_FIXTURES = REPO / "fixtures" / "table"
FIXTURE_SETS = {"pyflink": FIXTURES, "table": TABLE_FIXTURES}


def fixture_dirs(root: Path = FIXTURES) -> list[Path]:
    """<root>/*/ folders (default fixtures/pyflink) that hold an input.py, sorted by name."""
    return sorted(p.parent for p in Path(root).glob("*/input.py"))


def run_fixture_raw(fixture: Path, timeout: float = 300) -> tuple[str, dict[str, list[str]]]:
    """Like ``run_fixture`` but returns the raw stdout text (for fixtures/table).

    A fixture of a Kafka program (no broker here) has a ``reference.py``: the same program with
    its Kafka tables replaced by what its docstring says (a monitored filesystem table over
    the records of kafka_in.json, filesystem sinks under ``kafka/<topic>/``); that one runs.
    A fixture of a program Flink 2.3 refuses (a Table API over window in batch mode) has one
    too, without kafka_in.json: the same job in the form Flink 2.3 runs (its docstring)."""
    program = Path(fixture) / "reference.py"
    if not program.is_file():
        program = Path(fixture) / "input.py"
    with tempfile.TemporaryDirectory(prefix="flink-out-") as out, tempfile.TemporaryDirectory(prefix="topics-") as topics:
        args = [out]
        kafka = Path(fixture) / "kafka_in.json"
        if program.name == "reference.py" and kafka.is_file():  # sys.argv[2]: a folder per topic holding its records, one a line
            for topic, records in json.loads(kafka.read_text()).items():
                (Path(topics) / topic).mkdir()
                (Path(topics) / topic / "records.json").write_text("".join(r + "\n" for r in records))
            args.append(topics)
        stdout = run_on_flink(program, args, timeout=timeout)
        return stdout, read_output_files(Path(out))


def run_fixture(fixture: Path, timeout: float = 300) -> tuple[list[str], dict[str, list[str]]]:
    """Run ``fixture/input.py`` on Flink with a fresh output folder as ``sys.argv[1]``.

    Returns (sorted normalized stdout records, ``read_output_files(output folder)``).
    """
    with tempfile.TemporaryDirectory(prefix="flink-out-") as out:
        stdout = run_on_flink(Path(fixture) / "input.py", [out], timeout=timeout)
        return sorted(normalize_flink_print(stdout)), read_output_files(Path(out))


def read_expected(fixture: Path) -> tuple[list[str], dict[str, list[str]]]:
    """(expected_stdout.txt lines, expected_files/ as ``read_output_files`` gives it)."""
    fixture = Path(fixture)
    records = (fixture / "expected_stdout.txt").read_text().splitlines()
    files_dir = fixture / "expected_files"
    files = read_output_files(files_dir) if files_dir.is_dir() else {}
    return records, files


def write_expected(fixture: Path, records: list[str], files: dict[str, list[str]]) -> None:
    """Save a Flink run as expected_stdout.txt (sorted) and expected_files/ (merged parts)."""
    fixture = Path(fixture)
    text = "".join(line + "\n" for line in sorted(records))
    (fixture / "expected_stdout.txt").write_text(text)
    files_dir = fixture / "expected_files"
    if files_dir.exists():
        shutil.rmtree(files_dir)
    for rel, lines in files.items():
        path = files_dir / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(line + "\n" for line in lines))


def recorded_from(fixture: Path) -> Path:
    """The program whose Flink run a table fixture's expected output is: its own, or for a
    fixture of Flink 1.9-1.13's Table API (gone from Flink 2.3) the modern twin its
    fixture.json names ("twin")."""
    meta = Path(fixture) / "fixture.json"
    twin = json.loads(meta.read_text()).get("twin") if meta.is_file() else None
    return Path(fixture).parent / twin if twin else Path(fixture)


def _run_table_fixture(fixture: Path) -> tuple[list[str], dict[str, list[str]]]:
    stdout, files = run_fixture_raw(recorded_from(fixture))
    return stdout.splitlines(), files


def _same_table_output(fixture: Path, lines: list[str], files: dict[str, list[str]]) -> bool:
    from table_output import flink_records  # tests/ is this script's folder

    expected = (Path(fixture) / "expected_stdout.txt").read_text()
    files_dir = Path(fixture) / "expected_files"
    expected_files = read_output_files(files_dir) if files_dir.is_dir() else {}
    return flink_records("\n".join(lines)) == flink_records(expected) and files == expected_files


def write_expected_raw(fixture: Path, lines: list[str], files: dict[str, list[str]]) -> None:
    """``write_expected`` with the stdout lines kept raw and in order (fixtures/table)."""
    write_expected(fixture, [], files)
    (Path(fixture) / "expected_stdout.txt").write_text("".join(line + "\n" for line in lines))


def main(argv: list[str] | None = None) -> int:
    """Regenerate expected outputs: ``python tests/flink_reference.py [--set table] [NAME ...]``."""
    import argparse
    import time

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("names", nargs="*", help="fixture names (default: all)")
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    parser.add_argument(
        "--set", choices=sorted(FIXTURE_SETS), default="pyflink",
        help="fixtures/pyflink (normalized, sorted stdout) or fixtures/table (raw stdout)",
    )
    opts = parser.parse_args(argv)
    if not flink_available():
        print(f"reference Flink not available at {flink_python()}; run {SETUP_SCRIPT}")
        return 2
    root = FIXTURE_SETS[opts.set]
    table = opts.set == "table"
    fixtures = [root / n for n in opts.names] if opts.names else fixture_dirs(root)
    status = 0
    for fixture in fixtures:
        start = time.monotonic()
        try:
            records, files = _run_table_fixture(fixture) if table else run_fixture(fixture)
        except FlinkRunError as exc:
            print(f"{fixture.name}: FAILED\n{exc}")
            status = 1
            continue
        took = time.monotonic() - start
        if opts.check:
            if table:
                same = _same_table_output(fixture, records, files)
            else:
                same = (sorted(records), files) == read_expected(fixture)
            print(f"{fixture.name}: {'same' if same else 'DIFFERENT'} ({took:.1f} s)")
            status |= 0 if same else 1
        else:
            (write_expected_raw if table else write_expected)(fixture, records, files)
            kind = "lines" if table else "records"
            print(f"{fixture.name}: {len(records)} {kind}, {len(files)} files ({took:.1f} s)")
    return status


if __name__ == "__main__":
    raise SystemExit(main())
