"""Python scalar functions of the Table API -> Spark's:

- ``@udf(result_type=DataTypes.BIGINT())`` on a def, or ``udf(f, result_type=...)`` of a def or
  a lambda -> ``@F.udf(returnType="BIGINT")`` / ``F.udf(f, "BIGINT")``: both call the Python
  function row by row with Python values (None for NULL) and convert its result to the type.
- ``func_type="pandas"`` -> ``F.pandas_udf("BIGINT")``: both call it with pandas Series of a
  batch of rows and take a Series back.
- ``udf(MyScalarFunction(), result_type=...)`` of a ``ScalarFunction`` class (its base
  dropped) -> ``F.udf(MyScalarFunction().eval, ...)``; a class with ``open()``/``close()`` is
  left with a TODO (Spark's UDFs have no such calls).
- ``input_types``, ``deterministic`` and ``name`` are dropped (Spark takes the arguments'
  types as they are).
- ``t_env.create_temporary_system_function("name", f)``, ``create_temporary_function`` and
  the legacy ``register_function`` -> ``spark.udf.register("name", f)`` (for SQL).

Calls of a converted function in Table expressions (``add(col("a"), col("b"))``) translate
to calls of the Spark UDF (``_expressions``, from the program model's ``functions``).
Table functions: rule ``udtf``; aggregate functions: rule ``udaf``.
"""

import re

import libcst as cst

from flink2spark.rules.pyflink._common import call_arg
from flink2spark.rules.table import _types as TY
from flink2spark.rules.table._common import UNTRANSLATABLE, qualified, program, spark_program, use
from flink2spark.rules.table._program import tables
from flink2spark.transpiler import functions as F_
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule

REGISTER = ("create_temporary_system_function", "create_temporary_function", "register_function")

rule = Rule(
    __name__,
    matches=["flink.udf",
             *[f"TableEnvironment.{m}" for m in REGISTER]],
    summary="@udf/udf(f) (general and pandas) -> F.udf/F.pandas_udf; function registration -> spark.udf.register",
    codes=(M.TB_UNSUPPORTED, M.TB_EXPRESSION),
    examples=[
        Example(
            program(
                "\n\n@udf(result_type=DataTypes.BIGINT())\ndef twice(x):\n    return x * 2\n\n\n"
                "t_env.create_temporary_system_function('twice', twice)\n",
                imports="from pyflink.table import DataTypes\nfrom pyflink.table.udf import udf\n",
            ),
            spark_program(
                '\n\n@F.udf(returnType="BIGINT")\ndef twice(x):\n    return x * 2\n\n\n'
                't_env.udf.register("twice", twice)\n',
                functions=True,
            ),
        ),
    ],
    noop=['import functools\n\n\n@functools.lru_cache(maxsize=None)\ndef twice(x):\n    return x * 2\n'],
)


def _result_type(ctx, call):
    node = call_arg(call, 2, "result_type")
    if node is None:
        return None
    if isinstance(node, cst.SimpleString):
        text = node.evaluated_value.strip()
        if not re.fullmatch(r"[A-Za-z_]+(\(\d+(\s*,\s*\d+)?\))?", text):
            ctx.todo(M.TB_EXPRESSION, f"udf(): result type {text!r} given as text (only simple type names are read)")
            return False
        return text.upper()
    try:
        return TY.spark_type(node, qualified(ctx))
    except UNTRANSLATABLE as exc:
        ctx.todo(M.TB_EXPRESSION, f"udf(): result type {exc}")
        return False


@rule.converter
def convert(ctx):
    seg = ctx.site.head
    method = seg.method
    if method in REGISTER:
        if len(seg.updated.args) != 2 or any(a.keyword is not None for a in seg.updated.args):
            return ctx.todo(M.TB_UNSUPPORTED, f"{method}() with other arguments than (name, function)")
        name, fn = seg.updated.args[0].value, seg.updated.args[1].value
        original = seg.original.args[1].value
        kind = tables(ctx.resolver).functions.get(original.value) if isinstance(original, cst.Name) else None
        registry = "udtf" if kind == "udtf" else "udf"
        return ctx.expr("{env}.%s.register({n}, {f})" % registry, env=ctx.site.receiver, n=name, f=fn)
    if method != "udf":
        return ctx.todo(M.TB_UNSUPPORTED, f"{method}(): Python table/aggregate functions are not converted yet")
    call = seg.original
    kind = call_arg(call, 5, "func_type")
    pandas = isinstance(kind, cst.SimpleString) and kind.evaluated_value == "pandas"
    if kind is not None and not (isinstance(kind, cst.SimpleString) and kind.evaluated_value in ("pandas", "general")):
        return ctx.todo(M.TB_UNSUPPORTED, "udf(func_type=...) given by an expression")
    result = _result_type(ctx, call)
    if result is False:
        return ctx.todo_left()
    if result is None:
        return ctx.todo(M.TB_UNSUPPORTED, "udf() without result_type")
    f = call_arg(call, 0, "f")
    method = None
    if f is not None:
        known = ctx.conv.class_of(f) if not isinstance(f, cst.Lambda) else None
        if known is not None:
            info = known[0]
            if info.kind != "TableScalarFunction" or not info.convertible:
                return ctx.todo(M.TB_UNSUPPORTED, "udf() of a function object this rule cannot convert")
            if any(F_._method(info.node, m) is not None for m in ("open", "close")):
                return ctx.todo(M.TB_UNSUPPORTED, f"udf() of {info.node.name.value}, whose open()/close() Spark's UDFs never call:"
                                " build its state in __init__ or at the first eval() call")
            method = "eval"  # Spark calls the bound method as Flink calls eval()
        elif isinstance(f, cst.Call):
            return ctx.todo(M.TB_UNSUPPORTED, "udf() of an object that is not a ScalarFunction of this program")
    use(ctx, {"F"})
    fn = "F.pandas_udf" if pandas else "F.udf"
    rtype = cst.SimpleString(repr(result).replace("'", '"'))
    if f is None:  # a decorator
        return ctx.expr(fn + ("({t})" if pandas else "(returnType={t})"), t=rtype)
    found = ctx.arg(seg, 0, "f")
    function = cst.Attribute(value=found[1], attr=cst.Name(method)) if method else found[1]
    return ctx.expr(fn + "({f}, {t})", f=function, t=rtype)
