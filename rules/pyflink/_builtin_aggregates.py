"""A PyFlink ``AggregateFunction`` class recognised as Spark's built-in aggregates (issue 14).

Read from the class body (libcst), one case per accumulator field; ``aggregate_function``
returns the ``agg(...)`` Columns and the Columns of ``get_result`` over them, or why not (the
window then runs the user's class per (key, window), ``_event_windows``). ``then_process``
does the same for a ``ProcessWindowFunction`` given the one result of such an aggregate.

The cases (``tests/test_builtin_aggregates.py`` runs each on Spark against the class run in
Python):

==============================  ==============================  ===========================
``add`` gives for field i       ``merge`` (when there is one)   Spark
==============================  ==============================  ===========================
``acc[i] + 1`` (an int k)       ``a[i] + b[i]``                 ``F.count('*')`` (``* k``)
``acc[i] + E`` (E of value)     ``a[i] + b[i]``                 ``F.sum(E)``
``max(acc[i], E)``              ``max(a[i], b[i])``             ``F.greatest(init, F.max(E))``
``min(acc[i], E)``              ``min(a[i], b[i])``             ``F.least(init, F.min(E))``
``acc[i]``                      ``a[i]`` or ``b[i]``            ``F.lit(init)``
==============================  ==============================  ===========================

``acc[i]`` may be a name the accumulator is unpacked into first (``n, total = acc``). The
accumulator is integer literals (a tuple of them or one): every E must be an integer
expression of the record (``python_columns``), never None. Exactness:

* Order: sums, counts, max and min of integers do not depend on the order of the records
  (Flink adds in arrival order, Spark in none), unlike float sums (refused: the last bits
  depend on the order) and float max/min (Python's ``max`` with NaN depends on the order).
* Overflow: Python's ints do not overflow; Spark's ``sum``/``count`` are BIGINT and, in ANSI
  mode (Spark 4's default), fail the job when a sum passes 64 bits. Flink keeps a declared
  ``accumulator_type``/``output_type`` of ``Types.LONG()`` in 64 bits too (its serializer fails
  the job), so both fail; a sum that passes 64 bits and comes back (negative values) fails the
  Spark job where a pickled Python accumulator would not: a failed job, never another value.
* Initial values: ``init + sum``, ``max(init, max)``. Session windows merge accumulators
  (``merge``, in Flink's order): exact only when ``merge`` is the field's combination and a
  sum/count starts at 0 (otherwise each merged accumulator adds its initial value again):
  ``Aggregates.mergeable`` says so.
* ``get_result``: a Column expression of the accumulator's fields (``python_columns``: the
  accumulator itself, a field, a tuple of them, arithmetic). ``acc[0] / acc[1]`` of two
  BIGINT fields is refused there (Python's int / int is correctly rounded, a double division
  of longs past 2**53 is not).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Union

import libcst as cst

from flink2spark.transpiler import python_columns as PC
from flink2spark.transpiler.visitors import nodes

_INTEGERS = ("tinyint", "smallint", "int", "bigint")
WINDOW_START = "__f2s_window_start__"  # placeholder fields of then_process, replaced in the code
WINDOW_END = "__f2s_window_end__"


@dataclass(frozen=True)
class Aggregates:
    """Built-in aggregates per (key, window): ``columns`` for ``agg(...)`` (aliased), then
    ``result`` Columns over them, in the order of the values the function gives."""

    columns: tuple[str, ...]
    result: tuple[PC.Output, ...]
    tuple: bool  # the function's result is a tuple (one Column per field)
    mergeable: bool = True  # session windows: merging accumulators gives the same result


def _methods(cls: cst.ClassDef) -> dict[str, cst.FunctionDef]:
    return {s.name.value: s for s in cls.body.body if isinstance(s, cst.FunctionDef)}


def _statements(method: cst.FunctionDef) -> Optional[list[cst.BaseSmallStatement]]:
    """The simple statements of a method body (its docstring left out), or None."""
    if method.decorators or method.asynchronous or not isinstance(method.body, cst.IndentedBlock):
        return None
    found = []
    for i, s in enumerate(method.body.body):
        if not isinstance(s, cst.SimpleStatementLine):
            return None
        for small in s.body:
            if i == 0 and isinstance(small, cst.Expr) and isinstance(small.value, (cst.SimpleString, cst.ConcatenatedString)):
                continue
            found.append(small)
    return found


def _params(method: cst.FunctionDef, count: int) -> Optional[list[str]]:
    p = method.params
    if len(p.params) != count or p.posonly_params or p.kwonly_params or isinstance(p.star_arg, cst.Param) or p.star_kwarg:
        return None
    if any(x.default is not None for x in p.params):
        return None
    return [x.name.value for x in p.params]


def _returned(method: cst.FunctionDef, params: int):
    """(returned expression, parameter names, names the accumulator is unpacked into) of a
    method that is ``return EXPR``, optionally after ``a, b = <last parameter>``."""
    names, body = _params(method, params), _statements(method)
    if names is None or not body or not isinstance(body[-1], cst.Return) or body[-1].value is None:
        return None
    unpacked: Optional[list[str]] = None
    if len(body) == 2:
        s = body[0]
        if not (isinstance(s, cst.Assign) and len(s.targets) == 1 and isinstance(s.targets[0].target, (cst.Tuple, cst.List))
                and isinstance(s.value, cst.Name) and s.value.value == names[-1]):
            return None
        elements = s.targets[0].target.elements
        if not all(isinstance(e, cst.Element) and isinstance(e.value, cst.Name) for e in elements):
            return None
        unpacked = [e.value.value for e in elements]
        if len(set(unpacked)) != len(unpacked) or set(unpacked) & set(names):
            return None
    elif len(body) != 1:
        return None
    return body[-1].value, names, unpacked


def _parts(node: cst.BaseExpression) -> list[cst.BaseExpression]:
    return [e.value for e in node.elements] if isinstance(node, cst.Tuple) else [node]


def _int_literal(node) -> Optional[int]:
    if isinstance(node, cst.Integer):
        return int(node.evaluated_value)
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus) and isinstance(node.expression, cst.Integer):
        return -int(node.expression.evaluated_value)
    return None


def _is_field(node, acc: str, index: Optional[int], unpacked: Optional[list[str]] = None) -> bool:
    """Whether ``node`` is field ``index`` of the accumulator ``acc`` (the accumulator when
    ``index`` is None): ``acc[i]`` or the name it was unpacked into."""
    if index is None:
        return isinstance(node, cst.Name) and node.value == acc
    if unpacked is not None:
        return isinstance(node, cst.Name) and index < len(unpacked) and node.value == unpacked[index]
    return (isinstance(node, cst.Subscript) and isinstance(node.value, cst.Name) and node.value.value == acc
            and len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index)
            and _int_literal(node.slice[0].slice.value) == index)


def _combination(part, is_acc) -> Optional[tuple[str, Optional[cst.BaseExpression]]]:
    """(how, E) of an ``add`` field: ("sum", E) for ``acc + E``, ("max"/"min", E), ("keep", None)."""
    if is_acc(part):
        return "keep", None
    if isinstance(part, cst.BinaryOperation) and isinstance(part.operator, cst.Add):
        if is_acc(part.left):
            return "sum", part.right
        if is_acc(part.right):
            return "sum", part.left
    if (isinstance(part, cst.Call) and isinstance(part.func, cst.Name) and part.func.value in ("max", "min")
            and len(part.args) == 2 and not any(a.keyword or a.star for a in part.args)):
        x, y = part.args[0].value, part.args[1].value
        if is_acc(x):
            return part.func.value, y
        if is_acc(y):
            return part.func.value, x
    return None


def _merges(merge: Optional[cst.FunctionDef], hows: list[str], single: bool) -> bool:
    """Whether ``merge(a, b)`` combines each field as ``add`` does (sum: ``a[i] + b[i]``...)."""
    found = _returned(merge, 3) if merge is not None else None
    if found is None or found[2] is not None:
        return False
    body, (_, a, b), _ = found
    parts = _parts(body)
    if isinstance(body, cst.Tuple) == single or len(parts) != len(hows):
        return False
    for i, (part, how) in enumerate(zip(parts, hows)):
        index = None if single else i
        if how == "keep":
            if not (_is_field(part, a, index) or _is_field(part, b, index)):
                return False
            continue
        both = _combination(part, lambda n: _is_field(n, a, index))
        other = _combination(part, lambda n: _is_field(n, b, index))
        want = "sum" if how in ("count", "sum") else how
        if not ((both and both[0] == want and _is_field(both[1], b, index))
                or (other and other[0] == want and _is_field(other[1], a, index))):
            return False
    return True


def _globals(node: cst.CSTNode, allowed: set[str]) -> set[str]:
    """Names read in ``node`` other than ``allowed`` and builtins' calls (attribute names excluded)."""
    attrs = {id(n.attr) for n in nodes(node, cst.Attribute)}
    calls = {id(c.func) for c in nodes(node, cst.Call) if isinstance(c.func, cst.Name)}
    return {n.value for n in nodes(node, cst.Name) if id(n) not in attrs and id(n) not in calls and n.value not in allowed
            and n.value not in ("None", "True", "False")}


def rebound_builtins(module: cst.Module) -> frozenset[str]:
    """``max``/``min`` when the module binds the name (a def, class, assignment or import): then
    not Python's."""
    bound = {n.name.value for kind in (cst.FunctionDef, cst.ClassDef) for n in nodes(module, kind)}
    bound |= {t.target.value for t in nodes(module, cst.AssignTarget) if isinstance(t.target, cst.Name)}
    for alias in nodes(module, cst.ImportAlias):
        target = alias.asname.name if alias.asname is not None else alias.name
        if isinstance(target, cst.Name):
            bound.add(target.value)
    return frozenset(bound & {"max", "min"})


def aggregate_function(cls: cst.ClassDef, shape: PC.Shape, qualified=None, checked: bool = False,
                       shadowed: frozenset[str] = frozenset()) -> Union[Aggregates, str]:
    """The built-in aggregates of an ``AggregateFunction`` class over records of ``shape``, or
    why not. ``checked``: the result is declared an integer type (``output_type``), whose
    overflow fails the Flink job as Spark's ANSI arithmetic fails it (``python_columns``);
    ``shadowed``: builtins the module rebinds (``rebound_builtins``)."""
    name = cls.name.value
    if shadowed:
        return f"{name}: the module rebinds {', '.join(sorted(shadowed))}"
    methods = _methods(cls)
    if not {"create_accumulator", "add", "get_result"} <= methods.keys() or {"open", "close", "__init__"} & methods.keys():
        return f"{name} is not a plain AggregateFunction"
    create, add, get = (_returned(methods[m], n) for m, n in (("create_accumulator", 1), ("add", 3), ("get_result", 2)))
    if create is None or add is None or get is None or create[2] is not None:
        return f"{name}: create_accumulator/add/get_result are not one return statement each"
    single = not isinstance(create[0], cst.Tuple)
    initial = [_int_literal(v) for v in _parts(create[0])]
    if None in initial:
        return f"{name}: the accumulator is not integer literals (a float sum depends on the order of the records)"
    value, acc, unpacked = add[1][1], add[1][2], add[2]
    added = _parts(add[0])
    if isinstance(add[0], cst.Tuple) == single or len(added) != len(initial) or (unpacked is not None and (single or len(unpacked) != len(initial))):
        return f"{name}.add() does not give an accumulator of the same form"
    columns, fields, hows = [], [], []
    for i, (start, part) in enumerate(zip(initial, added)):
        found = _combination(part, lambda n, i=i: _is_field(n, acc, None if single else i, unpacked))
        term = found[1] if found is not None else None
        if found is None or (term is not None and _globals(term, {value}) - {value}):
            return f"{name}.add(): accumulator field {i} is not a sum, count, max or min of an expression of the value"
        how, alias = found[0], f"acc{i}"
        if how == "keep":
            column, type_ = f"F.lit({start})", "bigint"
        elif how == "sum" and isinstance(term, cst.Integer):
            how = "count"
            column = "F.count('*')" + ("" if term.value == "1" else f" * {term.value}")
            column = column if start == 0 else f"F.lit({start}) + {column}"
            type_ = "bigint"
        else:
            lam = cst.Lambda(params=cst.Parameters(params=[cst.Param(cst.Name(value))]), body=term)
            found_e = PC.translate(lam, shape, qualified=qualified)
            if isinstance(found_e, PC.Refusal) or found_e.tuple or found_e.notes:
                return f"{name}.add(): accumulator field {i}: {getattr(found_e, 'reason', 'not an exact Column')}"
            out = found_e.outputs[0]
            if out.type not in _INTEGERS or out.nullable:
                return f"{name}.add(): accumulator field {i} is not an integer expression of the value that is never None"
            if how == "sum":
                column, type_ = f"F.sum({out.code})", "bigint"
                column = column if start == 0 else f"F.lit({start}) + {column}"
            else:
                type_ = out.type if _fits(start, out.type) else "bigint"
                column = f"F.{how}({out.code})"
                bound = "greatest" if how == "max" else "least"
                column = f"F.{bound}(F.lit({start}), {column})"
        columns.append(_aliased(column, alias))
        fields.append(PC.Field(alias, type_))
        hows.append(how)
    neutral = all(s == 0 for s, h in zip(initial, hows) if h in ("sum", "count"))
    mergeable = neutral and _merges(methods.get("merge"), hows, single)
    acc_shape = PC.Shape.value(fields[0]) if single else PC.Shape.tuple(*fields)
    if not single and isinstance(get[0], cst.Name) and get[0].value == get[1][1]:  # the accumulator itself
        outputs = tuple(PC.Output(f'F.col("{f.name}")', f.type, False, None, PC.INT_RANGES[f.type]) for f in fields)
        return Aggregates(tuple(columns), outputs, True, mergeable)
    getter = cst.Lambda(params=cst.Parameters(params=[cst.Param(cst.Name(get[1][1]))]), body=get[0])
    result = PC.translate(getter, acc_shape, qualified=qualified, checked=checked)
    if isinstance(result, PC.Refusal) or result.notes:
        return f"{name}.get_result(): {getattr(result, 'reason', 'approximate')}"
    return Aggregates(tuple(columns), result.outputs, result.tuple, mergeable)


def _fits(value: int, type_: str) -> bool:
    low, high = PC.INT_RANGES[type_]
    return low <= value <= high


def _aliased(code: str, name: str) -> str:
    from flink2spark.rules.pyflink._event_windows import aliased

    return aliased(code, name)


class _Substitute(cst.CSTTransformer):
    """Names and ``context.window().start``/``.end`` -> fields ``row[i]`` of a synthetic record."""

    def __init__(self, expr: cst.CSTNode, row: str, names: dict[str, int], context: str, bounds: dict[str, int]):
        self.row, self.names, self.context, self.bounds = row, names, context, bounds
        # names that are not variables: attribute names, keyword names
        self.labels = {id(a.attr) for a in nodes(expr, cst.Attribute)} | {id(a.keyword) for a in nodes(expr, cst.Arg) if a.keyword}

    def _field(self, i: int) -> cst.Subscript:
        return cst.Subscript(cst.Name(self.row), [cst.SubscriptElement(cst.Index(cst.Integer(str(i))))])

    def leave_Name(self, original, updated):
        if id(original) in self.labels or updated.value not in self.names:
            return updated
        return self._field(self.names[updated.value])

    def leave_Attribute(self, original, updated):
        call = original.value
        if (original.attr.value in self.bounds and isinstance(call, cst.Call) and not call.args
                and isinstance(call.func, cst.Attribute) and call.func.attr.value == "window"
                and isinstance(call.func.value, cst.Name) and call.func.value.value == self.context):
            return self._field(self.bounds[original.attr.value])
        return updated


def then_process(cls: cst.ClassDef, key: PC.Field, found: Aggregates, output: PC.Shape, qualified=None) -> Union[Aggregates, str]:
    """A ``ProcessWindowFunction`` whose ``process(self, key, context, elements)`` is
    ``for x in elements: yield EXPR`` (x a name or names unpacking the result), EXPR of the key,
    ``context.window().start``/``.end`` and the aggregate's result, run after the built-in
    aggregates ``found``: the Aggregates of its one record per window (``output``: its declared
    type), or why not. Flink calls it once per window with the one result: one record out."""
    name = cls.name.value
    methods = _methods(cls)
    if set(methods) - {"process"} or "process" not in methods:
        return f"{name} has methods other than process()"
    params, body = _params(methods["process"], 4), _statements_or_for(methods["process"])
    if params is None or body is None:
        return f"{name}.process() is not 'for x in elements: yield EXPR'"
    target, expr = body
    _, key_name, context, elements = params
    if isinstance(target, cst.Name):
        names = [target.value]
        if found.tuple:  # the whole tuple used as a value: only through its fields
            return f"{name}.process() uses the aggregate's result as a tuple"
    elif isinstance(target, (cst.Tuple, cst.List)) and all(isinstance(e, cst.Element) and isinstance(e.value, cst.Name) for e in target.elements):
        names = [e.value.value for e in target.elements]
        if not found.tuple or len(names) != len(found.result):
            return f"{name}.process() unpacks the result into another number of names"
    else:
        return f"{name}.process() unpacks the result into other than names"
    if len(set(names) | {key_name, context, elements}) != len(names) + 3:
        return f"{name}.process(): a name used twice"
    row = "_f2s_window_row"
    slots = {key_name: 0, **{n: 3 + i for i, n in enumerate(names)}}
    rewritten = expr.visit(_Substitute(expr, row, slots, context, {"start": 1, "end": 2}))
    if _globals(rewritten, {row}) or any(isinstance(n, cst.Name) and n.value in (context, elements, "self") for n in nodes(rewritten, cst.Name)):
        return f"{name}.process() reads other than the key, the window's bounds and the result"
    found = _renamed(found, names, {key.name, "window", WINDOW_START, WINDOW_END})
    results = [PC.Field(f"__f2s_result_{i}__", o.type, o.nullable) for i, o in enumerate(found.result)]
    shape = PC.Shape.tuple(key, PC.Field(WINDOW_START, "bigint"), PC.Field(WINDOW_END, "bigint"), *results)
    checked = any(f.type in _INTEGERS for f in output.fields)
    translated = PC.translate(cst.Lambda(params=cst.Parameters(params=[cst.Param(cst.Name(row))]), body=rewritten), shape,
                              qualified=qualified, checked=checked)
    if isinstance(translated, PC.Refusal) or translated.notes:
        return f"{name}.process(): {getattr(translated, 'reason', 'approximate')}"
    text = cst.Module(body=[]).code_for_node(expr)
    if any(p in text for p in (WINDOW_START, WINDOW_END, "__f2s_result_")):
        return f"{name}.process() spells a name the conversion uses"
    replacements = {f'F.col("{WINDOW_START}")': f'F.unix_millis(F.col("window.start"))',
                    f'F.col("{WINDOW_END}")': f'F.unix_millis(F.col("window.end"))'}
    for f, o in zip(results, found.result):
        replacements[f'F.col("{f.name}")'] = o.code if _simple(o.code) else f"({o.code})"
    outputs = []
    for out in translated.outputs:
        code = out.code
        for placeholder, real in replacements.items():
            code = code.replace(placeholder, real)
        outputs.append(PC.Output(code, out.type, out.nullable, out.name, out.range))
    return Aggregates(found.columns, tuple(outputs), translated.tuple, found.mergeable)


def _renamed(found: Aggregates, names: list[str], taken: set[str]) -> Aggregates:
    """The aggregates named as the loop unpacks them (``for rides, total in elements``) where
    each result is one aggregate as it is: ``F.count('*').alias('rides')``."""
    columns = list(found.columns)
    plain = [next((j for j in range(len(columns)) if o.code == f'F.col("acc{j}")'), None) for o in found.result]
    if len(names) != len(plain) or None in plain or len(set(plain)) != len(plain) or set(names) & taken:
        return found
    if any(n.startswith("acc") or not n.isidentifier() for n in names):
        return found
    result = []
    for name, j, out in zip(names, plain, found.result):
        columns[j] = columns[j][: -len(f".alias('acc{j}')")] + f".alias({name!r})"
        result.append(PC.Output(f'F.col("{name}")', out.type, out.nullable, out.name, out.range))
    return Aggregates(tuple(columns), tuple(result), found.tuple, found.mergeable)


def _simple(code: str) -> bool:
    import ast

    return isinstance(ast.parse(code, mode="eval").body, (ast.Call, ast.Attribute, ast.Name))


def _statements_or_for(method: cst.FunctionDef):
    """(target, EXPR) of a body that is ``for target in <elements>: yield EXPR`` (a docstring
    before it), or None."""
    if method.decorators or method.asynchronous or not isinstance(method.body, cst.IndentedBlock):
        return None
    body = list(method.body.body)
    if body and isinstance(body[0], cst.SimpleStatementLine) and len(body[0].body) == 1 and isinstance(body[0].body[0], cst.Expr) \
            and isinstance(body[0].body[0].value, (cst.SimpleString, cst.ConcatenatedString)):
        body = body[1:]
    elements = method.params.params[-1].name.value if method.params.params else None
    if len(body) != 1 or not isinstance(body[0], cst.For) or body[0].orelse is not None or body[0].asynchronous:
        return None
    loop = body[0]
    if not (isinstance(loop.iter, cst.Name) and loop.iter.value == elements):
        return None
    inner = loop.body.body if isinstance(loop.body, cst.IndentedBlock) else []
    if not (len(inner) == 1 and isinstance(inner[0], cst.SimpleStatementLine) and len(inner[0].body) == 1
            and isinstance(inner[0].body[0], cst.Expr) and isinstance(inner[0].body[0].value, cst.Yield)):
        return None
    value = inner[0].body[0].value.value
    if value is None or isinstance(value, cst.From):
        return None
    return loop.target, value
