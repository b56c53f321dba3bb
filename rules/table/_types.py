"""PyFlink ``DataTypes`` (libcst nodes) -> Spark SQL type names and DDL schema strings.

``spark_type(node, qualified)``: ``DataTypes.INT()`` -> ``"INT"``; ``spark_schema(node,
qualified)``: ``DataTypes.ROW([DataTypes.FIELD("a", DataTypes.INT()), ...])`` -> ``"a INT, ..."``.
``qualified(node)`` gives the qualified name of a Name/Attribute as imported (see
``_expressions.column``). Anything without an exact Spark type raises ``Untranslatable``.

Mapping (Flink -> Spark):
    TINYINT SMALLINT INT BIGINT FLOAT DOUBLE BOOLEAN DATE -> the same names
    DECIMAL(p, s) -> DECIMAL(p,s) (p <= 38 on both)
    CHAR(n), VARCHAR(n), STRING -> STRING (Spark's CHAR/VARCHAR pad or check lengths differently)
    BYTES, BINARY(n), VARBINARY(n) -> BINARY
    TIMESTAMP(p) (no time zone) -> TIMESTAMP_NTZ; TIMESTAMP_LTZ(p) -> TIMESTAMP (an instant);
        Spark keeps microseconds: precisions above 6 are refused
    ARRAY(t) -> ARRAY<t>; MAP(k, v) -> MAP<k, v>; ROW([FIELD(n, t), ...]) -> STRUCT<n: t, ...>
    .not_null() / .nullable() -> dropped (nullability is a constraint, not a value)
    TIME, INTERVAL, MULTISET, RAW, NULL -> Untranslatable (no Spark value type of that meaning)
"""

from __future__ import annotations

import re
from typing import Callable, Optional

import libcst as cst

QualifiedName = Callable[[cst.CSTNode], Optional[str]]

DATA_TYPES = "pyflink.table.DataTypes"
_DATA_TYPES_ALIASES = (DATA_TYPES, "pyflink.table.types.DataTypes")

_SIMPLE = {
    "TINYINT": "TINYINT",
    "SMALLINT": "SMALLINT",
    "INT": "INT",
    "BIGINT": "BIGINT",
    "FLOAT": "FLOAT",
    "DOUBLE": "DOUBLE",
    "BOOLEAN": "BOOLEAN",
    "DATE": "DATE",
    "STRING": "STRING",
    "CHAR": "STRING",
    "VARCHAR": "STRING",
    "BYTES": "BINARY",
    "BINARY": "BINARY",
    "VARBINARY": "BINARY",
}

_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class Untranslatable(Exception):
    """A construct without an exact Spark form; ``str(exc)`` names it."""


def _data_types_member(func: cst.BaseExpression, qualified: QualifiedName) -> Optional[str]:
    """``DataTypes.X`` (as imported) -> "X", else None."""
    if isinstance(func, cst.Attribute):
        q = qualified(func.value)
        if q in _DATA_TYPES_ALIASES:
            return func.attr.value
        q = qualified(func)
        for prefix in _DATA_TYPES_ALIASES:
            if q and q.startswith(prefix + "."):
                return q[len(prefix) + 1:]
    return None


def _int_literal(node: cst.BaseExpression) -> int:
    if isinstance(node, cst.Integer):
        return int(node.value, 0)
    raise Untranslatable(f"DataTypes argument {_source(node)} is not an integer literal")


def _string_literal(node: cst.BaseExpression) -> str:
    if isinstance(node, cst.SimpleString) and "b" not in node.prefix.lower() and "f" not in node.prefix.lower():
        value = node.evaluated_value
        if isinstance(value, str):
            return value
    raise Untranslatable(f"{_source(node)} is not a string literal")


def _source(node: cst.CSTNode) -> str:
    try:
        return cst.Module(body=[]).code_for_node(node)
    except Exception:  # pragma: no cover - libcst renders every expression node
        return type(node).__name__


def _positional(call: cst.Call, what: str) -> list[cst.BaseExpression]:
    args = []
    for arg in call.args:
        if arg.star or (arg.keyword is not None and arg.keyword.value != "nullable"):
            raise Untranslatable(f"{what} with {_source(arg).strip().rstrip(',')}")
        if arg.keyword is None:
            args.append(arg.value)
    return args


def extreme_nan(what: str, type_: Optional[str]) -> Optional[str]:
    """Whether MIN/MAX ``what`` of a value of ``type_`` (None: not known) needs NOTE F2S329: its
    subject (``"MAX(fare) of a DOUBLE"``) for ``extreme_nan_note``, or None when Spark's
    ``min``/``max`` give Flink's result on every input. The one decision for the Table API
    (``_expressions``) and SQL (``_sql``), group, window and OVER aggregates alike.

    Seen on Flink 2.3 (batch and streaming): its MIN/MAX of a DOUBLE keep a NaN that comes first
    in a group (NaN for both) and skip a later one (1.0, 3.0, NaN: MIN 1.0, MAX 3.0); Spark takes
    NaN for the largest value, whatever the order (MAX NaN, MIN skips it). Without NaN the same;
    no Spark expression gives Flink's order-dependent result."""
    if type_ is not None and type_ not in ("FLOAT", "DOUBLE"):
        return None
    return f"{what} of a {type_ or 'value of unknown type'}"


def extreme_nan_note(subjects: list[str]) -> str:
    """The NOTE F2S329 message of the MIN/MAX ``subjects`` (``extreme_nan``) of one statement."""
    return (f"{', '.join(dict.fromkeys(subjects))}: the same result as Flink's unless a value is NaN; with NaN "
            "Flink's result depends on the order rows come (a group whose first value is NaN gives NaN, a later NaN "
            "is skipped), Spark's MAX is NaN and its MIN skips NaN")


def _strip_nullability(node: cst.BaseExpression) -> cst.BaseExpression:
    """``t.not_null()`` / ``t.nullable()`` -> ``t`` (Spark schemas carry no NOT NULL that changes values)."""
    while (
        isinstance(node, cst.Call)
        and isinstance(node.func, cst.Attribute)
        and node.func.attr.value in ("not_null", "nullable")
        and not node.args
    ):
        node = node.func.value
    return node


def flink_type_text(node: cst.BaseExpression, qualified: QualifiedName) -> Optional[str]:
    """The Flink SQL type a simple ``DataTypes`` call names (``DataTypes.VARCHAR(5)`` ->
    ``"VARCHAR(5)"``), as a DDL declares it; None for other expressions (rows, arrays, names)."""
    node = _strip_nullability(node)
    if not isinstance(node, cst.Call):
        return None
    member = _data_types_member(node.func, qualified)
    if member is None or any(a.keyword is not None for a in node.args):
        return None
    values = [a.value.value for a in node.args if isinstance(a.value, cst.Integer)]
    if len(values) != len(node.args):
        return None
    return member + (f"({', '.join(values)})" if values else "")


def spark_type(node: cst.BaseExpression, qualified: QualifiedName) -> str:
    """The Spark SQL type name of a PyFlink ``DataTypes`` expression."""
    node = _strip_nullability(node)
    if isinstance(node, cst.SimpleString):  # a type given as Flink SQL text ("BIGINT", "DECIMAL(10, 2) NOT NULL")
        return _sql_type(node.evaluated_value)
    if not isinstance(node, cst.Call):
        raise Untranslatable(f"{_source(node)} is not a DataTypes call")
    member = _data_types_member(node.func, qualified)
    if member is None:
        raise Untranslatable(f"{_source(node)} is not a DataTypes call")
    what = f"DataTypes.{member}"
    args = _positional(node, what)
    if member in _SIMPLE:
        return _SIMPLE[member]
    if member == "DECIMAL":
        if len(args) != 2:
            raise Untranslatable(f"{what} without precision and scale")
        precision, scale = _int_literal(args[0]), _int_literal(args[1])
        if not (1 <= precision <= 38 and 0 <= scale <= precision):
            raise Untranslatable(f"{what}({precision}, {scale})")
        return f"DECIMAL({precision},{scale})"
    if member in ("TIMESTAMP", "TIMESTAMP_LTZ", "TIMESTAMP_WITH_LOCAL_TIME_ZONE"):
        precision = _int_literal(args[0]) if args else 6
        if precision > 6:
            raise Untranslatable(f"{what}({precision}): Spark timestamps keep microseconds")
        return "TIMESTAMP_NTZ" if member == "TIMESTAMP" else "TIMESTAMP"
    if member == "ARRAY":
        if len(args) != 1:
            raise Untranslatable(what)
        return f"ARRAY<{spark_type(args[0], qualified)}>"
    if member == "MAP":
        if len(args) != 2:
            raise Untranslatable(what)
        return f"MAP<{spark_type(args[0], qualified)}, {spark_type(args[1], qualified)}>"
    if member == "ROW":
        return "STRUCT<" + ", ".join(f"{n}: {t}" for n, t in _row_fields(node, args, qualified)) + ">"
    raise Untranslatable(f"{what} has no Spark type")


def _sql_type(text: str) -> str:
    """The Spark SQL type of a Flink SQL type text, as a CREATE TABLE column of that type is read
    (``_sql._ddl_type``), its nullability (NOT NULL / NULL) aside."""
    from flink2spark.rules.table import _sql

    try:
        ts = _sql._Tokens(_sql._tokens(text), text)
        found = _sql._ddl_type(ts)
        ts.accept("NOT", "NULL") or ts.accept("NULL")
        if not ts.done():
            raise _sql.Untranslatable(f"type text {text!r}")
    except _sql.Untranslatable as exc:
        raise Untranslatable(str(exc)) from None
    except Exception:  # text the tokenizer does not take
        raise Untranslatable(f"type text {text!r}") from None
    return found


def _row_fields(node: cst.Call, args: list, qualified: QualifiedName) -> list[tuple[str, str]]:
    if len(args) != 1 or not isinstance(args[0], (cst.List, cst.Tuple)):
        raise Untranslatable(f"{_source(node)}: DataTypes.ROW without a literal list of fields")
    fields = []
    for element in args[0].elements:
        if isinstance(element, cst.StarredElement):
            raise Untranslatable(f"{_source(node)}: starred fields")
        field = _strip_nullability(element.value)
        if not isinstance(field, cst.Call) or _data_types_member(field.func, qualified) != "FIELD":
            raise Untranslatable(f"{_source(element.value)} is not a DataTypes.FIELD")
        fargs = _positional(field, "DataTypes.FIELD")
        if len(fargs) not in (2, 3):  # (name, type[, description])
            raise Untranslatable(f"{_source(field)}")
        name = _string_literal(fargs[0])
        if not _IDENT.match(name):
            raise Untranslatable(f"field name {name!r} needs quoting in a Spark DDL string")
        fields.append((name, spark_type(fargs[1], qualified)))
    if not fields:
        raise Untranslatable(f"{_source(node)}: a row without fields")
    return fields


def spark_schema(node: cst.BaseExpression, qualified: QualifiedName) -> str:
    """A ``DataTypes.ROW([...])`` schema -> a Spark DDL schema string ``"a INT, b STRING"``."""
    node = _strip_nullability(node)
    if not isinstance(node, cst.Call) or _data_types_member(node.func, qualified) != "ROW":
        raise Untranslatable(f"{_source(node)} is not a DataTypes.ROW schema")
    fields = _row_fields(node, _positional(node, "DataTypes.ROW"), qualified)
    return ", ".join(f"{n} {t}" for n, t in fields)


_TYPE_CLASSES = {
    "STRING": "StringType", "INT": "IntegerType", "BIGINT": "LongType", "SMALLINT": "ShortType", "TINYINT": "ByteType",
    "DOUBLE": "DoubleType", "FLOAT": "FloatType", "BOOLEAN": "BooleanType", "DATE": "DateType",
    "TIMESTAMP": "TimestampType", "TIMESTAMP_NTZ": "TimestampNTZType", "BINARY": "BinaryType",
}
_TYPE_TOKEN = re.compile(r"\s*(`(?:[^`]|``)*`|[A-Za-z_][A-Za-z0-9_]*|\d+|[<>(),:])")


def type_code(ddl: str) -> str:
    """The ``pyspark.sql.types`` constructors (as ``T.…``) of a Spark SQL type (``MAP<STRING, INT>``
    -> ``T.MapType(T.StringType(), T.IntegerType())``). A UDF's return type must be one: PySpark
    parses a type string only with a SparkSession running, and a converted module defines its
    UDFs before it starts one (seen on PySpark 4.3: SESSION_OR_CONTEXT_NOT_EXISTS at import)."""
    tokens, at = [], 0
    while ddl[at:].strip():
        found = _TYPE_TOKEN.match(ddl, at)
        if found is None:
            raise Untranslatable(f"type {ddl!r}")
        tokens.append(found.group(1))
        at = found.end()
    pos = 0

    def take(expected=None) -> str:
        nonlocal pos
        if pos >= len(tokens) or (expected is not None and tokens[pos].upper() != expected):
            raise Untranslatable(f"type {ddl!r}")
        pos += 1
        return tokens[pos - 1]

    def parse() -> str:
        name = take().upper()
        if name == "ARRAY":
            take("<"); inner = parse(); take(">")
            return f"T.ArrayType({inner})"
        if name == "MAP":
            take("<"); key = parse(); take(","); value = parse(); take(">")
            return f"T.MapType({key}, {value})"
        if name == "STRUCT":
            take("<")
            fields = []
            while True:
                field = take()
                field = field[1:-1].replace("``", "`") if field.startswith("`") else field
                take(":")
                fields.append(f"T.StructField({field!r}, {parse()})")
                if take() == ">":
                    break
            return f"T.StructType([{', '.join(fields)}])"
        if name == "DECIMAL":
            take("("); precision = take(); take(","); scale = take(); take(")")
            return f"T.DecimalType({int(precision)}, {int(scale)})"
        if name not in _TYPE_CLASSES:
            raise Untranslatable(f"type {ddl!r}")
        return f"T.{_TYPE_CLASSES[name]}()"

    code = parse()
    if pos != len(tokens):
        raise Untranslatable(f"type {ddl!r}")
    return code
