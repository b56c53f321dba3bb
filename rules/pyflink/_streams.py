"""The PyFlink program model: every fact about a stream, computed in one place (not a rule: it
defines no ``rule``).

Every stream expression of the original module is a node of the program's dataflow graph: a
source call (``env.from_source(...)``), an operator call (``ds.map(f)``, whose input is its
receiver, and for ``union``/``connect`` its arguments too), a name (its inputs are what it holds
at that use: ``Resolver.sources_of``, the value assigned last, or for a helper's parameter what
each call of the helper passes), a helper's call (what the helper returns), an async I/O call
(the stream it reads). ``facts(resolver, expr)`` is a node's ``StreamFacts``: its API type,
element type, whether it is read from an unbounded source and converted to micro-batches,
timestamped, where it comes from... Each fact is computed from the node and its inputs' facts
the first time a rule asks, and kept for the conversion of the module: a rule reads facts, it
does not walk the program for them, and two rules asking the same question get the same answer.

Where call sites of a helper disagree (a keyed and a plain stream, an unbounded and a bounded
one), the facts of the parameter hold when they hold for one argument; ``Resolver.mixed_types``
(through ``stream_kind``) leaves a TODO at the uses of such a parameter.

What decides a fact locally (is this ``from_source`` a Kafka source? does this strategy assign
timestamps? which window assigner is this?) stays with the construct it is about: Kafka in
``_kafka``, time and watermarks in ``_time``, process functions in ``_process``, element
types of sources in ``_common``.
"""

from __future__ import annotations

from functools import cached_property
from typing import Callable, Optional

import libcst as cst

from flink2spark.transpiler.visitors import nodes, is_method_call
from flink2spark.rules.pyflink._common import (
    PICKLED,
    SAME_TYPE,
    SourceType,
    type_code,
    _agreed,
    _is_none,
    _output_type,
    _returned,
    async_input,
    async_output_type,
    call_arg,
    followed,
    source_kind,
)
from flink2spark.rules.pyflink import _event_windows, _frames, _rolling
from flink2spark.transpiler import pyflink_model as P

_CYCLE = object()


_STREAM_TYPES = frozenset({P.DATASTREAM, P.KEYED, P.WINDOWED, P.ALL_WINDOWED, P.CONNECTED, P.BROADCAST,
                           P.BROADCAST_CONNECTED, P.CACHED})


class StreamGraph:
    """The facts of the module's streams, each kept once computed (``Resolver.program``)."""

    def __init__(self, resolver):
        self.resolver = resolver
        self._facts: dict[tuple[str, int], object] = {}
        self._nodes: dict[int, StreamFacts] = {}
        self._active: set[tuple[str, int]] = set()
        self._cycle = False

    def node(self, expr: cst.BaseExpression) -> "StreamFacts":
        found = self._nodes.get(id(expr))
        if found is None:
            found = self._nodes[id(expr)] = StreamFacts(self, expr)
        return found

    def fact(self, name: str, expr: Optional[cst.BaseExpression], compute: Callable, default, *extra):
        """``compute(self, expr, *extra)``, once per (fact, node). A fact that needs itself (a
        name reassigned in a loop, helpers calling each other) has ``default`` there, and what
        was computed from that answer is not kept."""
        if expr is None:
            return default
        key = (name + "".join(f"/{e}" for e in extra), id(expr))
        if key in self._facts:
            return self._facts[key]
        if key in self._active:
            self._cycle = True
            return default
        self._active.add(key)
        outer, self._cycle = self._cycle, False
        try:
            value = compute(self, expr, *extra)
        finally:
            self._active.discard(key)
        if not self._cycle:
            self._facts[key] = value
        self._cycle = self._cycle or outer
        return value


    # -- the program's facts (of all its streams at once) -----------------------------------
    @cached_property
    def runtime_mode(self) -> Optional[str]:
        """"streaming" or "batch": the runtime mode of the module's environments (Flink's
        default is STREAMING; AUTOMATIC is BATCH for the bounded sources converted here); None
        when it is set from an expression, by a configuration, or differently for several
        environments."""
        from flink2spark.rules.pyflink._configuration import configured_mode

        resolver = self.resolver
        modes = set()
        for call in resolver.calls_of("set_runtime_mode"):
            if resolver.type_of(call.func.value) != P.ENVIRONMENT:  # type: ignore[attr-defined]
                continue
            arg = call_arg(call, 0, "execution_mode")
            modes.add(P.RUNTIME_MODES.get(resolver.qualified_name(arg) or "") if arg is not None else None)
        for call in resolver.calls_of("get_execution_environment"):
            if resolver.qualified_name(call.func) in P.ENTRY_POINTS and call.args:  # type: ignore[attr-defined]
                mode = configured_mode(self, call)  # a Configuration may set execution.runtime-mode
                if mode != "":
                    modes.add(mode)
        modes = {"batch" if mode == "automatic" else mode for mode in modes}
        if not modes:
            return "streaming"
        return modes.pop() if len(modes) == 1 and None not in modes else None

    @cached_property
    def parallelism(self) -> tuple[bool, Optional[int]]:
        """(known, n): the literal ``n`` of the module's ``env.set_parallelism(n)`` calls (None:
        never set, Flink's default, the number of cores, as Spark's local default parallelism);
        known is False when it is set from an expression or to several values."""
        values = set()
        for call in self.resolver.calls_of("set_parallelism"):
            if self.resolver.type_of(call.func.value) != P.ENVIRONMENT:  # type: ignore[attr-defined]
                continue
            arg = call.args[0].value if call.args else None  # type: ignore[attr-defined]
            values.add(int(arg.value) if isinstance(arg, cst.Integer) else None)
        if not values:
            return True, None
        if len(values) == 1 and None not in values:
            return True, values.pop()
        return False, None

    @cached_property
    def _streams(self) -> list[cst.Call]:
        return [call for call in nodes(self.resolver.module, cst.Call) if self.resolver.type_of(call) in _STREAM_TYPES]

    @cached_property
    def rdd_free(self) -> bool:
        """Whether no stream of the module stays an RDD: every stream is lowered to a DataFrame,
        or the module makes none (its environment only creates a table environment). No RDD is
        made: the program runs on Spark Connect, and PyFlink's ``Row`` is Spark's."""
        return all(self.node(call).frame is not None for call in self._streams)

    @cached_property
    def rdd_reason(self) -> Optional[str]:
        """What keeps the program on RDDs (NOTE F2S205 says it): the first, in the text, of the
        operators with no native form, sources with no DataFrame schema and streams whose uses
        cannot be followed that leave a stream an RDD (``_blocker``); None when no stream stays
        an RDD or none of these is found."""
        seen: set[int] = set()
        found = [b for call in self._streams if self.node(call).frame is None
                 for b in [_blocker(self, call, seen)] if b is not None]
        if not found:
            return None
        from flink2spark.transpiler.positions import starts

        where, _ = starts(self.resolver.module, [node for node, _ in found])
        node, kind = min(found, key=lambda b: where.get(id(b[0]), (1 << 30, 0)))
        return _blocker_text(self.resolver, node, kind, where.get(id(node), (0, 0))[0])

    @cached_property
    def uses_rows(self) -> bool:
        """Whether the module names PyFlink's ``Row``."""
        return any(self.resolver.qualified_name(n) in P.ROWS for n in nodes(self.resolver.module, cst.Name))

    @cached_property
    def spark_rows(self) -> bool:
        """Whether every stream would be a DataFrame, the sources whose data hold PyFlink
        ``Row``s included: then ``Row`` is Spark's and those sources are DataFrames too (else
        they stay RDDs of the shim's rows)."""
        return bool(self._streams) and all(
            self.fact("frame_shape", call, _frame_shape, None) is not None and self.fact("frame_downstream", call, _downstream, False)
            for call in self._streams
        )

    @cached_property
    def reads_unbounded(self) -> bool:
        """Whether the module reads an unbounded Kafka source (or monitored files) anywhere, or
        the stream of an unbounded table (``t_env.to_data_stream(table)`` of a Kafka table)."""
        return any(self.node(call).micro_batches for call in self.resolver.calls_of("from_source", "add_source", *P.TABLE_BRIDGES)
                   if isinstance(call.func, cst.Attribute))


def graph(resolver) -> StreamGraph:
    """The module's stream graph (one per conversion, kept by the resolver)."""
    if resolver.program is None:
        resolver.program = StreamGraph(resolver)
    return resolver.program


def facts(resolver, expr: cst.BaseExpression) -> "StreamFacts":
    """The facts of the (original) stream expression ``expr``."""
    return graph(resolver).node(expr)


class StreamFacts:
    """The facts of one stream node, each computed on first use (see the module's doc)."""

    __slots__ = ("graph", "expr")

    def __init__(self, graph: StreamGraph, expr: cst.BaseExpression):
        self.graph, self.expr = graph, expr

    @property
    def api_type(self) -> Optional[str]:
        """PyFlink's API type (``P.DATA_STREAM``, ``P.KEYED``, ``P.WINDOWED``...), or None."""
        return self.graph.resolver.type_of(self.expr)

    @property
    def element_type(self) -> SourceType:
        """What the stream carries: ``PICKLED``, the original type-information expression
        (``Types.ROW([...])`` or a name bound to one), a basic type name made by a source
        (``"LONG"``), or None when it cannot be followed."""
        return self.graph.fact("element_type", self.expr, _element_type, None)

    @property
    def micro_batches(self) -> bool:
        """Whether the stream derives from an unbounded Kafka source or a ``FileSource`` that
        monitors its folder: it is converted to Structured Streaming, run per micro-batch."""
        return self.graph.fact("micro_batches", self.expr, _micro_batches, False)

    @property
    def unbounded_source(self) -> bool:
        """Whether the stream is known to read an unbounded source of any kind (Kafka without
        ``set_bounded``, other connectors, a monitored folder, a Java ``add_source``): the
        shim's batch operators cannot run it. Sources that cannot be followed count as bounded."""
        return self.graph.fact("unbounded_source", self.expr, _unbounded_source, False)

    @property
    def timestamped(self) -> bool:
        """Whether the stream is converted to a timestamped stream: ``(timestamp, element)``
        pairs (``_time``'s module doc)."""
        return self.graph.fact("timestamped", self.expr, _timestamped, False)

    @property
    def literal_elements(self) -> Optional[tuple[cst.BaseExpression, ...]]:
        """The elements, in order, of the list or tuple literal a ``from_collection`` source
        reads when the stream is that source itself (through names); else None."""
        return self.graph.fact("literal_elements", self.expr, _literal_elements, None)

    @property
    def kafka_timestamps(self) -> bool:
        """Whether the elements carry the timestamps of the Kafka records they come from
        (Flink's Kafka sources set them; the conversion does not read them): a Kafka source,
        through operators that keep timestamps and strategies without an assigner."""
        return self.graph.fact("kafka_timestamps", self.expr, _kafka_timestamps, False)

    @property
    def after_state(self) -> bool:
        """Whether the (unbounded) stream comes out of a keyed operator that keeps state and
        does not hand Spark's watermark on (event time after one is not converted): a rolling
        aggregation, processing-time or count windows, a keyed process function with
        processing-time timers or on a stream without timestamps. Event-time windows and the
        other keyed process functions on a timestamped stream run in transformWithState's
        EventTime mode and hand the watermark on (``eventTimeColumnName``)."""
        return self.graph.fact("after_state", self.expr, _after_state, False)

    @property
    def readers(self) -> int:
        """How many operators read the stream this expression makes: the uses of the variable
        it is assigned to (each one reads the whole stream), else 1."""
        return self.graph.fact("readers", self.expr, _readers, 1)

    @property
    def consumer_calls(self) -> list[cst.Call]:
        """The calls ``stream.method(...)`` reading this expression, directly or through the
        one variable it is assigned to; [] when one of its uses is not such a call."""
        return self.graph.fact("consumer_calls", self.expr, _consumer_calls, [])

    @property
    def undecoded(self) -> bool:
        """Whether the elements may be objects a Python function made rather than values
        decoded from Flink's serializers. PyFlink fuses a Python operator with the next one
        only when that one is its single reader: the objects then go on as they are. Sources,
        key_by, union and the outputs with several readers are decoded (``_common.decoding``)."""
        return self.graph.fact("undecoded", self.expr, _undecoded, True)

    @property
    def frame(self):
        """``Optional[python_columns.Shape]``: the DataFrame's columns when the stream is lowered
        to a DataFrame (issue 14), None when it stays an RDD. A stream is a frame when its
        source has a schema (``_frames.source_shape``), every operator between has a native
        form (``NATIVE_CONSUMERS``) and every consumer of it, and of the streams derived from
        it, has one too: a single consumer without one keeps the stream and its sources RDDs."""
        return self.graph.fact("frame", self.expr, _frame, None)

    @property
    def window_call(self) -> Optional[cst.Call]:
        """For a windowed stream: the ``window(...)``/``count_window(...)``/``window_all(...)``
        call it comes from (through names and the window settings), or None."""
        return self.graph.fact("window_call", self.expr, _window_call, None)

    def unstreamable(self, streaming: bool) -> Optional[str]:
        """The first operator between an unbounded source and this stream that is not run per
        micro-batch (keyed state, windows, process functions, union...), or None. Rolling
        aggregations are run (``f2s_stream.rolling_reduce``) in ``streaming`` runtime mode only."""
        return self.graph.fact("unstreamable", self.expr, _unstreamable, None, streaming)

    @property
    def from_union(self) -> bool:
        """Whether the stream is the result of a ``union()``, before any operator other than
        ``key_by``/``map``/``flat_map``/``filter`` and operator settings."""
        return self.graph.fact("from_union", self.expr, _from_union, False)

    @property
    def windowed_by(self) -> Optional[str]:
        """For a windowed stream: its window assigner's class (``"count"`` for
        ``count_window``), or None when it cannot be followed."""
        return self.graph.fact("windowed_by", self.expr, _windowed_by, None)

    @property
    def table_bridge(self) -> Optional[cst.Call]:
        """The ``t_env.to_data_stream(...)``-style call (``P.TABLE_BRIDGES``) left unconverted
        (the Table API's model says why: ``TablesModel.stream_of``) that the stream may come
        from: through method chains and async I/O, any binding of a name, what any call of a
        helper passes for its parameter, what a def returns; None when it comes from none (a
        stream that may come from such a call is left with it: TODO F2S210)."""
        return self.graph.fact("table_bridge", self.expr, _table_bridge, None, False)

    @property
    def from_table(self) -> Optional[cst.Call]:
        """The Table API call (``to_data_stream``...) the stream may come from, converted or not."""
        return self.graph.fact("from_table", self.expr, _table_bridge, None, True)

    @property
    def origin(self) -> str:
        """Where the stream comes from: "table" (a Table API bridge), "source" (an environment's
        source), "operator" (an operator of another stream), "helper" (what a def of the module
        returns), "parameter" (a helper's parameter: what its calls pass), "reassigned" (a name
        assigned several times: the value that reaches the use), "name" (a name assigned once),
        or "unknown"."""
        if self.from_table is not None:
            return "table"
        resolver, expr = self.graph.resolver, self.expr
        if isinstance(expr, cst.Name):
            refs = resolver.referents(expr)
            if len(refs) == 1 and isinstance(refs[0].node, cst.Param):
                return "parameter"
            return "reassigned" if len(refs) > 1 else "name" if refs else "unknown"
        if _method_call(expr):
            return "source" if resolver.type_of(expr.func.value) == P.ENVIRONMENT else "operator"
        if isinstance(expr, cst.Call) and isinstance(resolver.local_def(expr.func), cst.FunctionDef):
            return "helper"
        return "unknown"

    @property
    def functions(self) -> list[str]:
        """The names of the module's classes whose instances the operator making this stream
        runs (``ds.process(Enrich())``, ``keyed.window(w).aggregate(Avg(), Label())``, a name
        bound to one); [] for a source, a name, or functions that are lambdas or defs."""
        from flink2spark.rules.pyflink._common import instance_class

        expr = self.expr
        if not _method_call(expr):
            return []
        found = (instance_class(self.graph.resolver, a.value) for a in expr.args)
        return [cls.name.value for cls in found if cls is not None]

    @property
    def kind(self) -> str:
        """What besides its type makes a stream converted in another form: a prefix of its
        type's name, "unbounded " (micro-batches) and/or "timestamped " (pairs), or ""."""
        return ("unbounded " if self.micro_batches else "") + ("timestamped " if self.timestamped else "")

    def as_dict(self) -> dict[str, object]:
        """Every fact (the tests' view)."""
        return {
            "api_type": self.api_type,
            "element_type": _shown(self.graph.resolver, self.element_type),
            "micro_batches": self.micro_batches,
            "unbounded_source": self.unbounded_source,
            "timestamped": self.timestamped,
            "kafka_timestamps": self.kafka_timestamps,
            "after_state": self.after_state,
            "unstreamable": self.unstreamable(True),
            "from_union": self.from_union,
            "windowed_by": self.windowed_by,
            "readers": self.readers,
            "undecoded": self.undecoded,
            "origin": self.origin,
            "functions": self.functions,
            "frame": None if self.frame is None else "untyped" if self.frame.kind == "untyped" else _frames.ddl(self.frame),
        }


def _shown(resolver, t: SourceType) -> object:
    if t is None or isinstance(t, str):
        return t
    return "PICKLED" if t is PICKLED else type_code(resolver, t)


# --------------------------------------------------------------------------------------------
# the facts (each ``_fact(graph, expr)``, reading the facts of the node's inputs)


def _method_call(expr) -> bool:
    return isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute)


def _any_source(g: StreamGraph, expr: cst.Name, fact: str) -> bool:
    """A name: the fact holds for one of the values it stands for."""
    return any(getattr(g.node(v), fact) for v in g.resolver.sources_of(expr))


def _element_type(g: StreamGraph, expr) -> SourceType:
    resolver = g.resolver
    if isinstance(expr, cst.Name):
        value = resolver.value_at(expr)
        if value is None:  # a helper's parameter: what every call passes, when they agree
            return _agreed(resolver, [g.node(a).element_type for a in resolver.arguments_of(expr)])
        return g.node(value).element_type
    if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name):
        returned = _returned(resolver, expr.func)  # a stream made by a helper function
        return None if returned is None else g.node(returned).element_type
    if not _method_call(expr):
        return None
    if async_input(resolver, expr) is not None:
        return async_output_type(expr)
    recv, method = expr.func.value, expr.func.attr.value
    typ = resolver.type_of(recv)
    if method in P.TABLE_BRIDGES:  # a Table's rows: what the Table API's model says they are
        from flink2spark.rules.table._program import tables

        return tables(resolver).stream_of(expr)[0]
    if typ == P.ENVIRONMENT:
        if method == "from_collection":
            info = call_arg(expr, 1, "type_info")
            return PICKLED if info is None or _is_none(info) else info
        if method in ("from_source", "add_source"):
            from flink2spark.rules.pyflink import _kafka as K

            if K.kafka_source_call(resolver, expr) is not None:
                return K.element_type(resolver, expr)
        if method == "from_source":
            source = source_kind(resolver, call_arg(expr, 0, "source"))
            return {"numbers": "LONG", "text": "STRING", "stream_text": "STRING"}.get(source[0]) if source else None
        if method == "read_text_file":
            return "STRING"
        return None
    if P.is_stream(typ) or typ == P.CONNECTED:
        if method in ("map", "flat_map", "process"):
            return _output_type(expr, 1)
        if method in SAME_TYPE or method in ("window", "window_all", "count_window"):
            return g.node(recv).element_type
        if method == "get_side_output":  # the OutputTag's type
            tag = call_arg(expr, 0, "output_tag")
            tag = followed(resolver, tag) if tag is not None else None
            if isinstance(tag, cst.Call) and resolver.qualified_name(tag.func) in P.OUTPUT_TAGS:
                return _output_type(tag, 1, "type_info")
            return None
    if typ in (P.WINDOWED, P.ALL_WINDOWED):
        # PyFlink 2.3 signatures: reduce(f, window_function=None, output_type=None),
        # aggregate(f, window_function=None, accumulator_type=None, output_type=None),
        # apply(f, output_type=None), process(f, output_type=None)
        if method == "reduce":
            if call_arg(expr, 1, "window_function") is None:
                return g.node(recv).element_type
            return _output_type(expr, 2)
        if method == "aggregate":
            return _output_type(expr, 3)
        if method in ("apply", "process"):
            return _output_type(expr, 1)
        if method in ("trigger", "allowed_lateness", "side_output_late_data", "evictor"):
            return g.node(recv).element_type
    return None


# operators that keep the micro-batch form of an unbounded stream (or window it)
_MICRO_BATCH_KEEPS = frozenset({"map", "flat_map", "process", "get_side_output", "window", "window_all", "count_window", "count_window_all"})


def _micro_batches(g: StreamGraph, expr) -> bool:
    from flink2spark.rules.pyflink import _kafka as K

    resolver = g.resolver
    if isinstance(expr, cst.Name):
        return _any_source(g, expr, "micro_batches")
    call = K.kafka_source_call(resolver, expr)
    if call is not None:
        return not K.source_bounded(resolver, call)
    if K.monitored_files_call(resolver, expr) is not None or _converted_micro_batches(resolver, expr):
        return True
    if not _method_call(expr):
        return False
    if _bridge(g, expr):  # t_env.to_data_stream(table) of an unbounded table: what the Table API's model says
        from flink2spark.rules.table._program import tables

        return tables(resolver).unbounded_stream(expr)
    through = async_input(resolver, expr)
    if through is not None:
        return g.node(through).micro_batches
    typ = resolver.type_of(expr.func.value)
    if typ in (P.WINDOWED, P.ALL_WINDOWED):  # a window's function or setting: unbounded as the windowed stream
        return g.node(expr.func.value).micro_batches
    method = expr.func.attr.value
    if P.is_stream(typ) and (method in SAME_TYPE or method in _MICRO_BATCH_KEEPS):
        if method == "union" and any(g.node(a.value).micro_batches for a in expr.args):
            return True
        return g.node(expr.func.value).micro_batches
    return False


def _converted_micro_batches(resolver, expr) -> bool:
    """``f2s_stream.micro_batches(...)``: an unbounded stream this tool already converted (its
    Flink operators left with a TODO stay unbounded when the output is converted again)."""
    from flink2spark.rules.pyflink import _kafka as K

    return isinstance(expr, cst.Call) and f"{K.SHIM_MODULE}.{K.SHIM_NAME}.micro_batches" in resolver.qualified_names(expr.func)


_UNBOUNDED_CONNECTORS = (".kafka", ".kinesis", ".pulsar", ".rabbitmq")


def _unbounded_source(g: StreamGraph, expr) -> bool:
    resolver = g.resolver
    if isinstance(expr, cst.Name):
        return _any_source(g, expr, "unbounded_source")
    if not _method_call(expr):
        return False
    if _converted_micro_batches(resolver, expr):
        return True
    recv, method = expr.func.value, expr.func.attr.value
    if _bridge(g, expr):
        return g.node(expr).micro_batches
    if resolver.type_of(recv) == P.ENVIRONMENT:
        from flink2spark.rules.pyflink import _kafka as K

        if K.kafka_source_call(resolver, expr) is not None:
            return g.node(expr).micro_batches  # a Kafka source with set_bounded(...) is read in batch
        if method == "add_source":
            return True
        if method != "from_source" or not expr.args:
            return False
        source = followed(resolver, expr.args[0].value)
        names = [resolver.qualified_name(n) or "" for n in nodes(source, cst.Name, cst.Attribute)]
        return any(c in q for q in names for c in _UNBOUNDED_CONNECTORS) or bool(
            any(is_method_call(c, method="monitor_continuously") for c in nodes(source, cst.Call))
        )
    inputs = [recv] + ([a.value for a in expr.args] if method in ("union", "connect") else [])
    return any(g.node(i).unbounded_source for i in inputs)


def _literal_elements(g: StreamGraph, expr):
    resolver = g.resolver
    if isinstance(expr, cst.Name):
        value = resolver.single_value(expr)
        return g.node(value).literal_elements if value is not None and value is not expr else None
    if not _method_call(expr) or expr.func.attr.value != "from_collection" or resolver.type_of(expr.func.value) != P.ENVIRONMENT:
        return None
    collection = call_arg(expr, 0, "collection")
    if isinstance(collection, cst.Name):
        collection = resolver.single_value(collection)
    if not isinstance(collection, (cst.List, cst.Tuple)) or any(isinstance(e, cst.StarredElement) for e in collection.elements):
        return None
    return tuple(e.value for e in collection.elements)


def _timestamped(g: StreamGraph, expr) -> bool:
    from flink2spark.rules.pyflink._time import KEEPS, strategy_has_assigner

    resolver = g.resolver
    if isinstance(expr, cst.Name):  # also ds = ds.assign_...(...), and a helper's parameter
        return _any_source(g, expr, "timestamped")
    if not _method_call(expr):
        return False
    through = async_input(resolver, expr)
    if through is not None:  # async I/O keeps its input's timestamps
        return g.node(through).timestamped
    recv, method = expr.func.value, expr.func.attr.value
    typ = resolver.type_of(recv)
    if typ == P.ENVIRONMENT:
        if method == "from_source":
            return bool(strategy_has_assigner(resolver, call_arg(expr, 1, "watermark_strategy")))
        return False
    if not (P.is_stream(typ) or typ in (P.WINDOWED, P.ALL_WINDOWED, P.CONNECTED)):
        return False
    if method == "assign_timestamps_and_watermarks":
        if strategy_has_assigner(resolver, call_arg(expr, 0, "watermark_strategy")):
            return True
        return g.node(recv).timestamped
    if method == "union":
        return any(g.node(s).timestamped for s in [recv, *(a.value for a in expr.args)])
    if typ in (P.WINDOWED, P.ALL_WINDOWED) and method in ("reduce", "aggregate", "apply", "process"):
        from flink2spark.rules.pyflink._time import TIME_WINDOWS

        return g.node(recv).timestamped or g.node(recv).windowed_by in TIME_WINDOWS  # results carry max_timestamp()
    if method in KEEPS or method in ("get_side_output", "connect"):  # connect: both inputs alike (rules/pyflink/connect.py)
        return g.node(recv).timestamped
    return False


def _kafka_timestamps(g: StreamGraph, expr) -> bool:
    from flink2spark.rules.pyflink import _kafka as K
    from flink2spark.rules.pyflink._time import KEEPS

    resolver = g.resolver
    if isinstance(expr, cst.Name):
        return _any_source(g, expr, "kafka_timestamps")
    if K.kafka_source_call(resolver, expr) is not None:
        return True
    if not _method_call(expr):
        return False
    method = expr.func.attr.value
    if P.is_stream(resolver.type_of(expr.func.value)) and (method in KEEPS or method == "assign_timestamps_and_watermarks"):
        return g.node(expr.func.value).kafka_timestamps
    return False


def _after_state(g: StreamGraph, expr) -> bool:
    from flink2spark.rules.pyflink import _kafka as K
    from flink2spark.rules.pyflink.windows import EVENT_TIME

    resolver = g.resolver
    if isinstance(expr, cst.Name):
        return _any_source(g, expr, "after_state")
    if not _method_call(expr):
        return False
    method, typ = expr.func.attr.value, resolver.type_of(expr.func.value)
    if typ in (P.WINDOWED, P.ALL_WINDOWED):
        if typ == P.WINDOWED and g.node(expr.func.value).windowed_by in {name for name, _ in EVENT_TIME}:
            call = g.node(expr.func.value).window_call
            keyed = call.func.value if call is not None else None  # type: ignore[attr-defined]
            return keyed is None or g.node(keyed).after_state
        return True
    if typ == P.KEYED and method in K.ROLLING:
        return True
    if typ == P.KEYED and method == "process":
        if K.streaming_timers(resolver, expr) == "processing" or not g.node(expr.func.value).timestamped:
            return True
        return g.node(expr.func.value).after_state
    if method == "union":
        return any(g.node(a.value).after_state for a in expr.args) or g.node(expr.func.value).after_state
    return P.is_stream(typ) and g.node(expr.func.value).after_state


def _unstreamable(g: StreamGraph, expr, streaming: bool) -> Optional[str]:
    from flink2spark.rules.pyflink import _kafka as K

    resolver = g.resolver
    if isinstance(expr, cst.Name):
        problems = (g.node(v).unstreamable(streaming) for v in resolver.sources_of(expr))
        return next((p for p in problems if p is not None), None)
    if K.kafka_source_call(resolver, expr) is not None or K.monitored_files_call(resolver, expr) is not None:
        return None
    if not _method_call(expr):
        return None
    method = expr.func.attr.value
    recv = expr.func.value
    typ = resolver.type_of(recv)
    if async_input(resolver, expr) is not None:
        return method  # async I/O is not run per micro-batch
    if method == "process" and P.is_stream(typ) and typ != P.KEYED:
        if K.micro_batch_process_class(resolver, expr) is None:
            return method
        return g.node(recv).unstreamable(streaming)
    if method in K.STREAM_WINDOW_FUNCTIONS | {"side_output_late_data", "allowed_lateness", "trigger"} and typ == P.ALL_WINDOWED:
        window = g.node(recv).window_call
        if window is None or not streaming or not K.streamable_window(resolver, window):
            return method
        return g.node(window.func.value).unstreamable(streaming)  # type: ignore[attr-defined]
    if method in K.STREAM_WINDOW_FUNCTIONS | {"side_output_late_data", "allowed_lateness"} and typ == P.WINDOWED:
        window = g.node(recv).window_call
        key_by = K.rolling_key_by(resolver, window.func.value) if streaming and window is not None else None  # type: ignore[attr-defined]
        return method if key_by is None else g.node(key_by.func.value).unstreamable(streaming)  # type: ignore[attr-defined]
    if (method in K.ROLLING or (method == "process" and K.streaming_process_class(resolver, expr))) and typ == P.KEYED:
        key_by = K.rolling_key_by(resolver, recv) if streaming else None
        return method if key_by is None else g.node(key_by.func.value).unstreamable(streaming)  # type: ignore[attr-defined]
    if method == "union" and P.is_stream(typ):
        inputs = [recv, *(a.value for a in expr.args)]
        if union_problem(g.resolver, inputs) is not None:
            return method
        for stream in inputs:
            problem = g.node(stream).unstreamable(streaming)
            if problem is not None:
                return problem
        return None
    if P.is_stream(typ) or typ in (P.WINDOWED, P.ALL_WINDOWED):
        if method not in K.MICRO_BATCH_OPS:
            return method
        return g.node(recv).unstreamable(streaming)
    return None


def union_problem(resolver, inputs) -> Optional[str]:
    """Why the union of the (original) streams ``inputs``, one of them unbounded, is not
    converted (``MicroBatches.union``), or None."""
    found = [facts(resolver, s) for s in inputs]
    if not all(f.micro_batches for f in found):
        return "union() of an unbounded stream with a bounded one is not converted: read both as streams (spark.readStream) and union the DataFrames"
    if len({f.timestamped for f in found}) > 1:
        return "union() of unbounded streams with and without event timestamps is not converted"
    if any(f.api_type == P.KEYED for f in found):
        return "union() of an unbounded keyed stream is not converted"
    return None


# the operators a stream may go through after a union and still count as "from a union"
_AFTER_UNION = frozenset({"key_by", "map", "flat_map", "filter", "name", "uid", "set_parallelism"})


def _from_union(g: StreamGraph, expr) -> bool:
    resolver = g.resolver
    if isinstance(expr, cst.Name):
        value = resolver.value_at(expr)
        return value is not None and g.node(value).from_union
    if not _method_call(expr):
        return False
    method = expr.func.attr.value
    if method == "union" and P.is_stream(resolver.type_of(expr.func.value)):
        return True
    return method in _AFTER_UNION and g.node(expr.func.value).from_union


def _windowed_by(g: StreamGraph, windowed) -> Optional[str]:
    from flink2spark.rules.pyflink._time import WINDOW_SETTINGS, window_assigner

    resolver = g.resolver
    if isinstance(windowed, cst.Name):
        value = resolver.value_at(windowed)
        return None if value is None else g.node(value).windowed_by
    if not _method_call(windowed):
        return None
    method = windowed.func.attr.value
    if method in ("window", "window_all"):
        found = window_assigner(resolver, call_arg(windowed, 0, "window_assigner"))
        return None if found is None else found[0]
    if method == "count_window":
        return "count"
    if method in WINDOW_SETTINGS:
        return g.node(windowed.func.value).windowed_by
    return None


def _readers(g: StreamGraph, expr) -> int:
    parent = g.resolver.parent(expr)
    if isinstance(parent, cst.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0].target, cst.Name):
        target = parent.targets[0].target
        assignments = g.resolver.scope_bindings(target)
        if assignments is None:
            return 1
        return sum(len(a.references) for a in assignments if a.node is target)
    return 1


def _consumer_calls(g: StreamGraph, expr) -> list[cst.Call]:
    from flink2spark.rules.pyflink._common import assigned_uses

    resolver = g.resolver
    refs = assigned_uses(resolver, expr) if isinstance(resolver.parent(expr), cst.Assign) else [expr]
    calls = []
    for ref in refs or ():
        attribute = resolver.parent(ref)
        call = resolver.parent(attribute) if isinstance(attribute, cst.Attribute) else None
        if not (isinstance(call, cst.Call) and call.func is attribute):
            return []
        calls.append(call)
    return calls


_REDUCTIONS = frozenset({"reduce", "sum", "min", "max", "min_by", "max_by"})


def _undecoded(g: StreamGraph, expr) -> bool:
    from flink2spark.rules.pyflink._common import _makes_conforming

    resolver = g.resolver
    if isinstance(expr, cst.Name):
        value = resolver.value_at(expr)
        if value is None:
            return True
        if g.node(value).readers > 1:
            return False  # decoded where it is made (decoded_output)
        return g.node(value).undecoded
    if not _method_call(expr):
        return True
    recv, method = expr.func.value, expr.func.attr.value
    typ = resolver.type_of(recv)
    if typ == P.ENVIRONMENT and method in ("from_collection", "from_source", "read_text_file", "add_source"):
        return False
    if method in P.TABLE_BRIDGES:  # rows decoded from the table's serializers
        return False
    if P.is_stream(typ):
        if method in ("key_by", "union"):
            return False
        if method in SAME_TYPE and method not in _REDUCTIONS:
            return g.node(recv).undecoded
        if method in ("map", "flat_map"):
            return not _makes_conforming(resolver, expr, method)
    return True


# the settings of a windowed stream that a window function may follow
_WINDOW_STEPS = ("side_output_late_data", "allowed_lateness", "trigger")


def _window_call(g: StreamGraph, windowed) -> Optional[cst.Call]:
    call = followed(g.resolver, windowed)
    if not _method_call(call):
        return None
    if call.func.attr.value in _WINDOW_STEPS:
        return g.node(call.func.value).window_call
    return call if call.func.attr.value in ("window", "count_window", "window_all") else None


def _table_bridge(g: StreamGraph, expr, converted: bool) -> Optional[cst.Call]:
    """The bridge call the stream comes from (only one left unconverted unless ``converted``)."""
    resolver = g.resolver
    fact = "from_table" if converted else "table_bridge"
    if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute):
        if expr.func.attr.value in P.TABLE_BRIDGES:
            from flink2spark.rules.table._program import tables

            return expr if converted or tables(resolver).stream_of(expr)[1] is not None else None
        through = P.STREAM_ARGUMENT_CALLS.get(resolver.qualified_name(expr.func) or "")
        if through is not None:  # AsyncDataStream.unordered_wait(stream, ...): the stream it reads
            arg = call_arg(expr, *through)
            return getattr(g.node(arg), fact) if arg is not None else None
        return getattr(g.node(expr.func.value), fact)
    if isinstance(expr, cst.Call):  # a def of this module: what it returns
        for value in _helper_returns(resolver, expr) or ():
            found = getattr(g.node(value), fact)
            if found is not None:
                return found
        return None
    if isinstance(expr, cst.Name):
        for ref in resolver.referents(expr):
            value = resolver.assign_values.get(id(ref.node))
            # a parameter: what the module's calls of its def pass
            values = [value] if value is not None else (resolver.param_arguments(ref.node) if isinstance(ref.node, cst.Param) else None)
            for value in values or ():
                found = getattr(g.node(value), fact) if value is not None else None
                if found is not None:
                    return found
    return None


# --------------------------------------------------------------------------------------------
# the frame form (issue 14): which consumers of a stream have a native DataFrame form

# (method, function): a call ``stream.method(...)`` has a native form when the function, given
# the graph, the call and the shape of its input frame, gives the shape of the frame it makes,
# or True for a sink (print); None or False: no native form here. Helpers add one line each.
NATIVE_CONSUMERS: list[tuple[str, Callable]] = [
    ("print", lambda g, call, shape: _frames.sink(g, call, shape)),
    ("execute_and_collect", lambda g, call, shape: _frames.collect_sink(g, call, shape)),
    # row-format file sinks of a string frame: DataFrameWriter.text (rules/pyflink/_sinks.py)
    *((m, lambda g, call, shape: _file_sinks().frame_sink(g, call, shape)) for m in ("sink_to", "add_sink")),
    # sink_to(KafkaSink) of a bounded frame: write.format("kafka") (unbounded: consumer_shape, writeStream)
    *((m, lambda g, call, shape: _kafka_frame_sink(g, call, shape)) for m in ("sink_to", "add_sink")),  # KafkaSink / FlinkKafkaProducer
    ("map", lambda g, call, shape: _frames.map_shape(g, call, shape) if P.is_stream(_receiver_type(g, call)) else None),
    ("filter", lambda g, call, shape: _frames.filter_shape(g, call, shape) if P.is_stream(_receiver_type(g, call)) else None),
    ("flat_map", lambda g, call, shape: _frames.flat_map_shape(g, call, shape) if P.is_stream(_receiver_type(g, call)) else None),
    ("union", lambda g, call, shape: _union_shape(g, call, shape)),
    ("key_by", lambda g, call, shape: _frames.key_by_shape(g, call, shape) if P.is_stream(_receiver_type(g, call)) else None),
    *((m, lambda g, call, shape: _frames.aggregate_shape(g, call, shape) if _receiver_type(g, call) == P.KEYED else None)
      for m in ("sum", "min", "max", "reduce")),
    # a KeyedProcessFunction as a Spark StatefulProcessor (rules/pyflink/_stateful.py)
    # (a computed key read only by process(): after the field selectors above)
    ("key_by", lambda g, call, shape: _stateful().keyed_shape(g, call, shape)),
    ("process", lambda g, call, shape: _stateful().processed_shape(g, call, shape)),
    *((m, lambda g, call, shape: _stateful().processed_shape(g, call, shape)) for m in ("map", "flat_map")),  # a class with keyed state
    # a non-keyed ProcessFunction and its side outputs: one tagged frame (rules/pyflink/_side_outputs.py)
    ("process", lambda g, call, shape: _side_outputs().processed_shape(g, call, shape)),
    ("get_side_output", lambda g, call, shape: _side_outputs().side_shape(g, call, shape)),
    # connect(b).key_by(k1, k2).process(KeyedCoProcessFunction) of two frames: one StatefulProcessor (rules/pyflink/_stateful.py)
    *((m, lambda g, call, shape: _stateful().two_input_shape(g, call, shape)) for m in ("connect", "key_by", "process")),
    # connect(...).map/flat_map(CoMapFunction) of two frames: each side's function over its frame, unioned
    ("connect", lambda g, call, shape: _side_outputs().connected_shape(g, call, shape)),
    *((m, lambda g, call, shape: _side_outputs().co_shape(g, call, shape)) for m in ("map", "flat_map")),
    # map/flat_map/filter of a Python function with no Column form: a Python UDTF (_side_outputs.function_plan)
    *((m, lambda g, call, shape: _side_outputs().function_shape(g, call, shape)) for m in ("map", "flat_map", "filter")),
    # STREAMING (rolling) keyed aggregations: window functions over the source order (_rolling)
    *((m, lambda g, call, shape: _rolling.rolling_shape(g, call, shape) if _receiver_type(g, call) == P.KEYED else None)
      for m in ("sum", "min", "max", "min_by", "max_by", "reduce")),
    # BATCH keyed aggregations that need the order of a key's elements: over the source order (_rolling)
    *((m, lambda g, call, shape: _rolling.final_shape(g, call, shape) if _receiver_type(g, call) == P.KEYED else None)
      for m in ("sum", "min", "max", "min_by", "max_by", "reduce")),
    # operator settings: scheduling only, the frame goes on
    *((m, lambda g, call, shape: _frames.same_shape(g, call, shape)) for m in ("name", "uid", "set_parallelism", "set_description",
                                                                             "set_max_parallelism", "disable_chaining", "start_new_chain",
                                                                             "slot_sharing_group", "set_buffer_timeout", "forward", "rebalance",
                                                                             "rescale", "shuffle")),
    # event-time windows (rules/pyflink/_event_windows.py): a timestamp column, groupBy(key field, F.window)
    ("assign_timestamps_and_watermarks", lambda g, call, shape: _event_windows.stamped_shape(g, call, shape)),
    *((m,  lambda g, call, shape: _event_windows.windowed_shape(g, call, shape)) for m in ("window", "window_all", "count_window")),
    *((m, lambda g, call, shape: _event_windows.function_shape(g, call, shape)) for m in _event_windows.FUNCTION_ARGS),
    ("allowed_lateness", lambda g, call, shape: _event_windows.lateness_shape(g, call, shape)),
    # late records to a side output: none can come late (else no frame form), the side output is empty
    ("side_output_late_data", lambda g, call, shape: _event_windows.late_tag_shape(g, call, shape)),
    ("get_side_output", lambda g, call, shape: _event_windows.late_side_shape(g, call, shape)),
]


def _stateful():
    from flink2spark.rules.pyflink import _stateful as S  # it reads this module's facts

    return S


def _side_outputs():
    from flink2spark.rules.pyflink import _side_outputs  # it reads this module's facts

    return _side_outputs


def _file_sinks():
    from flink2spark.rules.pyflink import _sinks  # it reads this module's facts

    return _sinks


def _receiver_type(g: StreamGraph, call: cst.Call) -> Optional[str]:
    return g.resolver.type_of(call.func.value)  # type: ignore[attr-defined]


# the consumers of an unbounded (streaming) frame: operators Structured Streaming runs per record,
# event-time windows of built-in aggregates keyed by a field (withWatermark + groupBy(key,
# F.window), append mode: _event_windows.streaming_window) and sinks that start a streaming query
# (print: the console sink; a Kafka sink: writeStream.format("kafka")). The others (rolling keyed
# aggregations, process functions, functions per window, count windows, collect, file sinks) are
# planned for bounded frames only: their streams keep micro-batches.
STREAMING_CONSUMERS = frozenset({"print", "map", "filter", "flat_map", "union", "sink_to", "add_sink", "assign_timestamps_and_watermarks",
                                 "key_by", "window", "window_all", "name", "uid", "set_parallelism",
                                 "set_description", "set_max_parallelism", "disable_chaining", "start_new_chain",
                                 "slot_sharing_group", "set_buffer_timeout", "forward", "rebalance", "rescale", "shuffle"})


def consumer_shape(g: StreamGraph, call: cst.Call, shape) -> object:
    """What ``NATIVE_CONSUMERS`` says of ``call`` over a frame of ``shape``: a Shape, True, or None."""
    method = call.func.attr.value  # type: ignore[attr-defined]
    if method in _frames.TABLE_VIEWS and not P.is_stream(_receiver_type(g, call)):  # the Table of the stream: the frame itself
        return True if _frames.table_view_problem(g, call, shape) is None else None
    if shape.kind == _side_outputs().UNTYPED.kind:  # records of a function with no output_type: no Spark type
        return _side_outputs().untyped_consumer(g, call, shape)
    if _frames.instants(shape) and method not in _frames.INSTANT_CONSUMERS:
        return None
    if _frames.limited(shape) and method not in _frames.LIMITED_CONSUMERS:
        return None
    if g.node(call.func.value).micro_batches:  # type: ignore[attr-defined]
        receiver = _receiver_type(g, call)
        if receiver == P.KEYED and method in _rolling.ROLLING_METHODS:  # STREAMING keyed rolling aggregations of a
            return _rolling.rolling_shape(g, call, shape)  # Kafka frame: transformWithState (_rolling.rolled)
        windowed = receiver in (P.WINDOWED, P.ALL_WINDOWED)
        if method not in STREAMING_CONSUMERS and not (windowed and method in _event_windows.FUNCTION_ARGS):
            return None
        if receiver == P.KEYED and method != "window" or method == "key_by" and not _frames.key_by_shape(g, call, shape):
            return None  # a keyed stream read by event-time windows of a key field only (process: micro-batches)
        if method in ("sink_to", "add_sink"):
            return _kafka_frame_sink(g, call, shape)
    for name, native in NATIVE_CONSUMERS:
        if name == method:
            found = native(g, call, shape)
            if found:
                return found
    return None


def _kafka_frame_sink(g: StreamGraph, call: cst.Call, shape) -> bool:
    """Whether ``stream.sink_to(KafkaSink...)`` of a frame of ``shape`` is
    ``writeStream.format("kafka")`` (unbounded) or ``write.format("kafka")`` (bounded) of the value the sink's schema serializes (``_kafka.frame_sink_schema``)."""
    from flink2spark.rules.pyflink import _kafka as K

    if len(call.args) != 1 or call.args[0].keyword is not None or call.args[0].star:
        return False
    return K.frame_sink_schema(g.resolver, call.args[0].value, shape) is not None


def _helper_returns(resolver, call) -> Optional[list[cst.BaseExpression]]:
    """What a call of a def of this module returns (its ``return`` values), or None when
    ``call`` is not one or the def returns nothing."""
    from flink2spark.transpiler.infer import returns_of

    target = resolver.local_def(call.func) if isinstance(call, cst.Call) else None
    if not isinstance(target, cst.FunctionDef):
        return None
    return returns_of(target) or None


def _one_shape(shapes: list):
    return shapes[0] if shapes and all(s is not None and s == shapes[0] for s in shapes) else None


def _frame_shape(g: StreamGraph, expr):
    """The shape the stream would have as a DataFrame, from its inputs only (upstream)."""
    resolver = g.resolver
    if isinstance(expr, cst.Name):
        return _one_shape([g.fact("frame_shape", v, _frame_shape, None) for v in resolver.sources_of(expr)])
    returned = _helper_returns(resolver, expr)
    if returned is not None:  # a helper's call: what it returns, one shape
        return _one_shape([g.fact("frame_shape", v, _frame_shape, None) for v in returned])
    if not _method_call(expr):
        return None
    recv, method = expr.func.value, expr.func.attr.value
    if resolver.type_of(recv) == P.ENVIRONMENT:
        if method == "from_collection":
            return _frames.source_shape(g, expr)
        if method == "from_source" and g.node(expr).micro_batches:  # unbounded: a streaming DataFrame
            return _frames.kafka_source_shape(g, expr) or _frames.text_source_shape(g, expr)
        if method == "add_source" and g.node(expr).micro_batches:  # a FlinkKafkaConsumer
            return _frames.kafka_source_shape(g, expr)
        return _frames.text_source_shape(g, expr) if method in ("from_source", "read_text_file") else None
    if method in P.TABLE_BRIDGES and resolver.type_of(recv) not in _STREAM_TYPES:  # t_env.to_data_stream(table)
        return _frames.table_shape(g, expr)
    if resolver.type_of(expr) not in _STREAM_TYPES:
        return None
    shape = g.fact("frame_shape", recv, _frame_shape, None)
    if shape is None:
        return None
    found = consumer_shape(g, expr, shape)
    return found if found is not None and found is not True else None


def _frame_uses(g: StreamGraph, expr) -> Optional[list[cst.Call]]:
    """The calls reading the stream ``expr`` makes (through the one variable it is assigned
    to), [] for a stream no one reads; None when a use is not ``stream.method(...)``."""
    from flink2spark.rules.pyflink._common import assigned_uses

    resolver = g.resolver
    parent = resolver.parent(expr)
    if isinstance(parent, cst.Assign):
        refs = assigned_uses(resolver, expr)
        if refs is None:
            refs = _reads_of_reassigned(resolver, parent, expr)
        if refs is None:
            return None
    elif isinstance(parent, cst.Expr):
        return []
    else:
        refs = [expr]
    calls = []
    for ref in refs:
        attribute = resolver.parent(ref)
        if isinstance(attribute, cst.Arg) and _union_argument(resolver, attribute):
            calls.append(resolver.parent(attribute))  # a.union(ref): the union reads it
            continue
        if isinstance(attribute, cst.Arg) and _frames.table_view_argument(resolver, attribute):
            calls.append(resolver.parent(attribute))  # t_env.from_data_stream(ref): the table reads it
            continue
        call = resolver.parent(attribute) if isinstance(attribute, cst.Attribute) else None
        if not (isinstance(call, cst.Call) and call.func is attribute):
            through = _helper_uses(g, ref)
            if through is None:
                return None
            calls.extend(through)
            continue
        calls.append(call)
    return calls


def _helper_uses(g: StreamGraph, ref) -> Optional[list[cst.Call]]:
    """The calls reading a stream that ``ref`` passes to a def of the module (the def's reads of
    its parameter, which must be its only binding there and get no other call's argument, which
    could be an RDD) or returns from one (the reads of each
    call of the def); None when ``ref`` is used otherwise or the reads cannot be followed.
    The upstream facts follow the same way (``Resolver.sources_of``, ``_helper_returns``)."""
    resolver = g.resolver
    parent = resolver.parent(ref)
    if isinstance(parent, cst.Arg) and parent.value is ref and not parent.star:
        call = resolver.parent(parent)
        func = resolver.local_def(call.func) if isinstance(call, cst.Call) else None
        if not isinstance(func, cst.FunctionDef) or any(a.star for a in call.args):
            return None
        param = _param_of(func, call, parent)
        bindings = resolver.scope_bindings(param.name) if param is not None else None
        if not bindings or len(bindings) != 1 or bindings[0].node is not param:
            return None
        if resolver.param_arguments(param) != [ref]:  # other calls may pass an RDD: one stream only
            return None
        return g.fact("helper_param_uses", param.name, _param_uses, None, id(param))
    if isinstance(parent, cst.Return) and parent.value is ref:
        func = next((n for n in _ancestors(resolver, parent) if isinstance(n, (cst.FunctionDef, cst.Lambda, cst.ClassDef))), None)
        sites = resolver.call_sites.get(id(func), []) if isinstance(func, cst.FunctionDef) else []
        if not sites or any(id(site) in resolver._instantiations for site in sites):
            return None
        calls = []
        for site in sites:
            found = g.fact("helper_call_uses", site, _frame_uses_fact, None)
            if found is None:
                return None
            calls.extend(found)
        return calls
    return None


def _frame_uses_fact(g: StreamGraph, expr):
    return _frame_uses(g, expr)


def _param_uses(g: StreamGraph, name: cst.Name, _param_id) -> Optional[list[cst.Call]]:
    bindings = g.resolver.scope_bindings(name) or []
    refs = [r.node for b in bindings for r in b.references]
    calls = []
    for ref in refs:
        found = _frame_uses(g, ref) if isinstance(ref, cst.Name) else None
        if found is None:
            return None
        calls.extend(found)
    return calls


def _param_of(func: cst.FunctionDef, call: cst.Call, arg: cst.Arg) -> Optional[cst.Param]:
    """The parameter of ``func`` that ``arg`` of ``call`` binds (positional or keyword)."""
    params = list(func.params.params)
    if arg.keyword is not None:
        return next((p for p in [*params, *func.params.kwonly_params] if p.name.value == arg.keyword.value), None)
    index = [a for a in call.args if a.keyword is None].index(arg)
    return params[index] if index < len(params) else None


def _ancestors(resolver, node):
    while node is not None:
        node = resolver.parent(node)
        if node is not None:
            yield node


def _union_argument(resolver, arg: cst.Arg) -> bool:
    """Whether ``arg`` is a stream ``a.union(arg)`` or ``a.connect(arg)`` reads (both not keyed
    for connect: the other forms keep their RDDs)."""
    call = resolver.parent(arg)
    if not (isinstance(call, cst.Call) and _method_call(call) and arg.keyword is None and not arg.star):
        return False
    if call.func.attr.value == "connect":  # type: ignore[attr-defined]
        return resolver.type_of(call.func.value) == P.DATASTREAM and resolver.type_of(arg.value) == P.DATASTREAM  # type: ignore[attr-defined]
    return call.func.attr.value == "union" and P.is_stream(resolver.type_of(call.func.value))  # type: ignore[attr-defined]


_TWO_INPUTS = ("union", "connect")  # operators whose arguments are input streams too (_union_inputs)


def _union_inputs(call: cst.Call) -> list:
    return [call.func.value, *(a.value for a in call.args)]  # type: ignore[attr-defined]


def _union_shape(g: StreamGraph, call: cst.Call, shape):
    """A union of frames of one shape is a frame of it (``DataFrame.union`` by position)."""
    if any(a.keyword is not None or a.star for a in call.args) or not P.is_stream(_receiver_type(g, call)):
        return None
    shapes = [g.fact("frame_shape", s, _frame_shape, None) for s in _union_inputs(call)]
    if any(s is None or s.kind != shape.kind or [(f.name, f.type, f.key) for f in s.fields] != [(f.name, f.type, f.key) for f in shape.fields]
           for s in shapes):
        return None
    if len({g.node(s).micro_batches for s in _union_inputs(call)}) > 1:
        return None  # a bounded and an unbounded input: union_problem's TODO
    # the same columns: a field may hold None (NaN) when it may in any input
    return type(shape)(shape.kind, tuple(type(f)(f.name, f.type, any(s.fields[i].nullable for s in shapes), f.key,
                                                   any(s.fields[i].nan for s in shapes)) for i, f in enumerate(shape.fields)))


def _reads_of_reassigned(resolver, assign: cst.Assign, value) -> Optional[list]:
    """The reads of a name assigned several times (``ds = ds.filter(...)``) that see ``value``
    (``Resolver.value_at``); None when a read may see it but cannot be followed."""
    if len(assign.targets) != 1 or not isinstance(assign.targets[0].target, cst.Name):
        return None
    reads, seen = [], set()
    for binding in resolver.scope_bindings(assign.targets[0].target) or []:
        for ref in binding.references:
            if id(ref.node) in seen:
                continue
            seen.add(id(ref.node))
            holds = resolver.value_at(ref.node) if isinstance(ref.node, cst.Name) else None
            if holds is None:
                return None
            if holds is value:
                reads.append(ref.node)
    return reads


def _native_downstream(g: StreamGraph, expr, shape) -> bool:
    """Whether every consumer of the stream ``expr`` (of frame ``shape``), and of the streams
    they make, has a native form."""
    uses = _frame_uses(g, expr)
    if uses is None:
        return False
    for call in uses:
        found = consumer_shape(g, call, shape)
        if found is None:
            return False
        if found is not True and not g.fact("frame_downstream", call, _downstream, False):
            return False
    return True


def _downstream(g: StreamGraph, expr) -> bool:
    shape = g.fact("frame_shape", expr, _frame_shape, None)
    return shape is not None and _native_downstream(g, expr, shape)


def _frame(g: StreamGraph, expr):
    if isinstance(expr, cst.Name):
        return _one_shape([g.node(v).frame for v in g.resolver.sources_of(expr)])
    returned = _helper_returns(g.resolver, expr)
    if returned is not None:  # a helper's call: the frames it returns
        return _one_shape([g.node(v).frame for v in returned])
    shape = g.fact("frame_shape", expr, _frame_shape, None)
    if shape is None or not g.fact("frame_downstream", expr, _downstream, False):
        return None
    if _method_call(expr) and g.resolver.type_of(expr.func.value) == P.ENVIRONMENT:
        if _frames.needs_spark_rows(g, expr) and not g.spark_rows:
            return None
    elif _method_call(expr) and not _bridge(g, expr):
        inputs = _union_inputs(expr) if expr.func.attr.value in _TWO_INPUTS else [expr.func.value]
        if any(g.node(i).frame is None for i in inputs):  # an input stays an RDD (a sibling consumer has no native form)
            return None
    return shape


def _blocker(g: StreamGraph, expr, seen: set) -> Optional[tuple[cst.CSTNode, str]]:
    """Why the stream ``expr`` (not a frame) stays an RDD: (node, kind), kind one of "form"
    (the call ``node`` has no native form over its input frame), "source" (a source with no
    DataFrame schema), "uses" (a use of the stream ``node`` makes is not an operator call),
    "call" (a stream a call of a function makes), "rows" (a source of PyFlink ``Row``s in a
    program with other RDDs); None when nothing is found (a node already walked)."""
    if id(expr) in seen:
        return None
    seen.add(id(expr))
    resolver = g.resolver
    if isinstance(expr, cst.Name):
        for value in resolver.sources_of(expr):
            if g.node(value).frame is None:
                return _blocker(g, value, seen)
        return None
    shape = g.fact("frame_shape", expr, _frame_shape, None)
    if shape is None:
        if not _method_call(expr):
            return (expr, "call")
        recv = expr.func.value
        if resolver.type_of(recv) not in _STREAM_TYPES:
            return (expr, "form" if resolver.qualified_name(expr.func) in P.STREAM_ARGUMENT_CALLS else "source")
        inputs = _union_inputs(expr) if expr.func.attr.value in _TWO_INPUTS else [recv]
        for i in inputs:
            if g.fact("frame_shape", i, _frame_shape, None) is None:
                return _blocker(g, i, seen) or (expr, "form")
        shape = g.fact("frame_shape", recv, _frame_shape, None)
        return _pickled_blocker(g, recv, shape) or (expr, _function_refusal(g, expr, shape))
    if not g.fact("frame_downstream", expr, _downstream, False):
        uses = _frame_uses(g, expr)
        if uses is None:
            return (_unfollowed_use(g, expr) or expr, "uses")
        for call in uses:
            found = consumer_shape(g, call, shape)
            if found is None:
                return _pickled_blocker(g, expr, shape) or (call, _function_refusal(g, call, shape))
            if found is not True and not g.fact("frame_downstream", call, _downstream, False):
                return _blocker(g, call, seen)
        return None
    if _method_call(expr) and resolver.type_of(expr.func.value) == P.ENVIRONMENT:
        return (expr, "rows")
    if _method_call(expr) and not _bridge(g, expr):
        for i in _union_inputs(expr) if expr.func.attr.value in _TWO_INPUTS else [expr.func.value]:
            if g.node(i).frame is None:
                return _blocker(g, i, seen)
    return None


def _bridge(g: StreamGraph, expr) -> bool:
    """Whether ``expr`` is a Table-to-DataStream bridge call (``t_env.to_data_stream(table)``):
    a source of the stream graph (its input is a Table)."""
    return expr.func.attr.value in P.TABLE_BRIDGES and g.resolver.type_of(expr.func.value) not in _STREAM_TYPES


def _pickled_blocker(g: StreamGraph, expr, shape) -> Optional[tuple[cst.CSTNode, str]]:
    """For a frame of pickled records (``_frames.pickled_shape``) some consumer does not take:
    its source, as a "source" blocker (the records have no type_info), or None."""
    resolver = g.resolver
    while shape is not None and shape.pickled:
        if isinstance(expr, cst.Name):
            values = resolver.sources_of(expr)
            if len(values) != 1:
                return None
            expr = values[0]
        elif _method_call(expr) and resolver.type_of(expr.func.value) == P.ENVIRONMENT:
            return (expr, "source")
        elif _method_call(expr):
            expr = expr.func.value
        else:
            return None
    return None


def _function_refusal(g: StreamGraph, call: cst.Call, shape) -> str:
    """"form", with why the function of a ``map``/``filter``/``flat_map`` over ``shape`` has no
    Column form when it has none (the translation's refusal)."""
    from flink2spark.transpiler.python_columns import Refusal

    method = call.func.attr.value  # type: ignore[attr-defined]
    if method in _frames.TABLE_VIEWS and shape is not None and not P.is_stream(_receiver_type(g, call)):
        return f"form over the stream's frame: {_frames.table_view_problem(g, call, shape)}"
    if shape is not None and shape.kind == _side_outputs().UNTYPED.kind and method not in _side_outputs().UNTYPED_READERS:
        return ("form over the results of a function with no output_type (Flink pickles them; here only map, flat_map,"
                " filter and print take them, in one Python UDTF with the next function that has an output_type)")
    if shape is not None and _frames.instants(shape) and method not in _frames.INSTANT_CONSUMERS:
        return ("form over a frame of Instants (Flink hands Python Instant objects, to functions and print, Spark datetimes: only the"
                " Table of the stream, from_data_stream/create_temporary_view, takes one)")
    if shape is not None and _frames.limited(shape) and method not in _frames.LIMITED_CONSUMERS:
        held = "pickled records" if shape.pickled else "columns of " + ", ".join(
            sorted({f.type.upper() for f in shape.fields if f.type not in _frames.FRAME_TYPES}))
        return f"form over a frame of {held} (only print, map, filter and flat_map take one)"
    if shape is not None and method not in ("map", "filter", "flat_map") and g.node(call.func.value).micro_batches:  # type: ignore[attr-defined]
        return ("form on an unbounded stream (there: map/filter/flat_map/union, event-time windows of built-in aggregates"
                " keyed by a field, rolling sum/min/max/reduce of fields keyed by a field, print and Kafka sinks)")
    if shape is None or method not in ("map", "filter", "flat_map") or not P.is_stream(_receiver_type(g, call)):
        return "form"
    if method != "filter" and _receiver_type(g, call) == P.KEYED and _stateful().stateful_class(g, call):
        found = _stateful().plan(g, call, shape)  # a function class with keyed state: why no StatefulProcessor
        return f"form ({found})" if isinstance(found, str) else "form"
    if shape.kind == _side_outputs().UNTYPED.kind:  # no Column form over them: only the UDTF
        found = None
    else:
        found = (_frames.flat_translated if method == "flat_map" else _frames.translated)(g, call, shape)
    why = [f"its function: {found.reason}"] if isinstance(found, Refusal) else []
    plan = _side_outputs().function_plan(g, call, shape)  # why it cannot run as a Python UDTF either
    if isinstance(plan, str):
        why.append(f"as a Python UDTF: {plan}")
    return f"form ({'; '.join(why)})" if why else "form"


def _unfollowed_use(g: StreamGraph, expr) -> Optional[cst.BaseExpression]:
    """The first read of the stream ``expr`` makes that is not an operator call on it (what
    makes ``_frame_uses`` None), or None when its reads themselves cannot be followed."""
    from flink2spark.rules.pyflink._common import assigned_uses

    resolver = g.resolver
    parent = resolver.parent(expr)
    refs = [expr]
    if isinstance(parent, cst.Assign):
        refs = assigned_uses(resolver, expr)
        if refs is None:
            refs = _reads_of_reassigned(resolver, parent, expr)
    for ref in refs or ():
        attribute = resolver.parent(ref)
        if isinstance(attribute, cst.Arg) and (_union_argument(resolver, attribute) or _frames.table_view_argument(resolver, attribute)):
            continue
        call = resolver.parent(attribute) if isinstance(attribute, cst.Attribute) else None
        if not (isinstance(call, cst.Call) and call.func is attribute) and _helper_uses(g, ref) is None:
            return ref
    return None


def _use_text(resolver, node, line: int) -> str:
    """How the stream read at ``node`` is used where its uses cannot be followed."""
    code = resolver.module.code_for_node
    if _method_call(node) and not isinstance(resolver.parent(node), (cst.Arg, cst.Return)):
        return f"the stream `.{node.func.attr.value}()` makes at line {line} is read where it cannot be followed"
    what = f"`{code(node)}`" if isinstance(node, cst.Name) else "the stream"
    parent = resolver.parent(node)
    if isinstance(parent, cst.Arg):
        call = resolver.parent(parent)
        return f"{what} is passed to `{code(call.func)}()` at line {line}, where its uses cannot be followed"
    if isinstance(parent, cst.Return):
        return f"{what} is returned from a function at line {line}, where its uses cannot be followed"
    return f"{what} is kept in a container or another expression at line {line}, where its uses cannot be followed"


def _blocker_text(resolver, node, kind: str, line: int) -> str:
    if kind == "call":
        return f"the stream `{resolver.module.code_for_node(node.func)}()` returns at line {line} cannot be followed"
    if kind == "uses":
        return _use_text(resolver, node, line)
    method = node.func.attr.value
    if kind.startswith("form"):
        what = f".{method}" if resolver.type_of(node.func.value) in _STREAM_TYPES else resolver.module.code_for_node(node.func)
        return f"`{what}()` at line {line} has no DataFrame form{kind[4:]}"
    if kind == "rows":
        return f"`.{method}()` at line {line} reads PyFlink Rows, which only a program without RDDs makes Spark's"
    if method in P.TABLE_BRIDGES:
        return (f"the table's stream `.{method}()` at line {line} has no DataFrame form (a bounded table that gives only"
                " inserts, of columns of basic types other than FLOAT, has one; a retract stream's pairs have none)")
    if method != "from_collection":
        return (f"the source `.{method}()` at line {line} has no DataFrame form (a typed from_collection and a bounded"
                " text file source have one)")
    if call_arg(node, 1, "type_info") is None:
        return f"the source `.{method}()` at line {line} has no type_info (no DataFrame schema)"
    return f"the source `.{method}()` at line {line} has no DataFrame schema: its type_info or its data has none here"
