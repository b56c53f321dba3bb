"""``[tool.flink2spark]`` in pyproject.toml, ``--select``/``--ignore``, ``--exclude``, .gitignore and
``--force-exclude`` (issue 16)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from flink2spark.transpiler import config as C
from flink2spark.transpiler import engine
from test_cli import FLINK, fake_convert, run, write

MAP_JOB = (
    "from flink.plan.Environment import get_environment\n"
    "env = get_environment()\n"
    "env.from_elements(1, 2).map(lambda x: x + 1).output()\n"
    "env.execute(local=True)\n"
)
# check findings: F2S900 at 1:1, F2S901 (TODO F2S100) at 2:1, F2S901 (TODO F2S230) at 4:1
MIXED = (
    "import pyflink\n"
    "# TODO(flink2spark): F2S100 DataSet.first has no conversion\n"
    "x = 1\n"
    "# TODO(flink2spark): F2S230 keyed state: port by hand\n"
)


def found(result) -> list[str]:
    """The ``line:col: code`` part of check's finding lines."""
    return [line.split(": ", 1)[0].split(":", 1)[1] + " " + line.split(" ")[1] for line in result.stdout.splitlines()]


@pytest.fixture
def project(tmp_path, monkeypatch) -> Path:
    """tmp_path/pyproject.toml (written by each test), src/job.py, src/legacy/old.py, src/gen/x_test.py."""
    monkeypatch.chdir(tmp_path)
    for name in ("src/job.py", "src/legacy/old.py", "src/gen/x_test.py"):
        write(tmp_path / name, "import pyflink\n")
    return tmp_path


def pyproject(folder: Path, body: str) -> Path:
    return write(folder / "pyproject.toml", "[project]\nname = 'p'\n\n[tool.flink2spark]\n" + body)


def checked(result) -> set[str]:
    return {line.split(":", 1)[0] for line in result.stdout.splitlines()}


# --------------------------------------------------------------------------- finding the file


def test_config_is_found_from_the_first_path_upward(project):
    pyproject(project, 'exclude = ["legacy", "*_test.py"]\n')
    # A nearer pyproject.toml without the table is not ours: the search goes on upward.
    write(project / "src" / "pyproject.toml", "[project]\nname = 'inner'\n")
    result = run("check", "src")
    assert result.exit_code == 1
    assert checked(result) == {"src/job.py"}
    # The same from below, with the first PATH deeper in the tree (a file: the search starts at its folder).
    assert checked(run("check", "src/job.py", "src")) == {"src/job.py"}


def test_without_a_config_nothing_is_excluded(project):
    assert checked(run("check", "src")) == {"src/job.py", "src/legacy/old.py", "src/gen/x_test.py"}


def test_config_option_names_the_file(project, tmp_path):
    other = write(tmp_path / "f2s.toml", '[tool.flink2spark]\nexclude = ["src/gen/**"]\n')
    pyproject(project, 'exclude = ["legacy"]\n')  # ignored: --config wins
    result = run("check", "src", "--config", other)
    assert checked(result) == {"src/job.py", "src/legacy/old.py"}


def test_config_option_needs_the_table(project, tmp_path):
    other = write(tmp_path / "other.toml", "[tool.ruff]\nline-length = 100\n")
    result = run("check", "src", "--config", other)
    assert result.exit_code == 2
    assert f"{other}: no [tool.flink2spark] table" in result.stderr


def test_exclude_globs_of_the_file_are_relative_to_its_folder(project, monkeypatch):
    pyproject(project, 'exclude = ["src/legacy/**"]\n')
    monkeypatch.chdir(project / "src")
    assert checked(run("check", ".")) == {"job.py", "gen/x_test.py"}


def test_command_line_replaces_the_config(project):
    pyproject(project, 'exclude = ["legacy"]\noutput-format = "github"\nselect = ["F2S901"]\n')
    configured = run("check", "src")
    assert configured.stdout == ""  # only F2S901 selected, and there is none
    assert configured.exit_code == 0
    result = run("check", "src", "--exclude", "gen", "--output-format", "text", "--select", "F2S900")
    assert checked(result) == {"src/job.py", "src/legacy/old.py"}
    assert result.stdout.startswith("src/")  # text, not ::warning


def test_config_output_format_gives_way_to_converted_code_on_stdout(project, tmp_path):
    pyproject(project, 'output-format = "json"\n')
    job = write(tmp_path / "src" / "job.py", FLINK)
    result = run("convert", job, "-q")
    assert result.exit_code == 0
    assert "SparkSession" in result.stdout and not result.stdout.startswith("{")
    in_place = run("convert", "src/job.py", "--in-place", "-q")
    assert json.loads(in_place.stdout)["command"] == "convert"


@pytest.mark.parametrize(
    "body, message",
    [
        ('exlude = ["x"]\n', "unknown key 'exlude'"),
        ('exclude = "legacy"\n', "exclude: must be a list of strings, not 'legacy'"),
        ('select = ["F2S9", "dataset.nope"]\n', "select: unknown rule id or marker code 'dataset.nope'"),
        ('ignore = ["F2X1"]\n', "ignore: unknown rule id or marker code 'F2X1'"),
        ('output-format = "xml"\n', "output-format: must be one of text, json, sarif, github, not 'xml'"),
        ("force-exclude = 1\n", "force-exclude: must be true or false, not 1"),
        ("spark-app-name = 3\n", "spark-app-name: must be a non-empty string, not 3"),
        ('spark-master = "local[{n}]"\n', "spark-master: must not contain braces"),
        ("select = [\n", "not valid TOML"),
    ],
)
def test_bad_config_values_name_the_file_and_exit_2(project, body, message):
    path = pyproject(project, body)
    for command in ("check", "convert"):
        result = run(command, "src", "--diff") if command == "convert" else run(command, "src")
        assert result.exit_code == 2
        assert str(path) in result.stderr
        assert message in result.stderr


def test_bad_selector_on_the_command_line(project):
    result = run("check", "src", "--ignore", "F2S1,dataset.joins")
    assert result.exit_code == 2
    assert "unknown rule id or marker code 'dataset.joins'" in result.stderr


# --------------------------------------------------------------------------- selectors


def test_selector_kinds():
    assert C.split_selectors(["F2S1, dataset.join", "pyflink"]) == ["F2S1", "dataset.join", "pyflink"]
    assert C.is_code_selector("F2S9") and C.is_code_selector("F2S105") and not C.is_code_selector("F2S999")
    assert C.is_rule_selector("dataset") and C.is_rule_selector("dataset.join") and not C.is_rule_selector("data")
    selection = C.Selection(select=("dataset.join", "F2S1"), ignore=("F2S105",))
    disabled = selection.disabled_rules()
    assert "dataset.join" not in disabled and "dataset.map_partition" in disabled and "pyflink.print" in disabled
    assert C.Selection().disabled_rules() == frozenset()
    assert C.Selection(ignore=("pyflink",)).disabled_rules() == {r for r in C._rule_ids() if r.startswith("pyflink.")}
    assert selection.reports("F2S100") and not selection.reports("F2S105") and not selection.reports("F2S900")
    assert selection.reports("F2S901", "F2S102")  # a check finding answers to its TODO's code too


@pytest.mark.parametrize(
    "options, expected",
    [
        ([], ["1:1 F2S900", "2:1 F2S901", "4:1 F2S901"]),
        (["--ignore", "F2S900"], ["2:1 F2S901", "4:1 F2S901"]),
        (["--ignore", "F2S1"], ["1:1 F2S900", "4:1 F2S901"]),  # the TODO F2S100
        (["--select", "F2S2"], ["4:1 F2S901"]),  # only the TODO F2S230
        (["--select", "F2S901", "--ignore", "F2S230"], ["2:1 F2S901"]),
        (["--select", "F2S9", "--ignore", "F2S9"], []),
        (["--ignore", "dataset.join"], ["1:1 F2S900", "2:1 F2S901", "4:1 F2S901"]),  # rules: nothing to check
    ],
)
def test_check_code_selectors(project, options, expected):
    write(project / "m.py", MIXED)
    result = run("check", "m.py", *options)
    assert found(result) == expected
    assert result.exit_code == (1 if expected else 0)


def test_ignored_rule_leaves_its_construct_marked(project, tmp_path):
    job = write(tmp_path / "jobs" / "job.py", MAP_JOB)
    result = run("convert", job, "--ignore", "dataset.simple_ops")
    assert result.exit_code == 0
    out = result.stdout
    message = "DataSet.map() has no conversion: rule dataset.simple_ops is disabled (--ignore/--select)"
    assert f"# TODO(flink2spark): F2S100 {message}\n" in out
    assert ".map(lambda x: x + 1)" in out  # left as is, on the RDD the other rules made
    assert f"job.py:3:1: F2S100 {message}" in result.stderr
    written = write(tmp_path / "out" / "job.py", out)
    assert found(run("check", written)) == ["4:1 F2S901"]  # the TODO above the loop (no shim import line now)
    # Without --ignore the same job converts with no TODO.
    assert "TODO" not in run("convert", job).stdout


def test_ignored_entry_point_is_marked_at_the_call(project, tmp_path):
    job = write(tmp_path / "jobs" / "job.py", MAP_JOB)
    pyproject(project, 'ignore = ["dataset.environment"]\n')
    result = run("convert", job, "--report", tmp_path / "r.json")
    assert result.exit_code == 0
    assert "F2S100 flink.plan.Environment.get_environment() not converted: rule dataset.environment is disabled" in result.stdout
    assert "env = get_environment()" in result.stdout
    report = json.loads((tmp_path / "r.json").read_text())
    assert "dataset.environment" not in report["totals"]["rules"]
    assert report["files"][0]["status"] == "partial"


def test_select_a_generation_disables_the_others(project, tmp_path):
    job = write(tmp_path / "jobs" / "job.py", MAP_JOB)
    result = run("convert", job, "--select", "pyflink")  # no DataSet rule applies
    assert "SparkSession" not in result.stdout
    # get_environment, then from_elements, map and output (one statement), then execute
    assert result.stdout.count("TODO(flink2spark): F2S100") == 5
    assert "rule dataset.simple_ops is disabled" in result.stdout


def test_convert_code_selectors_filter_markers_report_and_strict(project, tmp_path, monkeypatch):
    monkeypatch.setattr(engine, "convert_bytes", fake_convert)  # F2S105 note at 2:1, F2S100 todo at 3:1
    job = write(tmp_path / "jobs" / "job.py", FLINK)
    report = tmp_path / "r.json"
    result = run("convert", job, "--out", tmp_path / "o", "--ignore", "F2S1", "--strict", "--report", report)
    assert result.exit_code == 0  # the TODO F2S100 is not reported, so --strict has nothing to fail on
    assert "F2S10" not in result.stderr
    assert json.loads(report.read_text())["files"][0]["markers"] == []
    noted = run("convert", job, "--out", tmp_path / "o", "--select", "F2S105", "--strict")
    assert noted.exit_code == 0
    assert "job.py:2:1: F2S105 parallelism dropped" in noted.stderr
    assert run("convert", job, "--out", tmp_path / "o", "--select", "F2S100", "--strict").exit_code == 1


def test_errors_are_never_filtered(project):
    write(project / "bad.py", "import pyflink\ndef f(:\n")
    result = run("check", "bad.py", "--ignore", "F2S0", "--select", "F2S901")
    assert result.exit_code == 2
    assert "bad.py:2:" in result.stderr and "error: F2S001" in result.stderr


# --------------------------------------------------------------------------- exclude globs


@pytest.mark.parametrize(
    "glob, path, excluded",
    [
        ("legacy", "src/legacy/a.py", True),  # a name anywhere: the folder and what is below it
        ("legacy", "src/legacy_x/a.py", False),
        ("*_test.py", "src/gen/x_test.py", True),
        ("*_test.py", "src/gen/x_test.pyc", False),
        ("src/*.py", "src/a.py", True),
        ("src/*.py", "src/sub/a.py", False),  # * stays within one part
        ("src/**/gen.py", "src/a/b/gen.py", True),
        ("src/**/gen.py", "src/gen.py", True),
        ("/src/legacy", "src/legacy/a.py", True),
        ("./src/legacy", "other/src/legacy/a.py", False),  # a glob with / is anchored at its folder
        ("job[0-9].py", "src/job7.py", True),
        ("job[!0-9].py", "src/job7.py", False),
        ("j?b.py", "src/job.py", True),
    ],
)
def test_exclude_glob_semantics(tmp_path, glob, path, excluded):
    excluder = C.Excluder(tuple(C.Excluder.of([glob], tmp_path)))
    assert excluder.matches(tmp_path / path, whole=True) is excluded


def test_exclude_option_is_repeatable_and_applies_to_convert(project, tmp_path):
    for name in ("src/job.py", "src/legacy/old.py", "src/gen/x_test.py"):
        write(tmp_path / name, FLINK)
    out = tmp_path / "o"
    result = run("convert", "src", "--out", out, "--exclude", "legacy", "--exclude", "*_test.py", "-q")
    assert result.exit_code == 0
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*.py")) == ["job.py"]


def test_named_files_are_excluded_only_with_force_exclude(project):
    pyproject(project, 'exclude = ["legacy"]\n')
    assert checked(run("check", "src/legacy/old.py")) == {"src/legacy/old.py"}
    assert checked(run("check", "src/legacy")) == {"src/legacy/old.py"}  # a named folder is walked
    forced = run("check", "--force-exclude", "src/legacy/old.py", "src/job.py")
    assert checked(forced) == {"src/job.py"}
    # pre-commit passing only excluded files: nothing to do, not an error
    nothing = run("check", "--force-exclude", "src/legacy/old.py")
    assert nothing.exit_code == 0
    assert "every Python file given is excluded" in nothing.stderr
    pyproject(project, 'exclude = ["legacy"]\nforce-exclude = true\n')
    assert run("check", "src/legacy/old.py").exit_code == 0
    assert run("check", "--no-force-exclude", "src/legacy/old.py").exit_code == 1


# --------------------------------------------------------------------------- .gitignore


@pytest.fixture
def repo(project) -> Path:
    """project as a git work tree ignoring build/ and *.gen.py."""
    assert shutil.which("git"), "these tests need git"
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    write(project / ".gitignore", "build/\n*.gen.py\n")
    write(project / "src" / "build" / "b.py", "import pyflink\n")
    write(project / "src" / "x.gen.py", "import pyflink\n")
    return project


def test_git_ignored_files_are_skipped_while_walking(repo):
    assert checked(run("check", "src")) == {"src/job.py", "src/legacy/old.py", "src/gen/x_test.py"}
    assert checked(run("check", "src", "--no-respect-gitignore")) == {
        "src/job.py",
        "src/legacy/old.py",
        "src/gen/x_test.py",
        "src/build/b.py",
        "src/x.gen.py",
    }


def test_git_ignored_named_files_are_read_unless_force_exclude(repo):
    assert checked(run("check", "src/x.gen.py", "src/build/b.py")) == {"src/x.gen.py", "src/build/b.py"}
    assert checked(run("check", "src/build")) == {"src/build/b.py"}  # a named ignored folder is read
    forced = run("check", "--force-exclude", "src/x.gen.py", "src/build/b.py", "src/job.py")
    assert checked(forced) == {"src/job.py"}


def test_outside_a_work_tree_nothing_is_git_ignored(project):
    write(project / ".gitignore", "legacy/\n")  # no repository: the file means nothing
    assert "src/legacy/old.py" in checked(run("check", "src"))


def test_a_staged_file_that_gitignore_matches_is_still_read(repo):
    # pre-commit passes staged (so tracked) files: git ignores no tracked file, nor does --force-exclude
    subprocess.run(["git", "-C", str(repo), "add", "-f", "src/x.gen.py"], check=True)
    assert checked(run("check", "--force-exclude", "src/x.gen.py", "src/build/b.py")) == {"src/x.gen.py"}


def test_readme_documents_every_key_and_format():
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text("utf-8")
    block = readme.split("### Configuration", 1)[1].split("```toml\n", 1)[1].split("```", 1)[0]
    assert [line.split(" = ")[0] for line in block.splitlines()[1:]] == list(C.KEYS[:3]) + [
        "output-format",
        "force-exclude",
        "respect-gitignore",
        "spark-master",
        "spark-app-name",
        "jobs",
    ]
    assert set(C.KEYS) == {
        "exclude", "select", "ignore", "output-format", "force-exclude", "respect-gitignore", "spark-master", "spark-app-name",
        "jobs",
    }
    for fmt in C.OUTPUT_FORMATS:
        assert f"* **`{fmt}`**" in readme


# --------------------------------------------------------------------------- the Spark session


def _builder_line(result) -> str:
    return next(line for line in result.stdout.splitlines() if "SparkSession.builder" in line)


def test_session_master_and_app_name_from_the_config_and_the_command_line(project):
    write(project / "job.py", FLINK)
    assert _builder_line(run("convert", "job.py")) == "env = SparkSession.builder.getOrCreate()"
    pyproject(project, 'spark-app-name = "orders-etl"\nspark-master = "local[4]"\n')
    result = run("convert", "job.py")
    assert result.exit_code == 0, result.stderr
    assert _builder_line(result) == 'env = SparkSession.builder.master("local[4]").appName("orders-etl").getOrCreate()'
    result = run("convert", "job.py", "--spark-app-name", "nightly")
    assert _builder_line(result) == 'env = SparkSession.builder.master("local[4]").appName("nightly").getOrCreate()'
    # a run's settings do not stay behind for later conversions in the same process
    assert "appName" not in engine.convert_source(FLINK, "job.py").output


def test_session_settings_reach_pyflink_jobs_and_the_parallelism_builder(project):
    write(project / "ds.py", FLINK.replace("env = get_environment()\n", "env = get_environment()\nenv.set_parallelism(2)\n"))
    write(
        project / "pf.py",
        "from pyflink.datastream import StreamExecutionEnvironment\n"
        "env = StreamExecutionEnvironment.get_execution_environment()\n"
        "env.from_collection([1]).print()\n"
        "env.execute('j')\n",
    )
    for name, tail in (("ds.py", '.config("spark.default.parallelism","2").getOrCreate()'), ("pf.py", ".getOrCreate()")):
        result = run("convert", name, "--spark-app-name", "a b")
        code = "".join(result.stdout.split())  # black may wrap the builder over lines
        assert 'SparkSession.builder.appName("ab")' + tail in code, result.stdout


def test_bad_session_options_are_usage_errors(project):
    write(project / "job.py", FLINK)
    result = run("convert", "job.py", "--spark-master", "")
    assert result.exit_code == 2
    assert "--spark-master must be a non-empty string" in result.stderr
