"""Python functions over records (libcst) -> PySpark Column code, kept exact or refused.

Shared by the PyFlink DataStream and DataSet rule sets (it is not a rule): a ``map`` or
``filter`` function over a typed record becomes a Column expression over the DataFrame's
columns where Spark computes what Python computes, on every input.

``translate(function, shape)`` takes a libcst ``Lambda`` or ``FunctionDef`` of one parameter
(the record) whose body is ``return EXPR`` (local assignments ``x = EXPR`` before it are
inlined) and the record's ``Shape``: its fields (DataFrame column name, Spark type,
nullability) and how the function reaches them (``Shape.row``: ``r[0]``, ``r["name"]``,
``r.name``; ``Shape.tuple``: ``r[0]`` only; ``Shape.value``: a basic value, the parameter is
the column). It returns a ``Translation``: one ``Output`` per result column (several for a
tuple or ``Row(...)`` built at the top: the caller gets one Column per field, named by the
``Row``'s keywords, else None for the caller to name), each with its PySpark code (``F`` is
``pyspark.sql.functions``), its Spark type, nullability and, for integers, the range of its
values. ``translate_flat`` takes a ``flat_map`` function returning or yielding items
(``s.split()``, ``s.split(sep)``, a list display; directly, through a comprehension or a
generator over them, ``yield from`` or ``for x in ...: yield E``) and returns a
``FlatTranslation``: the array Column of the items (in Python's order) and the Translation of
the record made of each item. Or a ``Refusal`` with a short reason for a NOTE/TODO or to fall back to Python over the
DataFrame.

What decides exactness (each case checked in tests/test_python_columns.py: the Column is
evaluated by Spark and the function by Python on the same generated inputs):

* Python integers are unbounded; Spark 4 (ANSI mode, the default) fails the job when a 32/64
  bit operation overflows. Every integer expression carries the range of its values, computed
  from the fields' types: an operation is widened to BIGINT when its range needs it and refused
  when its range passes 64 bits, except at the result when the caller says the result is
  declared as an integer type (``checked=True``: a Flink ``Types.INT()``/``LONG()``
  ``output_type``, whose serializer fails the job on a value out of range, as Spark's cast
  then does).
* ``//`` and ``%`` floor in Python; Spark's ``%`` and integer division truncate: ``%`` is
  ``F.pmod`` by a positive literal, else Spark's remainder corrected by the divisor's sign, and
  ``//`` the truncated quotient corrected likewise. On floats both are refused (Python's rules
  for signed zeros and rounding of the quotient). ``/`` is a double division, exact while both
  integer operands stay within 2**53. A zero divisor fails the job in both.
* ``a, b = s.split(sep)`` (or ``s.split()``) in a def body: each name is its item, and every
  output Column fails the job when the count of items differs (Python's ValueError). A caller
  that can add columns first computes the split once (``hoist_split``: the items as a column,
  checked once, read by index ``F.col("parts")[i]``).
* None: Python raises on ``None + 1``, ``None < 1``, ``len(None)`` where Spark gives NULL: a
  nullable value used there is ``F.coalesce(x, F.raise_error(...))``, failing the Spark job as
  the Flink one fails. Where Python gives a value (``str(None)``, ``None in (1,)``)
  it is refused (formatting gives Python's 'None'); ``is None``, ``== None`` and ``==``/``!=`` (``eqNullSafe``) and truth values
  are Python's.
* ``and``/``or`` only between booleans (Python returns an operand); a right side that can fail
  the job is evaluated under ``F.when`` (Spark does not promise to evaluate ``&``'s operands
  in order). Truth values of ints, floats, strings and None are Python's (``!= 0``, non-empty).
* DOUBLE comparisons: NaN compares false in Python (largest in Spark): guarded with
  ``F.isnan``; ``min``/``max`` of floats are Python's definitions (``b < a``).
* Strings: ``upper``/``lower`` are Spark's case mappings, of a newer Unicode than Python
  3.11's 14.0: compared over every code point, 55 characters map differently (unassigned in
  14.0, and ƛ ɤ ꟓ ꟕ whose case partners came later): a note. ``strip()`` strips Python's
  whitespace set (``F.btrim`` with it), ``split(sep)[i]`` splits on the literal separator,
  slices take Python's negative and out-of-range indices.
* Formatting: ``"%s ... %d" % (a, b)`` (a tuple record spreads), ``"{} {:>5}".format(a, b)``
  and f-strings with ``!s`` and specs are ``F.format_string`` with Java's ``%s``/``%d``, which
  give Python's text for ints (flags ``-``, ``+``, space, ``0``, widths) and for strings
  without a width (Java pads by UTF-16 units, Python by code points); bools are 'True'/'False',
  None 'None' (``format_string`` would say 'null'), ``%d`` of None fails the job as Python
  raises. Floats are refused (Java's ``%.2f`` rounds the decimal text half-up: 0.125 gives
  0.13, Python 0.12; NaN, Infinity), as are ``%r``, ``%x``, ``{:,}``, fills, precisions.
* ``str()`` of an int; f-strings of ints and strings; ``int()`` of a float truncates (the
  result's range is unbounded: only at a checked result). ``int()``/``float()`` of a string:
  Spark's ANSI cast where the text is ASCII digits (a decimal number for ``float``) between
  ASCII whitespace, which both read alike; any other text fails the job (``F.raise_error``):
  where Python raises, and where Spark cannot match it (underscores, Unicode digits and
  spaces, ``nan``/``inf``, past 64 bits; Spark's cast also strips control characters and
  reads ``"1d"``, which Python rejects). ``round(x)`` of a float is ``F.bround`` (both round half to even), with digits
  refused (Python rounds the binary value, Spark its decimal text).
"""

from __future__ import annotations

import ast
import math
import re
import sys
from dataclasses import dataclass, replace
from typing import Callable, Collection, Optional, Sequence, Union

import libcst as cst
import libcst.matchers as _m

__all__ = ["Field", "Shape", "Output", "Split", "Translation", "FlatTranslation", "Refusal", "translate", "translate_flat",
           "hoist_split"]

INT_RANGES = {
    "tinyint": (-(2**7), 2**7 - 1),
    "smallint": (-(2**15), 2**15 - 1),
    "int": (-(2**31), 2**31 - 1),
    "bigint": (-(2**63), 2**63 - 1),
}
_INT_ORDER = ["tinyint", "smallint", "int", "bigint"]
_FLOATS = ("double", "float")
_EXACT_DOUBLE = 2**53  # integers up to this size are doubles exactly

# Python's whitespace (str.isspace, str.strip()): Spark's trim strips spaces only.
PY_WHITESPACE = "".join(chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace())



# Runs of Python's whitespace (str.split() with no separator) as a Java regex for Spark's split:
# with (?U), Java's \s is Unicode's White_Space, which is Python's str.isspace() but for the
# separators \x1c-\x1f (tests/test_python_columns.py compares the two over every code point).
PY_WHITESPACE_RUNS = r"(?U)[\s\x1c-\x1f]+"

ROW_NAMES = ("pyflink.common.Row", "pyflink.common.types.Row")

# Texts int()/float() read as Spark's ANSI cast does: ASCII whitespace (both strip it; Spark's
# cast also strips other control characters, which Python rejects), a sign, ASCII digits.
_ASCII_WS = r"[ \t\n\x0b\f\r]*"
_INT_TEXT = rf"^{_ASCII_WS}[+-]?[0-9]+{_ASCII_WS}$"
_FLOAT_TEXT = rf"^{_ASCII_WS}[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?{_ASCII_WS}$"


@dataclass(frozen=True)
class Field:
    name: str  # the DataFrame column
    type: str  # Spark type: tinyint smallint int bigint float double string boolean
    nullable: bool = False
    key: Optional[str] = None  # the name the function uses (r.key, r["key"]); default: name
    nan: bool = True  # a double that may hold NaN (False: known not to, e.g. literal data)


@dataclass(frozen=True)
class Shape:
    kind: str  # "row" (r[i], r["n"], r.n), "tuple" (r[i]), "value" (the parameter is the column)
    fields: tuple[Field, ...]
    pickled: bool = False  # Python objects as they are (a PyFlink source with no type_info)

    @staticmethod
    def row(*fields: Field) -> "Shape":
        return Shape("row", tuple(fields))

    @staticmethod
    def tuple(*fields: Field) -> "Shape":
        return Shape("tuple", tuple(fields))

    @staticmethod
    def value(f: Field) -> "Shape":
        return Shape("value", (f,))


@dataclass(frozen=True)
class Output:
    code: str  # PySpark Column code
    type: str  # Spark type of its values
    nullable: bool
    name: Optional[str] = None  # Row(name=...) keyword; None: the caller names it
    range: Optional[tuple[int, int]] = None  # integers: the values Python gives lie within


@dataclass(frozen=True)
class Split:
    """``a, b, c = s.split(sep)`` in the function: ``items`` is the code of the array of items,
    which must hold ``count`` of them (else Python raises ValueError: ``message``). Each output
    Column is ``F.when(check, ...).otherwise(fail)`` around code reading ``items[i]``."""

    items: str
    count: int
    message: str

    @property
    def check(self) -> str:
        return f"F.size({self.items}) == {self.count}"

    @property
    def fail(self) -> str:
        return f"F.raise_error(F.lit({self.message!r}))"


@dataclass(frozen=True)
class Translation:
    outputs: tuple[Output, ...]
    tuple: bool  # the function builds a tuple/Row: one Output per field
    notes: tuple[str, ...] = ()  # approximations for a NOTE (empty: exact)
    splits: tuple[Split, ...] = ()  # the unpacked splits the outputs are guarded by (hoist_split)

    @property
    def code(self) -> str:
        """The single Column's code (a function that builds no tuple)."""
        assert not self.tuple and len(self.outputs) == 1
        return self.outputs[0].code


@dataclass(frozen=True)
class FlatTranslation:
    """A ``flat_map`` function as Columns: ``items`` is an array Column of the items it returns
    or yields for a record (in their order), exploded to a column ``name`` of ``type``;
    ``element`` gives the records made of each item (a Translation over ``Shape.value`` of that
    column)."""

    items: str
    name: str
    type: str
    element: Translation
    notes: tuple[str, ...] = ()
    keeps_record: bool = False  # the element reads the record's fields: explode next to its columns
    single: bool = False  # a generator that yields once per record (no items: ``element`` reads the record)


@dataclass(frozen=True)
class Refusal:
    reason: str


class _Refuse(Exception):
    pass


_NOLIT = object()

# precedence of the generated Column code (Python's own)
_ATOM, _UNARY, _MUL, _ADD, _AND, _OR, _CMP = 9, 7, 6, 5, 3, 1, 0


@dataclass(frozen=True)
class _E:
    code: str
    type: str  # Spark type of the code's values (int kinds, "double", "string", "boolean", "null")
    nullable: bool = False
    range: Optional[tuple[int, int]] = None  # ints: Python's values lie within
    raises: bool = False  # evaluating it can fail the job (Python raises there too)
    literal: object = _NOLIT
    prec: int = _ATOM
    nan: bool = False  # a double that may be NaN
    concat: tuple[str, ...] = ()  # an F.concat: the codes of its arguments

    @property
    def kind(self) -> str:
        if self.type in INT_RANGES:
            return "int"
        if self.type in _FLOATS:
            return "float"
        return {"string": "str", "boolean": "bool", "null": "none"}.get(self.type, self.type)


def _lit_code(v) -> str:
    return f"F.lit({v!r})"


def _literal(v) -> _E:
    if v is None:
        return _E("F.lit(None)", "null", nullable=True, literal=None)
    if isinstance(v, bool):
        return _E(_lit_code(v), "boolean", literal=v)
    if isinstance(v, int):
        if not INT_RANGES["bigint"][0] <= v <= INT_RANGES["bigint"][1]:
            raise _Refuse(f"integer literal {v} beyond 64 bits")
        t = "int" if INT_RANGES["int"][0] <= v <= INT_RANGES["int"][1] else "bigint"
        return _E(_lit_code(v), t, range=(v, v), literal=v)
    if isinstance(v, float):
        if math.isnan(v) or math.isinf(v):
            raise _Refuse("a NaN or infinite float literal")
        return _E(_lit_code(v), "double", literal=v)
    if isinstance(v, str):
        return _E(_lit_code(v), "string", literal=v)
    raise _Refuse(f"a literal of type {type(v).__name__}")


def _receiver(e: _E) -> str:
    """Code of ``e`` as the receiver of a Column method: a literal as its ``F.lit`` (the Python
    value has no ``.cast``: ``str(3)`` gave ``3.cast("string")``)."""
    return e.code if e.literal is not _NOLIT else _operand(e, _ATOM)


def _operand(e: _E, prec: int) -> str:
    """Code of ``e`` as an operand of an operator of precedence ``prec``: a literal as the
    Python value (Column operators take it), parenthesised when it binds less tightly."""
    if e.literal is not _NOLIT and e.literal is not None and not isinstance(e.literal, bool):
        code = repr(e.literal)
        return f"({code})" if code.startswith("-") and prec >= _UNARY else code
    return e.code if e.prec >= prec else f"({e.code})"


def _binop(a: _E, op: str, b: _E, prec: int, type_: str, **kw) -> _E:
    # A Column must be on one side: two literals were folded before.
    left = _operand(a, prec)
    right = _operand(b, prec + 1)
    if a.literal is not _NOLIT and b.literal is _NOLIT and not left.startswith("F."):
        left = _lit_code(a.literal)  # 2 - F.col("x") works, but F.lit(2) - ... reads plainly
    return _E(f"{left} {op} {right}", type_, prec=prec,
              raises=kw.pop("raises", False) or a.raises or b.raises, **kw)


def _wider_int(a: str, b: str) -> str:
    return _INT_ORDER[max(_INT_ORDER.index(a), _INT_ORDER.index(b))]


def _fits(r: tuple[int, int], t: str) -> bool:
    lo, hi = INT_RANGES[t]
    return lo <= r[0] and r[1] <= hi


def _as_long(e: _E) -> _E:
    if e.type == "bigint":
        return e
    if e.literal is not _NOLIT:
        return replace(e, code=f"F.lit({e.literal!r}).cast(\"long\")", type="bigint", literal=_NOLIT)
    return replace(e, code=f"{_receiver(e)}.cast(\"long\")", type="bigint", prec=_ATOM)


def _as_int(e: _E) -> _E:
    return replace(e, code=f"{_receiver(e)}.cast(\"int\")", type="int", prec=_ATOM)


def _as_double(e: _E) -> _E:
    if e.kind == "float":
        return e
    if e.literal is not _NOLIT:
        return _literal(float(e.literal))
    return replace(e, code=f"{_receiver(e)}.cast(\"double\")", type="double", range=None, prec=_ATOM)


class _Translator:
    def __init__(self, shape: Shape, qualified, checked: bool, shadowed: frozenset[str]):
        self.shape = shape
        self.qualified = qualified or (lambda node: None)
        self.checked = checked
        self.shadowed = shadowed
        self.single = False  # flat_function: a def yielding once is one record per record
        self.param: Optional[str] = None
        self.env: dict[str, _E] = {}
        self.notes: list[str] = []
        self.is_predicate = False
        self.fields_read = 0  # reads of the record's fields (flat_map: whether its columns must stay)
        # conditions Python checks before the result (``a, b = s.split(sep)``: the count of
        # items), each with the error it raises otherwise: every output Column fails the job
        # when one does not hold
        self.guards: list[tuple[str, str]] = []
        self.splits: list[Split] = []  # the unpackings behind those guards

    # ---- records -------------------------------------------------------------------------
    def _field(self, f: Field) -> _E:
        self.fields_read += 1
        code = f'F.col("{f.name}")'
        t = f.type
        if t == "float":  # Python sees a double: compute as one
            code, t = f'{code}.cast("double")', "double"
        if t not in INT_RANGES and t not in ("double", "string", "boolean"):
            raise _Refuse(f"a field of Spark type {f.type}")
        return _E(code, t, nullable=f.nullable, range=INT_RANGES.get(t), nan=t == "double" and f.nan)

    def _record_index(self, i: int) -> _E:
        fields = self.shape.fields
        if not -len(fields) <= i < len(fields):
            raise _Refuse(f"index {i} of a record of {len(fields)} fields")
        return self._field(fields[i])

    def _record_key(self, key: str) -> _E:
        for f in self.shape.fields:
            if (f.key or f.name) == key:
                return self._field(f)
        raise _Refuse(f"field {key!r} not in the record")

    def _is_record(self, node) -> bool:
        return (isinstance(node, cst.Name) and node.value == self.param and node.value not in self.env
                and self.shape.kind != "value")

    # ---- entry ---------------------------------------------------------------------------
    def function(self, fn) -> Translation:
        if isinstance(fn, cst.Lambda):
            params, body = fn.params, fn.body
            self._params(params)
        elif isinstance(fn, cst.FunctionDef):
            if fn.decorators or fn.asynchronous:
                raise _Refuse("a decorated or async def")
            self._params(fn.params)
            body = self._body(fn)
        else:
            raise _Refuse("not a lambda or def")
        if self.is_predicate:  # a filter: Python keeps the records whose result is truthy
            return Translation((self._output(self._test(body)),), False, tuple(self.notes), tuple(self.splits))
        return self._result(body)

    def _result(self, body) -> Translation:
        if isinstance(body, (cst.Tuple,)) or self._row_call(body):
            outs = self._tuple(body)
            return Translation(tuple(outs), True, tuple(self.notes), tuple(self.splits))
        e = self.expr(body, root=True)
        return Translation((self._output(e),), False, tuple(self.notes), tuple(self.splits))

    # ---- flat_map: the items a function returns or yields --------------------------------
    def flat_function(self, fn) -> FlatTranslation:
        """``lambda r: ITEMS``, ``lambda r: [E for x in ITEMS]`` (or a generator), a def
        returning one of those, ``yield from ITEMS`` or ``for x in ITEMS: yield E``, each with at
        most one ``if COND`` on the item (``[E for x in ITEMS if COND]``, ``for x in ITEMS: if
        COND: yield E``: ``F.filter`` of the items); ITEMS is ``s.split()``, ``s.split(sep)`` or a
        list/tuple display of one type."""
        if isinstance(fn, cst.Lambda):
            self._params(fn.params)
            body = fn.body
        elif isinstance(fn, cst.FunctionDef):
            if fn.decorators or fn.asynchronous:
                raise _Refuse("a decorated or async def")
            self._params(fn.params)
            once = self._yielded_once(fn) if self.single else None
            if once is not None:  # one record per record: a map's Columns (their guards included)
                element = self._result(self._body(once))
                return FlatTranslation("", "", "", element, tuple(self.notes), single=True)
            body = self._generator_body(fn)
            if body is None:
                body = self._body(fn)
        else:
            raise _Refuse("not a lambda or def")
        var, elt, cond = None, None, None
        if isinstance(body, tuple):
            body, var, elt, cond = body
        elif isinstance(body, (cst.ListComp, cst.GeneratorExp)):
            comp = body.for_in
            if (comp.inner_for_in is not None or len(comp.ifs) > 1 or comp.asynchronous
                    or not isinstance(comp.target, cst.Name)):
                raise _Refuse("a comprehension of other than one `for name in ...` with at most one `if`")
            body, var, elt = comp.iter, comp.target.value, body.elt
            cond = comp.ifs[0].test if comp.ifs else None
        items = self._items(body)
        if self.guards:
            raise _Refuse("unpacking in a flat_map function")
        if var in (self.param, *self.env):
            raise _Refuse("a loop variable that hides the record or a local")
        if cond is not None:
            if not var.isidentifier() or var == "F" or var.startswith("_"):
                raise _Refuse(f"a loop variable named {var}")
            # the items Python yields: those whose condition holds, in order (the condition
            # reads the item as the filter lambda's Column)
            self.env[var] = _E(var, items.type, nullable=items.nullable)
            test = self._test(cond)
            del self.env[var]
            items = replace(items, code=f"F.filter({items.code}, lambda {var}: {test.code})",
                            raises=items.raises or test.raises)
        # the exploded column: a name none of the record's columns has (they may be kept)
        name, taken = var or "value", {f.name for f in self.shape.fields}
        while name in taken:
            name += "_"
        if elt is None:
            element = Translation((Output(f'F.col("{name}")', items.type, items.nullable),), False)
        else:
            # the item is a local of the function: its column; the record's fields stay readable
            self.env[var] = _E(f'F.col("{name}")', items.type, nullable=items.nullable)
            self.fields_read = 0
            element = self._result(elt)
        return FlatTranslation(items.code, name, items.type, element, tuple(self.notes),
                               keeps_record=elt is not None and self.fields_read > 0)

    def _yielded_once(self, fn: cst.FunctionDef) -> Optional[cst.FunctionDef]:
        """``fn`` with its last statement ``yield E`` made ``return E`` when that is its one
        ``yield`` and every statement before it is a simple one (assignments: ``_body`` says),
        else None."""
        stmts = list(fn.body.body) if isinstance(fn.body, cst.IndentedBlock) else [fn.body]
        if not stmts or not all(isinstance(s, cst.SimpleStatementLine) for s in stmts):
            return None
        last = stmts[-1]
        if len(last.body) != 1 or len(_m.findall(fn, _m.Yield())) != 1:
            return None
        yielded = _yield_of(last)
        if yielded is None or yielded.value is None or isinstance(yielded.value, cst.From):
            return None
        ret = last.with_changes(body=[cst.Return(value=yielded.value)])
        return fn.with_changes(body=fn.body.with_changes(body=[*stmts[:-1], ret]))

    def _generator_body(self, fn: cst.FunctionDef):
        """(ITEMS, None, None, None) of ``yield from ITEMS``, (ITEMS, x, E, COND) of ``for x in
        ITEMS: yield E`` (COND None) or ``for x in ITEMS: if COND: yield E`` (the whole body, a
        docstring aside), else None."""
        stmts = list(fn.body.body) if isinstance(fn.body, cst.IndentedBlock) else [fn.body]
        if (len(stmts) > 1 and isinstance(stmts[0], cst.SimpleStatementLine)
                and isinstance(stmts[0].body[0], cst.Expr) and isinstance(stmts[0].body[0].value, cst.SimpleString)):
            stmts = stmts[1:]
        if len(stmts) != 1:
            return None
        (s,) = stmts
        yielded = _yield_of(s)
        if yielded is not None and yielded.value is not None and isinstance(yielded.value, cst.From):
            return yielded.value.item, None, None, None
        if (isinstance(s, cst.For) and s.orelse is None and not s.asynchronous and isinstance(s.target, cst.Name)
                and isinstance(s.body, cst.IndentedBlock) and len(s.body.body) == 1):
            inner, cond = s.body.body[0], None
            if (isinstance(inner, cst.If) and inner.orelse is None and isinstance(inner.body, cst.IndentedBlock)
                    and len(inner.body.body) == 1):
                inner, cond = inner.body.body[0], inner.test
            yielded = _yield_of(inner)
            if yielded is not None and yielded.value is not None and not isinstance(yielded.value, cst.From):
                return s.iter, s.target.value, yielded.value, cond
        return None

    def _items(self, node) -> _E:
        """An array Column of the items ``node`` gives, in Python's order."""
        if isinstance(node, cst.Call) and self._split_call(node):
            return self._split_items(node)
        if isinstance(node, (cst.List, cst.Tuple)):
            if not node.elements or any(not isinstance(el, cst.Element) for el in node.elements):
                raise _Refuse("an empty or starred list of items")
            values = [self.expr(el.value, root=True) for el in node.elements]
            if len({v.type for v in values}) != 1 or values[0].type == "null":
                raise _Refuse("items of several types (a Spark array has one)")
            code = "F.array(" + ", ".join(v.code if v.literal is _NOLIT else _lit_code(v.literal) for v in values) + ")"
            return _E(code, values[0].type, nullable=any(v.nullable for v in values),
                      raises=any(v.raises for v in values))
        raise _Refuse("items other than s.split(), s.split(sep) or a list display")

    def _split_items(self, call: cst.Call) -> _E:
        """``s.split()`` (runs of Python's whitespace, no empty items) or ``s.split(sep)`` (a
        literal separator, empty items kept): a string array."""
        s = self._nonnull(self.expr(call.func.value), "split()")
        if s.kind != "str":
            raise _Refuse(f".split() of a {s.kind}")
        if call.args and call.args[0].keyword or len(call.args) > 2 or len(call.args) == 2 and (
                call.args[1].keyword is not None and call.args[1].keyword.value != "maxsplit"):
            raise _Refuse("split() with maxsplit and no separator, or other arguments")
        if not call.args:
            # Python drops the empty strings at either end; Spark's split keeps them
            return _E(f'F.array_remove(F.split({_arg(s)}, {_raw(PY_WHITESPACE_RUNS)}), "")',
                      "string", raises=s.raises)
        sep = self.expr(call.args[0].value)
        if sep.kind != "str" or sep.literal is _NOLIT or sep.literal == "":
            raise _Refuse("split() of a non-literal or empty separator")
        if len(call.args) == 2:  # at most maxsplit + 1 items, the last the rest: Spark's limit maxsplit + 1 (> 0)
            most = self.expr(call.args[1].value)
            if most.kind != "int" or most.literal is _NOLIT or most.literal < -1:
                raise _Refuse("split(sep, maxsplit) of a non-literal maxsplit")
            if most.literal >= 0:
                return _E(f"F.split({_arg(s)}, {_java_quote(sep.literal)!r}, {most.literal + 1})", "string",
                          raises=s.raises)
        return _E(f"F.split({_arg(s)}, {_java_quote(sep.literal)!r})", "string", raises=s.raises)  # limit -1: all items

    def _params(self, params: cst.Parameters) -> None:
        if (len(params.params) != 1 or params.posonly_params or params.kwonly_params
                or not isinstance(params.star_arg, cst.MaybeSentinel) and params.star_arg is not None
                or params.star_kwarg is not None or params.params[0].default is not None):
            raise _Refuse("a function of other than one parameter")
        self.param = params.params[0].name.value

    def _body(self, fn: cst.FunctionDef) -> cst.BaseExpression:
        stmts = list(fn.body.body) if isinstance(fn.body, cst.IndentedBlock) else [fn.body]
        lines = []
        for s in stmts:
            if isinstance(s, cst.SimpleStatementLine):
                lines.extend(s.body)
            else:
                raise _Refuse("a def with statements other than assignments and return")
        for i, s in enumerate(lines):
            last = i == len(lines) - 1
            if isinstance(s, cst.Expr) and isinstance(s.value, (cst.SimpleString, cst.ConcatenatedString)) and i == 0:
                continue  # docstring
            if isinstance(s, cst.Return) and last and s.value is not None:
                return s.value
            if (isinstance(s, cst.Assign) and len(s.targets) == 1 and isinstance(s.targets[0].target, cst.Name)
                    and not last):
                name = s.targets[0].target.value
                if name == self.param:
                    raise _Refuse("the parameter is reassigned")
                self.env[name] = self.expr(s.value)
                continue
            if (isinstance(s, cst.Assign) and len(s.targets) == 1 and isinstance(s.targets[0].target, (cst.Tuple, cst.List))
                    and not last):
                self._unpack(s.targets[0].target, s.value)
                continue
            raise _Refuse("a def with statements other than assignments and return")
        raise _Refuse("a def without a final return")

    def _unpack(self, target, value) -> None:
        """``a, b, c = s.split(sep)`` (or ``s.split()``): each name is its item; Python raises
        ValueError when the count of items differs, so the outputs are guarded by it."""
        names = []
        for el in target.elements:
            if not isinstance(el, cst.Element) or not isinstance(el.value, cst.Name):
                raise _Refuse("unpacking into other than plain names")
            names.append(el.value.value)
        if self.param in names or len(set(names)) != len(names):
            raise _Refuse("unpacking that rebinds the parameter or a name twice")
        if not (isinstance(value, cst.Call) and self._split_call(value)):
            raise _Refuse("unpacking of other than s.split(...)")
        items = self._split_items(value)
        n = len(names)
        split = Split(items.code, n, f"ValueError: split() does not give {n} values to unpack")
        self.splits.append(split)
        self.guards.append((split.check, split.message))
        for i, name in enumerate(names):
            # within the guard the index is in range
            self.env[name] = _E(f"{items.code}[{i}]", "string", raises=True)

    def _output(self, e: _E) -> Output:
        if e.type == "null":
            raise _Refuse("a result that is always None")
        code = e.code if e.literal is _NOLIT else _lit_code(e.literal)
        for cond, msg in reversed(self.guards):
            code = f"F.when({cond}, {code}).otherwise(F.raise_error(F.lit({msg!r})))"
        return Output(code, e.type, e.nullable, None, e.range)

    # ---- tuples and rows -----------------------------------------------------------------
    def _row_call(self, node) -> bool:
        return isinstance(node, cst.Call) and self.qualified(node.func) in ROW_NAMES

    def _tuple(self, node) -> list[Output]:
        if isinstance(node, cst.Tuple):
            if any(not isinstance(el, cst.Element) for el in node.elements):
                raise _Refuse("a starred tuple element")
            if not node.elements:
                raise _Refuse("an empty tuple")
            return [self._output(self.expr(el.value, root=True)) for el in node.elements]
        outs = []
        for arg in node.args:
            if arg.star:
                raise _Refuse("Row(*...)")
            name = arg.keyword.value if arg.keyword else None
            outs.append(replace(self._output(self.expr(arg.value, root=True)), name=name))
        if len({o.name is None for o in outs}) > 1:
            raise _Refuse("Row(...) of positional and keyword fields")
        return outs

    # ---- expressions ---------------------------------------------------------------------
    def expr(self, node, root: bool = False) -> _E:
        method = getattr(self, "_" + type(node).__name__, None)
        if method is None:
            raise _Refuse(f"a {type(node).__name__} expression")
        e = method(node, root) if type(node).__name__ in ("BinaryOperation", "IfExp", "Call", "UnaryOperation") else method(node)
        if e.range is not None and not _fits(e.range, "bigint") and not (root and self.checked):
            raise _Refuse("an integer that can pass 64 bits (Python's ints are unbounded, Spark's overflow fails the job)")
        return e

    def _Integer(self, node) -> _E:
        return _literal(node.evaluated_value)

    def _Float(self, node) -> _E:
        return _literal(node.evaluated_value)

    def _SimpleString(self, node) -> _E:
        v = node.evaluated_value
        if not isinstance(v, str):
            raise _Refuse("a bytes literal")
        return _literal(v)

    def _ConcatenatedString(self, node) -> _E:
        return self._concat([self.expr(node.left), self.expr(node.right)])

    def _Name(self, node) -> _E:
        v = node.value
        if v in self.env:
            return self.env[v]
        if v == self.param:
            if self.shape.kind == "value":
                return self._field(self.shape.fields[0])
            raise _Refuse("the whole record used as a value")
        if v in ("None", "True", "False") and v not in self.shadowed:
            return _literal({"None": None, "True": True, "False": False}[v])
        raise _Refuse(f"the name {v} (not the record)")

    def _Attribute(self, node) -> _E:
        if self._is_record(node.value) and self.shape.kind == "row":
            return self._record_key(node.attr.value)
        raise _Refuse(f"attribute .{node.attr.value}")

    def _Subscript(self, node) -> _E:
        if len(node.slice) != 1:
            raise _Refuse("a subscript of several indices")
        sl = node.slice[0].slice
        if self._is_record(node.value):
            if not isinstance(sl, cst.Index):
                raise _Refuse("a subscript of the record other than r[i] or r['name']")
            key = self.expr(sl.value)
            if key.kind == "int" and key.literal is not _NOLIT:
                return self._record_index(key.literal)
            if key.kind == "str" and key.literal is not _NOLIT and self.shape.kind == "row":
                return self._record_key(key.literal)
            raise _Refuse("a record subscript that is not a literal")
        if isinstance(node.value, cst.Call) and self._split_call(node.value):
            if not isinstance(sl, cst.Index):
                raise _Refuse("a slice of split()")
            return self._split_index(node.value, self.expr(sl.value))
        s = self._nonnull(self.expr(node.value), "subscript")
        if s.kind != "str":
            raise _Refuse(f"a subscript of a {s.kind}")
        if isinstance(sl, cst.Index):
            return self._char_at(s, self.expr(sl.value))
        return self._slice(s, sl)

    def _nonnull(self, e: _E, what: str, raises: bool = True) -> _E:
        """``e`` where Python needs a value. ``raises``: Python raises on None there
        (``None + 1``, ``None < 1``, ``len(None)``): the Column fails the Spark job on NULL
        as well (``F.raise_error`` runs only when ``F.coalesce`` reaches it); else refused."""
        if not e.nullable:
            return e
        if not raises:
            raise _Refuse(f"{what} of a value that may be None (Python gives a value, Spark NULL)")
        msg = f"TypeError: {what} of None"
        return _E(f"F.coalesce({e.code}, F.raise_error(F.lit({msg!r})))", e.type, range=e.range, raises=True,
                  nan=e.nan)

    # ---- arithmetic ----------------------------------------------------------------------
    def _UnaryOperation(self, node, root) -> _E:
        op = type(node.operator).__name__
        if op == "Not":
            t = self._test(node.expression)
            if t.literal is not _NOLIT:
                return _literal(not t.literal)
            return _E(f"~{_operand(t, _UNARY)}", "boolean", prec=_UNARY, raises=t.raises)
        e = self.expr(node.expression)
        e = self._nonnull(e, "arithmetic")
        if e.kind not in ("int", "float"):
            raise _Refuse(f"unary {op} of a {e.kind}")
        if e.literal is not _NOLIT:
            return _literal(-e.literal if op == "Minus" else +e.literal if op == "Plus" else ~e.literal)
        if op == "Plus":
            return e
        if op != "Minus":
            raise _Refuse(f"unary {op}")
        if e.kind == "float":
            return _E(f"-{_operand(e, _UNARY)}", "double", prec=_UNARY, raises=e.raises, nan=e.nan)
        r = (-e.range[1], -e.range[0])
        e = self._widen(e, r, e.type)
        return _E(f"-{_operand(e, _UNARY)}", e.type, prec=_UNARY, range=r, raises=e.raises)

    def _widen(self, e: _E, r, natural: str) -> _E:
        """``e`` cast to BIGINT when the operation's range passes its natural type."""
        if _fits(r, natural):
            return e
        return _as_long(e)

    def _BinaryOperation(self, node, root) -> _E:
        op = type(node.operator).__name__
        if op == "Modulo" and isinstance(node.left, (cst.SimpleString, cst.ConcatenatedString)):
            return self._percent(node.left, node.right)
        a, b = self.expr(node.left), self.expr(node.right)
        if a.literal is not _NOLIT and b.literal is not _NOLIT:
            return self._fold(op, a.literal, b.literal)
        if op == "Add" and (a.kind == "str" or b.kind == "str"):
            if a.kind != b.kind:
                raise _Refuse("+ of a string and a non-string")
            return self._concat([self._nonnull(a, "+"), self._nonnull(b, "+")])
        if op == "Modulo" and a.kind == "str":
            raise _Refuse("%-formatting of a string that is not a literal")
        a, b = self._nonnull(a, "arithmetic"), self._nonnull(b, "arithmetic")
        for e in (a, b):
            if e.kind not in ("int", "float"):
                raise _Refuse(f"arithmetic on a {e.kind}")
        if op == "Divide":
            return self._divide(a, b)
        if a.kind == "float" or b.kind == "float":
            if op in ("FloorDivide", "Modulo"):
                raise _Refuse("// or % of floats (Python's signed zeros and quotient rounding)")
            if op not in ("Add", "Subtract", "Multiply"):
                raise _Refuse(f"{op} of floats")
            sym = {"Add": "+", "Subtract": "-", "Multiply": "*"}[op]
            prec = _MUL if op == "Multiply" else _ADD
            a2, b2 = self._float_side(a), self._float_side(b)
            return _binop(a2, sym, b2, prec, "double", nan=True)
        if op in ("Add", "Subtract", "Multiply"):
            (alo, ahi), (blo, bhi) = a.range, b.range
            if op == "Add":
                r = (alo + blo, ahi + bhi)
            elif op == "Subtract":
                r = (alo - bhi, ahi - blo)
            else:
                ps = [alo * blo, alo * bhi, ahi * blo, ahi * bhi]
                r = (min(ps), max(ps))
            natural = _wider_int(a.type, b.type)
            t = natural
            if not _fits(r, natural):
                a, b, t = self._long_pair(a, b, r)
            sym = {"Add": "+", "Subtract": "-", "Multiply": "*"}[op]
            return _binop(a, sym, b, _MUL if op == "Multiply" else _ADD, t, range=r)
        if op in ("FloorDivide", "Modulo"):
            return self._floor_div_mod(op, a, b)
        raise _Refuse(f"the operator {op}")

    def _float_side(self, e: _E) -> _E:
        if e.kind == "float":
            return e
        if e.literal is not _NOLIT:
            return _literal(float(e.literal))
        return e  # Spark widens an integer operand to double as Python does (round to nearest)

    def _long_pair(self, a: _E, b: _E, r=None):
        """Operands cast so that Spark computes in the narrowest of INT/BIGINT holding ``r``
        (one operand of the type makes Spark compute in it)."""
        t = "int" if r is not None and _fits(r, "int") else "bigint"
        if _INT_ORDER.index(_wider_int(a.type, b.type)) >= _INT_ORDER.index(t):
            return a, b, _wider_int(a.type, b.type)
        cast = _as_long if t == "bigint" else _as_int
        if a.literal is _NOLIT:
            return cast(a), b, t
        return a, cast(b), t

    def _fold(self, op, x, y) -> _E:
        import operator as o
        fn = {"Add": o.add, "Subtract": o.sub, "Multiply": o.mul, "Divide": o.truediv,
              "FloorDivide": o.floordiv, "Modulo": o.mod}.get(op)
        if fn is None or (isinstance(x, str) or isinstance(y, str)) and op != "Add":
            raise _Refuse(f"the operator {op}")
        try:
            return _literal(fn(x, y))
        except Exception as exc:  # noqa: BLE001 - Python would raise it at each record
            raise _Refuse(f"a constant expression that raises {type(exc).__name__}")

    def _divide(self, a: _E, b: _E) -> _E:
        for e in (a, b):
            if e.kind == "int" and not (-_EXACT_DOUBLE <= e.range[0] and e.range[1] <= _EXACT_DOUBLE):
                raise _Refuse("/ of integers beyond 2**53 (Python divides them exactly, Spark as doubles)")
        zero_free = b.literal is not _NOLIT and b.literal != 0
        a2 = a if a.kind == "float" or b.kind == "float" or b.literal is not _NOLIT else a
        return _binop(a2, "/", b, _MUL, "double", raises=not zero_free, nan=True)

    def _floor_div_mod(self, op: str, a: _E, b: _E) -> _E:
        (alo, ahi), (blo, bhi) = a.range, b.range
        zero = blo <= 0 <= bhi
        if blo == bhi == 0:
            raise _Refuse(f"{'%' if op == 'Modulo' else '//'} by zero (Python raises on every record)")
        if op == "Modulo":
            # |a % b| < |b|, with the sign of b
            m = max(abs(blo), abs(bhi)) - 1
            r = (-m if blo < 0 else 0, m if bhi > 0 else 0)
            t = _wider_int(a.type, b.type)
            if b.literal is not _NOLIT and b.literal > 0:
                return _E(f"F.pmod({_arg(a)}, {_arg(b)})", t, range=r, raises=a.raises)
            rem = _binop(a, "%", b, _MUL, t, raises=zero)
            cond = f"({rem.code} != 0) & (({rem.code} < 0) != ({_operand(b, _CMP + 1)} < 0))"
            return _E(f"F.when({cond}, {rem.code} + {_operand(b, _ADD + 1)}).otherwise({rem.code})",
                      t, range=r, raises=rem.raises)
        # floor division: the truncated quotient, one less when the signs differ and it is inexact
        cands = []
        for x in (alo, ahi):
            for y in (blo, bhi, -1, 1):
                if blo <= y <= bhi and y != 0:
                    cands.append(x // y)
        r = (min(cands), max(cands))
        natural = _wider_int(a.type, b.type)
        t = natural if _fits(r, natural) else "bigint"
        raises = zero or a.raises or b.raises
        if all(abs(v) <= _EXACT_DOUBLE for v in (alo, ahi, blo, bhi)):
            # doubles hold these operands exactly, and their correctly rounded quotient never
            # crosses the next integer: the floor of the double quotient is Python's
            q = f"F.floor({_operand(a, _MUL)} / {_operand(b, _MUL + 1)})"
            return _E(q if t == "bigint" else f'{q}.cast("{t}")', t, range=r, raises=raises)
        # beyond 2**53: Spark's integral division (truncates), one less when inexact and the signs differ
        x, y = _sql(a), _sql(b)
        if x is None or y is None:
            raise _Refuse("// of 64-bit integers other than fields and literals")
        return _E(f'F.expr("{x} div {y} - CASE WHEN {x} % {y} != 0 AND ({x} < 0) != ({y} < 0) THEN 1 ELSE 0 END")',
                  "bigint", range=r, raises=raises)

    # ---- comparisons and booleans --------------------------------------------------------
    def _Comparison(self, node) -> _E:
        parts = []
        left_node = node.left
        left = self.expr(left_node)
        for target in node.comparisons:
            op = type(target.operator).__name__
            if op in ("In", "NotIn"):
                if len(node.comparisons) > 1:
                    raise _Refuse("`in` in a chained comparison")
                return self._in(left, target.comparator, op == "NotIn")
            right = self.expr(target.comparator)
            parts.append(self._compare(left, op, right))
            left = right
        out = parts[0]
        for p in parts[1:]:
            out = self._and(out, p)
        return out

    def _compare(self, a: _E, op: str, b: _E) -> _E:
        if op in ("Is", "IsNot"):
            if b.type != "null":
                raise _Refuse("`is` with something other than None")
            neg = op == "IsNot"
            if a.type == "null":
                return _literal(not neg)
            if not a.nullable and not a.raises:
                return _literal(neg)
            # a value that may fail the job (``-(r.n) is None`` of a None ``n``: Python raises) is
            # still evaluated: its test is the literal's value wherever it does not fail
            return _E(f"{_receiver(a)}.{'isNotNull' if neg else 'isNull'}()", "boolean", raises=a.raises)
        if a.literal is not _NOLIT and b.literal is not _NOLIT:
            import operator as o
            fn = {"Equal": o.eq, "NotEqual": o.ne, "LessThan": o.lt, "LessThanEqual": o.le,
                  "GreaterThan": o.gt, "GreaterThanEqual": o.ge}[op]
            try:
                return _literal(fn(a.literal, b.literal))
            except TypeError:
                raise _Refuse("a comparison Python refuses")
        sym = {"Equal": "==", "NotEqual": "!=", "LessThan": "<", "LessThanEqual": "<=",
               "GreaterThan": ">", "GreaterThanEqual": ">="}.get(op)
        if sym is None:
            raise _Refuse(f"the comparison {op}")
        if a.type == "null" or b.type == "null":
            if sym not in ("==", "!="):
                raise _Refuse("an ordering comparison with None (Python raises)")
            other = b if a.type == "null" else a
            if not other.nullable:
                return _literal(sym == "!=")
            return _E(f"{_receiver(other)}.{'isNull' if sym == '==' else 'isNotNull'}()", "boolean",
                      raises=other.raises)
        ka, kb = a.kind, b.kind
        numeric = ka in ("int", "float") and kb in ("int", "float")
        if "bool" in (ka, kb) and ka != kb and {ka, kb} & {"int", "float"}:
            raise _Refuse(f"{sym} of a bool and a number (Python: True == 1)")
        if not numeric and ka != kb:
            if sym in ("==", "!="):  # Python: a str and a number (or None) are never equal
                return _literal(sym == "!=")
            raise _Refuse(f"{sym} of a {ka} and a {kb} (Python raises)")
        if ka == "bool" and sym not in ("==", "!="):
            raise _Refuse("ordering of booleans")
        if numeric and ka != kb:
            for e in (a, b):
                if e.kind == "int" and not (-_EXACT_DOUBLE <= e.range[0] and e.range[1] <= _EXACT_DOUBLE):
                    raise _Refuse("a comparison of a float with an integer beyond 2**53 (Python compares exactly)")
            a, b = self._float_side(a), self._float_side(b)
        if (a.nullable or b.nullable) and sym not in ("==", "!="):
            a, b = self._nonnull(a, sym), self._nonnull(b, sym)  # Python raises on None < 1
        if a.nullable or b.nullable:
            eq = _E(f"{_receiver(a)}.eqNullSafe({_arg(b)})", "boolean", raises=a.raises or b.raises)
            return eq if sym == "==" else _E(f"~{eq.code}", "boolean", prec=_UNARY, raises=eq.raises)
        cmp = _binop(a, sym, b, _CMP, "boolean")
        if a.nan or b.nan:
            # Python: NaN is not ==, <, >, <=, >= anything (and != everything); Spark: NaN = NaN, largest
            nans = " | ".join(f"F.isnan({_arg(e)})" for e in (a, b) if e.nan)
            return _E(f"F.when({nans}, {_lit_code(sym == '!=')}).otherwise({cmp.code})", "boolean",
                      raises=cmp.raises)
        return cmp

    def _in(self, a: _E, node, negate: bool) -> _E:
        if not isinstance(node, (cst.Tuple, cst.List, cst.Set)):
            return self._in_string(a, self.expr(node), negate)
        values = [self.expr(el.value) for el in node.elements if isinstance(el, cst.Element)]
        if len(values) != len(node.elements) or any(v.literal is _NOLIT for v in values):
            raise _Refuse("`in` of a tuple of non-literals")
        a = self._nonnull(a, "`in`", raises=False)
        if any(v.literal is None or v.kind != a.kind and not {v.kind, a.kind} <= {"int", "float"} for v in values):
            raise _Refuse("`in` with values of another kind")
        if a.nan or any(v.kind != a.kind for v in values):
            raise _Refuse("`in` of floats (NaN) or of ints and floats mixed")
        isin = f"{_receiver(a)}.isin({', '.join(repr(v.literal) for v in values)})"
        return _E(f"~{isin}" if negate else isin, "boolean", prec=_UNARY if negate else _ATOM, raises=a.raises)

    def _in_string(self, a: _E, b: _E, negate: bool) -> _E:
        """``a in b`` of strings: ``b.contains(a)`` (a substring; "" is in every string, as
        Spark's ``contains`` of ""). Python raises a TypeError on None either side, and on
        ``a`` other than a string."""
        if b.kind != "str":
            raise _Refuse("`in` of something other than a literal tuple, list or set or a string")
        if a.kind != "str":
            raise _Refuse(f"`in` of a {a.kind} in a string (Python raises)")
        a, b = self._nonnull(a, "`in`"), self._nonnull(b, "`in`")
        found = f"{_receiver(b)}.contains({_arg(a) if a.literal is _NOLIT else repr(a.literal)})"
        return _E(f"~{found}" if negate else found, "boolean", prec=_UNARY if negate else _ATOM,
                  raises=a.raises or b.raises)

    def truth(self, e: _E) -> _E:
        """Python's truth value of ``e`` as a non-null boolean Column."""
        if e.literal is not _NOLIT:
            return _literal(bool(e.literal))
        k = e.kind
        if k == "bool":
            t = e
        elif k == "int":
            t = _binop(e, "!=", _literal(0), _CMP, "boolean")
        elif k == "float":
            t = _binop(e, "!=", _literal(0.0), _CMP, "boolean")  # NaN is true in both
        elif k == "str":
            t = _E(f"F.length({_arg(e)}) > 0", "boolean", prec=_CMP, raises=e.raises)
        else:
            raise _Refuse(f"the truth value of a {k}")
        if e.nullable:
            return _E(f"F.coalesce({t.code}, F.lit(False))", "boolean", raises=t.raises)
        return replace(t, nullable=False)

    def _bool(self, e: _E, what: str) -> _E:
        if e.kind != "bool" or e.nullable:
            raise _Refuse(f"`{what}` of a non-boolean (Python returns an operand)")
        return e

    def _and(self, a: _E, b: _E) -> _E:
        if b.raises:  # Python does not evaluate b when a is false: neither must Spark
            return _E(f"F.when({a.code}, {b.code}).otherwise(False)", "boolean", raises=True)
        return _binop(a, "&", b, _AND, "boolean")

    def _or(self, a: _E, b: _E) -> _E:
        if b.raises:
            return _E(f"F.when({a.code}, True).otherwise({b.code})", "boolean", raises=True)
        return _binop(a, "|", b, _OR, "boolean")

    def _BooleanOperation(self, node) -> _E:
        op = type(node.operator).__name__
        a = self._bool(self.expr(node.left), op.lower())
        b = self._bool(self.expr(node.right), op.lower())
        if a.literal is not _NOLIT or b.literal is not _NOLIT:
            raise _Refuse(f"`{op.lower()}` with a constant")
        return self._and(a, b) if op == "And" else self._or(a, b)

    def _test(self, node) -> _E:
        """The truth value of ``node`` where only it is used (a filter's result, a condition,
        ``not``'s operand): there ``a and b``/``a or b`` of any values is the truth of ``a`` and/or
        of ``b`` (Python's operand has the same truth value), ``b`` evaluated only when Python
        evaluates it."""
        if isinstance(node, cst.BooleanOperation):
            op = type(node.operator).__name__
            a, b = self._test(node.left), self._test(node.right)
            if a.literal is not _NOLIT or b.literal is not _NOLIT:
                raise _Refuse(f"`{op.lower()}` with a constant")
            return self._and(a, b) if op == "And" else self._or(a, b)
        if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Not):
            return self.expr(node)
        return self.truth(self.expr(node))

    def _IfExp(self, node, root) -> _E:
        cond = self._test(node.test)
        yes, no = self.expr(node.body, root), self.expr(node.orelse, root)
        t = self._common_type(yes, no)
        nullable = yes.nullable or no.nullable or yes.type == "null" or no.type == "null"
        rng = None
        if t in INT_RANGES:
            rs = [e.range for e in (yes, no) if e.range]
            rng = (min(r[0] for r in rs), max(r[1] for r in rs))
        return _E(f"F.when({cond.code}, {_arg(yes)}).otherwise({_arg(no)})", t, nullable=nullable, range=rng,
                  raises=cond.raises or yes.raises or no.raises, nan=yes.nan or no.nan)

    def _common_type(self, a: _E, b: _E) -> str:
        if a.type == "null":
            return b.type
        if b.type == "null":
            return a.type
        if a.kind != b.kind:
            raise _Refuse(f"branches of a {a.kind} and a {b.kind} (Python keeps each type)")
        if a.kind == "int":
            return _wider_int(a.type, b.type)
        return a.type

    # ---- calls ---------------------------------------------------------------------------
    def _Call(self, node, root) -> _E:
        if any(a.star for a in node.args):
            raise _Refuse("a call with *args")
        if isinstance(node.func, cst.Name):
            name = node.func.value
            if name in self.shadowed or name in self.env or name == self.param:
                raise _Refuse(f"{name}() is the program's own")
            handler = getattr(self, f"_call_{name}", None)
            if handler is None or any(a.keyword for a in node.args) and name != "round":
                raise _Refuse(f"a call of {name}()")
            return handler([self.expr(a.value) for a in node.args], root)
        if isinstance(node.func, cst.Attribute):
            recv = self.expr(node.func.value)
            meth = node.func.attr.value
            if recv.kind != "str":
                raise _Refuse(f".{meth}() of a {recv.kind}")
            recv = self._nonnull(recv, f".{meth}()")
            handler = getattr(self, f"_str_{meth}", None)
            if handler is None or any(a.keyword for a in node.args):
                raise _Refuse(f"str.{meth}()")
            return handler(recv, [self.expr(a.value) for a in node.args])
        raise _Refuse("a call")

    def _call_len(self, args, root) -> _E:
        (s,) = _n(args, 1, "len")
        s = self._nonnull(s, "len()")
        if s.kind != "str":
            raise _Refuse(f"len() of a {s.kind}")
        return _E(f"F.char_length({_arg(s)})", "int", range=(0, 2**31 - 1), raises=s.raises)

    def _call_str(self, args, root) -> _E:
        (v,) = _n(args, 1, "str")
        v = self._nonnull(v, "str()", raises=False)
        if v.kind == "str":
            return v
        if v.kind != "int":
            raise _Refuse(f"str() of a {v.kind} (Python's text differs from Spark's)")
        return _E(f'{_receiver(v)}.cast("string")', "string", raises=v.raises)

    def _call_int(self, args, root) -> _E:
        (v,) = _n(args, 1, "int")
        v = self._nonnull(v, "int()")
        if v.kind == "int":
            return v
        if v.kind == "bool":
            return _E(f'{_receiver(v)}.cast("int")', "int", range=(0, 1), raises=v.raises)
        if v.kind == "float":
            # truncates toward zero in both; NaN/infinity raise in Python, fail Spark's ANSI cast
            return _E(f'{_receiver(v)}.cast("long")', "bigint", range=(-(2**1024), 2**1024), raises=True)
        if v.kind != "str":
            raise _Refuse(f"int() of a {v.kind}")
        # ANSI cast of a string fails the job on what it cannot read, but trims control
        # characters Python rejects: Python's value where the text is digits (ASCII) between
        # ASCII whitespace; else the job fails (Python raises, or accepts underscores and
        # Unicode digits or spaces Spark cannot match; past 64 bits the cast fails)
        return self._parsed(v, _INT_TEXT, "long", "bigint", "int()", range=INT_RANGES["bigint"])

    def _call_float(self, args, root) -> _E:
        (v,) = _n(args, 1, "float")
        v = self._nonnull(v, "float()")
        if v.kind == "float":
            return v
        if v.kind == "int":
            return _as_double(v)
        if v.kind != "str":
            raise _Refuse(f"float() of a {v.kind}")
        # decimal text, rounded to the nearest double by both; Spark's cast also reads '1d'
        # and Python 'nan', 'inf', '1_0': those fail the job
        return replace(self._parsed(v, _FLOAT_TEXT, "double", "double", "float()"), nan=False)

    def _parsed(self, v: _E, pattern: str, cast: str, type_: str, what: str, range=None) -> _E:
        """``v`` read by Spark's cast where it matches ``pattern``, else the job fails."""
        msg = f"ValueError: {what} of a text Spark does not read as Python does"
        return _E(f"F.when({_receiver(v)}.rlike({_raw(pattern)}), {_receiver(v)}.cast(\"{cast}\"))"
                  f".otherwise(F.raise_error(F.lit({msg!r})))", type_, range=range, raises=True)

    def _call_abs(self, args, root) -> _E:
        (v,) = _n(args, 1, "abs")
        v = self._nonnull(v, "abs()")
        if v.kind == "float":
            return _E(f"F.abs({_arg(v)})", "double", raises=v.raises, nan=v.nan)
        if v.kind != "int":
            raise _Refuse(f"abs() of a {v.kind}")
        lo, hi = v.range
        r = (0 if lo <= 0 <= hi else min(abs(lo), abs(hi)), max(abs(lo), abs(hi)))
        v = self._widen(v, r, v.type)
        return _E(f"F.abs({_arg(v)})", v.type, range=r, raises=v.raises)

    def _call_min(self, args, root) -> _E:
        return self._minmax(args, "min")

    def _call_max(self, args, root) -> _E:
        return self._minmax(args, "max")

    def _minmax(self, args, which) -> _E:
        a, b = _n(args, 2, which)
        a, b = self._nonnull(a, f"{which}()"), self._nonnull(b, f"{which}()")
        if a.kind != b.kind or a.kind not in ("int", "float", "str"):
            raise _Refuse(f"{which}() of a {a.kind} and a {b.kind}")
        if a.kind == "float":
            # Python: min(a, b) is b if b < a else a (NaN compares false)
            test = self._compare(b, "LessThan" if which == "min" else "GreaterThan", a)
            return _E(f"F.when({test.code}, {_arg(b)}).otherwise({_arg(a)})", "double",
                      raises=a.raises or b.raises, nan=True)
        rng = None
        t = a.type if a.kind == "str" else _wider_int(a.type, b.type)
        if a.kind == "int":
            rng = ((min if which == "min" else max)(a.range[0], b.range[0]),
                   (min if which == "min" else max)(a.range[1], b.range[1]))
        fn = "least" if which == "min" else "greatest"
        return _E(f"F.{fn}({_arg(a)}, {_arg(b)})", t, range=rng, raises=a.raises or b.raises)

    def _call_round(self, args, root) -> _E:
        if len(args) != 1:
            raise _Refuse("round() with digits (Python rounds the binary value, Spark its decimal text)")
        (v,) = args
        v = self._nonnull(v, "round()")
        if v.kind == "int":
            return v
        if v.kind != "float":
            raise _Refuse(f"round() of a {v.kind}")
        # half to even in both; NaN/infinity raise in Python, fail Spark's ANSI cast
        return _E(f'F.bround({_arg(v)}, 0).cast("long")', "bigint", range=(-(2**1024), 2**1024), raises=True)

    # ---- strings -------------------------------------------------------------------------
    def _concat(self, parts: list[_E]) -> _E:
        flat = []
        for p in parts:
            if p.kind != "str":
                raise _Refuse(f"concatenation of a {p.kind}")
            flat.extend(p.concat or (_arg(p),))  # a + b + c: one F.concat
        if all(p.literal is not _NOLIT for p in parts):
            return _literal("".join(p.literal for p in parts))
        return _E(f"F.concat({', '.join(flat)})", "string", nullable=any(p.nullable for p in parts),
                  raises=any(p.raises for p in parts), concat=tuple(flat))

    # ---- string formatting: %, str.format, f-strings ---------------------------------------
    def _FormattedString(self, node) -> _E:
        if node.start.lower().startswith(("rf", "fr", "b")) or "r" in node.start.lower():
            raise _Refuse("a raw or bytes f-string")
        pieces = []
        for p in node.parts:
            if isinstance(p, cst.FormattedStringText):
                text = ast.literal_eval(node.end + p.value + node.end)  # its escapes, as Python reads them
                pieces.append(text.replace("{{", "{").replace("}}", "}"))
                continue
            if p.equal:
                raise _Refuse("an f-string with =")
            spec = ""
            for part in p.format_spec or ():
                if not isinstance(part, cst.FormattedStringText):
                    raise _Refuse("an f-string format spec with a field")
                spec += part.value
            pieces.append(self._format_field(self.expr(p.expression), p.conversion, spec))
        return self._formatted(pieces, plain=True)

    def _percent(self, fmt_node, args_node) -> _E:
        """``"..." % args`` of a literal format: ``F.format_string`` with Java's conversions where
        they give Python's text (see ``_PERCENT``)."""
        fmt = self.expr(fmt_node)
        if fmt.literal is _NOLIT or not isinstance(fmt.literal, str):
            raise _Refuse("%-formatting of a string that is not a literal")
        if isinstance(args_node, cst.Tuple):
            if any(not isinstance(el, cst.Element) for el in args_node.elements):
                raise _Refuse("a starred %-formatting argument")
            args = [self.expr(el.value) for el in args_node.elements]
        elif self._is_record(args_node) and self.shape.kind == "tuple":  # a tuple spreads (a Row is no tuple)
            args = [self._field(f) for f in self.shape.fields]
        else:
            args = [self.expr(args_node)]
        text = fmt.literal
        convs = list(_PERCENT.finditer(text))
        if text.count("%") != sum(m.group(0).count("%") for m in convs):
            raise _Refuse("a %-conversion other than %[flags][width][.precision]c (%(name)s, %*d, ...)")
        if sum(m.group(0) != "%%" for m in convs) != len(args):
            raise _Refuse("%-formatting with other than as many conversions as arguments (Python raises)")
        pieces, pos, args = [], 0, iter(args)
        for m in convs:
            pieces.append(text[pos:m.start()])
            pos = m.end()
            if m.group(0) == "%%":
                pieces.append("%")
                continue
            flags, width, prec, conv = m.group("flags"), m.group("width"), m.group("prec"), m.group("conv")
            pieces.append(self._percent_field(next(args), flags, width, prec, conv))
        pieces.append(text[pos:])
        return self._formatted(pieces, plain=False)

    def _percent_field(self, v: _E, flags: str, width: str, prec, conv: str):
        if v.literal is not _NOLIT:  # Python's own text, whatever the conversion
            return self._fold_text(lambda: f"%{flags}{width}{prec or ''}{conv}" % (v.literal,))
        if prec is not None or "#" in flags:
            raise _Refuse("a %-conversion with a precision or # (Java's differ)")
        if conv in "di":
            return self._numeric(v, "<" if "-" in flags else ">", "+" if "+" in flags else " " if " " in flags else "",
                                 "0" in flags, width)
        if conv != "s":
            raise _Refuse(f"%{conv} (Java's %{conv} differs from Python's: floats round the decimal text "
                          "half-up and spell NaN/Infinity, %x/%o of negatives are two's complement, %r is repr)")
        if set(flags) - {"-"}:
            raise _Refuse("%s with the flags +, space or 0")
        return self._text(v, "<" if "-" in flags else ">", width)

    def _str_format(self, s: _E, args) -> _E:
        if s.literal is _NOLIT:
            raise _Refuse("str.format() of a string that is not a literal")
        import string

        pieces, auto, numbering = [], 0, set()
        try:
            parsed = list(string.Formatter().parse(s.literal))
        except ValueError:
            raise _Refuse("a format string Python rejects")
        for text, name, spec, conv in parsed:
            pieces.append(text)
            if name is None:
                continue
            if name == "":
                i, auto = auto, auto + 1
                numbering.add("auto")
            elif name.isdigit():
                i = int(name)
                numbering.add("manual")
            else:
                raise _Refuse("a str.format() field other than {} or {0}")
            if i >= len(args) or "{" in spec:
                raise _Refuse("a str.format() field without an argument, or a nested spec (Python raises)")
            pieces.append(self._format_field(args[i], conv, spec))
        if len(numbering) > 1:
            raise _Refuse("str.format() of automatic and manual field numbers (Python raises)")
        return self._formatted(pieces, plain=False)

    def _format_field(self, v: _E, conv, spec: str):
        """A replacement field ``{v!conv:spec}`` (str.format, f-strings)."""
        if v.literal is not _NOLIT:
            lit = str(v.literal) if conv == "s" else v.literal
            if conv not in (None, "s"):
                raise _Refuse(f"!{conv} in a format field")
            return self._fold_text(lambda: format(lit, spec))
        if conv not in (None, "s"):
            raise _Refuse(f"!{conv} in a format field (repr: Python's quoting)")
        m = _FORMAT_SPEC.fullmatch(spec)
        if m is None:
            raise _Refuse(f"the format spec {spec!r} (fill characters, ^/= alignment, grouping, precision, "
                          "bases and floats are not Java's)")
        align, sign, zero, width, kind = m.group("align"), m.group("sign"), m.group("zero"), m.group("width"), m.group("type")
        sign = "" if sign == "-" else sign  # the default
        if zero and align:
            raise _Refuse("a 0-padded width with an alignment (Python pads with 0 on that side)")
        if conv == "s" or spec and v.kind == "str":
            if spec:
                v = self._nonnull(v, "a format spec") if conv is None else v  # None.__format__ raises
            if sign or zero or kind == "d":
                raise _Refuse("a numeric format spec of a string (Python raises)")
            return self._text(v, align or "<", width)
        if not spec:
            return self._text(v, "<", "")  # format(x, "") is str(x)
        v = self._nonnull(v, "a format spec")  # None.__format__ raises on a spec
        if kind == "s" or v.kind not in ("int", "bool"):
            raise _Refuse(f"a format field of a {v.kind} with the spec {spec!r}")
        return self._numeric(v, align or ">", sign, bool(zero), width)

    def _fold_text(self, fn) -> str:
        try:
            return fn()
        except Exception as exc:  # noqa: BLE001 - Python raises on every record
            raise _Refuse(f"a format of a literal that raises {type(exc).__name__}")

    def _numeric(self, v: _E, align: str, sign: str, zero: bool, width: str):
        """An int (a bool as 0/1) formatted as Python's ``%d``/``{:d}``: Java's ``%d`` with the
        same flags (-, +, space, 0 with a width) gives the same text. None: Python raises."""
        v = self._nonnull(v, "a %d or {:d}")
        if v.kind == "bool":
            v = _E(f'{_receiver(v)}.cast("int")', "int", range=(0, 1), raises=v.raises)
        if v.kind != "int":
            raise _Refuse(f"a numeric format of a {v.kind} (floats: Java rounds the decimal text half-up, "
                          "spells NaN and Infinity; Python rounds the binary value)")
        flags = (("-" if align == "<" else "0" if zero else "") if width else "") + sign
        return (f"%{flags}{width}d", v)

    def _text(self, v: _E, align: str, width: str):
        """``str(v)`` padded to ``width`` (Python counts code points; Java's ``%5s`` UTF-16
        units: only ASCII texts, those of ints, bools and None, are padded by Java)."""
        if v.type == "null":
            return format("None", f"{align}{width}")
        if v.kind == "int" and not v.nullable:
            return self._numeric(v, align, "", False, width)
        if v.kind == "str":
            if width:
                raise _Refuse("a width of a string (Java pads by UTF-16 units, Python by code points)")
            code = v.code if not v.nullable else f'F.coalesce({v.code}, F.lit("None"))'
        elif v.kind == "int":
            code = f'F.coalesce({_receiver(v)}.cast("string"), F.lit("None"))'
        elif v.kind == "bool":
            code = f'F.when({v.code}, F.lit("True")).otherwise(F.lit("False"))'
            if v.nullable:
                code = f'F.when({_receiver(v)}.isNull(), F.lit("None")).otherwise({code})'
        else:
            raise _Refuse(f"the text of a {v.kind} (Python's float repr differs from Spark's)")
        flags = "-" if width and align == "<" else ""
        return (f"%{flags}{width}s", _E(code, "string", raises=v.raises))

    def _formatted(self, pieces: list, plain: bool) -> _E:
        """Literal texts and (Java conversion, value) fields -> one string Column: the texts
        folded; ``F.concat`` for an f-string of plain fields (``plain``), else ``F.format_string``."""
        fields = [p for p in pieces if not isinstance(p, str)]
        if not fields:
            return _literal("".join(pieces))
        if plain and all(spec in ("%s", "%d") for spec, _ in fields):
            parts = []
            for p in pieces:
                if isinstance(p, str):
                    if p:
                        parts.append(_literal(p))
                elif p[1].kind == "int":
                    parts.append(_E(f'{_receiver(p[1])}.cast("string")', "string", raises=p[1].raises))
                else:
                    parts.append(p[1])
            return self._concat(parts)
        fmt = "".join(p.replace("%", "%%") if isinstance(p, str) else p[0] for p in pieces)
        args = ", ".join(_arg(v) for _, v in fields)
        return _E(f"F.format_string({fmt!r}, {args})", "string", raises=any(v.raises for _, v in fields))

    def _str_upper(self, s: _E, args) -> _E:
        _n(args, 0, "upper")
        self._case_note("upper")
        return _E(f"F.upper({_arg(s)})", "string", raises=s.raises)

    def _str_lower(self, s: _E, args) -> _E:
        _n(args, 0, "lower")
        self._case_note("lower")
        return _E(f"F.lower({_arg(s)})", "string", raises=s.raises)

    def _case_note(self, method: str):
        differs = ("55 characters map differently (unassigned in 14.0, and ƛ ɤ ꟓ ꟕ)" if method == "upper" else
                   "characters unassigned in 14.0 (and ʕ, U+1171E) map or count as cased differently, and so may a Σ "
                   "beside them (σ or ς)")
        note = f"str.{method}() as F.{method}: Spark's case mapping follows a newer Unicode than Python 3.11's (14.0): {differs}"
        if note not in self.notes:
            self.notes.append(note)

    def _str_strip(self, s: _E, args) -> _E:
        if not args:
            chars = PY_WHITESPACE
        else:
            (c,) = _n(args, 1, "strip")
            if c.kind != "str" or c.literal is _NOLIT:
                raise _Refuse("strip() of non-literal characters")
            chars = c.literal
        return _E(f"F.btrim({_arg(s)}, {_lit_code(chars)})", "string", raises=s.raises)

    def _str_startswith(self, s: _E, args) -> _E:
        return self._affix(s, args, "startswith")

    def _str_endswith(self, s: _E, args) -> _E:
        return self._affix(s, args, "endswith")

    def _affix(self, s: _E, args, meth) -> _E:
        (p,) = _n(args, 1, meth)
        if p.kind != "str" or p.nullable:
            raise _Refuse(f"{meth}() of a non-string")
        col_meth = "startswith" if meth == "startswith" else "endswith"
        return _E(f"{_receiver(s)}.{col_meth}({_arg(p) if p.literal is _NOLIT else repr(p.literal)})",
                  "boolean", raises=s.raises or p.raises)

    def _split_call(self, node: cst.Call) -> bool:
        return isinstance(node.func, cst.Attribute) and node.func.attr.value == "split"

    def _str_split(self, s, args) -> _E:
        raise _Refuse("split() other than split(sep)[i]")

    def _split_index(self, call: cst.Call, idx: _E) -> _E:
        s = self._nonnull(self.expr(call.func.value), "split()")
        if s.kind != "str":
            raise _Refuse(f".split() of a {s.kind}")
        if not 1 <= len(call.args) <= 2 or call.args[0].keyword or len(call.args) == 2 and (
                call.args[1].keyword is not None and call.args[1].keyword.value != "maxsplit"):
            raise _Refuse("split() without one separator (whitespace splitting)")
        sep = self.expr(call.args[0].value)
        if sep.kind != "str" or sep.literal is _NOLIT or sep.literal == "":
            raise _Refuse("split() of a non-literal or empty separator")
        # split(sep, maxsplit): at most maxsplit + 1 items, the last one the rest of the string, as
        # Spark's split with limit maxsplit + 1 (> 0) gives; -1 (Python's default): every item
        limit = -1
        if len(call.args) == 2:
            most = self.expr(call.args[1].value)
            if most.kind != "int" or most.literal is _NOLIT or most.literal < -1:
                raise _Refuse("split(sep, maxsplit) of a non-literal maxsplit")
            limit = most.literal + 1 if most.literal >= 0 else -1
        if idx.kind != "int" or idx.literal is _NOLIT:
            raise _Refuse("split(sep)[i] of a non-literal index")
        i = idx.literal
        pattern = _java_quote(sep.literal)
        # element_at is 1-based and counts negatives from the end; out of range fails (ANSI) as Python raises
        return _E(f"F.element_at(F.split({_arg(s)}, {pattern!r}, {limit}), {i + 1 if i >= 0 else i})", "string",
                  raises=True)

    def _char_at(self, s: _E, idx: _E) -> _E:
        if idx.kind != "int" or idx.literal is _NOLIT:
            raise _Refuse("a string index that is not a literal")
        i = idx.literal
        n = f"F.char_length({_arg(s)})"
        # out of range: Python raises IndexError; fail the job with Spark's raise_error
        ok = f"{n} > {i}" if i >= 0 else f"{n} >= {-i}"
        pos = i + 1 if i >= 0 else i
        return _E(f'F.when({ok}, F.substring({_arg(s)}, {pos}, 1)).otherwise(F.raise_error(F.lit("string index out of range")))',
                  "string", raises=True)

    def _slice(self, s: _E, sl: cst.Slice) -> _E:
        if sl.step is not None:
            raise _Refuse("a slice with a step")
        bounds = []
        for part in (sl.lower, sl.upper):
            if part is None:
                bounds.append(None)
                continue
            b = self.expr(part)
            if b.kind != "int" or b.literal is _NOLIT:
                raise _Refuse("a slice bound that is not a literal")
            bounds.append(b.literal)
        a, b = bounds
        sa = _arg(s)
        if (a is None or a >= 0) and (b is None or b >= 0):
            start = a or 0
            if b is None:
                return _E(f"F.substr({sa}, F.lit({start + 1}))", "string", raises=s.raises)
            return _E(f"F.substring({sa}, {start + 1}, {max(b - start, 0)})", "string", raises=s.raises)
        # a negative bound counts from the end, clamped at 0 (Python's slice.indices)
        n = f"F.char_length({sa})"

        def bound(v, default):
            if v is None:
                return default
            return f"F.lit({v})" if v >= 0 else f"F.greatest({n} - {-v}, F.lit(0))"

        lo, hi = bound(a, "F.lit(0)"), bound(b, n)
        return _E(f"F.substr({sa}, {lo} + 1, F.greatest({hi} - {lo}, F.lit(0)))", "string", raises=s.raises)


# a %-conversion: %% or %[flags][width][.precision]conversion (no mapping key, no *)
_PERCENT = re.compile(r"%%|%(?P<flags>[-+ #0]*)(?P<width>[0-9]*)(?P<prec>\.[0-9]*)?(?P<conv>[a-zA-Z])")
# a format spec Java's %d/%s reproduce: no fill, < or > alignment, sign, 0, width, d or s
_FORMAT_SPEC = re.compile(r"(?P<align>[<>]?)(?P<sign>[-+ ]?)(?P<zero>0?)(?P<width>[0-9]*)(?P<type>[ds]?)")


def _n(args, n, name):
    if len(args) != n:
        raise _Refuse(f"{name}() of {len(args)} arguments")
    return args


def _arg(e: _E) -> str:
    """``e`` as an argument of an F function (literals as F.lit)."""
    return e.code


def _sql(e: _E) -> Optional[str]:
    """SQL text of a field or a literal integer, else None."""
    if e.literal is not _NOLIT:
        return repr(e.literal) if isinstance(e.literal, int) and not isinstance(e.literal, bool) else None
    m = re.fullmatch(r'F\.col\("([A-Za-z_][A-Za-z0-9_]*)"\)', e.code)
    return f"`{m.group(1)}`" if m else None


def _yield_of(stmt) -> Optional[cst.Yield]:
    if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Expr):
        value = stmt.body[0].value
        return value if isinstance(value, cst.Yield) else None
    return None


def _raw(pattern: str) -> str:
    """A regex as a raw string literal (its backslashes are the regex's)."""
    return f'r"{pattern}"'


def _java_quote(s: str) -> str:
    """A Java regex matching the literal text ``s`` (Spark's split takes a pattern)."""
    special = set("\\^$.|?*+()[]{}")
    return "".join("\\" + c if c in special else c for c in s)


def translate(function: Union[cst.Lambda, cst.FunctionDef], shape: Shape, *,
              predicate: bool = False, checked: bool = False,
              qualified: Optional[Callable[[cst.CSTNode], Optional[str]]] = None,
              shadowed: frozenset[str] = frozenset()) -> Union[Translation, Refusal]:
    """``function`` over records of ``shape`` -> Column code, or why not.

    ``predicate``: a filter function (the result is Python's truth value of what it returns).
    ``checked``: the result is declared an integer type whose overflow fails the Flink job
    (an ``output_type``): a result whose range passes 64 bits is kept, and the caller casts it
    to the declared type (ANSI: out of range fails the Spark job too). ``qualified`` gives the
    qualified name of a name as imported (for ``Row``); ``shadowed``: builtins the program
    rebinds (``len``, ``str``...), which are then not Python's."""
    t = _Translator(shape, qualified, checked, shadowed)
    try:
        t.is_predicate = predicate
        return t.function(function)
    except _Refuse as r:
        return Refusal(str(r))


def translate_flat(function: Union[cst.Lambda, cst.FunctionDef], shape: Shape, *, checked: bool = False,
                   qualified: Optional[Callable[[cst.CSTNode], Optional[str]]] = None,
                   shadowed: frozenset[str] = frozenset(), single: bool = False) -> Union[FlatTranslation, Refusal]:
    """A ``flat_map`` function over records of ``shape`` -> the array Column of its items and
    the Columns of the record made of each item, or why not (arguments as ``translate``).
    ``single``: a def whose one ``yield E`` ends it (after assignments) gives a translation
    with no items (``single``): one record per record, its Columns those of ``E``."""
    t = _Translator(shape, qualified, checked, shadowed)
    t.single = single
    try:
        return t.flat_function(function)
    except _Refuse as r:
        return Refusal(str(r))


# Column functions that evaluate every argument (the others may skip the arguments after the
# first: F.when's value, F.coalesce's fallbacks, a null-intolerant function's second operand
# when the first is NULL).
_EVALUATES_ALL = frozenset({"concat", "format_string", "array", "greatest", "least"})


def _reads_always(code: str, column: str) -> bool:
    """Whether the Column ``code`` evaluates ``column`` on every record: it is reached from the
    root through operands Spark evaluates first (the receiver of a method, the first argument of
    a function, ``F.when``'s first condition, a subscript's array, the left of an operator) or
    arguments of a function that evaluates all of them. Conservative: False when unsure."""
    target = ast.dump(ast.parse(column, mode="eval").body)

    def always(node) -> bool:
        if ast.dump(node) == target:
            return True
        if isinstance(node, ast.Subscript):
            return always(node.value)
        if isinstance(node, ast.UnaryOp):
            return always(node.operand)
        if isinstance(node, ast.BinOp):
            return always(node.left)
        if isinstance(node, ast.Compare):
            return always(node.left)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            f = node.func
            if isinstance(f.value, ast.Name) and f.value.id == "F":  # F.fn(args)
                if f.attr in _EVALUATES_ALL:
                    return any(always(a) for a in node.args)
                return bool(node.args) and not isinstance(node.args[0], ast.Lambda) and always(node.args[0])
            return always(f.value)  # a method: its receiver (.otherwise/.when: not their arguments)
        return False

    return always(ast.parse(code, mode="eval").body)


def hoist_split(found: Translation, codes: Sequence[str], taken: Collection[str]
                ) -> Optional[tuple[tuple[tuple[str, str], ...], tuple[str, ...]]]:
    """The split of ``a, b, c = s.split(sep)`` computed once, for a caller that can add columns
    before its ``select``: ((name, code) of the columns to add in order, the ``codes`` reading
    them), or None (no single unpacked split, or codes not of its outputs' form).

    ``codes`` are the outputs' Columns (as the caller has them: cast to a declared type...). The
    first column is the items array, the second the same array checked once: it fails the job
    when the count of items differs (Python's ValueError). A Column that evaluates that array on
    every record (``parts[0]``, ``F.when(parts[3].rlike(...), ...)``) fails the job as Python
    does: its own ``F.when(F.size(items) == n, ...)`` guard goes and it reads ``F.col(name)[i]``;
    one that reads it only under a condition, or not at all, keeps its guard over the column.
    ``name`` is the first of parts, _parts, _f2s_parts not in ``taken`` (the frame's columns)."""
    if len(found.splits) != 1:
        return None
    split = found.splits[0]
    name = next((n for n in ("parts", "_parts", "_f2s_parts") if n not in taken), None)
    if name is None:
        return None
    col = f'F.col("{name}")'
    prefix, suffix = f"F.when({split.check}, ", f").otherwise({split.fail})"
    out = []
    for code in codes:
        if code.count(prefix) != 1 or code.count(suffix) != 1:
            return None
        i, j = code.index(prefix), code.index(suffix)
        if j < i:
            return None
        body = code[i + len(prefix):j]
        try:
            ast.parse(body, mode="eval")
        except SyntaxError:
            return None
        if i == 0 and j + len(suffix) == len(code):
            bare = body
        else:
            bare = code[:i] + (body if _is_atom(body) else f"({body})") + code[j + len(suffix):]
        bare = bare.replace(split.items, col)
        out.append(bare if _reads_always(bare, col) else code.replace(split.items, col))
    steps = ((name, split.items), (name, f"F.when(F.size({col}) == {split.count}, {col}).otherwise({split.fail})"))
    return steps, tuple(out)


def _is_atom(code: str) -> bool:
    node = ast.parse(code, mode="eval").body
    return isinstance(node, (ast.Call, ast.Attribute, ast.Name, ast.Subscript, ast.Constant))
