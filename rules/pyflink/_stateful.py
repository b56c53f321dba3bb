"""A ``KeyedProcessFunction`` class as a Spark ``StatefulProcessor`` (``transformWithState``)
(not a rule: the ``process`` rule calls ``translate`` for a keyed stream planned as a DataFrame).

The user's class keeps its name, its helpers and the bodies of its methods; only what is Flink
in them changes:

* ``open(self, runtime_context)`` -> ``init(self, handle)``;
  ``runtime_context.get_state(ValueStateDescriptor(name, Types.X()))`` ->
  ``handle.getValueState(name, "value <spark type>")``;
* ``self.s.value()`` -> ``self.state_value(self.s)``, a static method added to the class:
  ``get()[0]``, None when ``get()`` is (Spark's state values are tuples, ``get()`` is None when
  unset, as Flink's ``value()``; ``(self.s.get() or (None,))[0]`` where the class uses the name
  ``state_value`` already), ``self.s.update(v)`` ->
  ``self.s.update((v,))``, ``self.s.clear()`` stays; a ``ValueStateDescriptor(name,
  Types.TUPLE([Types.X(), ...]))`` of basic types -> ``handle.getValueState(name, "f0 x, f1 y")``
  whose ``value()`` is ``tuple(self.s.get() or ()) or None`` (Flink gives a Python tuple; Spark a
  Row, which prints with names) and ``update(t)`` ``self.s.update(tuple(t))``;
* ``runtime_context.get_list_state(ListStateDescriptor(name, Types.X()))`` ->
  ``handle.getListState(name, "value <spark type>")``; ``self.l.get()`` -> ``[v for (v,) in
  self.l.get()]``, ``add(v)`` -> ``appendValue((v,))``, ``clear()`` stays; a ListState of a
  ``Types.TUPLE`` of basic types holds Rows ``"f0 x, f1 y"``: ``get()`` -> ``[tuple(v) for v in
  ...]`` (``for t, a in self.l.get()`` as it is: a Row unpacks as the tuple), ``add(t)`` ->
  ``appendValue(tuple(t))``. ``update(l)``/``add_all(l)``: Spark fails on an empty list
  (``put([])``/``appendList([])``, checked), where Flink clears/adds nothing: a literal ``[]`` ->
  ``clear()``/the statement goes, a literal list -> ``put``/``appendList`` of its tuples, else
  the helpers ``put_list``/``append_list`` (added to the class) test for the empty list;
* ``get_map_state(MapStateDescriptor(name, Types.K(), Types.V()))`` of basic types ->
  ``handle.getMapState(name, "key k", "value v")`` (keys and values are 1-tuples): ``get(k)`` ->
  ``(getValue((k,)) or (None,))[0]``, ``put`` -> ``updateValue``, ``contains`` -> ``containsKey``,
  ``remove`` -> ``removeKey``, ``keys()``/``values()``/``items()`` -> lists of ``keys()``/
  ``values()``/``iterator()``, ``is_empty()`` -> ``not exists()`` (False once every key is
  removed, checked), ``clear()``; ``put_all`` is not translated. Spark iterates a map in its
  store's order, Flink in its backend's: NOTE F2S262 unless every iteration is read by
  ``sorted``/``set``/``frozenset``/``min``/``max``/``any``/``all`` (no ``key=``);
* ``get_reducing_state(ReducingStateDescriptor(name, F(), Types.X()))`` /
  ``get_aggregating_state(AggregatingStateDescriptor(name, A(), acc type))`` (``F``/``A`` a
  module-level ``ReduceFunction``/``AggregateFunction`` class used only there, which loses its
  PyFlink base) -> a ValueState of the value/accumulator; ``add(v)`` -> the helpers
  ``reduce_into(self.s, F(), v)`` / ``aggregate_into(self.s, A(), v)`` (Flink's: the value
  alone, or ``create_accumulator()`` then ``add``, when the state is empty), ``get()`` -> the
  value / ``aggregate_result(self.s, A())`` (``get_result``, None when empty);
* ``d.enable_time_to_live(StateTtlConfig.new_builder(Time.x(n)).build())`` (cleanup settings
  allowed, another update type or visibility refused) -> ``ttlDurationMs=`` of the state, the
  processor in ``timeMode="ProcessingTime"`` (Spark's TTL needs it). Flink's defaults are
  Spark's (a write sets the expiry, an expired value is never returned); Spark's clock is the
  micro-batch's processing time, Flink's the time of each access: NOTE F2S263;
* a keyed ``map``/``flat_map`` of a ``MapFunction``/``FlatMapFunction`` class whose ``open()``
  gets state: ``map(self, value)``/``flat_map(self, value)`` as ``process_element`` without a
  context; a map must end with ``return x``, its returns -> ``yield Row(...)`` (then
  ``continue`` but at the end). Its results may depend on the order of a key's rows only when
  they come in the source's order (``from_collection`` at parallelism 1, one partition: NOTE
  F2S291), or when a keyed map/flat_map of such a stream reads them: the first one's rows get
  their place in the source (``withColumn(SEQUENCE, F.monotonically_increasing_id())``: the
  ids grow with the partitions' and their rows' order), both sort a key's rows by it and the
  first gives each result its row's (``Time.order``, one result per row at most), as Flink's
  operators see them at parallelism 1; else it stays the shim's (``_plan``);
* ``yield value`` of the record itself where the output type has its fields: its Row as it is;
* ``process_element(self, value, ctx)`` -> ``handleInputRows(self, key, rows, timerValues)``
  whose body is a ``for value in rows:`` loop over the old body (``return`` -> ``continue``;
  ``for (value,) in rows`` when the stream's records are single values);
* ``on_timer(self, timestamp, ctx)`` -> ``handleExpiredTimer(self, key, timerValues,
  expiredTimerInfo)`` (Spark passes these by keyword: the names are fixed) starting with
  ``timestamp = expiredTimerInfo.getExpiryTimeInMs()``;
* ``ctx.timestamp()`` in ``process_element`` -> the record's field the timestamp assigner reads
  (``value[2]``: the program model's ``_event_windows.stamp`` of the upstream
  ``assign_timestamps_and_watermarks``, when it is exactly one field; the frame then needs no
  timestamp column);
* in BATCH mode Flink gives a key's elements sorted by timestamp, with no watermark
  (``Long.MIN_VALUE``) while they are processed and ``Long.MAX_VALUE`` in ``on_timer``:
  ``for value in sorted(rows, key=lambda row: row.f2)`` (NOTE F2S266 then says that equal
  timestamps come in no set order) and ``current_watermark()`` -> those constants. In
  STREAMING mode the watermark is Flink's periodic one: not translated;
* ``ctx.get_current_key()`` -> ``key[0]``; ``ctx.timer_service().register_event_time_timer(t)``
  / ``delete_event_time_timer(t)`` -> ``self.handle.registerTimer(t)`` / ``deleteTimer(t)``;
* ``yield v`` -> ``yield Row(<output column>=v, ...)`` (transformWithState takes Rows with the
  output schema's names); ``yield self.helper(...)`` when the helper's results are only yielded
  and it returns only ``Row(...)``: its returns become those Rows.

A ``KeyedCoProcessFunction`` of ``a.connect(b).key_by(k1, k2).process(...)`` over two frames
(``two_input_plan``; PySpark 4.3's transformWithState takes one grouped input): both inputs'
rows in one frame, ``input`` (1 or 2), ``key`` and the record in ``in1``/``in2`` (a struct,
which Spark hands to Python as a dict: ``tuple(row.in1.values())`` for a Tuple type, the Python
tuple Flink gives; ``Row(**row.in1)`` for a Row type; the column itself for a single value);
``process_element1``/``process_element2`` become the two branches of one ``handleInputRows``,
each with its input's record shape and timestamp field. ``yield TAG, v`` to a side output that
``get_side_output(TAG)`` reads: the results are tagged rows (``tagged_schema``), as a process
function's over a frame (``runtime/frame_process.py``).

What it means on Spark (checked on PySpark 4.3 over batch DataFrames,
``tests/test_stateful_processor.py``): ``handleInputRows`` gets all the rows of a key at once,
then the key's expired timers fire in time order, each seeing the key's final state. Flink
processes a key's elements one by one, in arrival order, and on a bounded input fires every
event-time timer at the end (watermark ``Long.MAX_VALUE``) with the key's final state. So:

* the rows of a key come in no set order (Flink: arrival order): NOTE F2S266;
* timers need ``timeMode="ProcessingTime"`` (with ``"EventTime"`` a batch job fires none):
  a timer fires when its time is before the job's clock, which a timestamp of the data is
  (a time in the future does not fire: NOTE F2S267);
* processing-time timers (``register/delete_processing_time_timer``, ``current_processing_time()``
  -> ``timerValues.getCurrentProcessingTimeInMs()``, the micro-batch's one time) are Spark's
  processing-time timers: one due by the batch's clock fires after the key's rows; Flink fires one
  when the wall clock passes it while the job runs, and none still pending at the end of a
  bounded input (STREAMING mode; checked on Flink 2.3): a timer due later than the job runs fires
  on neither (NOTE F2S232). Not with event-time timers in one class (``on_timer`` could not tell
  them apart: Spark's timers have one domain) nor in BATCH mode;
* timers registered in ``on_timer`` would not fire in the same batch (Flink fires them): not
  translated, nor are ``ctx.timestamp()`` in ``on_timer`` or of a
  timestamp computed from the record, the watermark in STREAMING mode, state of other
  types or other methods (``put_all``), side outputs or a record used other than by its fields (Spark's ``Row`` prints
  differently from Flink's tuple). ``translate`` gives the reason and the caller keeps the
  shim's ``keyed_process``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Union

import libcst as cst

from flink2spark.rules.pyflink._process import keeps_instance_data
from flink2spark.transpiler import pyflink_model as P
from flink2spark.transpiler.infer import dotted
from flink2spark.transpiler.visitors import nodes

# (runtime context method, descriptor class) -> (kind of state, StatefulProcessorHandle method)
_STATES = {
    ("get_state", "ValueStateDescriptor"): ("value", "getValueState"),
    ("get_list_state", "ListStateDescriptor"): ("list", "getListState"),
    ("get_map_state", "MapStateDescriptor"): ("map", "getMapState"),
    # a ReducingState/AggregatingState is a ValueState of the value/accumulator plus the user's function
    ("get_reducing_state", "ReducingStateDescriptor"): ("reducing", "getValueState"),
    ("get_aggregating_state", "AggregatingStateDescriptor"): ("aggregating", "getValueState"),
}
# the user's function of a ReducingStateDescriptor/AggregatingStateDescriptor: its base
_STATE_FUNCTIONS = {"ReducingStateDescriptor": "ReduceFunction", "AggregatingStateDescriptor": "AggregateFunction"}
# StateTtlConfig.new_builder(<time>): Time.x(n) / Duration.of_x(n) in ms
_TTL_UNITS = {
    "milliseconds": 1, "seconds": 1_000, "minutes": 60_000, "hours": 3_600_000, "days": 86_400_000,
    "of_millis": 1, "of_seconds": 1_000, "of_minutes": 60_000, "of_hours": 3_600_000, "of_days": 86_400_000,
}
_TTL_TIMES = {"pyflink.common.Time", "pyflink.common.time.Time", "pyflink.common.Duration", "pyflink.common.time.Duration"}
_TTL_CONFIGS = {"pyflink.datastream.state.StateTtlConfig", "pyflink.datastream.StateTtlConfig"}
# builder settings that change nothing a job sees (cleanup of expired entries: never returned either way)
_TTL_CLEANUPS = {"cleanup_full_snapshot", "cleanup_incrementally", "cleanup_in_rocksdb_compact_filter", "disable_cleanup_in_background"}
# iterations whose result does not depend on the order of the items (a MapState's keys()/values()/items())
_ORDER_FREE = {"sorted", "set", "frozenset", "min", "max", "any", "all"}
_DESCRIPTORS = {f"{m}.{d}": d for m in ("pyflink.datastream.state", "pyflink.datastream") for _, d in _STATES}
STATE_DESCRIPTORS = set(_DESCRIPTORS)
ROWS = {"pyflink.common.Row", "pyflink.common.types.Row"}
# names the new methods' parameters take: a body using them would mean something else
_NEW_NAMES = {"key", "rows", "timerValues", "expiredTimerInfo", "handle"}
_VALUE_HELPER = "state_value"
_VALUE_METHOD = f'''
@staticmethod
def {_VALUE_HELPER}(state):
    """The value of a ValueState (Spark keeps it in a 1-tuple); None when it has none."""
    found = state.get()
    return None if found is None else found[0]
'''


# the helper methods a translated class may need, added once each (name -> code)
_HELPERS = {
    "put_list": '''
@staticmethod
def put_list(state, values):
    """Flink's ListState.update(values): an empty list clears the state (Spark's put() takes no empty list)."""
    if values:
        state.put(values)
    else:
        state.clear()
''',
    "append_list": '''
@staticmethod
def append_list(state, values):
    """Flink's ListState.add_all(values): an empty list adds nothing (Spark's appendList() takes no empty list)."""
    if values:
        state.appendList(values)
''',
    "reduce_into": '''
@staticmethod
def reduce_into(state, function, value):
    """Flink's ReducingState.add(value): the state's value reduced with value (value alone when it has none)."""
    found = state.get()
    state.update((value if found is None else function.reduce(found[0], value),))
''',
    "aggregate_into": '''
@staticmethod
def aggregate_into(state, function, value):
    """Flink's AggregatingState.add(value): value added to the state's accumulator (a new one when it has none)."""
    found = state.get()
    accumulator = function.create_accumulator() if found is None else {read}
    state.update({write})
''',
    "aggregate_result": '''
@staticmethod
def aggregate_result(state, function):
    """Flink's AggregatingState.get(): the result of the state's accumulator (None when it has none)."""
    found = state.get()
    return None if found is None else function.get_result({read})
''',
}


@dataclass
class Processor:
    """The class as a StatefulProcessor, and how to run it."""

    cls: cst.ClassDef
    output_schema: str  # DDL of the output rows
    time_mode: str  # "None" or "ProcessingTime"
    timers: bool  # registers timers (NOTE F2S267)
    states: dict = field(default_factory=dict)  # attribute -> (kind of state, Spark type of its values)
    sorted_by: Optional[str] = None  # BATCH mode: the timestamp field handleInputRows sorts a key's rows by
    map_order: bool = False  # a MapState's iteration order can reach the results (NOTE F2S262)
    ttl: dict = field(default_factory=dict)  # state attribute -> ttlDurationMs (NOTE F2S263)
    function_classes: list = field(default_factory=list)  # the states' ReduceFunction/AggregateFunction classes (original nodes: their PyFlink bases go)
    processing_time: bool = False  # its timers are Flink's processing-time ones (NOTE F2S232), not event-time ones (F2S267)


class Refused(Exception):
    pass


@dataclass(frozen=True)
class Time:
    """What the program model says of the records' time (``time_facts``)."""

    stamp: Optional[str] = None  # the record field the timestamp assigner reads (``ctx.timestamp()``), if any
    batch: bool = False  # BATCH runtime mode (Flink sorts a key's elements by timestamp, watermark MIN/MAX)
    # a keyed map/flat_map at parallelism 1 reading its rows in the source's order by their SEQUENCE
    # column (``SEQUENCE``): "sort" sorts a key's rows by it, "carry" also gives each result its row's
    order: Optional[str] = None


# the keyed operators whose function class may become a StatefulProcessor -> (the class's base, its method)
OPERATORS = {"process": ("KeyedProcessFunction", "process_element"), "map": ("MapFunction", "map"), "flat_map": ("FlatMapFunction", "flat_map"),
             "co_process": ("KeyedCoProcessFunction", "process_element")}


def translate(resolver, cls: cst.ClassDef, record, output, time: Time = Time(), operator: str = "process",
              inputs: Optional[tuple] = None, sides: Optional[dict] = None) -> Union[Processor, str]:
    """``cls`` (an original ClassDef deriving from KeyedProcessFunction, or from MapFunction/
    FlatMapFunction for a keyed ``map``/``flat_map``: ``operator``) as a Processor, for records
    of the ``python_columns.Shape`` ``record`` and results of the Shape ``output``; else the
    reason it is not translated. A ``KeyedCoProcessFunction`` (``operator`` ``"co_process"``):
    ``inputs`` is ((Shape, Time) of the first input, of the second), the rows tagged by input
    (``TWO_INPUTS``). ``sides``: the side outputs read (module name of the tag -> (tag name, Shape)):
    the results are then rows of ``tagged_schema``."""
    try:
        return _Translation(resolver, cls, record, output, time, operator, inputs, sides).run()
    except Refused as exc:
        return str(exc)


# a KeyedCoProcessFunction's rows: the input (1 or 2) and the record of each in its own column
TWO_INPUTS = ("input", "in1", "in2")
_TAG, _MAIN = "output", "main"  # the columns of a tagged result (as runtime/frame_process.py's tagged frame)


def tagged_schema(output, sides: dict) -> str:
    """The DDL schema of results with side outputs: ``output`` (None for the main output, else the
    tag's name), ``main`` (a struct of the main output's fields), one struct per tag, named as it
    (``f2s_process.main_output``/``side_output`` read them)."""
    def struct(shape) -> str:
        return "struct<%s>" % ", ".join(f"{f.name}: {f.type}" for f in shape.fields)

    return ", ".join([f"{_TAG} string", f"{_MAIN} {struct(output)}", *(f"`{name}` {struct(shape)}" for name, shape in sides.values())])


def output_schema(output) -> str:
    return ", ".join(f"{f.name} {f.type}" for f in output.fields)


def _own_nodes(body: cst.CSTNode, *types):
    """The nodes of ``types`` in ``body`` outside the functions, lambdas and classes it defines."""
    found = []
    todo = [body]
    while todo:
        node = todo.pop()
        if isinstance(node, types):
            found.append(node)
        for child in node.children:
            if not isinstance(child, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
                todo.append(child)
    return found


def _method_call(node: cst.CSTNode, receiver: Optional[str] = None) -> Optional[str]:
    """``m`` when ``node`` is ``<receiver>.m(...)``."""
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute):
        if receiver is None or (isinstance(node.func.value, cst.Name) and node.func.value.value == receiver):
            return node.func.attr.value
    return None


def _self_attr(node: cst.CSTNode) -> Optional[str]:
    if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value == "self":
        return node.attr.value
    return None


def _param_names(fdef: cst.FunctionDef) -> list[str]:
    p = fdef.params
    if p.star_arg is not cst.MaybeSentinel.DEFAULT or p.kwonly_params or p.posonly_params or p.star_kwarg is not None:
        raise Refused(f"{fdef.name.value}() has *args, ** or keyword-only parameters")
    if any(x.default is not None for x in p.params):
        raise Refused(f"{fdef.name.value}() has parameters with defaults")
    return [x.name.value for x in p.params]


def _names(node: cst.CSTNode) -> list[cst.Name]:
    """The names ``node`` reads or binds: not the attribute names (``x.value``) nor keywords (``f(value=1)``)."""
    skip = {id(a.attr) for a in nodes(node, cst.Attribute)} | {id(a.keyword) for a in nodes(node, cst.Arg) if a.keyword is not None}
    return [n for n in nodes(node, cst.Name) if id(n) not in skip]


class _Translation:
    def __init__(self, resolver, cls: cst.ClassDef, record, output, time: Time = Time(), operator: str = "process",
                 inputs: Optional[tuple] = None, sides: Optional[dict] = None):
        self.time = time
        self.inputs = inputs  # a KeyedCoProcessFunction: ((Shape, Time) of each input)
        self.sides = dict(sides or {})  # module name of a tag read -> (tag name, Shape)
        self.base, self.method = OPERATORS[operator]  # the class's PyFlink base and the method Flink calls per element
        # the methods Flink calls per element (process_element1/2 of a KeyedCoProcessFunction)
        self.methods = ("process_element1", "process_element2") if inputs else (self.method,)
        self.resolver = resolver
        self.cls = cls
        self.record = record
        self.output = output
        self.states: dict[str, tuple[str, str]] = {}
        self.timers = False
        self.domains: set = set()  # the time domains of its timers ("event", "processing")
        # the helper reading a ValueState's value (None: the class uses the name, reads stay inline)
        self.value_helper: Optional[str] = None if any(n.value == _VALUE_HELPER for n in _names(cls.body)) else _VALUE_HELPER
        self.value_read = False
        self.value = ""  # process_element()'s record parameter
        self.sorted_by: Optional[str] = None
        self.row_helpers: set = set()
        self.function_classes: list = []  # the ReduceFunction/AggregateFunction classes the states use (their bases go)
        self.functions: dict[str, str] = {}  # attribute of a Reducing/AggregatingState -> its function's code
        self.helpers: dict[str, str] = {}  # helper methods the new class needs (name -> code)
        self.map_order = False
        self.ttl: dict[str, int] = {}  # attribute -> ttlDurationMs

    # -- checks ---------------------------------------------------------------------------
    def _check_flink_names(self) -> None:
        """Flink names in the class: ``Row`` (Spark's in the output), ``Types``/
        ``ValueStateDescriptor`` in ``open()`` (checked again on the new class: ``_check_left``),
        and the annotations of the parameters the new methods drop (``ctx: 'KeyedProcessFunction.Context'``)."""
        dropped = {
            id(p.annotation)
            for s in self.cls.body.body
            if isinstance(s, cst.FunctionDef) and s.name.value in ("open", *self.methods, "on_timer")
            for p in s.params.params[1:]
            if p.annotation is not None
        }
        opener = self._method("open")
        for node in nodes(self.cls.body, cst.Name, cst.Attribute):
            q = self.resolver.qualified_name(node)
            if not q or not q.startswith("pyflink.") or q in ROWS or self._inside(node, dropped):
                continue
            state = any(q == a or q.startswith(a + ".") for a in STATE_DESCRIPTORS | P.TYPES | _TTL_TIMES | _TTL_CONFIGS)
            if not state or opener is None or not self._inside(node, {id(opener.body)}):
                raise Refused(f"it uses {q} other than in open()'s ValueStateDescriptor(name, Types.X())")

    def _inside(self, node: cst.CSTNode, ids: set) -> bool:
        parent = self.resolver.parent(node)
        while parent is not None and parent is not self.cls:
            if id(parent) in ids:
                return True
            parent = self.resolver.parent(parent)
        return False

    def _check_left(self, new: cst.ClassDef) -> None:
        """No name the module imports from PyFlink is left in the new class but ``Row`` (which
        the output imports from pyspark.sql)."""
        flink = set()
        for stmt in nodes(self.resolver.module, cst.ImportFrom, cst.Import):
            module = stmt.module if isinstance(stmt, cst.ImportFrom) else None
            for alias in stmt.names if not isinstance(stmt.names, cst.ImportStar) else ():
                full = dotted(module) + "." + dotted(alias.name) if module is not None else dotted(alias.name)
                if (full or "").startswith("pyflink"):
                    flink.add(alias.evaluated_alias or dotted(alias.name).split(".")[0])
        left = {n.value for n in _names(new.body)} & (flink - {"Row"})
        if left:
            raise Refused(f"it uses {', '.join(sorted(left))} where the new class cannot")

    def _check_new_names(self) -> None:
        """The names the new methods' parameters take (``_NEW_NAMES``) are not read in the methods
        that get them: the class may use them elsewhere (a helper method), and ``key`` as a local
        variable of process_element()/on_timer() that do not read the key (``ctx.get_current_key()``):
        the variable then hides a parameter nothing reads."""
        takes = {"open": {"handle"}, "on_timer": {"key", "timerValues", "expiredTimerInfo"},
                 **{m: {"key", "rows", "timerValues", *(["row"] if self.inputs else [])} for m in self.methods}}
        for stmt in self.cls.body.body:
            if not isinstance(stmt, cst.FunctionDef) or stmt.name.value not in takes:
                continue
            for name in _names(stmt.body):
                if name.value not in takes[stmt.name.value]:
                    continue
                local = name.value == "key" and self._rebinds(stmt, "key") and not nodes(stmt, cst.Global, cst.Nonlocal) and not any(
                    _method_call(c) == "get_current_key" for c in nodes(stmt.body, cst.Call)
                )
                if not local:
                    raise Refused(f"it uses the name '{name.value}', which the StatefulProcessor's methods take")

    def _method(self, name: str) -> Optional[cst.FunctionDef]:
        found = [s for s in self.cls.body.body if isinstance(s, cst.FunctionDef) and s.name.value == name]
        if len(found) > 1:
            raise Refused(f"it defines {name}() twice")
        return found[0] if found else None

    # -- open -> init ---------------------------------------------------------------------
    def _state_type(self, call: cst.BaseExpression, descriptor: str) -> tuple[cst.BaseExpression, str, object, Optional[str]]:
        """(name, kind, Spark type, the user's function's code) of ``<descriptor>(name, [function,] Types.X())``
        (``MapStateDescriptor(name, Types.K(), Types.V())``: the type is (key type, value type)); the kind
        is the state's, ``"tuple"``/``"list_tuple"``/``"aggregating_tuple"`` when its values are Tuples
        (Spark: Rows of fields f0, f1...)."""
        if not isinstance(call, cst.Call) or _DESCRIPTORS.get(self.resolver.qualified_name(call.func) or "") != descriptor:
            raise Refused(f"open() gets state from something else than a {descriptor}(name, Types.X()) written there")
        kind = next(k for (_, d), (k, _) in _STATES.items() if d == descriptor)
        arity = 2 if kind in ("value", "list") else 3
        if len(call.args) != arity or any(a.keyword is not None or a.star for a in call.args):
            raise Refused(f"a {descriptor} with other arguments than ({'name, key type, value type' if kind == 'map' else 'name, function, type' if arity == 3 else 'name, type'})")
        name, typ = call.args[0].value, call.args[-1].value
        if kind == "map":
            key, value = self._basic_type(call.args[1].value), self._basic_type(typ)
            if key is None or value is None:
                raise Refused("a MapState whose keys or values are not of a basic type (STRING, INT, LONG, DOUBLE...)")
            return name, kind, (key, value), None
        function = self._state_function(call.args[1].value, descriptor) if arity == 3 else None
        basic = self._basic_type(typ)
        if basic is not None:
            return name, kind, basic, function
        fields = self._tuple_fields(typ)
        if fields is None or kind == "reducing":
            raise Refused("a state of a type that is not a basic one (STRING, INT, LONG, DOUBLE...) nor a Value/List/AggregatingState of a TUPLE of them")
        return name, {"value": "tuple", "list": "list_tuple", "aggregating": "aggregating_tuple"}[kind], fields, function

    def _tuple_fields(self, typ: cst.BaseExpression) -> Optional[str]:
        """``"f0 x, f1 y"`` of ``Types.TUPLE([Types.X(), Types.Y()])`` of basic types, else None."""
        if self._types_method(typ) != "TUPLE" or len(typ.args) != 1:  # type: ignore[attr-defined]
            return None
        items = typ.args[0].value  # type: ignore[attr-defined]
        fields = [self._basic_type(e.value) for e in items.elements] if isinstance(items, cst.List) else [None]
        return ", ".join(f"f{i} {f}" for i, f in enumerate(fields)) if fields and None not in fields else None

    def _state_function(self, function: cst.BaseExpression, descriptor: str) -> str:
        """The code of the ReduceFunction/AggregateFunction of a descriptor: ``C()`` of a class of the
        module's top level deriving from it (the new class creates it where it uses it)."""
        base = _STATE_FUNCTIONS[descriptor]
        cls = None
        if isinstance(function, cst.Call) and not function.args and isinstance(function.func, cst.Name):
            cls = next((c for c in self.resolver.module.body if isinstance(c, cst.ClassDef) and c.name.value == function.func.value), None)
        bases = {self.resolver.qualified_name(b.value) for b in cls.bases} if cls is not None else set()
        uses = [n for n in nodes(self.resolver.module, cst.Name) if cls is not None and n.value == cls.name.value and n is not cls.name]
        if cls is None or bases not in ({f"{m}.{base}"} for m in ("pyflink.datastream.functions", "pyflink.datastream")) or keeps_instance_data(cls) or any(
            isinstance(s, cst.FunctionDef) and s.name.value in ("__init__", "open") for s in cls.body.body
        ) or len(uses) != 1 or cls.decorators or cls.keywords or any(
            (self.resolver.qualified_name(n) or "").startswith("pyflink.") for n in nodes(cls.body, cst.Name, cst.Attribute)
        ):
            raise Refused(f"a {descriptor} whose function is not C() of a {base} class of the module used there only (with no __init__/open nor Flink names)")
        if cls not in self.function_classes:  # open() is translated twice (``run``)
            self.function_classes.append(cls)
        return cst.Module([]).code_for_node(function)

    def _types_method(self, typ: cst.BaseExpression) -> Optional[str]:
        """``X`` of ``Types.X(...)``."""
        if isinstance(typ, cst.Call) and isinstance(typ.func, cst.Attribute) and self.resolver.qualified_name(typ.func.value) in P.TYPES:
            return typ.func.attr.value
        return None

    def _basic_type(self, typ: cst.BaseExpression) -> Optional[str]:
        """The Spark type of ``Types.X()`` of a basic type, else None."""
        kind = self._types_method(typ)
        return P.SPARK_TYPES[kind].lower() if kind in P.SPARK_TYPES and not typ.args else None  # type: ignore[attr-defined]

    def _init(self, opener: Optional[cst.FunctionDef]) -> cst.FunctionDef:
        if opener is None:
            body: list = []
        else:
            params = _param_names(opener)
            if len(params) != 2:
                raise Refused("open() does not take (self, runtime_context)")
            context = params[1]
            converter = _OpenBody(self, context, opener.body)
            new_body = opener.body.visit(converter)
            uses = sum(1 for n in _names(opener.body) if n.value == context)
            if uses != converter.uses:
                raise Refused(f"open() uses its runtime context '{context}' other than for get_state()")
            body = list(new_body.body)  # type: ignore[attr-defined]
        if self.timers:
            body.insert(0, cst.parse_statement("self.handle = handle"))
        if not body:
            body = [cst.parse_statement("pass")]
        params = cst.Parameters([cst.Param(cst.Name("self")), cst.Param(cst.Name("handle"))])
        base = opener if opener is not None else cst.FunctionDef(name=cst.Name("init"), params=params, body=cst.IndentedBlock([]))
        return base.with_changes(name=cst.Name("init"), params=params, body=cst.IndentedBlock(body=body), returns=None)

    # -- process_element / on_timer -------------------------------------------------------
    def _check_record_uses(self, fdef: cst.FunctionDef, value: str) -> None:
        """The record is read by its fields only (``v[0]``, ``v.name``, ``a, b = v``): a Spark
        Row is a tuple with names, but prints and compares with names where Flink's tuple does not.
        (A KeyedCoProcessFunction's record of a tuple type is a Python tuple: ``_two_inputs``.)"""
        if self.record.kind == "value" or self.inputs and self.record.kind == "tuple":
            return
        for name in _names(fdef.body):
            if name.value != value:
                continue
            parent = self.resolver.parent(name)
            if isinstance(parent, cst.Subscript) and parent.value is name:
                continue
            if self.record.kind == "row" and isinstance(parent, cst.Attribute) and parent.value is name:
                continue
            if isinstance(parent, cst.Assign) and parent.value is name and all(
                isinstance(t.target, (cst.Tuple, cst.List)) for t in parent.targets
            ):
                continue
            if isinstance(parent, (cst.Yield, cst.Return)) and parent.value is name and self._whole_record(fdef):
                continue  # the record itself is a result: its Row as it is
            raise Refused(f"{fdef.name.value}() uses its record '{value}' other than by its fields")

    def _whole_record(self, fdef: cst.FunctionDef) -> bool:
        """Whether ``yield value`` (``return value`` of a map) may hand on the record's Row as it
        is: the output type has the record's fields (names and types), and the method never
        rebinds the record."""
        same = self.record.kind == self.output.kind and [(f.name, f.type) for f in self.record.fields] == [
            (f.name, f.type) for f in self.output.fields
        ]
        return same and self.record.kind != "value" and not self._rebinds(fdef, self.value or _param_names(fdef)[1])

    def _check_ctx_uses(self, fdef: cst.FunctionDef, context: str, converter: "_MethodBody") -> None:
        uses = sum(1 for n in _names(fdef.body) if n.value == context)
        if uses != converter.context_uses:
            raise Refused(f"{fdef.name.value}() uses its context '{context}' other than for get_current_key(), timestamp(), current_watermark() and event-time timers")

    def _generator(self, body: list) -> list:
        """The statements of a method Spark iterates over: ``yield from ()`` after them when
        they yield nothing (Flink accepts a method that returns None)."""
        block = cst.IndentedBlock(body=body)
        if not _own_nodes(block, cst.Yield):
            body = [*body, cst.parse_statement("yield from ()")]
        return body

    def _process(self, fdef: cst.FunctionDef) -> cst.FunctionDef:
        params = _param_names(fdef)
        if self.method != "process_element":  # map(self, value) / flat_map(self, value): no context
            if len(params) != 2:
                raise Refused(f"{self.method}() does not take (self, value)")
            params = [*params, ""]  # a context no name reads
        if len(params) != 3:
            raise Refused("process_element() does not take (self, value, ctx)")
        value, context = params[1], params[2]
        if self.method == "map" and not (fdef.body.body and _returns_last(fdef.body.body[-1])):
            raise Refused("map() does not end with a return (Flink hands on None)")
        self._check_record_uses(fdef, value)
        self.value = value
        converter = _MethodBody(self, context, in_timer=False)
        body = fdef.body.visit(converter)
        if self.method == "map":  # its last statement ``yield Row(...); continue``: the continue goes
            last = body.body[-1]  # type: ignore[attr-defined]
            body = body.with_changes(body=[*body.body[:-1], last.with_changes(body=last.body[:-1])])  # type: ignore[attr-defined]
        self._check_ctx_uses(fdef, context, converter)
        if converter.stamped and self.record.kind == "value" and self._rebinds(fdef, value):
            raise Refused(f"process_element() assigns its record '{value}' (ctx.timestamp() reads it)")
        target: cst.BaseAssignTargetExpression = cst.Name(value)
        if self.record.kind == "value":
            target = cst.Tuple([cst.Element(cst.Name(value), comma=cst.Comma())])
        rows: cst.BaseExpression = cst.Name("rows")
        if self.time.order is not None:  # the source's order, as Flink's at parallelism 1 (``_plan``)
            if self.record.kind == "value" or self.sides or self.row_helpers or self._rebinds(fdef, value):
                raise Refused("its rows in the source's order need a record of fields it does not assign, and no side output")
            if self.time.order == "carry" and self.method == "flat_map" and (
                    len(_own_nodes(fdef.body, cst.Yield)) != 1 or _own_nodes(fdef.body, cst.For, cst.While)):
                raise Refused("a flat_map that may give several results per row (they would share its place in the order)")
            rows = cst.parse_expression(f"sorted(rows, key=lambda row: row.{SEQUENCE})")
        elif self.time.batch and self.time.stamp is not None:  # Flink's BATCH mode: a key's elements in timestamp order
            rows = cst.parse_expression(f"sorted(rows, key=lambda row: row.{self.time.stamp})")
            self.sorted_by = self.time.stamp
        loop = cst.For(target=target, iter=rows, body=body)  # type: ignore[arg-type]
        new_params = cst.Parameters([cst.Param(cst.Name(n)) for n in ("self", "key", "rows", "timerValues")])
        return fdef.with_changes(name=cst.Name("handleInputRows"), params=new_params, body=cst.IndentedBlock(self._generator([loop])), returns=None)

    def _two_inputs(self, first: cst.FunctionDef, second: cst.FunctionDef) -> cst.FunctionDef:
        """``process_element1``/``process_element2`` of a KeyedCoProcessFunction -> one
        ``handleInputRows`` over the key's rows of both inputs (``TWO_INPUTS``: ``row.input`` says
        which; the record is ``row.in1``/``row.in2``, a struct Spark hands over as a dict), each
        row through its input's body, with that input's record shape and timestamp field."""
        column, first_record, second_record = TWO_INPUTS
        branches = []
        for fdef, (record, time), field in zip((first, second), self.inputs, (first_record, second_record)):  # type: ignore[arg-type]
            if time.batch:
                raise Refused("BATCH mode (Flink sorts the two inputs' elements by timestamp)")
            self.record, self.time = record, time
            loop = self._process(fdef).body.body[0]  # type: ignore[attr-defined]
            read = {"value": f"row.{field}", "tuple": f"tuple(row.{field}.values())", "row": f"Row(**row.{field})"}[record.kind]
            assign = cst.parse_statement(f"{self.value} = {read}")
            branches.append(cst.IndentedBlock([assign, *loop.body.body]))
        self.time = Time()  # on_timer: no record
        test = cst.parse_expression(f"row.{column} == 1")
        body = cst.If(test=test, body=branches[0], orelse=cst.Else(branches[1]))
        loop = cst.For(target=cst.Name("row"), iter=cst.Name("rows"), body=cst.IndentedBlock([body]))
        new_params = cst.Parameters([cst.Param(cst.Name(n)) for n in ("self", "key", "rows", "timerValues")])
        return first.with_changes(name=cst.Name("handleInputRows"), params=new_params, body=cst.IndentedBlock(self._generator([loop])), returns=None)

    @staticmethod
    def _rebinds(fdef: cst.FunctionDef, name: str) -> bool:
        """Whether the body of ``fdef`` may bind ``name`` (an assignment, loop, with, walrus...)."""
        targets = [*_own_nodes(fdef.body, cst.AssignTarget, cst.For, cst.CompFor, cst.AsName, cst.AugAssign, cst.AnnAssign, cst.NamedExpr)]
        return any(n.value == name for t in targets for n in nodes(getattr(t, "target", None) or getattr(t, "name", t), cst.Name))

    def stamp(self) -> cst.BaseExpression:
        """``ctx.timestamp()`` in process_element(): the record's field the timestamp assigner reads."""
        if self.record.kind == "value":
            return cst.Name(self.value)
        index = [f.name for f in self.record.fields].index(self.time.stamp)
        return cst.parse_expression(f"{self.value}[{index}]")

    def _timer(self, fdef: cst.FunctionDef) -> cst.FunctionDef:
        params = _param_names(fdef)
        if len(params) != 3:
            raise Refused("on_timer() does not take (self, timestamp, ctx)")
        stamp, context = params[1], params[2]
        converter = _MethodBody(self, context, in_timer=True)
        body = fdef.body.visit(converter)
        self._check_ctx_uses(fdef, context, converter)
        first = [cst.parse_statement(f"{stamp} = expiredTimerInfo.getExpiryTimeInMs()")]
        if not any(n.value == stamp for n in _names(fdef.body)):
            first = []  # the body does not read the time
        new_params = cst.Parameters([cst.Param(cst.Name(n)) for n in ("self", "key", "timerValues", "expiredTimerInfo")])
        stmts = self._generator([*first, *body.body])  # type: ignore[attr-defined]
        return fdef.with_changes(name=cst.Name("handleExpiredTimer"), params=new_params, body=cst.IndentedBlock(stmts), returns=None)

    # -- yield -> Row ---------------------------------------------------------------------
    def _row_helpers(self) -> set:
        """The helper methods whose results are only yielded (``yield self.emit(...)``) and
        which return only ``Row(...)``: their returns become the output's Rows."""
        found = set()
        for fdef in self.cls.body.body:
            if not isinstance(fdef, cst.FunctionDef) or fdef.name.value in ("open", *self.methods, "on_timer", "__init__"):
                continue
            returns = _own_nodes(fdef.body, cst.Return)
            if not returns or _own_nodes(fdef.body, cst.Yield) or any(
                not isinstance(r.value, cst.Call) or self.resolver.qualified_name(r.value.func) not in ROWS for r in returns
            ):
                continue
            uses = [a for a in nodes(self.cls.body, cst.Attribute) if _self_attr(a) == fdef.name.value]
            calls = [self.resolver.parent(a) for a in uses]
            if uses and all(
                isinstance(c, cst.Call) and c.func is a and isinstance(self.resolver.parent(c), cst.Yield) for a, c in zip(uses, calls)
            ):
                found.add(fdef.name.value)
        return found

    def row(self, original: Optional[cst.BaseExpression], value: Optional[cst.BaseExpression]) -> cst.BaseExpression:
        """``Row(<output column>=v...)`` of the converted ``value`` of ``yield <original>``; with side
        outputs (``tagged_schema``) ``Row(output=None, main=Row(...), tag=None...)``, and ``yield TAG, v``
        ``Row(output="tag", main=None, tag=Row(...))``."""
        if value is None:
            raise Refused("a bare yield")
        if isinstance(original, cst.Tuple) and len(original.elements) == 2 and isinstance(original.elements[0].value, cst.Name):
            from flink2spark.rules.pyflink._side_outputs import output_tag

            name = original.elements[0].value.value  # type: ignore[attr-defined]
            if name not in self.sides and output_tag(self.resolver, original.elements[0].value) is not None:
                raise Refused(f"it yields to the side output {name}, which no get_side_output() of a tag of a basic type reads")
        if not self.sides:
            return self._row(original, value, self.output)
        tag = None
        if isinstance(original, cst.Tuple) and len(original.elements) == 2 and isinstance(original.elements[0].value, cst.Name):
            tag = self.sides.get(original.elements[0].value.value)  # type: ignore[attr-defined]
        if tag is not None:
            inner = self._row(original.elements[1].value, value.elements[1].value, tag[1])  # type: ignore[attr-defined, union-attr]
        else:
            inner = self._row(original, value, self.output)
        parts = [(_TAG, cst.SimpleString(repr(tag[0])) if tag else cst.Name("None")), (_MAIN, cst.Name("None") if tag else inner)]
        parts += [(name, inner if tag and name == tag[0] else cst.Name("None")) for name, _ in self.sides.values()]
        equal = cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace(""))
        return cst.Call(func=cst.Name("Row"), args=[cst.Arg(v, keyword=cst.Name(k), equal=equal) for k, v in parts])

    def _row(self, original: Optional[cst.BaseExpression], value: cst.BaseExpression, output) -> cst.BaseExpression:
        """``Row(<column>=v...)`` of the results of the Shape ``output``."""
        fields = output.fields
        if isinstance(original, cst.Call) and _self_attr(original.func) in self.row_helpers and output is self.output:
            return value  # the helper returns the Row
        if isinstance(original, cst.Name) and original.value == self.value and self.record.kind != "value" and output is self.output:
            if self.time.order == "sort":
                raise Refused("it gives its record, whose place in the order (a column) is not among the results'")
            return value  # the record's Row (``_whole_record``: the output type's fields), with its SEQUENCE when carried
        if output.kind == "value":
            if isinstance(value, cst.Tuple):
                raise Refused("it yields a tuple (a side output?) to a stream of single values")
            items = [value]
        elif output.kind == "tuple":
            if not isinstance(value, cst.Tuple) or len(value.elements) != len(fields) or any(isinstance(e, cst.StarredElement) for e in value.elements):
                raise Refused(f"it yields something else than a tuple of {len(fields)} values")
            items = [e.value for e in value.elements]
        else:
            if not isinstance(value, cst.Call) or self.resolver.qualified_name(original.func) not in ROWS:  # type: ignore[union-attr]
                raise Refused("it yields something else than a Row(...)")
            if all(a.keyword is None and not a.star for a in value.args):
                items = [a.value for a in value.args]
            elif [a.keyword.value if a.keyword else None for a in value.args] == [f.name for f in fields]:
                items = [a.value for a in value.args]
            else:
                raise Refused("it yields a Row(...) whose fields are not the output type's, in its order")
            if len(items) != len(fields):
                raise Refused("it yields a Row(...) of another arity than the output type")
        if self.time.order == "carry":  # each result takes its row's place in the source's order
            items, fields = [*items, cst.parse_expression(f"{self.value}.{SEQUENCE}")], [*fields, type("F", (), {"name": SEQUENCE})]
        args = [
            cst.Arg(v, keyword=cst.Name(f.name), equal=cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace("")))
            for f, v in zip(fields, items)
        ]
        return cst.Call(func=cst.Name("Row"), args=args)

    # -- the class ------------------------------------------------------------------------
    def run(self) -> Processor:
        cls = self.cls
        if len(cls.bases) != 1 or cls.keywords or cls.decorators:
            raise Refused(f"it has other bases, keywords or decorators than {self.base}")
        base = self.resolver.qualified_name(cls.bases[0].value) or ""
        if (P.PROCESS_FUNCTIONS.get(base) if self.method == "process_element" else P.FUNCTION_CLASSES.get(base, ("",))[0]) != self.base:
            raise Refused(f"it does not derive from {self.base} directly")
        self._check_flink_names()
        if keeps_instance_data(cls):
            raise Refused("it keeps data in its instance (self.x = ... outside open()): Spark's instances are not Flink's")
        self._check_new_names()
        body = []
        for stmt in cls.body.body:
            if isinstance(stmt, cst.FunctionDef) and stmt.decorators:
                raise Refused(f"{stmt.name.value}() has decorators")
        # open() first: it declares the states the other methods read
        opener = self._method("open")
        if opener is not None:
            self._init(opener)  # fills self.states (the result is built again below, once timers are known)
        process = self._method(self.methods[0])
        second = self._method(self.methods[1]) if self.inputs else None
        if process is None or self.inputs and second is None:
            raise Refused(f"it has no {' / '.join(self.methods)}()")
        if self.method != "process_element" and (self._method("on_timer") or self._method("process_element")):
            raise Refused(f"a {self.base} with on_timer()/process_element() (Flink calls neither)")
        if self._method("init") or self._method("handleInputRows") or self._method("handleExpiredTimer"):
            raise Refused("it defines a method of StatefulProcessor's")
        self.row_helpers = self._row_helpers()
        converted: dict[int, cst.CSTNode] = {}
        for stmt in cls.body.body:
            if not isinstance(stmt, cst.FunctionDef) or stmt is opener:
                continue
            if stmt is process:
                converted[id(stmt)] = self._two_inputs(process, second) if self.inputs else self._process(stmt)
            elif stmt is second:
                continue  # in the first input's handleInputRows
            elif stmt.name.value == "on_timer":
                converted[id(stmt)] = self._timer(stmt)
            else:
                converter = _MethodBody(self, None, in_timer=False, init=stmt.name.value == "__init__", row_helper=stmt.name.value in self.row_helpers)
                converted[id(stmt)] = stmt.visit(converter)
        init = self._init(opener)
        placed = False
        for stmt in cls.body.body:
            if stmt is second:
                continue  # in the first input's handleInputRows
            if stmt is opener:
                body.append(init)
                placed = True
            elif id(stmt) in converted:
                if stmt is process and not placed:
                    body.append(init)
                    placed = True
                body.append(converted[id(stmt)])
            else:
                body.append(stmt)
        if self.value_read:
            body.append(cst.parse_statement(_VALUE_METHOD.lstrip("\n")))
        body.extend(cst.parse_statement(code.lstrip("\n")) for code in self.helpers.values())
        new = cls.with_changes(
            bases=[cls.bases[0].with_changes(value=cst.Name("StatefulProcessor"))],
            body=cls.body.with_changes(body=body),
        )
        self._check_left(new)
        if len(self.domains) > 1:
            raise Refused("event-time and processing-time timers (Spark's have one time domain: on_timer could not tell them apart)")
        if "processing" in self.domains and (self.time.batch or any(t.batch for _, t in self.inputs or ())):
            raise Refused("processing time in BATCH mode (Flink's processing-time timers there are not Spark's)")
        mode = "ProcessingTime" if self.timers or self.ttl or self.domains else "None"  # Spark's TTL needs processing time
        schema = tagged_schema(self.output, self.sides) if self.sides else output_schema(self.output)
        if self.time.order == "carry":
            schema += f", {SEQUENCE} bigint"
        return Processor(new, schema, mode, self.timers, dict(self.states), self.sorted_by, self.map_order, dict(self.ttl), list(self.function_classes),
                         self.domains == {"processing"})


class _OpenBody(cst.CSTTransformer):
    """``self.s = ctx.get_state(ValueStateDescriptor(n, Types.X()))`` ->
    ``self.s = handle.getValueState(n, "value x")``; counts the uses of the context it converts."""

    def __init__(self, tr: _Translation, context: str, body: cst.CSTNode):
        self.tr = tr
        self.context = context
        self.uses = 0
        self.body = body
        self.descriptors: dict[str, cst.Call] = {}  # d = ValueStateDescriptor(...) read once by get_state(d)
        self.ttl: dict[str, int] = {}  # descriptor variable -> ttlDurationMs of its d.enable_time_to_live(...)

    def leave_SimpleStatementLine(self, original: cst.SimpleStatementLine, updated):
        stmt = original.body[0] if len(original.body) == 1 else None
        if isinstance(stmt, cst.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0].target, cst.Name):
            value = stmt.value
            if isinstance(value, cst.Call) and self.tr.resolver.qualified_name(value.func) in STATE_DESCRIPTORS:
                name = stmt.targets[0].target.value
                ttl = self._ttl_statements(name)
                if sum(1 for n in _names(self.body) if n.value == name) != 2 + ttl:
                    raise Refused(f"open() uses its descriptor '{name}' other than in one get_state({name})")
                self.descriptors[name] = value
                return cst.RemoveFromParent()
        ttl = self._ttl(stmt)
        if ttl is not None:
            if ttl[0] not in self.descriptors or ttl[0] in self.ttl:
                raise Refused(f"open() enables a TTL on '{ttl[0]}' other than once, after its descriptor")
            self.ttl[ttl[0]] = ttl[1]
            return cst.RemoveFromParent()
        return updated

    def _ttl_statements(self, name: str) -> int:
        """The ``name.enable_time_to_live(...)`` statements of open()."""
        return sum(
            1
            for line in nodes(self.body, cst.SimpleStatementLine)
            if len(line.body) == 1 and isinstance(line.body[0], cst.Expr) and _method_call(line.body[0].value, name) == "enable_time_to_live"
        )

    def _ttl(self, stmt) -> Optional[tuple[str, int]]:
        """(descriptor variable, ms) of ``d.enable_time_to_live(StateTtlConfig.new_builder(Time.hours(1)).build())``
        (cleanup settings may come before ``build()``: expired values are never returned either way). Flink's
        defaults (``OnCreateAndWrite``, ``NeverReturnExpired``) are Spark's: a write sets the expiry, an expired
        value is not returned; another update type or visibility is refused."""
        if not isinstance(stmt, cst.Expr) or not isinstance(stmt.value, cst.Call) or not isinstance(stmt.value.func, cst.Attribute):
            return None
        call = stmt.value
        if call.func.attr.value != "enable_time_to_live" or not isinstance(call.func.value, cst.Name):  # type: ignore[attr-defined]
            return None
        descriptor = call.func.value.value  # type: ignore[attr-defined]
        config = call.args[0].value if len(call.args) == 1 and call.args[0].keyword is None else None
        if _method_call(config) != "build" or config.args:  # type: ignore[union-attr]
            raise Refused("enable_time_to_live() of something else than StateTtlConfig.new_builder(time)...build()")
        builder = config.func.value  # type: ignore[union-attr]
        while _method_call(builder) in _TTL_CLEANUPS:
            builder = builder.func.value  # type: ignore[attr-defined]
        if _method_call(builder) != "new_builder" or self.tr.resolver.qualified_name(builder.func.value) not in _TTL_CONFIGS or len(builder.args) != 1:  # type: ignore[attr-defined]
            raise Refused("a StateTtlConfig with other settings than its time and cleanup (update type, visibility...)")
        time = builder.args[0].value  # type: ignore[attr-defined]
        unit = _method_call(time)
        if unit not in _TTL_UNITS or self.tr.resolver.qualified_name(time.func.value) not in _TTL_TIMES or len(time.args) != 1:  # type: ignore[attr-defined]
            raise Refused("a StateTtlConfig of another time than Time.x(n) or Duration.of_x(n)")
        amount = time.args[0].value  # type: ignore[attr-defined]
        if not isinstance(amount, cst.Integer):
            raise Refused("a StateTtlConfig of a time that is not an integer literal")
        return descriptor, int(amount.evaluated_value) * _TTL_UNITS[unit]  # type: ignore[arg-type]

    def leave_Assign(self, original: cst.Assign, updated: cst.Assign):
        if _method_call(original.value, self.context) is None:
            return updated
        method = _method_call(original.value, self.context)
        target = original.targets[0].target if len(original.targets) == 1 else None
        attr = _self_attr(target) if target is not None else None
        kinds = {m: (d, k, h) for (m, d), (k, h) in _STATES.items()}
        if method not in kinds or attr is None:
            raise Refused(f"open() calls {self.context}.{method}() other than as self.x = {self.context}.get_state/get_list_state(...)")
        descriptor_class, kind, handle_method = kinds[method]
        call = original.value
        if len(call.args) != 1 or call.args[0].keyword is not None:  # type: ignore[attr-defined]
            raise Refused(f"{method}() with other arguments than a descriptor")
        descriptor = call.args[0].value  # type: ignore[attr-defined]
        ttl = None
        if isinstance(descriptor, cst.Name) and descriptor.value in self.descriptors:
            ttl = self.ttl.get(descriptor.value)
            if ttl is None and self._ttl_statements(descriptor.value):
                raise Refused(f"open() enables a TTL on '{descriptor.value}' after get_state()")
            descriptor = self.descriptors[descriptor.value]
        name, kind, typ, function = self.tr._state_type(descriptor, descriptor_class)
        if attr in self.tr.states and self.tr.states[attr] != (kind, typ):
            raise Refused(f"self.{attr} holds states of two types")
        if function is not None:
            self.tr.functions[attr] = function
        self.tr.states[attr] = (kind, typ)
        self.uses += 1
        schemas = [f"key {typ[0]}", f"value {typ[1]}"] if kind == "map" else [typ if kind.endswith("tuple") else f"value {typ}"]
        args = [name, *(cst.SimpleString(f'"{t}"') for t in schemas)]
        comma = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
        arguments = [cst.Arg(a, comma=comma if i < len(args) - 1 else cst.MaybeSentinel.DEFAULT) for i, a in enumerate(args)]
        if ttl is not None:
            self.tr.ttl[attr] = ttl
            arguments[-1] = arguments[-1].with_changes(comma=comma)
            equal = cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace(""))
            arguments.append(cst.Arg(cst.Integer(f"{ttl:_}" if ttl >= 10_000 else str(ttl)), keyword=cst.Name("ttlDurationMs"), equal=equal))
        new = cst.Call(func=cst.Attribute(cst.Name("handle"), cst.Name(handle_method)), args=arguments)
        return updated.with_changes(value=new)


def _returns_last(stmt: cst.BaseStatement) -> bool:
    """Whether ``stmt`` is ``return <value>`` (a map's last statement: every path returns)."""
    return isinstance(stmt, cst.SimpleStatementLine) and isinstance(stmt.body[-1], cst.Return) and stmt.body[-1].value is not None


class _MethodBody(cst.CSTTransformer):
    """The Flink calls of a method body as StatefulProcessor code (see the module's docstring)."""

    def __init__(self, tr: _Translation, context: Optional[str], in_timer: bool, init: bool = False, row_helper: bool = False):
        self.row_helper = row_helper  # a helper whose returns are the output's Rows (``_row_helpers``)
        self.init = init  # __init__: ``self.s = None`` before open() sets the state is allowed
        self.tr = tr
        self.context = context
        self.in_timer = in_timer
        self.context_uses = 0
        self.stamped = False  # ctx.timestamp() read
        self.depth = 0  # functions, lambdas and classes defined in the body
        self.loops = 0

    # the method's own statements (returns, yields) are not those of what it defines
    def visit_FunctionDef(self, node):
        self.depth += 1

    def leave_FunctionDef(self, original, updated):
        self.depth -= 1
        return updated

    def visit_Lambda(self, node):
        self.depth += 1

    def leave_Lambda(self, original, updated):
        self.depth -= 1
        return updated

    def visit_ClassDef(self, node):
        self.depth += 1

    def leave_ClassDef(self, original, updated):
        self.depth -= 1
        return updated

    # a loop of the body: a ``return`` in it cannot become the ``continue`` of the rows' loop
    def visit_For(self, node):
        self.loops += 1

    def leave_For(self, original, updated):
        self.loops -= 1
        return updated

    def visit_While(self, node):
        self.loops += 1

    def leave_While(self, original, updated):
        self.loops -= 1
        return updated

    def leave_Return(self, original: cst.Return, updated: cst.Return):
        if self.row_helper and self.depth == 1:  # the helper's own returns (it is visited as a def)
            return updated.with_changes(value=self.tr._row(original.value, updated.value, self.tr.output))  # type: ignore[arg-type]
        if self.depth or self.context is None or self.in_timer:
            return updated
        if self.tr.method == "map":  # the map's result: yield it, then the next row
            if original.value is None or self.loops:
                raise Refused("map() returns " + ("from inside a loop" if self.loops else "None"))
            row = self.tr.row(original.value, updated.value)  # type: ignore[arg-type]
            return cst.FlattenSentinel([cst.Expr(cst.Yield(row)), cst.Continue()])
        if original.value is not None:
            raise Refused("process_element() returns a value")
        if self.loops:
            raise Refused("process_element() returns from inside a loop")
        return cst.Continue()

    def leave_Yield(self, original: cst.Yield, updated: cst.Yield):
        if self.depth:
            return updated
        if self.context is None:
            raise Refused("a helper method yields (its results cannot be told apart from other values)")
        if isinstance(updated.value, cst.From):
            raise Refused("yield from in process_element()/on_timer()")
        return updated.with_changes(value=self.tr.row(original.value, updated.value))  # type: ignore[arg-type]

    def leave_Call(self, original: cst.Call, updated: cst.Call):
        # the context: ctx.get_current_key(), ctx.timer_service().xxx(t)
        if self.context is not None:
            if _method_call(original, self.context) == "get_current_key" and not original.args:
                self.context_uses += 1
                return cst.Subscript(cst.Name("key"), [cst.SubscriptElement(cst.Index(cst.Integer("0")))])
            if _method_call(original, self.context) == "timestamp" and not original.args:
                if self.in_timer or self.tr.time.stamp is None:
                    raise Refused("it reads ctx.timestamp() " + ("in on_timer()" if self.in_timer else "of records whose timestamp is not one of their fields"))
                self.context_uses += 1
                self.stamped = True
                return self.tr.stamp()
            inner = original.func.value if isinstance(original.func, cst.Attribute) else None
            if inner is not None and _method_call(inner, self.context) == "timer_service" and not inner.args:  # type: ignore[arg-type]
                method = original.func.attr.value  # type: ignore[attr-defined]
                if method == "current_watermark" and not original.args:
                    if not self.tr.time.batch:
                        raise Refused("it reads current_watermark() in STREAMING mode (when Flink's periodic watermark comes is not in the program)")
                    self.context_uses += 1  # BATCH: no watermark while elements come, Long.MAX_VALUE for the timers
                    return cst.Integer("9223372036854775807") if self.in_timer else cst.UnaryOperation(cst.Minus(), cst.Integer("9223372036854775808"))
                if method == "current_processing_time" and not original.args:
                    # Spark's clock: one time per micro-batch (Flink's: the wall clock at each call; NOTE F2S232)
                    self.context_uses += 1
                    self.tr.domains.add("processing")
                    return cst.parse_expression("timerValues.getCurrentProcessingTimeInMs()")
                spark = {"register_event_time_timer": "registerTimer", "delete_event_time_timer": "deleteTimer",
                         "register_processing_time_timer": "registerTimer", "delete_processing_time_timer": "deleteTimer"}.get(method)
                if spark is None:
                    raise Refused(f"it calls timer_service().{method}()")
                if self.in_timer and method.startswith("register_"):
                    raise Refused("on_timer() registers a timer (Spark would not fire it in the same batch; Flink does)")
                self.tr.domains.add("processing" if "processing" in method else "event")
                if len(original.args) != 1 or original.args[0].keyword is not None:
                    raise Refused(f"timer_service().{method}() with other arguments than a time")
                self.tr.timers = True
                self.context_uses += 1
                return cst.Call(func=cst.Attribute(cst.parse_expression("self.handle"), cst.Name(spark)), args=updated.args)
        # the states: self.s.value() / update(v) / clear()
        func = original.func
        if isinstance(func, cst.Attribute):
            attr = _self_attr(func.value)
            kind = self.tr.states[attr][0] if attr is not None and attr in self.tr.states else None
            if kind in ("list", "list_tuple"):
                return self._list_call(original, updated, attr, func.attr.value)  # type: ignore[arg-type]
            if kind == "map":
                return self._map_call(original, updated, attr, func.attr.value)  # type: ignore[arg-type]
            if kind in ("reducing", "aggregating", "aggregating_tuple"):
                return self._function_call(original, updated, attr, func.attr.value)  # type: ignore[arg-type]
            if attr is not None and attr in self.tr.states:
                method = func.attr.value
                tuple_state = self.tr.states[attr][0] == "tuple"
                if method == "value" and not original.args:
                    if tuple_state:  # Flink's value is a tuple (Spark's a Row, which prints with names) or None
                        read = cst.parse_expression(f"tuple(self.{attr}.get() or ()) or None")
                        parent = self.tr.resolver.parent(original)
                        if isinstance(parent, (cst.Assign, cst.Return, cst.Arg, cst.Element)):
                            return read
                        return read.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])  # ``x or None is None``
                    if self.tr.value_helper is None:
                        return cst.parse_expression(f"(self.{attr}.get() or (None,))[0]")
                    self.tr.value_read = True
                    return cst.parse_expression(f"self.{self.tr.value_helper}(self.{attr})")
                if method == "update" and len(original.args) == 1 and original.args[0].keyword is None:
                    if tuple_state:
                        return updated.with_changes(args=[cst.Arg(cst.Call(cst.Name("tuple"), [cst.Arg(updated.args[0].value)]))])
                    one = cst.Tuple([cst.Element(updated.args[0].value, comma=cst.Comma())])
                    return updated.with_changes(args=[cst.Arg(one)])
                if method == "clear" and not original.args:
                    return updated
                raise Refused(f"it calls self.{attr}.{method}() on a ValueState")
        return updated

    @staticmethod
    def _args(original: cst.Call, count: int) -> bool:
        return len(original.args) == count and all(a.keyword is None and not a.star for a in original.args)

    def _helper(self, name: str, **parts: str) -> str:
        """``name``, one of the helper methods the new class gets (``_HELPERS``)."""
        if any(n.value == name for n in _names(self.tr.cls.body)):
            raise Refused(f"it uses the name '{name}', which a helper of the new class takes")
        code = _HELPERS[name].format(**parts) if parts else _HELPERS[name]
        if self.tr.helpers.setdefault(name, code) != code:
            raise Refused(f"two states need two forms of the helper {name}()")
        return name

    def _list_call(self, original: cst.Call, updated: cst.Call, attr: str, method: str) -> cst.BaseExpression:
        """``get()`` -> a list of the values (Spark's are tuples; a Tuple state's are Rows: ``tuple(v)``);
        ``add(v)`` -> ``appendValue((v,))``; ``update(l)``/``add_all(l)`` -> the helpers ``put_list``/
        ``append_list`` (Spark fails on an empty list, ``put([])``/``appendList([])``, where Flink clears
        or adds nothing); ``clear()``."""
        tuples = self.tr.states[attr][0] == "list_tuple"
        if method == "get" and not original.args:
            if tuples and self._unpacked(original):
                return updated  # ``for t, a in self.l.get()``: a Row unpacks as the tuple does
            return cst.parse_expression(f"[tuple(v) for v in self.{attr}.get()]" if tuples else f"[v for (v,) in self.{attr}.get()]")
        if method == "add" and self._args(original, 1):
            value = updated.args[0].value
            if tuples and not (isinstance(value, cst.Tuple) and not any(isinstance(e, cst.StarredElement) for e in value.elements)):
                value = cst.Call(cst.Name("tuple"), [cst.Arg(value)])
            one = value if tuples else cst.Tuple([cst.Element(value, comma=cst.Comma())])
            return updated.with_changes(func=updated.func.with_changes(attr=cst.Name("appendValue")), args=[cst.Arg(one)])  # type: ignore[attr-defined]
        if method in ("update", "add_all") and self._args(original, 1):
            given = updated.args[0].value
            literal = isinstance(given, cst.List) and not any(isinstance(e, cst.StarredElement) for e in given.elements)
            if literal and not given.elements:  # type: ignore[union-attr]
                # update([]) clears; add_all([]) adds nothing (its statement goes: leave_SimpleStatementLine)
                return cst.parse_expression(f"self.{attr}.clear()" if method == "update" else "None")
            method_name = "put" if method == "update" else "appendList"
            if literal and all(isinstance(e.value, cst.Tuple) or not tuples for e in given.elements):  # type: ignore[union-attr]
                values: cst.BaseExpression = given.with_changes(elements=[  # type: ignore[union-attr]
                    e if tuples else e.with_changes(value=cst.Tuple([cst.Element(e.value, comma=cst.Comma())])) for e in given.elements  # type: ignore[union-attr]
                ])
                return cst.parse_expression(f"self.{attr}.{method_name}(_)").with_changes(args=[cst.Arg(values)])
            helper = self._helper("put_list" if method == "update" else "append_list")
            values = cst.parse_expression("[tuple(v) for v in _]" if tuples else "[(v,) for v in _]")
            values = values.with_changes(for_in=values.for_in.with_changes(iter=given))  # type: ignore[attr-defined]
            return cst.Call(
                cst.parse_expression(f"self.{helper}"),
                [cst.Arg(cst.parse_expression(f"self.{attr}"), comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))), cst.Arg(values)],
            )
        if method == "clear" and not original.args:
            return updated
        raise Refused(f"it calls self.{attr}.{method}() on a ListState")

    def _unpacked(self, call: cst.Call) -> bool:
        """Whether ``call`` is the iterable of a ``for`` (statement or comprehension) whose target is a tuple."""
        parent = self.tr.resolver.parent(call)
        return isinstance(parent, (cst.For, cst.CompFor)) and parent.iter is call and isinstance(parent.target, (cst.Tuple, cst.List))

    def _map_call(self, original: cst.Call, updated: cst.Call, attr: str, method: str) -> cst.BaseExpression:
        """A MapState's methods as Spark's, whose keys and values are 1-tuples: ``get(k)`` ->
        ``(getValue((k,)) or (None,))[0]`` (None when absent, as Flink's), ``put(k, v)`` ->
        ``updateValue((k,), (v,))``, ``contains(k)`` -> ``containsKey((k,))``, ``remove(k)`` ->
        ``removeKey((k,))``, ``keys()``/``values()``/``items()`` -> lists of Spark's ``keys()``/
        ``values()``/``iterator()``, ``is_empty()`` -> ``not exists()``, ``clear()``. Where the order
        of an iteration can reach the results (anything but ``sorted``/``set``/``min``/``max``/``any``/
        ``all`` of it): NOTE F2S262."""
        one = [cst.Arg(cst.Tuple([cst.Element(a.value, comma=cst.Comma())])) for a in updated.args]
        spark = {"get": ("getValue", 1), "put": ("updateValue", 2), "contains": ("containsKey", 1), "remove": ("removeKey", 1)}
        if method in spark and self._args(original, spark[method][1]):
            if len(one) == 2:
                one[0] = one[0].with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
            call = updated.with_changes(func=updated.func.with_changes(attr=cst.Name(spark[method][0])), args=one)  # type: ignore[attr-defined]
            if method == "get":
                return cst.parse_expression(f"({cst.Module([]).code_for_node(call)} or (None,))[0]")
            return call
        listed = {"keys": f"[k for (k,) in self.{attr}.keys()]", "values": f"[v for (v,) in self.{attr}.values()]",
                  "items": f"[(k, v) for (k,), (v,) in self.{attr}.iterator()]"}
        if method in listed and not original.args:
            if not self._order_free(original):
                self.tr.map_order = True
            return cst.parse_expression(listed[method])
        if method == "is_empty" and not original.args:
            return cst.parse_expression(f"not self.{attr}.exists()")
        if method == "clear" and not original.args:
            return updated
        raise Refused(f"it calls self.{attr}.{method}() on a MapState")

    def _order_free(self, call: cst.Call) -> bool:
        """Whether ``call`` (a MapState's iteration) is read only where its order changes nothing:
        the argument of ``sorted``/``set``/``min``/``max``/``any``/``all`` (no ``key=``), or the
        iterable of the one ``for`` of a generator that is."""
        resolver = self.tr.resolver
        node: cst.CSTNode = call
        parent = resolver.parent(node)
        if isinstance(parent, cst.CompFor) and parent.iter is node and parent.inner_for_in is None:
            node = resolver.parent(parent)
            if not isinstance(node, cst.GeneratorExp) or node.for_in is not parent:
                return False
            parent = resolver.parent(node)
        elif isinstance(parent, cst.Arg):
            node, parent = parent, resolver.parent(parent)
        if isinstance(parent, cst.Arg):
            node, parent = parent, resolver.parent(parent)
        return (
            isinstance(parent, cst.Call)
            and isinstance(parent.func, cst.Name)
            and parent.func.value in _ORDER_FREE
            and not resolver.qualified_name(parent.func)
            and len(parent.args) == 1
            and parent.args[0] is node
        )

    def _function_call(self, original: cst.Call, updated: cst.Call, attr: str, method: str) -> cst.BaseExpression:
        """A ReducingState/AggregatingState (a ValueState of the value/accumulator): ``add(v)`` ->
        ``self.reduce_into(self.s, F(), v)``/``self.aggregate_into(...)``, ``get()`` -> the value or
        ``self.aggregate_result(self.s, F())``, ``clear()``."""
        kind = self.tr.states[attr][0]
        function = self.tr.functions[attr]
        parts = {"read": "tuple(found)", "write": "tuple(function.add(value, accumulator))"} if kind == "aggregating_tuple" else {
            "read": "found[0]", "write": "(function.add(value, accumulator),)"}
        if method == "add" and self._args(original, 1):
            helper = self._helper("reduce_into") if kind == "reducing" else self._helper("aggregate_into", **parts)
            return cst.parse_expression(f"self.{helper}(self.{attr}, {function}, _)").with_changes(
                args=[*cst.parse_expression(f"f(self.{attr}, {function}, _)").args[:2], cst.Arg(updated.args[0].value)]  # type: ignore[attr-defined]
            )
        if method == "get" and not original.args:
            if kind == "reducing":
                if self.tr.value_helper is None:
                    return cst.parse_expression(f"(self.{attr}.get() or (None,))[0]")
                self.tr.value_read = True
                return cst.parse_expression(f"self.{self.tr.value_helper}(self.{attr})")
            helper = self._helper("aggregate_result", read=parts["read"])
            return cst.parse_expression(f"self.{helper}(self.{attr}, {function})")
        if method == "clear" and not original.args:
            return updated
        raise Refused(f"it calls self.{attr}.{method}() on a {'Reducing' if kind == 'reducing' else 'Aggregating'}State")

    def leave_SimpleStatementLine(self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine):
        """``self.l.add_all([])`` (adds nothing) goes (``pass`` when it is its block's only statement)."""
        stmt = original.body[0] if len(original.body) == 1 else None
        call = stmt.value if isinstance(stmt, cst.Expr) else None
        if (
            _method_call(call) == "add_all"
            and self.tr.states.get(_self_attr(call.func.value) or "", ("",))[0] in ("list", "list_tuple")  # type: ignore[union-attr]
            and isinstance(call.args[0].value, cst.List)  # type: ignore[union-attr]
            and not call.args[0].value.elements  # type: ignore[union-attr]
        ):
            block = self.tr.resolver.parent(original)
            if isinstance(block, cst.IndentedBlock) and len(block.body) == 1:
                return updated.with_changes(body=[cst.Pass()])
            return cst.RemoveFromParent()
        return updated

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute):
        attr = _self_attr(original)
        if attr is not None and attr in self.tr.states:
            parent = self.tr.resolver.parent(original)
            if self.init and isinstance(parent, cst.AssignTarget):
                value = self.tr.resolver.parent(parent).value  # type: ignore[union-attr]
                if isinstance(value, cst.Name) and value.value == "None":
                    return updated
            if not isinstance(parent, cst.Attribute):
                raise Refused(f"it uses the state self.{attr} other than by value()/update()/clear()")
        return updated


# --------------------------------------------------------------------------------------------
# the program model's side (``_streams.NATIVE_CONSUMERS``): key_by and process over a frame

_NAMES_USED = ("Row", "StatefulProcessor")  # names the output imports from pyspark


def key_column(g, call: cst.Call, shape) -> Optional[str]:
    """The key selector of ``key_by(call)`` over a frame of ``shape`` as one Column's code
    (``python_columns``: exact, a value that is never None), once per call; else None."""
    return g.fact("tws_key", call, _key_column, None, shape)


def _key_column(g, call: cst.Call, shape) -> Optional[str]:
    from flink2spark.rules.pyflink._common import call_arg
    from flink2spark.rules.pyflink._frames import function_node
    from flink2spark.transpiler.python_columns import Refusal
    from flink2spark.transpiler.python_columns import translate as columns

    fn = function_node(g.resolver, call_arg(call, 0, "key_selector"), "get_key")
    if fn is None:
        return None
    found = columns(fn, shape, predicate=False, checked=False, qualified=g.resolver.qualified_name)
    if isinstance(found, Refusal) or found.notes or found.tuple or found.outputs[0].nullable:
        return None
    return found.code


def keyed_shape(g, call: cst.Call, shape):
    """``key_by`` over a frame read only by ``process()`` (a grouped DataFrame has no other
    use here: the other keyed operators, ``print()`` of a keyed stream... are not in the
    table for it): the same records, grouped by the key Column; or None."""
    from flink2spark.rules.pyflink._streams import _frame_uses

    uses = _frame_uses(g, call)
    if not uses or any(u.func.attr.value not in OPERATORS or (u.func.attr.value != "process" and not isinstance(plan(g, u, shape), Plan))
                       for u in uses):  # type: ignore[attr-defined]
        return None
    return shape if key_column(g, call, shape) is not None else None


def stateful_class(g, call: cst.Call) -> bool:
    """Whether the function of ``call`` is an instance of a module class whose ``open()`` asks
    its runtime context for state (the class a keyed map/flat_map would run as a StatefulProcessor)."""
    from flink2spark.rules.pyflink._common import call_arg, instance_class

    cls = instance_class(g.resolver, call_arg(call, 0, "func"))
    opener = next((s for s in cls.body.body if isinstance(s, cst.FunctionDef) and s.name.value == "open"), None) if cls is not None else None
    return opener is not None and any(_method_call(c) in {m for m, _ in _STATES} for c in nodes(opener, cst.Call))


@dataclass
class Plan:
    """A keyed ``process(F(), output_type=T)`` over a frame, as transformWithState."""

    processor: Processor
    output: object  # python_columns.Shape of the results
    cls: cst.ClassDef  # the user's class (original node)
    ordered: bool  # whether the order of a key's rows can change a result (NOTE F2S266)
    one: bool = False  # a keyed map/flat_map whose results depend on that order: its input in one partition, in source order (NOTE F2S291)
    order: Optional[str] = None  # Time.order: its rows sorted by SEQUENCE ("sort"), which its results keep ("carry": numbered at the source)


def plan(g, call: cst.Call, shape) -> Union[Plan, str]:
    """The transformWithState form of the keyed ``process`` ``call`` over a frame of
    ``shape``, once per call; else why there is none (the stream stays an RDD)."""
    return g.fact("tws_plan", call, _plan, "not computed", shape)


def two_input_shape(g, call: cst.Call, shape):
    """NATIVE_CONSUMERS: ``connect(b)`` of two frames, its ``key_by(k1, k2)`` and their
    ``process(KeyedCoProcessFunction)`` (``two_input_plan``): the results' shape (the connected
    streams are no frame of their own)."""
    from flink2spark.rules.pyflink._streams import _frame_uses

    chain = ("connect", "key_by", "process")
    method = call.func.attr.value  # type: ignore[attr-defined]
    if method not in chain:
        return None
    process = call
    for _ in range(2 - chain.index(method)):  # the process() reading the connect()/key_by()
        uses = _frame_uses(g, process) or []
        if len(uses) != 1:
            return None
        process = uses[0]
    if _method_call(process) != "process":
        return None
    if method != "connect" and g.resolver.type_of(call.func.value) != P.CONNECTED:  # type: ignore[attr-defined]
        return None
    found = two_input_plan(g, process)
    return found.output if isinstance(found, TwoInputPlan) else None


def processed_shape(g, call: cst.Call, shape):
    """``KeyedStream.process`` (or ``map``/``flat_map`` of a function class with keyed state)
    over a frame: the shape of its results, or None."""
    if g.resolver.type_of(call.func.value) != P.KEYED:  # type: ignore[attr-defined]
        return None
    found = plan(g, call, shape)
    return found.output if isinstance(found, Plan) else None


def _class_and_output(g, call: cst.Call, shape):
    """(the function class, the results' Shape) of the keyed ``call`` over a frame of ``shape``;
    else why there are none."""
    from flink2spark.rules.pyflink._common import call_arg, record_shape
    from flink2spark.rules.pyflink._frames import FRAME_TYPES

    cls = _function_class(g, call)
    if isinstance(cls, str):
        return cls
    if group_by(g, call, shape) is None:
        return "a key of several fields (get_current_key() would be a tuple)"
    info = call_arg(call, 1, "output_type")
    output = record_shape(g.resolver, info) if info is not None else None
    if output is None or any(f.type not in FRAME_TYPES for f in output.fields):
        return "no output_type of basic types (the results' schema)"
    return cls, output


def _plan(g, call: cst.Call, shape) -> Union[Plan, str]:
    resolver = g.resolver
    found_class = _class_and_output(g, call, shape)
    if isinstance(found_class, str):
        return found_class
    cls, output = found_class
    found = translate(resolver, cls, shape, output, time_facts(g, call, shape), call.func.attr.value)  # type: ignore[attr-defined]
    if isinstance(found, str):
        return found
    if call.func.attr.value != "process" and not found.states:  # type: ignore[attr-defined]
        return "a map/flat_map function without keyed state (a transformWithState would only group its rows)"
    # a class with no state nor timer handles each row alone: the order of a key's rows changes nothing
    ordered = bool(found.states or found.timers) and not _same_records(g, call, shape)
    one = False
    if ordered and call.func.attr.value != "process":  # type: ignore[attr-defined]
        # a keyed map/flat_map is exact or stays an RDD (whose shim keeps the arrival order)
        from flink2spark.rules.pyflink._frames import key_by_of
        from flink2spark.rules.pyflink._side_outputs import in_source_order

        key_by = key_by_of(g, call.func.value)  # type: ignore[attr-defined]
        why = "its results may depend on the order of a key's rows, which Spark keeps only for a from_collection at parallelism 1"
        if key_by is None or g.parallelism != (True, 1):
            return why
        if not in_source_order(g, key_by.func.value):  # type: ignore[attr-defined]
            if _sequenced(g, key_by.func.value) is None:  # type: ignore[attr-defined]
                return why
            time = time_facts(g, call, shape)
            found = translate(resolver, cls, shape, output, Time(time.stamp, time.batch, "sort"), call.func.attr.value)  # type: ignore[attr-defined]
            return found if isinstance(found, str) else Plan(found, output, cls, ordered=False, order="sort")
        reader = _order_reader(g, call)
        if reader is not None:  # its results read in order by a keyed map/flat_map: they carry their place
            read = plan(g, reader, output)
            carry = carried(g, call, shape) if isinstance(read, Plan) and read.order == "sort" else None
            if isinstance(carry, Processor):
                return Plan(carry, output, cls, ordered=False, order="carry")
        ordered, one = False, True
    return Plan(found, output, cls, ordered=ordered, one=one)


# the column giving each row its place in the source's order (``Time.order``)
SEQUENCE = "_f2s_seq"


def _keyed_stage(g, stream) -> Optional[cst.Call]:
    """The keyed ``map``/``flat_map`` call ``stream`` is (through a name), or None."""
    from flink2spark.rules.pyflink._common import followed

    node = followed(g.resolver, stream)
    if _method_call(node) not in ("map", "flat_map") or g.resolver.type_of(node.func.value) != P.KEYED:  # type: ignore[union-attr, attr-defined]
        return None
    return node  # type: ignore[return-value]


def _order_reader(g, call: cst.Call) -> Optional[cst.Call]:
    """The keyed map/flat_map reading the results of the keyed map/flat_map ``call``, when they
    are read only by one ``key_by`` read only by it; else None."""
    from flink2spark.rules.pyflink._streams import _frame_uses

    uses = _frame_uses(g, call)
    if not uses or len(uses) != 1 or _method_call(uses[0]) != "key_by":
        return None
    after = _frame_uses(g, uses[0])
    return after[0] if after and len(after) == 1 and _keyed_stage(g, after[0]) is not None else None


def carried(g, call: cst.Call, shape) -> Union[Processor, str]:
    """The processor of the keyed map/flat_map ``call`` over a frame of ``shape`` in the source's
    order (``in_source_order``, parallelism 1) whose results carry their row's SEQUENCE
    (``Time.order`` "carry"); else why there is none. It needs no reader (``_plan`` uses it
    when one reads the results in order), so a reader's plan may ask for it."""
    return g.fact("tws_carried", call, _carried, "not computed", shape)


def _carried(g, call: cst.Call, shape) -> Union[Processor, str]:
    from flink2spark.rules.pyflink._frames import key_by_of
    from flink2spark.rules.pyflink._side_outputs import in_source_order

    key_by = key_by_of(g, call.func.value)  # type: ignore[attr-defined]
    if _keyed_stage(g, call) is None or key_by is None or g.parallelism != (True, 1) or not in_source_order(g, key_by.func.value):  # type: ignore[attr-defined]
        return "not a keyed map/flat_map of a from_collection at parallelism 1"
    found_class = _class_and_output(g, call, shape)
    if isinstance(found_class, str):
        return found_class
    cls, output = found_class
    time = time_facts(g, call, shape)
    found = translate(g.resolver, cls, shape, output, Time(time.stamp, time.batch, "carry"), call.func.attr.value)  # type: ignore[attr-defined]
    if isinstance(found, str) or not found.states:
        return found if isinstance(found, str) else "no keyed state"
    return found


def _sequenced(g, stream) -> Optional[cst.Call]:
    """The keyed map/flat_map ``stream`` is, when its results can carry SEQUENCE (``carried``)."""
    from flink2spark.rules.pyflink._streams import _frame_shape

    stage = _keyed_stage(g, stream)
    if stage is None:
        return None
    shape = g.fact("frame_shape", stage.func.value, _frame_shape, None)  # type: ignore[attr-defined]
    return stage if shape is not None and isinstance(carried(g, stage, shape), Processor) else None


def _function_class(g, call: cst.Call) -> Union[cst.ClassDef, str]:
    """The class of the function argument of ``call`` that a StatefulProcessor may replace: a
    class of the module's top level used there only, in a module that uses the names the output
    imports (``Row``, ``StatefulProcessor``) for nothing else; else why not."""
    from flink2spark.rules.pyflink._common import call_arg, instance_class

    resolver = g.resolver
    cls = instance_class(resolver, call_arg(call, 0, "func"))
    if cls is None or not any(s is cls for s in resolver.module.body):
        return "the function is not an instance of a class of the module's top level"
    uses = [n for n in nodes(resolver.module, cst.Name) if n.value == cls.name.value and n is not cls.name]
    if len(uses) != 1:
        return f"{cls.name.value} is used {len(uses)} times (the class is rewritten for this one use)"
    for name in _NAMES_USED:
        for n in nodes(resolver.module, cst.Name):
            parent = resolver.parent(n)
            if (isinstance(parent, cst.ImportAlias) and parent.name is n) or (isinstance(parent, cst.Attribute) and parent.attr is n):
                continue  # imported (checked where used), or an attribute's name (x.Row)
            if n.value == name and not (resolver.qualified_names(n) & (ROWS | {"pyspark.sql.Row"})):
                return f"the module uses the name {name} for something else"
    return cls


@dataclass
class TwoInputPlan:
    """``a.connect(b).key_by(k1, k2).process(F(), output_type=T)`` of two frames, as one
    transformWithState over both inputs' rows tagged by input (``TWO_INPUTS``)."""

    processor: Processor
    output: object  # python_columns.Shape of the main output
    cls: cst.ClassDef  # the user's KeyedCoProcessFunction class (original node)
    ordered: bool  # whether the order of a key's rows can change a result (NOTE F2S266)
    keys: tuple[str, str]  # each input's key as a Column's code
    columns: tuple[str, str]  # each input's record as one Column's code (a struct of its fields, or its one column)
    tags: tuple = ()  # (module name of the tag, tag name, Shape) of the side outputs read
    outputs_name: Optional[str] = None  # the tagged results' variable (None: no side output is read)


def two_input_plan(g, call: cst.Call) -> Union[TwoInputPlan, str]:
    """The transformWithState form of ``a.connect(b).key_by(k1, k2).process(F(), output_type=T)``
    (``call``) of two frames, once per call; else why there is none."""
    return g.fact("tws_two_inputs", call, _two_input_plan, "not computed")


def _two_input_plan(g, call: cst.Call) -> Union[TwoInputPlan, str]:
    """Flink interleaves the two inputs in no set order (the network's), and gives each
    key's elements of one input in arrival order; Spark hands a key's rows of both at once in no
    set order: exact when the results depend on neither (NOTE F2S266 when the class keeps state or
    timers)."""
    from flink2spark.rules.pyflink._common import call_arg, followed, record_shape
    from flink2spark.rules.pyflink._event_windows import stamp
    from flink2spark.rules.pyflink._frames import _COL, FRAME_TYPES, function_node
    from flink2spark.rules.pyflink._side_outputs import read_tags
    from flink2spark.rules.pyflink._streams import _frame_shape, _frame_uses
    from flink2spark.transpiler.python_columns import Refusal
    from flink2spark.transpiler.python_columns import translate as columns

    resolver = g.resolver
    key_by = followed(resolver, call.func.value)  # type: ignore[attr-defined]
    connect = followed(resolver, key_by.func.value) if _method_call(key_by) == "key_by" else None  # type: ignore[attr-defined]
    if (_method_call(connect) != "connect" or len(connect.args) != 1 or len(key_by.args) != 2  # type: ignore[union-attr, attr-defined]
            or any(a.keyword is not None or a.star for a in [*connect.args, *key_by.args])):  # type: ignore[union-attr, attr-defined]
        return "not a.connect(b).key_by(k1, k2).process(...)"
    inputs = [connect.func.value, connect.args[0].value]  # type: ignore[union-attr]
    if any(resolver.type_of(i) != P.DATASTREAM for i in inputs):
        return "a connect() of other than two DataStreams"
    if [id(u) for u in _frame_uses(g, connect) or []] != [id(key_by)] or [id(u) for u in _frame_uses(g, key_by) or []] != [id(call)]:
        return "connected streams read other than by one key_by(k1, k2).process(...)"
    shapes = [g.fact("frame_shape", i, _frame_shape, None) for i in inputs]
    if any(s is None or s.kind not in ("value", "tuple", "row") for s in shapes):
        return "an input that is not a frame"
    cls = _function_class(g, call)
    if isinstance(cls, str):
        return cls
    keys = []
    for selector, shape in zip(key_by.args, shapes):  # type: ignore[attr-defined]
        fn = function_node(resolver, selector.value, "get_key")
        found = columns(fn, shape, predicate=False, checked=False, qualified=resolver.qualified_name) if fn is not None else None
        if found is None or isinstance(found, Refusal) or found.notes or found.tuple or found.outputs[0].nullable:
            return "a key selector that is not one exact Column"
        keys.append(found.outputs[0])
    if keys[0].type != keys[1].type:
        return "keys of two types"
    info = call_arg(call, 1, "output_type")
    output = record_shape(resolver, info) if info is not None else None
    if output is None or any(f.type not in FRAME_TYPES for f in output.fields):
        return "no output_type of basic types (the results' schema)"
    read = read_tags(g, call)
    if isinstance(read, str):
        return read
    tags, outputs_name = read
    times = []
    for stream, shape in zip(inputs, shapes):
        stamped = followed(resolver, stream)
        found_stamp = stamp(g, stamped, shape) if _method_call(stamped) == "assign_timestamps_and_watermarks" else None
        field = _COL.fullmatch(found_stamp.code) if found_stamp is not None else None
        times.append(Time(field.group(1) if field is not None else None, g.runtime_mode == "batch"))
    found = translate(resolver, cls, shapes[0], output, Time(), "co_process", inputs=tuple(zip(shapes, times)),
                      sides={module: (name, shape) for module, name, shape in tags})
    if isinstance(found, str):
        return found
    records = tuple(f'F.col("{s.fields[0].name}")' if s.kind == "value" else 'F.struct("*")' for s in shapes)
    return TwoInputPlan(found, output, cls, bool(found.states or found.timers), (keys[0].code, keys[1].code), records,  # type: ignore[arg-type]
                        tuple(tags), outputs_name)


def stamped_by(g, call: cst.Call) -> Optional[cst.Call]:
    """The ``assign_timestamps_and_watermarks`` call whose stream the keyed ``process`` ``call``
    reads through its ``key_by``, or None."""
    from flink2spark.rules.pyflink._event_windows import _receiver
    from flink2spark.rules.pyflink._frames import key_by_of

    key_by = key_by_of(g, call.func.value)  # type: ignore[attr-defined]
    return _receiver(g.resolver, key_by, "assign_timestamps_and_watermarks") if key_by is not None else None


def time_facts(g, call: cst.Call, shape) -> Time:
    """The records' time for the keyed ``process`` ``call`` over a frame of ``shape``: the field
    the timestamp assigner reads (``_event_windows.stamp``: exact, never None) and the runtime mode."""
    from flink2spark.rules.pyflink._event_windows import stamp
    from flink2spark.rules.pyflink._frames import _COL

    stamped = stamped_by(g, call)
    found = stamp(g, stamped, shape) if stamped is not None else None
    field = _COL.fullmatch(found.code) if found is not None else None
    return Time(field.group(1) if field is not None else None, g.runtime_mode == "batch")


def group_by(g, call: cst.Call, shape) -> Optional[str]:
    """The ``groupBy`` arguments of the keyed ``process`` ``call`` over a frame of ``shape``:
    the key field (``"f0"``, ``_frames.key_fields``) or Column (``key_column``); None for a key
    of several fields or none found."""
    from flink2spark.rules.pyflink._frames import _COL, key_by_of, key_fields

    key_by = key_by_of(g, call.func.value)  # type: ignore[attr-defined]
    if key_by is None:
        return None
    fields = key_fields(g, key_by, shape)
    if fields is not None:
        return f'"{fields[0]}"' if len(fields) == 1 else None
    code = key_column(g, key_by, shape)
    field = _COL.fullmatch(code) if code is not None else None
    return f'"{field.group(1)}"' if field is not None else code  # the column itself by its name


def _same_records(g, call: cst.Call, shape) -> bool:
    """Whether every record of a key is the same value (``key_by(lambda w: w)`` on a stream of
    single values): then the order of a key's rows changes nothing."""
    from flink2spark.rules.pyflink._common import call_arg
    from flink2spark.rules.pyflink._frames import key_by_of

    key_by = key_by_of(g, call.func.value)  # type: ignore[attr-defined]
    fn = call_arg(key_by, 0, "key_selector") if key_by is not None else None
    if shape.kind != "value" or not isinstance(fn, cst.Lambda) or len(fn.params.params) != 1:
        return False
    return isinstance(fn.body, cst.Name) and fn.body.value == fn.params.params[0].name.value
