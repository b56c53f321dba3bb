"""The table-dispatching visitor bases (transpiler/visitors.py) call the same hooks, in the
same order, as libcst's own, and refuse per-attribute hooks they would not call."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import libcst.matchers as m
import pytest

from flink2spark.transpiler.visitors import Transformer, Visitor, is_method_call, is_plain_arg, is_self_attribute, nodes

REPO = Path(__file__).resolve().parent.parent

SOURCE = '''\
import os
def f(a, b=1, *c, **d):
    """doc"""
    return [x + 1 for x in a if x] or {"k": (b, c)}
class C(Base):
    def m(self):
        with open("x") as fh:
            yield from fh
lambda: f(1)(2)[3].attr
'''


def _recording(base):
    calls = []

    class Recorder(base):
        def visit_Name(self, node):
            calls.append(("visit Name", node.value))

        def leave_Name(self, *nodes):
            calls.append(("leave Name", nodes[0].value))
            return nodes[-1]  # a transformer's updated node (a visitor's result is ignored)

        def visit_Call(self, node):
            calls.append(("visit Call",))
            return False  # children skipped: the same with both bases

        def leave_Call(self, *nodes):
            calls.append(("leave Call",))
            return nodes[-1]

        def visit_FunctionDef(self, node):
            calls.append(("visit def", node.name.value))

    return Recorder, calls


@pytest.mark.parametrize("ours, libcsts", [(Visitor, cst.CSTVisitor), (Transformer, cst.CSTTransformer)])
def test_same_hooks_in_the_same_order(ours, libcsts):
    module = cst.parse_module(SOURCE)
    seen = []
    for base in (ours, libcsts):
        Recorder, calls = _recording(base)
        result = module.visit(Recorder())
        seen.append(calls)
        assert result.code == SOURCE
    assert seen[0] == seen[1]
    assert ("visit def", "m") in seen[0] and ("leave Call",) in seen[0]


def test_a_transformer_rewrites_through_the_table():
    class Upper(Transformer):
        def leave_Name(self, original, updated):
            return updated.with_changes(value=updated.value.upper()) if updated.value == "os" else updated

    assert cst.parse_module("import os\nos.path\n").visit(Upper()).code == "import OS\nOS.path\n"


@pytest.mark.parametrize("base", [Visitor, Transformer])
def test_per_attribute_hooks_are_refused(base):
    with pytest.raises(TypeError, match="per-attribute hooks"):
        type("Bad", (base,), {"visit_Call_func": lambda self, node: None})


# (what the converter looks for, as libcst's matcher and as transpiler/visitors.py finds it)
FINDS = [
    (m.Name(), lambda root: nodes(root, cst.Name)),
    (m.Call(), lambda root: nodes(root, cst.Call)),
    (m.Return(), lambda root: nodes(root, cst.Return)),
    (m.Name() | m.Attribute(), lambda root: nodes(root, cst.Name, cst.Attribute)),
    (m.Param() | m.CompFor() | m.NamedExpr(), lambda root: nodes(root, cst.Param, cst.CompFor, cst.NamedExpr)),
    (m.Import() | m.ImportFrom(), lambda root: nodes(root, cst.Import, cst.ImportFrom)),
    (m.Call(func=m.Attribute(attr=m.Name("map"))), lambda root: [c for c in nodes(root, cst.Call) if is_method_call(c, method="map")]),
    (m.Call(func=m.Attribute(value=m.Name("env"))), lambda root: [c for c in nodes(root, cst.Call) if is_method_call(c, "env")]),
    (m.AssignTarget(target=m.Attribute(value=m.Name("self"))) | m.AugAssign(target=m.Attribute(value=m.Name("self"))),
     lambda root: [n for n in nodes(root, cst.AssignTarget, cst.AugAssign) if is_self_attribute(n.target)]),
    (m.Lambda() | m.ListComp() | m.SetComp() | m.DictComp() | m.GeneratorExp() | m.NamedExpr(),
     lambda root: nodes(root, cst.Lambda, cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp, cst.NamedExpr)),
    (m.Subscript(value=m.Attribute(value=m.Name("self"))), lambda root: [n for n in nodes(root, cst.Subscript) if is_self_attribute(n.value)]),
    (m.Call(func=m.Attribute(value=m.Name("out"), attr=m.Name("collect")), args=[m.Arg(keyword=None, star="")]),
     lambda root: [c for c in nodes(root, cst.Call) if is_method_call(c, "out", "collect") and len(c.args) == 1 and is_plain_arg(c.args[0])]),
]
PROGRAMS = sorted(REPO.glob("fixtures/**/*.py")) + sorted(REPO.glob("examples/*.py"))


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: str(p.relative_to(REPO)))
def test_the_converters_finds_find_what_libcst_matchers_find(path):
    module = cst.parse_module(path.read_text())
    for matcher, find in FINDS:
        ours, libcsts = find(module), list(m.findall(module, matcher))
        assert len(ours) == len(libcsts) and all(a is b for a, b in zip(ours, libcsts)), matcher


def test_templates_fill_their_holes():
    from flink2spark.transpiler.convert import _fill_template

    part = cst.parse_expression("a.b(c)")
    assert _fill_template("{x}", {"x": part}) is part  # the part itself
    filled = _fill_template("f2s.print({r}, [{r}, 2], key={k})", {"r": part, "k": cst.Name("k")})
    assert cst.Module([]).code_for_node(filled) == "f2s.print(a.b(c), [a.b(c), 2], key=k)"
    # a hole that repeats gets copies: no node twice in the tree
    assert filled.args[0].value is not part and filled.args[0].value.deep_equals(part)
    with pytest.raises(ValueError, match="no value"):
        _fill_template("{a} + {b}", {"a": part})


def test_simple_statements_at_any_depth_without_expressions():
    from flink2spark.transpiler.infer import _imported_names
    from flink2spark.transpiler.visitors import simple_statements

    module = cst.parse_module(
        "import a.b\nif x: from pyflink.common import Types as T\ndef f():\n    try:\n        import os\n"
        "    except E:\n        pass\nmatch v:\n    case 1:\n        import json\nf(lambda: 1)\n"
    )
    lines = [cst.Module([]).code_for_node(line).strip() for line in simple_statements(module)]
    assert sorted(lines) == sorted(["import a.b", "from pyflink.common import Types as T", "import os", "pass", "import json", "f(lambda: 1)"])
    assert _imported_names(module) == {"a", "T", "os", "json"}
    assert _imported_names(cst.parse_module("def g():\n    from pyflink.common import *\n")) is None
