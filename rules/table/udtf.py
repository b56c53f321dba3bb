"""Python table functions and lateral joins:

- ``@udtf(result_types=[DataTypes.STRING(), DataTypes.INT()])`` on a generator ``def split(line)``
  -> a Spark Python UDTF class of the same name, ``@F.udtf(returnType="f0: STRING, f1: INT")
  class split: def eval(self, line): ...`` (the body as it was; Flink names the columns f0, f1...
  as the return type does). Both call it once per input row and take the rows it yields
  (tuples or Rows).
- ``table.join_lateral(split.alias("word"))`` (the function of the whole row) ->
  ``df.lateralJoin(split(F.struct(<columns>.outer())).toDF("word"))``;
- ``table.join_lateral(split(col("line")).alias("word", "n"))`` ->
  ``df.lateralJoin(split(F.col("line").outer()).toDF("word", "n"))``;
  ``left_outer_join_lateral`` -> ``lateralJoin(..., on=F.lit(True), how="left")`` (a row with
  no result kept, with NULLs; both checked on Spark 4); a join condition -> ``on=``.
- ``create_temporary_system_function("split", split)`` of one -> ``spark.udtf.register``
  (rule ``udf``).

With one result type Flink's function yields the values themselves: each ``yield x`` becomes
``yield (x,)``, except a tuple display or a ``Row(...)``, which Flink takes as the row itself.
In SQL, ``LATERAL TABLE(f(...))`` of a registered one -> Spark's ``LATERAL f(...)`` (``_sql``). A ``TableFunction`` class is not converted yet (TODO).
"""

import libcst as cst

from flink2spark.rules.pyflink._common import call_arg
from flink2spark.rules.table import _types as TY
from flink2spark.rules.table._common import UNTRANSLATABLE, columns, program, qualified, row_columns, spark_program, use
from flink2spark.rules.table._program import tables
from flink2spark.transpiler import markers as M
from flink2spark.transpiler import pyflink_model as P
from flink2spark.transpiler.visitors import nodes
from flink2spark.transpiler.registry import Example, Rule

rule = Rule(
    __name__,
    matches=["flink.udtf", "Table.join_lateral", "Table.left_outer_join_lateral", "UserDefinedFunction.alias"],
    summary="@udtf generator def -> @F.udtf class; join_lateral/left_outer_join_lateral -> lateralJoin",
    codes=(M.TB_UNSUPPORTED, M.TB_EXPRESSION),
    examples=[
        Example(
            program(
                "\n\n@udtf(result_types=[DataTypes.STRING(), DataTypes.INT()])\ndef split(line):\n"
                "    for word in line.split():\n        yield word, len(word)\n\n\n"
                "lines = t_env.from_elements([('a bb',)], ['line'])\n"
                "words = lines.join_lateral(split(col('line')).alias('word', 'n'))\n",
                imports="from pyflink.table import DataTypes\nfrom pyflink.table.expressions import col\nfrom pyflink.table.udf import udtf\n",
            ),
            spark_program(
                '\n\n@F.udtf(returnType="f0: STRING, f1: INT")\nclass split:\n    def eval(self, line):\n'
                "        for word in line.split():\n            yield word, len(word)\n\n\n"
                'lines = t_env.createDataFrame([("a bb",)], ["line"])\n'
                'words = lines.lateralJoin(split(F.col("line").outer()).toDF("word", "n"))\n',
                functions=True,
            ),
        ),
    ],
    noop=['def split(line):\n    yield from line.split()\n\n\nwords = [w for w in split("a b")]\n'],
)


def _return_type(ctx, call):
    """(Spark return type, whether the function yields single values), or None."""
    node = call_arg(call, 2, "result_types")
    elements = [e.value for e in node.elements] if isinstance(node, (cst.List, cst.Tuple)) else [node] if node is not None else []
    if not elements:
        return None
    try:
        types = [TY.spark_type(e, qualified(ctx)) for e in elements]
    except UNTRANSLATABLE:
        return None
    return ", ".join(f"f{i}: {t}" for i, t in enumerate(types)), len(types) == 1


class _OneTuple(cst.CSTTransformer):
    """``yield x`` -> ``yield (x,)`` and ``yield from g`` -> ``yield from ((v,) for v in g)`` in
    a function body (not in the functions and classes it defines): Spark's UDTF rows are tuples,
    where a Flink table function of one result type yields the values themselves. ``rows``: the
    callees that are Flink's ``Row`` (as the program writes them), whose yields are rows already."""

    def __init__(self, rows: frozenset[str]):
        super().__init__()
        self.rows = rows

    def visit_FunctionDef(self, node):
        return False

    def visit_ClassDef(self, node):
        return False

    def visit_Lambda(self, node):
        return False

    def leave_Yield(self, original, updated):
        if isinstance(updated.value, cst.From):
            gen = cst.parse_expression("((v,) for v in _)")
            return updated.with_changes(value=cst.From(item=gen.with_changes(for_in=gen.for_in.with_changes(iter=updated.value.item))))
        if updated.value is None or _a_row(updated.value, self.rows):
            return updated  # Flink takes a yielded tuple or Row as the row itself, as Spark does
        return updated.with_changes(value=cst.Tuple([cst.Element(updated.value, comma=cst.Comma())]))


def _a_row(value: cst.BaseExpression, rows: frozenset[str]) -> bool:
    """A tuple display or a call of Flink's ``Row``: PyFlink's ``normalize_table_function_result``
    takes its fields as the row's (``yield Row(word)`` of one result type is the row ``word``)."""
    return isinstance(value, cst.Tuple) or (isinstance(value, cst.Call) and cst.Module([]).code_for_node(value.func) in rows)


def _flink_rows(ctx, fn: cst.FunctionDef) -> frozenset[str]:
    """The callees of ``fn``'s yields that resolve to Flink's ``Row`` (read on the original def:
    the rewrite sees the converted one, whose names keep their text)."""
    callees = (y.value.func for y in nodes(fn, cst.Yield) if isinstance(y.value, cst.Call))
    return frozenset(cst.Module([]).code_for_node(f) for f in callees if qualified(ctx)(f) in P.ROWS)


def _as_class(decorator: cst.Decorator, single: bool, rows: frozenset[str]):
    def rewrite(fn: cst.FunctionDef) -> cst.CSTNode:
        params = fn.params.with_changes(params=[cst.Param(cst.Name("self")), *fn.params.params])
        body = fn.body.visit(_OneTuple(rows)) if single else fn.body
        method = cst.FunctionDef(name=cst.Name("eval"), params=params, body=body, asynchronous=fn.asynchronous)
        return cst.ClassDef(name=fn.name, body=cst.IndentedBlock(body=[method]), decorators=[decorator],
                            leading_lines=fn.leading_lines, lines_after_decorators=fn.lines_after_decorators)

    return rewrite


def _udtf(ctx):
    call = ctx.site.head.original
    parent = ctx.resolver.parent(call)
    fn = ctx.resolver.parent(parent) if isinstance(parent, cst.Decorator) else None
    if not isinstance(fn, cst.FunctionDef) or len(fn.decorators) != 1 or call_arg(call, 0, "f") is not None:
        return ctx.todo(M.TB_UNSUPPORTED, "udtf() of something else than a generator def it decorates: not converted yet")
    if fn.params.star_arg is not cst.MaybeSentinel.DEFAULT or fn.params.kwonly_params or fn.params.posonly_params:
        return ctx.todo(M.TB_UNSUPPORTED, "udtf() of a def with *args or keyword-only parameters")
    found = _return_type(ctx, call)
    if found is None:
        return ctx.todo(M.TB_UNSUPPORTED, "udtf() with result types this rule cannot read")
    returns, single = found
    use(ctx, {"F"})
    decorator = cst.Decorator(cst.parse_expression(f'F.udtf(returnType="{returns}")'))
    ctx.rewrite_statement(fn, _as_class(decorator, single, _flink_rows(ctx, fn)))
    return ctx.keep("the decorated def becomes a UDTF class (its statement is rewritten)")


def _lateral(ctx):
    seg = ctx.site.head
    args = seg.original.args
    if not args or args[0].keyword is not None:
        return ctx.todo(M.TB_UNSUPPORTED, f"{seg.method}() without a table function call")
    value = args[0].value
    names = []
    if isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) and value.func.attr.value == "alias":
        names = [a.value for a in value.args]
        if not all(isinstance(n, cst.SimpleString) for n in names):
            return ctx.todo(M.TB_UNSUPPORTED, f"{seg.method}(): alias() of names that are not literals")
        value = value.func.value
    model = tables(ctx.resolver)
    if isinstance(value, cst.Name) and model.functions.get(value.value) == "udtf":
        # the function of the whole row (Flink passes it a Row, Spark a struct: a Row too)
        row = row_columns(ctx, seg.original.func.value, outer=True)
        if row is None:
            return ctx.todo(M.TB_UNSUPPORTED, f"{seg.method}() of a whole-row table function over a table whose columns are not known")
        call = f"{value.value}(F.struct({row}))"
    elif isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and model.functions.get(value.func.value) == "udtf":
        inputs = columns(ctx, value.args, f"{seg.method}()")
        if inputs is None:
            return ctx.todo_left()
        call = f"{value.func.value}({', '.join(f'({c.code}).outer()' if not c.code.startswith('F.col(') else c.code + '.outer()' for c in inputs)})"
    else:
        return ctx.todo(M.TB_UNSUPPORTED, f"{seg.method}() of a call that is not one of this program's @udtf functions")
    if names:
        call += f".toDF({', '.join(repr(n.evaluated_value) for n in names)})"
    extra = []
    if len(args) > 1:
        cond = columns(ctx, [args[1]], f"{seg.method}()", None)
        if cond is None:
            return ctx.todo_left()
        extra.append(f"on={cond[0].code}")
    if seg.method == "left_outer_join_lateral":
        if not extra:
            extra.append("on=F.lit(True)")
        extra.append('how="left"')
    use(ctx, {"F"})
    code = f"{{r}}.lateralJoin({', '.join([call, *extra])})"
    return ctx.expr(code, r=ctx.site.receiver)


@rule.converter
def convert(ctx):
    if ctx.site.receiver_type == "UserDefinedFunction":  # f.alias("a", "b"): the lateral join reads it
        return ctx.keep("alias() of a table function: join_lateral()/left_outer_join_lateral() converts it")
    if ctx.site.head.method == "udtf":
        return _udtf(ctx)
    return _lateral(ctx)
