"""The frame form of PyFlink streams (issue 14): which operators have a native DataFrame form,
and the Columns they become (not a rule: it defines no ``rule``).

The program model decides, in one place (``_streams.StreamFacts.frame``), whether a stream is
lowered to a DataFrame: its source has a schema (``from_collection(data, type_info=T)`` with
``T`` a ``Types.ROW_NAMED/ROW/TUPLE`` of basic types or a basic type, bounded by nature) and
every consumer of it, and of the streams derived from it, has a native form. The consumers
with one are the table ``_streams.NATIVE_CONSUMERS``: each entry names a method and a function
``(graph, call, input shape) -> Shape | True | None`` giving the shape of the stream the call
makes (a DataFrame's columns), ``True`` for a sink, ``None`` when this call has no exact
native form (then its input stays an RDD, and so does everything upstream of it).

This module holds those functions and what the rules write from them: the function of a
``map``/``filter`` translated to Columns (``transpiler/python_columns.py``, exact or refused),
the key fields of a ``key_by`` selector, the per-field aggregates of a BATCH keyed reduction.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Union

import libcst as cst

from flink2spark.transpiler import pyflink_model as P
from flink2spark.transpiler.python_columns import Field, Refusal, Shape, Translation, translate

# Spark types a frame's column may have. FLOAT is not one: Flink hands Python the 32-bit float
# as a double with its binary digits (0.10000000149011612), which PyFlink prints, where Spark
# prints the float (0.1).
FRAME_TYPES = frozenset({"tinyint", "smallint", "int", "bigint", "double", "string", "boolean"})
_INTS = ("tinyint", "smallint", "int", "bigint")
_LITERALS = (cst.Integer, cst.Float, cst.SimpleString)


def ddl(shape: Shape) -> str:
    """The DDL schema of a frame: ``"id INT, name STRING"``; a basic value's type alone
    (``"string"``: ``createDataFrame`` then names the column ``value``)."""
    if shape.kind == "value":
        return shape.fields[0].type
    return ", ".join(f"{f.name} {f.type.upper()}" for f in shape.fields)


def _qualified(resolver):
    return resolver.qualified_name


def _literal(node) -> bool:
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        node = node.expression
    return isinstance(node, _LITERALS) or isinstance(node, cst.Name) and node.value in ("True", "False")


def _element_values(resolver, element) -> Optional[list]:
    """The field values of one element of a collection literal: a tuple or a Row(...) call."""
    if isinstance(element, (cst.Tuple, cst.List)):
        return [e.value for e in element.elements if isinstance(e, cst.Element)]
    if isinstance(element, cst.Call) and resolver.qualified_name(element.func) in P.ROWS:
        return [a.value for a in element.args]
    return None


def source_shape(g, call: cst.Call) -> Optional[Shape]:
    """The shape of ``env.from_collection(data, type_info=T)`` as a DataFrame, or None.

    Fields hold no None when every element of a literal collection is a tuple or ``Row`` of
    literals (Python's None would be read by the functions); else as Flink's type allows.
    A ``Row`` with keywords must name the type's fields in their order (``createDataFrame``
    reads a keyword ``Row`` by name, Flink by position)."""
    from flink2spark.rules.pyflink._common import call_arg, record_shape

    resolver = g.resolver
    info = call_arg(call, 1, "type_info")
    if info is None:
        return None
    shape = record_shape(resolver, info)
    if shape is None or any(f.type not in FRAME_TYPES for f in shape.fields):
        return None
    for row in row_calls(g, call):
        names = [a.keyword.value if a.keyword is not None else None for a in row.args]
        if any(names) and names != [f.name for f in shape.fields]:
            return None
    elements = g.node(call).literal_elements
    if elements is None:
        return shape
    if shape.kind == "value":
        if all(_literal(e) for e in elements):
            return Shape.value(Field("value", shape.fields[0].type, False))
        return shape
    rows = [_element_values(resolver, e) for e in elements]
    if any(values is not None and len(values) != len(shape.fields) for values in rows):
        return None
    if all(values is not None and all(_literal(v) for v in values) for values in rows):
        return Shape(shape.kind, tuple(Field(f.name, f.type, False, f.key) for f in shape.fields))
    return shape


def row_calls(g, call: cst.Call) -> list[cst.Call]:
    """The PyFlink ``Row(...)`` calls in the collection ``from_collection`` reads (its
    expression, or the value of the name it is): in a frame's data they must become Spark's
    ``Row`` (``createDataFrame`` cannot read PyFlink's), which only a program whose streams are
    all DataFrames gets (``StreamGraph.spark_rows``)."""
    from flink2spark.rules.pyflink._common import call_arg
    from flink2spark.transpiler.visitors import nodes

    resolver = g.resolver
    collection = call_arg(call, 0, "collection")
    if isinstance(collection, cst.Name):
        collection = resolver.single_value(collection) or collection
    if collection is None:
        return []
    return [c for c in nodes(collection, cst.Call) if resolver.qualified_name(c.func) in P.ROWS]


# --------------------------------------------------------------------------------------------
# map / filter: the function as Columns


def function_node(resolver, arg: Optional[cst.BaseExpression], method: str):
    """The lambda or def an operator runs (a name of a def of the module, a lambda, or an
    instance of a function class of the module: its ``method`` without ``self``), or None."""
    from flink2spark.rules.pyflink._common import instance_class

    if isinstance(arg, cst.Lambda):
        return arg
    if isinstance(arg, cst.Name):
        target = resolver.local_def(arg)
        if isinstance(target, cst.FunctionDef):
            return target
    cls = instance_class(resolver, arg)
    if cls is None or any(isinstance(s, cst.FunctionDef) and s.name.value in ("open", "close", "__init__")
                          for s in cls.body.body):
        return None
    for s in cls.body.body:
        if isinstance(s, cst.FunctionDef) and s.name.value == method and len(s.params.params) == 2:
            return s.with_changes(params=s.params.with_changes(params=s.params.params[1:]))
    return None


def translated(g, call: cst.Call, shape: Shape) -> Union[Translation, Refusal]:
    """The translation of the function of ``call`` (``map``/``filter``) over ``shape``, once per call."""
    return g.fact("frame_translation", call, _translate, Refusal("not computed"), shape)


def _translate(g, call: cst.Call, shape: Shape):
    from flink2spark.rules.pyflink._common import call_arg

    method = call.func.attr.value  # type: ignore[attr-defined]
    fn = function_node(g.resolver, call_arg(call, 0, "func"), method)
    if fn is None:
        return Refusal("a function that is not a lambda, a def or a function class without open()/close()")
    declared = _declared(g, call) if method == "map" else shape
    checked = declared is not None and any(f.type in _INTS for f in declared.fields)
    return translate(fn, shape, predicate=method == "filter", checked=checked, qualified=g.resolver.qualified_name)


def _declared(g, call: cst.Call) -> Optional[Shape]:
    from flink2spark.rules.pyflink._common import record_shape

    t = g.node(call).element_type
    if not isinstance(t, cst.BaseExpression):
        return None
    shape = record_shape(g.resolver, t)
    if shape is None or any(f.type not in FRAME_TYPES for f in shape.fields):
        return None
    return shape


@dataclass(frozen=True)
class Column:
    """One column a map makes: its code (cast to the declared type where needed) and name."""

    code: str
    name: str


def map_columns(g, call: cst.Call, shape: Shape) -> Optional[tuple[Shape, tuple[Column, ...]]]:
    """(shape, columns) of ``map(f, output_type=T)`` over a frame of ``shape``, or None when
    the function is refused or its results are not exactly what ``T``'s serializer gives."""
    declared = _declared(g, call)
    found = translated(g, call, shape)
    if declared is None or isinstance(found, Refusal) or found.notes:
        return None
    outputs = found.outputs
    if (declared.kind == "value") == found.tuple or len(outputs) != len(declared.fields):
        return None
    columns = []
    fields = []
    for out, f in zip(outputs, declared.fields):
        if out.nullable and (declared.kind != "row"):
            return None  # Flink fails the job on a None there; Spark would write NULL
        if out.type == f.type:
            code = out.code
        elif out.type in _INTS and f.type in _INTS:
            code = f'{operand(out.code)}.cast("{f.type}")'  # Flink's serializer fails out of range; ANSI cast too
        else:
            return None
        columns.append(Column(code, f.name))
        fields.append(Field(f.name, f.type, out.nullable, f.key))
    return Shape(declared.kind, tuple(fields)), tuple(columns)


def map_shape(g, call: cst.Call, shape: Shape) -> Optional[Shape]:
    found = map_columns(g, call, shape)
    return None if found is None else found[0]


def filter_shape(g, call: cst.Call, shape: Shape) -> Optional[Shape]:
    found = translated(g, call, shape)
    return None if isinstance(found, Refusal) or found.notes else shape


def sink(g, call: cst.Call, shape: Shape) -> bool:
    return True


def same_shape(g, call: cst.Call, shape: Shape) -> Shape:
    return shape


def operand(code: str) -> str:
    """``code`` as the receiver of a method call: parenthesised unless it is one already."""
    node = cst.parse_expression(code)
    if isinstance(node, (cst.Call, cst.Attribute, cst.Name, cst.Subscript)) and not node.lpar:
        return code
    return f"({code})"
