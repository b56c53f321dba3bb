"""Placeholder of the Table API expression translator (replaced by the full module)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

import libcst as cst


class Untranslatable(Exception):
    pass


@dataclass(frozen=True)
class UserFunction:
    name: str
    kind: str
    type: Optional[str] = None


@dataclass(frozen=True)
class Column:
    code: str
    aggregate: bool
    name: Optional[str]
    uses: frozenset
    type: Optional[str] = None


_AGG = {"sum": "sum", "count": "count", "avg": "avg", "min": "min", "max": "max"}
_OPS = {cst.Add: "+", cst.Subtract: "-", cst.Multiply: "*"}
_CMP = {cst.Equal: "==", cst.NotEqual: "!=", cst.LessThan: "<", cst.GreaterThan: ">", cst.LessThanEqual: "<=", cst.GreaterThanEqual: ">="}


def column(node, qualified: Callable, schema=None, functions=None, registered=None) -> Column:
    code = cst.Module([]).code_for_node
    if isinstance(node, cst.Call) and qualified(node.func) in ("pyflink.table.expressions.col", "pyflink.table.expressions.lit"):
        fn = qualified(node.func).rsplit(".", 1)[1]
        arg = code(node.args[0].value)
        name = node.args[0].value.evaluated_value if fn == "col" and isinstance(node.args[0].value, cst.SimpleString) else None
        return Column(f"F.{fn}({arg})", False, name, frozenset({"F"}))
    if isinstance(node, cst.Attribute) and node.attr.value in _AGG:
        inner = column(node.value, qualified)
        return Column(f"F.{_AGG[node.attr.value]}({inner.code})", True, None, inner.uses)
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "alias" and len(node.args) == 1:
        inner = column(node.func.value, qualified)
        alias = node.args[0].value
        if not isinstance(alias, cst.SimpleString):
            raise Untranslatable("alias() of a name that is not a string literal")
        return Column(f"{inner.code}.alias({code(alias)})", inner.aggregate, alias.evaluated_value, inner.uses)
    if isinstance(node, cst.BinaryOperation) and type(node.operator) in _OPS:
        a, b = column(node.left, qualified), column(node.right, qualified)
        return Column(f"({a.code} {_OPS[type(node.operator)]} {b.code})", a.aggregate or b.aggregate, None, a.uses | b.uses)
    if isinstance(node, cst.Comparison) and len(node.comparisons) == 1 and type(node.comparisons[0].operator) in _CMP:
        a, b = column(node.left, qualified), column(node.comparisons[0].comparator, qualified)
        return Column(f"({a.code} {_CMP[type(node.comparisons[0].operator)]} {b.code})", a.aggregate or b.aggregate, None, a.uses | b.uses)
    if isinstance(node, (cst.Integer, cst.SimpleString, cst.Float)):
        return Column(f"F.lit({code(node)})", False, None, frozenset({"F"}))
    raise Untranslatable(f"{code(node)}")


def columns_from_string(text: str, schema=None) -> list:
    raise Untranslatable(f"string expression {text!r}")
