"""transpiler/scope.py gives libcst's ScopeProvider answers, node for node.

Each module is analysed by both; ``differences`` lists every answer that differs: the scope of
each node, the bindings of each scope with the reads of each, what each read reads, what a
read of each name sees in each scope, and the qualified names of every node.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import libcst as cst
import pytest
from libcst.metadata import BuiltinAssignment, MetadataWrapper, ScopeProvider

from flink2spark.transpiler import scope as S

ROOT = Path(__file__).resolve().parent.parent

# nodes libcst gives a scope that ours leaves out: whitespace, comments and punctuation
_TOKENS = (
    cst.BaseParenthesizableWhitespace, cst.EmptyLine, cst.TrailingWhitespace, cst.Newline, cst.Comment,
    cst.Comma, cst.Dot, cst.Colon, cst.Semicolon, cst.AssignEqual, cst.LeftParen, cst.RightParen,
    cst.LeftSquareBracket, cst.RightSquareBracket, cst.LeftCurlyBrace, cst.RightCurlyBrace,
    cst.BaseBinaryOp, cst.BaseBooleanOp, cst.BaseCompOp, cst.BaseUnaryOp, cst.BaseAugOp, cst.Asynchronous,
    cst.ImportStar, cst.ParamStar,
)


def _binding(b) -> tuple:
    if isinstance(b, (BuiltinAssignment, S.BuiltinBinding)):
        return ("builtin", b.name)
    return (b.name, id(b.node), b._index if hasattr(b, "_index") else b.index)


def differences(source: str) -> list[str]:
    module = cst.parse_module(source)
    theirs = MetadataWrapper(module, unsafe_skip_copy=True).resolve(ScopeProvider)
    ours = S.Scopes(module)
    found: list[str] = []

    def key(scope) -> tuple:  # the same scope in both analyses
        kind = type(scope).__name__.replace("Scope", "").lower() or "local"
        return (kind, id(getattr(scope, "node", None)), scope.name_prefix if hasattr(scope, "name_prefix") else scope._name_prefix)

    in_module: set[int] = set()  # (libcst scopes the nodes of string annotations' parses too)

    class Nodes(cst.CSTVisitor):
        def on_visit(self, node: cst.CSTNode) -> bool:
            in_module.add(id(node))
            return True

    module.visit(Nodes())
    pairs = {}
    for node, scope in theirs.items():
        if isinstance(node, _TOKENS) or id(node) not in in_module:
            continue
        mine = ours.scope_of.get(id(node))
        if mine is None:
            found.append(f"no scope for {type(node).__name__} {module.code_for_node(node)!r}")
            continue
        if key(scope) != key(mine):
            found.append(f"scope of {type(node).__name__} {module.code_for_node(node)!r}: {key(scope)} != {key(mine)}")
        pairs[id(scope)] = (scope, mine)
        qualified = scope.get_qualified_names_for(node)
        if qualified != mine.qualified_names(node):
            found.append(f"qualified names of {module.code_for_node(node)!r}: {qualified} != {mine.qualified_names(node)}")
    nodes = {id(n) for n in theirs if id(n) in in_module}
    found += [f"scope for a node libcst does not scope: {id_}" for id_ in ours.scope_of if id_ not in nodes]
    names = set()  # every identifier of the module
    for node in theirs:
        if isinstance(node, cst.Name):
            names.add(node.value)
    for scope, mine in pairs.values():
        for name in set(scope._assignments) | set(mine.assignments):
            a = sorted(map(_binding, scope.assignments[name]))
            b = sorted(map(_binding, mine.assignments.get(name, [])))
            if a != b:
                found.append(f"bindings of {name} in {key(scope)}: {a} != {b}")
                continue
            by_node = {_binding(x): x for x in mine.assignments.get(name, [])}
            for x in scope.assignments[name]:
                refs = sorted(id(r.node) for r in x.references)
                mine_refs = sorted(id(r.node) for r in by_node[_binding(x)].references)
                if refs != mine_refs:
                    found.append(f"references of {name} in {key(scope)}: {len(refs)} != {len(mine_refs)}")
        for name in names | set(scope._assignments):
            a = sorted(map(_binding, scope[name]))
            b = sorted(map(_binding, mine[name]))
            if a != b:
                found.append(f"visible {name} in {key(scope)}: {a} != {b}")
            if (name in scope) != (name in mine):
                found.append(f"{name} in {key(scope)}: {name in scope} != {name in mine}")
        for access in scope.accesses:
            mine_accesses = mine.accesses_by_node.get(id(access.node), [])
            if len(mine_accesses) != len(scope._accesses_by_node[access.node]):
                found.append(f"reads of {module.code_for_node(access.node)!r}: libcst {len(scope._accesses_by_node[access.node])}, ours {len(mine_accesses)}")
                continue
            a = sorted(sorted(map(_binding, x.referents)) for x in scope._accesses_by_node[access.node])
            b = sorted(sorted(map(_binding, x.referents)) for x in mine_accesses)
            if a != b:
                found.append(f"referents of {module.code_for_node(access.node)!r}: {a} != {b}")
            if isinstance(access.node, cst.Name) and ours.access_of.get(id(access.node)) not in mine_accesses:
                found.append(f"access_of {access.node.value}")
    return found


def _inputs() -> list[Path]:
    return sorted(ROOT.glob("fixtures/**/input*.py")) + sorted(ROOT.glob("examples/*.py"))


@pytest.mark.parametrize("path", _inputs(), ids=lambda p: str(p.relative_to(ROOT)))
def test_same_as_libcst_on_fixtures_and_examples(path):
    assert differences(path.read_text("utf-8")) == []


SNIPPETS = {
    "reads before and after an assignment": """
        x = 1
        def f():
            print(x)
            x = 2
            return x
        x = x + 1
    """,
    "class names are not visible from methods": """
        y = 0
        class C:
            y = 1
            z = y
            def m(self, a=y):
                return y
            w = [y for _ in range(3)]
    """,
    "global and nonlocal": """
        a = 1
        def f():
            global a
            a = 2
            b = 1
            def g():
                nonlocal b
                b = 3
                return a, b
            return g
        a
    """,
    "comprehensions and walrus": """
        data = [1, 2]
        flat = [y for x in data for y in x if (z := y)]
        print(z, {k: v for k, v in data}, (i for i in i))
        n = [x for x in x]
    """,
    "for, with, except, del, match": """
        for i in range(3):
            pass
        for j in j:
            pass
        with open("f") as fh, open("g") as (a, b):
            fh.read()
        try:
            pass
        except ValueError as err:
            print(err)
        del i
        match data:
            case [first, *rest] if first:
                print(first, rest)
            case {"k": value, **others}:
                print(value)
            case Point(x=px, y=py) | str(px):
                print(px)
            case other:
                print(other)
    """,
    "imports with aliases, dotted and star imports": """
        import os.path
        import os.path as osp
        import a.b.c
        from pyflink.datastream import StreamExecutionEnvironment as Env, DataStream
        from . import sibling
        from .pkg import thing as t
        from pyflink.table import *
        env = Env.get_execution_environment()
        os.path.join(osp.sep, a.b.c.d, a.b.x)
        DataStream.map(t, sibling.f)
        TableEnvironment.create(os.getcwd().upper())
    """,
    "decorators, defaults and annotations read outside": """
        import functools
        from typing import List, Optional, cast, TypeVar, Literal
        T = TypeVar("T", bound="Table")
        def deco(f):
            return f
        @deco
        @functools.wraps(deco)
        def f(a: "List[Table]", b: Optional["Table"] = deco, *args: "T", c: Literal["Table"] = 1, **kw) -> "Table":
            x: "Table" = cast("Table", a)
            return x
        class Table:
            pass
        lam = lambda q, r=f: q + r + lam
    """,
    "builtins and shadowed builtins": """
        print(len([1]))
        def g():
            len = 3
            return len, str(len)
        str = "shadowed"
        print(str, open)
    """,
    "attribute chains, calls and keywords": """
        import pyflink.datastream as ds
        from pyflink.common import Types
        env = ds.StreamExecutionEnvironment.get_execution_environment()
        env.from_collection([1], type_info=Types.INT()).map(lambda v: v, output_type=Types.STRING()).print()
        (ds).x.y(z=ds.z)[ds].w
    """,
    "nested functions, classes and string annotations": """
        class Outer:
            class Inner:
                def m(self) -> "Outer.Inner":
                    def h(v: "Inner") -> None:
                        return v
                    return h
            def n(self):
                return Outer.Inner, Inner
        def k(p):
            def q():
                return p
            p = 2
            return q
    """,
    "augmented assignments and unpacking": """
        x, *y = 1, 2, 3
        x += 1
        (a, b), c = (1, 2), 3
        [d, e] = f = g = 1, 2
        x.attr = y
        x[a] = b
        async def co():
            async for item in aiter():
                await item
            async with ctx() as value:
                pass
    """,
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_same_as_libcst_on_snippets(name):
    assert differences(textwrap.dedent(SNIPPETS[name])) == []


def test_referents_and_qualified_names_of_snippets():
    """Table-driven: what a read reads and what a name is called, as the converter asks."""
    source = textwrap.dedent(SNIPPETS["imports with aliases, dotted and star imports"])
    module = cst.parse_module(source)
    scopes = S.Scopes(module)
    reads = {}
    for node_id, access in scopes.access_of.items():
        reads.setdefault(access.node.value, []).append(access)
    env = [a for a in reads["Env"]][0]
    assert [type(r.node).__name__ for r in env.referents] == ["ImportFrom"]
    attribute = env.node  # Env in Env.get_execution_environment()
    call = module.body[7].body[0].value
    assert {q.name for q in scopes.scope_of[id(call.func)].qualified_names(call.func)} == {
        "pyflink.datastream.StreamExecutionEnvironment.get_execution_environment"
    }
    assert {q.name for q in scopes.scope_of[id(attribute)].qualified_names(attribute)} == {
        "pyflink.datastream.StreamExecutionEnvironment"
    }
    # os.path.join(...) reads os.path (import os.path binds it): the read's node is the Attribute
    dotted = [a for scope in {id(s): s for s in scopes.scope_of.values()}.values() for a in scope.accesses_by_name.get("os.path", [])]
    assert [module.code_for_node(a.node) for a in dotted] == ["os.path"]
    assert all(a.node.value != "os" or a.node is not dotted[0].node.value for a in reads["os"])
    assert "TableEnvironment" in reads and not reads["TableEnvironment"][0].referents  # star import: nothing
