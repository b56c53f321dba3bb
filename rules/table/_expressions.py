"""PyFlink Table API expressions (libcst nodes) -> PySpark Column code (text).

``column(node, qualified)`` translates one expression such as ``col("a").sum.alias("t")`` to
``F.sum(F.col("a")).alias("t")``; ``columns_from_string("a, b.sum as t")`` does the same for
PyFlink's legacy string expressions. Both are pure functions over the source: nothing runs.

Exact or refused: a construct whose meaning on Spark is not Flink's, on every input, raises
``Untranslatable`` naming it. The value checks are in tests/test_table_expressions.py (every
translated case evaluated on Flink 2.3 and on Spark 4 over the same rows). What was found
there decides most refusals:

* Flink ``+`` concatenates when an operand is a string (``"ab" + 7`` -> ``"ab7"``) and adds
  numbers otherwise: ``+`` needs both operand types known to be numbers.
* Flink ``/`` of two integers is an integer (truncated: ``-7 / 2`` -> ``-3``), Spark's ``/`` is
  a double; a float division by zero is NaN/Infinity on Flink, an error on Spark (ANSI):
  ``/`` needs both operand types known, and a float division a non-zero literal divisor.
* Flink ``~e`` is ``e IS NOT TRUE`` (NULL -> TRUE), not Spark's ``~`` (NULL -> NULL).
* Integer overflow wraps on Flink (``2147483647 + 1`` -> ``-2147483648``, ``-MIN`` and
  ``abs(MIN)`` -> ``MIN``) and a DOUBLE cast to an integer saturates (``1e10`` -> ``2147483647``);
  Spark 4 (ANSI mode, the default) fails the job. The translation is exact on every input that
  does not overflow; on one that does, the Spark job fails instead of giving Flink's value.
* Flink's SUM keeps the input type (an INT sum is an INT): the Spark sum of a small integer type
  is cast back to it (an overflow then fails the job rather than giving a larger number).
  AVG/STDDEV/VAR keep it too (an INT average is truncated): only FLOAT/DOUBLE inputs are taken.
* Flink sorts NULL as the largest value: ``.asc`` is ``asc_nulls_last()``, ``.desc``
  ``desc_nulls_first()`` (Spark's defaults are the opposite).
* ``ln``/``log10``/``log2`` of x <= 0: NaN or -Infinity on Flink, NULL on Spark (refused).
* A DOUBLE NaN: Flink's ``<``/``>`` are IEEE (``NaN > 0`` is FALSE), Spark takes NaN for the
  largest value (TRUE). Ordering comparisons need both operand types known (with a FLOAT/DOUBLE
  side they are guarded with ``isnan``); ``between`` of them is refused. ``round(NaN)`` fails
  the job on Flink and gives NaN on Spark.
* MIN/MAX of a FLOAT/DOUBLE (or of an unknown type): Flink's keep a NaN that comes first in a
  group and skip a later one, Spark's MAX is NaN and its MIN skips it. The same without NaN:
  translated with NOTE F2S329 (``_types.extreme_nan``, the decision SQL shares).
* ``lit(v, type)``: Flink accepts only a NOT NULL type of the value's own class.

Column types come from literals, casts and function results; ``col("a")`` has an unknown type
unless the caller passes ``schema={"a": "INT", ...}`` (Spark type names, as ``_types.spark_type``
gives them). Operations whose meaning depends on a type that is unknown are refused.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Callable, Mapping, Optional

import libcst as cst

from flink2spark.transpiler import markers as M

from ._types import QualifiedName, Untranslatable, _source, extreme_nan, spark_type

__all__ = ["Column", "Untranslatable", "UserFunction", "column", "columns_from_string"]

EXPRESSIONS = "pyflink.table.expressions"


@dataclass(frozen=True)
class Column:
    code: str  # PySpark code of the Column (`F.` = pyspark.sql.functions, `Window` = pyspark.sql.Window)
    aggregate: bool  # contains an aggregate: group_by(...).select(...) splits on it
    name: Optional[str]  # the output column name when known, else None
    uses: frozenset[str]  # pyspark names the code needs: a subset of {"F", "Window", "types"}
    type: Optional[str] = None  # the Spark type of its values when known (the program model's schemas)
    notes: tuple[tuple[str, str], ...] = ()  # (marker code, message) of what is approximate in it
    # (F2S329: the subject only, ``_types.extreme_nan``; the message is ``extreme_nan_note``)


@dataclass(frozen=True)
class UserFunction:
    """A Python function of the program, converted to a Spark UDF bound to ``name``: its calls
    (``f(col("a"))``, ``call("registered_name", ...)``, ``call(f, ...)``) are calls of that UDF.
    ``kind``: "udf" and "pandas_udf" take the columns; "udaf" (rules/table/udaf.py) takes the
    group's rows, ``F.collect_list(F.struct(...))``, and is an aggregate; "pandas_udaf" takes
    the columns and is an aggregate. ``by_name``: a
    function the program registered without binding it to a Python name
    (``create_temporary_system_function("n", udf(...))``): called by its registered name,
    ``F.call_function("n", ...)``."""

    name: str
    kind: str
    type: Optional[str] = None
    by_name: bool = False


@dataclass(frozen=True)
class _E:
    """A translated expression with the Spark type of its value when known (None: unknown)."""

    code: str
    type: Optional[str] = None
    aggregate: bool = False
    name: Optional[str] = None
    literal: object = None  # the Python value of a literal operand, else None
    is_literal: bool = False  # a literal: a Python one, or lit(...)
    python: bool = False  # a bare Python literal (not yet an Expression)

    def public(self) -> Column:
        return Column(self.code, self.aggregate, self.name, frozenset({"F"}) if "F." in self.code else frozenset(), self.type)


# --- types ---------------------------------------------------------------------------------

_INTEGRAL = ("TINYINT", "SMALLINT", "INT", "BIGINT")
_FRACTIONAL = ("FLOAT", "DOUBLE")


def _is_integral(t: Optional[str]) -> bool:
    return t in _INTEGRAL


def _is_decimal(t: Optional[str]) -> bool:
    return bool(t) and t.startswith("DECIMAL")


def _is_numeric(t: Optional[str]) -> bool:
    return t in _INTEGRAL or t in _FRACTIONAL or _is_decimal(t)


def _wider(a: str, b: str) -> Optional[str]:
    """Flink's result type of + - * on two numeric types (None: a DECIMAL, precision not tracked)."""
    if "DOUBLE" in (a, b):
        return "DOUBLE"
    if "FLOAT" in (a, b):
        return "FLOAT"
    if _is_decimal(a) or _is_decimal(b):
        return None
    return _INTEGRAL[max(_INTEGRAL.index(a), _INTEGRAL.index(b))]


# --- helpers -------------------------------------------------------------------------------


def _string_value(node: cst.BaseExpression) -> Optional[str]:
    if isinstance(node, cst.SimpleString):
        prefix = node.prefix.lower()
        if "b" in prefix or "f" in prefix:
            return None
        value = node.evaluated_value
        return value if isinstance(value, str) else None
    if isinstance(node, cst.ConcatenatedString):
        left, right = _string_value(node.left), _string_value(node.right)
        if left is not None and right is not None:
            return left + right
    return None


def _number_value(node: cst.BaseExpression):
    """The value of an int/float literal (with a leading minus), else None."""
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        inner = _number_value(node.expression)
        return None if inner is None else -inner
    if isinstance(node, cst.Integer):
        return int(node.value.replace("_", ""), 0)
    if isinstance(node, cst.Float):
        return float(node.value.replace("_", ""))
    return None


def _py_literal(node: cst.BaseExpression, qualified: QualifiedName) -> Optional[_E]:
    """A Python literal where PyFlink takes an expression (Java converts it to a literal)."""
    number = _number_value(node)
    if isinstance(number, bool):  # pragma: no cover - libcst has no bool literal nodes
        number = None
    if isinstance(number, int):
        if -(2**31) <= number < 2**31:
            return _E(f"F.lit({number})", "INT", literal=number, is_literal=True, python=True)
        if -(2**63) <= number < 2**63:
            return _E(f"F.lit({number})", "BIGINT", literal=number, is_literal=True, python=True)
        raise Untranslatable(f"integer literal {number} (Flink makes it a DECIMAL)")
    if isinstance(number, float):
        if number != number or number in (float("inf"), float("-inf")):
            raise Untranslatable(f"float literal {number}")
        return _E(f"F.lit({number!r})", "DOUBLE", literal=number, is_literal=True, python=True)
    text = _string_value(node)
    if text is not None:
        return _E(f"F.lit({_str(text)})", "STRING", literal=text, is_literal=True, python=True)
    if isinstance(node, cst.Name) and node.value in ("True", "False"):
        return _E(f"F.lit({node.value})", "BOOLEAN", literal=node.value == "True", is_literal=True, python=True)
    if isinstance(node, cst.Name) and node.value == "None":
        raise Untranslatable("None as an expression (Flink's NULL literal needs a type: null_of(type))")
    return None


def _src(node: cst.CSTNode) -> str:
    return _source(node).strip()


def _str(text: str) -> str:
    """A Python string literal of ``text``, in double quotes when it has none."""
    r = repr(text)
    if r[0] == "'" and '"' not in text:
        r = '"' + r[1:-1] + '"'
    return r


_REGEX_META = frozenset("\\.[]{}()<>*+-=!?^$|&")  # escaped in a Java regex of a literal separator


def _number_literal(e: "_E") -> bool:
    """A literal int or finite float operand (``2``, ``lit(2.5)``)."""
    v = e.literal
    return e.is_literal and isinstance(v, (int, float)) and not isinstance(v, bool) and v == v and v not in (float("inf"), float("-inf"))


def _paren(code: str) -> str:
    return f"({code})"


# --- the translator ------------------------------------------------------------------------


class _Translator:
    def __init__(self, qualified: QualifiedName, schema: Optional[Mapping[str, str]],
                 functions: Optional[Mapping[str, UserFunction]] = None, registered: Optional[Mapping[str, str]] = None):
        self.qualified = qualified
        self.schema = {k: v.upper() for k, v in (schema or {}).items()}
        self.functions = dict(functions or {})  # Python name -> the UDF it is converted to
        self.registered = {k.lower(): v for k, v in (registered or {}).items()}  # registered name -> Python name
        self.is_table: Callable[[cst.CSTNode], bool] = lambda node: False  # table.a is the column a
        self.notes: list[tuple[str, str]] = []  # (marker code, message) of the approximate parts

    # entry points

    def expr(self, node: cst.BaseExpression) -> _E:
        literal = _py_literal(node, self.qualified)
        if literal is not None:
            return literal
        if isinstance(node, cst.Call):
            return self.call(node)
        if isinstance(node, cst.Attribute):
            return self.attribute(node)
        if isinstance(node, cst.BinaryOperation):
            return self.binary(node)
        if isinstance(node, cst.UnaryOperation):
            return self.unary(node)
        if isinstance(node, cst.Comparison):
            return self.comparison(node)
        if isinstance(node, cst.BooleanOperation):
            word = "and" if isinstance(node.operator, cst.And) else "or"
            raise Untranslatable(
                f"Python `{word}` on Expressions (it tests the Expression object's truth, not the column's): use `&`/`|`"
            )
        if isinstance(node, cst.Subscript):
            return self.subscript(node)
        raise Untranslatable(f"{_src(node)} is not a PyFlink expression this translator knows")

    def operand(self, node: cst.BaseExpression) -> _E:
        """An argument PyFlink converts to an expression (a Python literal or an Expression)."""
        return self.expr(node)

    # calls

    def call(self, node: cst.Call) -> _E:
        func = node.func
        q = self.qualified(func)
        if q and q.startswith(EXPRESSIONS + "."):
            return self.function(q[len(EXPRESSIONS) + 1:], node)
        if isinstance(func, cst.Name) and func.value == "abs" and q in (None, "abs", "builtins.abs"):
            (arg,) = self.args(node, "abs", 1, 1)
            return self.method_abs(self.expr(arg))
        if isinstance(func, cst.Attribute):
            receiver = self.expr(func.value)
            return self.method(receiver, func.attr.value, node)
        if isinstance(func, cst.Name) and q is None and func.value in self.functions:
            return self.user_call(self.functions[func.value], self.args(node, f"{func.value}()", 0, None))
        raise Untranslatable(f"{_src(func)}(...) is not a PyFlink expression function")

    def user_call(self, function: UserFunction, values: list) -> _E:
        """A call of one of the program's Python functions (a Spark UDF now)."""
        args = [self.operand(v) for v in values]
        codes = ", ".join(a.code for a in args)
        if any(a.aggregate for a in args):
            raise Untranslatable(f"{function.name}() of an aggregate")
        if function.kind == "udaf":
            rows = f"F.collect_list(F.struct({codes}))"
            if function.by_name:  # the UDF of the group's rows registered under the name
                return _E(f"F.call_function({_str(function.name)}, {rows})", function.type, aggregate=True)
            return _E(f"{function.name}({rows})", function.type, aggregate=True)
        if function.kind == "pandas_udaf":  # a grouped aggregate pandas_udf of the columns
            return _E(f"{function.name}({codes})", function.type, aggregate=True)
        if function.by_name:
            return _E(f"F.call_function({function.name!r}, {codes})".replace("'", '"'), function.type)
        return _E(f"{function.name}({codes})", function.type)

    def args(self, node: cst.Call, what: str, least: int, most: Optional[int]) -> list[cst.BaseExpression]:
        values = []
        for arg in node.args:
            if arg.star:
                raise Untranslatable(f"{what} with *args")
            if arg.keyword is not None:
                raise Untranslatable(f"{what} with a keyword argument ({arg.keyword.value}=)")
            values.append(arg.value)
        if len(values) < least or (most is not None and len(values) > most):
            raise Untranslatable(f"{what} with {len(values)} arguments")
        return values

    def type_of(self, node: cst.BaseExpression) -> str:
        return spark_type(node, self.qualified)

    def string_arg(self, node: cst.BaseExpression, what: str) -> str:
        value = _string_value(node)
        if value is None:
            raise Untranslatable(f"{what} with a non-literal argument {_src(node)}")
        return value

    def int_arg(self, node: cst.BaseExpression, what: str) -> int:
        value = _number_value(node)
        if not isinstance(value, int):
            raise Untranslatable(f"{what} with a non-integer-literal argument {_src(node)}")
        return value

    # expressions.* functions

    def function(self, name: str, node: cst.Call) -> _E:
        what = f"expressions.{name}"
        if name == "col":
            (arg,) = self.args(node, what, 1, 1)
            column_name = self.string_arg(arg, what)
            return _E(f"F.col({_str(column_name)})", self.schema.get(column_name), name=column_name)
        if name == "lit":
            values = self.args(node, what, 1, 2)
            value = _py_literal(values[0], self.qualified)
            if value is None:
                raise Untranslatable(f"lit({_src(values[0])}): not a literal value")
            if len(values) == 2:
                return self.typed_literal(value, values[1])
            return replace(value, python=False)
        if name == "null_of":
            (arg,) = self.args(node, what, 1, 1)
            t = self.type_of(arg)
            return _E(f"F.lit(None).cast({_str(t)})", t)
        if name in ("and_", "or_"):
            parts = [self.bool_operand(a, what) for a in self.args(node, what, 2, None)]
            op = " & " if name == "and_" else " | "
            return self.combine(_paren(op.join(p.code for p in parts)), "BOOLEAN", parts)
        if name == "not_":
            (arg,) = self.args(node, what, 1, 1)
            inner = self.bool_operand(arg, what)
            # NOT(NULL) is NULL on both engines (unlike `~`, which is IS NOT TRUE)
            return replace(inner, code=_paren(f"~{inner.code}"), type="BOOLEAN", name=None, is_literal=False)
        if name == "if_then_else":
            cond, then, other = (self.operand(a) for a in self.args(node, what, 3, 3))
            if then.type and other.type and then.type != other.type:
                raise Untranslatable(f"{what} with branches of types {then.type} and {other.type}")
            return self.combine(
                f"F.when({cond.code}, {then.code}).otherwise({other.code})", then.type or other.type, [cond, then, other]
            )
        if name == "coalesce":
            parts = [self.operand(a) for a in self.args(node, what, 1, None)]
            return self.combine(f"F.coalesce({', '.join(p.code for p in parts)})", self.same_type(parts, what), parts)
        if name == "concat":
            parts = [self.string_operand(a, what) for a in self.args(node, what, 1, None)]
            return self.combine(f"F.concat({', '.join(p.code for p in parts)})", "STRING", parts)
        if name == "concat_ws":
            values = self.args(node, what, 2, None)
            separator = self.string_arg(values[0], what)  # PySpark's concat_ws takes a str separator
            parts = [self.string_operand(a, what) for a in values[1:]]
            return self.combine(
                f"F.concat_ws({_str(separator)}, {', '.join(p.code for p in parts)})", "STRING", parts
            )
        if name == "array":
            parts = [self.operand(a) for a in self.args(node, what, 1, None)]
            t = self.same_type(parts, what)
            return self.combine(f"F.array({', '.join(p.code for p in parts)})", t and f"ARRAY<{t}>", parts)
        if name == "row":
            parts = [self.operand(a) for a in self.args(node, what, 1, None)]
            fields = ", ".join(f'{p.code}.alias("f{i}")' for i, p in enumerate(parts))
            return self.combine(f"F.struct({fields})", None, parts)
        if name == "map_":
            parts = [self.operand(a) for a in self.args(node, what, 2, None)]
            if len(parts) % 2:
                raise Untranslatable(f"{what} with an odd number of arguments")
            return self.combine(f"F.create_map({', '.join(p.code for p in parts)})", None, parts)
        if name in ("current_timestamp", "current_date"):
            self.args(node, what, 0, 0)
            return _E(f"F.{name}()", "TIMESTAMP" if name == "current_timestamp" else "DATE")
        if name in ("pi", "e"):
            self.args(node, what, 0, 0)
            return _E(f"F.{name}()", "DOUBLE")
        if name == "call":
            return self.call_function(node)
        if name == "call_sql":
            (arg,) = self.args(node, what, 1, 1)
            sql = self.string_arg(arg, what)
            if _IDENT.match(sql.strip()):
                column_name = sql.strip()
                return _E(f"F.col({_str(column_name)})", self.schema.get(column_name), name=column_name)
            raise Untranslatable(f"call_sql({sql!r}): Flink SQL that is not known to mean the same in Spark SQL")
        if name in ("range_", "with_columns", "without_columns", "with_all_columns"):
            raise Untranslatable(f"{what} (a column range selects several columns, not one Column)")
        if name in ("rand", "rand_integer", "uuid"):
            raise Untranslatable(f"{what}: random values differ between engines")
        raise Untranslatable(f"{what} has no Spark Column form")

    def typed_literal(self, value: _E, type_node: cst.BaseExpression) -> _E:
        """``lit(v, type)``: Flink takes only a NOT NULL type whose Java class is the value's
        (an int is an Integer: INT; a float a Double: DOUBLE; a str: STRING), else fails."""
        not_null = (
            isinstance(type_node, cst.Call)
            and isinstance(type_node.func, cst.Attribute)
            and type_node.func.attr.value == "not_null"
        )
        target = self.type_of(type_node)
        if not not_null:
            raise Untranslatable("lit(value, type) with a nullable type (Flink rejects a non-null literal of it)")
        if target != value.type:
            raise Untranslatable(f"lit(value, {target}) of a {value.type} value (Flink rejects the value's class)")
        return replace(value, python=False)

    def call_function(self, node: cst.Call) -> _E:
        values = self.args(node, "expressions.call", 1, None)
        fname = _string_value(values[0])
        if fname is None and isinstance(values[0], cst.Name) and values[0].value in self.functions:
            return self.user_call(self.functions[values[0].value], values[1:])
        if fname is not None and fname.lower() in self.registered and self.registered[fname.lower()] in self.functions:
            return self.user_call(self.functions[self.registered[fname.lower()]], values[1:])
        if fname is None:
            raise Untranslatable("call(...) of a user-defined function (a Python UDF, not a built-in)")
        key = fname.upper()
        if key not in _CALLABLE:
            raise Untranslatable(f'call("{fname}", ...) has no known Spark equivalent')
        method, arity = _CALLABLE[key]
        if len(values) - 1 != arity:
            raise Untranslatable(f'call("{fname}", ...) with {len(values) - 1} arguments')
        receiver = self.operand(values[1])
        if method == "power":
            return self.power(receiver, self.operand(values[2]))
        if arity == 1:
            return self.property(receiver, method)
        fake = cst.Call(func=cst.Name(method), args=[cst.Arg(v) for v in values[2:]])
        return self.method(receiver, method, fake)

    # operand helpers

    def bool_operand(self, node: cst.BaseExpression, what: str) -> _E:
        e = self.operand(node)
        if e.type not in (None, "BOOLEAN"):
            raise Untranslatable(f"{what} on a {e.type}")
        return e

    def string_operand(self, node: cst.BaseExpression, what: str) -> _E:
        e = self.operand(node)
        if e.type not in (None, "STRING"):
            raise Untranslatable(f"{what} on a {e.type} (Flink casts it to a string; Spark's text may differ)")
        return e

    def same_type(self, parts: list[_E], what: str) -> Optional[str]:
        known = {p.type for p in parts if p.type}
        if len(known) > 1:
            raise Untranslatable(f"{what} over values of types {sorted(known)}")
        return known.pop() if known else None

    def combine(self, code: str, t: Optional[str], parts: list[_E]) -> _E:
        return _E(code, t, aggregate=any(p.aggregate for p in parts))

    # properties and methods

    def attribute(self, node: cst.Attribute) -> _E:
        found = _distinct_aggregate(node, self)
        if found is not None:
            return found
        q = self.qualified(node)
        if q and q.startswith(EXPRESSIONS + "."):
            raise Untranslatable(f"expressions.{q[len(EXPRESSIONS) + 1:]} used without a call")
        if q and (q.startswith("pyflink.") or q == "pyflink"):
            raise Untranslatable(f"{q} is not an expression")
        if self.is_table(node.value):  # ``table.a``: the column a of the table (which the expression is over)
            name = node.attr.value
            return _E(f"F.col({_str(name)})", self.schema.get(name), name=name)
        receiver = self.expr(node.value)
        return self.property(receiver, node.attr.value)

    def property(self, e: _E, name: str) -> _E:
        what = f"Expression.{name}"
        if name in _UNARY_SPARK:
            fn, result, accepts = _UNARY_SPARK[name]
            self.check_input(e, accepts, what)
            return _E(f"F.{fn}({e.code})", result(e.type) if callable(result) else result, aggregate=e.aggregate)
        if name in _DIFFERENT:
            raise Untranslatable(f"{what}: {_DIFFERENT[name]}")
        if name == "is_null":
            return _E(f"{e.code}.isNull()", "BOOLEAN", aggregate=e.aggregate)
        if name == "is_not_null":
            return _E(f"{e.code}.isNotNull()", "BOOLEAN", aggregate=e.aggregate)
        if name in ("is_true", "is_false", "is_not_true", "is_not_false"):
            self.check_input(e, ("BOOLEAN",), what)
            value = "True" if name in ("is_true", "is_not_true") else "False"
            code = f"{e.code}.eqNullSafe(F.lit({value}))"
            return _E(_paren(f"~{code}") if "_not_" in name else code, "BOOLEAN", aggregate=e.aggregate)
        if name in _AGGREGATES:
            if e.aggregate:
                raise Untranslatable(f"{what} of an aggregate")
            return self.aggregate(e, name)
        if name == "distinct":
            raise Untranslatable(f"{what} (only .sum.distinct and .count.distinct have Spark forms here)")
        # Flink sorts NULL as the largest value (measured on 2.3: ASC puts NULLs last, DESC
        # first); Spark's asc()/desc() do the opposite
        if name == "asc":
            return _E(f"{e.code}.asc_nulls_last()", e.type, aggregate=e.aggregate, name=e.name)
        if name == "desc":
            return _E(f"{e.code}.desc_nulls_first()", e.type, aggregate=e.aggregate, name=e.name)
        if name in ("sha224", "sha256", "sha384", "sha512"):
            self.check_input(e, ("STRING",), what)
            return _E(f"F.sha2({e.code}, {name[3:]})", "STRING", aggregate=e.aggregate)
        if name == "sign":
            self.check_input(e, _is_numeric, what)
            if e.type in _INTEGRAL:  # Flink's SIGN keeps the input type, Spark's signum is a DOUBLE
                return _E(f"F.signum({e.code}).cast({_str(e.type)})", e.type, aggregate=e.aggregate)
            if e.type != "DOUBLE":
                raise Untranslatable(f"{what} of a {e.type or 'column of unknown type'} (Flink keeps the input type)")
            return _E(f"F.signum({e.code})", "DOUBLE", aggregate=e.aggregate)
        if name == "cardinality":
            if e.type and not (e.type.startswith("ARRAY") or e.type.startswith("MAP")):
                raise Untranslatable(f"{what} of a {e.type}")
            # Spark's size(NULL) is -1 when ANSI mode is off: keep Flink's NULL either way
            return _E(f"F.when({e.code}.isNotNull(), F.size({e.code}))", "INT", aggregate=e.aggregate)
        if name in _EXPRESSION_MEMBERS:
            raise Untranslatable(f"{what} has no Spark Column form")
        # Expression.__getattr__: any other name reads a field of a composite value
        return self.field(e, name)

    def field(self, e: _E, name: str) -> _E:
        if e.type and not e.type.startswith("STRUCT"):
            raise Untranslatable(f"field {_str(name)} of a {e.type}")
        return _E(f"{e.code}.getField({_str(name)})", None, aggregate=e.aggregate)

    def aggregate(self, e: _E, name: str) -> _E:
        what = f"Expression.{name}"
        if name in ("min", "max") and (subject := extreme_nan(what, e.type)) is not None:
            self.notes.append((M.TB_NAN_EXTREME, subject))  # one NOTE per statement: _common.columns
        if name in ("min", "max", "count"):
            t = "BIGINT" if name == "count" else e.type
            return _E(f"F.{name}({e.code})", t, aggregate=True)
        if name in ("sum", "sum0"):
            code = self.sum_code("F.sum", e, what)
            if name == "sum0":
                code = f"F.coalesce({code}, F.lit(0))"
            return _E(code, e.type, aggregate=True)
        if name == "avg" and e.type in _INTEGRAL:
            # Flink keeps the input type: AVG of INTs is an INT, the sum divided by the count and
            # truncated toward zero (-5 and 2 give -1), which Spark's integral div does (no double)
            return _E(f'F.call_function("div", F.sum({e.code}), F.count({e.code})).cast({_str(e.type)})', e.type, aggregate=True)
        if name in ("avg", "stddev_pop", "stddev_samp", "var_pop", "var_samp"):
            # Flink keeps the input type: AVG of INTs is an INT (truncated), of DOUBLEs a DOUBLE
            if e.type not in _FRACTIONAL:
                raise Untranslatable(
                    f"{what} of a {e.type or 'column of unknown type'} (Flink's result keeps the input type; "
                    "only FLOAT/DOUBLE inputs are translated)"
                )
            fn = {"avg": "avg", "stddev_pop": "stddev_pop", "stddev_samp": "stddev_samp", "var_pop": "var_pop",
                  "var_samp": "var_samp"}[name]
            return _E(f"F.{fn}({e.code})", "DOUBLE", aggregate=True)
        raise Untranslatable(f"{what} has no Spark Column form")

    def sum_code(self, fn: str, e: _E, what: str) -> str:
        """Flink's SUM keeps the input type (an INT sum is an INT, wrapping on overflow); Spark
        sums small integers as a BIGINT: cast back, so that an overflow fails (ANSI) instead of
        giving another number. A FLOAT sum (a DOUBLE in Spark) is cast back to FLOAT, with a NOTE:
        Flink adds 32-bit floats in arrival order (seen on Flink 2.3: 276.19998 where Spark's sum
        in doubles gives 276.2)."""
        if e.type is None:
            raise Untranslatable(f"{what} of a column of unknown type (Flink's SUM keeps the input type)")
        self.check_input(e, _is_numeric, what)
        if e.type == "FLOAT":
            self.notes.append((M.TB_FLOAT_SUM, f"{what} of a FLOAT: Flink adds 32-bit floats in the order the rows"
                                               " come, Spark adds doubles and casts the sum to FLOAT (the last digits may differ)"))
        if e.type in ("TINYINT", "SMALLINT", "INT", "FLOAT"):
            return f"{fn}({e.code}).cast({_str(e.type)})"
        return f"{fn}({e.code})"

    def check_input(self, e: _E, accepts, what: str) -> None:
        if accepts is None or e.type is None:
            return
        ok = accepts(e.type) if callable(accepts) else e.type in accepts
        if not ok:
            raise Untranslatable(f"{what} of a {e.type}")

    def method_abs(self, e: _E) -> _E:
        self.check_input(e, _is_numeric, "abs")
        return _E(f"F.abs({e.code})", e.type, aggregate=e.aggregate)

    def method(self, e: _E, name: str, node: cst.Call) -> _E:
        what = f"Expression.{name}"
        if name in _PROPERTIES:
            raise Untranslatable(f"{what} is a property in PyFlink, not a method")
        if name not in _EXPRESSION_MEMBERS:
            raise Untranslatable(
                f"{what}(...) is not a PyFlink Expression method ({name!r} reads a field, which is not callable)"
            )
        if name == "alias":
            values = self.args(node, what, 1, None)
            if len(values) > 1:
                raise Untranslatable(f"{what} with several names (a composite expanded to several columns)")
            alias = self.string_arg(values[0], what)
            return replace(e, code=f"{e.code}.alias({_str(alias)})", name=alias, is_literal=False)
        if name in ("cast", "try_cast"):
            (arg,) = self.args(node, what, 1, 1)
            return self.cast(e, arg, name)
        if name == "if_null":
            (arg,) = self.args(node, what, 1, 1)
            other = self.operand(arg)
            t = self.same_type([e, other], what)
            return self.combine(f"F.coalesce({e.code}, {other.code})", t, [e, other])
        if name == "in_":
            values = [self.operand(a) for a in self.args(node, what, 1, None)]
            self.comparable(e, values, what)
            return self.combine(f"{e.code}.isin({', '.join(v.code for v in values)})", "BOOLEAN", [e, *values])
        if name in ("between", "not_between"):
            low, high = (self.operand(a) for a in self.args(node, what, 2, 2))
            self.comparable(e, [low, high], what)
            for p in (e, low, high):
                if p.type is None:
                    raise Untranslatable(
                        f"{what} of a value of unknown type (a DOUBLE NaN compares as FALSE on Flink, "
                        "as the largest value on Spark)"
                    )
            if any(p.type in _FRACTIONAL for p in (e, low, high)):
                # Flink expands BETWEEN to e >= low AND e <= high (NOT BETWEEN: e < low OR e > high),
                # each an IEEE comparison: the same of the NaN-guarded comparisons
                if name == "between":
                    parts = (self.ordered(e, low, f"({e.code} >= {low.code})", what),
                             self.ordered(e, high, f"({e.code} <= {high.code})", what))
                    code = _paren(" & ".join(parts))
                else:
                    parts = (self.ordered(e, low, f"({e.code} < {low.code})", what),
                             self.ordered(e, high, f"({e.code} > {high.code})", what))
                    code = _paren(" | ".join(parts))
                return self.combine(code, "BOOLEAN", [e, low, high])
            code = f"{e.code}.between({low.code}, {high.code})"
            if name == "not_between":
                code = _paren(f"~{code}")
            return self.combine(code, "BOOLEAN", [e, low, high])
        if name == "split_index":
            separator, index = self.args(node, what, 2, 2)
            sep, n = self.string_arg(separator, what), self.int_arg(index, what)
            if sep == "" or n < 0:
                raise Untranslatable(f"{what} with an empty separator or a negative index")
            self.check_input(e, ("STRING",), what)
            # Flink splits at each whole separator keeping empty tokens (as Spark's split of the
            # escaped separator), gives NULL past the last token, and NULL for the empty string
            pattern = _str("".join(f"\\{c}" if c in _REGEX_META else c for c in sep))
            return _E(
                f"F.when({e.code} != F.lit(\"\"), F.try_element_at(F.split({e.code}, {pattern}), F.lit({n + 1})))",
                "STRING", aggregate=e.aggregate,
            )
        if name == "like":
            values = self.args(node, what, 1, 1)
            pattern = self.string_arg(values[0], what)
            if "\\" in pattern:
                raise Untranslatable(f"{what} with a backslash in the pattern (Spark's default escape, none on Flink)")
            self.check_input(e, ("STRING",), what)
            return _E(f"{e.code}.like({_str(pattern)})", "BOOLEAN", aggregate=e.aggregate)
        if name in ("substring", "substr"):
            values = self.args(node, what, 1, 2)
            start = self.int_arg(values[0], what)
            self.check_input(e, ("STRING",), what)
            if len(values) == 2:
                length = self.int_arg(values[1], what)
                if length < 0:
                    raise Untranslatable(f"{what} with a negative length")
                return _E(f"F.substr({e.code}, F.lit({start}), F.lit({length}))", "STRING", aggregate=e.aggregate)
            return _E(f"F.substr({e.code}, F.lit({start}))", "STRING", aggregate=e.aggregate)
        if name in ("trim", "trim_leading", "trim_trailing"):
            values = self.args(node, what, 0, 1)
            self.check_input(e, ("STRING",), what)
            fn = {"trim": "trim", "trim_leading": "ltrim", "trim_trailing": "rtrim"}[name]
            if values:
                chars = self.string_arg(values[0], what)
                return _E(f"F.{fn}({e.code}, F.lit({_str(chars)}))", "STRING", aggregate=e.aggregate)
            return _E(f"F.{fn}({e.code})", "STRING", aggregate=e.aggregate)
        if name == "replace":
            search, replacement = (self.string_operand(a, what) for a in self.args(node, what, 2, 2))
            if search.is_literal and search.literal == "":
                raise Untranslatable(f"{what} of the empty string")
            self.check_input(e, ("STRING",), what)
            return self.combine(f"F.replace({e.code}, {search.code}, {replacement.code})", "STRING", [e, search, replacement])
        if name == "regexp_replace":
            values = self.args(node, what, 2, 2)
            regex, replacement = (self.string_arg(v, what) for v in values)
            self.check_input(e, ("STRING",), what)
            return _E(
                f"F.regexp_replace({e.code}, F.lit({_str(regex)}), F.lit({_str(replacement)}))", "STRING", aggregate=e.aggregate
            )
        if name == "concat":
            (arg,) = self.args(node, what, 1, 1)
            other = self.string_operand(arg, what)
            self.check_input(e, ("STRING",), what)
            return self.combine(f"F.concat({e.code}, {other.code})", "STRING", [e, other])
        if name in ("lpad", "rpad"):
            length, pad = self.args(node, what, 2, 2)
            n = self.int_arg(length, what)
            text = self.string_arg(pad, what)
            if n < 0 or text == "":
                raise Untranslatable(f"{what} with a negative length or an empty pad")
            self.check_input(e, ("STRING",), what)
            return _E(f"F.{name}({e.code}, {n}, {_str(text)})", "STRING", aggregate=e.aggregate)
        if name == "repeat":
            (arg,) = self.args(node, what, 1, 1)
            n = self.int_arg(arg, what)
            self.check_input(e, ("STRING",), what)
            return _E(f"F.repeat({e.code}, F.lit({n}))", "STRING", aggregate=e.aggregate)
        if name in ("starts_with", "ends_with"):
            (arg,) = self.args(node, what, 1, 1)
            other = self.string_operand(arg, what)
            self.check_input(e, ("STRING",), what)
            fn = "startswith" if name == "starts_with" else "endswith"
            return self.combine(f"F.{fn}({e.code}, {other.code})", "BOOLEAN", [e, other])
        if name == "position":
            (arg,) = self.args(node, what, 1, 1)
            haystack = self.string_operand(arg, what)
            self.check_input(e, ("STRING",), what)
            return self.combine(f"F.position({e.code}, {haystack.code})", "INT", [e, haystack])
        if name == "round":
            (arg,) = self.args(node, what, 1, 1)
            places = self.int_arg(arg, what)
            self.check_input(e, _is_numeric, what)
            if e.type not in _FRACTIONAL and e.type not in _INTEGRAL:
                raise Untranslatable(f"{what} of a {e.type or 'column of unknown type'} (only FLOAT/DOUBLE and integer inputs are translated)")
            return _E(f"F.round({e.code}, {places})", e.type, aggregate=e.aggregate)
        if name in ("floor", "ceil"):
            if node.args:
                raise Untranslatable(f"{what} to a time unit")
            if e.type not in _INTEGRAL:
                raise Untranslatable(
                    f"{what} of a {e.type or 'column of unknown type'} (Flink keeps the input type, Spark gives a BIGINT)"
                )
            return _E(f"F.{name}({e.code}).cast({_str(e.type)})", e.type, aggregate=e.aggregate)
        if name == "log":
            raise Untranslatable(f"{what}: Flink gives NaN/-Infinity for x <= 0, Spark NULL")
        if name in ("at", "get"):
            (arg,) = self.args(node, what, 1, 1)
            return self.element(e, arg, what)
        if name == "over":
            raise Untranslatable(f"{what} (over windows are not translated yet)")
        if name == "extract":
            (arg,) = self.args(node, what, 1, 1)
            return self.extract(e, arg, what)
        if name == "regexp_extract":
            values = self.args(node, what, 2, 2)
            regex = self.string_arg(values[0], what)
            index = self.int_arg(values[1], what)
            if index != 1 or regex.count("(") != 1 or any(c in regex for c in "|?*{\\"):
                # a group that may take no part in a match: NULL on Flink, "" on Spark
                raise Untranslatable(
                    f"{what} unless the pattern has one group, taken (index 1), and no | ? * {{ or escapes"
                )
            self.check_input(e, ("STRING",), what)
            # Flink gives NULL where nothing matches, Spark ""
            return _E(
                f"F.when({e.code}.rlike({_str(regex)}), F.regexp_extract({e.code}, {_str(regex)}, {index}))",
                "STRING",
                aggregate=e.aggregate,
            )
        if name in ("left", "right"):
            (arg,) = self.args(node, what, 1, 1)
            n = self.int_arg(arg, what)
            if n < 0:
                raise Untranslatable(f"{what} with a negative length")
            self.check_input(e, ("STRING",), what)
            return _E(f"F.{name}({e.code}, F.lit({n}))", "STRING", aggregate=e.aggregate)
        if name in ("json_value", "json_query", "json_exists"):
            return self.json(e, name, node)
        if name == "array_contains":
            (arg,) = self.args(node, what, 1, 1)
            needle = self.operand(arg)
            if e.type is None or not e.type.startswith("ARRAY"):
                raise Untranslatable(f"{what} on a {e.type or 'value of unknown type'}")
            if not needle.is_literal:
                raise Untranslatable(f"{what} of a value that is not a literal")
            # Flink: FALSE when not found, also in an array holding NULLs (Spark: NULL then)
            return self.combine(
                f"F.when({e.code}.isNotNull(), F.coalesce(F.array_contains({e.code}, {needle.code}), F.lit(False)))",
                "BOOLEAN",
                [e, needle],
            )
        raise Untranslatable(f"{what} has no Spark Column form")

    def json(self, e: _E, name: str, node: cst.Call) -> _E:
        """``json_value`` / ``json_query`` / ``json_exists`` of a JSON text (``_json_form``)."""
        what = f"Expression.{name}"
        allowed = {"json_value": ("path", "returning_type"), "json_query": ("path",), "json_exists": ("path",)}[name]
        given: dict[str, cst.BaseExpression] = {}
        for i, arg in enumerate(node.args):
            if arg.star:
                raise Untranslatable(f"{what} with *args")
            key = arg.keyword.value if arg.keyword is not None else (allowed[i] if i < len(allowed) else None)
            if key not in allowed or key in given:
                raise Untranslatable(f"{what} with {'an ON EMPTY/ON ERROR or wrapper argument' if key is None or key not in allowed else 'a repeated argument'}"
                                     " (only the path" + (" and the returning type" if name == "json_value" else "") + " are translated)")
            given[key] = arg.value
        if "path" not in given:
            raise Untranslatable(f"{what} without a path")
        self.check_input(e, ("STRING",), what)
        path = _json_path_text(self.string_arg(given["path"], what), what)
        target = self.type_of(given["returning_type"]) if "returning_type" in given else "STRING"
        code, t, note = _json_form(name, e.code, path, target, what)
        if note:
            self.notes.append((M.TB_JSON, note))
        return _E(code, t, aggregate=e.aggregate)

    def extract(self, e: _E, arg: cst.BaseExpression, what: str) -> _E:
        unit = None
        if isinstance(arg, cst.Attribute):
            owner = self.qualified(arg.value) or ""
            if owner.split(".")[-1] == "TimeIntervalUnit" and owner.startswith("pyflink."):
                unit = arg.attr.value
        if unit is None:
            raise Untranslatable(f"{what} with {_src(arg)} (not a TimeIntervalUnit member)")
        if unit not in _EXTRACT:
            raise Untranslatable(f"{what}(TimeIntervalUnit.{unit}) has no Spark Column form")
        if e.type not in ("DATE", "TIMESTAMP_NTZ"):
            raise Untranslatable(f"{what} from a {e.type or 'value of unknown type'} (only DATE/TIMESTAMP are taken)")
        return _E(f"F.{_EXTRACT[unit]}({e.code})", "BIGINT", aggregate=e.aggregate)

    def element(self, e: _E, arg: cst.BaseExpression, what: str) -> _E:
        if what.endswith(".get"):
            field = _string_value(arg)
            if field is None:
                raise Untranslatable(f"{what} with a non-string field {_src(arg)}")
            return self.field(e, field)
        index = self.operand(arg)
        if e.type and e.type.startswith("MAP"):
            return self.combine(f"F.try_element_at({e.code}, {index.code})", None, [e, index])
        if e.type is None or not e.type.startswith("ARRAY"):
            raise Untranslatable(f"{what} on a {e.type or 'value of unknown type'} (arrays and maps differ)")
        if not (index.is_literal and isinstance(index.literal, int) and index.literal >= 1):
            raise Untranslatable(f"{what} with an index that is not a positive integer literal")
        item = e.type[len("ARRAY<"):-1]
        return self.combine(f"F.try_element_at({e.code}, {index.code})", item, [e, index])

    def cast(self, e: _E, type_node: cst.BaseExpression, how: str) -> _E:
        target = self.type_of(type_node)
        what = f"Expression.{how}"
        source = e.type
        ok = (
            (source is not None and source == target)
            or (_is_numeric(source) and (target in _INTEGRAL or target in _FRACTIONAL))
            or (source in _INTEGRAL and target == "STRING")
            or (source == "STRING" and target in ("INT", "BIGINT", "SMALLINT", "TINYINT", "DOUBLE", "DATE", "STRING"))
        )
        if not ok:
            raise Untranslatable(f"{what} from {source or 'a value of unknown type'} to {target}")
        if how == "try_cast":
            code = f"{e.code}.try_cast({_str(target)})"
        else:
            code = f"{e.code}.cast({_str(target)})"
        return replace(e, code=code, type=target, name=None, is_literal=False, literal=None)

    def comparable(self, e: _E, others: list[_E], what: str) -> None:
        for other in others:
            a, b = e.type, other.type
            if a is None or b is None or a == b:
                continue
            if _is_numeric(a) and _is_numeric(b):
                continue
            raise Untranslatable(f"{what} between a {a} and a {b} (implicit casts differ)")

    # operators

    def binary(self, node: cst.BinaryOperation) -> _E:
        op = type(node.operator).__name__
        left, right = self.operand(node.left), self.operand(node.right)
        if left.python and right.python:
            raise Untranslatable(f"{_src(node)}: Python computes it before PyFlink sees it")
        parts = [left, right]
        if op == "Add":
            if "STRING" in (left.type, right.type):
                raise Untranslatable("Expression + with a string operand (Flink concatenates)")
            if not (_is_numeric(left.type) and _is_numeric(right.type)):
                raise Untranslatable(
                    "Expression + with an operand of unknown type (Flink concatenates when one is a string)"
                )
            return self.combine(_paren(f"{left.code} + {right.code}"), _wider(left.type, right.type), parts)
        if op in ("Subtract", "Multiply"):
            for p in parts:
                if p.type is not None and not _is_numeric(p.type):
                    raise Untranslatable(f"Expression {node.operator.__class__.__name__.lower()} on a {p.type}")
            sign = "-" if op == "Subtract" else "*"
            t = _wider(left.type, right.type) if left.type and right.type else None
            return self.combine(_paren(f"{left.code} {sign} {right.code}"), t, parts)
        if op == "Divide":
            return self.divide(left, right)
        if op == "Modulo":
            if not (_is_integral(left.type) and _is_integral(right.type)):
                raise Untranslatable("Expression % of operands not both known integers")
            return self.combine(_paren(f"{left.code} % {right.code}"), _wider(left.type, right.type), parts)
        if op == "Power":
            return self.power(left, right)
        if op in ("BitAnd", "BitOr"):
            for p in parts:
                if p.type not in (None, "BOOLEAN"):
                    raise Untranslatable(f"Expression {'&' if op == 'BitAnd' else '|'} on a {p.type}")
            sign = "&" if op == "BitAnd" else "|"
            return self.combine(_paren(f"{left.code} {sign} {right.code}"), "BOOLEAN", parts)
        raise Untranslatable(f"the Python operator {node.operator.__class__.__name__} on Expressions")

    def divide(self, left: _E, right: _E) -> _E:
        parts = [left, right]
        if _is_integral(left.type) and _is_integral(right.type):
            t = _wider(left.type, right.type)
            # Flink: integer division truncated toward zero, of the wider type; Spark's `div` is
            # that division (as a BIGINT)
            return self.combine(f'F.call_function("div", {left.code}, {right.code}).cast({_str(t)})', t, parts)
        if (
            _is_numeric(left.type)
            and right.type in ("DOUBLE",)
            and right.is_literal
            and right.literal
            or left.type == "DOUBLE"
            and _is_integral(right.type)
            and right.is_literal
            and right.literal
        ):
            if _is_decimal(left.type):
                raise Untranslatable("Expression / of a DECIMAL (result precision differs)")
            return self.combine(_paren(f"{left.code} / {right.code}"), "DOUBLE", parts)
        raise Untranslatable(
            "Expression / unless both operands are known integers, or a DOUBLE divided by a non-zero literal "
            "(Flink divides integers as integers, and gives NaN/Infinity for a float division by zero)"
        )

    def power(self, left: _E, right: _E) -> _E:
        for p in (left, right):
            self.check_input(p, _is_numeric, "Expression.power")
        return self.combine(f"F.pow({left.code}, {right.code})", "DOUBLE", [left, right])

    def unary(self, node: cst.UnaryOperation) -> _E:
        inner = self.operand(node.expression)
        if isinstance(node.operator, cst.Minus):
            self.check_input(inner, _is_numeric, "unary -")
            return replace(inner, code=_paren(f"-{inner.code}"), name=None)
        if isinstance(node.operator, cst.BitInvert):
            self.check_input(inner, ("BOOLEAN",), "~")
            # PyFlink's __invert__ is isNotTrue: ~NULL is TRUE
            return replace(
                inner, code=_paren(f"~{inner.code}.eqNullSafe(F.lit(True))"), type="BOOLEAN", name=None, is_literal=False
            )
        if isinstance(node.operator, cst.Not):
            raise Untranslatable("Python `not` on an Expression (it tests the object, not the column): use ~ or not_")
        raise Untranslatable(f"unary {_src(node.operator)} on an Expression")

    def comparison(self, node: cst.Comparison) -> _E:
        if len(node.comparisons) != 1:
            raise Untranslatable(f"chained comparison {_src(node)} (Python evaluates it with `and`)")
        target = node.comparisons[0]
        ops = {"Equal": "==", "NotEqual": "!=", "LessThan": "<", "LessThanEqual": "<=", "GreaterThan": ">",
               "GreaterThanEqual": ">="}
        op = type(target.operator).__name__
        if op not in ops:
            raise Untranslatable(f"the Python operator {_src(target.operator)} on Expressions")
        left, right = self.operand(node.left), self.operand(target.comparator)
        if left.python and right.python:
            raise Untranslatable(f"{_src(node)}: Python computes it before PyFlink sees it")
        self.comparable(left, [right], f"comparison {ops[op]}")
        code = _paren(f"{left.code} {ops[op]} {right.code}")
        if op not in ("Equal", "NotEqual"):
            code = self.ordered(left, right, code, f"comparison {ops[op]}")
        return self.combine(code, "BOOLEAN", [left, right])

    def ordered(self, left: _E, right: _E, code: str, what: str) -> str:
        """An ordering comparison as Flink means it. Flink compares DOUBLEs as IEEE does (NaN > 0
        is FALSE), Spark takes NaN for the largest value (TRUE): with a FLOAT/DOUBLE operand the
        comparison is FALSE when one side is NaN and the other is not NULL."""
        if left.type is None or right.type is None:
            raise Untranslatable(
                f"{what} with an operand of unknown type (a DOUBLE NaN compares as FALSE on Flink, "
                "as the largest value on Spark)"
            )
        # a number literal is never NULL nor NaN: only the other operand is guarded
        known = [p for p in (left, right) if not _number_literal(p)]
        floats = [p.code for p in known if p.type in _FRACTIONAL]
        if not floats:
            return code
        not_nan = " & ".join(f"~F.isnan({c})" for c in floats)
        both = " & ".join(f"{p.code}.isNotNull()" for p in known)
        return f"F.when({not_nan}, {code}).otherwise(F.when({both}, F.lit(False)))"

    def subscript(self, node: cst.Subscript) -> _E:
        if len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Index):
            raise Untranslatable(f"{_src(node)}: slices of an Expression")
        receiver = self.expr(node.value)
        return self.element(receiver, node.slice[0].slice.value, "Expression.at")


_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")

# JSON functions (``_json_form``), checked on Flink 2.3 and Spark 4 over the same texts (the cases
# of tests/table_expressions_cases.py; the SQL forms in rules/table/_sql.py share the findings):
# * JSON_VALUE (RETURNING STRING, the default): the scalar's text; NULL for an object or an array
#   (lax mode: Flink's error, NULL ON ERROR), a JSON null, a missing path, text that is not JSON,
#   NULL. Spark's get_json_object gives an object's or array's JSON text: it is taken only where
#   the parsed value (try_parse_json/try_variant_get) is not an OBJECT or ARRAY. A number with a
#   fraction or an exponent reads as Flink's BigDecimal text (1.50 -> 1.50, 1e2 -> 1E+2), Spark's
#   double text (1.5, 100.0): NOTE.
#   'lax $.a' is '$.a' (Flink's default mode); strict mode, wildcards and filters are refused.
# * JSON_VALUE RETURNING INT/DOUBLE/BOOLEAN: Flink casts the Java object its JSON reader made,
#   and fails the job (ClassCastException, not NULL ON ERROR) unless it is of the type: INT needs
#   an integer that fits an int (12), DOUBLE a number with a fraction or exponent (1.5; 12 fails),
#   BOOLEAN true/false ("true" and 1 fail). Spark's try_variant_get gives the same value where
#   Flink gives one, and casts where Flink fails ("42" -> 42, 12 -> 12.0): NOTE. RETURNING BIGINT
#   fails on Flink 2.3 when planning the job: refused.
# * JSON_QUERY (WITHOUT WRAPPER, NULL ON EMPTY/ERROR): an object's or array's compact JSON text,
#   object keys sorted by name (Flink's writer sorts them; Spark's variant keeps them sorted, so
#   to_json of the parsed value); NULL for a scalar, a missing path, text that is not JSON.
#   Numbers with an exponent differ as in JSON_VALUE (NOTE).
# * JSON_EXISTS (FALSE ON ERROR): TRUE when the path leads to a value that is not JSON null;
#   FALSE for a JSON null, a missing path, text that is not JSON; NULL for NULL.
_JSON_PATH_STEPS = re.compile(r"^\$(?:\.[A-Za-z_][A-Za-z0-9_]*|\[\d+\])*$")
_JSON_RETURNING = {"STRING": None, "INT": "int", "DOUBLE": "double", "BOOLEAN": "boolean"}
_JSON_OTHERS = {"INT": 'an integer that fits an INT (a string "42", 1.5, true)',
                "DOUBLE": "a number with a fraction or an exponent (an integer 12, a string)",
                "BOOLEAN": 'true or false (a string "true", a number)'}
_JSON_NUMBER_NOTE = ("a number with a fraction or an exponent reads as its double text in Spark (1.5, 100.0), as "
                     "its decimal text in Flink (1.50, 1E+2); other values, objects and arrays (NULL), missing paths and "
                     "text that is not JSON give the same values")


def _json_path_text(path: str, what: str) -> str:
    """A Flink JSON path as Spark's JSON functions take it: fields and array indexes, in Flink's
    default lax mode (``'lax $.a'`` is ``'$.a'``)."""
    text = path[len("lax "):].lstrip() if path.startswith("lax ") else path
    if not _JSON_PATH_STEPS.match(text):
        raise Untranslatable(f"{what} path {path!r} (only $.field and [index] steps in lax mode)")
    return text


def _json_form(name: str, code: str, path: str, target: str, what: str) -> tuple[str, str, Optional[str]]:
    """(PySpark code, Spark type, NOTE or None) of ``json_value``/``json_query``/``json_exists``
    of the JSON text ``code`` at ``path`` (see the findings above)."""
    quoted = _str(path)
    parsed = f'F.try_variant_get(F.try_parse_json({code}), {quoted}, "variant")'
    nested = f'F.schema_of_variant({parsed}).rlike("^(OBJECT|ARRAY)")'
    if name == "json_exists":
        return (f'F.when({code}.isNotNull(), F.coalesce(F.schema_of_variant({parsed}) != F.lit("VOID"), F.lit(False)))',
                "BOOLEAN", None)
    if name == "json_query":
        return (f"F.when({nested}, F.to_json({parsed}))", "STRING",
                f"{what}: a number with a fraction or an exponent in the object or array reads as its double text in "
                "Spark (1.5, 100.0), as its decimal text in Flink (1.50, 1E+2); otherwise the same JSON text (keys in name order in both), NULL alike")
    if target not in _JSON_RETURNING:
        raise Untranslatable(f"{what} RETURNING {target} (STRING, INT, DOUBLE and BOOLEAN are translated)")
    spark = _JSON_RETURNING[target]
    if spark is None:
        return (f"F.when({nested}, F.lit(None)).otherwise(F.get_json_object({code}, {quoted}))", "STRING",
                f"{what}: {_JSON_NUMBER_NOTE}")
    return (f'F.try_variant_get(F.try_parse_json({code}), {quoted}, "{spark}")', target,
            f"{what} RETURNING {target}: where the JSON value is not {_JSON_OTHERS[target]} Flink fails the job, Spark "
            "casts it or gives NULL; values of the type, missing paths and text that is not JSON give the same values")


def _same(t):
    return t


# Expression properties with a Spark function of the same meaning: name -> (F function,
# result type or a function of the input type, the input types accepted or a predicate).
_UNARY_SPARK: dict[str, tuple] = {
    "upper_case": ("upper", "STRING", ("STRING",)),
    "lower_case": ("lower", "STRING", ("STRING",)),
    "char_length": ("char_length", "INT", ("STRING",)),
    "reverse": ("reverse", "STRING", ("STRING",)),
    # Flink's TO_DATE fails the job on a malformed string, as Spark's to_date does (ANSI)
    "to_date": ("to_date", "DATE", ("STRING",)),
    "to_base64": ("base64", "STRING", ("STRING", "BINARY")),
    "md5": ("md5", "STRING", ("STRING",)),
    "sha1": ("sha1", "STRING", ("STRING",)),
    "abs": ("abs", _same, _is_numeric),
    "sqrt": ("sqrt", "DOUBLE", _is_numeric),
    "exp": ("exp", "DOUBLE", _is_numeric),
    "sin": ("sin", "DOUBLE", _is_numeric),
    "cos": ("cos", "DOUBLE", _is_numeric),
    "tan": ("tan", "DOUBLE", _is_numeric),
    "atan": ("atan", "DOUBLE", _is_numeric),
    "degrees": ("degrees", "DOUBLE", _is_numeric),
    "radians": ("radians", "DOUBLE", _is_numeric),
}

# extract(TimeIntervalUnit.X) of a DATE/TIMESTAMP -> the Spark function of the same field
_EXTRACT = {
    "YEAR": "year",
    "QUARTER": "quarter",
    "MONTH": "month",
    "WEEK": "weekofyear",
    "DAY": "dayofmonth",
}

# properties refused for a measured difference (tests/test_table_expressions.py)
_DIFFERENT = {
    "ln": "Flink gives NaN for x < 0 and -Infinity for 0, Spark NULL",
    "log10": "Flink gives NaN for x < 0 and -Infinity for 0, Spark NULL",
    "log2": "Flink gives NaN for x < 0 and -Infinity for 0, Spark NULL",
    "init_cap": "Flink starts a word after any non-letter ('x%_y' -> 'X%_Y', 'héllo' -> 'HéLlo'), Spark after a space",
}

_AGGREGATES = (
    "sum", "sum0", "min", "max", "count", "avg", "stddev_pop", "stddev_samp", "var_pop", "var_samp", "collect",
    "first_value", "last_value", "array_agg",
)

# call("NAME", x, ...) of a built-in Flink function -> the Expression member of the same meaning
_CALLABLE = {
    "UPPER": ("upper_case", 1),
    "LOWER": ("lower_case", 1),
    "ABS": ("abs", 1),
    "MD5": ("md5", 1),
    "SUM": ("sum", 1),
    "COUNT": ("count", 1),
    "MIN": ("min", 1),
    "MAX": ("max", 1),
    "AVG": ("avg", 1),
    "REPLACE": ("replace", 3),
    "POWER": ("power", 2),
}

# every public member of PyFlink 2.3's Expression (pyflink/table/expression.py): a name not
# listed here reads a field (Expression.__getattr__ -> get(name))
_EXPRESSION_MEMBERS = frozenset(
    """abs acos alias array_agg array_append array_concat array_contains array_distinct array_except
    array_intersect array_join array_max array_min array_position array_prepend array_remove array_reverse
    array_slice array_sort array_union as_argument asc ascii asin at atan avg between bin bitmap_and
    bitmap_and_agg bitmap_and_cardinality_agg bitmap_andnot bitmap_build bitmap_build_agg
    bitmap_build_cardinality_agg bitmap_cardinality bitmap_from_bytes bitmap_or bitmap_or_agg
    bitmap_or_cardinality_agg bitmap_to_array bitmap_to_bytes bitmap_to_string bitmap_xor bitmap_xor_agg
    bitmap_xor_cardinality_agg btrim cardinality cast ceil char_length chr collect concat cos cosh cot count day
    days decode degrees desc distinct element elt encode end ends_with exp extract first_value flatten floor
    from_base64 get hex hour hours if_null in_ inet_aton inet_ntoa init_cap instr is_false is_json json_exists
    json_query json_quote json_unquote json_value is_not_false is_not_null is_not_true is_null is_true
    last_value left like list_agg ln locate log log10 log2 lower_case lpad ltrim map_entries map_keys map_union
    map_values max md5 milli millis min minute minutes month months not_between object_update over overlay
    parse_url percentile position printf proctime quarter quarters radians regexp regexp_count
    regexp_extract regexp_extract_all regexp_instr regexp_replace regexp_substr repeat replace reverse right
    round rowtime rpad rtrim second seconds sha1 sha2 sha224 sha256 sha384 sha512 sign similar sin sinh split
    split_index sqrt start starts_with stddev_pop stddev_samp str_to_map substr substring sum sum0 tan tanh
    then to_base64 to_date to_time to_timestamp translate trim trim_leading trim_trailing truncate try_cast
    unhex upper_case url_decode url_encode var_pop var_samp week weeks year years""".split()
)

# the members that are properties (PyFlink's @property): calling them calls their value
_PROPERTIES = frozenset(
    """exp log10 log2 ln cosh sinh sin cos tan cot asin acos atan tanh degrees radians sqrt abs sign is_null
    is_not_null is_true is_false is_not_true is_not_false distinct sum sum0 min max count avg first_value
    last_value stddev_pop stddev_samp var_pop var_samp collect array_agg asc desc start end bin hex unhex
    char_length upper_case lower_case init_cap from_base64 to_base64 ascii chr reverse to_date to_time
    to_timestamp flatten cardinality element map_keys map_values map_entries rowtime proctime year years quarter
    quarters month months week weeks day days hour hours minute minutes second seconds milli millis md5 sha1
    sha224 sha256 sha384 sha512""".split()
)


def _distinct_aggregate(node: cst.BaseExpression, t: _Translator) -> Optional[_E]:
    """``x.count.distinct`` / ``x.sum.distinct`` (PyFlink's distinct modifier of an aggregate)."""
    if not (isinstance(node, cst.Attribute) and node.attr.value == "distinct"):
        return None
    inner = node.value
    if isinstance(inner, cst.Attribute) and inner.attr.value in ("count", "sum"):
        e = t.expr(inner.value)
        if e.aggregate:
            raise Untranslatable(f"Expression.{inner.attr.value}.distinct of an aggregate")
        if inner.attr.value == "sum":
            return _E(t.sum_code("F.sum_distinct", e, "Expression.sum.distinct"), e.type, aggregate=True)
        return _E(f"F.count_distinct({e.code})", "BIGINT", aggregate=True)
    return None


def column(
    node: cst.BaseExpression,
    qualified: Callable[[cst.CSTNode], Optional[str]],
    schema: Optional[Mapping[str, str]] = None,
    functions: Optional[Mapping[str, UserFunction]] = None,
    registered: Optional[Mapping[str, str]] = None,
    is_table: Optional[Callable[[cst.CSTNode], bool]] = None,
) -> Column:
    """The PySpark Column code of a PyFlink Table API expression; ``Untranslatable`` if none is exact.

    ``schema`` (optional) gives column types by name (Spark type names: "INT", "STRING", ...);
    without it ``col("a")`` has an unknown type, and what depends on the type is refused.
    """
    translator = _Translator(qualified, schema, functions, registered)
    if is_table is not None:
        translator.is_table = is_table
    e = translator.expr(node)
    return replace(e.public(), notes=tuple(translator.notes))


# --- legacy string expressions -------------------------------------------------------------

_ALIAS = re.compile(r"^(?P<expr>.*?)\s+as\s+(?P<alias>[A-Za-z_][A-Za-z0-9_]*)\s*$", re.IGNORECASE | re.DOTALL)
# && and || bind less than comparisons in Flink's grammar, & and | more in Python's: each side in parentheses
_OPERATORS = {"===": "==", "!==": "!=", "<>": "!=", "&&": ") & (", "||": ")) | (("}
_LEGACY_LITERALS = {"true": "lit(True)", "false": "lit(False)"}
_DSL = frozenset({"col", "lit", "call"})


def _split_top_level(text: str) -> list[str]:
    parts, depth, current, quote = [], 0, [], None
    for ch in text:
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0 and not quote:
            parts.append("".join(current))
            current = []
        else:
            current.append(ch)
    parts.append("".join(current))
    return [p.strip() for p in parts]


def _snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).lower()


def _legacy_to_dsl(text: str) -> str:
    """A legacy string expression (``"a.sum"``, ``"count(1)"``, ``"to_upper(ticker)"``,
    ``"a === 'x' && b > 1"``) as Python source of the expression DSL (``col("a").sum``,
    ``call("count", lit(1))``, ...): fields become ``col``, literals ``lit``, function calls
    ``call`` (built-ins and functions registered by name alike), postfix members snake_case."""
    import io
    import tokenize

    try:
        tokens = [t for t in tokenize.generate_tokens(io.StringIO(text).readline)
                  if t.type not in (tokenize.NEWLINE, tokenize.NL, tokenize.ENDMARKER, tokenize.INDENT, tokenize.DEDENT)]
    except (tokenize.TokenError, IndentationError, SyntaxError):
        raise Untranslatable(f"string expression {text!r} does not parse") from None
    out: list[str] = []
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        nxt = tokens[i + 1].string if i + 1 < len(tokens) else ""
        prev = out[-1] if out else ""
        if tok.type == tokenize.OP:
            three = "".join(t.string for t in tokens[i:i + 3])
            two = "".join(t.string for t in tokens[i:i + 2])
            if three in _OPERATORS and all(t.type == tokenize.OP for t in tokens[i:i + 3]):
                out.append(_OPERATORS[three]); i += 3; continue
            if two in _OPERATORS and all(t.type == tokenize.OP for t in tokens[i:i + 2]):
                out.append(_OPERATORS[two]); i += 2; continue
            if tok.string == "!" and nxt != "=":
                out.append("~"); i += 1; continue
            out.append(tok.string)
        elif tok.type == tokenize.ERRORTOKEN and tok.string == "!":
            out.append("~")
        elif tok.type == tokenize.ERRORTOKEN and not tok.string.strip():
            pass
        elif tok.type == tokenize.NAME:
            if prev == ".":
                out.append(_snake(tok.string))
                if nxt == "(" and i + 2 < len(tokens) and tokens[i + 2].string == ")":
                    i += 3  # upperCase(): a property of the expression DSL (none of its methods takes no argument)
                    continue
            elif tok.string.lower() in _LEGACY_LITERALS and nxt != "(":
                out.append(_LEGACY_LITERALS[tok.string.lower()])
            elif tok.string.lower() == "null" and nxt != "(":
                raise Untranslatable(f"string expression {text!r}: an untyped null")
            elif nxt == "(":
                out.append(f"call({tok.string!r}, ")
                i += 2
                if i < len(tokens) and tokens[i].string == ")":
                    out[-1] = f"call({tok.string!r})"
                    i += 1
                continue
            else:
                out.append(f"col({tok.string!r})")
        elif tok.type == tokenize.NUMBER:
            out.append(f"lit({tok.string})")
        elif tok.type == tokenize.STRING:
            out.append(f"lit({tok.string})")
        else:
            raise Untranslatable(f"string expression {text!r}: {tok.string!r}")
        i += 1
    return "((" + " ".join(out).replace("( ", "(").replace(" )", ")").replace(" . ", ".") + "))"


def columns_from_string(
    text: str,
    schema: Optional[Mapping[str, str]] = None,
    functions: Optional[Mapping[str, UserFunction]] = None,
    registered: Optional[Mapping[str, str]] = None,
) -> list[Column]:
    """PyFlink's legacy string expressions: ``"a, b.sum as total"``, ``"count(1)"``,
    ``"to_upper(ticker) as t"``, ``"*"``: each item is read as the expression DSL it stands for
    (``_legacy_to_dsl``) and translated by ``column``, with its refusals; ``as name`` aliases it."""
    if not text.strip():
        raise Untranslatable("an empty string expression")
    out = []
    for item in _split_top_level(text):
        if item == "*":
            out.append(Column('F.col("*")', False, None, frozenset({"F"})))
            continue
        m = _ALIAS.match(item)
        body, alias = (m["expr"], m["alias"]) if m else (item, None)
        try:
            node = cst.parse_expression(_legacy_to_dsl(body))
        except cst.ParserSyntaxError:
            raise Untranslatable(f"string expression {item!r} does not parse") from None
        if alias:
            node = cst.Call(cst.Attribute(node, cst.Name("alias")), [cst.Arg(cst.SimpleString(repr(alias)))])
        try:
            out.append(column(node, _dsl_names, schema, functions, registered))
        except Untranslatable as exc:
            raise Untranslatable(f"string expression {item!r}: {exc}") from None
    return out


def _dsl_names(node: cst.CSTNode) -> Optional[str]:
    """Qualified names of the DSL written by ``_legacy_to_dsl``."""
    return f"{EXPRESSIONS}.{node.value}" if isinstance(node, cst.Name) and node.value in _DSL else None