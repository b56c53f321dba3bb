"""Python scalar functions of the Table API -> Spark's:

- ``@udf(result_type=DataTypes.BIGINT())`` on a def, or ``udf(f, result_type=...)`` of a def or
  a lambda -> ``@F.udf(returnType="BIGINT")`` / ``F.udf(f, "BIGINT")``: both call the Python
  function row by row with Python values (None for NULL) and convert its result to the type.
- ``func_type="pandas"`` -> ``F.pandas_udf("BIGINT")``: both call it with pandas Series of a
  batch of rows and take a Series back.
- ``udf(MyScalarFunction(), result_type=...)`` of a ``ScalarFunction`` class (its base
  dropped) -> ``F.udf(MyScalarFunction().eval, ...)``.
- A class with ``open(function_context)``/``close()`` (a model loaded once, say): Spark's UDFs
  have no such calls, so a function before the statement of the udf() call creates and opens an instance once per
  Python worker (NOTE F2S311) -- for a general function lazily, at its first row (an
  instance in a global or nonlocal variable; ``close()`` is not called); for a pandas one in an iterator
  ``pandas_udf`` (``Iterator[pd.Series] -> Iterator[pd.Series]``, Spark's form for "initialise
  once, then score every batch"), which calls ``open()`` before its first batch and
  ``close()`` after its last. The udf() call becomes that function. An ``open()`` that uses
  its ``function_context`` (job parameters, metric groups) is left with a TODO.
- ``input_types``, ``deterministic`` and ``name`` are dropped (Spark takes the arguments'
  types as they are).
- ``t_env.create_temporary_system_function("name", f)``, ``create_temporary_function`` and
  the legacy ``register_function`` -> ``spark.udf.register("name", f)`` (for SQL).

Calls of a converted function in Table expressions (``add(col("a"), col("b"))``) translate
to calls of the Spark UDF (``_expressions``, from the program model's ``functions``).
Table functions: rule ``udtf``; aggregate functions: rule ``udaf``.
"""

import re
from typing import Optional

import libcst as cst

from flink2spark.rules.pyflink._common import call_arg
from flink2spark.rules.table import _types as TY
from flink2spark.rules.table._common import UNTRANSLATABLE, qualified, program, spark_program, use
from flink2spark.rules.table._program import class_chain, nodes, tables
from flink2spark.transpiler import functions as F_
from flink2spark.transpiler import imports as I_
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule

REGISTER = ("create_temporary_system_function", "create_temporary_function", "register_function")

rule = Rule(
    __name__,
    matches=["flink.udf",
             *[f"TableEnvironment.{m}" for m in REGISTER]],
    summary="@udf/udf(f) (general and pandas) -> F.udf/F.pandas_udf; function registration -> spark.udf.register",
    codes=(M.TB_UNSUPPORTED, M.TB_EXPRESSION, M.TB_ORDER),
    examples=[
        Example(
            program(
                "\n\n@udf(result_type=DataTypes.BIGINT())\ndef twice(x):\n    return x * 2\n\n\n"
                "t_env.create_temporary_system_function('twice', twice)\n",
                imports="from pyflink.table import DataTypes\nfrom pyflink.table.udf import udf\n",
            ),
            spark_program(
                '\n\n@F.udf(returnType=T.LongType())\ndef twice(x):\n    return x * 2\n\n\n'
                't_env.udf.register("twice", twice)\n',
                functions=True, types=True,
            ),
        ),
        Example(
            program(
                "\n\nclass Rates(ScalarFunction):\n    def open(self, function_context):\n        self.rates = {'USD': 0.5}\n\n"
                "    def eval(self, currency, amount):\n        return self.rates.get(currency, 0.0) * amount\n\n\n"
                "to_euro = udf(Rates(), result_type=DataTypes.DOUBLE())\n",
                imports="from pyflink.table import DataTypes\nfrom pyflink.table.udf import ScalarFunction, udf\n",
            ),
            spark_program(
                '\n\nclass Rates:\n    def open(self, function_context):\n        self.rates = {"USD": 0.5}\n\n'
                "    def eval(self, currency, amount):\n        return self.rates.get(currency, 0.0) * amount\n\n\n"
                "# NOTE(flink2spark): F2S311 Rates: open() runs once per Spark Python worker, at its first row\n"
                "to_euro_function = None\n\n\n"
                '@F.udf(returnType=T.DoubleType())\n'
                "def to_euro(currency, amount):\n"
                "    global to_euro_function\n"
                "    if to_euro_function is None:\n"
                "        # open() once per Python worker, before its first row\n"
                "        to_euro_function = Rates()\n"
                "        to_euro_function.open(None)\n"
                "    return to_euro_function.eval(currency, amount)\n",
                functions=True, types=True,
            ),
        ),
        Example(
            program(
                "\n\nclass Score(ScalarFunction):\n    def open(self, function_context):\n        self.weight = 0.5\n\n"
                "    def eval(self, x):\n        return x * self.weight\n\n\n"
                "score = udf(Score(), result_type=DataTypes.DOUBLE(), func_type='pandas')\n",
                imports="from pyflink.table import DataTypes\nfrom pyflink.table.udf import ScalarFunction, udf\n",
            ),
            spark_program(
                "\n\nclass Score:\n    def open(self, function_context):\n        self.weight = 0.5\n\n"
                "    def eval(self, x):\n        return x * self.weight\n\n\n"
                "# NOTE(flink2spark): F2S311 Score: open() runs once per Spark task before its first batch\n"
                '@F.pandas_udf(T.DoubleType())\n'
                "def score(batches: Iterator[pd.Series]) -> Iterator[pd.Series]:\n"
                "    function = Score()\n"
                "    function.open(None)  # once per task, before its first batch\n"
                "    for x in batches:\n"
                "        yield function.eval(x)\n",
                imports="import pandas as pd\n",
                functions=True, types=True,
            ).replace("types as T\n", "types as T\nfrom typing import Iterator\n"),
        ),
        Example(  # an AsyncScalarFunction: its coroutine run to its end for each row
            program(
                "\n\nclass Lookup(AsyncScalarFunction):\n"
                "    async def eval(self, key):\n        await asyncio.sleep(0.01)\n        return key.upper()\n\n\n"
                "lookup = udf(Lookup(), result_type=DataTypes.STRING())\n",
                imports="import asyncio\n\nfrom pyflink.table import DataTypes\nfrom pyflink.table.udf import AsyncScalarFunction, udf\n",
            ),
            spark_program(
                "\n\nclass Lookup:\n"
                "    async def eval(self, key):\n        await asyncio.sleep(0.01)\n        return key.upper()\n\n\n"
                "# NOTE(flink2spark): F2S345 Lookup: Spark awaits each row's call in turn (asyncio.run), Flink up to"
                " table.exec.async-scalar.max-concurrent-operations at once, each within table.exec.async-scalar.timeout;"
                " Flink 2.3 was seen giving rows results computed from later rows' arguments (its results then differ"
                " from run to run): Spark gives each row the result of its own\n"
                "lookup_function = None\n\n\n"
                "@F.udf(returnType=T.StringType())\n"
                "def lookup(key):\n"
                "    global lookup_function\n"
                "    if lookup_function is None:\n"
                "        # one instance per Python worker, before its first row\n"
                "        lookup_function = Lookup()\n"
                "    return asyncio.run(lookup_function.eval(key))\n",
                imports="import asyncio\n",
                functions=True, types=True,
            ),
        ),
        Example(  # @udf on an async def: the def renamed, a UDF of its name awaits it
            program(
                "\n\n@udf(result_type=DataTypes.STRING())\nasync def shout(word: str) -> str:\n"
                "    await asyncio.sleep(0.01)\n    return word.upper()\n\n\n"
                "t_env.create_temporary_function('shout', shout)\n",
                imports="import asyncio\n\nfrom pyflink.table import DataTypes\nfrom pyflink.table.udf import udf\n",
            ),
            spark_program(
                "\n\n# NOTE(flink2spark): F2S345 shout: Spark awaits each row's call in turn (asyncio.run), Flink up to"
                " table.exec.async-scalar.max-concurrent-operations at once, each within table.exec.async-scalar.timeout;"
                " Flink 2.3 was seen giving rows results computed from later rows' arguments (its results then differ"
                " from run to run): Spark gives each row the result of its own\n"
                "async def shout_async(word: str) -> str:\n"
                "    await asyncio.sleep(0.01)\n    return word.upper()\n\n\n"
                "@F.udf(returnType=T.StringType())\n"
                "def shout(word: str) -> str:\n"
                "    return asyncio.run(shout_async(word))\n\n\n"
                't_env.udf.register("shout", shout)\n',
                imports="import asyncio\n",
                functions=True, types=True,
            ),
        ),
        Example(  # an AggregateFunction instance registered for SQL (Flink wraps it in udaf() with get_result_type())
            program(
                "\n\nclass Heaviest(AggregateFunction):\n"
                "    def create_accumulator(self):\n        return [0]\n\n"
                "    def accumulate(self, acc, kg):\n        acc[0] = max(acc[0], kg)\n\n"
                "    def get_value(self, acc):\n        return acc[0]\n\n"
                "    def get_result_type(self):\n        return DataTypes.BIGINT()\n\n"
                "    def get_accumulator_type(self):\n        return DataTypes.ARRAY(DataTypes.BIGINT())\n\n\n"
                "t_env.create_temporary_system_function('heaviest', Heaviest())\n"
                "t_env.sql_query('SELECT dock, heaviest(kg) AS kg FROM parcels GROUP BY dock')\n",
                imports="from pyflink.table import DataTypes\nfrom pyflink.table.udf import AggregateFunction\n",
            ),
            spark_program(
                "\n\nclass Heaviest:\n"
                "    def create_accumulator(self):\n        return [0]\n\n"
                "    def accumulate(self, acc, kg):\n        acc[0] = max(acc[0], kg)\n\n"
                "    def get_value(self, acc):\n        return acc[0]\n\n\n"
                "# NOTE(flink2spark): F2S306 heaviest: the rows of a group reach accumulate() in Spark's order, which may"
                " differ from Flink's (the same result unless the function depends on it)\n"
                "@F.udf(returnType=T.LongType())\n"
                "def heaviest(rows):\n"
                "    function = Heaviest()\n"
                "    acc = function.create_accumulator()\n"
                "    for row in rows:\n"
                "        function.accumulate(acc, *row)\n"
                "    return function.get_value(acc)\n\n\n"
                't_env.udf.register("heaviest", heaviest)\n'
                "# NOTE(flink2spark): F2S334 SQL reads table 'parcels', which this program does not declare (Flink finds it"
                " in its catalog): Spark needs a table or view named 'parcels' in its session catalog, registered as"
                " Flink's catalog holds it\n"
                "t_env.sql(\n"
                '    "SELECT dock, HEAVIEST(COLLECT_LIST(STRUCT(kg))) AS kg FROM parcels GROUP BY dock"\n'
                ")\n",
                functions=True, types=True,
            ),
        ),
    ],
    noop=['import functools\n\n\n@functools.lru_cache(maxsize=None)\ndef twice(x):\n    return x * 2\n'],
)


_LAZY = (
    "{instance} = None\n\n"
    "@F.udf(returnType={returns})\n"
    "def {name}({params}):\n"
    "    {scope} {instance}\n"
    "    if {instance} is None:\n"
    "{create_lines}"
    "    return {call}\n"
)
_OPEN = (
    "        # open() once per Python worker, before its first row\n"
    "        {instance} = {create}\n"
    "        {instance}.open(None)\n"
)
_CREATE = (
    "        # one instance per Python worker, before its first row\n"
    "        {instance} = {create}\n"
)
# an async def under @udf: the def keeps its body under another name, the UDF awaits it row by row
_AWAITED_DEF = (
    "@F.udf(returnType={returns})\n"
    "def {name}({params}){returns_annotation}:\n"
    "    return asyncio.run({coroutine}({args}))\n"
)

_ITERATOR = (
    "@F.pandas_udf({returns})\n"
    "def {name}(batches: Iterator[{batch}]) -> Iterator[pd.Series]:\n"
    "    function = {create}\n"
    "    function.open(None)  # once per task, before its first batch\n"
    "    for {params} in batches:\n"
    "        yield function.eval({params})\n"
    "{close}"
)


def _snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower()


def _context_uses(open_def: cst.FunctionDef) -> Optional[str]:
    """Why ``open()``'s use of its FunctionContext cannot convert (None: it does not use it)."""
    params = open_def.params.params
    if len(params) != 2:
        return "open() without its (self, function_context) parameters"
    context = params[1].name.value
    for name in F_.names_in(open_def.body, skip_nested=False):
        if name.value == context:
            return (f"open() uses {context} (job parameters, metric groups...), which Spark's UDFs do not have:"
                    " read the values another way")
    return None


def _opened(ctx, info, f, result: str, pandas: bool, awaited: bool = False):
    """The Spark UDF of ``udf(Cls(...), ...)`` of a class with open()/close(), or of an
    AsyncScalarFunction class (``awaited``: its ``eval`` a coroutine) (module docstring)."""
    cls = info.node
    what = (f"udf() of the AsyncScalarFunction {cls.name.value}" if awaited
            else f"udf() of {cls.name.value}, whose open()/close() Spark's UDFs never call")
    if awaited and pandas:  # PyFlink's udf() raises there
        return ctx.todo(M.TB_UNSUPPORTED, f"{what} with func_type='pandas': Flink refuses async pandas functions")
    ev = F_._method(cls, "eval")
    if not isinstance(f, cst.Call) or ctx.resolver.parent(cls) is not ctx.resolver.module:
        return ctx.todo(M.TB_UNSUPPORTED, f"{what}: only a new instance of a module-level class converts")
    statement, scope = _block_statement(ctx)
    if not isinstance(scope, (cst.Module, cst.FunctionDef)):
        return ctx.todo(M.TB_UNSUPPORTED, f"{what}: udf() in a statement of a class body or a compound statement")
    if any(n.value not in ("True", "False", "None") for a in f.args for n in F_.names_in(a.value, skip_nested=False)):
        return ctx.todo(M.TB_UNSUPPORTED, f"{what}: its constructor's arguments are not literals")
    params = ev.params if ev is not None else None
    if params is None or params.star_arg is not cst.MaybeSentinel.DEFAULT or params.kwonly_params or params.posonly_params \
            or params.star_kwarg is not None or len(params.params) < 2 or any(p.default is not None for p in params.params):
        return ctx.todo(M.TB_UNSUPPORTED, f"{what}: eval() has other parameters than (self, a, b...)")
    if awaited and ev.asynchronous is None:
        return ctx.todo(M.TB_UNSUPPORTED, f"{what}: its eval() is not an async def")
    names = [p.name.value for p in params.params[1:]]
    open_def = F_._method(cls, "open")
    if open_def is not None:
        why = _context_uses(open_def)
        if why is not None:
            return ctx.todo(M.TB_UNSUPPORTED, f"{what}: {why}")
    taken = {n.value for n in nodes(ctx.resolver.module, cst.Name)}
    assign = ctx.resolver.parent(ctx.outer)
    bound = isinstance(assign, cst.Assign) and isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1 \
        and len(assign.targets) == 1 and isinstance(assign.targets[0].target, cst.Name)
    name = assign.targets[0].target.value if bound else _snake(cls.name.value)  # name = udf(...): the def takes its place
    while name in taken and not bound:
        name += "_udf"
    create = ctx.resolver.module.code_for_node(f)
    use(ctx, {"F", "T"})
    rtype = TY.type_code(result)  # not a type string: PySpark parses one only with a session running
    if pandas:
        ctx.import_name("typing", "Iterator")
        I_.need(ctx.conv.codemod, "pandas", None, "pd")
        batch = "pd.Series" if len(names) == 1 else f"tuple[{', '.join(['pd.Series'] * len(names))}]"
        close = "    function.close()  # after its last batch\n" if F_._method(cls, "close") is not None else ""
        code = _ITERATOR.format(name=name, returns=rtype, batch=batch, create=create, params=", ".join(names), close=close)
        ctx.note(M.TB_LIFECYCLE, f"{cls.name.value}: open() runs once per Spark task before its first batch"
                 + (", close() after its last" if close else ""))
    else:
        instance = f"{name}_function"
        while instance in taken:
            instance += "_"
        call = f"{instance}.eval({', '.join(names)})"
        if awaited:
            I_.need(ctx.conv.codemod, "asyncio")
            call = f"asyncio.run({call})"
        lines = (_OPEN if open_def is not None else _CREATE).format(instance=instance, create=create)
        code = _LAZY.format(name=name, instance=instance, returns=rtype, create_lines=lines, params=", ".join(names),
                            call=call, scope="global" if isinstance(scope, cst.Module) else "nonlocal")
        if open_def is not None or F_._method(cls, "close") is not None:
            ctx.note(M.TB_LIFECYCLE, f"{cls.name.value}: open() runs once per Spark Python worker, at its first row"
                     + ("; close() is never called" if F_._method(cls, "close") is not None else ""))
        if awaited:
            _note_awaited(ctx, cls.name.value)
    added = list(cst.parse_module(code).body)

    def rewrite(node):
        if bound:
            return cst.FlattenSentinel([added[0].with_changes(leading_lines=node.leading_lines), *added[1:]])
        return cst.FlattenSentinel([*added, node.with_changes(leading_lines=[cst.EmptyLine(), *node.leading_lines])])

    if not ctx.rewrite_statement(statement, rewrite):
        return ctx.todo(M.TB_UNSUPPORTED, f"{what}: the statement has another function of this kind")
    return ctx.expr(name)


def _note_awaited(ctx, name: str):
    # seen on Flink 2.3 (fixtures/table/shipment_eta_async_lookup: its reference.py says how)
    ctx.note(M.TB_ASYNC, f"{name}: Spark awaits each row's call in turn (asyncio.run), Flink up to"
             " table.exec.async-scalar.max-concurrent-operations at once, each within table.exec.async-scalar.timeout;"
             " Flink 2.3 was seen giving rows results computed from later rows' arguments (its results then differ"
             " from run to run): Spark gives each row the result of its own")


def _awaited_def(ctx, fn: cst.FunctionDef, rtype: str):
    """``@udf(result_type=...)`` on an ``async def``: Flink awaits the coroutine for each row.
    The def keeps its body under the name ``<name>_async``; a ``@F.udf`` def of the name runs it
    with ``asyncio.run`` (module docstring)."""
    what = f"@udf on the async def {fn.name.value}"
    params = fn.params
    if len(fn.decorators) != 1 or params.star_arg is not cst.MaybeSentinel.DEFAULT or params.kwonly_params \
            or params.posonly_params or params.star_kwarg is not None or any(p.default is not None for p in params.params):
        return ctx.todo(M.TB_UNSUPPORTED, f"{what}: another decorator, or parameters other than (a, b...)")
    statement, scope = _block_statement(ctx)
    if statement is not fn or not isinstance(scope, (cst.Module, cst.FunctionDef)):
        return ctx.todo(M.TB_UNSUPPORTED, f"{what}: a def in a class body or a compound statement")
    taken = {n.value for n in nodes(ctx.resolver.module, cst.Name)}
    if fn.name.value in {n.value for n in F_.names_in(fn.body, skip_nested=False)}:
        return ctx.todo(M.TB_UNSUPPORTED, f"{what}: its body names the function itself")
    coroutine = f"{fn.name.value}_async"
    while coroutine in taken:
        coroutine += "_"
    I_.need(ctx.conv.codemod, "asyncio")
    module = ctx.resolver.module
    returns = f" -> {module.code_for_node(fn.returns.annotation)}" if fn.returns is not None else ""
    code = _AWAITED_DEF.format(returns=rtype, name=fn.name.value, params=module.code_for_node(params),
                               returns_annotation=returns, coroutine=coroutine,
                               args=", ".join(p.name.value for p in params.params))
    wrapper = cst.parse_module(code).body[0]

    def rewrite(node):
        kept = node.with_changes(name=cst.Name(coroutine), decorators=[],
                                 leading_lines=[*node.leading_lines, *node.decorators[0].leading_lines])
        return cst.FlattenSentinel([kept, wrapper.with_changes(leading_lines=[cst.EmptyLine(), cst.EmptyLine()])])

    if not ctx.rewrite_statement(statement, rewrite):
        return ctx.todo(M.TB_UNSUPPORTED, f"{what}: the statement has another function of this kind")
    _note_awaited(ctx, fn.name.value)
    return None


def _block_statement(ctx):
    """(the statement of the call in its block, the def or module holding the block)."""
    statement, block = ctx.outer, ctx.resolver.parent(ctx.outer)
    while block is not None and not isinstance(block, (cst.Module, cst.IndentedBlock)):
        statement, block = block, ctx.resolver.parent(block)
    return statement, ctx.resolver.parent(block) if isinstance(block, cst.IndentedBlock) else block


def _registered_aggregate(ctx, info, f: cst.Call, name: cst.SimpleString):
    """``create_temporary_function("n", Cls())`` of an AggregateFunction class: Flink wraps the
    instance in ``udaf(Cls(), result_type=Cls().get_result_type(), ...)``; the Spark UDF rule
    ``udaf`` writes for that (a def over the group's rows, before the statement), registered for
    SQL, whose calls ``n(a, b)`` become ``n(collect_list(struct(a, b)))`` (``_sql``)."""
    from flink2spark.rules.table import udaf

    cls = info.node
    what = f"registration of {cls.name.value}()"
    if not info.convertible or ctx.resolver.parent(cls) is not ctx.resolver.module:
        return ctx.todo(M.TB_UNSUPPORTED, f"{what}: only an AggregateFunction class of this module converts")
    last = class_chain(ctx.resolver, cls)[-1]
    if sum(isinstance(ctx.resolver.local_def(b.value), cst.ClassDef) for b in last.bases) > 1:
        return ctx.todo(M.TB_UNSUPPORTED, f"{what}: {last.name.value} has two bases of this program: which of their"
                        " methods Flink calls (get_result_type(), get_value()...) is not followed")
    for method in ("get_result_type", "get_accumulator_type"):
        if udaf.method_of(ctx.resolver, cls, method) is None:
            # seen on Flink 2.3 (tests/test_table_functions.py runs PyFlink's registration step)
            return ctx.todo(M.TB_UNSUPPORTED, f"{what}: the class has no {method}(); the job fails on Flink itself:"
                            f" registering the instance calls it (RuntimeError: Method {method} is not implemented),"
                            " so there are no Flink results to give: define the method (the aggregate's DataType)")
    result = udaf.declared_result(ctx.resolver, cls)
    try:
        returns = result.evaluated_value.upper() if isinstance(result, cst.SimpleString) else TY.spark_type(result, qualified(ctx))
    except (UNTRANSLATABLE + (AttributeError,)) as exc:
        return ctx.todo(M.TB_EXPRESSION, f"{what}: result type {exc}")
    statement, scope = _block_statement(ctx)
    if not isinstance(scope, (cst.Module, cst.FunctionDef)) or not isinstance(statement, cst.SimpleStatementLine) \
            or len(statement.body) != 1:
        return ctx.todo(M.TB_UNSUPPORTED, f"{what} in a statement of a class body or a compound statement")
    taken = {n.value for n in nodes(ctx.resolver.module, cst.Name)}
    fn = _snake(re.sub(r"\W", "_", name.evaluated_value))
    while fn in taken or not fn.isidentifier():
        fn += "_udaf"
    use(ctx, {"F", "T"})
    ctx.note(M.TB_ORDER, f"{name.evaluated_value}: the rows of a group reach accumulate() in Spark's order, which may differ"
             " from Flink's (the same result unless the function depends on it)")
    made = udaf.aggregate_def(fn, ctx.resolver.module.code_for_node(f), returns)
    rewrite = lambda node: cst.FlattenSentinel([made.with_changes(leading_lines=node.leading_lines),
                                                node.with_changes(leading_lines=[cst.EmptyLine()])])
    if not ctx.rewrite_statement(statement, rewrite):
        return ctx.todo(M.TB_UNSUPPORTED, f"{what}: the statement has another function of this kind")
    return ctx.expr("{env}.udf.register({n}, %s)" % fn, env=ctx.site.receiver, n=name)


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
        if isinstance(original, cst.Call) and tables(ctx.resolver).function_kind(original) is None:
            known = ctx.conv.class_of(original)
            if known is not None and known[0].kind == "TableAggregateFunction" and isinstance(name, cst.SimpleString):
                return _registered_aggregate(ctx, known[0], original, name)
            return ctx.todo(M.TB_UNSUPPORTED, f"{method}() of an object that is not a Python function of this program"
                            " (udf(...), udaf(...), an AggregateFunction class's instance)")
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
            if info.kind == "TableAsyncScalarFunction" and info.convertible:
                return _opened(ctx, info, f, result, pandas, awaited=True)
            if info.kind != "TableScalarFunction" or not info.convertible:
                return ctx.todo(M.TB_UNSUPPORTED, "udf() of a function object this rule cannot convert")
            if any(F_._method(info.node, m) is not None for m in ("open", "close")):
                return _opened(ctx, info, f, result, pandas)
            method = "eval"  # Spark calls the bound method as Flink calls eval()
        elif isinstance(f, cst.Call):
            return ctx.todo(M.TB_UNSUPPORTED, "udf() of an object that is not a ScalarFunction of this program")
        elif isinstance(ctx.resolver.local_def(f), cst.FunctionDef) and ctx.resolver.local_def(f).asynchronous is not None:
            return ctx.todo(M.TB_UNSUPPORTED, f"udf() of the async def {f.value}: Spark's UDFs take no coroutine functions"
                            " (put @udf on the def itself, which converts)")
    use(ctx, {"F", "T"})
    fn = "F.pandas_udf" if pandas else "F.udf"
    rtype = cst.parse_expression(TY.type_code(result))  # not a type string: PySpark parses one only with a session running
    if f is None:  # a decorator
        target = ctx.resolver.parent(ctx.resolver.parent(call))
        if isinstance(target, cst.FunctionDef) and target.asynchronous is not None:
            if pandas:
                return ctx.todo(M.TB_UNSUPPORTED, "@udf(func_type='pandas') on an async def: Flink refuses async pandas functions")
            awaited = _awaited_def(ctx, target, TY.type_code(result))
            if awaited is not None:
                return awaited
        return ctx.expr(fn + ("({t})" if pandas else "(returnType={t})"), t=rtype)
    found = ctx.arg(seg, 0, "f")
    function = cst.Attribute(value=found[1], attr=cst.Name(method)) if method else found[1]
    return ctx.expr(fn + "({f}, {t})", f=function, t=rtype)
