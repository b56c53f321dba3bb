"""``convert``/``check --jobs N`` (issue 13): files converted in worker processes give the
outputs of a run without workers, byte for byte; a failure in a worker is an error for its
file only; the workers end with the command, on Ctrl-C too. The speed-up is measured by
``benchmarks/bench_convert.py --cli``, not here.

Workers are forked (transpiler/parallel.py), so an engine replaced by ``monkeypatch`` in this
process is the one a worker runs: that is how a failure is put in a worker.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from flink2spark.cli import app
from flink2spark.transpiler import check as check_module
from flink2spark.transpiler import engine
from flink2spark.transpiler import parallel as P

REPO = Path(__file__).resolve().parent.parent
COMMAND = Path(sys.executable).parent / "flink2spark"

pytestmark = pytest.mark.skipif(not P.can_fork(), reason="worker processes are forked")


def run(*args):
    return CliRunner().invoke(app, [str(a) for a in args], catch_exceptions=False)


def small_job(number: int) -> str:
    return (
        "from flink.plan.Environment import get_environment\nenv = get_environment()\n"
        f"env.from_elements(1, 2).map(lambda x: x * {number}).output()\nenv.execute(local=True)\n"
    )


PYFLINK_JOB = """from pyflink.datastream import StreamExecutionEnvironment
env = StreamExecutionEnvironment.get_execution_environment()
env.from_collection([1, 2, 3]).map(lambda x: x + 1).print()
env.execute("small")
"""


def write_tree(root: Path) -> Path:
    """Flink jobs of both generations among files that are plain, empty, broken or not UTF-8."""
    files: dict[str, bytes] = {
        "a/word_count.py": (REPO / "fixtures/dataset/word_count_lambda/input.py").read_bytes(),
        "b/stream.py": PYFLINK_JOB.encode(),
        "a/__init__.py": b"",
        "a/plain.py": b"VALUE = 1\n",
        "b/broken.py": b"import pyflink\nx = (\n",
        "b/latin1.py": "# caf\xe9\nimport pyflink\n".encode("latin-1"),
        "c/todo.py": b"import os\n# TODO(flink2spark): F2S100 left by hand\n",
    }
    files.update({f"c/job_{i}.py": small_job(i).encode() for i in range(3)})
    for name, data in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(data)
    return root


def tree_bytes(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture
def forks(monkeypatch) -> list[int]:
    """The pids of the worker processes forked while the test runs."""
    forked: list[int] = []

    class Counted(P._Worker):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            forked.append(self.process.pid)

    monkeypatch.setattr(P, "_Worker", Counted)
    return forked


def outcome(result, *files: Path) -> tuple:
    return result.exit_code, result.stdout, result.stderr, *(f.read_bytes() for f in files)


# --------------------------------------------------------------------------- same outputs


def test_every_output_is_the_same_with_and_without_workers(tmp_path, forks):
    tree = write_tree(tmp_path / "jobs")
    settings = ["--spark-master", "local[3]", "--ignore", "dataset.execute"]  # must reach the workers too
    out, report, in_place = tmp_path / "out", tmp_path / "report.json", tmp_path / "in_place"
    seen = {}
    for jobs in ("1", "2"):
        before = len(forks)
        shutil.rmtree(out, ignore_errors=True)
        shutil.rmtree(in_place, ignore_errors=True)
        shutil.copytree(tree, in_place)
        converted = run("convert", tree, "--out", out, "--report", report, "--jobs", jobs, *settings)
        diff = run("convert", tree, "--diff", "-j", jobs, *settings)
        rewritten = run("convert", in_place, "--in-place", "--jobs", jobs, *settings)
        checked = run("check", tree, out, "--jobs", jobs)
        as_json = run("check", tree, out, "--jobs", jobs, "--output-format", "json")
        seen[jobs] = (
            outcome(converted, report), tree_bytes(out), outcome(diff), outcome(rewritten), tree_bytes(in_place),
            outcome(checked), outcome(as_json),
        )
        assert (len(forks) > before) == (jobs == "2")  # --jobs 2 did fork workers, --jobs 1 none
    assert seen["1"] == seen["2"]
    # ...and the runs did convert, with the settings given:
    (code, _, stderr, report_text), converted_tree, diff, _, rewritten_tree, checked, as_json = seen["2"]
    assert code == 2 and stderr.endswith("2 of 9 file(s) could not be converted (exit status 2)\n")
    assert [f["status"] for f in json.loads(report_text)["files"]].count("error") == 2
    for name in ("c/job_0.py", "b/stream.py"):
        assert 'SparkSession.builder.master("local[3]")' in converted_tree[name].decode()
    assert "env.execute(local=True)" in converted_tree["c/job_0.py"].decode()  # its rule was ignored
    assert converted_tree["a/__init__.py"] == b"" and converted_tree["a/plain.py"] == b"VALUE = 1\n"
    assert diff[1].count("\n+++ b/") == 5  # a diff per converted file
    assert rewritten_tree["c/job_2.py"] == converted_tree["c/job_2.py"]
    assert checked[0] == 2 and "todo.py:2:1: F2S901" in checked[1] and "job_2.py:1:1: F2S900" in checked[1]
    assert json.loads(as_json[1])["totals"]["files"] == 18


def test_results_come_in_input_order_whatever_order_the_workers_finish_in(tmp_path, forks, monkeypatch):
    """The first files are made the slowest: delivered as they finish, they would come last."""
    tree = tmp_path / "jobs"
    tree.mkdir()
    for i in range(6):
        (tree / f"job_{i}.py").write_text(small_job(i))
    real = engine.convert_bytes

    def slow_first(data, path, *args, **kwargs):
        time.sleep(0.06 * (5 - int(re.search(r"job_(\d)", path).group(1))))
        return real(data, path, *args, **kwargs)

    monkeypatch.setattr(engine, "convert_bytes", slow_first)
    report = tmp_path / "report.json"
    result = run("convert", tree, "--diff", "--jobs", "3", "--report", report)
    assert result.exit_code == 0, result.stderr
    assert len(forks) == 3
    expected = [f"job_{i}.py" for i in range(6)]
    assert [line.rsplit("/", 1)[1] for line in result.stdout.splitlines() if line.startswith("+++ ")] == expected
    assert [Path(f["path"]).name for f in json.loads(report.read_text())["files"]] == expected


def test_too_few_flink_files_fork_no_worker(tmp_path, forks):
    tree = tmp_path / "jobs"
    tree.mkdir()
    (tree / "job_0.py").write_text(small_job(0))
    for i in range(5):
        (tree / f"plain_{i}.py").write_text(f"VALUE = {i}\n")
    assert run("convert", tree, "--out", tmp_path / "out", "--jobs", "4").exit_code == 0
    assert forks == []  # one file worth a worker is converted in the command's process
    (tree / "job_1.py").write_text(small_job(1))
    assert run("convert", tree, "--out", tmp_path / "out", "--jobs", "4").exit_code == 0
    assert len(forks) == 2  # two are worth two workers (not four: there is nothing for more)
    (tree / "job_2.py").write_text(small_job(2))
    assert run("check", tree, "--jobs", "4").exit_code == 1
    assert len(forks) == 2  # checking a file is quick: three are checked here...
    (tree / "job_3.py").write_text(small_job(3))
    assert run("check", tree, "--jobs", "4").exit_code == 1
    assert len(forks) == 6  # ...four in workers


# --------------------------------------------------------------------------- failures in a worker


def failing_on(name: str, failure):
    """``engine.convert_bytes`` that calls ``failure()`` for the file ``name``, converts the others."""
    real = engine.convert_bytes

    def convert(data, path, *args, **kwargs):
        if Path(path).name == name:
            failure()
        return real(data, path, *args, **kwargs)

    return convert


def raise_error():
    raise RuntimeError("boom")


def test_an_engine_exception_in_a_worker_is_an_error_for_that_file_only(tmp_path, forks, monkeypatch):
    tree = write_tree(tmp_path / "jobs")
    assert run("convert", tree, "--out", tmp_path / "expected", "--jobs", "1", "-q").exit_code == 2
    monkeypatch.setattr(engine, "convert_bytes", failing_on("job_1.py", raise_error))
    result = run("convert", tree, "--out", tmp_path / "out", "--jobs", "2", "-q")
    assert forks
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert f"{tree / 'c/job_1.py'}:1:1: error: F2S007 internal error in the converter (RuntimeError: boom); please report it" in lines
    assert lines[-1] == "3 of 9 file(s) could not be converted (exit status 2)"  # broken.py, latin1.py and job_1.py
    expected = tree_bytes(tmp_path / "expected")
    del expected["c/job_1.py"]
    assert tree_bytes(tmp_path / "out") == expected


def test_a_check_exception_in_a_worker_is_an_error_for_that_file_only(tmp_path, forks, monkeypatch):
    tree = write_tree(tmp_path / "jobs")
    real = check_module.check_bytes

    def failing(data, path, *args):
        if path.endswith("job_2.py"):
            raise ValueError("bad")
        return real(data, path, *args)

    monkeypatch.setattr(check_module, "check_bytes", failing)
    result = run("check", tree, "--jobs", "2")
    assert forks and result.exit_code == 2
    assert f"{tree / 'c/job_2.py'}:1:1: error: F2S007 internal error in the converter (ValueError: bad)" in result.stderr
    assert "job_2.py:1:1: F2S900" not in result.stdout
    assert all(f"job_{i}.py:1:1: F2S900" in result.stdout for i in (0, 1))


def test_a_worker_that_dies_gives_its_file_an_error_and_the_run_goes_on(tmp_path, forks, monkeypatch):
    tree = write_tree(tmp_path / "jobs")
    assert run("convert", tree, "--out", tmp_path / "expected", "--jobs", "1", "-q").exit_code == 2
    command = os.getpid()

    def die():  # as the kernel's out-of-memory killer would; never in this (pytest's) process
        if os.getpid() != command:
            os.kill(os.getpid(), signal.SIGKILL)

    monkeypatch.setattr(engine, "convert_bytes", failing_on("word_count.py", die))  # the first Flink file
    result = run("convert", tree, "--out", tmp_path / "out", "--jobs", "2", "-q")
    assert result.exit_code == 2
    assert (
        f"{tree / 'a/word_count.py'}:1:1: error: F2S007 internal error in the converter (the worker process "
        "converting this file ended: killed by SIGKILL (out of memory?)); please report it"
    ) in result.stderr.splitlines()
    assert len(forks) == 3  # the dead worker was replaced
    expected = tree_bytes(tmp_path / "expected")
    del expected["a/word_count.py"]
    assert tree_bytes(tmp_path / "out") == expected


# --------------------------------------------------------------------------- settings


@pytest.mark.parametrize("value", ["0", "-1", "two", ""])
@pytest.mark.parametrize("command", ["convert", "check"])
def test_bad_jobs_values_are_usage_errors(tmp_path, command, value):
    (tmp_path / "job.py").write_text(small_job(1))
    result = run(command, tmp_path / "job.py", "--jobs", value)
    assert result.exit_code == 2
    assert "Invalid value for '--jobs' / '-j'" in result.stderr


@pytest.mark.parametrize("value", ["0", "-2", '"2"', "true", "1.5"])
def test_bad_jobs_in_the_config_are_usage_errors_naming_the_file(tmp_path, value):
    (tmp_path / "pyproject.toml").write_text(f"[tool.flink2spark]\njobs = {value}\n")
    (tmp_path / "job.py").write_text(small_job(1))
    for command in ("convert", "check"):
        result = run(command, tmp_path / "job.py")
        assert result.exit_code == 2
        assert f"{tmp_path / 'pyproject.toml'}: [tool.flink2spark] jobs: must be a whole number, 1 or more" in result.stderr


def test_jobs_from_the_config_and_the_command_line(tmp_path, forks, monkeypatch):
    for i in range(4):
        (tmp_path / f"job_{i}.py").write_text(small_job(i))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text("[tool.flink2spark]\njobs = 1\n")
    assert run("check", ".").exit_code == 1
    assert forks == []
    assert run("check", ".", "--jobs", "3").exit_code == 1  # the option replaces the key
    assert len(forks) == 3
    (tmp_path / "pyproject.toml").write_text("[tool.flink2spark]\njobs = 2\n")
    assert run("check", ".").exit_code == 1
    assert len(forks) == 5


def test_the_default_is_the_number_of_cpus(tmp_path, forks, monkeypatch):
    for i in range(4):
        (tmp_path / f"job_{i}.py").write_text(small_job(i))
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1, 2}, raising=False)
    assert P.default_jobs() == 3
    assert run("check", tmp_path).exit_code == 1
    assert len(forks) == 3


# --------------------------------------------------------------------------- stopping


def children(pid: int) -> set[int]:
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.add(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        return (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def start_and_wait_for_writes(tree: Path, original: bytes) -> tuple[subprocess.Popen, set[int]]:
    """The command, once its workers run and it has rewritten a first file; and the workers."""
    process = subprocess.Popen(
        [str(COMMAND), "convert", str(tree), "--in-place", "--quiet", "--jobs", "2"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True,  # its own group, as in a terminal
    )
    deadline = time.monotonic() + 60
    workers: set[int] = set()
    while len(workers) < 2 or all(p.read_bytes() == original for p in tree.glob("*.py")):
        assert process.poll() is None and time.monotonic() < deadline, "no worker started or no file written"
        workers |= children(process.pid)
        time.sleep(0.01)
    return process, workers


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
@pytest.mark.parametrize("stop", ["ctrl-c", "sigkill"])
def test_the_workers_end_with_the_command(tmp_path, stop):
    """Ctrl-C (SIGINT to the whole process group) stops the run as without workers, and ends them
    at once; the command killed outright, they end after their file. Files stay whole."""
    tree = tmp_path / "jobs"
    tree.mkdir()
    original = small_job(7).encode()
    for i in range(30):
        (tree / f"job_{i:02}.py").write_bytes(original)
    converted = run("convert", tree / "job_00.py").stdout.encode()
    process, workers = start_and_wait_for_writes(tree, original)
    if stop == "ctrl-c":
        os.killpg(process.pid, signal.SIGINT)  # what a terminal sends
    else:
        os.kill(process.pid, signal.SIGKILL)  # the command only: its workers are left to see it gone
    _, stderr = process.communicate(timeout=60)
    if stop == "ctrl-c":
        assert (process.returncode, stderr) == (130, b"")  # as without workers (typer's exit): no traceback
    deadline = time.monotonic() + 30
    while any(alive(pid) for pid in workers):
        assert time.monotonic() < deadline, "a worker outlived the command"
        time.sleep(0.05)
    now = tree_bytes(tree)
    if stop == "sigkill":  # a write cut short may leave its temporary file (the next run removes it)
        now = {name: data for name, data in now.items() if not name.endswith(".f2s-tmp")}
    assert set(now) == {f"job_{i:02}.py" for i in range(30)}  # Ctrl-C: no temporary file left
    assert set(now.values()) == {original, converted}  # each file whole; the run was stopped halfway
