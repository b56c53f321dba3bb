"""Rolling (STREAMING mode) keyed reductions of frames: a window function over the source
order (issue 14; not a rule: it defines no ``rule``).

In STREAMING mode PyFlink's ``reduce`` (and ``sum/min/max(field)``, which are reduces with its
own functions) emits, for every element, the reduction of its key's elements so far: the
first element as it is, then ``reduce(acc, element)``. ``sum``/``min``/``max`` replace only the
field in the accumulator, so the other fields stay those of the key's FIRST element
(``KeyedStream._accumulate``: ``v1_list[pos] = ...``).

On a frame this is, per field, a window function over the rows of the key up to the current
one in the source order (``Window.partitionBy(keys).orderBy(seq)``: ``seq`` is unique, so the
default frame, up to the current row, holds exactly those rows): ``F.sum``/``F.min``/
``F.max`` of an aggregated field, ``F.first`` of another field (the key's first element),
the column itself for a key field (and for ``b.x`` in a reduce ``(a, b)``: the element's own). The source order is ``F.monotonically_increasing_id()``
taken just before: it increases in partition order and, in a partition, in row order, and
``createDataFrame`` of a list keeps the list's order across partitions; ``select``/``where``
keep it, and so does ``F.explode`` (a flat_map: each row's items in their order, where the row
was). Hence the plan only when every step from the source is one of those (no union,
no earlier aggregation: their order is not the source's).

Flink sees the source order per key when nothing between the (parallelism 1)
``from_collection`` and the ``key_by`` runs with several subtasks: with a parallelism other
than 1 and a ``map``/``filter`` in between, records of one key reach the reduce through
several channels, and their order (so the running values) may differ: NOTE F2S277.

A bounded text file source (``FileSource`` text lines, ``read_text_file``) is a frame too: Spark's
``read.text`` splits one file into partitions in the file's order (``monotonically_increasing_id``
follows it), and Flink reads one file as one split in one source subtask, its 1:1 operators
chained to it (forward), so a key's records reach the reduce in the file's order at any
parallelism, unless an operator before ``key_by`` has its own parallelism (NOTE F2S277). Several
files are read in different orders by the two engines: NOTE F2S265, always (the path's files are
not known when converting).

On an unbounded (Kafka) frame in STREAMING mode (``Rolling.unbounded``: ``sum``/``min``/``max``/
``reduce`` of the same plans, no timestamp assigner on the way) there is no window function
over a stream: ``df.groupBy(keys).transformWithState(P(), schema, "Append", "None")``, where
``P`` is a StatefulProcessor class added before the statement (``streamed``). It keeps the key's
aggregate so far in a ValueState and yields it after each row, folded in Python as PyFlink
folds it, so every record gives its running value, across micro-batches. A Kafka partition is
read by one Flink source subtask with its 1:1 operators chained, so a key's records of one
partition reach the reduce in offset order; Spark hands a key's rows of one micro-batch in its
shuffle's order (each input partition's rows in their order while the sort does not spill):
NOTE F2S258 says so, and that the values come out per micro-batch.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import libcst as cst

from flink2spark.rules.pyflink import _frames
from flink2spark.transpiler import pyflink_model as P
from flink2spark.transpiler.python_columns import Shape

ORDER_NOTE = (
    "rolling aggregation over the source order: with parallelism > 1 the map/flat_map/filter/timestamp assigner before key_by runs in"
    " several subtasks and Flink's order of a key's records (so its running values) may differ"
)

FILES_NOTE = (
    "rolling aggregation over the lines of a text file source in Spark's read order: exact for one file; when the path holds"
    " several files, Flink and Spark read them in different orders and a key's running values over records of several files differ"
)

# steps that keep a frame's rows in the source order (select/where, or nothing at all)
_ORDERED_STEPS = frozenset({"map", "flat_map", "filter", "key_by", "name", "uid", "set_parallelism", "set_description",
                            "set_max_parallelism", "disable_chaining", "start_new_chain", "slot_sharing_group",
                            "set_buffer_timeout", "forward", "assign_timestamps_and_watermarks"})
# 1:1 operators at the job's parallelism after the parallelism-1 collection source (round-robin)
_REBALANCING = frozenset({"map", "flat_map", "filter", "assign_timestamps_and_watermarks"})
# bounded text file sources (a frame of lines, see _frames.text_source_shape)
_TEXT_SOURCES = frozenset({"from_source", "read_text_file"})
# the rolling aggregations of a Kafka frame (transformWithState: ``unbounded``)
ROLLING_METHODS = frozenset({"sum", "min", "max", "reduce"})
# min_by/max_by: PyFlink keeps the earlier element on ties (``v2 if v2[pos] < v1[pos] else v1``)
_BY = {"min_by": "min", "max_by": "max"}


@dataclass(frozen=True)
class Rolling:
    agg: _frames.Aggregation  # kinds: "key", "first" (the key's first element's), "last" (the element's), "sum", "min",
    # "max"; or "min_by"/"max_by" of one field, the others "key" or "element" (of the element it picks)
    reordered: bool  # Flink's per-key order may not be the source order (NOTE)
    files: bool = False  # the source is a text file source: its files' order is not set (NOTE)
    unbounded: bool = False  # the source is a Kafka topic (a streaming DataFrame): transformWithState


def rolling(g, call: cst.Call, shape: Shape) -> Optional[Rolling]:
    """The window functions of a STREAMING ``sum/min/max(field)`` or ``reduce(f)`` on a keyed
    frame, or None (the stream stays an RDD with ``f2s.rolling_reduce``)."""
    return g.fact("frame_rolling", call, _rolling, None, shape, "streaming")


def final(g, call: cst.Call, shape: Shape) -> Optional[Rolling]:
    """The aggregates over the source order of a BATCH keyed reduction on a frame that needs
    the order of a key's elements (a field kept from the key's first element, ``b.x`` of a
    reduce: the key's last element's, ``min_by``/``max_by``), or None: when
    ``_frames.aggregation`` has an order-free plan, or the order cannot be followed (an RDD
    with ``f2s.final_reduce``, which reduces in the same source order)."""
    if g.runtime_mode != "batch" or _frames.aggregation(g, call, shape) is not None:
        return None
    return g.fact("frame_final", call, _rolling, None, shape, "batch")


def _rolling(g, call: cst.Call, shape: Shape, mode: str) -> Optional[Rolling]:
    """The plan of ``call`` in runtime ``mode``: the kinds are the same in both modes, but
    "last" is the element's own value when rolling and the key's last element's in BATCH."""
    if g.runtime_mode != mode or shape.kind == "value":
        return None
    key_by = _frames.key_by_of(g, call.func.value)  # type: ignore[attr-defined]
    keys = _frames.key_fields(g, key_by, shape) if key_by is not None else None
    if keys is None:
        return None
    steps = _steps_from_source(g, key_by, text_files=True)
    if steps is None:
        return None
    method = call.func.attr.value  # type: ignore[attr-defined]
    unbounded = "kafka" in steps
    if unbounded and (method not in ROLLING_METHODS or mode != "streaming"):
        return None
    if method == "reduce":  # a.x: the key's first element's x; b.x: the element's own (BATCH: the last one's);
        # ``a if a.x >= b.x else b``: max_by
        kinds = _frames._reduce_kinds(g, call, shape, keys)
        kinds = kinds and ["key" if k in ("first", "last") and f.name in keys else k for f, k in zip(shape.fields, kinds)]
    elif method in _BY:  # the whole element of the smallest/largest field so far
        kinds = _frames._field_kinds(call, method, shape, keys)
        kinds = kinds and [k if k == method or f.name in keys else "element" for f, k in zip(shape.fields, kinds)]
    else:
        kinds = _frames._field_kinds(call, method, shape, keys)
        if kinds is not None:  # the other fields are the key's first element's
            kinds = ["key" if k == "key" and f.name in keys else "first" if k == "key" else k for f, k in zip(shape.fields, kinds)]
    if kinds is None:
        return None
    for f, kind in zip(shape.fields, kinds):
        compared = _frames._AGGREGATES.get(_BY.get(kind, kind))  # min_by/max_by compare as min/max
        if compared is not None and (f.nullable or f.type not in compared):
            return None
        if kind == "key" and f.name not in keys:
            return None
    known, parallelism = g.parallelism
    files = bool(steps & _TEXT_SOURCES)
    if unbounded and "assign_timestamps_and_watermarks" in steps:
        return None  # Flink's running values carry the timestamps, which the processor's rows do not (the shim's do)
    if unbounded:  # a Kafka partition is read by one source subtask, its 1:1 operators chained to it (forward):
        # a key's records of one partition reach the reduce in offset order, unless an operator has its own parallelism
        return Rolling(_frames.Aggregation(keys, tuple((f.name, k) for f, k in zip(shape.fields, kinds))),
                       "set_parallelism" in steps, False, True)
    if files:  # the source runs at the job's parallelism: its 1:1 operators are chained to it, forward
        reordered = "set_parallelism" in steps
    else:  # after from_collection (parallelism 1) they are round-robin unless the job's parallelism is 1
        # an operator's own set_parallelism(n) before the key_by may make it several subtasks too
        reordered = bool(steps & _REBALANCING) and (not (known and parallelism == 1) or "set_parallelism" in steps)
    return Rolling(_frames.Aggregation(keys, tuple((f.name, k) for f, k in zip(shape.fields, kinds))), reordered, files)


def _steps_from_source(g, expr, text_files: bool = False) -> Optional[set]:
    """The methods between ``from_collection`` and ``expr`` (a key_by), or None when one of
    them may change the order of the rows (or the way cannot be followed). With ``text_files``
    the source may also be a bounded text file source (``_frames.text_source_shape``): the
    steps then hold its method too (``from_source`` or ``read_text_file``)."""
    resolver = g.resolver
    steps: set = set()
    while True:
        if isinstance(expr, cst.Name):
            values = resolver.sources_of(expr)
            if len(values) != 1:
                return None
            expr = values[0]
            continue
        if not (isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute)):
            return None
        method = expr.func.attr.value
        if resolver.type_of(expr.func.value) == P.ENVIRONMENT:
            if method == "from_collection":
                return steps
            if text_files and method in _TEXT_SOURCES and _frames.text_source_shape(g, expr) is not None:
                return steps | {method}
            if text_files and method in ("from_source", "add_source") and g.node(expr).micro_batches and (
                    _frames.kafka_source_shape(g, expr) is not None):
                return steps | {"kafka"}
            return None
        if method not in _ORDERED_STEPS:
            return None
        steps.add(method)
        expr = expr.func.value


def rolling_shape(g, call: cst.Call, shape: Shape) -> Optional[Shape]:
    return shape if rolling(g, call, shape) is not None else None


def final_shape(g, call: cst.Call, shape: Shape) -> Optional[Shape]:
    return shape if final(g, call, shape) is not None else None


def order_column(shape: Shape, name: str = "seq") -> str:
    """A column name (for the source order) that is none of the frame's."""
    names = {f.name for f in shape.fields}
    while name in names:
        name = "_" + name
    return name


def rolled(ctx, seg):
    """``df.withColumn(seq, F.monotonically_increasing_id()).select(...)``: per field, the
    window function of the key's rows up to the current one in the source order."""
    from flink2spark.rules.pyflink._streams import facts, graph
    from flink2spark.transpiler import imports as I
    from flink2spark.transpiler import markers as M

    g = graph(ctx.resolver)
    shape = facts(ctx.resolver, seg.original).frame
    plan = rolling(g, seg.original, shape)
    if plan.unbounded:
        return streamed(ctx, seg, plan, shape)
    I.need(ctx.conv.codemod, "pyspark.sql", "functions", "F")
    I.need(ctx.conv.codemod, "pyspark.sql", "Window")
    if plan.reordered:
        ctx.note(M.PF_ROLLING_ORDER, ORDER_NOTE)
    if plan.files:
        ctx.note(M.PF_ROLLING_FILES, FILES_NOTE)
    seq = order_column(shape)
    types = {f.name: f.type for f in shape.fields}
    # ordered by a unique column: the default frame (up to the current row) is the key's rows so far
    window = 'Window.partitionBy(%s).orderBy("%s")' % (", ".join(f'"{k}"' for k in plan.agg.keys), seq)
    numbered = ctx.expr('{df}.withColumn("%s", F.monotonically_increasing_id())' % seq, df=ctx.site.receiver)
    by = _by_element(plan, seq)
    if by is not None:  # the element whose (field, order) is the least so far (max_by: the earlier on ties)
        code = f'{by}.over({window}).alias("element")'
        return ctx.expr('{df}.select(%s).select("element.*")' % code, df=numbered)
    if sum(kind not in ("key", "last") for _, kind in plan.agg.fields) > 1:  # the spec once, before the statement
        window = _window_name(ctx, seg, window)
    items = []
    for name, kind in plan.agg.fields:
        if kind in ("key", "last"):  # the element's own value
            items.append(f'"{name}"')
            continue
        code = f'F.{kind}("{name}").over({window})'
        if kind == "sum" and types[name] != "bigint":  # Spark's sum of integers is a BIGINT
            code += f'.cast("{types[name]}")'
        items.append(f'{code}.alias("{name}")')
    return ctx.expr("{df}.select(%s)" % ", ".join(items), df=numbered)


STREAM_NOTE = (
    "keyed rolling aggregation on an unbounded stream: each key's aggregate so far is kept by"
    " groupBy().transformWithState() in the query's checkpoint (Spark >= 4.1, pyarrow, pandas and protobuf on the driver"
    " and the workers, the RocksDB state store, set here); the running values come out per micro-batch, and a key's"
    " rows of one micro-batch in the order Spark's shuffle gives them (each Kafka partition's in offset order unless"
    " the sort spills to disk; Flink: arrival order)"
)
ROCKSDB = "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider"
# Python's operators of PyFlink's rolling aggregations (KeyedStream._accumulate: ``v2[pos] < v1[pos]`` keeps v2)
_FOLDS = {"sum": "{a} + {b}", "min": "min({a}, {b})", "max": "max({a}, {b})"}


def streamed(ctx, seg, plan: Rolling, shape: Shape):
    """A rolling aggregation of a Kafka frame: ``df.groupBy(keys).transformWithState(P(),
    schema, "Append", "None")`` where ``P``, a StatefulProcessor class added before the
    statement, keeps the key's aggregate so far (a tuple of the record's fields) in a
    ValueState and yields it after each row, folding each field as PyFlink does, in Python
    (``key``/``last``: the row's value, ``first``: the kept one, ``sum``/``min``/``max``: ``+``/
    ``min``/``max`` of the kept and the row's). The session's state store is RocksDB, which
    transformWithState needs on a stream. None when the statement cannot take the class."""
    from flink2spark.transpiler import imports as I
    from flink2spark.transpiler import markers as M
    from flink2spark.transpiler import source as S

    line = ctx.resolver.parent(seg.original)
    while line is not None and not isinstance(line, (cst.SimpleStatementLine, cst.BaseCompoundStatement)):
        line = ctx.resolver.parent(line)
    if line is None:
        return ctx.keep("a rolling aggregation of an unbounded frame outside a statement")
    method = seg.original.func.attr.value
    used = ctx.conv.__dict__.setdefault("_rolling_processors", set())
    base = "Rolling" + method.capitalize()
    name = next(n for n in (base, *(f"{base}{i}" for i in range(2, 1000))) if n not in used and S.free_name(n) == n)
    names = [f.name for f in shape.fields]
    ddl = ", ".join(f"`{f.name}` {f.type.upper()}" if not f.name.isidentifier() else f"{f.name} {f.type.upper()}" for f in shape.fields)
    kinds = dict(plan.agg.fields)
    folded = []
    for i, n in enumerate(names):
        kind = kinds[n]
        if kind == "first":
            folded.append(f"so_far[{i}]")
        elif kind in _FOLDS:
            folded.append(_FOLDS[kind].format(a=f"so_far[{i}]", b=f"row[{n!r}]"))
        else:  # a key field, or the row's own value
            folded.append(f"row[{n!r}]")
    first = "(" + ", ".join(f"row[{n!r}]" for n in names) + ("," if len(names) == 1 else "") + ")"
    fold = "(" + ", ".join(folded) + ("," if len(names) == 1 else "") + ")"
    if all(n.isidentifier() and not __import__("keyword").iskeyword(n) for n in names):
        out = "Row(" + ", ".join(f"{n}=so_far[{i}]" for i, n in enumerate(names)) + ")"
    else:
        out = "Row(**{" + ", ".join(f"{n!r}: so_far[{i}]" for i, n in enumerate(names)) + "})"
    code = (
        f"class {name}(StatefulProcessor):\n"
        f'    """Flink\'s keyed rolling {method}(): per key, the aggregate so far after each row."""\n\n'
        "    def init(self, handle):\n"
        f"        self.so_far = handle.getValueState(\"so_far\", {ddl!r})\n\n"
        "    def handleInputRows(self, key, rows, timerValues):\n"
        "        so_far = self.so_far.get()\n"
        "        for row in rows:\n"
        f"            so_far = {first} if so_far is None else {fold}\n"
        f"            yield {out}\n"
        "        if so_far is not None:\n"
        "            self.so_far.update(so_far)\n"
    )
    cls = cst.parse_statement(code)
    conf = cst.parse_statement(f'SparkSession.active().conf.set("spark.sql.streaming.stateStore.providerClass", {ROCKSDB!r})\n')

    def insert(new):
        lead = new.leading_lines
        return cst.FlattenSentinel([cls.with_changes(leading_lines=lead), conf, new.with_changes(leading_lines=[])])

    if not ctx.rewrite_statement(line, insert):
        return ctx.keep("a rolling aggregation of an unbounded frame in a statement rewritten already")
    used.add(name)
    I.need(ctx.conv.codemod, "pyspark.sql", "Row")
    I.need(ctx.conv.codemod, "pyspark.sql", "SparkSession")
    I.need(ctx.conv.codemod, "pyspark.sql.streaming", "StatefulProcessor")
    ctx.note(M.PF_ROLLING_STATE, STREAM_NOTE)
    if plan.reordered:
        ctx.note(M.PF_ROLLING_ORDER, ORDER_NOTE)
    group = ", ".join(f'"{k}"' for k in plan.agg.keys)
    return ctx.expr('{df}.groupBy(%s).transformWithState(%s(), "%s", "Append", "None")' % (group, name, ddl.replace('"', '\\"')),
                    df=ctx.site.receiver)


FINAL_NOTE = (
    "BATCH keyed reduction in the source order (the key's first/last element, the earlier of ties): Flink sorts the"
    " records by key before reducing them and does not promise the order of a key's records"
)


def finalled(ctx, seg):
    """A BATCH keyed reduction that needs its key's order (``final``): ``groupBy(keys).agg``
    over a source-order column: ``F.min_by(x, seq)`` for the key's first element's field,
    ``F.max_by(x, seq)`` for the last one's (``b.x``), ``F.min_by/max_by`` of the whole
    element for ``min_by``/``max_by`` (the earlier on ties)."""
    from flink2spark.rules.pyflink._streams import facts, graph
    from flink2spark.transpiler import imports as I
    from flink2spark.transpiler import markers as M

    g = graph(ctx.resolver)
    shape = facts(ctx.resolver, seg.original).frame
    plan = final(g, seg.original, shape)
    I.need(ctx.conv.codemod, "pyspark.sql", "functions", "F")
    ctx.note(M.PF_FINAL_ORDER, FINAL_NOTE)
    if plan.reordered:
        ctx.note(M.PF_ROLLING_ORDER, ORDER_NOTE)
    if plan.files:
        ctx.note(M.PF_ROLLING_FILES, FILES_NOTE)
    seq = order_column(shape)
    numbered = ctx.expr('{df}.withColumn("%s", F.monotonically_increasing_id())' % seq, df=ctx.site.receiver)
    group = ", ".join(f'"{k}"' for k in plan.agg.keys)
    by = _by_element(plan, seq)
    if by is not None:  # the element whose (field, order) is the least (max_by: the earlier on ties)
        alias = order_column(shape, "element")
        code = f'{by}.alias("{alias}")'
        return ctx.expr('{df}.groupBy(%s).agg(%s).select("%s.*")' % (group, code, alias), df=numbered)
    types = {f.name: f.type for f in shape.fields}
    items = []
    for name, kind in plan.agg.fields:
        if kind == "key":
            continue
        if kind in ("first", "last"):
            code = f'F.{"min_by" if kind == "first" else "max_by"}("{name}", "{seq}")'
        else:
            code = f'F.{kind}("{name}")'
            if kind == "sum" and types[name] != "bigint":  # Spark's sum of integers is a BIGINT
                code += f'.cast("{types[name]}")'
        items.append(f'{code}.alias("{name}")')
    out = ctx.expr("{df}.groupBy(%s).agg(%s)" % (group, ", ".join(items)), df=numbered)
    order = _frames.aggregate_order(plan.agg)
    return out if order is None else ctx.expr("{df}.select(%s)" % order, df=out)


def _by_element(plan: Rolling, seq: str) -> Optional[str]:
    """For ``min_by``/``max_by``: ``F.min_by/max_by`` of the element's struct by ``(field, order)``
    (the earlier element on ties: ``-seq`` for max_by), or None for the other plans."""
    by = next((kind for _, kind in plan.agg.fields if kind in _BY), None)
    if by is None:
        return None
    field = next(name for name, kind in plan.agg.fields if kind == by)
    order = f'"{seq}"' if by == "min_by" else f'-F.col("{seq}")'
    element = "F.struct(%s)" % ", ".join(f'"{name}"' for name, _ in plan.agg.fields)
    return f'F.{by}({element}, F.struct("{field}", {order}))'


def _window_name(ctx, seg, spec: str) -> str:
    """A name bound to the window ``spec`` by a statement added before the one converted (each
    rolled aggregation its own name, never the user's); ``spec`` itself where the call is not in
    a simple statement of its own or that statement is rewritten already."""
    from flink2spark.transpiler import source as S

    line = ctx.resolver.parent(seg.original)
    while line is not None and not isinstance(line, (cst.SimpleStatementLine, cst.BaseCompoundStatement)):
        line = ctx.resolver.parent(line)
    if not isinstance(line, cst.SimpleStatementLine):
        return spec
    named = ctx.conv.__dict__.setdefault("_rolling_windows", {})  # (block, spec) -> name
    block = ctx.resolver.parent(line)
    if (id(block), spec) in named:  # bound by an earlier statement of the same block, which ran before
        return named[(id(block), spec)]
    used = set(named.values())
    name = next(n for n in ("by_key", *(f"by_key_{i}" for i in range(2, 1000))) if n not in used and S.free_name(n) == n)
    assign = cst.parse_statement(f"{name} = {spec}\n")
    if not ctx.rewrite_statement(line, lambda new: cst.FlattenSentinel([assign.with_changes(leading_lines=new.leading_lines),
                                                                        new.with_changes(leading_lines=[])])):
        return spec
    named[(id(block), spec)] = name
    return name
