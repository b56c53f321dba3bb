"""Statements that cannot touch Flink are set aside before libcst (transpiler/elide.py)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from flink2spark.transpiler import elide as E
from flink2spark.transpiler import engine

ROOT = Path(__file__).resolve().parent.parent

JOB = '''"""A job."""
import os
from pyflink.datastream import StreamExecutionEnvironment

LIMIT = 3
UNUSED = {'a': [1, 2]}


def unrelated(x):
    total = x + 1
    return total


def show(ds):
    ds.print()


def double(x):
    return x * LIMIT


class Report:
    def render(self, x):
        return os.path.join("r", str(x))


env = StreamExecutionEnvironment.get_execution_environment()
show(env.from_collection([1, 2]).map(double))
env.execute("job")
'''


def _set_aside(source: str) -> list[str]:
    reduced = E.elide(source, ast.parse(source))
    return [] if reduced is None else list(reduced.originals.values())


def test_statements_linked_to_flink_are_kept_the_rest_set_aside():
    aside = "".join(_set_aside(JOB))
    assert "UNUSED" in aside and "def unrelated" in aside and "class Report" in aside
    for kept in ("def show", "def double", "LIMIT = 3", "import os", "env.execute", '"""A job."""'):
        assert kept not in aside, kept


def test_consecutive_statements_share_one_placeholder_and_lines_are_kept():
    source = "import pyflink\n\n" + "".join(f"def h{i}(x):\n    return x + {i}\n\n" for i in range(500)) + "pyflink.run()\n"
    reduced = E.elide(source, ast.parse(source))
    assert reduced is not None and len(reduced.originals) == 1
    assert reduced.text.count("\n") == source.count("\n")
    assert reduced.restore(reduced.text) == source


def test_no_placeholder_when_the_source_has_the_placeholder_text():
    source = "import pyflink\n__f2s_elided_0__ = 1\n\n\ndef f():\n    pass\n"
    assert E.elide(source, ast.parse(source)) is None


def test_statements_sharing_a_line_stay_together():
    source = "from pyflink.datastream import StreamExecutionEnvironment\nA = 1; env = StreamExecutionEnvironment.get_execution_environment()\nB = 2\n"
    aside = "".join(_set_aside(source))
    assert "A = 1" not in aside and "B = 2" in aside


def test_restore_refuses_a_lost_placeholder():
    reduced = E.elide(JOB, ast.parse(JOB))
    assert reduced is not None
    assert reduced.restore("nothing here\n") is None


PAD_MIDDLE = """

PAD_TABLE = {'k':[1,2],   'z': (3,)}


def _pad_helper(x):
    y = x*2
    return y


class _PadThing:
    def m(self):  return 1
"""

PAD_END = """


# helpers no job uses
def _pad_tail(a, b):
    return a+b
"""


def _padded(source: str) -> str:
    """``source`` with statements no Flink code uses after its last top-level import and at its end."""
    body = ast.parse(source).body
    last = max((s.end_lineno for s in body if isinstance(s, (ast.Import, ast.ImportFrom))), default=0)
    lines = source.splitlines(keepends=True)
    return "".join(lines[:last]) + PAD_MIDDLE + "".join(lines[last:]) + PAD_END


INPUTS = sorted(ROOT.glob("fixtures/*/*/input.py")) + sorted(ROOT.glob("examples/*.py"))


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_setting_aside_changes_no_conversion(path, monkeypatch):
    """Every fixture and example, with unrelated statements added, converts exactly as without setting aside."""
    source = _padded(path.read_text())
    aside = "".join(_set_aside(source))
    assert "_pad_helper" in aside and "_pad_tail" in aside
    fast = engine.convert_source(source, str(path))
    monkeypatch.setattr(E, "elide", lambda source, tree, distinctive: None)
    slow = engine.convert_source(source, str(path))
    assert fast.output == slow.output
    assert fast.markers == slow.markers
    assert (fast.status, fast.rules_applied) == (slow.status, slow.rules_applied)
    assert "PAD_TABLE = {'k':[1,2],   'z': (3,)}" in fast.output  # put back byte for byte


def test_a_flink_star_import_sets_nothing_aside():
    source = "from flink.plan.Environment import *\n\nenv = get_environment()\nX = 1\n"
    assert E.elide(source, ast.parse(source)) is None


def test_a_statement_calling_a_method_only_flink_has_is_kept():
    """``t_env.execute_sql(...)`` on an object of another module links to no Flink name, but the
    converter must see it to mark it (F2S209): a call of a distinctive method keeps its statement."""
    source = "import pyflink\nfrom config import t_env\n\nUNUSED = 1\nt_env.execute_sql('SELECT 1')\npyflink.run()\n"
    kept_with = "".join(E.elide(source, ast.parse(source), frozenset({"execute_sql"})).originals.values())
    kept_without = "".join(E.elide(source, ast.parse(source)).originals.values())
    assert "UNUSED" in kept_with and "execute_sql" not in kept_with
    assert "execute_sql" in kept_without
