"""transpiler/positions.py places nodes where libcst's PositionProvider starts them."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider

from flink2spark.transpiler import positions as P

ROOT = Path(__file__).resolve().parent.parent
INPUTS = sorted(ROOT.glob("fixtures/**/input*.py")) + sorted(ROOT.glob("examples/*.py"))


def _libcst_starts(module: cst.Module) -> dict[int, tuple[int, int]]:
    pos = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    return {id(node): (r.start.line, r.start.column + 1) for node, r in pos.items()}


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_node_starts_where_libcst_says(path):
    module = cst.parse_module(path.read_text("utf-8"))
    nodes: list[cst.CSTNode] = []

    class Nodes(cst.CSTVisitor):
        def on_visit(self, node: cst.CSTNode) -> bool:
            nodes.append(node)
            return True

    module.visit(Nodes())
    expected = _libcst_starts(module)
    found, _ = P.starts(module, nodes)
    assert found == {id(n): expected[id(n)] for n in nodes}
    # a few asked: the same places
    some = nodes[::7]
    assert P.starts(module, some)[0] == {id(n): expected[id(n)] for n in some}
    # asked from the first part of the module only (its writing stops after the last of them)
    early = nodes[: len(nodes) // 3 : 5]
    assert P.starts(module, early)[0] == {id(n): expected[id(n)] for n in early}
    assert P.starts(module, [])[0] == {}


def test_nodes_of_a_type_in_order_and_newline_styles():
    source = "import a\r\nif a:\r\n    x = 1  # c\r\n\r\n    y = 'z'\rz = 3\n\n\ndef f():\n    return x\n"
    module = cst.parse_module(source)
    expected = _libcst_starts(module)
    found, lines = P.starts(module, (), (cst.SimpleStatementLine,))
    assert [module.code_for_node(n).strip() for n in lines] == ["import a", "x = 1  # c", "y = 'z'", "z = 3", "return x"]
    assert {id(n): found[id(n)] for n in lines} == {id(n): expected[id(n)] for n in lines}
    assert [found[id(n)] for n in lines] == [(1, 1), (3, 5), (5, 5), (6, 1), (10, 5)]


def test_a_node_not_in_the_module_has_no_place():
    module = cst.parse_module("x = 1\n")
    assert P.starts(module, [cst.Name("x")])[0] == {}
