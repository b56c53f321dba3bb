"""Flink imports whose meaning depends on their guard (issue 17): try/except ImportError,
``if TYPE_CHECKING:``, ``sys.modules`` mocks, a project's own ``flink`` package; and the shim's
own calls in a converted file, which a second conversion must leave alone."""

from __future__ import annotations

from pathlib import Path

from flink2spark.transpiler import files
from flink2spark.transpiler.check import check_source
from flink2spark.transpiler.engine import convert_source

GUARDED_JOB = """\
try:
    from pyflink.datastream import StreamExecutionEnvironment
    HAVE_FLINK = True
except ImportError:
    HAVE_FLINK = False

if HAVE_FLINK:
    env = StreamExecutionEnvironment.get_execution_environment()
    env.from_collection([1, 2]).print()
    env.execute("job")
"""


def codes(result):
    return [(m.line, m.code) for m in result.markers]


def test_guarded_import_that_is_used_gets_a_note_at_the_try():
    result = convert_source(GUARDED_JOB, "job.py")
    assert (1, "F2S010") in codes(result)
    assert "# NOTE(flink2spark): F2S010 " in result.output
    assert "pyflink" not in result.output.replace("NOTE(flink2spark)", "")
    assert convert_source(result.output, "job.py").output == result.output


def test_guarded_import_used_only_as_a_flag_is_left_byte_for_byte():
    source = "try:\n    import pyflink  # noqa\n    HAVE = True\nexcept ImportError:\n    HAVE = False\nprint( HAVE )\n"
    result = convert_source(source, "flag.py")
    assert (result.status, result.output, result.markers) == ("unchanged", source, [])
    assert check_source(source, "flag.py") == []


def test_unguarded_import_beside_a_flag_is_still_converted():
    source = "import pyflink\ntry:\n    import pyflink.table\nexcept ImportError:\n    pass\n"
    assert check_source(source, "f.py")  # the plain import is a finding


def test_type_checking_import_stays_with_a_todo():
    source = (
        "from typing import TYPE_CHECKING\n"
        "from pyflink.datastream import StreamExecutionEnvironment\n"
        "if TYPE_CHECKING:\n"
        "    from pyflink.datastream import DataStream\n\n"
        "def show(ds: 'DataStream') -> None:\n"
        "    ds.print()\n\n"
        "env = StreamExecutionEnvironment.get_execution_environment()\n"
        "show(env.from_collection([1, 2]))\n"
        "env.execute('j')\n"
    )
    result = convert_source(source, "tc.py")
    assert (4, "F2S011") in codes(result)
    assert "    from pyflink.datastream import DataStream\n" in result.output
    assert "pass" not in result.output
    assert convert_source(result.output, "tc.py").output == result.output


def test_a_module_mocking_flink_in_sys_modules_is_left_as_is_with_a_todo():
    source = (
        "import sys\nfrom unittest import mock\n"
        "sys.modules['pyflink'] = mock.MagicMock()\n"
        "from pyflink.datastream import StreamExecutionEnvironment\n\n"
        "def test_env():\n"
        "    StreamExecutionEnvironment.get_execution_environment().from_collection([1]).print()\n"
    )
    result = convert_source(source, "test_job.py")
    assert codes(result) == [(3, "F2S012")]
    lines = result.output.splitlines(keepends=True)
    assert lines[2].startswith("# TODO(flink2spark): F2S012 ")
    assert "".join(lines[:2] + lines[3:]) == source  # nothing else changes
    assert convert_source(result.output, "test_job.py").output == result.output


def test_shim_calls_of_a_converted_file_are_not_flink():
    source = (
        "from flink.plan.Environment import get_environment\n"
        "from flink.functions.Unknown import Unknown\n"
        "env = get_environment()\n"
        "data = env.read_csv('in.csv', (int, str))\n"
        "data.map(Unknown()).output()\n"
        "env.execute(local=True)\n"
    )
    first = convert_source(source, "job.py")
    assert "F2S112" in {m.code for m in first.markers}  # the unknown import is kept and marked
    second = convert_source(first.output, "job.py")
    assert second.output == first.output
    assert "F2S114" not in {m.code for m in second.markers}


def test_a_local_flink_package_shadows_the_flink_api(tmp_path):
    for name, text in {
        "flink/__init__.py": "",
        "flink/plan/Environment.py": "def get_environment():\n    return {}\n",
        "app/job.py": "from flink.plan.Environment import get_environment\nenv = get_environment()\n",
        "other/pyflink.py": "X = 1\n",
    }.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    inputs = files.collect([tmp_path])
    assert files.local_flink_modules(inputs) == {"flink", "pyflink"}
    # Given alone, app/job.py has no flink package beside it or above it up to its folder.
    assert files.local_flink_modules(files.collect([tmp_path / "app"])) == frozenset()

    source = (tmp_path / "app/job.py").read_text()
    assert convert_source(source, "job.py", frozenset({"flink"})).status == "unchanged"
    assert check_source(source, "job.py", frozenset({"flink"})) == []
    assert convert_source(source, "job.py").status != "unchanged"  # without the tree: Flink's
