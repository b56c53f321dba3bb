"""Call chains too long for libcst's parser are marked, not converted (F2S013), in linear time."""

from __future__ import annotations

import ast

from flink2spark.transpiler import source as S
from flink2spark.transpiler.engine import convert_source

HEAD = "from flink.plan.Environment import get_environment\n\nenv = get_environment()\n"


def _chain(calls: int) -> str:
    return "env.from_elements(1, 2)" + ".map(lambda x: x + 1)" * (calls - 2) + ".output()\n"


def test_chain_lengths_are_counted_per_chain():
    tree = ast.parse("a.b(1).c(2)[0].d(x.e(1).f(2))\n" + "y = " + "z" + ".m()" * 7 + "\n")
    assert S.long_chains(tree, limit=2) == [(1, 3), (2, 7)]  # a.b().c()[0].d(): 3 calls; x.e().f() has 2
    assert S.long_chains(tree, limit=7) == []


def test_a_2000_call_chain_is_marked_and_left_as_is():
    source = HEAD + _chain(2000) + "env.execute(local=True)\n"
    result = convert_source(source, "job.py")
    assert result.status == "partial"
    assert [(m.line, m.code) for m in result.markers] == [(4, "F2S013")]
    assert "2000 calls" in result.markers[0].message
    lines = result.output.splitlines()
    assert lines[3].startswith("# TODO(flink2spark): F2S013 ")
    assert "\n".join(lines[:3] + lines[4:]) + "\n" == source
    assert convert_source(result.output, "job.py").output == result.output


def test_a_chain_under_the_limit_converts():
    source = HEAD + _chain(S.LONG_CHAIN_CALLS) + "env.execute(local=True)\n"
    result = convert_source(source, "job.py")
    assert result.status == "converted", result.markers
    assert "sparkContext.parallelize" in result.output
    assert result.output.count(".map(lambda x: x + 1)") == S.LONG_CHAIN_CALLS - 2


def test_a_long_chain_without_flink_is_not_marked():
    source = "# not a flink job\nimport os\n\nx = " + "os" + ".f()" * 2000 + "\n"
    result = convert_source(source, "plain.py")
    assert result.output == source and result.markers == []
