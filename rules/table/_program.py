"""The Table API part's program model: the facts every Table rule reads, computed once per
module (``Resolver.tables``), not re-derived by rules.

- ``mode``: "batch" or "streaming", from the table environments' settings
  (``EnvironmentSettings.in_batch_mode()``, ``new_instance().in_streaming_mode().build()``, a
  ``StreamTableEnvironment`` of a BATCH ``StreamExecutionEnvironment``...). Flink's default is
  streaming.
- ``catalog``: the tables the program declares with ``execute_sql("CREATE TABLE ...")`` (SQL
  text known when converting), by name, as ``_sql.TableDef``s; the rules of ``execute_insert``,
  ``INSERT INTO`` and ``from_path`` read a table's connector from it.
- ``schema(table)``: the column types of a Table expression, by name (Spark type names), when
  they are known: from the literal rows or the schema of ``from_elements``, a declared table's
  columns, and through the operations that keep or compute them; the expression translator
  needs them where Flink's meaning depends on a type (``+``, ``/``, ``avg``).
- ``registered_before(call)``: the earlier ``create_temporary_view``/``create_temporary_table``
  statement of the same block registering the name a ``create_temporary_view`` registers
  again (Flink 2.3 fails there: "Temporary table ... already exists").
- ``functions``: the program's Python functions of the Table API, by the name they are bound
  to: "udf" (``@udf``/``udf(f)``), "pandas_udf", "udtf", "udaf", "udtaf"; registration and
  calls read it.
- ``sql(node)``: the SQL text of an argument, when it is known: a string literal, literals
  joined with ``+`` or implicit concatenation, a name bound once to one of them, or an f-string
  whose placeholders stand inside SQL string literals (``'path' = '{out}'``): those come back as
  markers that ``python_string`` turns back into the same placeholders.
- ``kept_query(call)``: whether the TableResult of a query kept in a name (``result =
  t_env.execute_sql("SELECT ...")``, ``result = table.execute()``) becomes the DataFrame, its one
  use ``result.print()``/``collect()`` a ``show``/``collect`` (``rules/table/result_use.py``),
  or why not (a name bound again in the same block: each binding's use, ``straight_bindings``;
  ``held_value(name)``: the value a read of it sees); ``streaming_insert(call)``: an insert over an unbounded table (a kept result's
  ``wait()`` awaits the streaming query, ``rules/table/result_wait.py``).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, replace
from typing import Optional, Sequence

import libcst as cst

from flink2spark.rules.table import _connect, _descriptors, _sql, _types
from flink2spark.transpiler import functions as F_
from flink2spark.transpiler import pyflink_model as P
from flink2spark.transpiler import table_model as T
from flink2spark.transpiler.infer import returns_of
from flink2spark.transpiler.project import imported_constant, imported_module
from flink2spark.transpiler.visitors import nodes, walk

_MARK = "__f2s_{}__"
_MARK_RE = re.compile(r"__f2s_(\d+)__")
_TABLE_MARK = "__f2s_t{}__"
_TABLE_RE = re.compile(r"__f2s_t(\d+)__")
_SETTINGS = ("pyflink.table.EnvironmentSettings", "pyflink.table.environment_settings.EnvironmentSettings")



def method_of(resolver, cls: cst.ClassDef, name: str):
    """The def of method ``name`` a ``cls()`` instance calls (its own or one it inherits from a
    class of this module: ``class_chain``), or None."""
    return next((m for c in class_chain(resolver, cls) if (m := F_._method(c, name)) is not None), None)


def declared_result(resolver, cls: cst.ClassDef):
    """The expression ``get_result_type()`` of the class returns (``return DataTypes...``), or None."""
    method = method_of(resolver, cls, "get_result_type")
    body = [s for s in method.body.body if not (isinstance(s, cst.SimpleStatementLine) and isinstance(s.body[0], cst.Expr)
                                                and isinstance(s.body[0].value, cst.SimpleString))] if method else []
    if len(body) == 1 and isinstance(body[0], cst.SimpleStatementLine) and isinstance(body[0].body[0], cst.Return):
        return body[0].body[0].value
    return None


def class_chain(resolver, cls: cst.ClassDef) -> list[cst.ClassDef]:
    """``cls`` and the classes of this module it inherits from along a chain where each has one
    base of the module (its other bases Flink's or the library's): the classes whose methods a
    ``cls()`` instance has, in Python's lookup order; it stops at a class with two bases of
    the module (the order of their methods is left unknown)."""
    chain: list[cst.ClassDef] = []
    while isinstance(cls, cst.ClassDef) and cls not in chain:
        chain.append(cls)
        local = [c for c in (resolver.local_def(base.value) for base in cls.bases) if isinstance(c, cst.ClassDef)]
        cls = local[0] if len(local) == 1 else None
    return chain


STREAMING_RESULT = ("a streaming query (it reads an unbounded table): Flink's TableResult gives its rows as they come, "
                     "without end; Spark's collect() refuses a streaming DataFrame (port the use of the rows to "
                     "writeStream.foreachBatch)")


_LOOP_EXITS = (cst.Break, cst.Return, cst.Yield, cst.Await, cst.Global, cst.Nonlocal, cst.Del, cst.FunctionDef, cst.ClassDef)


def stream_loop(resolver, use: cst.Call) -> "cst.For | str":
    """The ``for`` loop over the rows of a streaming query's ``collect()`` (``use``): ``for row in
    result.collect(): ...`` or ``with result.collect() as rows: for row in rows: ...`` (the
    ``with`` holding the loop alone), whose body can run as is for each row of a micro-batch in
    a foreachBatch function: no break/return/yield/await/global/nonlocal/del or nested definition,
    no method of the row called (a Flink Row's: ``get_row_kind()``...), and every name it binds
    (the loop variable too) bound and read in the loop body only (a function's locals there).
    Else why not."""
    parent = resolver.parent(use)
    if isinstance(parent, cst.For) and parent.iter is use:
        loop = parent
    elif isinstance(parent, cst.WithItem) and parent.asname is not None and isinstance(parent.asname.name, cst.Name):
        block = resolver.parent(parent)
        body = block.body.body if isinstance(block, cst.With) and len(block.items) == 1 else ()
        if len(body) != 1 or not isinstance(body[0], cst.For):
            return "its with block holds more than a for loop over the rows"
        loop, name = body[0], parent.asname.name
        bindings = resolver.scope_bindings(name)
        if not (isinstance(loop.iter, cst.Name) and bindings and len(bindings) == 1
                and [r.node for r in bindings[0].references] == [loop.iter]):
            return "its with block uses the rows another way than one for loop over them"
    else:
        return "its rows are not iterated by a for loop"
    if loop.orelse is not None or loop.asynchronous is not None or not isinstance(loop.target, cst.Name):
        return "the for loop over its rows has an else, is async or unpacks the row"
    inside = {id(n) for n in walk(loop.body)} | {id(loop.target)}
    for node in walk(loop.body):
        if isinstance(node, _LOOP_EXITS):
            return f"the body of the loop over its rows holds a {type(node).__name__.lower()} (it cannot run as a function per micro-batch)"
        if (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and isinstance(node.func.value, cst.Name)
                and node.func.value.value == loop.target.value):
            return f"the loop body calls {node.func.attr.value}() of a Flink Row"
    for name in [loop.target] + nodes(loop.body, cst.Name):
        bindings = resolver.scope_bindings(name) or []
        if not any(id(b.node) in inside for b in bindings):
            continue  # a name the body only reads
        if any(id(b.node) not in inside or any(id(r.node) not in inside for r in b.references) for b in bindings):
            return f"the loop body binds {name.value!r}, which the program binds or reads outside it too"
    return loop


@dataclass(frozen=True)
class KeptQuery:
    """``TablesModel.kept_query``: why the kept result of a query does not become a DataFrame
    (None: it does), whether the query gives only inserts, and the ``print()``/``collect()``
    call that uses it."""

    problem: Optional[str]
    inserts: bool = True
    use: Optional[cst.Call] = None
    # a streaming query's collect() iterated by a for loop (``loop``), whose body can run per row of
    # each micro-batch (``stream_loop``): the use becomes a foreachBatch query
    loop: Optional[cst.For] = None


@dataclass(frozen=True)
class StreamJoin:
    """``TablesModel.stream_join``: a Table join that reads an unbounded table. ``problem``: why
    it has no same-result Spark form (None: it has); ``static``: one side is bounded (Spark's
    stream-static join); ``retracting``: an outer join keeping the stream's unmatched rows,
    which Flink emits with NULLs and retracts (-D) when their match arrives."""

    problem: Optional[str]
    static: bool = False
    retracting: bool = False


@dataclass(frozen=True)
class SqlText:
    """SQL text of a Python string expression; ``parts`` are the f-string's placeholders
    (``{expr}``, their source text) that the markers ``__f2s_<i>__`` stand for."""

    text: str
    parts: tuple[str, ...] = ()
    # Tables the SQL names by formatting them in (``"... FROM %s" % table``, ``f"... {table}"``,
    # ``"... {}".format(table)``: Flink registers each under a name): their source, which the
    # markers ``__f2s_t<i>__`` stand for. Spark's ``spark.sql(text, name=df)`` does the same.
    tables: tuple[str, ...] = ()


def sql_arguments(sql: str, parts: tuple[str, ...] = (), tables: tuple[str, ...] = ()) -> tuple[str, list[tuple[str, str]]]:
    """(the Python literal of ``sql``, the keyword arguments of ``spark.sql``): the tables formatted
    into the SQL become ``{name}`` placeholders that ``spark.sql`` fills with each DataFrame (it
    formats the text as ``str.format`` does: other braces are doubled)."""
    if not tables:
        return python_string(sql, parts), []
    names = [t if t.isidentifier() and t not in tables[:i] else f"t{i}" for i, t in enumerate(tables)]
    body = sql.replace("{", "{{").replace("}", "}}")
    body = _TABLE_RE.sub(lambda m: "{" + names[int(m.group(1))] + "}", body)
    kwargs = list(dict(zip(names, tables)).items())
    return python_string(body, parts), kwargs


def python_string(sql: str, parts: tuple[str, ...] = ()) -> str:
    """The Python literal of ``sql``, an f-string if it holds placeholder markers."""
    if not parts or not _MARK_RE.search(sql):
        return repr(sql) if '"' in sql and "'" not in sql else '"' + sql.replace("\\", "\\\\").replace('"', '\\"') + '"'
    body = sql.replace("{", "{{").replace("}", "}}").replace("\\", "\\\\").replace('"', '\\"')
    body = _MARK_RE.sub(lambda m: "{" + parts[int(m.group(1))] + "}", body)
    return 'f"' + body + '"'


def python_value(text: str, parts: tuple[str, ...] = ()) -> str:
    """``python_string``, but the expression itself where ``text`` is all one marker (a descriptor's
    ``.option("path", output_path)``: Flink takes only a str there)."""
    found = _MARK_RE.fullmatch(text)
    return parts[int(found.group(1))] if found and parts else python_string(text, parts)


@dataclass(frozen=True)
class StreamTable:
    """A Table made of a DataStream (``from_data_stream``): the stream (original expression),
    its columns (name, Spark type) and, when the call picks or renames fields, the
    (input column, table column) pairs in the table's order."""

    stream: cst.BaseExpression
    columns: tuple[tuple[str, str], ...]
    picked: Optional[tuple[tuple[str, str], ...]] = None
    scalar: bool = False  # a stream of basic values (one column f0), not of rows or tuples
    # a Schema with computed columns: the table's (name, Spark SQL of a computed column or None
    # for a field of the stream, Spark type) in Flink's order
    projection: Optional[tuple[tuple[str, Optional[str], str], ...]] = None
    watermark: Optional[tuple[str, str]] = None  # (rowtime column, delay such as "3 seconds")
    rowtime_field: Optional[str] = None  # the stream's field the rowtime column is (or casts), when known
    # an unbounded stream (Kafka, monitored files: ``f2s_stream.micro_batches``): the table is a streaming DataFrame
    unbounded: bool = False

    @property
    def schema(self) -> dict[str, str]:
        if self.projection is not None:
            return {name: t for name, _, t in self.projection}
        types = dict(self.columns)
        return {dst: types[src] for src, dst in self.picked} if self.picked is not None else dict(self.columns)

    @property
    def instants(self) -> bool:
        """Whether a field is of Types.INSTANT() (Python Instants that Spark takes as datetimes)."""
        return any(t == _STREAM_TYPES["INSTANT"] for _, t in self.columns)


# PyFlink basic types of a stream's fields -> the Spark types of Flink's table columns for them
_STREAM_TYPES = {kind: spark for kind, spark in P.SPARK_TYPES.items() if kind != "CHAR"}
_TABLE_TYPES = {v: k for k, v in _STREAM_TYPES.items()}  # (a TIMESTAMP column does not go back to a stream yet)
_STREAM_TYPES["INSTANT"] = "TIMESTAMP"  # Flink's TIMESTAMP_LTZ(9): Spark's TIMESTAMP, both shown in the session time zone
# Table methods whose result gives only inserts when their inputs do (streaming mode)
# Flink sinks that take an updating table (its -U/+U/-D changes): print writes each change,
# blackhole drops them, upsert-kafka writes each row under its primary key; the others of the
# converted connectors take inserts only, and Flink 2.3 refuses the job ("Table sink ... doesn't support consuming update changes which is produced by
# node GroupAggregate"). In Spark the first are written in update output mode.
_UPDATING_SINKS = frozenset({"print", "blackhole", "upsert-kafka"})
_JOINS = {"join": "inner", "left_outer_join": "left", "right_outer_join": "right", "full_outer_join": "full"}
# what may follow a join of a stream before its sink: row by row, each output row from one joined row
_ROW_BY_ROW = frozenset({"select", "filter", "where", "alias", "add_columns", "add_or_replace_columns", "drop_columns",
                         "rename_columns"})
_APPENDING = frozenset({"select", "filter", "where", "alias", "add_columns", "add_or_replace_columns", "drop_columns",
                        "rename_columns", "union_all", "map", "flat_map", "join_lateral", "left_outer_join_lateral"})


def unnamed(position: int) -> str:
    """Flink's name of an unnamed item of ``Table.select`` (seen on Flink 2.3: ``_c1``)."""
    return f"_c{position}"


def alias_names(args: Sequence[cst.Arg]) -> Optional[list[str]]:
    """The column names ``Table.alias(...)`` gives, in order: string literals, each of which Flink
    1.x read as an expression list (``alias("a, b")`` names two columns); None for anything else
    (an expression, a name that is no plain column name)."""
    if not args or any(a.keyword or a.star or not isinstance(a.value, cst.SimpleString) for a in args):
        return None
    names = [part.strip() for a in args for part in a.value.evaluated_value.split(",")]  # type: ignore[union-attr]
    return names if all(n.isidentifier() for n in names) else None


def _field_reference(resolver, node) -> Optional[tuple[str, Optional[str]]]:
    """("a", None) for ``col("a")``, ("a", "b") for ``col("a").alias("b")``; else None."""
    alias = None
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "alias":
        if len(node.args) != 1 or not isinstance(node.args[0].value, cst.SimpleString):
            return None
        alias, node = node.args[0].value.evaluated_value, node.func.value
    if not (isinstance(node, cst.Call) and dotted_names(resolver)(node.func) in _COL and len(node.args) == 1):
        return None
    arg = node.args[0].value
    return (arg.evaluated_value, alias) if isinstance(arg, cst.SimpleString) and node.args[0].keyword is None else None


_COL = ("pyflink.table.expressions.col",)


def _stream_fields(resolver, info, rows_only: bool = False):
    """[(name, PyFlink basic type)] of a stream type expression: ``Types.ROW``/``ROW_NAMED``/
    ``TUPLE`` fields (f0, f1... unless named), one f0 for a basic type; else why not (a str)."""
    from flink2spark.rules.pyflink import _kafka as K
    from flink2spark.rules.pyflink._common import basic_type

    kind = basic_type(resolver, info)
    if kind in _STREAM_TYPES and not rows_only:
        return [("f0", kind)]
    try:
        nodes_ = K._row_field_nodes(resolver, info, tuples=True)
    except K.Problem as exc:
        return str(exc)
    fields = [(name, basic_type(resolver, t)) for name, t in nodes_]
    bad = next((code for (name, k), (_, t) in zip(fields, nodes_) if k not in _STREAM_TYPES
                for code in [resolver.module.code_for_node(t)]), None)
    if bad is not None:
        return f"a field of type {bad} (only basic types are converted yet)"
    return fields


# the key of user_functions() for a function known only by the name it is registered under
# (an AggregateFunction instance given to create_temporary_function): no Python name holds ':'
_BY_NAME = "registered:"


class TablesModel:
    def __init__(self, resolver):
        self.resolver = resolver
        # while the SQL a helper function returns is read (``source_ddl("orders", path)``): for each
        # helper call being read, its parameters (by id) -> what the call passes for them
        self._bound: list[dict[int, cst.BaseExpression]] = []
        self._following: set[int] = set()  # parameters whose calls' arguments are being read
        self._why: Optional[str] = None  # why the SQL text being read is not known (unknown_reason)
        self.mode = self._mode()
        self.catalog: dict[str, _sql.TableDef] = {}
        self.problems: dict[str, str] = {}  # table name -> why its DDL is not translated
        self.views: set[str] = set()  # names of the views the program creates (create_temporary_view, CREATE VIEW)
        self._schemas: dict[int, Optional[dict[str, str]]] = {}
        self._view_tables: dict[str, cst.BaseExpression] = {}  # view name -> the Table expression it names (or the
        # create_temporary_view(name, ds, *fields) call of a view of a stream's fields)
        self._view_sql: dict[str, str] = {}  # view name -> the query of its CREATE VIEW
        # id of a create_temporary_table(name, descriptor) call -> (its table, the sources of its markers)
        self.descriptors: dict[int, tuple[_sql.TableDef, tuple[str, ...]]] = {}
        self._sql_tables: Optional[dict[str, _sql.TableDef]] = None
        # table name -> (the call declaring it, the sources of the markers of its options); the same
        # per declaration (id of its TableDef): a table declared in each branch of an if has two
        self.origins: dict[str, tuple[cst.Call, tuple[str, ...]]] = {}
        self._def_origins: dict[int, tuple[cst.Call, tuple[str, ...]]] = {}
        self._bounded: dict = {}
        # table name -> (the If statement, the table its body declares, the table its else declares):
        # a table declared in each branch of an if whose test gives the same answer where it is written
        self.conditional: dict[str, tuple[cst.If, _sql.TableDef, _sql.TableDef]] = {}
        self._legacy_tables: set[str] = set()  # tables of connect() descriptors (Flink 1.x)
        self._read_catalog()
        self.udtf_columns: dict[str, int] = {}  # @udtf def name -> how many columns it gives (f0, f1...)
        self.result_types: dict[str, str] = {}  # a scalar function's name -> the Spark type of its result_type
        self.functions: dict[str, str] = self._functions()

    # -- SQL text -----------------------------------------------------------------------------
    def sql(self, node: Optional[cst.BaseExpression]) -> Optional[SqlText]:
        """The SQL text of ``node`` (leading and trailing whitespace removed: a statement in a
        triple-quoted string starts on its own line), or None."""
        found = self._sql(node)
        return SqlText(found.text.strip(), found.parts, found.tables) if found is not None else None

    def unknown_reason(self, node: Optional[cst.BaseExpression]) -> Optional[str]:
        """Why ``sql(node)`` is None when a helper's text depends on what the call gives (the
        ``is None`` test of a value read at run time, a text built in an ``if``); None otherwise."""
        self._why = None
        try:
            return self._why if self._sql(node) is None else None
        finally:
            self._why = None

    def _unknown(self, why: str) -> None:
        if self._why is None:
            self._why = why

    def _sql(self, node: Optional[cst.BaseExpression]) -> Optional[SqlText]:
        code = self.resolver.module.code_for_node
        if node is None:
            return None
        if isinstance(node, cst.Name):
            arg = self._argument(node)
            if arg is not None:
                return self._outside(arg)
            value = self.resolver.single_value(node)
            if value is None and (built := self._built(node)) is not None:
                return built
            if value is None and (imported := imported_constant(self.resolver, node)) is not None:
                return self._sql(imported)  # a string of a module of the project (transpiler/project.py)
            if value is None and not self._bound:  # a helper's parameter: the text every call passes, when they agree
                refs = self.resolver.referents(node)
                key = id(refs[0].node) if len(refs) == 1 else None
                if key is None or key in self._following:
                    return None  # a recursive helper passing its parameter on
                self._following.add(key)
                try:
                    found = {self._sql(a) for a in self.resolver.arguments_of(node)}
                finally:
                    self._following.discard(key)
                text = found.pop() if len(found) == 1 else None
                return text if text is not None and not text.parts and not text.tables else None
            return self._sql(value) if value is not None and value is not node else None
        if isinstance(node, cst.SimpleString):
            return SqlText(node.evaluated_value)
        if isinstance(node, cst.IfExp):  # "..." if path is not None else "": the branch the call takes
            holds = self._holds(node.test)
            return None if holds is None else self._sql(node.body if holds else node.orelse)
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Name):
            return self._helper_sql(node)
        if isinstance(node, cst.ConcatenatedString):
            left, right = self._sql(node.left), self._sql(node.right)
            return _joined(left, right)
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Add):
            return _joined(self._operand(node.left), self._operand(node.right))
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Modulo):
            left = self._sql(node.left)
            items = [e.value for e in node.right.elements] if isinstance(node.right, cst.Tuple) else [node.right]
            if left is None or left.parts or left.tables:
                return None
            pieces = left.text.split("%s")
            if len(pieces) != len(items) + 1 or any("%" in p.replace("%%", "") for p in pieces):
                return None
            return self._formatted([p.replace("%%", "%") for p in pieces], items)
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "format" \
                and isinstance(node.func.value, (cst.SimpleString, cst.ConcatenatedString)):
            left = self._sql(node.func.value)
            items = [a.value for a in node.args]
            if left is None or left.parts or left.tables or any(a.keyword or a.star for a in node.args):
                return None
            numbered = re.split(r"\{(\d+)\}", left.text)  # "INSERT INTO {0} SELECT * FROM {1}"
            if len(numbered) > 1 and not re.search(r"\{\}", left.text):
                order = [int(i) for i in numbered[1::2]]
                if any(i >= len(items) for i in order):
                    return None
                pieces, items = numbered[0::2], [items[i] for i in order]
            else:
                pieces = left.text.split("{}")
            if len(pieces) != len(items) + 1 or any("{" in p or "}" in p for p in pieces):
                return None
            return self._formatted(pieces, items)
        if isinstance(node, cst.FormattedString):
            text, parts, found_tables = [], [], []
            for part in node.parts:
                if isinstance(part, cst.FormattedStringText):
                    text.append(part.value)
                elif part.conversion is not None or part.format_spec is not None:
                    return None
                elif self._bound:  # inside a helper: its parameters' values, or a module-level name
                    value = self._sql(part.expression)
                    source = self._placeholder(part.expression)
                    if value is not None and not value.parts and not value.tables:
                        text.append(value.text)
                    elif source is not None and not self._is_table(part.expression):
                        text.append(_MARK.format(len(parts)))
                        parts.append(source)
                    else:
                        return None
                elif self._is_table(part.expression):
                    text.append(_TABLE_MARK.format(len(found_tables)))
                    found_tables.append(code(part.expression))
                elif (known := self._identifier(part.expression, "".join(text))) is not None:
                    text.append(known)  # CREATE TABLE {table_name}: a name bound once to 'taxi_events'
                else:
                    text.append(_MARK.format(len(parts)))
                    parts.append(code(part.expression))
            raw = "".join(text)
            if "\\" in raw:
                return None  # escapes in the literal: not read here
            if parts and found_tables:
                return None  # spark.sql takes the tables as arguments, not in an f-string
            return SqlText(raw, tuple(parts), tuple(found_tables))
        return None

    def _built(self, name: cst.Name) -> Optional[SqlText]:
        """The text of a function's local name built by statements of its body (``ddl = "CREATE
        TABLE " + name + " ("``, then ``ddl += "..."``), read where a later statement of that
        body reads it: each assignment and ``+=`` in order. None when the name is bound anywhere
        else (in an ``if``, a loop, by another operator) or the text of a step is not known."""
        resolver = self.resolver
        stmt, up = name, resolver.parent(name)
        while up is not None and not isinstance(up, cst.IndentedBlock):
            stmt, up = up, resolver.parent(up)
        func = resolver.parent(up) if up is not None else None
        bindings = resolver.scope_bindings(name)
        if not isinstance(func, cst.FunctionDef) or not bindings or stmt not in up.body:
            return None
        steps: list[tuple[bool, cst.BaseExpression]] = []
        for line in up.body[:up.body.index(stmt)]:
            for small in line.body if isinstance(line, cst.SimpleStatementLine) else ():
                if isinstance(small, cst.Assign) and len(small.targets) == 1 \
                        and isinstance(small.targets[0].target, cst.Name) and small.targets[0].target.value == name.value:
                    steps.append((False, small.value))
                elif isinstance(small, cst.AugAssign) and isinstance(small.target, cst.Name) and small.target.value == name.value:
                    if not isinstance(small.operator, cst.AddAssign):
                        return None
                    steps.append((True, small.value))
        if len(steps) >= 1 and len(bindings) > len(steps) and self._bound:
            self._unknown(f"{func.name.value}() builds {name.value} in statements that run or not when the job runs "
                          "(an if, a loop)")
        if len(steps) < 2 or steps[0][0] or len(bindings) != len(steps):
            return None  # one assignment is single_value's; others bound elsewhere: not followed
        text: Optional[SqlText] = None
        for added, value in steps:
            found = self._sql(value)
            text = _joined(text, found) if added else found
            if text is None:
                return None
        return text

    def _identifier(self, expr: cst.BaseExpression, before: str) -> Optional[str]:
        """The text of an f-string placeholder of SQL that stands outside SQL string literals
        (``before`` holds an even number of quotes: a table's name, ``CREATE TABLE {name}``) and is
        a name bound once to a literal that is an SQL identifier (``table_name = "taxi_events"``) or
        to the call of a helper of the module returning one (``source_table =
        create_source(t_env)``, whose ``return table_name`` is read with the call's arguments);
        None otherwise (a placeholder inside quotes, a path: stays one in the converted f-string)."""
        if not isinstance(expr, cst.Name) or before.count("'") % 2:
            return None
        value = self.resolver.single_value(expr)
        if isinstance(value, cst.Call):  # what a helper returns: its one return, the last statement of its body
            helper = self.resolver.local_def(value.func) if isinstance(value.func, cst.Name) else None
            last = helper.body.body[-1] if isinstance(helper, cst.FunctionDef) and isinstance(helper.body, cst.IndentedBlock) else None
            if not (isinstance(last, cst.SimpleStatementLine) and isinstance(last.body[-1], cst.Return)):
                return None
        elif not isinstance(value, cst.SimpleString):
            return None
        found = self._sql(expr)
        return found.text if found is not None and re.fullmatch(r"[A-Za-z_]\w*", found.text) else None

    def _operand(self, expr: cst.BaseExpression) -> Optional[SqlText]:
        """An operand of ``+`` in SQL text: its text, or inside a helper a placeholder of the value
        the caller passes (``"'path' = '" + path + "'"``, as an f-string's ``{path}``)."""
        found = self._sql(expr)
        if found is not None or not self._bound or isinstance(expr, (cst.BaseString, cst.BinaryOperation)):
            return found
        source = self._placeholder(expr)
        return SqlText(_MARK.format(0), (source,)) if source is not None and not self._is_table(expr) else None

    def _holds(self, test: cst.BaseExpression) -> Optional[bool]:
        """Whether ``x is None`` / ``x is not None`` holds where the text is read: ``x`` a
        parameter of the helper call being read (given None, or text known here, or left to a
        default of either) or a name bound once to one; None when it cannot be told."""
        if not isinstance(test, cst.Comparison) or len(test.comparisons) != 1:
            return None
        target = test.comparisons[0]
        if not isinstance(target.operator, (cst.Is, cst.IsNot)) or not (
                isinstance(target.comparator, cst.Name) and target.comparator.value == "None"):
            return None
        none = self._is_none(test.left)
        if none is None:
            code = self.resolver.module.code_for_node
            given = self._argument(test.left) if isinstance(test.left, cst.Name) else None
            self._unknown(f"its text depends on whether {code(test.left)} is None"
                          + (f", given {code(given)} by this call" if given is not None else "")
                          + ": a value known only when the job runs")
        return None if none is None else none == isinstance(target.operator, cst.Is)

    def _is_none(self, expr: cst.BaseExpression) -> Optional[bool]:
        if isinstance(expr, cst.Name) and expr.value == "None":
            return True
        if isinstance(expr, cst.Name) and (arg := self._argument(expr)) is not None:
            frame = self._bound.pop()
            try:
                return self._is_none(arg)
            finally:
                self._bound.append(frame)
        if isinstance(expr, cst.Name) and (value := self.resolver.single_value(expr)) is not None:
            return self._is_none(value)
        found = self._sql(expr) if isinstance(expr, (cst.SimpleString, cst.ConcatenatedString)) else None
        return False if found is not None else None

    def _formatted(self, pieces: list[str], items: list[cst.BaseExpression]) -> Optional[SqlText]:
        """SQL text ``pieces`` with ``items`` formatted in between (``"... {}".format(a)``,
        ``"... %s" % a``): a Table is registered under a name (a table marker), a name known
        when converting (``output_table``, bound once to a literal) is its text; None otherwise."""
        code = self.resolver.module.code_for_node
        text, found_tables, parts = [], [], []
        for i, piece in enumerate(pieces):
            text.append(piece)
            if i == len(items):
                break
            item = items[i]
            if not self._bound and self._is_table(item):
                text.append(_TABLE_MARK.format(len(found_tables)))
                found_tables.append(code(item))
                continue
            value = self._sql(item)
            if value is not None and not value.parts and not value.tables:
                text.append(value.text)
                continue
            # another value (a path the caller computes): a placeholder of the converted f-string
            source = self._placeholder(item) if self._bound else code(item) if isinstance(item, (cst.Name, cst.Attribute)) else None
            if source is None or self._is_table(item):
                return None
            text.append(_MARK.format(len(parts)))
            parts.append(source)
        if parts and found_tables:
            return None  # spark.sql takes the tables as arguments, not in an f-string
        return SqlText("".join(text), tuple(parts), tuple(found_tables))

    def registered_before(self, call: cst.Call) -> Optional[cst.Call]:
        """The ``create_temporary_view``/``create_temporary_table`` call on a table environment that
        registers the name ``call`` (a ``create_temporary_view(name, ...)`` statement) registers,
        as a statement of the same block before it: Flink 2.3 fails at ``call`` ("Temporary table
        ... already exists"). None when there is none, or when the program drops a table or view
        (a drop_* call, DROP in a string) or the name is not known when converting."""
        name = self.name(call.args[0].value) if call.args else None
        if name is None or self.resolver.calls_of("drop_temporary_view", "drop_temporary_table", "drop_view", "drop_table") \
                or any(re.search(r"\bdrop\b", s.value, re.I) for s in nodes(self.resolver.module, cst.SimpleString)):
            return None

        def statement(node: cst.Call):  # (block, index) of the statement node is, or None
            expr = self.resolver.parent(node)
            line = self.resolver.parent(expr) if isinstance(expr, cst.Expr) else None
            block = self.resolver.parent(line) if isinstance(line, cst.SimpleStatementLine) else None
            if block is None or not hasattr(block, "body") or not isinstance(block.body, (list, tuple)) \
                    or len(line.body) != 1:
                return None
            return block, [i for i, s in enumerate(block.body) if s is line][0]

        here = statement(call)
        if here is None:
            return None
        for other in self.resolver.calls_of("create_temporary_view", "create_temporary_table"):
            if other is call or not other.args or self.name(other.args[0].value) != name \
                    or self.resolver.type_of(other.func.value) not in (T.TABLE_ENV, T.STREAM_TABLE_ENV):
                continue
            there = statement(other)
            if there is not None and there[0] is here[0] and there[1] < here[1]:
                return other
        return None

    def current_names(self, method: str) -> Optional[frozenset[str]]:
        """The names the program gives ``use_catalog``/``use_database`` (``method``) on its table
        environments, or None when one of them is not known when converting (an expression) or
        the built-in catalog/database is renamed (``with_built_in_catalog_name`` and the like)."""
        if self.resolver.calls_of("with_built_in_catalog_name", "with_built_in_database_name"):
            return None
        names = set()
        for call in self.resolver.calls_of(method):
            if self.resolver.type_of(call.func.value) not in (T.TABLE_ENV, T.STREAM_TABLE_ENV):
                continue
            name = self.name(call.args[0].value) if len(call.args) == 1 else None
            if name is None:
                return None
            names.add(name)
        return frozenset(names)

    def name(self, node: Optional[cst.BaseExpression]) -> Optional[str]:
        """A table's name given as ``node`` when it is known when converting: a string literal, or
        a name bound once to one (``from_path(input_table)``); None otherwise."""
        if node is None or isinstance(node, (cst.FormattedString, cst.BinaryOperation, cst.Call)):
            return None  # built text: a name only through the SQL it is part of
        found = self._sql(node)
        if found is None or found.parts or found.tables:
            return None
        # Flink parses the path as SQL identifiers: `left` (a reserved word quoted) is the table left
        quoted = re.fullmatch(r"`([^`.]+)`", found.text)
        return quoted.group(1) if quoted else found.text

    def _argument(self, name: cst.Name) -> Optional[cst.BaseExpression]:
        """What the helper call being read passes for the parameter ``name`` reads (its default
        when it passes nothing); None when ``name`` is no parameter of it."""
        if not self._bound:
            return None
        refs = self.resolver.referents(name)
        if len(refs) != 1 or id(refs[0].node) not in self._bound[-1]:
            return None
        return self._bound[-1][id(refs[0].node)]

    def _outside(self, node: cst.BaseExpression) -> Optional[SqlText]:
        """The SQL text of ``node`` read where the helper call being read stands."""
        frame = self._bound.pop()
        try:
            return self._sql(node)
        finally:
            self._bound.append(frame)

    def _placeholder(self, expr: cst.BaseExpression) -> Optional[str]:
        """The source of an f-string placeholder of a helper's SQL as the caller can write it: the
        argument a parameter is given (a name, a dotted name, or any expression when the helper
        reads the parameter once: evaluated once either way); a module-level name the helper
        reads; None otherwise."""
        if isinstance(expr, cst.Name):
            arg = self._argument(expr)
            if arg is not None:
                reads = [r for b in self.resolver.scope_bindings(expr) or () if isinstance(b.node, cst.Param) for r in b.references]
                if not isinstance(arg, (cst.Name, cst.Attribute)) and len(reads) != 1:
                    return None
                frame = self._bound.pop()
                try:
                    return self._placeholder(arg) if self._bound else self.resolver.module.code_for_node(arg)
                finally:
                    self._bound.append(frame)
            refs = self.resolver.referents(expr)
            if refs and all(r.scope.kind == "global" for r in refs):
                return expr.value
        return None

    def _helper_sql(self, call: cst.Call) -> Optional[SqlText]:
        """The SQL text a helper function of the module returns for this call (``def
        source_ddl(name, path): return f"CREATE TABLE {name} ..."``): its one ``return``, read
        with its parameters standing for what the call passes (literals, names bound once to
        them; a name of the caller's for a placeholder); None otherwise."""
        target = self.resolver.local_def(call.func)
        if not isinstance(target, cst.FunctionDef) or len(self._bound) > 5:
            return None
        values = returns_of(target)
        params = target.params
        if len(values) != 1 or isinstance(params.star_arg, cst.Param) or params.star_kwarg is not None:
            return None
        bound: dict[int, cst.BaseExpression] = {}
        positional = [a for a in call.args if a.keyword is None]
        if any(a.star for a in call.args) or len(positional) > len(params.params):
            return None
        for param, arg in zip(params.params, positional):
            bound[id(param)] = arg.value
        for arg in call.args:
            if arg.keyword is not None:
                param = next((p for p in (*params.params, *params.kwonly_params) if p.name.value == arg.keyword.value), None)
                if param is None:
                    return None
                bound[id(param)] = arg.value
        for param in (*params.params, *params.kwonly_params):
            if id(param) not in bound:
                if param.default is None:
                    return None
                bound[id(param)] = param.default
        self._bound.append(bound)
        try:
            return self._sql(values[0])
        finally:
            self._bound.pop()

    def _sinks(self) -> set[str]:
        """Names of the tables the program writes: INSERT INTO, execute_insert, add_insert."""
        found = set()
        for call in nodes(self.resolver.module, cst.Call):
            if not isinstance(call.func, cst.Attribute) or not call.args:
                continue
            method, first = call.func.attr.value, call.args[0].value
            if method in ("execute_insert", "add_insert", "insert_into") and self.name(first) is not None:
                found.add(self.name(first))
            elif method in ("execute_sql", "add_insert_sql", "sql_update"):
                text = self.sql(first)
                if text is None:
                    continue
                try:
                    if _sql.statement_kind(text.text) == "insert":
                        found.add(_sql.insert(text.text)[0])
                except _sql.Untranslatable:
                    match = re.match(r"\s*INSERT\s+(?:INTO|OVERWRITE)\s+`?([\w.]+)", text.text, re.I)
                    if match:
                        found.add(match.group(1))
        return found

    # -- tables the program does not declare ---------------------------------------------------
    def undeclared(self, name: str) -> bool:
        """Whether ``name`` is a table no statement of the program declares (no CREATE TABLE, table
        descriptor, connect() descriptor or view, and no declaration of it the model could not
        read): for Flink a table of its catalog (Hive, JDBC, or declared by code not in this file).
        The model knows its name only: not its columns (``schema`` is None), connector or options."""
        if _TABLE_RE.fullmatch(name):  # a Table of the program put in the SQL text (``% table``): its DataFrame
            return False
        return not (name in self.catalog or name in self.views or name in self.problems or name in self.conditional)

    def catalog_refused(self, name: str) -> Optional[str]:
        """Why the undeclared table ``name`` is not read (``spark.table``) or written
        (``insertInto``) as the table of that name in Spark's session catalog; None when it is: in
        batch mode, where Flink reads only bounded tables (so the table is one a batch DataFrame
        reads) and writes inserts only."""
        if self.mode != "batch":
            return (f"table {name!r} is not declared by this program and the job runs in streaming mode: whether it is "
                    "bounded (spark.table or spark.readStream.table) and which changes it takes are its catalog's, "
                    "not known when converting")
        return None

    @staticmethod
    def catalog_note(name: str, use: str) -> str:
        """The NOTE of ``use`` (a read or a write) of the undeclared table ``name``."""
        return (f"{use} table {name!r}, which this program does not declare (Flink finds it in its catalog): Spark "
                f"needs a table or view named {name!r} in its session catalog, registered as Flink's catalog holds it")

    def reads(self, name: str) -> bool:
        """Whether the program may read the table ``name``: ``from_path``/``scan`` of it, or a SQL
        statement naming it other than as the table it inserts into or creates (or SQL text not
        known when converting, or a table named by an expression)."""
        found, unknown = self._reads()
        return unknown or name in found

    def _reads(self) -> tuple[set[str], bool]:
        if self._read_names is None:
            found, unknown = set(), False
            for call in nodes(self.resolver.module, cst.Call):
                if not isinstance(call.func, cst.Attribute) or not call.args:
                    continue
                method, first = call.func.attr.value, call.args[0].value
                if method in ("from_path", "scan"):
                    if self.name(first) is not None:
                        found.add(self.name(first))
                    else:
                        unknown = True
                elif method in ("execute_sql", "sql_query", "add_insert_sql", "sql_update"):
                    text = self.sql(first)
                    names = _sql.tables_read(text.text) if text is not None else None
                    if names is None:
                        unknown = True
                    else:
                        found |= names
            self._read_names = (found, unknown)
        return self._read_names

    def sql_tables(self) -> dict[str, _sql.TableDef]:
        """What SQL statements read: the declared tables (a Kafka table with the columns of its
        Spark view, ``_kafka.read_columns``), the views of Tables whose schema is known (as
        tables of no connector), and the views over unbounded tables (unbounded, columns not
        known)."""
        if self._sql_tables is not None:
            return self._sql_tables
        from flink2spark.rules.table import _kafka

        out = {name: (_kafka.read_columns(t) if not t.bounded else t) for name, t in self.catalog.items()}
        self._sql_tables = out
        for name, table in self._view_tables.items():
            schema = self.schema(table)
            if name not in out and (schema is not None or not self.bounded(table)):
                out[name] = _sql.TableDef(name=name, columns=tuple((schema or {}).items()), computed=(), connector="",
                                          options={}, watermark=None, primary_key=(), bounded=self.bounded(table))
        for name, text in self._view_sql.items():  # in program order: a view may read an earlier one
            if name in out:
                continue
            if _sql.streaming(text, out):
                out[name] = _sql.TableDef(name=name, columns=(), computed=(), connector="", options={},
                                          watermark=None, primary_key=(), bounded=False)
            elif (columns := _sql.view_columns(text, out, self.sql_functions())) is not None:
                # the types of its columns (AVG, division, windows over them depend on them)
                out[name] = _sql.TableDef(name=name, columns=columns, computed=(), connector="", options={},
                                          watermark=None, primary_key=(),
                                          after_1970=_sql.view_after_1970(text, out, self.sql_functions()))
        return out

    def options_at(self, name: str, site: cst.CSTNode, table: Optional[_sql.TableDef] = None) -> Optional[tuple[str, ...]]:
        """The sources of the markers of table ``name``'s options (of its declaration ``table``,
        when given: one of a table declared in each branch of an if), when they mean the same at
        ``site`` (a statement writing the table) as where it is declared; None otherwise."""
        call, parts = self._def_origins.get(id(table), self.origins.get(name, (None, ())))
        found = []
        for part in parts:
            for node in nodes(cst.parse_expression(part), cst.Name):
                there = self.resolver.visible_bindings(node.value, call)
                if there is None or there != self.resolver.visible_bindings(node.value, site):
                    constant = self._constant(part, there)
                    if constant is None:
                        return None
                    part = constant
                    break
            found.append(part)
        return tuple(found)

    def _constant(self, part: str, bindings: Optional[set]) -> Optional[str]:
        """The Python literal of ``part`` when it is a name that has one binding where the table
        is declared, to a string literal (a helper's ``table_name = 'processed_events'`` read by
        its CREATE TABLE's ``'table-name' = '{table_name}'``): the same value at any site."""
        if not re.fullmatch(r"[A-Za-z_]\w*", part) or bindings is None or len(bindings) != 1:
            return None
        binding = next(iter(bindings))
        value = self.resolver.assign_values.get(id(binding.node)) if binding.node is not None else None
        if not isinstance(value, cst.SimpleString):
            return None
        return repr(value.evaluated_value)

    def bounded(self, node) -> bool:
        """Whether a Table expression is a bounded table (a batch DataFrame in Spark); False when
        it reads an unbounded one (a Kafka table: a streaming DataFrame). What cannot be
        followed is taken as bounded, as before Kafka tables were converted."""
        key = ("bounded", id(node))
        if key not in self._bounded:
            self._bounded[key] = True  # a cycle
            self._bounded[key] = self._is_bounded(node)
        return self._bounded[key]

    def event_time(self, node) -> Optional[str]:
        """The watermark column of the unbounded table a Table expression is (``from_path``/
        ``scan`` of a declared table with a watermark, a name bound once to one, a ``filter``/
        ``where`` of one): the column a streaming group window can be finalised by; None
        otherwise (a bounded table, a projection that may rename it, a table of a stream...).
        A Kafka table without WATERMARK: its PROCTIME() column, which its Spark view watermarks
        (``TableDef.proctime_watermark``, NOTE F2S332 on the view)."""
        table = self._event_table(node)
        if table is not None:
            return table.watermark[0]
        table = None if self.bounded(node) else self._watermarked_table(node, proctime=True)
        return table.proctime_watermark() if table is not None else None

    def rowtime_read(self, node) -> Optional[str]:
        """What the watermark column of the unbounded table ``node`` is (``event_time``) when
        the Spark view reads Flink's TIMESTAMP without time zone in the session time zone
        (``TableDef.rowtime_read``); None otherwise."""
        table = self._event_table(node)
        return table.rowtime_read() if table is not None else None

    def over_late(self, node, column: Optional[str]) -> Optional[str]:
        """Why Flink may drop records that an over window ordered by ``column`` over the Table
        expression ``node`` keeps in Spark (None when it cannot): in streaming mode, a table
        declared with a watermark on ``column`` (bounded or not). Flink's over aggregation on a
        rowtime buffers each record until the watermark passes it and drops those at or behind
        the watermark when they arrive; the watermark moves every 200 ms by default, so which
        ones depends on timing. Seen on Flink 2.3 with ``WATERMARK FOR tx_time AS tx_time`` over
        a csv file: records with the time of the one before them dropped, not the same ones by
        the Table API's and the SQL query of one run."""
        table = self._watermarked_table(node) if self.mode == "streaming" else None
        if table is None or table.watermark[0] != column:
            return None
        return _late_over(table.watermark)

    def sql_over_late(self, text: str) -> Optional[str]:
        """``over_late`` of a SQL statement's OVER windows ordered by a watermark column."""
        if self.mode != "streaming":
            return None
        found = _sql.over_watermarks(text, self.sql_tables())
        return _late_over(found[0]) if found else None

    def _event_table(self, node) -> Optional["_sql.TableDef"]:
        """The declared unbounded table with a watermark that ``node`` reads (``event_time``)."""
        return None if self.bounded(node) else self._watermarked_table(node)

    def _watermarked_table(self, node, proctime: bool = False) -> Optional["_sql.TableDef"]:
        """The declared table with a watermark that ``node`` reads (through names bound once and
        filters); with ``proctime``, also one whose view watermarks its PROCTIME() column."""
        if isinstance(node, cst.Name):
            value = self.resolver.single_value(node)
            return self._watermarked_table(value, proctime) if value is not None and value is not node else None
        if not (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute)):
            return None
        method, receiver = node.func.attr.value, node.func.value
        typ = self.resolver.type_of(receiver)
        if typ in (T.TABLE_ENV, T.STREAM_TABLE_ENV) and method in ("from_path", "scan") and len(node.args) == 1:
            table = self.sql_tables().get(self.name(node.args[0].value))
            marked = table is not None and (table.watermark is not None or (proctime and table.proctime_watermark() is not None))
            return table if marked else None
        if typ == T.TABLE and method in ("filter", "where"):
            return self._watermarked_table(receiver, proctime)
        return None

    def _is_bounded(self, node) -> bool:
        if P.is_stream(self.resolver.type_of(node)):  # a DataStream (from_data_stream, a view of one)
            from flink2spark.rules.pyflink._streams import facts

            return not (facts(self.resolver, node).micro_batches or facts(self.resolver, node).unbounded_source)
        if isinstance(node, cst.Name):
            value = self.resolver.single_value(node)
            if value is None:  # a helper's parameter: what each call passes
                return all(self.bounded(a) for a in self.resolver.arguments_of(node))
            return self.bounded(value) if value is not node else True
        if not (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute)):
            return True
        method, receiver = node.func.attr.value, node.func.value
        typ = self.resolver.type_of(receiver)
        first = node.args[0].value if node.args else None
        if typ in (T.TABLE_ENV, T.STREAM_TABLE_ENV):
            if method == "from_data_stream" and first is not None:
                return self.bounded(first)
            if method == "create_temporary_view" and len(node.args) > 1:  # a view of a stream's fields
                return self.bounded(node.args[1].value)
            if method in ("from_path", "scan") and len(node.args) == 1 and self.name(first) is not None:
                table = self.sql_tables().get(self.name(first))
                return table is None or table.bounded
            if method == "sql_query":
                text = self.sql(first)
                return text is None or not _sql.streaming(text.text, self.sql_tables())
            return True
        if not isinstance(receiver, (cst.Call, cst.Name)):
            return True
        tables = [a.value for a in node.args if self.resolver.type_of(a.value) == T.TABLE]
        return self.bounded(receiver) and all(self.bounded(t) for t in tables)

    # -- schemas ------------------------------------------------------------------------------
    def schema(self, node) -> Optional[dict[str, str]]:
        key = id(node)
        if key not in self._schemas:
            self._schemas[key] = None  # a cycle (a name reassigned from itself) has no schema
            self._schemas[key] = self._schema(node)
        return self._schemas[key]

    def _schema(self, node) -> Optional[dict[str, str]]:
        from flink2spark.rules.table import _expressions as E
        from flink2spark.rules.table import _types as TY

        resolver = self.resolver
        if P.is_stream(resolver.type_of(node)):  # a view of a DataStream (create_temporary_view)
            table = self.stream_columns(node)[0]
            return table.schema if table is not None else None
        if isinstance(node, cst.Name):
            value = resolver.value_at(node)  # also table = table.select(...): the value reaching the use
            if value is None:  # a helper's parameter: the schema every call passes, when they agree
                found = [self.schema(a) for a in resolver.arguments_of(node)]
                return found[0] if found and found[0] is not None and all(f == found[0] for f in found) else None
            return self.schema(value) if value is not node else None
        if isinstance(node, cst.Call) and resolver.type_of(node) == T.TABLE and not isinstance(node.func, cst.Attribute):
            target = resolver.local_def(node.func)  # transform(t): the schema of what the helper returns
            if isinstance(target, cst.FunctionDef):
                found = [self.schema(r) for r in returns_of(target)]
                return found[0] if found and found[0] is not None and all(f == found[0] for f in found) else None
            return None
        if not (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute)):
            return None
        method, receiver = node.func.attr.value, node.func.value
        typ = resolver.type_of(receiver)
        args = [a.value for a in node.args if a.keyword is None and not a.star]
        if typ == T.STREAM_TABLE_ENV and method in ("from_data_stream", "create_temporary_view"):
            table = self.from_stream(node)[0]
            return table.schema if table is not None else None
        if typ in (T.TABLE_ENV, T.STREAM_TABLE_ENV):
            if method == "sql_query" and args:
                text = self.sql(args[0])
                return _sql.query_columns(text.text, self.sql_tables()) if text is not None and not text.parts and not text.tables else None
            if method == "from_elements":  # from_elements(elements, schema=None, verify_schema=True)
                keywords = {a.keyword.value: a.value for a in node.args if a.keyword is not None}
                elements = args[0] if args else keywords.get("elements")
                schema = args[1] if len(args) > 1 else keywords.get("schema")
                if elements is None:
                    return None
                rows, names = (self._value(a) for a in (elements, schema))
                return _literal_schema(rows, names, resolver)
            if method == "from_pandas" and len(args) > 1:  # only a DataTypes.ROW schema gives the types
                names = self._value(args[1])
                return None if isinstance(names, (cst.List, cst.Tuple)) else _literal_schema(None, names, resolver)
            if method == "from_pandas" and len(args) == 1 and isinstance(args[0], cst.Name):
                return _pandas_schema(resolver, args[0])
            if method in ("from_path", "scan") and args and self.name(args[0]) is not None:
                table = self.sql_tables().get(self.name(args[0]))
                return dict(table.columns) if table is not None else None
            return None
        if typ != T.TABLE:
            if typ == T.GROUPED_TABLE and method == "select":
                source = self.schema(receiver.func.value) if isinstance(receiver, cst.Call) and isinstance(receiver.func, cst.Attribute) else None
                return self._selected(node.args, source)
            return None
        source = self.schema(receiver)
        if method == "alias" and source is not None:
            names = alias_names(node.args)
            return dict(zip(names, source.values())) if names is not None and len(names) == len(source) else None
        if method in ("filter", "where", "distinct", "order_by", "fetch", "limit", "offset", "union_all", "union",
                      "intersect", "intersect_all", "minus", "minus_all"):
            return source
        if method == "select":
            return self._selected(node.args, source, unnamed)
        if method in ("add_columns", "add_or_replace_columns") and source is not None:
            added = self._selected(node.args, source)
            return {**source, **added} if added is not None else None
        if method == "drop_columns" and source is not None:
            dropped = {a.value.args[0].value.evaluated_value for a in node.args
                       if isinstance(a.value, cst.Call) and a.value.args and isinstance(a.value.args[0].value, cst.SimpleString)}
            return {k: v for k, v in source.items() if k not in dropped}
        if method == "rename_columns" and source is not None:  # rename_columns(col("a").alias("b"), ...)
            renamed = {}
            for a in node.args:
                v = a.value
                if not (a.keyword is None and isinstance(v, cst.Call) and isinstance(v.func, cst.Attribute)
                        and v.func.attr.value == "alias" and len(v.args) == 1 and isinstance(v.args[0].value, cst.SimpleString)
                        and isinstance(v.func.value, cst.Call) and len(v.func.value.args) == 1
                        and isinstance(v.func.value.args[0].value, cst.SimpleString)
                        and dotted_names(self.resolver)(v.func.value.func) == f"{E.EXPRESSIONS}.col"):
                    return None
                old, new = v.func.value.args[0].value.evaluated_value, v.args[0].value.evaluated_value
                if old not in source:
                    return None
                renamed[old] = new
            return {renamed.get(k, k): t for k, t in source.items()}
        if method in _JOINS and node.args and source is not None:  # both inputs' columns (Flink refuses a name in both)
            other = self.schema(node.args[0].value)
            return {**source, **other} if other is not None and not set(source) & set(other) else None
        return None

    # -- bridges between DataStreams and Tables ----------------------------------------------
    def stream_columns(self, stream) -> tuple[Optional["StreamTable"], Optional[str]]:
        """(table, None): the (name, Spark type) columns Flink gives a Table made of the
        (original) DataStream expression ``stream`` (``from_data_stream(ds)``,
        ``create_temporary_view(name, ds)``), from the stream model's facts: a row's or a
        tuple's fields (``ROW_NAMED``'s names, else f0, f1...) or one column f0 of a basic type.
        (None, why) when such a table is not converted."""
        from flink2spark.rules.pyflink._common import PICKLED, TableRows, basic_type
        from flink2spark.rules.pyflink._streams import facts

        found = facts(self.resolver, stream)
        if found.unbounded_source and not found.micro_batches:
            return None, ("a table of an unbounded stream whose source is not converted (only Kafka and monitored files"
                          " become streaming DataFrames)")
        t = found.element_type
        if t is None:
            return None, "the stream's type could not be followed (Flink derives the table's columns from it)"
        if t is PICKLED:
            return None, "a stream without type information: Flink's table has one RAW column of pickled objects"
        if isinstance(t, TableRows):
            fields = list(t.fields)
        elif isinstance(t, str):
            fields = [("f0", t)]
        elif not isinstance(t, cst.BaseExpression):
            return None, "a stream of (flag, row) pairs of to_retract_stream() is not converted yet"
        else:
            fields = _stream_fields(self.resolver, t)
            if isinstance(fields, str):
                return None, fields
        bad = [k for _, k in fields if k not in _STREAM_TYPES]
        if bad:
            return None, f"a field of Types.{bad[0]}() (only basic types are converted yet)"
        scalar = isinstance(t, str) or (isinstance(t, cst.BaseExpression) and basic_type(self.resolver, t) in _STREAM_TYPES)
        if found.micro_batches and found.api_type == P.KEYED:  # f2s_stream's keyed stream is no stream of elements
            return None, "a table of a keyed unbounded stream (key_by() before from_data_stream) is not converted yet"
        if found.micro_batches and any(k == "INSTANT" for _, k in fields):
            return None, "a table of an unbounded stream with a field of Types.INSTANT() is not converted yet"
        return StreamTable(stream, tuple((name, _STREAM_TYPES[k]) for name, k in fields), None, scalar,
                           unbounded=found.micro_batches), None

    def from_stream(self, call: cst.Call) -> tuple[Optional["StreamTable"], Optional[str]]:
        """The Table of ``t_env.from_data_stream(ds, *fields_or_schema)`` or the view of
        ``t_env.create_temporary_view(name, ds, *fields_or_schema)`` (original call), or
        (None, why it is not converted): the stream's columns (``stream_columns``), then what
        the arguments make of them: ``col("a")``/``col("a").alias("b")`` of input fields
        (reordered, projected, renamed), as many new names as fields (renamed by position), or
        a ``Schema`` declaring the same physical columns, or computed columns and a watermark
        (``_declared``). Metadata columns (the stream's rowtime) and proctime attributes are
        not converted."""
        first = 1 if call.func.attr.value == "create_temporary_view" else 0  # the stream's argument
        if self.resolver.type_of(call.func.value) != T.STREAM_TABLE_ENV or len(call.args) <= first \
                or any(a.keyword is not None or a.star for a in call.args[:first + 1]):
            return None, "a call of something else than a StreamTableEnvironment and a stream"
        table, problem = self.stream_columns(call.args[first].value)
        if table is None:
            return None, problem
        args = [a.value for a in call.args[first + 1:]]
        if any(a.keyword is not None or a.star for a in call.args[first + 1:]):
            return None, "keyword or starred arguments"
        if not args:
            return table, None
        columns = table.columns
        if len(args) == 1 and _descriptors.is_schema(self.resolver, dotted_names(self.resolver), args[0]):
            return self._declared(table, args[0])
        picked = [_field_reference(self.resolver, a) for a in args]
        if None in picked:
            return None, 'an expression other than col("name") or col("name").alias("new") (rowtime/proctime attributes are not converted yet)'
        names = dict(columns)
        if all(src in names for src, _ in picked):  # fields by name: reordered, projected, renamed
            return replace(table, picked=tuple((src, dst or src) for src, dst in picked)), None  # type: ignore[misc]
        if not any(src in names for src, _ in picked) and all(dst is None for _, dst in picked) and len(picked) == len(columns):
            return replace(table, picked=tuple((n, src) for (n, _), (src, _) in zip(columns, picked))), None  # type: ignore[misc]
        return None, "fields that mix input field names and new names, or rename fewer fields than the stream has"

    def _declared(self, table: "StreamTable", schema) -> tuple[Optional["StreamTable"], Optional[str]]:
        for step in _descriptors._calls(self.resolver, schema):
            method = step.func.attr.value
            args = [a.value for a in step.args]
            if method == "column_by_metadata" or (method == "watermark" and len(args) == 2 and isinstance(args[1], cst.SimpleString)
                                                  and "SOURCE_WATERMARK" in args[1].evaluated_value.upper()):
                return None, ("a Schema whose rowtime is the DataStream's own (column_by_metadata: the records' timestamps;"
                              " SOURCE_WATERMARK(): the stream's watermarks): a table of a stream's event time is not converted"
                              " yet (a column_by_expression of a field with a watermark is)")
        try:
            millis = frozenset(self._millisecond_fields(table))
            declared = _descriptors.schema_of(self.resolver, dotted_names(self.resolver), schema, table.columns, millis)
        except _descriptors.Unreadable as exc:
            return None, f"a Schema: {exc}"
        cut = next((n for n, t in declared["columns"] if t.upper() == "TIMESTAMP" and n not in millis), None)
        if cut is not None:  # TIMESTAMP_LTZ(p) of Instants that may have more digits than p
            return None, f"a Schema's TIMESTAMP_LTZ column {cut} of a field whose values may not be whole milliseconds"
        if declared["metadata"]:
            return None, "a Schema of metadata columns (the stream's rowtime is not converted yet)"
        physical = [(n, t.upper()) for n, t in declared["columns"]]
        if not declared["computed"] and not declared["watermark"]:
            if physical != list(table.columns):
                return None, ("a Schema whose columns are not the stream's own"
                              f" ({', '.join(f'{n} {t}' for n, t in table.columns)}): casts and reordering are not converted yet")
            return table, None
        fields = dict(table.columns)
        if any(fields.get(n) != t for n, t in physical):
            return None, ("a Schema whose physical columns are not fields of the stream of the same type"
                          f" ({', '.join(f'{n} {t}' for n, t in table.columns)}): casts are not converted yet")
        computed, types = dict(declared["computed"]), declared["computed_types"]
        unknown = next((n for n in computed if types.get(n) is None), None)
        if unknown is not None:
            return None, f"a Schema's computed column {unknown} of unknown type"
        # Flink's columns: the declared ones in their order, all the stream's fields first when none is declared
        order = declared["order"] if physical else [n for n, _ in table.columns] + declared["order"]
        projection = tuple((n, computed.get(n), types[n] if n in computed else fields[n]) for n in order)
        watermark = declared["watermark"]
        if watermark is not None and table.unbounded:
            return None, "a Schema's watermark on a table of an unbounded stream is not converted yet"
        if watermark is not None and dict((n, t) for n, _, t in projection)[watermark[0]] not in ("TIMESTAMP", "TIMESTAMP_NTZ"):
            return None, f"a watermark on {watermark[0]}, which is not a TIMESTAMP or TIMESTAMP_LTZ column"
        rowtime = None
        if watermark is not None:
            rowtime = declared["casts"].get(watermark[0], watermark[0] if watermark[0] in fields else None)
        return replace(table, projection=projection, watermark=watermark, rowtime_field=rowtime), None  # type: ignore[misc]

    def _millisecond_fields(self, table: "StreamTable") -> list[str]:
        """The INSTANT fields of a stream whose values are whole milliseconds: those of a
        ``from_collection`` source (Flink's InstantTypeInfo keeps milliseconds there)."""
        from flink2spark.rules.pyflink._streams import facts

        if facts(self.resolver, table.stream).literal_elements is None:
            return []
        return [n for n, t in table.columns if t == _STREAM_TYPES["INSTANT"]]

    def late_records(self, node) -> Optional[str]:
        """Why Flink may drop records of an event-time group window over the (original) Table
        expression ``node`` that a batch window in Spark keeps, or None when it cannot: a table
        of a stream (``from_data_stream`` with a Schema's watermark, through projections and
        filters) in streaming mode, whose records may arrive behind the watermark (later than
        the largest timestamp so far minus the watermark's delay). On bounded input Flink's
        end-of-input watermark fires every window; only such late records differ. None when the
        stream is a collection of literal ``Instant.of_epoch_milli(n)`` timestamps whose
        disorder is less than the delay."""
        if self.mode == "batch":
            return None
        call = self._stream_table_call(node)
        table = self.from_stream(call)[0] if call is not None else None
        if table is None or table.watermark is None:
            return None
        column, delay = table.watermark
        millis = self._literal_millis(table)
        if millis is None:
            why = "the order of its timestamps is not known here"
        else:
            disorder = max((max(millis[:i]) - m for i, m in enumerate(millis) if i), default=0)
            if disorder * 1000 < _sql._duration_micros(delay):
                return None
            why = f"its records come up to {disorder} ms behind the largest timestamp before them"
        return (f"window over the rowtime column {column} of a stream (watermark {column} - {delay}): {why}; Flink's"
                " streaming mode drops the records that arrive behind its watermark (moved every 200 ms by default: which"
                " ones depends on timing), Spark's batch window counts them")

    def _stream_table_call(self, node) -> Optional[cst.Call]:
        """The ``from_data_stream`` call a Table expression derives from, through names and the
        methods that keep its rows' timestamps; None otherwise."""
        resolver = self.resolver
        if isinstance(node, cst.Name):
            value = resolver.value_at(node)
            return self._stream_table_call(value) if value is not None and value is not node else None
        if not (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute)):
            return None
        method, receiver = node.func.attr.value, node.func.value
        typ = resolver.type_of(receiver)
        if typ == T.STREAM_TABLE_ENV and method == "from_data_stream":
            return node
        if typ == T.TABLE and method in ("alias", "filter", "where", "select", "add_columns", "add_or_replace_columns",
                                          "drop_columns", "rename_columns"):
            return self._stream_table_call(receiver)
        return None

    def _literal_millis(self, table: "StreamTable") -> Optional[list[int]]:
        """The epoch milliseconds of the rowtime field of each element, in order, of a collection
        of literal ``Instant.of_epoch_milli(n)`` values; None when not all are such."""
        from flink2spark.rules.pyflink._streams import facts

        elements = facts(self.resolver, table.stream).literal_elements
        names = [n for n, _ in table.columns]
        if elements is None or table.rowtime_field not in names:
            return None
        index, found = names.index(table.rowtime_field), []
        for element in elements:
            if isinstance(element, cst.Call) and not any(a.keyword for a in element.args):  # Row(...)
                values = [a.value for a in element.args]
            elif isinstance(element, (cst.Tuple, cst.List)):
                values = [e.value for e in element.elements]
            else:
                return None
            value = values[index] if index < len(values) else None
            if not (isinstance(value, cst.Call) and len(value.args) == 1 and isinstance(value.args[0].value, cst.Integer)
                    and dotted_names(self.resolver)(value.func) == "pyflink.common.time.Instant.of_epoch_milli"):
                return None
            found.append(int(value.args[0].value.value))
        return found

    def insert_only(self, node) -> bool:
        """Whether the Table expression gives only inserts (no -U/+U/-D changes): every table in
        batch mode; in streaming mode one made of sources, projections, filters, UNION ALL,
        lateral joins and group windows (what cannot be followed counts as updating)."""
        if self.mode == "batch":
            return True
        key = ("insert_only", id(node))
        if key not in self._bounded:
            self._bounded[key] = False  # a cycle
            self._bounded[key] = self._insert_only(node)
        return self._bounded[key]

    def _insert_only(self, node) -> bool:
        resolver = self.resolver
        if isinstance(node, cst.Name):
            value = resolver.value_at(node)
            return value is not None and value is not node and self.insert_only(value)
        if not (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute)):
            return False
        method, receiver = node.func.attr.value, node.func.value
        typ = resolver.type_of(receiver)
        first = node.args[0].value if node.args else None
        if typ in (T.TABLE_ENV, T.STREAM_TABLE_ENV):
            if method in ("from_elements", "from_pandas", "from_data_stream"):
                return True
            if method in ("from_path", "scan") and isinstance(first, cst.SimpleString):
                return self._insert_only_table(first.evaluated_value)
            if method == "sql_query":
                text = self.sql(first)
                return text is not None and not text.tables and self._insert_only_sql(text.text)
            return False
        if typ == T.WINDOW_GROUPED_TABLE and method == "select":  # a group window: one final row per window
            window = receiver.func.value if isinstance(receiver, cst.Call) and isinstance(receiver.func, cst.Attribute) else None
            table = window.func.value if isinstance(window, cst.Call) and isinstance(window.func, cst.Attribute) else None
            return table is not None and self.insert_only(table)
        if typ != T.TABLE or method not in _APPENDING or self.global_aggregate(node):
            return False
        tables = [a.value for a in node.args if resolver.type_of(a.value) == T.TABLE]
        return self.insert_only(receiver) and all(self.insert_only(t) for t in tables)

    def _insert_only_table(self, name: str) -> bool:
        if name in self.catalog:
            return True
        if name in self._view_tables:
            view = self._view_tables[name]
            return P.is_stream(self.resolver.type_of(view)) or _stream_view(view) or self.insert_only(view)
        if name in self._view_sql:
            return self._insert_only_sql(self._view_sql[name])
        return False

    def sql_insert_only(self, text: str) -> bool:
        """Whether a query's result gives only inserts (``insert_only`` of SQL text)."""
        return self.mode == "batch" or self._insert_only_sql(text)

    def _insert_only_sql(self, text: str) -> bool:
        try:
            names = _sql.appending_query(text)
        except _sql.Untranslatable:
            return False
        return names is not None and all(self._insert_only_table(n) for n in names)

    def updating(self, node) -> bool:
        """Whether the Table expression is an updating table over a stream made by the Table API:
        an aggregation without a window (``group_by().select()``) of an unbounded table, or a
        projection, filter... of one (a name bound once to one too). Only the aggregation itself
        has Spark's update-mode form (``aggregated``): a filter of its rows would retract them."""
        return not self.bounded(node) and self._updating(node, derived=True)

    def aggregated(self, node) -> bool:
        """Whether the Table expression is itself (or a name bound once to) the updating
        aggregation ``group_by(keys).select(...)`` of an unbounded table."""
        return not self.bounded(node) and self._updating(node, derived=False)

    def _updating(self, node, derived: bool) -> bool:
        if isinstance(node, cst.Name):
            value = self.resolver.single_value(node)
            return value is not None and value is not node and self._updating(value, derived)
        if not (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute)):
            return False
        method, receiver = node.func.attr.value, node.func.value
        typ = self.resolver.type_of(receiver)
        if typ == T.GROUPED_TABLE and method == "select":
            return True
        if typ == T.TABLE and self.global_aggregate(node):
            return True
        if not derived or typ != T.TABLE or method not in _APPENDING:
            return False
        return any(self._updating(t, derived) for t in [receiver] + [a.value for a in node.args if self._is_table(a.value)])

    def stream_join(self, call: cst.Call) -> Optional[StreamJoin]:
        """What a Table join ``left.<join>(right, cond)`` is when an input is unbounded (None when
        both are bounded). Flink's regular joins keep both inputs as state for ever. Spark's forms
        of the same rows: a stream-static join (inner; left outer with the stream on the left,
        right outer with it on the right), and the stream-stream inner join on an equality
        (without a watermark its state is kept for ever too). An outer join of a stream
        (``retracting``) is an updating table in Flink: rows with NULLs retracted when the match
        arrives; only a print or blackhole table takes it (Flink refuses append-only sinks), and
        its folded changelog is Spark's rows. What follows the join up to its sink must be row
        by row (``_ROW_BY_ROW``) and end in ``execute().print()`` or ``execute_insert(sink)``:
        Flink's regular join loses the time attributes and Spark's stream joins refuse most
        operators after them."""
        method, left = call.func.attr.value, call.func.value  # type: ignore[union-attr]
        right = call.args[0].value if call.args else None
        if method not in _JOINS or right is None:
            return None
        left_bounded, right_bounded = self.bounded(left), self.bounded(right)
        if left_bounded and right_bounded:
            return None
        how = _JOINS[method]
        static = left_bounded or right_bounded
        if len(call.args) < 2:
            return StreamJoin(f"{method}() of a stream without a join condition (a cross join)", static)
        if not static and how != "inner":
            return StreamJoin(f"{method}() of two streams: Flink emits rows with NULLs and retracts them when a match "
                              "arrives; Spark's stream-stream outer joins need watermarks and time bounds")
        if not static and not _has_equality(call.args[1].value):
            return StreamJoin(f"{method}() of two streams on a condition without an equality of columns (Spark's "
                              "stream-stream joins need one)")
        stream_side = "left" if right_bounded else "right"
        if how not in ("inner", stream_side):
            return StreamJoin(f"{method}() with the stream on the {stream_side}: Spark's stream-static outer joins keep "
                              "only the stream's rows (Flink also emits the bounded table's unmatched rows)", static)
        retracting = how != "inner"
        return StreamJoin(self._join_consumers(call, retracting, static), static, retracting)

    def _join_consumers(self, node: cst.BaseExpression, retracting: bool, static: bool = True) -> Optional[str]:
        """Why a use of the joined stream ``node`` (through row-by-row operations, names bound
        once) has no Spark form; None when every use is ``execute().print()`` or
        ``execute_insert(sink)`` (a print or blackhole table for a ``retracting`` join), or a
        ``select`` of aggregates (``global_aggregate``) of an inner stream-static join whose uses
        take updates (Spark's update mode refuses stream-stream joins)."""
        uses = self._calls_on(node)
        if uses is None:
            return "the joined stream is kept in a name bound more than once or never read"
        for call, method in uses:
            if call is not None and method is None:
                continue  # a column of it (located.weight_kg) in an operation's arguments
            if method == "select" and self.global_aggregate(call):
                problem = ("an aggregate of the whole joined stream (an updating table): Spark's update mode refuses a "
                           "join of two streams" if not static else "an aggregate of the whole stream joined with NULL rows "
                           "Flink retracts" if retracting else self.updates_consumed(call))
            elif method in _ROW_BY_ROW:
                problem = self._join_consumers(call, retracting, static)
            elif method == "execute_insert":
                sink = self.name(call.args[0].value if call.args else None)
                problem = "execute_insert() of a table named by an expression" if sink is None else None
                if sink is not None and retracting:
                    table = self.catalog.get(sink)
                    if table is None or table.connector not in ("print", "blackhole"):
                        problem = (f"execute_insert() into {sink!r}: an outer join of a stream is an updating table in "
                                   "Flink (rows with NULLs retracted when their match arrives): only a print or blackhole "
                                   "table takes it")
            elif method == "execute" and not call.args and _printed(self.resolver, call):
                problem = None
            else:
                problem = f"the joined stream is used by {method + '()' if method else 'an expression'} (only row-by-row " \
                          "operations, execute().print() and execute_insert() follow a join of a stream)"
            if problem is not None:
                return problem
        return None

    def updates_consumed(self, table: cst.BaseExpression) -> Optional[str]:
        """Why the Table expression ``table`` (an updating one over a stream: ``group_by().select()``
        without a window) has a use that cannot take its updates; None when every use can:
        ``execute_insert(sink)`` into a table that takes updates (``updates_refused``) or
        ``execute().print()``, on the expression or on a name bound once to it."""
        uses = self._calls_on(table)
        if uses is None:
            return "the updating table is kept in a name bound more than once or never read"
        for call, method in uses:
            if method == "execute_insert":
                sink = self.name(call.args[0].value if call.args else None)
                refused = self.updates_refused(sink) if sink is not None else "execute_insert() of a table named by an expression"
                if refused is not None:
                    return refused
                continue
            if method == "execute" and not call.args and _printed(self.resolver, call):
                continue
            return "the updating table is used otherwise than by execute_insert() or execute().print()"
        return None

    def _calls_on(self, table: cst.BaseExpression) -> Optional[list[tuple[Optional[cst.CSTNode], Optional[str]]]]:
        """The uses of the Table expression ``table``, or of the name bound once to it (None when
        that name is bound more than once or never read): (the call of a method on it, the
        method's name); (the attribute, None) for a column of it (``t.a``), (None, None) for
        another use."""
        uses = [table]
        if isinstance(self.resolver.parent(table), cst.Assign):
            from flink2spark.rules.table._common import uses_of_single_name

            uses = uses_of_single_name(self.resolver, table)
            if not uses:
                return None
        found = []
        for use in uses:
            attr = self.resolver.parent(use)
            if not (isinstance(attr, cst.Attribute) and attr.value is use):
                found.append((None, None))
                continue
            call = self.resolver.parent(attr)
            found.append((call, attr.attr.value) if isinstance(call, cst.Call) and call.func is attr else (attr, None))
        return found

    def sql_updating(self, text: str) -> bool:
        """Whether the SQL text is an updating streaming query: an aggregation without a window
        over an unbounded (Kafka) table, which Spark runs in update output mode for a consumer
        that takes updates (``updates_refused``)."""
        key = ("sql_updating", text)
        if key not in self._bounded:
            self._bounded[key] = self.mode == "streaming" and _sql.updating(text, self.sql_tables(), self.sql_functions())
        return self._bounded[key]

    def updates_refused(self, sink: str) -> Optional[str]:
        """Why the table ``sink`` cannot take an updating streaming query (an aggregation without
        a window over a Kafka table), None when it can: a print or blackhole table (Spark's
        update output mode: each micro-batch writes the new rows of the groups it changed). A
        table declared in both branches of an ``if`` takes one when both of its tables do."""
        if sink in self.conditional:
            found = [self._updates_refused(t) for t in self.conditional[sink][1:]]
            return next((f for f in found if f is not None), None)
        table = self.catalog.get(sink)
        return self._updates_refused(table) if table is not None else f"table {sink!r} is not declared by this program's SQL"

    @staticmethod
    def _updates_refused(table: "_sql.TableDef") -> Optional[str]:
        if table.connector in _UPDATING_SINKS:
            return None
        if table.connector == "jdbc" and table.primary_key:  # Flink's JDBC sink (JdbcDynamicTableSink.getChangelogMode)
            return (f"a 'jdbc' table with PRIMARY KEY ({', '.join(table.primary_key)}) takes them in Flink (its sink upserts "
                    "each change by the key, replacing the database's row); Spark's JDBC writer only inserts")
        if table.connector == "jdbc":
            return ("a 'jdbc' table without PRIMARY KEY: Flink refuses the job (\"please declare primary key for sink table "
                    "when query contains update/delete record.\")")
        return (f"a {table.connector!r} table takes inserts only: Flink refuses the job (\"Table sink {table.name} doesn't "
                "support consuming update changes\")")

    def streaming_insert(self, call: cst.Call) -> bool:
        """Whether ``call`` is an insert over an unbounded table (``table.execute_insert(sink)``,
        ``t_env.execute_sql("INSERT ... SELECT")`` reading a Kafka table): Spark's form is a
        started streaming query, which a kept result's ``wait()`` has to await."""
        if not isinstance(call.func, cst.Attribute):
            return False
        method, receiver = call.func.attr.value, call.func.value
        typ = self.resolver.type_of(receiver)
        if method == "execute_insert" and typ == T.TABLE:
            return not self.bounded(receiver)
        if method != "execute_sql" or typ not in (T.TABLE_ENV, T.STREAM_TABLE_ENV):
            return False
        text = self.sql(call.args[0].value if call.args else None)
        try:
            return text is not None and _sql.statement_kind(text.text) == "insert" and _sql.streaming(text.text, self.sql_tables())
        except _sql.Untranslatable:
            return False

    def kept_query(self, call: cst.Call) -> "KeptQuery":
        """What becomes of the TableResult of a query kept in a name: ``result =
        t_env.execute_sql("SELECT ...")`` or ``result = table.execute()``, then ``result.print()``
        or ``result.collect()`` (iterated, ``list(...)``, a ``with``). When the name is bound
        once, used once, by one of those, and the query converts (a bounded table; in streaming
        mode, collect() only of one giving inserts alone, since Flink's rows then carry their
        changes; of an unbounded table, only collect() iterated by a ``stream_loop``), the name keeps the DataFrame and its use becomes ``show``/``collect``
        (``problem`` None); else ``problem`` says why not. Flink's TableResult can be consumed
        once: a second use fails there, so it is not converted."""
        key = ("kept", id(call))
        if key not in self._bounded:
            self._bounded[key] = self._kept_query(call)
        return self._bounded[key]

    def _kept_query(self, call: cst.Call) -> "KeptQuery":
        resolver = self.resolver
        method, receiver = call.func.attr.value, call.func.value
        inserts = True
        if method == "execute_sql":
            text = self.sql(call.args[0].value if call.args else None)
            try:
                if text is None or _sql.statement_kind(text.text) != "query":
                    return KeptQuery("its statement is not a query known when converting")
                _sql.query(text.text, self.sql_tables(), self.sql_functions())
            except _sql.Untranslatable as exc:
                return KeptQuery(str(exc))
            streaming = _sql.streaming(text.text, self.sql_tables())
            inserts = self.sql_insert_only(text.text)
        else:
            streaming = not self.bounded(receiver)
            inserts = self.insert_only(receiver)
        assign = resolver.parent(call)
        target = assign.targets[0].target if isinstance(assign, cst.Assign) and len(assign.targets) == 1 else None
        bindings = resolver.scope_bindings(target) if isinstance(target, cst.Name) else None
        if bindings and len(bindings) == 1 and len(bindings[0].references) == 1:
            use = bindings[0].references[0].node
        else:  # a name bound several times (result = ....execute(); result.print(), again and again)
            reads = dict(self.straight_bindings(target) or ()).get(id(target)) if bindings else None
            if reads is None or len(reads) != 1:
                return KeptQuery("its TableResult is not kept in a name used once")
            use = reads[0]
        attr = resolver.parent(use)
        use_call = resolver.parent(attr) if isinstance(attr, cst.Attribute) and attr.value is use else None
        if not (isinstance(use_call, cst.Call) and attr.attr.value in ("print", "collect") and not use_call.args):
            return KeptQuery("its TableResult is used another way than print()/collect()")
        if attr.attr.value == "print" and not isinstance(resolver.parent(use_call), cst.Expr):
            return KeptQuery("its TableResult's print() is used as a value")
        if attr.attr.value == "collect" and not inserts:
            return KeptQuery("collect() of an updating table in streaming mode (Flink's rows carry their changes)")
        loop = None
        if streaming:
            loop = stream_loop(resolver, use_call) if attr.attr.value == "collect" else None
            if not isinstance(loop, cst.For):
                return KeptQuery(STREAMING_RESULT + (f"; {loop}" if isinstance(loop, str) else ""))
        if self._writes_between(call, use_call):
            return KeptQuery("the program runs statements between the query and the use of its result (Flink ran the "
                             "query before them, Spark would run it at the use)")
        return KeptQuery(None, inserts, use_call, loop)

    def straight_bindings(self, name: cst.Name) -> Optional[list[tuple[int, list[cst.Name]]]]:
        """For a name bound several times by plain assignments (``result = ...``) that are all
        statements of one block, read only in statements of that block after the first of them
        (not in a def, lambda or class there): each binding (id of its target Name) with the
        reads that see it, those in the statements after it up to the next binding (a read in
        the next binding's own statement sees this one). None otherwise (other bindings, reads
        elsewhere: which binding a read sees then depends on the flow)."""
        resolver = self.resolver
        bindings = resolver.scope_bindings(name) if isinstance(name, cst.Name) else None
        if not bindings or len(bindings) < 2:
            return None
        block, at = None, []
        for binding in bindings:
            target = resolver.parent(binding.node)
            assign = resolver.parent(target) if isinstance(target, cst.AssignTarget) else None
            line = resolver.parent(assign) if isinstance(assign, cst.Assign) and len(assign.targets) == 1 else None
            if not isinstance(line, cst.SimpleStatementLine) or len(line.body) != 1 or target.target is not binding.node:
                return None
            if block is not None and resolver.parent(line) is not block:
                return None
            block = resolver.parent(line)
            at.append((block.body.index(line), binding.node))
        at.sort(key=lambda pair: pair[0])
        seen: dict[int, list[cst.Name]] = {id(node): [] for _, node in at}
        reads = {id(r.node): r.node for binding in bindings for r in binding.references}
        # and the names read in this scope that libcst ties to no binding (a read before the first one)
        scope, bound = resolver.scopes.scope_of.get(id(name)), {id(b.node) for b in bindings}
        reads.update({id(n): n for n in nodes(resolver.module, cst.Name) if n.value == name.value
                      and id(n) not in bound and resolver.scopes.scope_of.get(id(n)) is scope})
        for read in reads.values():
            node = read
            while node is not None and resolver.parent(node) is not block:
                if isinstance(node, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
                    return None
                node = resolver.parent(node)
            if node is None or isinstance(node, (cst.FunctionDef, cst.ClassDef)):
                return None
            index = block.body.index(node)
            before = [bound for i, bound in at if i < index]
            if not before:
                return None
            seen[id(before[-1])].append(read)
        return [(id(node), seen[id(node)]) for _, node in at]

    def held_value(self, name: cst.Name) -> Optional[cst.BaseExpression]:
        """The value ``name`` holds where it is read: its only binding's, or, for a name bound
        several times in one block (``straight_bindings``), the binding's this read sees."""
        value = self.resolver.single_value(name)
        if value is not None:
            return value
        for bound, reads in self.straight_bindings(name) or ():
            if any(read is name for read in reads):
                return self.resolver.assign_values.get(bound)
        return None

    def _writes_between(self, first: cst.Call, last: cst.Call) -> bool:
        """Whether a Table API call that runs something (``execute_sql``, ``execute_insert``,
        ``execute``, ``insert_into``, ``sql_update``...) stands between ``first`` and ``last``
        in the text."""
        calls = list(nodes(self.resolver.module, cst.Call))
        order = {id(c): i for i, c in enumerate(calls)}
        runs = ("execute_sql", "execute_insert", "execute", "insert_into", "sql_update", "execute_plan")
        for other in calls[order[id(first)] + 1:order[id(last)]]:
            if isinstance(other.func, cst.Attribute) and other.func.attr.value in runs \
                    and self.resolver.type_of(other.func.value) in (T.TABLE_ENV, T.STREAM_TABLE_ENV, T.TABLE, T.STATEMENT_SET):
                return True
        return False

    def stream_of(self, call: cst.Call) -> tuple[object, Optional[str]]:
        """(the element type, None) of the DataStream a Table becomes through the bridge
        ``call`` (``to_data_stream(table)``, ``to_changelog_stream(table)``,
        ``to_append_stream(table, type_info)``): Rows with the table's columns, of the PyFlink
        types Flink hands Python for them; (None, why) when the bridge is not converted."""
        key = ("stream_of", id(call))
        if key not in self._bounded:
            self._bounded[key] = self._stream_of(call)
        return self._bounded[key]

    def _stream_of(self, call: cst.Call) -> tuple[object, Optional[str]]:
        from flink2spark.rules.pyflink._common import RetractPairs, TableRows

        method = call.func.attr.value  # type: ignore[attr-defined]
        if self.resolver.type_of(call.func.value) != T.STREAM_TABLE_ENV:  # type: ignore[attr-defined]
            return None, f"{method}() of something else than a StreamTableEnvironment"
        args = [a for a in call.args if a.keyword is None and not a.star]
        if len(args) != len(call.args) or not args or len(args) != {"to_append_stream": 2, "to_retract_stream": 2}.get(method, 1):
            return None, f"{method}() with these arguments (a target schema, a changelog mode...) is not converted yet"
        table = args[0].value
        if not self.bounded(table) and any(not t.bounded and t.watermark is not None for t in self.sql_tables().values()):
            return None, (f"{method}() of an unbounded table in a program that declares a watermark: Flink hands a rowtime"
                          " column's timestamps and watermarks to the stream (not converted yet)")
        if not self.insert_only(table) and not (method in ("to_changelog_stream", "to_retract_stream")
                                                and self.printed_changelog(call)):
            if method == "to_changelog_stream":
                return None, (f"{method}() of a table that may be updating in streaming mode: Flink gives its changes"
                              " (-U/+U/-D records) to operators (its print() alone converts: the final rows)")
            return None, f"{method}() of a table that may be updating in streaming mode: Flink's {method}() fails on an updating table"
        schema = self.schema(table)
        if schema is None:
            return None, f"{method}(): the table's columns are not known"
        fields = []
        for name, spark in schema.items():
            kind = _TABLE_TYPES.get(spark.upper())
            if kind is None:
                return None, f"{method}(): column {name} of type {spark} (only basic types are converted yet)"
            fields.append((name, kind))
        if method not in ("to_append_stream", "to_retract_stream"):
            return TableRows(tuple(fields)), None
        info = args[1].value
        wanted = _stream_fields(self.resolver, info)
        if isinstance(wanted, str) or len(wanted) != len(fields) or any(w[1] != f[1] for w, f in zip(wanted, fields)):
            return None, f"{method}() of a type whose fields are not the table's columns' types, by position"
        if isinstance(_stream_fields(self.resolver, info, rows_only=True), str):
            return None, f"{method}() of a type other than Types.ROW/ROW_NAMED/TUPLE is not converted yet"
        return (RetractPairs(info) if method == "to_retract_stream" else info), None

    def printed_changelog(self, call: cst.Call) -> bool:
        """Whether the stream of the bridge ``call`` (``to_changelog_stream(table)``,
        ``to_retract_stream(table, type_info)``) is only
        printed: ``call.print([name])`` as a statement, or ``s = call`` whose every read is
        that. Of a bounded updating table, Flink prints every change (+I/-U/+U/-D; a retract
        stream's (true, row) and (false, row) pairs): what is
        left of them once applied is the table's final rows (NOTE F2S303, as a printed
        updating table's, rules/table/bridges.py)."""
        from flink2spark.rules.pyflink._common import assigned_uses

        parent = self.resolver.parent(call)
        refs = assigned_uses(self.resolver, call) if isinstance(parent, cst.Assign) else [call]
        if not refs or not call.args or not self.bounded(call.args[0].value):
            return False
        for ref in refs:
            attribute = self.resolver.parent(ref)
            printed = self.resolver.parent(attribute) if isinstance(attribute, cst.Attribute) else None
            if not (isinstance(printed, cst.Call) and printed.func is attribute and attribute.attr.value == "print"
                    and isinstance(self.resolver.parent(printed), cst.Expr)
                    and all(isinstance(a.value, cst.SimpleString) and a.keyword is None for a in printed.args)):
                return False
        return True

    def unbounded_stream(self, call: cst.Call) -> bool:
        """Whether the DataStream of the bridge ``call`` (``to_data_stream(table)``...), converted
        when ``stream_of`` says so, is unbounded: its table reads an unbounded one (a Kafka table),
        and the stream is the table's streaming DataFrame read per micro-batch
        (``f2s_stream.micro_batches``)."""
        args = [a for a in call.args if a.keyword is None and not a.star]
        return bool(args) and self.stream_of(call)[1] is None and not self.bounded(args[0].value)

    def _is_table(self, node) -> bool:
        return self.resolver.type_of(node) == T.TABLE

    def _value(self, node):
        """What a name bound once stands for (the node itself otherwise)."""
        if isinstance(node, cst.Name):
            value = self.resolver.single_value(node)
            return value if value is not None else node
        return node

    def global_aggregate(self, call) -> bool:
        """Whether ``call`` is ``table.select(...)`` of an aggregate (``col('kg').sum``, a
        ``udaf``): one row of the whole table, which Flink updates as rows come when the table
        is unbounded (an updating table, as ``group_by().select()``)."""
        if not (isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute) and call.func.attr.value == "select"
                and self._is_table(call.func.value)):
            return False
        from flink2spark.rules.table import _expressions as E

        schema, functions, registered = self.schema(call.func.value), self.user_functions(), self.registered()
        for arg in call.args:
            try:
                if isinstance(arg.value, (cst.SimpleString, cst.ConcatenatedString)) and isinstance(arg.value.evaluated_value, str):
                    found = E.columns_from_string(arg.value.evaluated_value, schema, functions, registered)
                else:
                    found = [E.column(arg.value, dotted_names(self.resolver), schema, functions, registered, self._is_table)]
            except (E.Untranslatable, _types.Untranslatable):
                continue  # the select rule leaves a TODO there
            if any(c.aggregate for c in found):
                return True
        return False

    def _selected(self, args, source, name_unnamed=None) -> Optional[dict[str, str]]:
        """The columns of a projection; an item without a name has the name ``name_unnamed(i)``
        gives (``Table.select``: Flink's ``_c<i>``), else the columns are not known."""
        from flink2spark.rules.table import _expressions as E

        out = {}
        for i, arg in enumerate(args):
            v = arg.value
            if (isinstance(v, cst.Call) and len(v.args) == 1 and isinstance(v.args[0].value, cst.SimpleString)
                    and v.args[0].value.evaluated_value == "*" and dotted_names(self.resolver)(v.func) == f"{E.EXPRESSIONS}.col"):
                if source is None:  # col("*"): every column of the table, in its order
                    return None
                out.update(source)
                continue
            try:
                col = E.column(arg.value, dotted_names(self.resolver), source, self.user_functions())
            except E.Untranslatable:
                return None
            name = col.name if col.name is not None or name_unnamed is None else name_unnamed(i)
            if name is None or col.type is None:
                return None
            out[name] = col.type
        return out

    def user_functions(self) -> dict:
        """The program's functions whose calls the expression translator turns into calls of
        the Spark UDFs they become (``_expressions.UserFunction`` by Python name)."""
        from flink2spark.rules.table import _expressions as E

        found = {name: E.UserFunction(name, kind, self.result_types.get(name)) for name, kind in self.functions.items()
                 if kind in ("udf", "pandas_udf", "udaf", "pandas_udaf")}
        for name, kind in self._inline_registered().items():
            found.setdefault(name, E.UserFunction(name, kind, by_name=True))
        for name in self._registered_aggregates():  # an AggregateFunction instance registered: called by name
            found[_BY_NAME + name] = E.UserFunction(name, "udaf", by_name=True)
        return found

    def _registrations(self):
        """(registered name, function expression) of each ``create_temporary_system_function("n",
        f)`` (``create_temporary_function``, ``register_function``)."""
        for call in nodes(self.resolver.module, cst.Call):
            if isinstance(call.func, cst.Attribute) and call.func.attr.value in (
                    "create_temporary_system_function", "create_temporary_function", "register_function") \
                    and len(call.args) == 2 and isinstance(call.args[0].value, cst.SimpleString):
                yield call.args[0].value.evaluated_value, call.args[1].value

    def _inline_registered(self) -> dict[str, str]:
        """Functions registered as they are made (``create_temporary_system_function("n",
        udf(...))``): registered name -> kind ("udf", "pandas_udf")."""
        kinds = {name: self.function_kind(f) for name, f in self._registrations() if isinstance(f, cst.Call)}
        return {name: kind for name, kind in kinds.items() if kind in ("udf", "pandas_udf")}

    def _registered_aggregates(self) -> dict[str, str]:
        """Instances of the program's AggregateFunction classes registered as they are made
        (``create_temporary_function("n", Cls())``, which Flink wraps in ``udaf(Cls(), ...)``):
        registered name -> "udaf"."""
        found = {}
        for name, f in self._registrations():
            cls = self.resolver.local_def(f.func) if isinstance(f, cst.Call) else None
            if isinstance(cls, cst.ClassDef) and any(
                    P.FUNCTION_CLASSES.get(self.resolver.qualified_name(b.value) or "", ("",))[0] == "TableAggregateFunction"
                    for c in class_chain(self.resolver, cls) for b in c.bases):
                found[name] = "udaf"
        return found

    def registered(self) -> dict[str, str]:
        """Names functions are registered under (``create_temporary_system_function("n", f)``...)
        -> the Python name of the function (the registered name for one made in the call)."""
        found = {name: f.value for name, f in self._registrations() if isinstance(f, cst.Name)}
        for name in self._inline_registered():
            found.setdefault(name, name)
        for name in self._registered_aggregates():  # (user_functions holds it under a key no Python name is)
            found.setdefault(name, _BY_NAME + name)
        return found

    def sql_functions(self) -> dict[str, str]:
        """What SQL statements may call: registered name -> kind of the function ("udf",
        "udtf"...; "" when not known)."""
        return {name: self.functions.get(fn, "") for name, fn in self.registered().items()} | self._inline_registered() \
            | self._registered_aggregates()

    def executed_after(self, call: cst.Call) -> bool:
        """Whether a Flink 1.9-1.13 ``t_env.execute(job_name)`` runs the insert ``call`` buffers
        (``insert_into``, ``sql_update("INSERT ...")``): one in another function (which may
        call this one's), or after it in the same one. Flink writes nothing of an insert that no
        execute() follows."""
        order = {id(c): i for i, c in enumerate(nodes(self.resolver.module, cst.Call))}
        scope = self._function_of(call)
        for other in nodes(self.resolver.module, cst.Call):
            if isinstance(other.func, cst.Attribute) and other.func.attr.value == "execute" \
                    and self.resolver.type_of(other.func.value) in (T.TABLE_ENV, T.STREAM_TABLE_ENV):
                if self._function_of(other) is not scope or order[id(other)] > order[id(call)]:
                    return True
        return False

    def streaming_job(self, call: cst.Call) -> tuple[Optional[cst.Call], int]:
        """(the ``t_env.execute()`` that runs the job of ``call``, how many of the job's
        buffered inserts read an unbounded table) for a Flink 1.9-1.13 buffered insert
        (``table.insert_into``, ``sql_update("INSERT ...")``) or an ``execute()``. Flink runs
        all the inserts one ``execute()`` follows as one job; Spark needs a streaming query
        each, started and then awaited together. An insert's ``execute()`` is the first after
        it in its function; None: one in another function (a helper's insert its caller runs),
        those inserts counted together."""
        if "streaming_jobs" not in self._bounded:
            calls = list(nodes(self.resolver.module, cst.Call))
            order = {id(c): i for i, c in enumerate(calls)}
            executes, inserts = [], []
            for call in calls:
                if not isinstance(call.func, cst.Attribute):
                    continue
                method, receiver = call.func.attr.value, call.func.value
                typ = self.resolver.type_of(receiver)
                if method == "execute" and typ in (T.TABLE_ENV, T.STREAM_TABLE_ENV):
                    executes.append(call)
                elif method == "insert_into" and typ == T.TABLE and call.args:
                    inserts.append((call, not self.bounded(receiver)))
                elif method == "sql_update" and typ in (T.TABLE_ENV, T.STREAM_TABLE_ENV) and call.args:
                    text = self.sql(call.args[0].value)
                    inserts.append((call, text is not None and _sql.streaming(text.text, self.sql_tables())))
            jobs: dict[int, Optional[cst.Call]] = {}
            for call in executes:
                jobs[id(call)] = call
            for call, _ in inserts:
                scope = self._function_of(call)
                after = [e for e in executes if self._function_of(e) is scope and order[id(e)] > order[id(call)]]
                jobs[id(call)] = after[0] if after else None
            counts = Counter(id(jobs[id(c)]) for c, streaming in inserts if streaming)
            self._bounded["streaming_jobs"] = (jobs, counts)
        jobs, counts = self._bounded["streaming_jobs"]
        job = jobs.get(id(call))
        return job, counts.get(id(job), 0)

    def statement_set_streaming(self, created: cst.Call) -> int:
        """How many inserts added to the statement set ``created`` (``t_env.create_statement_set()``,
        through names bound once to it) read an unbounded table: Flink runs them as one job,
        Spark as a streaming query each, awaited together where the set's ``execute()`` is."""
        count = 0
        for call in nodes(self.resolver.module, cst.Call):
            if not isinstance(call.func, cst.Attribute) or call.func.attr.value not in ("add_insert", "add_insert_sql") \
                    or not call.args or not isinstance(call.func.value, cst.Name) \
                    or self.resolver.single_value(call.func.value) is not created:
                continue
            if call.func.attr.value == "add_insert":
                count += len(call.args) == 2 and not self.bounded(call.args[1].value)
                continue
            text = self.sql(call.args[0].value)
            try:
                count += text is not None and _sql.streaming(text.text, self.sql_tables())
            except _sql.Untranslatable:
                pass
        return count

    def _function_of(self, node):
        while node is not None and not isinstance(node, (cst.FunctionDef, cst.Module)):
            node = self.resolver.parent(node)
        return node

    # -- facts --------------------------------------------------------------------------------
    def function_kind(self, call: cst.Call) -> Optional[str]:
        """"udf", "pandas_udf", "udtf", "udaf" or "udtaf" for a call of those entry points."""
        q = self.resolver.qualified_name(call.func)
        if T.ENTRY_POINTS.get(q or "") != T.UDF:
            return None
        kind = q.rsplit(".", 1)[1]
        for arg in call.args:
            if arg.keyword is not None and arg.keyword.value == "func_type" and isinstance(arg.value, cst.SimpleString):
                if arg.value.evaluated_value == "pandas":
                    return "pandas_" + kind
        return kind

    def _functions(self) -> dict[str, str]:
        found: dict[str, str] = {}
        for node in nodes(self.resolver.module, cst.FunctionDef):
            for deco in node.decorators:
                if isinstance(deco.decorator, cst.Call):
                    kind = self.function_kind(deco.decorator)
                    if kind is not None:
                        found[node.name.value] = kind
                        self._result_type(node.name.value, kind, deco.decorator)
                        types = next((a.value for a in deco.decorator.args if a.keyword is not None
                                      and a.keyword.value == "result_types"), None)
                        if kind == "udtf" and types is not None:
                            self.udtf_columns[node.name.value] = len(types.elements) if isinstance(types, (cst.List, cst.Tuple)) else 1
        for node in nodes(self.resolver.module, cst.Assign):
            if len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Name) and isinstance(node.value, cst.Call):
                kind = self.function_kind(node.value)
                if kind is not None:
                    found[node.targets[0].target.value] = kind
                    self._result_type(node.targets[0].target.value, kind, node.value)
        for statement in self.resolver.module.body:  # a function a module of the project defines, imported
            lines = statement.body if isinstance(statement, cst.SimpleStatementLine) else ()
            for line in lines:
                if not isinstance(line, cst.ImportFrom) or isinstance(line.names, cst.ImportStar):
                    continue
                for alias in line.names:
                    bound = alias.asname.name if alias.asname is not None else alias.name
                    sibling = imported_module(self.resolver, line, bound.value) if isinstance(bound, cst.Name) else None
                    if sibling is None or id(sibling[0]) in _READING:  # (modules importing each other)
                        continue
                    _READING.add(id(sibling[0]))
                    try:
                        model = tables(sibling[0])  # that module's facts, from its own model
                    finally:
                        _READING.discard(id(sibling[0]))
                    if model.functions.get(sibling[1]) in ("udf", "pandas_udf"):
                        found[bound.value] = model.functions[sibling[1]]
                        if sibling[1] in model.result_types:
                            self.result_types[bound.value] = model.result_types[sibling[1]]
        return found

    def _result_type(self, name: str, kind: str, call: cst.Call) -> None:
        """The Spark type of a scalar or aggregate function's ``result_type=DataTypes.X()`` (an
        ``udaf(Cls())``'s without it: what its class's ``get_result_type()`` returns)."""
        from flink2spark.rules.table import _types as TY

        node = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == "result_type"), None)
        if kind == "udaf" and node is None and call.args and call.args[0].keyword is None:  # udaf(Cls()): its get_result_type()
            f = call.args[0].value
            cls = self.resolver.local_def(f.func) if isinstance(f, cst.Call) else None
            node = declared_result(self.resolver, cls) if isinstance(cls, cst.ClassDef) else None
        if kind in ("udf", "pandas_udf", "udaf") and node is not None:
            try:
                self.result_types[name] = TY.spark_type(node, dotted_names(self.resolver))
            except TY.Untranslatable:
                pass

    def _mode(self) -> str:
        modes = set()
        for call in nodes(self.resolver.module, cst.Call):
            q = self.resolver.qualified_name(call.func)
            if q is None or T.ENTRY_POINTS.get(q) not in (T.TABLE_ENV, T.STREAM_TABLE_ENV):
                continue
            modes.add(self._env_mode(call, T.ENTRY_POINTS[q]))
        return "streaming" if "streaming" in modes else "batch" if modes else "streaming"

    def _env_mode(self, call: cst.Call, typ: str) -> str:
        q = self.resolver.qualified_name(call.func)
        if q is not None and ".BatchTableEnvironment." in q:
            return "batch"
        for arg in call.args:
            settings = self._settings_mode(arg.value)
            if settings is not None:
                return settings
        if typ == T.STREAM_TABLE_ENV and call.args:
            return "batch" if runtime_mode_of(self.resolver) == "batch" else "streaming"
        return "streaming"

    def _settings_mode(self, node: cst.BaseExpression) -> Optional[str]:
        if isinstance(node, cst.Name):
            value = self.resolver.single_value(node)
            return self._settings_mode(value) if value is not None and value is not node else None
        for call in nodes(node, cst.Call):
            if isinstance(call.func, cst.Attribute) and call.func.attr.value in ("in_batch_mode", "in_streaming_mode"):
                return "batch" if call.func.attr.value == "in_batch_mode" else "streaming"
        return None

    def _read_connect(self, call: cst.Call, found: dict) -> None:
        """A table of Flink 1.9-1.13's ``t_env.connect(...)...create_temporary_table("name")``."""
        calls = _connect.calls_of(self.resolver, call)
        if calls is None:
            return
        try:
            name, table, parts = _connect.read(self.resolver, dotted_names(self.resolver), calls)
        except _descriptors.Unreadable as exc:
            arg = call.args[0].value if call.args else None
            if isinstance(arg, cst.SimpleString):
                self.problems[arg.evaluated_value] = str(exc)
            return
        self.descriptors[id(call)] = (table, parts)
        found.setdefault(name, []).append((table, call))
        self._legacy_tables.add(name)

    def _read_catalog(self) -> None:
        found: dict[str, list[tuple[_sql.TableDef, cst.Call]]] = {}
        for call in nodes(self.resolver.module, cst.Call):
            if not isinstance(call.func, cst.Attribute):
                continue
            method = call.func.attr.value
            view = self.name(call.args[0].value) if method in ("create_temporary_view", "create_view", "register_table") and call.args else None
            if view is not None:  # a literal, or a name bound once to one (also by a module of the project)
                self.views.add(view)
                if len(call.args) == 2:
                    self._view_tables[view] = call.args[1].value
                elif len(call.args) > 2 and P.is_stream(self.resolver.type_of(call.args[1].value)):
                    self._view_tables[view] = call  # a view of a stream's fields
                continue
            if method in _connect.REGISTER and self.resolver.type_of(call.func.value) == T.CONNECT_DESCRIPTOR:
                self._read_connect(call, found)
                continue
            if self.resolver.type_of(call.func.value) not in (T.TABLE_ENV, T.STREAM_TABLE_ENV):
                continue
            legacy_csv = {"register_table_sink": (_connect.csv_sink, _connect.read_csv_sink),
                          "register_table_source": (_connect.csv_source, _connect.read_csv_source)}.get(method)
            if legacy_csv is not None and len(call.args) == 2 \
                    and legacy_csv[0](self.resolver, dotted_names(self.resolver), call.args[1].value):
                try:
                    name, table, parts = legacy_csv[1](self.resolver, dotted_names(self.resolver), call)
                except _descriptors.Unreadable as exc:
                    if isinstance(call.args[0].value, cst.SimpleString):
                        self.problems[call.args[0].value.evaluated_value] = str(exc)
                    continue
                self.descriptors[id(call)] = (table, parts)
                found.setdefault(name, []).append((table, call))
                continue
            if method in ("create_temporary_table", "create_table") and len(call.args) == 2 \
                    and isinstance(call.args[0].value, cst.SimpleString):
                name = call.args[0].value.evaluated_value
                try:
                    table, parts = _descriptors.read(self.resolver, dotted_names(self.resolver), name, call.args[1].value)
                except _descriptors.Unreadable as exc:
                    self.problems[name] = str(exc)
                    continue
                self.descriptors[id(call)] = (table, parts)
                self.origins[name] = self._def_origins[id(table)] = (call, parts)
                found.setdefault(name, []).append((table, call))
                continue
            if method not in ("execute_sql", "add_insert_sql", "sql_update"):
                continue
            text = self.sql(call.args[0].value if call.args else None)
            if text is None:
                continue
            try:
                kind = _sql.statement_kind(text.text)
                if kind == "create_view":
                    view = _sql.view_name(text.text)
                    self.views.add(view)
                    self._view_sql[view] = text.text
                if kind != "create_table":
                    continue
                table = _sql.create_table(text.text, {n: d[-1][0] for n, d in found.items()})  # LIKE a table declared before
            except _sql.Untranslatable as exc:
                name = re.search(r"TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?`?([\w.]+)`?", text.text, re.I)
                if name:
                    self.problems[name.group(1)] = str(exc)
                continue
            found.setdefault(table.name, []).append((table, call))
            self.origins[table.name] = self._def_origins[id(table)] = (call, text.parts)
        self.sinks = self._sinks()
        self._read_names: Optional[tuple[set[str], bool]] = None
        for name, declared in found.items():
            defs = [d for d, _ in declared]
            if len({(d.connector, tuple(d.columns)) for d in defs}) > 1:
                branches = self._branches(declared)
                if branches is not None:
                    self.conditional[name] = branches
                    continue
                self.problems[name] = "declared more than once, with other connectors or columns (which one a statement uses depends on the run)"
                continue
            # (a Flink 1.x table: a connect() descriptor's, or of legacy DDL properties, gone from
            # Flink 2.3, keeps its reading as a stream)
            legacy = name in self._legacy_tables or defs[0].options.get("json.timestamp-format.standard") == _sql.LEGACY_JSON_TIMESTAMP
            if self.mode == "batch" and not defs[0].bounded and not legacy and self.reads(name):
                # Flink 2.3's planner refuses it before the job starts (DynamicSourceUtils.validateScanSourceForBatch)
                bounding = {"kafka": "with 'scan.bounded.mode' it reads a bounded range of offsets",
                            "datagen": "with 'number-of-rows' it reads that many rows"}.get(defs[0].connector)
                self.problems[name] = (f"an unbounded {defs[0].connector!r} table read in batch mode: Flink refuses the "
                                       "job (\"Querying an unbounded table ... in batch mode is not allowed\", seen on "
                                       "Flink 2.3)" + (f"; {bounding}" if bounding else ""))
                continue
            self.catalog[name] = defs[0]

    def _bindings(self, name: str) -> int:
        """How many places of the module bind ``name`` (assignments, parameters, loop and with
        targets, imports): a test reading a name bound once has the same value wherever it is read."""
        count = 0
        for node in nodes(self.resolver.module, cst.AssignTarget, cst.AugAssign, cst.AnnAssign, cst.For, cst.Param,
                          cst.AsName, cst.NamedExpr, cst.CompFor):
            target = node.name if isinstance(node, (cst.Param, cst.AsName)) else node.target
            count += sum(1 for n in nodes(target, cst.Name) if n.value == name)
        return count

    def _branches(self, declared: list) -> Optional[tuple[cst.If, _sql.TableDef, _sql.TableDef]]:
        """(the if, its body's table, its else's table) when the two declarations of a table stand
        in the body and in the else of one ``if`` whose test reads only names bound once (and
        their attributes): ``if output_path is not None: <filesystem> else: <print>``."""
        if len(declared) != 2:
            return None
        resolver = self.resolver
        (first, first_call), (second, second_call) = declared
        node = resolver.parent(first_call)
        while node is not None and not isinstance(node, cst.If):
            node = resolver.parent(node)
        if node is None or not isinstance(node.orelse, cst.Else):
            return None

        def within(call, block) -> bool:
            up = call
            while up is not None and up is not block:
                up = resolver.parent(up)
            return up is block

        if within(first_call, node.body) and within(second_call, node.orelse):
            then, other = first, second
        elif within(second_call, node.body) and within(first_call, node.orelse):
            then, other = second, first
        else:
            return None
        for part in walk(node.test):
            if isinstance(part, cst.Name):
                parent = resolver.parent(part)
                if isinstance(parent, cst.Attribute) and parent.attr is part:
                    continue  # known_args.output: an attribute of a name bound once
                if part.value not in ("None", "True", "False") and (
                        len(resolver.referents(part)) != 1 or self._bindings(part.value) != 1):
                    return None
            elif not isinstance(part, (cst.Attribute, cst.Comparison, cst.ComparisonTarget, cst.BaseCompOp, cst.BooleanOperation,
                                       cst.BaseBooleanOp, cst.UnaryOperation, cst.Not, cst.BaseString, cst.Integer, cst.Dot,
                                       cst.SimpleWhitespace, cst.ParenthesizedWhitespace, cst.Newline, cst.TrailingWhitespace,
                                       cst.LeftParen, cst.RightParen, cst.EmptyLine, cst.Comment)):
                return None
        return node, then, other


def _late_over(watermark: tuple[str, str]) -> str:
    """The NOTE of an over window ordered by the rowtime ``watermark`` (column, delay)."""
    column, delay = watermark
    no_delay = _sql._duration_micros(delay) == 0
    behind = (f"a record with the same {column} as an earlier one (its watermark is {column} itself, with no delay)" if no_delay
              else f"a record more than {delay} behind the largest {column} before it")
    return (f"over window ordered by the rowtime {column} in streaming mode: Flink drops the records that arrive at or "
            f"behind its watermark, such as {behind}; the watermark moves every 200 ms by default, so which ones depends "
            "on timing; Spark's window keeps every record")


def _stream_view(node) -> bool:
    """Whether a view's Table expression is ``create_temporary_view(name, ds, *fields)`` itself
    (a view of a stream's fields, which gives only inserts as the stream does)."""
    return isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "create_temporary_view"


def _kind(sql: str) -> Optional[str]:
    try:
        return _sql.statement_kind(sql)
    except _sql.Untranslatable:
        return None


_PYTHON_TYPES = {cst.Integer: "BIGINT", cst.Float: "DOUBLE", cst.SimpleString: "STRING"}


def _literal_type(node) -> Optional[str]:
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        node = node.expression
    if isinstance(node, cst.Name) and node.value in ("True", "False"):
        return "BOOLEAN"
    return _PYTHON_TYPES.get(type(node))


_NULL = "NULL"  # a None value: the type the other rows give


def _int64(node) -> bool:
    """Not an int literal outside int64 (pandas keeps those as uint64 or objects)."""
    if isinstance(node, cst.UnaryOperation):
        node = node.expression
    return not isinstance(node, cst.Integer) or abs(int(node.evaluated_value)) < 2**63


def _pandas_schema(resolver, name: cst.Name) -> Optional[dict[str, str]]:
    """Column types of ``from_pandas(pdf)`` when ``pdf = pd.DataFrame({"a": [literals], ...})`` is
    bound once and only passed on as an argument (never changed in place): pandas' dtypes, as
    both engines read them (int64 BIGINT, float64 DOUBLE, also of ints mixed with floats, bool
    BOOLEAN, str STRING); a None (NaN in a number column) leaves it unknown."""
    from flink2spark.rules.table._common import uses_of_single_name

    frame = resolver.single_value(name)
    if not (isinstance(frame, cst.Call) and "pandas.DataFrame" in resolver.qualified_names(frame.func)
            and len(frame.args) == 1 and frame.args[0].keyword is None and isinstance(frame.args[0].value, cst.Dict)):
        return None
    uses = uses_of_single_name(resolver, frame)
    if not uses or any(not isinstance(resolver.parent(u), cst.Arg) for u in uses):
        return None
    out = {}
    for element in frame.args[0].value.elements:
        if not (isinstance(element, cst.DictElement) and isinstance(element.key, cst.SimpleString)
                and isinstance(element.value, (cst.List, cst.Tuple)) and element.value.elements):
            return None
        found = {_literal_type(e.value) if isinstance(e, cst.Element) and _int64(e.value) else None
                 for e in element.value.elements}
        if found == {"BIGINT", "DOUBLE"}:
            found = {"DOUBLE"}
        if len(found) != 1 or None in found:
            return None
        out[element.key.evaluated_value] = found.pop()
    return out or None


def _literal_schema(rows, names, resolver) -> Optional[dict[str, str]]:
    """Column types of ``from_elements(rows, names)``: a DataTypes.ROW schema's, or those both
    engines infer from literal rows (int BIGINT, float DOUBLE, str STRING, bool BOOLEAN)."""
    from flink2spark.rules.table import _types as TY

    if names is not None and not isinstance(names, (cst.List, cst.Tuple)):
        try:
            text = TY.spark_schema(names, dotted_names(resolver))
        except TY.Untranslatable:
            return None
        return _parse_ddl_schema(text)
    if not isinstance(rows, (cst.List, cst.Tuple)) or not rows.elements:
        return None
    types = None
    for element in rows.elements:
        row = element.value
        if not isinstance(row, (cst.Tuple, cst.List)) or any(not isinstance(e, cst.Element) for e in row.elements):
            return None
        # None (NullType) takes the type of the other rows' values (PyFlink's and Spark's _merge_type)
        found = [_NULL if isinstance(e.value, cst.Name) and e.value.value == "None" else _literal_type(e.value)
                 for e in row.elements]
        if types is None:
            types = found
        elif len(found) != len(types):
            return None
        else:
            types = [b if a == _NULL else a if b == _NULL or a == b else None for a, b in zip(types, found)]
    if types is None or _NULL in types:
        return None
    if names is None:
        labels = [f"_{i + 1}" for i in range(len(types))]
    else:
        if not all(isinstance(e.value, cst.SimpleString) for e in names.elements):
            return None
        labels = [e.value.evaluated_value for e in names.elements]
    if len(labels) != len(types) or None in types:
        return None
    return dict(zip(labels, types))


def _parse_ddl_schema(text: str) -> Optional[dict[str, str]]:
    """"a INT, b DECIMAL(10, 2)" -> {"a": "INT", "b": "DECIMAL(10, 2)"} (commas inside brackets kept)."""
    out, depth, start = {}, 0, 0
    parts = []
    for i, ch in enumerate(text):
        depth += ch in "(<"
        depth -= ch in ")>"
        if ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    for part in parts:
        bits = part.strip().split(None, 1)
        if len(bits) != 2:
            return None
        out[bits[0].strip("`")] = bits[1].strip().upper()
    return out


def dotted_names(resolver):
    """The qualified name of a name or a dotted name (``col``, ``expressions.col``,
    ``DataTypes.INT``) as imported; None for anything else. The resolver names ``col("a").alias``
    ``pyflink.table.expressions.col.alias`` (through the call, as libcst does), which is a method
    of an Expression, not a function of that name: the translators must not see that."""

    def name(node):
        part = node
        while isinstance(part, cst.Attribute):
            part = part.value
        return resolver.qualified_name(node) if isinstance(part, cst.Name) else None

    return name


def runtime_mode_of(resolver) -> str:
    from flink2spark.rules.pyflink._streams import graph

    return graph(resolver).runtime_mode


def _joined(left: Optional[SqlText], right: Optional[SqlText]) -> Optional[SqlText]:
    if left is None or right is None:
        return None
    if left.tables or right.tables:
        if left.parts or right.parts:
            return None
        shift = len(left.tables)
        text = _TABLE_RE.sub(lambda m: _TABLE_MARK.format(int(m.group(1)) + shift), right.text)
        return SqlText(left.text + text, (), left.tables + right.tables)
    shift = len(left.parts)
    text = _MARK_RE.sub(lambda m: _MARK.format(int(m.group(1)) + shift), right.text)
    return SqlText(left.text + text, left.parts + right.parts)


def _has_equality(cond: cst.BaseExpression) -> bool:
    """Whether a join condition is (or is a conjunction ``&`` holding) an ``==`` comparison."""
    if isinstance(cond, cst.Comparison):  # of two columns: a literal side is no join key
        sides = [cond.left] + [c.comparator for c in cond.comparisons]
        literal = (cst.SimpleString, cst.Integer, cst.Float, cst.FormattedString, cst.ConcatenatedString)
        return any(isinstance(c.operator, cst.Equal) and not isinstance(sides[i], literal) and
                   not isinstance(sides[i + 1], literal) for i, c in enumerate(cond.comparisons))
    if isinstance(cond, cst.BinaryOperation) and isinstance(cond.operator, cst.BitAnd):
        return _has_equality(cond.left) or _has_equality(cond.right)
    return False


def _printed(resolver, call: cst.Call) -> bool:
    """Whether ``call`` (``table.execute()``) is printed at once: ``table.execute().print()``."""
    attr = resolver.parent(call)
    outer = resolver.parent(attr) if isinstance(attr, cst.Attribute) and attr.attr.value == "print" else None
    return isinstance(outer, cst.Call) and not outer.args


# the Resolvers of project modules whose Table API model is being built (transpiler/project.py)
_READING: set[int] = set()


def tables(resolver) -> TablesModel:
    """The module's Table API model, built at the first question."""
    if resolver.tables is None:
        resolver.tables = TablesModel(resolver)
    return resolver.tables
