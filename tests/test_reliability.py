"""Reliability of ``flink2spark convert`` (issue 16): look-alikes of Flink code come out as they
are, the converted code is never imported nor run, ``--in-place`` survives SIGKILL, symlinks do
not lead the writes out of the tree, and 20,000 files convert in bounded memory.

The figures (kills tried, peak memory) are printed through ``capsys.disabled``, so they show
without ``-s``; README "Reliability" quotes them.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import black
import pytest
from typer.testing import CliRunner

from flink2spark.cli import app
from flink2spark.transpiler import elide as E
from flink2spark.transpiler.engine import convert_source
from flink2spark.transpiler.registry import all_rules

REPO = Path(__file__).resolve().parent.parent
COMMAND = Path(sys.executable).parent / "flink2spark"


def run(*args):
    return CliRunner().invoke(app, [str(a) for a in args], catch_exceptions=False)


def report(capsys, line: str) -> None:
    with capsys.disabled():
        print(f"\n[reliability] {line}")


def write_tree(root: Path, files: dict[str, str | bytes]) -> None:
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)


def tree_bytes(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


# --------------------------------------------------------------------------- look-alikes

# A Flink job of each generation, its names kept apart from those of the look-alike code.
HEADS = {
    "dataset": (
        "from flink.plan.Environment import get_environment as flink_environment\n\n"
        "flink_env = flink_environment()\nflink_env.from_elements(1, 2).output()\n",
        "flink_env.execute(local=True)\n",
    ),
    "pyflink": (
        "from pyflink.datastream import StreamExecutionEnvironment as FlinkEnv\n\n"
        "flink_env = FlinkEnv.get_execution_environment()\nflink_env.from_collection([1, 2]).print()\n",
        'flink_env.execute("job")\n',
    ),
    "table": (
        "from pyflink.table import EnvironmentSettings, TableEnvironment\n\n"
        "flink_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())\n"
        "rows = flink_env.from_elements([(1, 'a')], ['id', 'name'])\n",
        "rows.execute().print()\n",
    ),
}


def convert_beside_a_job(generation: str, code: str):
    """Convert ``code`` (black-formatted, as the converter writes) placed in a Flink job of
    ``generation``; returns the result and the input lines ``code`` occupies."""
    head, tail = HEADS[generation]
    source = head + "\n\n" + code + "\n\n" + tail
    result = convert_source(source, "job.py")
    first = head.count("\n") + 3
    return result, range(first, first + code.count("\n"))


def assert_kept(code: str, result, lines: range) -> None:
    assert result.status in ("converted", "partial"), result.markers  # the job itself converts
    output_lines = result.output.splitlines()
    assert [line for line in code.splitlines() if line not in output_lines] == []  # every line as it was
    assert [m.format("job.py") for m in result.markers if m.line in lines] == []  # and no marker on them


NOOPS = [
    pytest.param(
        rule,
        index,
        set_aside,
        id=f"{rule.id}[{index}]" + ("" if set_aside else "-linked"),
    )
    for rule in all_rules()
    for index in range(len(rule.noop))
    for set_aside in (True, False)
]


def _linked(monkeypatch, set_aside: bool) -> None:
    """Without setting aside, the look-alike is converted as if Flink code used it (as when a job
    reads what it returns): the rules themselves must leave it alone."""
    if not set_aside:
        monkeypatch.setattr(E, "elide", lambda source, tree, distinctive=frozenset(): None)


@pytest.mark.parametrize("rule,index,set_aside", NOOPS)
def test_rule_noop_inside_a_flink_file(rule, index, set_aside, monkeypatch):
    """Each rule's look-alike example, but in a file that imports Flink (alone, without Flink
    text, it is copied without being parsed, and so tests nothing of the rule). Set aside
    (transpiler/elide.py), since no Flink code uses it; and not set aside."""
    _linked(monkeypatch, set_aside)
    code = black.format_str(rule.noop[index], mode=black.Mode())
    result, lines = convert_beside_a_job(rule.generation, code)
    assert_kept(code, result, lines)


LOOKALIKES = """\
import functools

import pandas as pd
from pyspark import SparkContext

items = [3, 1, 2]
items.sort()
doubled = list(map(lambda x: x * 2, items))
kept = list(filter(None, items))
total = functools.reduce(lambda a, b: a + b, items)
print(total)
frame = pd.DataFrame({"a": [1, 2]})
only_a = frame.filter(items=["a"])
as_text = frame["a"].map(str)
sums = frame.groupby("a").sum()
frame.reduce = None
sc = SparkContext.getOrCreate()
rdd = sc.parallelize(items).map(lambda x: x + 1).filter(bool)
rdd_total = rdd.reduce(lambda a, b: a + b)
pairs = sc.parallelize([(1, 2)]).groupByKey().collect()
message = "run env.execute() once pyflink.datastream and flink.plan are set up"
"""


@pytest.mark.parametrize("generation", sorted(HEADS))
def test_list_pandas_and_rdd_code_in_a_flink_file_is_kept(generation):
    result, lines = convert_beside_a_job(generation, LOOKALIKES)
    assert_kept(LOOKALIKES, result, lines)


USER_CLASSES = """\
class DataStream:
    def map(self, f):
        return self

    def key_by(self, f):
        return self

    def print(self):
        return None


class Environment:
    def execute(self, name=None):
        return name

    def from_elements(self, *values):
        return DataStream()


mine = Environment().from_elements(1, 2).map(len).key_by(len)
mine.print()
Environment().execute("mine")
"""


@pytest.mark.parametrize("generation,set_aside", [(g, a) for g in sorted(HEADS) for a in (True, False)])
def test_user_classes_named_datastream_and_environment_in_a_flink_file(generation, set_aside, monkeypatch):
    _linked(monkeypatch, set_aside)
    result, lines = convert_beside_a_job(generation, USER_CLASSES)
    assert_kept(USER_CLASSES, result, lines)


def test_user_class_lines_are_never_rewritten_in_a_flink_file():
    """What does hold for the user classes above: their code is not rewritten (only marked)."""
    for generation in HEADS:
        result, _ = convert_beside_a_job(generation, USER_CLASSES)
        output_lines = result.output.splitlines()
        assert [line for line in USER_CLASSES.splitlines() if line not in output_lines] == []


# Files that are not Flink code, though they look like it: convert --out copies them byte for
# byte (odd spacing and quotes kept: they are not reformatted) and check finds nothing.
NOT_FLINK = {
    "lists.py": "items = [3,1]\nitems.sort( )\nprint(list(map(str, items)), list(filter(None, items)))\n",
    "frames.py": "import pandas as pd\ndf = pd.DataFrame({'a': [1]})\ndf.filter(items=['a']).a.map(str)\n",
    "rdds.py": (
        "from pyspark import SparkContext\nsc = SparkContext.getOrCreate()\n"
        "sc.parallelize([1]).map(lambda x: x).filter(bool).reduce(lambda a, b: a+b)\n"
    ),
    "classes.py": (
        "class DataStream:\n    def key_by(self, f): return self\n    def print(self): pass\n"
        "class Environment:\n    def execute(self): pass\n"
        "DataStream().key_by(len).print() ; Environment().execute()\n"
    ),
    "strings.py": "HELP = 'converted from pyflink.datastream; see flink.plan'  # pyflink\n",
    "fallback.py": (
        "try:\n    import pyflink  # optional\n    HAVE_FLINK = True\nexcept ImportError:\n"
        "    HAVE_FLINK = False\nprint( HAVE_FLINK )\n"
    ),
    "fallback_from.py": (
        "try:\n    from pyflink.datastream import StreamExecutionEnvironment\nexcept ImportError:\n"
        "    StreamExecutionEnvironment = None\nENABLED = StreamExecutionEnvironment is not None\n"
    ),
    # A project's own flink and pyflink modules, and code importing them.
    "flink.py": "def get_environment():\n    return {'local':True}\n",
    "uses_local_flink.py": "import flink\nfrom flink import get_environment\nenv = get_environment( )\n",
    "pyflink/__init__.py": "VERSION='mine'\n",
    "pyflink/datastream.py": "class StreamExecutionEnvironment:\n    pass\n",
    "uses_local_pyflink.py": "from pyflink.datastream import StreamExecutionEnvironment\nprint( StreamExecutionEnvironment )\n",
}


def test_look_alike_files_are_copied_byte_for_byte_and_check_finds_nothing(tmp_path):
    write_tree(tmp_path / "src", NOT_FLINK)
    result = run("convert", tmp_path / "src", "--out", tmp_path / "out")
    assert result.exit_code == 0, result.stderr
    assert tree_bytes(tmp_path / "out") == tree_bytes(tmp_path / "src")
    assert "F2S" not in result.stderr  # no marker at all
    check = run("check", tmp_path / "src")
    assert (check.exit_code, check.stdout) == (0, ""), check.stdout + check.stderr


def test_a_local_flink_module_shadows_flink_only_below_its_folder(tmp_path):
    """``local/flink.py`` is what ``import flink`` means in ``local/`` and below, not in a
    sibling folder: there the job is Flink's (it was left unconverted, and check found nothing)."""
    job = (
        "from flink.plan.Environment import get_environment\nenv = get_environment()\n"
        "env.from_elements(1, 2).output()\nenv.execute(local=True)\n"
    )
    write_tree(tmp_path / "src", {
        "job.py": job, "local/flink.py": "def get_environment():\n    return None\n",
        "local/job.py": job, "local/deeper/job.py": job,
    })
    result = run("convert", tmp_path / "src", "--out", tmp_path / "out", "--quiet")
    assert result.exit_code == 0, result.stderr
    assert "flink.plan" not in (tmp_path / "out" / "job.py").read_text()
    for name in ("local/flink.py", "local/job.py", "local/deeper/job.py"):
        assert (tmp_path / "out" / name).read_bytes() == (tmp_path / "src" / name).read_bytes(), name
    check = run("check", tmp_path / "src")
    assert check.exit_code == 1
    assert check.stdout.splitlines() == [f"{tmp_path / 'src' / 'job.py'}:1:1: F2S900 Flink import: flink.plan.Environment (DataSet API)"]


# --------------------------------------------------------------------------- never imports the code


def test_the_converted_code_is_never_imported_nor_run(tmp_path):
    sentinel = tmp_path / "SENTINEL"
    touch = f"open({str(sentinel)!r}, 'w').write(__name__)\n"
    job = (
        "import sys\nfrom flink.plan.Environment import get_environment\n" + touch
        + "env = get_environment()\nenv.from_elements(1, 2).output()\nenv.execute(local=True)\n"
    )
    pyflink_job = (
        "from pyflink.datastream import StreamExecutionEnvironment\n" + touch
        + "env = StreamExecutionEnvironment.get_execution_environment()\nenv.from_collection([1]).print()\n"
        "env.execute('j')\n"
    )
    files = {
        "job.py": job,
        "pkg/__init__.py": pyflink_job,  # a package's __init__ that imports Flink
        "pkg/mod.py": "from . import helper\n" + touch,
        "pkg/helper.py": touch,
        "local/flink.py": touch + "def get_environment():\n    return None\n",  # a project's own flink module
        "local/uses.py": "import flink\nflink.get_environment()\n",
        "main_guard.py": "import pyflink\nif __name__ == '__main__':\n    " + touch,
        "setup.py": touch,
        "conftest.py": touch,
        "sitecustomize.py": touch,
        # Modules the converter imports itself, shadowed in the tree (run from the tree's folder).
        "libcst.py": touch,
        "black.py": touch,
        "typer.py": touch,
    }
    src = tmp_path / "src"
    write_tree(src, files)
    out = tmp_path / "out"
    runs = [  # every output mode, then check; --in-place last: it changes the tree
        (["convert", src, "--out", out, "--report", tmp_path / "r.json"], (tmp_path, src)),
        (["convert", src, "--diff"], (tmp_path,)),
        (["convert", src / "job.py"], (tmp_path,)),
        (["check", src], (tmp_path,)),
        (["convert", src, "--in-place"], (tmp_path,)),
    ]
    for args, folders in runs:
        # The installed command, from the folder above the tree, and for --out also from the
        # tree's own folder (where its libcst.py, black.py and typer.py are).
        for cwd in folders:
            proc = subprocess.run([str(COMMAND), *map(str, args)], cwd=cwd, capture_output=True, text=True)
            assert proc.returncode in (0, 1), (args, proc.stderr)
            assert not sentinel.exists(), (args, cwd, sentinel.read_text())
    # The runs did convert: the jobs were read as Flink code.
    for tree in (out, src):
        assert "flink.plan" not in (tree / "job.py").read_text()
        assert "import StreamExecutionEnvironment" not in (tree / "pkg" / "__init__.py").read_text()
    # And the sentinel does work: running one of the files writes it.
    subprocess.run([sys.executable, str(src / "setup.py")], cwd=tmp_path, check=True)
    assert sentinel.read_text() == "__main__"


# --------------------------------------------------------------------------- symlinks


def test_in_place_does_not_follow_folder_links_out_of_the_tree(tmp_path):
    """Covered elsewhere: a file link leading out (tests/test_cli_files.py), a link inside --out
    (tests/test_cli.py). Here: links to folders, a loop and a dangling link while walking."""
    job = (REPO / "fixtures" / "dataset" / "word_count_lambda" / "input.py").read_bytes()
    write_tree(tmp_path / "elsewhere", {"shared.py": job, "deeper/more.py": job})
    project = tmp_path / "project"
    write_tree(project, {"job.py": job, "sub/inner.py": job})
    (project / "linked").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    (project / "sub" / "loop").symlink_to(project, target_is_directory=True)
    (project / "dangling.py").symlink_to(tmp_path / "nowhere.py")
    outside_before = tree_bytes(tmp_path / "elsewhere")
    result = run("convert", project, "--in-place", "--quiet")
    assert result.exit_code == 0, result.stderr
    assert tree_bytes(tmp_path / "elsewhere") == outside_before
    assert (project / "job.py").read_bytes() != job and (project / "sub" / "inner.py").read_bytes() != job
    assert (project / "linked").is_symlink() and (project / "sub" / "loop").is_symlink()
    assert not list(tmp_path.rglob("*.f2s-tmp"))


# --------------------------------------------------------------------------- SIGKILL during --in-place

KILLS = 8  # random kills in CI
KILL_FIXTURES = ["dataset/word_count_lambda", "pyflink/union_filter"]
SMALL_JOBS = 150  # small generated jobs beside the fixtures: more files, more moments between two writes (a file converts in milliseconds)


def small_job(number: int) -> str:
    return (
        "from flink.plan.Environment import get_environment\nenv = get_environment()\n"
        f"env.from_elements(1, 2).map(lambda x: x * {number}).output()\nenv.execute(local=True)\n"
    )


def test_in_place_killed_at_random_moments_leaves_each_file_whole(tmp_path, capsys):
    original = tmp_path / "original"
    jobs = {f"d{i % 3}/{name.replace('/', '_')}.py": (REPO / "fixtures" / name / "input.py").read_bytes()
            for i, name in enumerate(KILL_FIXTURES)}
    jobs.update({f"d{i % 3}/small_{i}.py": small_job(i) for i in range(SMALL_JOBS)})
    write_tree(original, {**jobs, "plain.py": "VALUE = 1\n", "d0/__init__.py": ""})
    before = tree_bytes(original)
    expected_run = run("convert", original, "--out", tmp_path / "expected", "--quiet")
    assert expected_run.exit_code == 0, expected_run.stderr
    expected = tree_bytes(tmp_path / "expected")
    assert sum(before[n] != expected[n] for n in before) == len(jobs)  # every job changes

    work = tmp_path / "work"

    def start():
        # --jobs 1. The writes come once every file is converted (a module another file imports is
        # read as it was: transpiler/project.py), in the last part of the run; kills land before
        # them (nothing written) or between them (a tree half converted)
        return subprocess.Popen([str(COMMAND), "convert", str(work), "--in-place", "--quiet", "--jobs", "1"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    # A run over a tree with nothing to convert: Python's and the tool's start, when no kill
    # can leave a file half done.
    write_tree(work, {"plain.py": "VALUE = 1\n"})
    begin = time.perf_counter()
    assert start().wait() == 0
    startup = time.perf_counter() - begin
    shutil.rmtree(work)
    # One whole run: how long the kills may wait, and --in-place gives what --out gave.
    shutil.copytree(original, work)
    begin = time.perf_counter()
    assert start().wait() == 0
    whole = time.perf_counter() - begin
    assert tree_bytes(work) == expected

    def first_write(process) -> None:
        """Wait until the run has written a file (the writes come last, all within a short
        time): a kill then lands between two writes, where a tree can be half converted."""
        probe = work / "d0" / "small_0.py"
        while process.poll() is None and probe.read_bytes() == before["d0/small_0.py"]:
            time.sleep(0.0005)

    rng = random.Random(16)
    killed_running = mixed = temp_left = 0
    for kill in range(KILLS):
        shutil.rmtree(work)
        shutil.copytree(original, work)
        process = start()
        if kill % 2:
            first_write(process)  # at its first write
        else:
            time.sleep(rng.uniform(min(startup, 0.9 * whole), whole))  # at a random moment of the run
        process.send_signal(signal.SIGKILL)
        killed_running += process.wait() == -signal.SIGKILL
        temps = list(work.rglob("*.f2s-tmp"))
        temp_left += bool(temps)
        now = {n: d for n, d in tree_bytes(work).items() if not n.endswith(".f2s-tmp")}
        assert set(now) == set(before)
        for name, data in now.items():
            assert data in (before[name], expected[name]), f"{name} is neither the original nor the converted file"
        converted = sum(now[n] != before[n] for n in now)
        mixed += 0 < converted < len(jobs)
        # The next run finishes the job and removes what the killed one left.
        assert start().wait() == 0
        assert tree_bytes(work) == expected
        assert not list(work.rglob("*.f2s-tmp"))
    report(capsys, f"--in-place killed {KILLS} times ({killed_running} while running, {mixed} leaving a tree "
           f"half converted, {temp_left} leaving a temporary file; a whole run takes {whole:.1f} s, {startup:.1f} s of it "
           "to start): "
           "every file original or converted, no temporary file after the next run")
    assert killed_running >= KILLS // 2  # the kills did land during the runs
    assert mixed >= 1


# --------------------------------------------------------------------------- memory


FILE_BYTES = 2048  # a small module
FLINK_EVERY = 500  # one small Flink job per 500 files


def make_tree(root: Path, count: int) -> None:
    padding = "# " + "padding " * 8 + "\n"
    for index in range(count):
        folder = root / f"pkg{index // 200:03}"
        if index % 200 == 0:
            folder.mkdir(parents=True)
        body = small_job(index) if index % FLINK_EVERY == 0 else f"VALUE_{index} = {index}\n"
        (folder / f"m{index:05}.py").write_text(body + padding * ((FILE_BYTES - len(body)) // len(padding)))


# Started by a small Python process, not by pytest: Linux carries a process's peak RSS over
# exec, and a child forked from pytest would start with the peak pytest has reached.
RSS_LAUNCHER = """
import json, os, subprocess, sys
process = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
_, status, usage = os.wait4(process.pid, 0)
print(json.dumps([usage.ru_maxrss, os.waitstatus_to_exitcode(status)]))
"""


def peak_rss_mb(args: list[str]) -> tuple[float, float, int]:
    """Peak resident memory (MB) of the command, its time (s) and exit status."""
    begin = time.perf_counter()
    launcher = subprocess.run([sys.executable, "-c", RSS_LAUNCHER, str(COMMAND), *args],
                              capture_output=True, text=True, check=True)
    max_rss_kb, status = json.loads(launcher.stdout)  # ru_maxrss: KB on Linux
    return max_rss_kb / 1024, time.perf_counter() - begin, status


def scratch_folder(tmp_path: Path) -> Path:
    """A folder in memory when there is one (writes are fsynced: a disk makes 20,000 files slow)."""
    shm = Path("/dev/shm")
    if shm.is_dir() and os.access(shm, os.W_OK):
        folder = Path(os.path.realpath(shm)) / f"f2s-rss-{os.getpid()}"
        shutil.rmtree(folder, ignore_errors=True)
        return folder
    return tmp_path / "scratch"


def test_twenty_thousand_files_in_bounded_memory(tmp_path, capsys):
    scratch = scratch_folder(tmp_path)
    try:
        figures = {}
        for count in (2_000, 20_000):
            make_tree(scratch / f"in{count}", count)
            rss, seconds, status = peak_rss_mb(
                ["convert", str(scratch / f"in{count}"), "--out", str(scratch / f"out{count}"), "--quiet"]
            )
            assert status == 0
            assert len(list((scratch / f"out{count}").rglob("*.py"))) == count
            figures[count] = (rss, seconds)
            shutil.rmtree(scratch / f"in{count}")
            shutil.rmtree(scratch / f"out{count}")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    small, large = figures[2_000][0], figures[20_000][0]
    report(capsys, f"convert --out, {FILE_BYTES}-byte files (1 Flink job per {FLINK_EVERY}): peak RSS "
           f"{small:.0f} MB for 2,000 files ({figures[2_000][1]:.0f} s), {large:.0f} MB for 20,000 "
           f"({figures[20_000][1]:.0f} s)")
    # 20,000 files hold 40 MB of text: kept for the report, they would add 36 MB to the peak.
    assert large < 400
    assert large < 1.5 * small + 10  # not proportional to the number of files
