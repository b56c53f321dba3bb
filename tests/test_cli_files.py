"""Hostile file names and interrupted writes (issue 17): temp files left by a kill, symlinks
leading out of the tree, names that look like options or hold control characters, --version
and the count of files that could not be converted."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from flink2spark.cli import app

REPO = Path(__file__).resolve().parent.parent
FLINK = (
    "from flink.plan.Environment import get_environment\n"
    "env = get_environment()\n"
    "env.from_elements(1, 2).output()\n"
    "env.execute(local=True)\n"
)
BAD = "import pyflink\ndef f(:\n"

runner = CliRunner()


def run(*args):
    return runner.invoke(app, [str(a) for a in args], catch_exceptions=False)


def command() -> list[str]:
    path = Path(sys.executable).parent / "flink2spark"
    if not path.exists():
        pytest.fail(f"the flink2spark command is not installed next to {sys.executable}")
    return [str(path)]


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, "utf-8")
    return path


# --------------------------------------------------------------------------- interrupted writes


def test_temp_file_left_by_a_kill_is_removed_on_the_next_write(tmp_path):
    job = write(tmp_path / "job.py", FLINK)
    # What a SIGKILL between mkstemp and rename leaves: '.NAME.' + 8 random chars + '.f2s-tmp', mode 0600.
    stale = write(tmp_path / ".job.py.k2x_9a0q.f2s-tmp", "half a file")
    stale.chmod(0o600)
    # Files of the user with similar names are not ours.
    kept = [
        write(tmp_path / ".job.py.notes.f2s-tmp", "mine"),  # not 8 random chars
        write(tmp_path / ".job.py.k2x_9a0q.f2s-tmp.bak", "mine"),
        write(tmp_path / ".other.py.k2x_9a0q.f2s-tmp", "mine"),  # next to a file not written
        write(tmp_path / "job.py.k2x_9a0q.f2s-tmp", "mine"),  # no leading dot
    ]
    result = run("convert", job, "--in-place", "--quiet")
    assert result.exit_code == 0, result.output
    assert job.read_text() != FLINK
    assert not stale.exists()
    assert all(p.read_text() == "mine" for p in kept)


def test_real_kill_inside_the_write_window_is_cleaned_by_the_next_run(tmp_path):
    job = write(tmp_path / "job.py", FLINK)
    # A child that stops for good inside atomic_write, after the temp file exists.
    script = (
        "import os, signal, sys\n"
        "from flink2spark.transpiler import files\n"
        "def stop(fd):\n"
        "    os.kill(os.getpid(), signal.SIGKILL)\n"
        "files.os.fsync = stop\n"
        "from flink2spark.cli import app\n"
        f"sys.argv = ['flink2spark', 'convert', {str(job)!r}, '--in-place', '--quiet']\n"
        "app()\n"
    )
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert proc.returncode == -9, proc.stderr
    left = [p for p in tmp_path.iterdir() if p.name.endswith(".f2s-tmp")]
    assert len(left) == 1 and (left[0].stat().st_mode & 0o777) == 0o600
    assert job.read_text() == FLINK
    proc = subprocess.run(command() + ["convert", str(job), "--in-place", "--quiet"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["job.py"]
    assert job.read_text() != FLINK


# --------------------------------------------------------------------------- symlinks


def test_in_place_refuses_a_symlink_leading_out_of_the_tree(tmp_path):
    outside = write(tmp_path / "elsewhere" / "shared.py", FLINK)
    project = tmp_path / "project"
    write(project / "job.py", FLINK)
    (project / "link.py").symlink_to(outside)
    (project / "sub").mkdir()
    (project / "sub" / "inner.py").symlink_to(project / "job.py")  # inside the tree: fine
    result = run("convert", project, "--in-place", "--quiet")
    assert result.exit_code == 2
    assert outside.read_text() == FLINK  # not rewritten
    assert (project / "link.py").is_symlink()
    assert f"{project / 'link.py'}:1:1: error: " in result.stderr
    assert "outside" in result.stderr and "symlink" in result.stderr
    assert (project / "job.py").read_text() != FLINK  # the other files are still converted
    # Named on the command line, a link to a file in another folder is refused too.
    result = run("convert", project / "link.py", "--in-place", "--quiet")
    assert result.exit_code == 2 and outside.read_text() == FLINK


def test_symlink_behaviour_is_documented():
    assert "symlink" in run("convert", "--help").output
    readme = (REPO / "README.md").read_text("utf-8")
    assert re.search(r"symlink[^\n]*\n?[^\n]*outside", readme)


# --------------------------------------------------------------------------- names that look like options


def test_hook_entries_end_with_double_dash_and_accept_option_like_names(tmp_path):
    text = (REPO / ".pre-commit-hooks.yaml").read_text()
    entries = dict(re.findall(r"^- id:\s*(\S+)(?:\n(?!- ).*)*?\n\s+entry:\s*(.+)$", text, re.M))
    assert set(entries) == {"flink2spark-check", "flink2spark-convert"}
    for hook_id, entry in entries.items():
        argv = shlex.split(entry)
        assert argv[0] == "flink2spark" and argv[-1] == "--", hook_id
        target = write(tmp_path / hook_id / "--in-place.py", FLINK)
        # As pre-commit runs it: the entry, then the file names (relative, from the repo root).
        proc = subprocess.run(
            command() + argv[1:] + [target.name], cwd=target.parent, capture_output=True, text=True
        )
        assert "No such option" not in proc.stderr, proc.stderr
        if hook_id == "flink2spark-check":
            assert proc.returncode == 1 and "--in-place.py:1:1: F2S900 " in proc.stdout
        else:
            assert proc.returncode == 0, proc.stderr
            assert target.read_text() != FLINK


# --------------------------------------------------------------------------- control characters in names


def test_names_with_control_characters_are_printed_escaped(tmp_path):
    names = ["evil\nx.py:9:9: F2S900 forged.py", "ansi\x1b[31mred.py"]
    for name in names:
        write(tmp_path / "src" / name, BAD)
    write(tmp_path / "src" / "plain name.py", BAD)
    report = tmp_path / "r.json"
    result = run("convert", tmp_path / "src", "--out", tmp_path / "out", "--report", report)
    assert result.exit_code == 2
    for name in names:
        assert name not in result.stderr  # never raw
        assert repr(str(tmp_path / "src" / name)) + ":2:" in result.stderr
    assert "\x1b" not in result.stderr
    assert not any(line.startswith("x.py:9:9") for line in result.stderr.splitlines())
    assert f"{tmp_path / 'src' / 'plain name.py'}:2:" in result.stderr  # ordinary names as before
    # The JSON report keeps the real names.
    paths = {Path(f["path"]).name for f in json.loads(report.read_text())["files"]}
    assert set(names) <= paths

    check = run("check", tmp_path / "src")
    assert check.exit_code == 2
    assert "\x1b" not in check.stderr + check.stdout
    assert repr(str(tmp_path / "src" / names[0])) + ":2:" in check.stderr


def test_diff_headers_and_usage_errors_escape_control_characters(tmp_path):
    job = write(tmp_path / "a\x1b]0;title\x07.py", FLINK)
    result = run("convert", job, "--diff", "--quiet")
    assert result.exit_code == 0
    head = result.stdout.splitlines()[:2]
    assert head[0].startswith("--- ") and head[1].startswith("+++ ")
    assert "\x1b" not in result.stdout and "\x07" not in "\n".join(head)
    assert "\\x1b]0;title\\x07.py" in head[0]
    missing = run("convert", tmp_path / "no\nsuch.py")
    assert missing.exit_code == 2
    assert "no\nsuch" not in missing.stderr and "no\\nsuch" in missing.stderr
    (tmp_path / "empty\x1b[2Jdir").mkdir()
    empty = run("check", tmp_path / "empty\x1b[2Jdir")
    assert empty.exit_code == 2
    assert "\x1b" not in empty.stderr and "empty\\x1b[2Jdir" in empty.stderr


# --------------------------------------------------------------------------- new users


def test_version(tmp_path):
    from importlib.metadata import version

    expected = version("flink2spark")
    for args in (["--version"], ["-V"]):
        result = run(*args)
        assert result.exit_code == 0
        assert result.stdout.strip() == f"flink2spark {expected}"
    pyproject = (REPO / "pyproject.toml").read_text()
    assert re.search(rf'^version\s*=\s*"{re.escape(expected)}"', pyproject, re.M)


def test_version_falls_back_to_pyproject(monkeypatch):
    import importlib.metadata

    from flink2spark import cli

    def missing(name):
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "version", missing)
    pyproject = (REPO / "pyproject.toml").read_text()
    expected = re.search(r'^version\s*=\s*"([^"]+)"', pyproject, re.M).group(1)
    assert cli._version() == expected


def test_examples_docstrings_give_working_commands():
    for example in sorted((REPO / "examples").glob("*.py")):
        text = example.read_text("utf-8")
        commands = re.findall(r"^ {4}(flink2spark\s.*)$", text, re.M)  # the indented command lines
        assert commands, example
        for line in commands:
            argv = shlex.split(line)
            assert argv[1] in {"convert", "check"}, (example.name, line)


def test_readme_pre_commit_snippet_has_no_placeholders():
    readme = (REPO / "README.md").read_text("utf-8")
    section = readme.split("## pre-commit", 1)[1].split("\n## ", 1)[0]
    assert "<owner>" not in section and "v0.1.0" not in section
    assert "repo: local" in section and "autoupdate" in section
    snippet = re.search(r"```yaml\n(.*?)```", section, re.S).group(1)
    assert "entry: flink2spark check --" in snippet


def test_error_count_is_the_last_line_and_in_the_report(tmp_path):
    write(tmp_path / "src" / "a.py", BAD)
    write(tmp_path / "src" / "b.py", BAD)
    write(tmp_path / "src" / "c.py", FLINK)
    report = tmp_path / "r.json"
    for extra in ([], ["--quiet"]):
        result = run("convert", tmp_path / "src", "--out", tmp_path / "out", "--report", report, *extra)
        assert result.exit_code == 2
        assert result.stderr.rstrip("\n").splitlines()[-1] == (
            "2 of 3 file(s) could not be converted (exit status 2)"
        )
    assert json.loads(report.read_text())["totals"]["error"] == 2
    check = run("check", tmp_path / "src")
    assert check.exit_code == 2
    assert check.stderr.rstrip("\n").splitlines()[-1].endswith("2 file(s) could not be checked (exit status 2)")
    readme = (REPO / "README.md").read_text("utf-8")
    exit_section = readme.split("### Exit status", 1)[1].split("\n## ", 1)[0]
    assert "could not be converted" in exit_section
