"""The frame form of DataSet programs (issue 14): which data sets become DataFrames, their
shapes, and the Columns the rules write (not a rule: it defines no ``rule``).

The program model of a DataSet module (``graph(resolver)``, kept by the resolver as the PyFlink
one is) decides once per data set whether it is lowered to a DataFrame (``frame(resolver,
expr)``: its ``Shape``, a ``Grouping`` for a ``group_by``, or None for an RDD). A data set is a
frame when its records' types are known from its source and the operators before it, and every
consumer of it, and of the data sets derived from it, has an exact DataFrame form: a single
consumer without one keeps the data set, everything upstream of it and everything derived from
it RDDs, exactly as before. Uses are followed as the PyFlink model follows them
(``_streams._frame_uses``: names assigned once, helpers' parameters and returns).

Sources with known records:

* ``read_text(path)``: its lines, strings (``read.text(path, lineSep="\\n")`` with the ``\\r``
  of ``\\r\\n`` dropped, as the RDD form reads them);
* ``from_elements(...)`` of literals of one shape: all scalars, or all tuples of one arity with
  one type per position (``str``, ``int``, ``bool``; ints within 64 bits: Python's are
  unbounded, a Spark BIGINT is not, so a larger literal keeps the data set an RDD; floats too:
  Spark shows a double by Java's ``toString``, Python by ``repr``);
* ``generate_sequence(a, b)``: ``range(a, b + 1)``, a BIGINT column ``id``.

Consumers with a frame form:

* ``map``/``filter``/``flat_map`` whose function (lambda, def, function class; a ``flat_map``'s
  collector as a generator: ``functions.rewrite_collector_method``) the Column translator
  (``transpiler/python_columns.py``) translates exactly, into records of the types above that
  are never None;
* ``group_by(i, ...)`` of field indexes on tuples, then ``sum/min/max(i)`` or ``aggregate(
  Aggregation.Sum/Min/Max, i)`` of the one field that is not a key (Flink's result copies the
  other fields from the group's first record, which must then be the keys), ``reduce_group`` of
  a first-record-plus-sum function (``reduce_group.first_plus_sum``) or ``reduce`` of a function
  building each field from ``a``/``b`` as a key, a sum, a min or a max: ``groupBy(keys).agg``;
  integer fields only (sums of floats depend on the order of additions), min/max of strings too
  (Python compares code points, Spark UTF-8 bytes: the same order);
* sinks: ``write_csv`` (``"\\n"`` lines) and ``write_text`` of records whose fields print as
  Python's ``str()`` does: ``F.concat_ws`` of strings, integers (``cast("string")``) and
  booleans (``True``/``False``); ``output()`` as a statement: ``show()``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Union

import libcst as cst

from flink2spark.rules._frame_ops import use_functions
from flink2spark.transpiler import api_model as A
from flink2spark.transpiler.python_columns import (
    INT_RANGES, Field, FlatTranslation, Refusal, Shape, Translation, translate, translate_flat,
)

# Column types of a DataSet frame (see the module docstring: no doubles)
DS_TYPES = frozenset({*INT_RANGES, "string", "boolean"})
_INTS = tuple(INT_RANGES)
_AGGREGATES = {"sum": _INTS, "min": (*_INTS, "string"), "max": (*_INTS, "string")}
TEXT = Shape.value(Field("value", "string", False, nan=False))
SEQUENCE = Shape.value(Field("id", "bigint", False, nan=False))


@dataclass(frozen=True)
class Grouping:
    """A ``group_by(i, ...)`` of a frame: ``groupBy`` of the key columns."""

    shape: Shape
    keys: tuple[int, ...]


@dataclass(frozen=True)
class Aggregation:
    """Per field of the record (in order): ``"key"``, ``"sum"``, ``"min"`` or ``"max"``."""

    kinds: tuple[str, ...]


def graph(resolver):
    """The DataSet module's program model (one per conversion, kept by the resolver)."""
    from flink2spark.rules.pyflink._streams import StreamGraph

    if resolver.program is None:
        resolver.program = StreamGraph(resolver)  # its fact cache: facts below are computed once
    return resolver.program


def frame(resolver, expr: cst.BaseExpression) -> Union[Shape, Grouping, None]:
    """The frame form of the (original) data set expression ``expr``, or None: an RDD."""
    return graph(resolver).fact("ds_frame", expr, _frame, None)


def _method_call(expr) -> bool:
    return isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute)


def _one(shapes: list):
    return shapes[0] if shapes and all(s is not None and s == shapes[0] for s in shapes) else None


# --------------------------------------------------------------------------------------------
# sources


def _literal_type(node) -> Optional[str]:
    sign = 1
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus) and isinstance(node.expression, cst.Integer):
        node, sign = node.expression, -1
    if isinstance(node, cst.Integer):  # INT where it fits: a few literals' sum stays far from 64 bits
        value = sign * int(node.value, 0)
        return next((t for t in ("int", "bigint") if INT_RANGES[t][0] <= value <= INT_RANGES[t][1]), None)
    if isinstance(node, cst.Name) and node.value in ("True", "False"):
        return "boolean"
    if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
        prefixes = [node.prefix] if isinstance(node, cst.SimpleString) else []
        return "string" if all("b" not in p.lower() for p in prefixes) and isinstance(node.evaluated_value, str) else None
    return None


def elements_shape(resolver, call: cst.Call) -> Optional[Shape]:
    """The shape of ``env.from_elements(...)`` of literals of one shape (module docstring)."""
    if not call.args or any(a.keyword is not None or a.star for a in call.args):
        return None
    values = [a.value for a in call.args]
    if all(isinstance(v, cst.Tuple) for v in values):
        rows = [[e.value for e in v.elements if isinstance(e, cst.Element)] for v in values]
        if any(len(r) != len(v.elements) or not r for r, v in zip(rows, values)):
            return None
        if any(len(r) != len(rows[0]) for r in rows):
            return None
        types = [_column_type([_literal_type(r[i]) for r in rows]) for i in range(len(rows[0]))]
        if None in types:
            return None
        return Shape.tuple(*(Field(f"f{i}", t, False, nan=False) for i, t in enumerate(types)))
    found = _column_type([_literal_type(v) for v in values])
    return Shape.value(Field("value", found, False, nan=False)) if found is not None else None


def _column_type(types: list) -> Optional[str]:
    """One column's type for the literals' types: ints of both sizes are BIGINT; bools and ints
    do not mix (Python's True is 1, Spark's is no number)."""
    if None in types:
        return None
    if set(types) == {"int", "bigint"}:
        return "bigint"
    return types[0] if len(set(types)) == 1 else None


def keeps_cr(resolver, call: cst.Call) -> bool:
    """Whether the lines of ``read_text`` (a frame) must drop the ``\\r`` of a ``\\r\\n`` end
    as Flink does: not when every use splits the line on whitespace (``flat_map`` of
    ``line.split()``, items not read with the line): ``\\r`` is whitespace, the words are the same."""
    from flink2spark.rules.pyflink._streams import _frame_uses

    words = translate_flat(cst.parse_expression("lambda line: line.split()"), TEXT)
    for use in _frame_uses(graph(resolver), call) or [None]:
        found = translation(resolver, use, TEXT) if _method_call(use) and use.func.attr.value == "flat_map" else None
        if not isinstance(found, FlatTranslation) or found.items != words.items or found.keeps_record:
            return True
    return False


def _source_shape(resolver, call: cst.Call) -> Optional[Shape]:
    method = call.func.attr.value  # type: ignore[attr-defined]
    if method == "read_text":
        return TEXT if len(call.args) == 1 and call.args[0].keyword is None and not call.args[0].star else None
    if method == "generate_sequence":
        return SEQUENCE if len(call.args) == 2 and not any(a.keyword or a.star for a in call.args) else None
    if method == "from_elements":
        return elements_shape(resolver, call)
    return None


# --------------------------------------------------------------------------------------------
# functions as Columns


def function(resolver, call: cst.Call) -> Optional[Union[cst.Lambda, cst.FunctionDef]]:
    """The function of ``map/filter/flat_map(f)`` as a one-parameter lambda or def (a function
    class's method without ``self``; a ``flat_map``'s collector made a generator), or None."""
    from flink2spark.rules.pyflink._common import call_arg
    from flink2spark.rules.pyflink._frames import function_node
    from flink2spark.transpiler import functions as FN

    method = call.func.attr.value  # type: ignore[attr-defined]
    arg = call_arg(call, 0, "operator")
    if method != "flat_map":
        return function_node(resolver, arg, method)
    if isinstance(arg, cst.Lambda):
        params = FN.lambda_params(arg)
        if params is None or len(params) != 2:
            return None
        body = FN.drop_collector(arg, params, params[1])
        return FN.make_lambda(params[:1], body) if body is not None else None
    fn = function_node(resolver, arg, "flat_map")  # a def (a class's flat_map has three parameters)
    if fn is None:  # a class: its flat_map(self, value, collector) without self
        from flink2spark.rules.pyflink._common import instance_class

        cls = instance_class(resolver, arg)
        if cls is None or any(isinstance(s, cst.FunctionDef) and s.name.value in ("open", "close", "__init__") for s in cls.body.body):
            return None
        fn = next((s for s in cls.body.body if isinstance(s, cst.FunctionDef) and s.name.value == "flat_map"), None)
        if fn is None or len(fn.params.params) != 3:
            return None
        fn = fn.with_changes(params=fn.params.with_changes(params=fn.params.params[1:]))
    if len(fn.params.params) != 2 or fn.params.star_arg not in (None, cst.MaybeSentinel.DEFAULT) or fn.params.kwonly_params:
        return None
    collector = fn.params.params[1].name.value
    if not FN._collect_calls_ok(fn.body, collector)[0]:
        return None

    def no_import(module, name):  # no iterator parameters: nothing to import
        raise AssertionError(name)

    return FN.rewrite_collector_method(fn, collector, [], no_import)


def translation(resolver, call: cst.Call, shape: Shape) -> Union[Translation, FlatTranslation, Refusal]:
    """The function of ``map/filter/flat_map`` over records of ``shape`` as Columns, once per call."""
    return graph(resolver).fact("ds_translation", call, _translation, Refusal("not computed"), shape)


def _translation(g, call: cst.Call, shape: Shape):
    fn = function(g.resolver, call)
    if fn is None:
        return Refusal("a function that is not a lambda, a def or a function class without open()/close()/__init__")
    method = call.func.attr.value  # type: ignore[attr-defined]
    if method == "flat_map":
        return translate_flat(fn, shape, qualified=g.resolver.qualified_name)
    return translate(fn, shape, predicate=method == "filter", qualified=g.resolver.qualified_name)


def record_shape(found: Translation) -> Optional[Shape]:
    """The shape of the records a translated function gives: typed as a frame's columns, never None."""
    if any(o.nullable or o.type not in DS_TYPES for o in found.outputs):
        return None
    if not found.tuple:
        return Shape.value(Field("value", found.outputs[0].type, False, nan=False))
    if any(o.name is not None for o in found.outputs):
        return None  # a Row: DataSet records are tuples
    return Shape.tuple(*(Field(f"f{i}", o.type, False, nan=False) for i, o in enumerate(found.outputs)))


def _operator_shape(resolver, call: cst.Call, shape: Shape) -> Optional[Shape]:
    found = translation(resolver, call, shape)
    if isinstance(found, Refusal):
        return None
    if isinstance(found, FlatTranslation):
        if found.keeps_record:
            return None
        return record_shape(found.element)
    if call.func.attr.value == "filter":  # type: ignore[attr-defined]
        return shape
    return record_shape(found)


# --------------------------------------------------------------------------------------------
# groupings


def _group_keys(call: cst.Call, shape: Shape) -> Optional[tuple[int, ...]]:
    if shape.kind != "tuple" or not call.args or any(a.keyword or a.star or not isinstance(a.value, cst.Integer) for a in call.args):
        return None
    keys = tuple(int(a.value.value, 0) for a in call.args)  # type: ignore[attr-defined]
    return keys if len(set(keys)) == len(keys) and all(k < len(shape.fields) for k in keys) else None


def aggregation(resolver, call: cst.Call, grouping: Grouping) -> Optional[Aggregation]:
    """The per-field aggregates of ``sum/min/max/aggregate/reduce_group/reduce`` on a grouped
    frame (module docstring), or None when Flink's records could differ from ``groupBy.agg``."""
    return graph(resolver).fact("ds_aggregation", call, _aggregation, None, grouping)


def _aggregation(g, call: cst.Call, grouping: Grouping) -> Optional[Aggregation]:
    from flink2spark.rules.dataset.reduce_group import first_plus_sum
    from flink2spark.rules.pyflink._frames import _reduce_kinds
    from flink2spark.rules.pyflink._common import call_arg

    resolver, shape, keys = g.resolver, grouping.shape, grouping.keys
    method = call.func.attr.value  # type: ignore[attr-defined]
    kinds: Optional[list[str]] = None
    if method in ("sum", "min", "max", "aggregate"):
        field = call_arg(call, 0 if method != "aggregate" else 1, "field")
        given = call_arg(call, 0, "aggregation")
        kind = method if method != "aggregate" else A.AGGREGATIONS.get((given is not None and resolver.qualified_name(given)) or "")
        if len(call.args) == (1 if method != "aggregate" else 2) and isinstance(field, cst.Integer) and kind is not None:
            kinds = [kind if i == int(field.value, 0) else "key" for i in range(len(shape.fields))]
    elif method == "reduce_group":
        summed = first_plus_sum(resolver, call)
        if summed is not None and summed[0] == len(shape.fields):
            kinds = ["sum" if i == summed[1] else "key" for i in range(len(shape.fields))]
    elif method == "reduce":
        names = tuple(shape.fields[k].name for k in keys)
        found = _reduce_kinds(g, call, shape, names) if call_arg(call, 0, "operator") is not None else None
        kinds = found and ["key" if k in ("first", "last") else k for k in found]
    if kinds is None:
        return None
    for i, (f, kind) in enumerate(zip(shape.fields, kinds)):
        if (kind == "key") != (i in keys) or kind != "key" and f.type not in _AGGREGATES[kind]:
            return None
    return Aggregation(tuple(kinds))


def aggregated_shape(shape: Shape, agg: Aggregation) -> Shape:
    """Spark's sum of integers is a BIGINT (Python's sum an int)."""
    return Shape(shape.kind, tuple(Field(f.name, "bigint" if k == "sum" else f.type, False, nan=False)
                                   for f, k in zip(shape.fields, agg.kinds)))


# --------------------------------------------------------------------------------------------
# sinks


def printed(f: Field) -> str:
    """A Column of Python's ``str()`` of the field."""
    if f.type == "boolean":
        return f'F.when(F.col("{f.name}"), "True").otherwise("False")'
    if f.type == "string":
        return f'"{f.name}"'
    return f'F.col("{f.name}").cast("string")'


def _sink(resolver, call: cst.Call, shape: Shape) -> bool:
    from flink2spark.rules.pyflink._common import call_arg

    method = call.func.attr.value  # type: ignore[attr-defined]
    if method == "output":  # stdout only: show() has no stderr
        if call.args and not (len(call.args) == 1 and isinstance(call.args[0].value, cst.Name) and call.args[0].value.value == "False"):
            return False
        line = resolver.parent(resolver.parent(call))
        return isinstance(resolver.parent(call), cst.Expr) and isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1
    if method == "write_text":
        return shape.kind == "value"
    if method == "write_csv":
        lines = call_arg(call, 1, "line_delimiter")
        return shape.kind == "tuple" and (lines is None or isinstance(lines, cst.SimpleString) and lines.evaluated_value == "\n")
    return False


# --------------------------------------------------------------------------------------------
# the graph


def consumer(resolver, call: cst.Call, found) -> object:
    """What ``call`` reading a frame ``found`` (a Shape or Grouping) makes: a Shape, a Grouping,
    True (a sink), or None: no frame form."""
    if not _method_call(call):
        return None
    method = call.func.attr.value  # type: ignore[attr-defined]
    receiver = resolver.type_of(call.func.value)  # type: ignore[attr-defined]
    if isinstance(found, Grouping):
        if receiver != A.UNSORTED:
            return None
        agg = aggregation(resolver, call, found)
        return aggregated_shape(found.shape, agg) if agg is not None else None
    if not A.is_dataset(receiver):
        return None
    if method in ("map", "filter", "flat_map"):
        return _operator_shape(resolver, call, found)
    if method == "group_by":
        keys = _group_keys(call, found)
        return Grouping(found, keys) if keys is not None else None
    if method in ("write_csv", "write_text", "output"):
        return _sink(resolver, call, found) or None
    return None


def _helper_returns(resolver, expr):
    from flink2spark.rules.pyflink._streams import _helper_returns as returns

    return returns(resolver, expr)


def _shape(g, expr):
    """The frame form the data set would have, from its inputs only (upstream)."""
    resolver = g.resolver
    if isinstance(expr, cst.Name):
        return _one([g.fact("ds_shape", v, _shape, None) for v in resolver.sources_of(expr)])
    returned = _helper_returns(resolver, expr)
    if returned is not None:
        return _one([g.fact("ds_shape", v, _shape, None) for v in returned])
    if not _method_call(expr):
        return None
    recv = expr.func.value
    if resolver.type_of(recv) == A.ENVIRONMENT:
        return _source_shape(resolver, expr)
    found = g.fact("ds_shape", recv, _shape, None)
    if found is None:
        return None
    made = consumer(resolver, expr, found)
    return made if made is not None and made is not True else None


def _downstream(g, expr) -> bool:
    """Whether every consumer of ``expr``, and of the data sets they make, has a frame form."""
    from flink2spark.rules.pyflink._streams import _frame_uses

    found = g.fact("ds_shape", expr, _shape, None)
    uses = _frame_uses(g, expr) if found is not None else None
    if not uses:  # a use that cannot be followed; or none: a data set no one reads stays as it was
        return False
    for call in uses:
        made = consumer(g.resolver, call, found)
        if made is None or made is not True and not g.fact("ds_downstream", call, _downstream, False):
            return False
    return True


def _frame(g, expr):
    resolver = g.resolver
    if isinstance(expr, cst.Name):
        return _one([frame(resolver, v) for v in resolver.sources_of(expr)])
    returned = _helper_returns(resolver, expr)
    if returned is not None:
        return _one([frame(resolver, v) for v in returned])
    found = g.fact("ds_shape", expr, _shape, None)
    if found is None or not g.fact("ds_downstream", expr, _downstream, False):
        return None
    if resolver.type_of(expr.func.value) != A.ENVIRONMENT and frame(resolver, expr.func.value) is None:
        return None  # its input stays an RDD (a sibling consumer has no frame form)
    return found


# --------------------------------------------------------------------------------------------
# what the rules write


def receiver_frame(ctx):
    """The frame form of the data set (or grouping) the rule's call reads, or None."""
    return frame(ctx.resolver, ctx.site.head.original.func.value)


def aggregated(ctx, grouping: Grouping):
    """``groupBy(keys).agg(...)`` (the rule's receiver is the ``groupBy``) of the aggregation the
    model found, with a ``select`` restoring the record's field order; NOTE F2S280 on a sum of
    a BIGINT field (Python's sum is unbounded, Spark's ANSI sum fails past 64 bits; a field of
    32 bits or less would need more than 2**32 records to get there)."""
    from flink2spark.transpiler import markers as M

    shape = grouping.shape
    agg = aggregation(ctx.resolver, ctx.site.head.original, grouping)
    use_functions(ctx)
    parts = []
    for f, kind in zip(shape.fields, agg.kinds):
        if kind == "key":
            continue
        if kind == "sum" and f.type == "bigint":
            ctx.note(M.DS_FRAME_SUM, SUM_NOTE.format(field=f.name))
        parts.append(f'F.{kind}("{f.name}").alias("{f.name}")')
    code = "{g}.agg(%s)" % ", ".join(parts)
    after = [shape.fields[k].name for k in grouping.keys] + [f.name for f, k in zip(shape.fields, agg.kinds) if k != "key"]
    if after != [f.name for f in shape.fields]:
        code += ".select(%s)" % ", ".join(f'"{f.name}"' for f in shape.fields)
    return ctx.expr(code, g=ctx.site.receiver)


SUM_NOTE = "sum of the 64-bit field {field} as Spark's sum: past 64 bits the Spark job fails (ANSI overflow) where Python's int goes on"


def lines(shape: Shape, sep: Optional[str]) -> str:
    """``select`` arguments of one string column: each record as Python's ``str()`` of a value,
    or of the fields joined by ``sep`` (code of a Python string) for ``write_csv``."""
    fields = [printed(f) for f in shape.fields]
    if sep is None or len(fields) == 1:
        return fields[0]
    return "F.concat_ws(%s, %s)" % (sep, ", ".join(fields))
