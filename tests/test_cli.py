"""The ``flink2spark`` command line: outputs, exit codes, bad inputs, reports.

Assertions hold for any engine (the conversion itself is tested elsewhere): a Flink input
converts to code that parses, non-Flink files come out byte-identical, bad files are
reported and left alone. Tests that need a particular conversion use a fake engine.
"""

from __future__ import annotations

import ast
import json
import os
import re
import stat
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from flink2spark.cli import app
from flink2spark.transpiler import engine, files, markers
from flink2spark.transpiler.result import ConversionResult, Marker

FLINK = (
    "from flink.plan.Environment import get_environment\n"
    "env = get_environment()\n"
    "env.from_elements(1, 2).output()\n"
    "env.execute(local=True)\n"
)
PLAIN = "import os\n\n\ndef main():\n    return os.getcwd()\n"

runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, [str(a) for a in args], catch_exceptions=False)


def write(path: Path, content: str | bytes, mode: int | None = None) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, str):
        content = content.encode("utf-8")
    path.write_bytes(content)
    if mode is not None:
        path.chmod(mode)
    return path


def snapshot(root: Path, exclude: Path | None = None) -> dict[str, tuple[bytes, int, int]]:
    """Every file under ``root``: bytes, mode, mtime (to show nothing was written)."""
    state = {}
    for path in sorted(root.rglob("*")):
        if exclude is not None and (path == exclude or exclude in path.parents):
            continue
        if path.is_file() and not path.is_symlink():
            st = path.stat()
            state[str(path.relative_to(root))] = (path.read_bytes(), st.st_mode, st.st_mtime_ns)
    return state


def parses(code: str) -> bool:
    ast.parse(code)
    return True


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A project: Flink and plain files in subfolders, plus folders the walk must skip."""
    src = tmp_path / "src"
    write(src / "job.py", FLINK)
    write(src / "run.py", FLINK, mode=0o755)
    write(src / "pkg" / "__init__.py", "")
    write(src / "pkg" / "util.py", PLAIN)
    write(src / "pkg" / "sub" / "deep.py", FLINK)
    write(src / "pkg" / "sub" / "data.txt", "not python\n")
    write(src / ".hidden" / "h.py", FLINK)
    write(src / "venv" / "pyvenv.cfg", "home = /usr\n")
    write(src / "venv" / "lib" / "v.py", FLINK)
    write(src / "__pycache__" / "c.py", FLINK)
    write(src / "node_modules" / "n.py", FLINK)
    write(src / "lib" / "site-packages" / "dep.py", FLINK)
    return src


EXPECTED_MIRROR = {"job.py", "run.py", "pkg/__init__.py", "pkg/util.py", "pkg/sub/deep.py"}


def mirrored(out: Path) -> set[str]:
    return {str(p.relative_to(out).as_posix()) for p in out.rglob("*") if p.is_file()}


# --------------------------------------------------------------------------- help and usage


def test_help_documents_exit_codes():
    for args in ([], ["convert"], ["check"]):
        result = run(*args, "--help")
        assert result.exit_code == 0
        assert "Exit status" in result.output
    assert "--strict" in run("convert", "--help").output


@pytest.mark.parametrize(
    "args",
    [
        [],  # no command
        ["frobnicate"],  # unknown command
        ["convert"],  # no path
        ["convert", "does-not-exist.py"],
        ["check", "does-not-exist"],
        ["convert", "--no-such-option", "x.py"],
    ],
)
def test_usage_errors_exit_2(args, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert run(*args).exit_code == 2


def test_conflicting_outputs_exit_2(tree, tmp_path):
    before = snapshot(tmp_path)
    for args in (
        ["--out", tmp_path / "o", "--in-place"],
        ["--diff", "--in-place"],
        ["--out", tmp_path / "o", "--diff"],
    ):
        result = run("convert", tree, *args)
        assert result.exit_code == 2, args
        assert "cannot be used together" in result.stderr
    assert snapshot(tmp_path) == before


def test_stdout_needs_exactly_one_file(tree):
    result = run("convert", tree)
    assert result.exit_code == 2
    assert "exactly one file" in result.stderr
    assert result.stdout == ""


def test_directory_without_python_files_exit_2(tmp_path):
    write(tmp_path / "d" / "notes.txt", "x")
    result = run("convert", tmp_path / "d", "--out", tmp_path / "o")
    assert result.exit_code == 2
    assert "no Python files" in result.stderr
    assert not (tmp_path / "o").exists()


# --------------------------------------------------------------------------- stdout


def test_single_file_to_stdout(tree):
    result = run("convert", tree / "job.py", "--quiet")
    assert result.exit_code == 0
    assert parses(result.stdout)
    assert result.stderr == ""


def test_plain_file_to_stdout_is_identical(tree):
    result = run("convert", tree / "pkg" / "util.py")
    assert result.exit_code == 0
    assert result.stdout == PLAIN


def test_summary_on_stderr_unless_quiet(tree, tmp_path):
    loud = run("convert", tree, "--out", tmp_path / "o1")
    assert loud.exit_code == 0
    for word in ("converted", "partial", "unchanged", "error", "note", "todo", "total"):
        assert word in loud.stderr
    quiet = run("convert", tree, "--out", tmp_path / "o2", "--quiet")
    assert quiet.exit_code == 0
    assert quiet.stderr == ""


# --------------------------------------------------------------------------- --out


def test_out_mirrors_the_tree(tree, tmp_path):
    out = tmp_path / "out"
    before = snapshot(tmp_path)
    result = run("convert", tree, "--out", out)
    assert result.exit_code == 0, result.stderr

    assert mirrored(out) == EXPECTED_MIRROR
    # Non-Flink files, empty ones included, are copied byte for byte.
    assert (out / "pkg" / "util.py").read_bytes() == PLAIN.encode()
    assert (out / "pkg" / "__init__.py").read_bytes() == b""
    for name in ("job.py", "run.py", "pkg/sub/deep.py"):
        assert parses((out / name).read_text("utf-8"))
    # File modes follow the input (an executable script stays executable).
    assert stat.S_IMODE((out / "run.py").stat().st_mode) == 0o755
    # The input tree is untouched and nothing else was written.
    assert snapshot(tmp_path, exclude=out) == before
    assert not list(out.rglob("*.f2s-tmp"))


def test_out_mirrors_relative_to_common_root(tmp_path):
    a = write(tmp_path / "proj" / "a" / "one.py", FLINK)
    b = write(tmp_path / "proj" / "b" / "c" / "two.py", PLAIN)
    out = tmp_path / "out"
    result = run("convert", a, b, "--out", out)
    assert result.exit_code == 0, result.stderr
    assert mirrored(out) == {"a/one.py", "b/c/two.py"}


def test_out_inside_input_tree_is_not_read_back(tree):
    out = tree / "build"
    for _ in range(2):  # the second run must not convert the first run's output
        result = run("convert", tree, "--out", out)
        assert result.exit_code == 0, result.stderr
    assert mirrored(out) == EXPECTED_MIRROR


def test_out_with_relative_paths(tree, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("convert", "src", "--out", "out")
    assert result.exit_code == 0, result.stderr
    assert mirrored(tmp_path / "out") == EXPECTED_MIRROR


def test_out_never_writes_outside(tmp_path):
    """A symlink inside --out pointing elsewhere must not be written through."""
    write(tmp_path / "src" / "pkg" / "mod.py", PLAIN)
    write(tmp_path / "src" / "pkg" / "sub" / "deep.py", PLAIN)  # no folder may be created there either
    write(tmp_path / "src" / "top.py", PLAIN)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    out = tmp_path / "out"
    out.mkdir()
    (out / "pkg").symlink_to(elsewhere, target_is_directory=True)
    result = run("convert", tmp_path / "src", "--out", out)
    assert result.exit_code == 2
    assert "outside" in result.stderr
    assert list(elsewhere.iterdir()) == []
    assert (out / "top.py").read_text() == PLAIN  # the other files are still written


# --------------------------------------------------------------------------- --diff, --in-place


def test_diff_writes_nothing(tree, tmp_path):
    before = snapshot(tmp_path)
    result = run("convert", tree, "--diff", "--quiet")
    assert result.exit_code == 0
    assert snapshot(tmp_path) == before
    # Either nothing changed, or every hunk belongs to a file header.
    if result.stdout:
        assert result.stdout.startswith("--- a/")
        assert "pkg/util.py" not in result.stdout


def test_in_place_leaves_no_temp_files(tree):
    plain_before = (tree / "pkg" / "util.py").stat()
    result = run("convert", tree, "--in-place")
    assert result.exit_code == 0, result.stderr
    assert not list(tree.rglob("*.f2s-tmp"))
    assert not [p for p in tree.rglob(".*") if p.is_file()]
    for name in ("job.py", "run.py", "pkg/sub/deep.py"):
        assert parses((tree / name).read_text("utf-8"))
    assert stat.S_IMODE((tree / "run.py").stat().st_mode) == 0o755
    # Unchanged files are not rewritten at all.
    assert (tree / "pkg" / "util.py").read_bytes() == PLAIN.encode()
    assert (tree / "pkg" / "util.py").stat().st_mtime_ns == plain_before.st_mtime_ns
    # Skipped folders are not touched.
    assert (tree / ".hidden" / "h.py").read_text() == FLINK
    assert (tree / "venv" / "lib" / "v.py").read_text() == FLINK


# --------------------------------------------------------------------------- a fake engine


def fake_convert(data: bytes, path: str = "<string>", shadowed: frozenset = frozenset()) -> ConversionResult:
    """Upper-cases ``env`` and leaves one marker of each non-error severity on Flink files."""
    result = engine.convert_source(data.decode("utf-8"), path) if data else engine.convert_bytes(data, path)
    if result.status == "error" or result.generation is None:
        return result
    result.output = re.sub(r"\benv\b", "ENV", result.source)
    result.status = "partial"
    result.markers = [
        Marker(2, 1, markers.DS_PARALLELISM, "note", "parallelism dropped"),
        Marker(3, 1, markers.DS_UNSUPPORTED, "todo", "no conversion"),
    ]
    return result


@pytest.fixture
def fake_engine(monkeypatch):
    monkeypatch.setattr(engine, "convert_bytes", fake_convert)


def test_diff_output_is_a_unified_diff(tree, fake_engine):
    result = run("convert", tree / "job.py", "--diff", "--quiet")
    assert result.exit_code == 0
    name = str(tree / "job.py").lstrip("/")
    assert result.stdout.startswith(f"--- a/{name}\n+++ b/{name}\n@@ ")
    assert "\n-env = get_environment()\n" in result.stdout
    assert "\n+ENV = get_environment()\n" in result.stdout
    assert "\n from flink.plan.Environment import get_environment\n" in result.stdout  # context line
    assert (tree / "job.py").read_text() == FLINK


def test_in_place_rewrites_atomically_keeping_mode_and_symlinks(tree, tmp_path, fake_engine):
    link = tmp_path / "link.py"
    link.symlink_to(tree / "run.py")
    result = run("convert", tree / "job.py", link, "--in-place")
    assert result.exit_code == 0, result.stderr
    assert (tree / "job.py").read_text() == re.sub(r"\benv\b", "ENV", FLINK)
    assert link.is_symlink()  # the link is kept, its target rewritten
    assert (tree / "run.py").read_text() == re.sub(r"\benv\b", "ENV", FLINK)
    assert stat.S_IMODE((tree / "run.py").stat().st_mode) == 0o755
    assert not list(tmp_path.rglob("*.f2s-tmp"))


def test_atomic_write_failure_keeps_original(tmp_path, monkeypatch):
    target = write(tmp_path / "f.py", "old\n")

    def boom(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(files.os, "replace", boom)
    with pytest.raises(OSError):
        files.atomic_write(target, b"new\n")
    assert target.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["f.py"]


def test_markers_printed_and_strict(tree, tmp_path, fake_engine):
    result = run("convert", tree / "job.py", "--out", tmp_path / "o")
    assert result.exit_code == 0  # TODO markers alone are not a failure...
    assert f"{tree / 'job.py'}:3:1: F2S100 no conversion" in result.stderr
    assert f"{tree / 'job.py'}:2:1: F2S105 parallelism dropped" in result.stderr
    strict = run("convert", tree / "job.py", "--out", tmp_path / "o", "--strict")
    assert strict.exit_code == 1  # ...unless --strict
    quiet = run("convert", tree / "job.py", "--out", tmp_path / "o", "--quiet")
    assert quiet.stderr == ""


def test_report_json(tree, tmp_path, fake_engine):
    write(tree / "broken.py", "import pyflink\nx = (\n")
    report = tmp_path / "report.json"
    result = run("convert", tree, "--out", tmp_path / "o", "--report", report)
    assert result.exit_code == 2
    data = json.loads(report.read_text())
    assert data["version"] == 1
    assert set(data["totals"]) == {
        "files", "converted", "partial", "unchanged", "error", "notes", "todos", "errors", "rules", "codes"
    }
    by_path = {Path(f["path"]).relative_to(tree).as_posix(): f for f in data["files"]}
    # Empty files found by walking are not part of the run.
    assert set(by_path) == {"broken.py", "job.py", "run.py", "pkg/util.py", "pkg/sub/deep.py"}
    for entry in data["files"]:
        assert set(entry) >= {"path", "generation", "status", "changed", "rules_applied", "markers"}
    assert by_path["broken.py"]["status"] == "error"
    assert by_path["broken.py"]["markers"][0]["code"] == "F2S001"
    assert by_path["pkg/util.py"]["status"] == "unchanged"
    assert by_path["job.py"]["changed"] is True
    assert data["totals"] == {
        "files": 5,
        "converted": 0,
        "partial": 3,
        "unchanged": 1,
        "error": 1,
        "notes": 3,
        "todos": 3,
        "errors": 1,
        # the three Flink files: the rules of FLINK's four statements, the fake engine's two markers
        "rules": {"dataset.environment": 3, "dataset.execute": 3, "dataset.from_elements": 3, "dataset.output": 3},
        "codes": {"F2S001": 1, "F2S100": 3, "F2S105": 3},
    }


def test_converter_crash_on_one_file_does_not_stop_the_others(tree, tmp_path, monkeypatch):
    def crashing(data: bytes, path: str = "<string>", shadowed: frozenset = frozenset()) -> ConversionResult:
        if path.endswith("job.py"):
            raise RuntimeError("boom")
        return fake_convert(data, path)

    monkeypatch.setattr(engine, "convert_bytes", crashing)
    out = tmp_path / "out"
    report = tmp_path / "reports" / "r.json"  # the folder is created
    result = run("convert", tree, "--out", out, "--report", report)
    assert result.exit_code == 2
    assert re.search(
        r"job\.py:1:1: error: F2S\d{3} internal error in the converter \(RuntimeError: boom\)", result.stderr
    )
    assert mirrored(out) == EXPECTED_MIRROR - {"job.py"}
    assert json.loads(report.read_text())["totals"]["error"] == 1


def test_report_totals_are_consistent_with_real_engine(tree, tmp_path):
    report = tmp_path / "r.json"
    assert run("convert", tree, "--out", tmp_path / "o", "--report", report, "-q").exit_code == 0
    data = json.loads(report.read_text())
    totals = data["totals"]
    assert totals["files"] == len(data["files"]) == 4
    assert sum(totals[s] for s in ("converted", "partial", "unchanged", "error")) == totals["files"]
    all_markers = [m for f in data["files"] for m in f["markers"]]
    for severity, key in (("note", "notes"), ("todo", "todos"), ("error", "errors")):
        assert totals[key] == sum(m["severity"] == severity for m in all_markers)
    assert {f["generation"] for f in data["files"]} == {"dataset", None}


# --------------------------------------------------------------------------- bad inputs


@pytest.fixture
def bad_inputs(tmp_path: Path) -> dict[str, Path]:
    d = tmp_path / "in"
    return {
        "good": write(d / "good.py", FLINK),
        "plain": write(d / "plain.py", PLAIN),
        "syntax": write(d / "syntax.py", "import pyflink\ny = (\n"),
        "py2": write(d / "py2.py", 'import flink\nprint "hello", flink\n'),
        "latin1": write(d / "latin1.py", b"# caf\xe9\nx = 1\n"),
        "binary": write(d / "binary.py", bytes(range(256))),
        "empty": write(d / "empty.py", b""),
    }


EXPECTED_ERRORS = {
    "syntax": r"syntax\.py:2:\d+: error: F2S001 ",
    "py2": r"py2\.py:2:\d+: error: F2S002 .*Python 2",
    "latin1": r"latin1\.py:1:6: error: F2S003 .*UTF-8",
    "binary": r"binary\.py:1:1: error: F2S003 ",
    "empty": r"empty\.py:1:1: error: F2S004 ",
}


def check_bad_inputs_reported(result, inputs, before):
    assert result.exit_code == 2
    for name, pattern in EXPECTED_ERRORS.items():
        assert re.search(pattern, result.stderr), (name, result.stderr)
        assert inputs[name].read_bytes() == before[name], name


def test_bad_inputs_with_out(bad_inputs, tmp_path):
    before = {k: p.read_bytes() for k, p in bad_inputs.items()}
    out = tmp_path / "out"
    result = run("convert", *bad_inputs.values(), "--out", out)
    check_bad_inputs_reported(result, bad_inputs, before)
    # The good files are converted; the bad ones are not written to --out.
    assert mirrored(out) == {"good.py", "plain.py"}
    assert parses((out / "good.py").read_text())
    assert (out / "plain.py").read_bytes() == PLAIN.encode()


def test_bad_inputs_in_place(bad_inputs, tmp_path):
    before = {k: p.read_bytes() for k, p in bad_inputs.items()}
    result = run("convert", *bad_inputs.values(), "--in-place")
    check_bad_inputs_reported(result, bad_inputs, before)
    assert parses(bad_inputs["good"].read_text())
    assert bad_inputs["plain"].read_bytes() == PLAIN.encode()
    assert not list(tmp_path.rglob("*.f2s-tmp"))


def test_bad_file_on_stdout(bad_inputs):
    result = run("convert", bad_inputs["syntax"])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert re.search(EXPECTED_ERRORS["syntax"], result.stderr)


def test_syntax_error_position_points_at_the_problem(tmp_path):
    f = write(tmp_path / "f.py", "import pyflink\ndef f(:\n    pass\n")
    assert re.search(r"f\.py:2:7: error: F2S001 ", run("convert", f).stderr)
    f = write(tmp_path / "g.py", "import pyflink\nx = (\n")
    assert re.search(r"g\.py:2:5: error: F2S001 syntax error: '\(' was never closed", run("convert", f).stderr)


def test_files_without_flink_text_are_copied_whatever_their_shape(tmp_path):
    """No Flink import text: not parsed, copied byte for byte (issue 17: such files were
    missing from --out after a RecursionError or a syntax error)."""
    shapes = {
        "broken.py": "x = (\n",
        "long_sum.py": "TOTAL = " + " + ".join(["1"] * 400) + "\n",
        "deep.py": "x = " + "(" * 1300 + "1" + ")" * 1300 + "\n",
    }
    for name, text in shapes.items():
        write(tmp_path / "in" / name, text)
    result = run("convert", tmp_path / "in", "--out", tmp_path / "out")
    assert result.exit_code == 0, result.stderr
    for name, text in shapes.items():
        assert (tmp_path / "out" / name).read_text() == text


def test_empty_files_in_a_directory_are_skipped(tmp_path):
    write(tmp_path / "d" / "__init__.py", b"")
    write(tmp_path / "d" / "job.py", FLINK)
    result = run("convert", tmp_path / "d", "--out", tmp_path / "o", "--quiet")
    assert result.exit_code == 0, result.stderr
    assert (tmp_path / "o" / "__init__.py").read_bytes() == b""


def test_skip_empty_for_explicit_files(tmp_path):
    empty = write(tmp_path / "__init__.py", b"")
    result = run("convert", empty, "--in-place", "--skip-empty")
    assert result.exit_code == 0
    assert empty.read_bytes() == b""


def test_no_progress_output_when_not_a_tty(tmp_path):
    for i in range(25):
        write(tmp_path / "d" / f"m{i:02}.py", FLINK)
    result = run("convert", tmp_path / "d", "--out", tmp_path / "o", "--quiet")
    assert result.exit_code == 0
    assert result.stderr == ""


# --------------------------------------------------------------------------- codes, rules


def test_codes_lists_every_code():
    table = run("codes")
    assert table.exit_code == 0
    for code in markers.CODES:
        assert code in table.stdout
    as_json = json.loads(run("codes", "--json").stdout)
    assert [c["code"] for c in as_json] == list(markers.CODES)
    assert {c["severity"] for c in as_json} <= {"note", "todo", "error"}


def test_rules_lists_every_rule():
    registry = pytest.importorskip("flink2spark.transpiler.registry")
    rules = registry.all_rules()
    result = run("rules", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert [r["id"] for r in data] == [r.id for r in rules]
    for row, rule in zip(data, rules):
        assert row == {
            "id": rule.id,
            "generation": rule.generation,
            "matches": list(rule.matches),
            "exact": bool(rule.exact),
            "form": rule.form,
            "summary": rule.summary,
        }
        assert row["form"] in ("native", "shim")
    table = run("rules")
    assert table.exit_code == 0
    for rule in rules:
        assert rule.id in table.stdout


# --------------------------------------------------------------------------- shim-zip


def test_shim_zip_is_importable(tmp_path):
    zip_path = tmp_path / "dist" / "flink2spark_runtime.zip"
    result = run("shim-zip", zip_path)
    assert result.exit_code == 0, result.stderr
    names = zipfile.ZipFile(zip_path).namelist()
    assert "flink2spark/__init__.py" in names
    assert "flink2spark/runtime/__init__.py" in names
    package = Path(engine.__file__).resolve().parent.parent
    runtime_files = {
        "flink2spark/" + p.relative_to(package).as_posix()
        for p in (package / "runtime").rglob("*.py")
        if "__pycache__" not in p.parts
    }
    assert runtime_files <= set(names)
    assert not [n for n in names if "transpiler" in n or "__pycache__" in n]
    # Import the shim from the zip, as a Spark executor would with --py-files.
    modules = sorted(n[: -len(".py")].replace("/", ".").removesuffix(".__init__") for n in names)
    code = (
        "import importlib, sys\n"
        "sys.path.insert(0, sys.argv[1])\n"
        "for name in sys.argv[2:]:\n"
        "    module = importlib.import_module(name)\n"
        "    assert module.__file__.startswith(sys.argv[1]), module.__file__\n"
        "assert 'libcst' not in sys.modules and 'black' not in sys.modules\n"
        "print('ok')\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code, str(zip_path), *modules], capture_output=True, text=True, cwd=tmp_path
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "ok"


# --------------------------------------------------------------------------- the installed command


def installed_command() -> str:
    path = Path(sys.executable).parent / "flink2spark"
    if not path.exists():
        pytest.fail(f"the flink2spark command is not installed next to {sys.executable}")
    return str(path)


def test_installed_command(tree, tmp_path):
    cmd = installed_command()
    out = tmp_path / "out"
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "FORCE_COLOR")}
    proc = subprocess.run([cmd, "convert", str(tree), "--out", str(out)], capture_output=True, text=True, env=env)
    assert proc.returncode == 0, proc.stderr
    assert mirrored(out) == EXPECTED_MIRROR
    assert "total" in proc.stderr  # the summary
    check = subprocess.run([cmd, "check", str(tree / "job.py")], capture_output=True, text=True, env=env)
    assert check.returncode == 1
    assert f"{tree / 'job.py'}:1:1: F2S900 " in check.stdout
    usage = subprocess.run([cmd, "convert", "--in-place", "--diff", str(tree)], capture_output=True, text=True)
    assert usage.returncode == 2


# --------------------------------------------------------------------------- pre-commit hooks


def test_pre_commit_hooks_file():
    text = (Path(__file__).resolve().parent.parent / ".pre-commit-hooks.yaml").read_text()
    hooks = re.split(r"^- ", text, flags=re.M)[1:]
    by_id = {re.search(r"id:\s*(\S+)", h).group(1): h for h in hooks}
    assert set(by_id) == {"flink2spark-check", "flink2spark-convert"}
    # Entries end with `--`: pre-commit appends the file names, which may look like options.
    assert re.search(r"entry:\s*flink2spark check --force-exclude --\s*$", by_id["flink2spark-check"], re.M)
    assert re.search(r"entry:\s*flink2spark convert --in-place\b.* --\s*$", by_id["flink2spark-convert"], re.M)
    # pre-commit names every staged file: the project's exclude globs apply to them too.
    assert re.search(r"entry:.*--force-exclude --\s*$", by_id["flink2spark-convert"], re.M)
    for hook in by_id.values():
        assert re.search(r"language:\s*python\s*$", hook, re.M)
        assert re.search(r"types:\s*\[python\]", hook)


# --------------------------------------------------------------------------- README, CI


REPO = Path(__file__).resolve().parent.parent


def load_gen_docs():
    import importlib.util

    spec = importlib.util.spec_from_file_location("gen_docs", REPO / "scripts" / "gen_docs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def quickstart_commands() -> list[str]:
    readme = (REPO / "README.md").read_text("utf-8")
    section = readme.split("## Quickstart", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```sh\n(.*?)\n```", section, re.S)


def test_readme_codes_table_is_up_to_date():
    gen_docs = load_gen_docs()
    text = (REPO / "README.md").read_text("utf-8")
    assert gen_docs.render(text, ("codes",)) == text, "README.md is out of date: run `python scripts/gen_docs.py`"


def test_readme_rules_table_is_up_to_date():
    pytest.importorskip("flink2spark.transpiler.registry")
    gen_docs = load_gen_docs()
    text = (REPO / "README.md").read_text("utf-8")
    assert gen_docs.rules_table() is not None
    assert gen_docs.render(text, ("rules",)) == text, "README.md is out of date: run `python scripts/gen_docs.py`"


def test_quickstart_is_two_commands_and_ci_runs_the_second():
    commands = quickstart_commands()
    assert len(commands) == 2 and all("\n" not in c for c in commands), commands
    convert_examples, run_tests = commands
    assert "flink2spark convert examples --out build/examples" in convert_examples
    assert convert_examples.endswith(".venv/bin/python build/examples/word_count.py")
    assert run_tests.endswith("-m pytest -q")
    ci = (REPO / ".ci" / "run").read_text("utf-8")
    assert ci.startswith("#!/usr/bin/env bash\n")
    assert "set -euo pipefail" in ci
    assert any(line.startswith(run_tests + " ") or line == run_tests for line in ci.splitlines()), ci
    assert os.access(REPO / ".ci" / "run", os.X_OK)
