"""Helpers shared by PyFlink rules (not a rule: it defines no ``rule``)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Optional, Union

import libcst as cst

from flink2spark.transpiler.visitors import Transformer, Visitor, nodes
from flink2spark.transpiler import markers as M
from flink2spark.transpiler import pyflink_model as P

IMPORT = "from pyflink.datastream import StreamExecutionEnvironment\n"
HEAD = "\nenv = StreamExecutionEnvironment.get_execution_environment()\n"
SPARK_IMPORT = "from pyspark.sql import SparkSession\n"
RDD_NOTE = (
    "# NOTE(flink2spark): F2S205 PyFlink streams become RDDs: Python functions over records run on the"
    " RDD API (SparkContext), which Spark Connect does not offer\n"
)
SPARK_HEAD = "\n" + RDD_NOTE + "env = SparkSession.builder.getOrCreate()\n"


def spark_head(rdd: Optional[str] = None) -> str:
    """``SPARK_HEAD`` whose NOTE F2S205 names ``rdd``, what keeps the program on RDDs."""
    return "\n" + rdd_note(rdd) + "env = SparkSession.builder.getOrCreate()\n"


def rdd_note(reason: Optional[str] = None) -> str:
    """NOTE F2S205 as the environment's line carries it, with what keeps the program on RDDs
    (``StreamGraph.rdd_reason``) when there is one."""
    return RDD_NOTE if reason is None else RDD_NOTE[:-1] + f"; here because {reason}\n"
SHIM_IMPORT = "from flink2spark.runtime import datastream as f2s\n"
MAP_ORDER_NOTE = (
    "Types.MAP with keys other than strings, numbers and booleans: Flink's maps are Java HashMaps, whose key"
    " order (in Python dicts and printed maps) the converted program does not reproduce for such keys; it keeps"
    " Python's order (same keys and values)"
)
# Map key types whose Java hashCode the shim reproduces (f2s: HashMap iteration order)
HASHED_KEY_TYPES = frozenset({"STRING", "CHAR", "INT", "SHORT", "BYTE", "LONG", "BOOLEAN", "DOUBLE", "FLOAT"})


def program(body: str, imports: str = "") -> str:
    """A small PyFlink program for rule examples."""
    return imports + IMPORT + HEAD + body


def spark_program(body: str, imports: str = "", shim: bool = False, rdd: Optional[str] = None, frames: bool = False) -> str:
    """The expected conversion of ``program`` (imports as the import mechanism adds them);
    ``rdd``: what keeps it on RDDs, as NOTE F2S205 names it; ``frames``: no RDD, no NOTE."""
    head = "\nenv = SparkSession.builder.getOrCreate()\n" if frames else spark_head(rdd)
    return imports + (SHIM_IMPORT if shim else "") + SPARK_IMPORT + head + body


# --------------------------------------------------------------------------------------------
# arguments of original calls


def call_arg(call: cst.Call, index: int, keyword: Optional[str] = None) -> Optional[cst.BaseExpression]:
    """The original value of a positional or keyword argument of ``call``."""
    pos = 0
    for a in call.args:
        if a.keyword is not None:
            if keyword is not None and a.keyword.value == keyword:
                return a.value
            continue
        if a.star:
            return None
        if pos == index:
            return a.value
        pos += 1
    return None


def followed(resolver, expr: cst.BaseExpression) -> cst.BaseExpression:
    """``expr``, or the value a name has there (once): that of its single assignment, or of
    the assignment that reaches the use last (``ds = ds.key_by(...)``)."""
    if isinstance(expr, cst.Name):
        value = resolver.value_at(expr)
        if value is not None:
            return value
    return expr


def flink_qualified(resolver, node) -> Optional[str]:
    return resolver.qualified_name(node) if isinstance(node, (cst.Name, cst.Attribute)) else None


def chain(resolver, node: Optional[cst.BaseExpression]) -> Optional[tuple[cst.Call, list[tuple[str, cst.Call]]]]:
    """(first call, [(method, call), ...]) of a builder chain ``Entry(...).m1(...).m2(...)``
    (through one variable), the first call being a call of a Flink name (Kafka builders,
    Table API windows and descriptors)."""
    if node is None:
        return None
    node = followed(resolver, node)
    calls: list[tuple[str, cst.Call]] = []
    while isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and isinstance(node.func.value, cst.Call):
        calls.append((node.func.attr.value, node))
        node = node.func.value
    if not (isinstance(node, cst.Call) and flink_qualified(resolver, node.func)):
        return None
    calls.reverse()
    return node, calls


# --------------------------------------------------------------------------------------------
# element types


class _Pickled:
    def __repr__(self) -> str:
        return "PICKLED"


PICKLED = _Pickled()  # no type information: pickled Python objects


@dataclass(frozen=True)
class TableRows:
    """The element type of a stream of a Table's rows (``t_env.to_data_stream(table)``), which no
    expression of the program writes: ``Types.ROW_NAMED`` of the table's columns, each a PyFlink
    basic type (``(("symbol", "STRING"), ("shares", "INT"))``)."""

    fields: tuple[tuple[str, str], ...]

    def __str__(self) -> str:
        names = ", ".join(json.dumps(n) for n, _ in self.fields)
        return f"Types.ROW_NAMED([{names}], [{', '.join(f'Types.{t}()' for _, t in self.fields)}])"


@dataclass(frozen=True)
class RetractPairs:
    """The element type of ``t_env.to_retract_stream(table, type_info)``: ``Types.TUPLE`` of the
    add (True) / retract (False) flag and a record of the program's ``type_info``."""

    row: cst.BaseExpression


SourceType = Union[None, _Pickled, str, TableRows, RetractPairs, cst.BaseExpression]  # str: a basic type made by a source


def type_code(resolver, t: SourceType) -> str:
    """A text of the element type ``t`` (the same text for the same type)."""
    if isinstance(t, str):
        return t
    if t is PICKLED or t is None:
        return repr(t)
    if isinstance(t, TableRows):
        return str(t)
    if isinstance(t, RetractPairs):
        return f"Types.TUPLE([Types.BOOLEAN(), {resolver.module.code_for_node(t.row)}])"
    return resolver.module.code_for_node(t)

# Operators whose output has the type of their input (KeyedStream reductions keep the type
# the stream had before key_by, which is what the keyed stream's elements are).
SAME_TYPE = frozenset({
    "filter", "key_by", "union", "reduce", "sum", "min", "max", "min_by", "max_by",
    "assign_timestamps_and_watermarks", "rebalance", "rescale", "shuffle", "forward", "cache",
    "partition_custom", "broadcast",
    *P.MODIFIERS,
})


def async_input(resolver, expr: cst.BaseExpression) -> Optional[cst.BaseExpression]:
    """The stream an ``AsyncDataStream.*_wait*(data_stream, ...)`` call (original) reads, or
    None when ``expr`` is no such call."""
    if not (isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute)):
        return None
    if resolver.qualified_name(expr.func) not in P.ASYNC_CALLS:
        return None
    return call_arg(expr, 0, "data_stream")


def async_output_type(expr: cst.Call) -> SourceType:
    """The ``output_type`` of an AsyncDataStream call (PICKLED when not given)."""
    retry = expr.func.attr.value.endswith("_with_retry")  # type: ignore[attr-defined]
    return _output_type(expr, 5 if retry else 4)


def _agreed(resolver, types: list[SourceType]) -> SourceType:
    """The one element type of ``types`` (the same code), or None."""
    if not types or any(t is None for t in types):
        return None
    codes = {type_code(resolver, t) for t in types}
    return types[0] if len(codes) == 1 else None


def _returned(resolver, func: cst.Name) -> Optional[cst.BaseExpression]:
    """The expression a module function returns, when it has one ``return value`` only."""
    target = resolver.local_def(func)
    if not isinstance(target, cst.FunctionDef):
        return None
    returns = [r for r in nodes(target.body, cst.Return) if not _nested(resolver, r, target)]
    if len(returns) != 1 or returns[0].value is None:  # type: ignore[attr-defined]
        return None
    return returns[0].value  # type: ignore[attr-defined]


def _nested(resolver, node: cst.CSTNode, fn: cst.FunctionDef) -> bool:
    """Whether ``node`` is inside a def or lambda nested in ``fn``."""
    node = resolver.parent(node)
    while node is not None and node is not fn:
        if isinstance(node, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
            return True
        node = resolver.parent(node)
    return False


def _output_type(call: cst.Call, index: int, keyword: str = "output_type") -> SourceType:
    info = call_arg(call, index, keyword)
    return PICKLED if info is None or _is_none(info) else info


def _is_none(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Name) and node.value == "None"


def _types_call(resolver, node: cst.CSTNode) -> Optional[str]:
    """``X`` for a call ``Types.X(...)`` of PyFlink's Types."""
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute):
        if resolver.qualified_name(node.func.value) in P.TYPES:
            return node.func.attr.value
    return None


SUPPORTED_TYPES = frozenset({
    "STRING", "BYTE", "BOOLEAN", "SHORT", "INT", "LONG", "FLOAT", "DOUBLE", "CHAR", "BIG_INT",
    "PICKLED_BYTE_ARRAY", "ROW", "ROW_NAMED", "TUPLE", "PRIMITIVE_ARRAY", "BASIC_ARRAY", "LIST", "MAP",
    "SQL_DATE", "SQL_TIME", "SQL_TIMESTAMP", "INSTANT", "BIG_DEC",
})
BYTES = "PRIMITIVE_ARRAY(BYTE)"  # a source's element type: Types.PRIMITIVE_ARRAY(Types.BYTE()) (Kafka's ByteArraySchema)


def byte_array_type(resolver, node: cst.BaseExpression) -> bool:
    """Whether ``node`` (or the constant it names) is ``Types.PRIMITIVE_ARRAY(Types.BYTE())``."""
    node = followed(resolver, node)
    if _types_call(resolver, node) != "PRIMITIVE_ARRAY" or len(node.args) != 1:  # type: ignore[attr-defined]
        return False
    return basic_type(resolver, node.args[0].value) == "BYTE"  # type: ignore[attr-defined]
IDENTITY_TYPES = frozenset({"STRING", "BYTE", "BOOLEAN", "SHORT", "INT", "LONG", "DOUBLE", "CHAR", "BIG_INT", "PICKLED_BYTE_ARRAY"})


def container_notes(ctx, t: SourceType, printed: bool) -> None:
    """NOTEs for values of a stream type that Python cannot show as Flink does: dicts of
    ``Types.MAP`` (Java HashMap key order) and, when ``printed`` by Flink's Java sink, arrays
    (Java prints an array's identity)."""
    if t == BYTES:
        kinds = ["PRIMITIVE_ARRAY", "BYTE"]
    elif isinstance(t, cst.BaseExpression):
        kinds = type_kinds(ctx.resolver, t)
    else:
        return
    if "MAP" in kinds and isinstance(t, cst.BaseExpression) and map_order_unknown(ctx.resolver, t):
        ctx.note(M.PF_MAP_ORDER, MAP_ORDER_NOTE)
    top = kinds[0] if t == BYTES else _types_call(ctx.resolver, followed(ctx.resolver, t))  # type: ignore[arg-type]
    if printed and top in ("PRIMITIVE_ARRAY", "BASIC_ARRAY"):
        ctx.note(
            M.PF_ARRAY_PRINT,
            f"print() of Types.{top}() values: Flink's sink prints the Java array's identity ([B@1b2c3d, [I@5e6f7a),"
            " the converted program the values as Python prints them (b'...', [1, 2])",
        )


def map_order_unknown(resolver, node: cst.BaseExpression, depth: int = 0) -> bool:
    """Whether a type expression has a ``Types.MAP`` whose key type is not one whose Java hash
    the shim reproduces (``HASHED_KEY_TYPES``): the dicts' key order then differs from Flink's."""
    if depth > 20:
        return False
    for call in nodes(node, cst.Call):
        if _types_call(resolver, call) == "MAP":
            key = call.args[0].value if call.args else None
            key = followed(resolver, key) if key is not None else None
            if not (isinstance(key, cst.Call) and _types_call(resolver, key) in HASHED_KEY_TYPES):
                return True
    for name in nodes(node, cst.Name):
        value = resolver.single_value(name) if isinstance(name, cst.Name) else None
        if value is not None and value is not node and map_order_unknown(resolver, value, depth + 1):
            return True
    return False


def type_kinds(resolver, node: cst.BaseExpression, depth: int = 0) -> list[str]:
    """The ``Types.X`` members a type expression uses (through names bound to type expressions),
    kept per expression for the conversion of the module."""
    if depth > 20:
        return []
    memo = resolver.memo.setdefault("type_kinds", {})
    if depth == 0 and id(node) in memo:
        return list(memo[id(node)])
    found = _type_kinds(resolver, node, depth)
    if depth == 0:
        memo[id(node)] = tuple(found)
    return found


def _type_kinds(resolver, node: cst.BaseExpression, depth: int) -> list[str]:
    found = []
    for call in nodes(node, cst.Call):
        kind = _types_call(resolver, call)
        if kind is not None:
            found.append(kind)
    for name in nodes(node, cst.Name):
        value = resolver.single_value(name) if isinstance(name, cst.Name) else None
        if value is not None and value is not node:
            found.extend(type_kinds(resolver, value, depth + 1))
    return found


CONTAINER_TYPES = frozenset({"PRIMITIVE_ARRAY", "BASIC_ARRAY", "LIST", "MAP"})


def unsupported_types(resolver, node: cst.BaseExpression, containers: bool = True) -> list[str]:
    """``Types.X`` members in a type expression whose values the shim does not handle (with
    ``containers=False``, also arrays, lists and maps)."""
    return [k for k in type_kinds(resolver, node) if k not in SUPPORTED_TYPES or (not containers and k in CONTAINER_TYPES)]


# Names that PyFlink 2.3's Types lacks (Java's Types has them): Flink fails with AttributeError
NOT_IN_PYFLINK = frozenset({"LOCAL_DATE", "LOCAL_TIME", "LOCAL_DATE_TIME"})


def unsupported_reason(kind: str) -> str:
    """Why values of ``Types.kind()`` are not converted (for a TODO)."""
    if kind in NOT_IN_PYFLINK:
        return f"PyFlink 2.3's Types has no {kind}() (the program fails on Flink with AttributeError)"
    return f"values of Types.{kind}() are not converted yet"


# Types whose values change when Flink encodes and decodes them (Row field names, tuples, 32-bit
# floats, tuples and bytearrays as arrays, dicts in Java HashMap order; times and timestamps to
# milliseconds, a datetime under SQL_DATE to its date, -0 decimals)
DECODED_KINDS = frozenset({
    "ROW", "ROW_NAMED", "TUPLE", "FLOAT", "PRIMITIVE_ARRAY", "BASIC_ARRAY", "LIST", "MAP",
    "SQL_DATE", "SQL_TIME", "SQL_TIMESTAMP", "BIG_DEC",
})


def decoded_output(ctx, result: cst.BaseExpression) -> cst.BaseExpression:
    """``result.map(f2s.decoded(type_info))`` when the stream a Python operator makes here has
    several consumers: Flink does not fuse the operator with them and each gets the elements
    decoded from the stream's serializers."""
    from flink2spark.rules.pyflink._streams import facts

    outer = ctx.outer
    if facts(ctx.resolver, outer).readers < 2:
        return result
    decode = decoding(ctx, [outer], outer)
    if decode is None:
        return result
    # (timestamp, value) pairs keep their timestamps
    return ctx.expr("{r}.%s({d})" % ("mapValues" if facts(ctx.resolver, outer).timestamped else "map"), r=result, d=decode)


def _makes_conforming(resolver, call: cst.Call, method: str) -> bool:
    """Whether every value the function of ``map``/``flat_map`` produces is, by its syntax,
    what Flink's serializers give back for the output type: a tuple literal of the right size
    for ``Types.TUPLE``, ``Row(name=...)`` with the type's field names in order for
    ``Types.ROW_NAMED``/``ROW`` (fields of types that decode unchanged only)."""
    info = call_arg(call, 1, "output_type")
    shape = _shape(resolver, info) if info is not None else None
    fn = call_arg(call, 0, "func")
    if shape is None or fn is None:
        return False
    produced = _produced(resolver, fn, method)
    return produced is not None and all(_conforms(resolver, e, shape) for e in produced)


def _shape(resolver, info: cst.BaseExpression):
    """("tuple", n) or ("row", names) for a TUPLE/ROW/ROW_NAMED type of unchanged fields."""
    node = followed(resolver, info)
    kind = _types_call(resolver, node)
    if kind not in ("TUPLE", "ROW", "ROW_NAMED"):
        return None
    args = [followed(resolver, a.value) for a in node.args]  # type: ignore[attr-defined]
    fields = args[-1] if args else None
    if not isinstance(fields, cst.List) or any(_types_call(resolver, e.value) not in IDENTITY_TYPES for e in fields.elements):
        return None
    if kind == "TUPLE":
        return ("tuple", len(fields.elements))
    names = _field_names(kind, args, len(fields.elements))
    return None if names is None else ("row", names)


def _field_names(kind: str, args: list, count: int) -> Optional[list[str]]:
    """The field names of a ``Types.ROW_NAMED(names, types)`` (literal strings), ``f0, f1...``
    for ROW and TUPLE."""
    if kind != "ROW_NAMED":
        return [f"f{i}" for i in range(count)]
    names = args[0] if len(args) == 2 else None
    if not isinstance(names, cst.List) or not all(isinstance(e.value, cst.SimpleString) for e in names.elements):
        return None
    return [e.value.evaluated_value for e in names.elements]  # type: ignore[attr-defined]


def _produced(resolver, fn: cst.BaseExpression, method: str) -> Optional[list[cst.BaseExpression]]:
    """The expressions whose values a lambda or def returns (map) or yields (flat_map)."""
    if isinstance(fn, cst.Lambda):
        if method == "map":
            return [fn.body]
        if isinstance(fn.body, (cst.GeneratorExp, cst.ListComp)):
            return [fn.body.elt]
        if isinstance(fn.body, (cst.List, cst.Tuple)):
            return [e.value for e in fn.body.elements if not isinstance(e, cst.StarredElement)] if not any(isinstance(e, cst.StarredElement) for e in fn.body.elements) else None
        return None
    target = resolver.local_def(fn)
    if not isinstance(target, cst.FunctionDef):
        return None
    found: list[cst.BaseExpression] = []
    ok = True

    class V(Visitor):
        def visit_FunctionDef(self, node):
            return node is target

        def visit_Lambda(self, node):
            return False

        def visit_ClassDef(self, node):
            return False

        def visit_Return(self, node):
            nonlocal ok
            if method == "map":
                if node.value is None:
                    ok = False
                else:
                    found.append(node.value)

        def visit_Yield(self, node):
            nonlocal ok
            if method != "flat_map" or node.value is None or isinstance(node.value, cst.From):
                ok = False
            else:
                found.append(node.value)  # type: ignore[arg-type]

    target.visit(V())
    return found if ok and found else None


def _conforms(resolver, expr: cst.BaseExpression, shape) -> bool:
    kind, detail = shape
    if kind == "tuple":
        return isinstance(expr, cst.Tuple) and len(expr.elements) == detail and not any(isinstance(e, cst.StarredElement) for e in expr.elements)
    if not (isinstance(expr, cst.Call) and resolver.qualified_name(expr.func) in P.ROWS):
        return False
    return [a.keyword.value if a.keyword is not None else None for a in expr.args] == detail and not any(a.star for a in expr.args)


def decoding(ctx, streams: list[cst.BaseExpression], site: cst.CSTNode) -> Optional[cst.BaseExpression]:
    """``f2s.decoded(type_info)`` when elements of the (original) ``streams`` cross a Flink
    serializer at ``site`` (key_by, union) and may come out different from what went in: a
    positional Row gets the type's field names, a list becomes a tuple, a float gets 32 bits.
    None when nothing changes (or the type cannot be followed)."""
    from flink2spark.rules.pyflink._streams import facts

    t = facts(ctx.resolver, streams[0]).element_type
    if not isinstance(t, cst.BaseExpression) or not DECODED_KINDS & set(type_kinds(ctx.resolver, t)):
        return None
    if not any(facts(ctx.resolver, s).undecoded for s in streams):
        return None
    if unsupported_types(ctx.resolver, t):
        return None
    known, type_info = type_expression(ctx, t, site)
    if not known or type_info is None:
        return None
    if "MAP" in type_kinds(ctx.resolver, t) and map_order_unknown(ctx.resolver, t):
        ctx.note(M.PF_MAP_ORDER, MAP_ORDER_NOTE)
    return ctx.expr("{decoded}({t})", decoded=ctx.shim("decoded"), t=type_info)


# PyFlink basic types whose Python values Spark holds with the same meaning (a FLOAT is a 32-bit
# value, handed to Python as a float; CHAR a one-character str)
_COLUMN_TYPES = {kind: spark.lower() for kind, spark in P.SPARK_TYPES.items()}


# element types of PRIMITIVE_ARRAY/BASIC_ARRAY fields that Flink hands Python as a list of the
# same values Spark's ARRAY column gives (BYTE: bytes, not a list; FLOAT: 32-bit values)
_ARRAY_ELEMENTS = frozenset({"smallint", "int", "bigint", "double", "boolean", "string"})


def _column_type(resolver, node, instants: bool = False) -> Optional[str]:
    """The Spark type of a field of type ``node``: a basic type's, ``date`` for ``SQL_DATE``,
    ``time(6)`` for ``SQL_TIME``,
    ``decimal`` for ``BIG_DEC`` (``_frames.source_shape`` decides for which data they are
    exact, and a decimal's precision and scale), ``array<T>`` for a
    ``PRIMITIVE_ARRAY``/``BASIC_ARRAY`` of ``_ARRAY_ELEMENTS``, ``struct<a:int,...>`` for a
    nested ``ROW``/``ROW_NAMED`` of basic types, ``timestamp`` for ``INSTANT`` when ``instants``;
    else None."""
    kind = _types_call(resolver, node)
    if kind in _COLUMN_TYPES:
        return _COLUMN_TYPES[kind]
    if kind == "INSTANT" and instants:
        return "timestamp"  # for which data and which consumers: _frames.source_shape, _frames.INSTANT_CONSUMERS
    if kind == "SQL_DATE":
        return "date"
    if kind == "SQL_TIME":
        return "time(6)"  # for which data: _frames.source_shape
    if kind == "BIG_DEC":
        return "decimal"  # its precision and scale: the data's (_frames.source_shape)
    if kind in ("PRIMITIVE_ARRAY", "BASIC_ARRAY") and len(node.args) == 1 and node.args[0].keyword is None:
        element = _COLUMN_TYPES.get(_types_call(resolver, followed(resolver, node.args[0].value)) or "")
        return f"array<{element}>" if element in _ARRAY_ELEMENTS else None
    if kind in ("ROW", "ROW_NAMED"):  # a nested Row: a struct of basic types (Flink hands Python a Row)
        args = [followed(resolver, a.value) for a in node.args]  # type: ignore[attr-defined]
        fields = args[-1] if args and all(a.keyword is None and not a.star for a in node.args) else None  # type: ignore[attr-defined]
        if not isinstance(fields, cst.List) or not fields.elements:
            return None
        types = [_COLUMN_TYPES.get(_types_call(resolver, followed(resolver, e.value)) or "") for e in fields.elements]
        names = _field_names(kind, args, len(types))
        if names is None or len(names) != len(types) or not all(types) or any(not n.isidentifier() for n in names):
            return None
        return "struct<" + ",".join(f"{n}:{t}" for n, t in zip(names, types)) + ">"
    return None


def record_shape(resolver, info: cst.BaseExpression, nullable: Optional[bool] = None, instants: bool = False):
    """The ``python_columns.Shape`` of records of the type ``info`` (``Types.ROW_NAMED``,
    ``ROW``, ``TUPLE`` of basic types, or a basic type), or None. Columns are named as the
    record's fields (``f0, f1...`` for ROW and TUPLE). ``nullable``: whether a field may hold
    None; by default Flink's: ROW fields may (a Row reaches the function with None fields),
    TUPLE fields and basic values not (Flink 2.3 fails the job on a None there before any
    function sees it: tests/test_python_columns.py). ``instants``: ``Types.INSTANT()`` fields
    are ``timestamp`` columns (only a source's, ``_frames.source_shape``, which checks its data);
    else a type with one has no shape."""
    from flink2spark.transpiler.python_columns import Field, Shape

    node = followed(resolver, info)
    kind = _types_call(resolver, node)
    if kind in _COLUMN_TYPES or kind in ("SQL_DATE", "SQL_TIME", "BIG_DEC"):
        return Shape.value(Field("value", _column_type(resolver, node) or "", bool(nullable)))
    if kind not in ("TUPLE", "ROW", "ROW_NAMED"):
        return None
    args = [followed(resolver, a.value) for a in node.args]  # type: ignore[attr-defined]
    fields = args[-1] if args else None
    if not isinstance(fields, cst.List):
        return None
    types = [_column_type(resolver, followed(resolver, e.value), instants) for e in fields.elements]
    if not all(types):
        return None
    names = _field_names(kind, args, len(types))
    if names is None or len(names) != len(types):
        return None
    if nullable is None:
        nullable = kind != "TUPLE"
    cols = tuple(Field(n, t, nullable) for n, t in zip(names, types))
    return Shape("tuple" if kind == "TUPLE" else "row", cols)


def basic_type(resolver, node: cst.BaseExpression) -> Optional[str]:
    """``X`` when ``node`` (or the constant it names) is ``Types.X()``."""
    return _types_call(resolver, followed(resolver, node))


def visible_at(ctx, node: cst.BaseExpression, site: cst.CSTNode) -> bool:
    """Whether every name in the original expression ``node`` means the same at ``site``."""
    resolver = ctx.resolver
    if not resolver.scoped(site):
        return False
    visible = {}  # identifier -> what a read at site sees
    for name in nodes(node, cst.Name):
        parent = resolver.parent(name)
        if isinstance(parent, cst.Attribute) and parent.attr is name:
            continue
        if isinstance(parent, cst.Arg) and parent.keyword is name:
            continue
        refs = set(resolver.referents(name))
        if name.value not in visible:
            visible[name.value] = resolver.visible_bindings(name.value, site)
        there = visible[name.value]
        if not refs and _builtin(resolver, name) and all(resolver.is_builtin(a) for a in there):
            continue  # a builtin (len, str...) not shadowed at either place
        if not refs or refs != there:
            return False
    return True


def _builtin(resolver, name: cst.Name) -> bool:
    """Whether ``name`` refers to a Python builtin where it stands."""
    found = resolver.visible_bindings(name.value, name) or set()
    return bool(found) and all(resolver.is_builtin(a) for a in found)


class _MapNames(Transformer):
    """Rewrite PyFlink names of an original expression as the converter does (``Types`` ->
    ``f2s.Types``), for an expression copied to another place."""

    def __init__(self, conv):
        self.conv = conv

    def leave_Name(self, original: cst.Name, updated: cst.Name):
        q = self.conv.resolver.qualified_name(original)
        if q in self.conv.model.NAME_MAP:
            return self.conv.shim(self.conv.model.NAME_MAP[q][1])
        return updated

    def leave_Attribute(self, original, updated):
        return updated.with_changes(attr=original.attr)

    def leave_Arg(self, original, updated):
        return updated.with_changes(keyword=original.keyword)


def type_expression(ctx, t: SourceType, site: cst.CSTNode) -> tuple[bool, Optional[cst.BaseExpression]]:
    """(known, Spark-side expression) of a stream type for a shim call at ``site``:
    ``(True, None)`` for pickled values, ``(False, None)`` when the type cannot be written
    there (not followed, or names that mean something else at ``site``)."""
    if t is None:
        return False, None
    if t is PICKLED:
        return True, None
    if t == BYTES:
        return True, ctx.expr("{t}.PRIMITIVE_ARRAY({t}.BYTE())", t=ctx.shim("Types"))
    if isinstance(t, str):
        return True, ctx.expr("{t}.%s()" % t, t=ctx.shim("Types"))
    if isinstance(t, TableRows):
        return True, ctx.expr(str(t).replace("Types.", "{t}."), t=ctx.shim("Types"))
    if isinstance(t, RetractPairs):
        known, row = type_expression(ctx, t.row, site)
        if not known or row is None:
            return False, None
        return True, ctx.expr("{t}.TUPLE([{t}.BOOLEAN(), {row}])", t=ctx.shim("Types"), row=row)
    if not visible_at(ctx, t, site):
        return False, None
    return True, t.visit(_MapNames(ctx.conv))  # type: ignore[return-value]


# --------------------------------------------------------------------------------------------
# sources


def source_kind(resolver, node: Optional[cst.BaseExpression]):
    """What ``from_source`` reads: ("numbers", call, value) for ``NumberSequenceSource(a, b)``
    (``call`` = that call), ("text", call, value) for
    ``FileSource.for_record_stream_format(StreamFormat.text_line_format(), *paths).build()``
    (``call`` = the ``for_record_stream_format`` call), ("stream_text", call, value) for the same
    with ``.monitor_continuously(interval)`` before ``build()`` (unbounded), or None. ``value`` is the source
    expression itself (the value of the variable when ``node`` is one)."""
    if node is None:
        return None
    node = followed(resolver, node)
    if not isinstance(node, cst.Call):
        return None
    if resolver.qualified_name(node.func) in P.NUMBER_SEQUENCE_SOURCES:
        return ("numbers", node, node)
    if isinstance(node.func, cst.Attribute) and node.func.attr.value == "build" and not node.args:
        builder = node.func.value
        kind = "text"
        if _monitored(builder):  # unbounded: new files are read as they come
            kind, builder = "stream_text", builder.func.value  # type: ignore[attr-defined]
        while kind == "text" and _static_file_set(builder):  # bounded, as without it
            builder = builder.func.value  # type: ignore[attr-defined]
        if isinstance(builder, cst.Call) and resolver.qualified_name(builder.func) in P.ENTRY_POINTS:
            if resolver.type_of(builder) == P.FILE_SOURCE_BUILDER:
                fmt = call_arg(builder, 0, "stream_format")
                if isinstance(fmt, cst.Call) and resolver.qualified_name(fmt.func) in P.TEXT_LINE_FORMAT:
                    return (kind, builder, node)
    return None


def _monitored(node: cst.BaseExpression) -> bool:
    """``<builder>.monitor_continuously(interval)``."""
    return (
        isinstance(node, cst.Call)
        and isinstance(node.func, cst.Attribute)
        and node.func.attr.value == "monitor_continuously"
        and len(node.args) == 1
    )


def _static_file_set(node: cst.BaseExpression) -> bool:
    """``<builder>.process_static_file_set()``."""
    return (
        isinstance(node, cst.Call)
        and isinstance(node.func, cst.Attribute)
        and node.func.attr.value == "process_static_file_set"
        and not node.args
    )


# What to use on Spark for PyFlink connectors with no conversion (by module of the source/sink class)
CONNECTOR_HINTS = {
    "pyflink.datastream.connectors.elasticsearch": (
        "Elasticsearch: Spark has no built-in connector; write the DataFrame with the elasticsearch-spark connector"
        ' (format "es" with the options es.nodes and es.resource; writeStream with a checkpoint location on an unbounded stream) by hand'
    ),
    "pyflink.datastream.connectors.pulsar": (
        "Pulsar: Spark has no built-in connector; read or write with a Pulsar connector for Spark (format \"pulsar\" with"
        " service.url, admin.url and the topic) by hand"
    ),
    "pyflink.datastream.connectors.jdbc": "JDBC: write the DataFrame with Spark's own df.write.jdbc(url, table, mode, properties) by hand",
    "pyflink.datastream.connectors.kinesis": "Kinesis: Spark has no built-in connector; use a Kinesis connector for Structured Streaming by hand",
    "pyflink.datastream.connectors.rabbitmq": "RabbitMQ: Spark has no built-in connector; port it by hand",
    "pyflink.datastream.connectors.cassandra": "Cassandra: write the DataFrame with the Spark Cassandra connector (format org.apache.spark.sql.cassandra) by hand",
}


def connector_hint(resolver, expr: Optional[cst.BaseExpression]) -> Optional[str]:
    """What to use on Spark for the connector object ``expr`` (original: a builder chain, a
    constructor call, or a name bound to one), by the PyFlink module of its class."""
    node = followed(resolver, expr) if expr is not None else None
    for _ in range(30):
        if isinstance(node, cst.Call):
            node = node.func
        elif isinstance(node, cst.Attribute) and not (resolver.qualified_name(node) or "").startswith("pyflink."):
            node = followed(resolver, node.value)
        else:
            break
    q = resolver.qualified_name(node) if node is not None else None
    for module, hint in CONNECTOR_HINTS.items():
        if q and q.startswith(module + "."):
            return hint
    return None


def from_source_problem(ctx, call: cst.Call) -> Optional[str]:
    """Why ``env.from_source(source, watermark_strategy, name)`` (original call) cannot be
    converted, or None."""
    resolver = ctx.resolver
    source = call_arg(call, 0, "source")
    kind = source_kind(resolver, source)
    if kind is None:
        hint = connector_hint(resolver, source)
        if hint is not None:
            return f"from_source(): {hint}"
        return (
            "from_source(): only NumberSequenceSource(a, b), FileSource.for_record_stream_format(StreamFormat.text_line_format(), path).build()"
            " and KafkaSource are converted"
        )
    strategy = call_arg(call, 1, "watermark_strategy")
    if not (isinstance(strategy, cst.Call) and resolver.qualified_name(strategy.func) in P.NO_WATERMARKS):
        if not unused_watermarks(ctx, strategy):
            return "from_source() with a watermark strategy: event time is not converted yet (WatermarkStrategy.no_watermarks() is)"
    if kind[0] in ("text", "stream_text"):
        fmt = call_arg(kind[1], 0, "stream_format")
        charset = call_arg(fmt, 0, "charset_name") if isinstance(fmt, cst.Call) else None
        if charset is not None and not (isinstance(charset, cst.SimpleString) and charset.evaluated_value.upper().replace("-", "") == "UTF8"):
            return "text_line_format(charset): Spark's text source reads UTF-8 only"
        if any(a.keyword is not None or a.star for a in kind[1].args):
            return "FileSource paths given with * or keywords"
        args = [a.value for a in kind[1].args[1:]]
        if kind[0] == "stream_text" and len(args) != 1:
            return "FileSource.monitor_continuously() over several paths: Spark's streaming text source reads one folder (or glob)"
    else:
        args = [call_arg(kind[1], 0, "start"), call_arg(kind[1], 1, "end")]
        if any(a is None for a in args):
            return "NumberSequenceSource(start, end): both bounds are needed"
    if isinstance(source, cst.Name):
        if consumed_by_from_source(ctx, kind[2]) is None:
            return "the source object is used elsewhere too: convert it by hand"
    if not all(visible_at(ctx, a, call) for a in args if a is not None):  # type: ignore[arg-type]
        return "the source's arguments use names that mean something else here"
    return None


# Operators whose results may depend on watermarks or timestamps
_EVENT_TIME_METHODS = frozenset({"window", "window_all", "assign_timestamps_and_watermarks", "process", "connect"})
_WATERMARK_ONLY = frozenset({"for_monotonous_timestamps", "for_bounded_out_of_orderness", "no_watermarks"})


def unused_watermarks(ctx, strategy: Optional[cst.BaseExpression]) -> bool:
    """Whether a source's watermark strategy changes no result: it only makes watermarks
    (``for_monotonous_timestamps()``, ``for_bounded_out_of_orderness(d)``, optionally
    ``.with_idleness(d)``; no timestamp assigner), and the module has no operator that could
    read watermarks or timestamps (windows, connect, process functions other than those of
    this module that name no timestamp, timer or watermark)."""
    resolver = ctx.resolver
    strategy = followed(resolver, strategy) if strategy is not None else None
    while (
        isinstance(strategy, cst.Call)
        and isinstance(strategy.func, cst.Attribute)
        and strategy.func.attr.value == "with_idleness"
    ):
        strategy = strategy.func.value
    if not (isinstance(strategy, cst.Call) and isinstance(strategy.func, cst.Attribute)):
        return False
    if strategy.func.attr.value not in _WATERMARK_ONLY or resolver.qualified_name(strategy.func.value) not in P.WATERMARK_STRATEGIES:
        return False
    for call in resolver.calls_of():
        method = call.func.attr.value  # type: ignore[attr-defined]
        if method in _EVENT_TIME_METHODS and P.is_stream(resolver.type_of(call.func.value)):  # type: ignore[attr-defined]
            if method == "process" and not _reads_event_time(resolver, call_arg(call, 0, "func")):
                continue
            return False
    return True


# What a process function reads of event time: record timestamps, watermarks, timers
EVENT_TIME_NAMES = frozenset({"timestamp", "timer_service", "current_watermark", "on_timer", "timestamps"})


def instance_class(resolver, expr: Optional[cst.BaseExpression]) -> Optional[cst.ClassDef]:
    """The class of ``Cls(...)`` (or of a name bound once to one) when ``Cls`` is a class of
    this module; None otherwise."""
    if isinstance(expr, cst.Name):
        expr = resolver.single_value(expr)
    if not isinstance(expr, cst.Call):
        return None
    cls = resolver.local_def(expr.func)
    return cls if isinstance(cls, cst.ClassDef) else None


def names_any(cls: cst.ClassDef, names) -> bool:
    """Whether the class's code uses any of ``names`` (as a name or an attribute)."""
    return any(n.value in names for n in nodes(cls, cst.Name))


def _reads_event_time(resolver, func: Optional[cst.BaseExpression]) -> bool:
    """Whether the function given to ``process()`` may read timestamps, watermarks or timers:
    False only for an instance of a class of this module that names none of them."""
    cls = instance_class(resolver, func)
    return cls is None or names_any(cls, EVENT_TIME_NAMES)


def consumed_by_from_source(ctx, call: cst.Call):
    """Where the source object built by ``call`` goes: ``(call, from_source call)`` when it is
    written directly as the source of ``env.from_source(...)``; ``(assignment, from_source
    call)`` when it is assigned to a variable whose only use is as that source; None otherwise."""
    return consumed_as(ctx, call, _is_from_source_arg)


def consumed_as(ctx, call: cst.Call, accepts):
    """``(call, consumer)`` when ``call`` is an argument that ``accepts(resolver, arg)``;
    ``(assignment, consumer)`` when it is assigned to a variable whose only use is such an
    argument; None otherwise. ``consumer`` is the call taking the argument."""
    resolver = ctx.resolver
    parent = resolver.parent(call)
    if isinstance(parent, cst.Arg) and accepts(resolver, parent):
        return call, resolver.parent(parent)
    refs = assigned_uses(resolver, call)
    if refs is None or len(refs) != 1:
        return None
    arg = resolver.parent(refs[0])
    if isinstance(arg, cst.Arg) and accepts(resolver, arg):
        return parent, resolver.parent(arg)
    return None


def left_with_todo(ctx, arg: cst.Arg, methods: tuple[str, ...]) -> bool:
    """``arg`` is the first argument of a ``x.<method>(...)`` call (one of ``methods``) whose
    statement an earlier conversion left with a TODO: converting a converted program again
    marks the call, not also the object it reads."""
    call = ctx.resolver.parent(arg)
    if not (isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute) and call.func.attr.value in methods):
        return False
    comments = ctx.conv.statement_comments(call)
    return bool(call.args) and call.args[0] is arg and any(c.startswith("# TODO(flink2spark):") for c in comments)


def assigned_uses(resolver, value: cst.CSTNode) -> Optional[list]:
    """The nodes reading the variable ``value`` (original) is assigned to (``name = value``, the
    name's only assignment in its scope); None when ``value`` is not assigned so."""
    parent = resolver.parent(value)
    if not isinstance(parent, cst.Assign) or len(parent.targets) != 1 or not isinstance(parent.targets[0].target, cst.Name):
        return None
    target = parent.targets[0].target
    assignments = resolver.scope_bindings(target) or []
    if len(assignments) != 1:
        return None
    return [r.node for r in assignments[0].references]


def _is_from_source_arg(resolver, arg: cst.Arg) -> bool:
    call = resolver.parent(arg)
    if not (isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute) and call.func.attr.value == "from_source"):
        return False
    if resolver.type_of(call.func.value) != P.ENVIRONMENT:
        return False
    return call_arg(call, 0, "source") is arg.value


# --------------------------------------------------------------------------------------------
# streams


def as_stream(ctx, converted: cst.BaseExpression, typ: Optional[str]) -> cst.BaseExpression:
    """The elements of a (converted) stream: a keyed stream is a pair RDD, its values."""
    if typ == P.KEYED:
        return ctx.expr("{k}.values()", k=converted)
    return converted


def runtime_mode(ctx) -> Optional[str]:
    """The module's runtime mode (``StreamGraph.runtime_mode``)."""
    from flink2spark.rules.pyflink._streams import graph

    return graph(ctx.resolver).runtime_mode
