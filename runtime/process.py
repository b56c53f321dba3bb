"""Process functions, keyed state, timers, side outputs and connected streams for programs
converted from the PyFlink DataStream API (bounded jobs).

Converted programs reach this module through ``f2s`` (``flink2spark.runtime.datastream``
re-exports its public names). Like the rest of the shim it imports only the standard library:
PySpark objects are passed in.

Why a shim: Spark has no keyed process function for batch RDDs (``transformWithState`` is a
Structured Streaming operator), so the user's class keeps its code and runs here, per Spark
partition standing for one of Flink's parallel instances:

* ``process(stream, fn)``: ``ProcessFunction.process_element(value, ctx)`` on every element
  of each partition, in stream order; ``open``/``close`` around the partition.
* ``keyed_process(keyed, fn, mode)``: ``KeyedProcessFunction`` (and ``map``/``flat_map``/
  ``filter``/``reduce`` classes that use keyed state, ``method=``) over ``stream.keyBy(key)``.
  The elements are hash-partitioned by key, then each partition runs its elements in stream
  order (positions taken before the shuffle: Spark's shuffles do not keep order), with the
  state of the current key (``runtime_context.get_state(...)`` etc.) and its timers.
  STREAMING: the watermark stays ``Long.MIN_VALUE`` while elements are processed (as on
  Flink for a small bounded input, whose periodic watermarks come every 200 ms); at the end
  of the input the watermark becomes ``Long.MAX_VALUE`` and every event-time timer fires in
  timestamp order (timers registered from ``on_timer`` too); processing-time timers still
  pending then do not fire (checked on Flink 2.3). BATCH: each key's elements, then its
  timers (event- and processing-time) at the end of that key.
* ``co_process(connect(first, second), fn, method)``: ``connect`` with ``CoMapFunction``/
  ``CoFlatMapFunction``/``CoProcessFunction``/``KeyedCoProcessFunction`` (methods ``*1`` for
  the first input, ``*2`` for the second); ``key_by(k1, k2)`` on the connected streams keys
  both inputs, whose state and timers are then shared per key.
* ``co_process(connect(data, broadcast(stream, descriptor)), fn)``: a
  ``BroadcastProcessFunction``/``KeyedBroadcastProcessFunction``: every instance gets every
  broadcast element, before its data elements (Flink gives no order between the two inputs;
  the conversion marks this).
* ``partitioned``/``broadcast_all``: ``partition_custom`` and ``broadcast()``.

Results: a function yields (or returns) its results; ``yield tag, value`` with an
``OutputTag`` is a side output. The stream returned is the main output; ``side_output(stream,
tag)`` gives a side output of it. Records that carry timestamps (see ``f2s.windows``: a
timestamped stream is an RDD of ``(timestamp, value)``) keep them: results of an element get
its timestamp, results of an event-time timer the timer's.
"""

from __future__ import annotations

import copy
import heapq
import time
from enum import Enum

from flink2spark.runtime.datastream import RuntimeContext, task_attempt
from flink2spark.runtime.windows import Generic

__all__ = [
    "TimeDomain",
    "OutputTag",
    "StateTtlConfig",
    "ValueStateDescriptor",
    "ListStateDescriptor",
    "MapStateDescriptor",
    "ReducingStateDescriptor",
    "AggregatingStateDescriptor",
    "ProcessFunction",
    "KeyedProcessFunction",
    "CoMapFunction",
    "CoFlatMapFunction",
    "CoProcessFunction",
    "KeyedCoProcessFunction",
    "BroadcastProcessFunction",
    "KeyedBroadcastProcessFunction",
    "AggregateFunction",
    "process",
    "keyed_process",
    "co_process",
    "connect",
    "broadcast",
    "ConnectedStreams",
    "BroadcastStream",
    "side_output",
    "partitioned",
    "broadcast_all",
    "Partitioner",
]

MIN_WATERMARK = -9223372036854775808  # Long.MIN_VALUE: no watermark yet
MAX_WATERMARK = 9223372036854775807  # Long.MAX_VALUE: the end of a bounded input


class TimeDomain(Enum):
    """Whether a firing timer is an event-time or a processing-time timer."""

    EVENT_TIME = 0
    PROCESSING_TIME = 1


class OutputTag(object):
    """PyFlink's ``OutputTag(tag_id, type_info)``: the name of a side output."""

    def __init__(self, tag_id, type_info=None):
        if not tag_id:
            raise ValueError("OutputTag tag_id cannot be None or empty string")
        self.tag_id = tag_id
        self.type_info = type_info

    def __eq__(self, other):
        return isinstance(other, OutputTag) and other.tag_id == self.tag_id

    def __hash__(self):
        return hash(self.tag_id)

    def __repr__(self):
        return "OutputTag(%r)" % (self.tag_id,)


# ---------------------------------------------------------------------------------------------
# State descriptors and state


class StateTtlConfig(object):
    """``StateTtlConfig``: kept on the descriptor; state does not expire here (the conversion
    marks programs that set a TTL)."""

    class UpdateType(Enum):
        Disabled = 0
        OnCreateAndWrite = 1
        OnReadAndWrite = 2

    class StateVisibility(Enum):
        ReturnExpiredIfNotCleanedUp = 0
        NeverReturnExpired = 1

    class TtlTimeCharacteristic(Enum):
        ProcessingTime = 0

    def __init__(self, ttl=None):
        self._ttl = ttl

    @staticmethod
    def new_builder(ttl):
        return StateTtlConfig.Builder(ttl)

    def get_ttl(self):
        return self._ttl

    def is_enabled(self):
        return True

    class Builder(object):
        def __init__(self, ttl):
            self._ttl = ttl

        def _same(self, *args, **kwargs):
            return self

        set_update_type = update_ttl_on_create_and_write = update_ttl_on_read_and_write = _same
        set_state_visibility = return_expired_if_not_cleaned_up = never_return_expired = _same
        set_ttl_time_characteristic = use_processing_time = cleanup_full_snapshot = _same
        cleanup_incrementally = cleanup_in_rocksdb_compact_filter = disable_cleanup_in_background = _same

        def set_ttl(self, ttl):
            self._ttl = ttl
            return self

        def build(self):
            return StateTtlConfig(self._ttl)


class _Descriptor(object):
    kind = ""

    def __init__(self, name, type_info=None):
        self.name = name
        self.type_info = type_info
        self.ttl_config = None

    def get_name(self):
        return self.name

    def enable_time_to_live(self, ttl_config):
        self.ttl_config = ttl_config


class ValueStateDescriptor(_Descriptor):
    kind = "value"

    def __init__(self, name, value_type_info=None):
        super().__init__(name, value_type_info)


class ListStateDescriptor(_Descriptor):
    kind = "list"

    def __init__(self, name, elem_type_info=None):
        super().__init__(name, elem_type_info)


class MapStateDescriptor(_Descriptor):
    kind = "map"

    def __init__(self, name, key_type_info=None, value_type_info=None):
        super().__init__(name, (key_type_info, value_type_info))


class ReducingStateDescriptor(_Descriptor):
    kind = "reducing"

    def __init__(self, name, reduce_function, type_info=None):
        super().__init__(name, type_info)
        self.reduce = reduce_function.reduce if hasattr(reduce_function, "reduce") else reduce_function

    def get_reduce_function(self):
        return self.reduce


class AggregatingStateDescriptor(_Descriptor):
    kind = "aggregating"

    def __init__(self, name, agg_function, state_type_info=None):
        super().__init__(name, state_type_info)
        self.agg_function = agg_function

    def get_agg_function(self):
        return self.agg_function


class AggregateFunction(object):
    """Base of a user ``AggregateFunction`` (used here by ``AggregatingStateDescriptor``)."""

    def open(self, runtime_context):
        pass

    def close(self):
        pass

    def create_accumulator(self):
        raise NotImplementedError

    def add(self, value, accumulator):
        raise NotImplementedError

    def get_result(self, accumulator):
        raise NotImplementedError

    def merge(self, acc_a, acc_b):
        raise NotImplementedError


class _Store(object):
    """Keyed state of one parallel instance: per state name, the values by key; ``key`` is
    the key of the element (or timer) being processed."""

    def __init__(self):
        self.key = None
        self.tables = {}

    def table(self, name):
        return self.tables.setdefault(name, {})


class _State(Generic):
    def __init__(self, store, descriptor):
        self._store = store
        self._descriptor = descriptor
        self._table = store.table(descriptor.name)

    def _get(self, default=None):
        return self._table.get(self._store.key, default)

    def _set(self, value):
        self._table[self._store.key] = value

    def clear(self):
        self._table.pop(self._store.key, None)


class ValueState(_State):
    def value(self):
        return self._get()

    def update(self, value):
        self._set(value)


class ListState(_State):
    def get(self):
        return list(self._get([]))

    def add(self, value):
        self._table.setdefault(self._store.key, []).append(value)

    def add_all(self, values):
        self._table.setdefault(self._store.key, []).extend(values)

    def update(self, values):
        self._set(list(values))

    def __iter__(self):
        return iter(self.get())


class ReducingState(_State):
    def get(self):
        return self._get()

    def add(self, value):
        current = self._get()
        self._set(value if current is None else self._descriptor.reduce(current, value))


class AggregatingState(_State):
    def get(self):
        acc = self._get()
        return None if acc is None else self._descriptor.agg_function.get_result(acc)

    def add(self, value):
        if value is None:  # PyFlink: adding None clears the state
            self.clear()
            return
        acc = self._get()
        if acc is None:
            acc = self._descriptor.agg_function.create_accumulator()
        self._set(self._descriptor.agg_function.add(value, acc))


class MapState(_State):
    def _map(self):
        return self._table.setdefault(self._store.key, {})

    def get(self, key):
        return self._get({}).get(key)

    def put(self, key, value):
        self._map()[key] = value

    def put_all(self, dict_value):
        items = dict_value.items() if hasattr(dict_value, "items") else dict_value
        for k, v in items:
            self.put(k, v)

    def remove(self, key):
        self._get({}).pop(key, None)

    def contains(self, key):
        return self.get(key) is not None  # PyFlink: a key mapped to None is not contained

    def items(self):
        return list(self._get({}).items())

    def keys(self):
        return list(self._get({}).keys())

    def values(self):
        return list(self._get({}).values())

    def is_empty(self):
        return not self._get({})

    def __getitem__(self, key):
        return self.get(key)

    def __setitem__(self, key, value):
        self.put(key, value)

    def __delitem__(self, key):
        self.remove(key)

    def __contains__(self, key):
        return self.contains(key)

    def __iter__(self):
        return iter(self.keys())


_STATES = {"value": ValueState, "list": ListState, "map": MapState, "reducing": ReducingState, "aggregating": AggregatingState}


class BroadcastState(Generic):
    """Broadcast state of one parallel instance (a dict per descriptor name)."""

    def __init__(self, data):
        self._data = data

    def get(self, key):
        return self._data.get(key)

    def contains(self, key):
        return key in self._data

    def items(self):
        return list(self._data.items())

    def keys(self):
        return list(self._data.keys())

    def values(self):
        return list(self._data.values())

    def is_empty(self):
        return not self._data

    def put(self, key, value):
        self._data[key] = value

    def put_all(self, dict_value):
        items = dict_value.items() if hasattr(dict_value, "items") else dict_value
        for k, v in items:
            self._data[k] = v

    def remove(self, key):
        self._data.pop(key, None)

    def clear(self):
        self._data.clear()

    def __getitem__(self, key):
        return self.get(key)

    def __contains__(self, key):
        return self.contains(key)

    def __iter__(self):
        return iter(self.keys())


class KeyedRuntimeContext(RuntimeContext):
    """``open(runtime_context)`` of a function on a keyed stream: task information and keyed
    state (scoped to the key being processed)."""

    def __init__(self, store, index=0, attempt=0, task_name=""):
        super().__init__(index, attempt, task_name)
        self._store = store

    def _state(self, descriptor, kind):
        return _STATES[kind](self._store, descriptor)

    def get_state(self, state_descriptor):
        return self._state(state_descriptor, "value")

    def get_list_state(self, state_descriptor):
        return self._state(state_descriptor, "list")

    def get_map_state(self, state_descriptor):
        return self._state(state_descriptor, "map")

    def get_reducing_state(self, state_descriptor):
        return self._state(state_descriptor, "reducing")

    def get_aggregating_state(self, state_descriptor):
        return self._state(state_descriptor, "aggregating")


# ---------------------------------------------------------------------------------------------
# Function base classes and their contexts


class _Function(object):
    def open(self, runtime_context):
        pass

    def close(self):
        pass


class TimerService(object):
    def __init__(self, runner):
        self._runner = runner

    def current_processing_time(self):
        return int(time.time() * 1000)

    def current_watermark(self):
        return self._runner.watermark

    def register_event_time_timer(self, timestamp):
        self._runner.register(TimeDomain.EVENT_TIME, timestamp)

    def register_processing_time_timer(self, timestamp):
        self._runner.register(TimeDomain.PROCESSING_TIME, timestamp)

    def delete_event_time_timer(self, timestamp):
        self._runner.delete(TimeDomain.EVENT_TIME, timestamp)

    def delete_processing_time_timer(self, timestamp):
        self._runner.delete(TimeDomain.PROCESSING_TIME, timestamp)


class Context(object):
    """``ctx`` of ``process_element`` / ``on_timer`` (all variants)."""

    def __init__(self, runner):
        self._runner = runner
        self._timers = TimerService(runner)

    def timestamp(self):
        return self._runner.timestamp

    def timer_service(self):
        return self._timers

    def get_current_key(self):
        return self._runner.current_key()

    def time_domain(self):
        return self._runner.domain

    def get_broadcast_state(self, state_descriptor):
        return self._runner.broadcast_state(state_descriptor)

    def current_processing_time(self):
        return self._timers.current_processing_time()

    def current_watermark(self):
        return self._runner.watermark


class ProcessFunction(_Function):
    Context = Context
    OnTimerContext = Context

    def on_timer(self, timestamp, ctx):
        pass


class KeyedProcessFunction(ProcessFunction):
    pass


class CoMapFunction(_Function):
    pass


class CoFlatMapFunction(_Function):
    pass


class CoProcessFunction(ProcessFunction):
    pass


class KeyedCoProcessFunction(ProcessFunction):
    pass


class BroadcastProcessFunction(_Function, Generic):
    Context = Context
    ReadOnlyContext = Context


class KeyedBroadcastProcessFunction(BroadcastProcessFunction):
    OnTimerContext = Context

    def on_timer(self, timestamp, ctx):
        pass


# ---------------------------------------------------------------------------------------------
# The runner: one per Spark partition (Flink parallel instance)


class _Runner(object):
    def __init__(self, function, keyed, mode, timestamped, index):
        self.function = function
        self.keyed = keyed
        self.batch = mode == "batch"
        self.timestamped = timestamped
        self.store = _Store()
        self.broadcast = {}
        self.watermark = MIN_WATERMARK
        self.timestamp = None
        self.domain = None
        self.timers = []  # heap of (time, sequence, domain value, key)
        self.live = {}  # (domain, key, time) -> sequence of the live registration
        self.sequence = 0
        self.index = index
        self.ctx = Context(self)

    def current_key(self):
        if not self.keyed:
            raise RuntimeError("get_current_key() is only available on keyed streams")
        return self.store.key

    def broadcast_state(self, descriptor):
        return BroadcastState(self.broadcast.setdefault(descriptor.name, {}))

    def register(self, domain, timestamp):
        if not self.keyed:
            raise RuntimeError("Timers are only supported on keyed streams")
        entry = (domain, self.store.key, timestamp)
        if entry in self.live:
            return  # Flink keeps one timer per key, domain and time
        self.sequence += 1
        self.live[entry] = self.sequence
        heapq.heappush(self.timers, (timestamp, self.sequence, domain.value, self.store.key))

    def delete(self, domain, timestamp):
        self.live.pop((domain, self.store.key, timestamp), None)

    def open(self):
        attempt = task_attempt()
        name = type(self.function).__name__
        context = KeyedRuntimeContext(self.store, self.index, attempt, name) if self.keyed else RuntimeContext(self.index, attempt, name)
        opener = getattr(self.function, "open", None)  # classes whose PyFlink base was dropped may have none
        if opener is not None:
            opener(context)

    def close(self):
        closer = getattr(self.function, "close", None)
        if closer is not None:
            closer()

    def emit(self, results, timestamp):
        """(tag_id or None, timestamp, value) for each result of a call."""
        if results is None:
            return
        for result in results:
            if isinstance(result, tuple) and len(result) == 2 and isinstance(result[0], OutputTag):
                yield result[0].tag_id, timestamp, result[1]
            else:
                yield None, timestamp, result

    def call(self, method, key, timestamp, *args):
        self.store.key = key
        self.timestamp = timestamp
        self.domain = None
        return list(self.emit(method(*args), timestamp))

    def fire(self, until, domain_filter=None, key_filter=None):
        """Fire timers due by ``until`` (in time order), timers they register too."""
        out = []
        pending = []
        while self.timers and self.timers[0][0] <= until:
            ts, seq, domain_value, key = heapq.heappop(self.timers)
            domain = TimeDomain(domain_value)
            if (domain_filter is not None and domain is not domain_filter) or (key_filter is not None and key != key_filter[0]):
                pending.append((ts, seq, domain_value, key))
                continue
            if self.live.get((domain, key, ts)) != seq:
                continue  # deleted (or registered again later)
            del self.live[(domain, key, ts)]
            self.store.key = key
            self.timestamp = ts  # PyFlink's on_timer ctx.timestamp(): the timer's time
            self.domain = domain
            # what a processing-time timer emits has no timestamp (Flink erases it)
            emitted = ts if domain is TimeDomain.EVENT_TIME else MIN_WATERMARK
            out.extend(self.emit(self.function.on_timer(ts, self.ctx), emitted))
        for entry in pending:
            heapq.heappush(self.timers, entry)
        return out

    def due_processing_timers(self):
        if not self.timers or not self.keyed:
            return []
        return self.fire(int(time.time() * 1000), TimeDomain.PROCESSING_TIME)

    def end(self):
        """End of input: the final watermark fires every event-time timer (STREAMING);
        processing-time timers still pending do not fire."""
        self.watermark = MAX_WATERMARK
        out = self.fire(MAX_WATERMARK, TimeDomain.EVENT_TIME)
        return out

    def end_of_key(self, key):
        """BATCH: after a key's elements, all its timers fire (watermark and processing time
        at their maximum for that key)."""
        self.watermark = MAX_WATERMARK
        out = self.fire(MAX_WATERMARK, None, (key,))
        self.watermark = MIN_WATERMARK
        return out


def _split(record, timestamped):
    """(timestamp, value): Flink's ``ctx.timestamp()`` is ``Long.MIN_VALUE`` for a record
    without a timestamp (checked on Flink 2.3)."""
    if not timestamped:
        return MIN_WATERMARK, record
    return (MIN_WATERMARK if record[0] is None else record[0]), record[1]


def _main_and_sides(tagged, timestamped, decode=None):
    """The main output of a tagged RDD of (tag_id, timestamp, value); side outputs stay
    reachable through ``side_output``. ``decode``: ``f2s.decoded(output_type)`` when Flink
    passes the main output through its serializers (a stream with several consumers)."""
    main = tagged.filter(lambda r: r[0] is None)
    if decode is not None:
        main = main.map(lambda r: (r[0], r[1], decode(r[2])))
    main = main.map(_shaper(timestamped))
    main._f2s_tagged = (tagged, timestamped)
    return main


def _shaper(timestamped):
    if timestamped:
        return lambda r: (MIN_WATERMARK if r[1] is None else r[1], r[2])
    return lambda r: r[2]


def side_output(stream, tag):
    """``stream.get_side_output(tag)``: what the process function of ``stream`` yielded as
    ``(tag, value)``."""
    found = getattr(stream, "_f2s_tagged", None)
    if found is None and getattr(stream, "tagged", None) is not None:  # f2s_stream.keyed_process on an unbounded stream
        from flink2spark.runtime.streaming import side_output as streaming_side_output

        return streaming_side_output(stream, tag)
    if found is None:
        raise ValueError("get_side_output(): this stream was not made by a process function")
    tagged, timestamped = found
    tag_id = tag.tag_id
    return tagged.filter(lambda r: r[0] == tag_id).map(_shaper(timestamped))


def _attempt_safe_copy(function):
    return copy.deepcopy(function)


def process(stream, function, timestamped=False, decode=None, parallelism=None):
    """``stream.process(ProcessFunction)``: ``process_element(value, ctx)`` on every element
    of each partition in order, ``open``/``close`` around the partition. ``parallelism=1``
    (a program at ``env.set_parallelism(1)``): one instance sees the whole stream in order."""
    if parallelism == 1 and stream.getNumPartitions() > 1:
        stream = stream.coalesce(1)

    def run(index, records):
        runner = _Runner(_attempt_safe_copy(function), False, "streaming", timestamped, index)
        runner.open()
        try:
            for record in records:
                ts, value = _split(record, timestamped)
                yield from runner.call(runner.function.process_element, None, ts, value, runner.ctx)
        finally:
            runner.close()

    return _main_and_sides(stream.mapPartitionsWithIndex(run), timestamped, decode)


_KEYED_METHODS = {
    "process_element": lambda f, v, ctx: f.process_element(v, ctx),
    "map": lambda f, v, ctx: [f.map(v)],
    "flat_map": lambda f, v, ctx: f.flat_map(v),
    "filter": lambda f, v, ctx: [v] if f.filter(v) else [],
}


def _positioned(pairs, side=0):
    """(key, ((partition, index, side), value)): the stream's order, taken before a shuffle."""

    def number(partition, items):
        for n, (key, value) in enumerate(items):
            yield key, ((side, partition, n), value)

    return pairs.mapPartitionsWithIndex(number)


def _instances(rdd):
    ctx = rdd.context
    return max(ctx.defaultParallelism, 1)


def _run_keyed(positioned, function, mode, timestamped, methods, partitions):
    """Hash-partition (key, (position, value)) records by key and run each partition in
    stream order: ``methods[side](function, value, ctx)`` per element, timers as Flink fires
    them for ``mode``.

    The results come back in Flink's order at parallelism 1, which a later keyed operator
    depends on: STREAMING, those of an element where the element was in the stream, then those
    of the timers firing at the end by time; BATCH, in processing order (key by key)."""
    out_partitions = max(positioned.getNumPartitions(), 1)
    last = out_partitions - 1

    def run(index, items):
        runner = _Runner(_attempt_safe_copy(function), True, mode, timestamped, index)
        runner.open()
        try:
            records = sorted(items, key=lambda kv: kv[1][0][1:] + (kv[1][0][0],))
            if runner.batch:
                # BATCH: Flink sorts keyed input by key (and timestamp) and runs each key's
                # elements, then its timers
                groups = {}
                for key, (position, record) in records:
                    groups.setdefault(key, []).append((position, record))
                done = 0
                for key, elements in groups.items():
                    if timestamped:
                        elements = sorted(elements, key=lambda e: _ts_order(e[1][0]))
                    for position, record in elements:
                        ts, value = _split(record, timestamped)
                        for result in runner.call(lambda v, c: methods[position[0]](runner.function, v, c), key, ts, value, runner.ctx):
                            done += 1
                            yield (index % out_partitions, index, done), result
                    for result in runner.end_of_key(key):
                        done += 1
                        yield (index % out_partitions, index, done), result
            else:
                for key, (position, record) in records:
                    ts, value = _split(record, timestamped)
                    at = (position[1], 0, position[2], position[0])
                    yield from _at(at + (0,), runner.call(lambda v, c: methods[position[0]](runner.function, v, c), key, ts, value, runner.ctx))
                    yield from _at(at + (1,), runner.due_processing_timers())
                for n, result in enumerate(runner.end()):
                    yield (last, 1, result[1], index, n), result  # after every element, by time
        finally:
            runner.close()

    results = positioned.partitionBy(partitions).mapPartitionsWithIndex(run)
    return results.repartitionAndSortWithinPartitions(out_partitions, lambda at: at[0]).values()


def _at(position, results):
    """(position, result) for the results of one call, in their order."""
    for n, result in enumerate(results):
        yield position + (n,), result


def _ts_order(ts):
    return MIN_WATERMARK if ts is None else ts


def keyed_process(keyed, function, mode="streaming", timestamped=False, method="process_element", decode=None):
    """``keyed.process(KeyedProcessFunction)`` (``method="process_element"``) or a ``map``/
    ``flat_map``/``filter`` function class with keyed state on ``keyed = stream.keyBy(key)``
    (values ``(timestamp, value)`` when ``timestamped``). ``mode``: "streaming" or "batch"."""
    call = _KEYED_METHODS[method]
    tagged = _run_keyed(_positioned(keyed), function, mode, timestamped, {0: call}, _instances(keyed))
    return _main_and_sides(tagged, timestamped, decode)


_CO_METHODS = {
    "map": ("map1", "map2", False),
    "flat_map": ("flat_map1", "flat_map2", True),
    "process": ("process_element1", "process_element2", None),
}


def _co_calls(method):
    first, second, many = _CO_METHODS[method]
    if many is None:
        return {0: lambda f, v, ctx: getattr(f, first)(v, ctx), 1: lambda f, v, ctx: getattr(f, second)(v, ctx)}
    if many:
        return {0: lambda f, v, ctx: getattr(f, first)(v), 1: lambda f, v, ctx: getattr(f, second)(v)}
    return {0: lambda f, v, ctx: [getattr(f, first)(v)], 1: lambda f, v, ctx: [getattr(f, second)(v)]}


class BroadcastStream(object):
    """``stream.broadcast(descriptor, ...)``: a stream every parallel instance of the next
    operator gets whole, with the broadcast state descriptors."""

    def __init__(self, stream, descriptors):
        self.stream = stream
        self.descriptors = descriptors


def broadcast(stream, *descriptors):
    """``stream.broadcast(MapStateDescriptor, ...)``."""
    return BroadcastStream(stream, descriptors)


class ConnectedStreams(object):
    """``first.connect(second)``: two streams (pair RDDs ``(key, record)`` when ``keyed``) or a
    stream and a ``BroadcastStream``."""

    def __init__(self, first, second, keyed=False, timestamped=False):
        self.first = first
        self.second = second
        self.keyed = keyed
        self.timestamped = timestamped

    def key_by(self, key_selector1, key_selector2, key_type=None):
        """``key_by(key1, key2)``: both inputs keyed, their keys compared with each other."""
        timestamped = self.timestamped

        def keying(selector):
            get_key = selector.get_key if hasattr(selector, "get_key") else selector
            return lambda record: (get_key(_split(record, timestamped)[1]), record)

        return ConnectedStreams(self.first.map(keying(key_selector1)), self.second.map(keying(key_selector2)), True, timestamped)


def connect(first, second, keyed=False, timestamped=False):
    """``first.connect(second)``; ``keyed``: ``first`` is a keyed stream (pair RDD), and so is
    ``second`` unless it is a ``BroadcastStream``."""
    return ConnectedStreams(first, second, keyed, timestamped)


def co_process(connected, function, method="process", mode="streaming", decode=None, parallelism=None):
    """``connected.<method>(function)``, ``method``: ``"map"`` (CoMapFunction: ``map1``/``map2``),
    ``"flat_map"`` (CoFlatMapFunction) or ``"process"`` (CoProcessFunction,
    KeyedCoProcessFunction, (Keyed)BroadcastProcessFunction).

    Not keyed: each partition of ``first`` followed by each partition of ``second`` (Spark's
    ``union``: one of the orders Flink may interleave the two inputs in), through one
    function instance per partition. Keyed: both inputs are partitioned by key and run in
    their order, input 1 before input 2 (again one of Flink's interleavings), each key's state
    and timers shared by both inputs. Broadcast: see ``broadcast_process``."""
    timestamped = connected.timestamped
    if isinstance(connected.second, BroadcastStream):
        return _broadcast_process(connected, function, mode, decode, parallelism)
    calls = _co_calls(method)
    if connected.keyed:
        both = _positioned(connected.first, 0).union(_positioned(connected.second, 1))
        tagged = _run_keyed(both, function, mode, timestamped, calls, _instances(connected.first))
        return _main_and_sides(tagged, timestamped, decode)

    def run(index, records):
        runner = _Runner(_attempt_safe_copy(function), False, mode, timestamped, index)
        runner.open()
        try:
            for side, record in records:
                ts, value = _split(record, timestamped)
                call = calls[side]
                yield from runner.call(lambda v, c: call(runner.function, v, c), None, ts, value, runner.ctx)
        finally:
            runner.close()

    both = connected.first.map(lambda r: (0, r)).union(connected.second.map(lambda r: (1, r)))
    if parallelism == 1:  # one instance sees the first input, then the second
        both = both.coalesce(1)
    return _main_and_sides(both.mapPartitionsWithIndex(run), timestamped, decode)


def _broadcast_process(connected, function, mode, decode, parallelism):
    """Every parallel instance (a Spark partition of the data input) runs
    ``process_broadcast_element`` on all broadcast elements in their order, then
    ``process_element`` on its data elements (keyed: partitioned by key, in stream order, with
    keyed state and timers). ``parallelism``: Flink's number of instances (default: Spark's
    default parallelism), which decides how often what the broadcast side yields is emitted."""
    timestamped = connected.timestamped
    data = connected.first
    keyed = connected.keyed
    instances = parallelism or _instances(data)
    if not keyed and data.getNumPartitions() != instances:
        data = data.coalesce(instances) if data.getNumPartitions() > instances else data.repartition(instances)
    shared = data.context.broadcast(connected.second.stream.collect())

    def run(index, records):
        runner = _Runner(_attempt_safe_copy(function), keyed, mode, timestamped, index)
        runner.open()
        try:
            for record in shared.value:
                ts, value = _split(record, timestamped)
                yield from runner.call(lambda v, c: runner.function.process_broadcast_element(v, c), None, ts, value, runner.ctx)
            for record in records:
                key = None
                if keyed:
                    key, (_, record) = record
                ts, value = _split(record, timestamped)
                yield from runner.call(lambda v, c: runner.function.process_element(v, c), key, ts, value, runner.ctx)
            if keyed:
                yield from runner.end()
        finally:
            runner.close()

    if not keyed:
        return _main_and_sides(data.mapPartitionsWithIndex(run), timestamped, decode)

    def in_order(index, items):
        return run(index, iter(sorted(items, key=lambda kv: kv[1][0])))

    tagged = _positioned(data).partitionBy(instances).mapPartitionsWithIndex(in_order)
    return _main_and_sides(tagged, timestamped, decode)


# ---------------------------------------------------------------------------------------------
# Partitioning


class Partitioner(object):
    """Base of a user ``Partitioner``: ``partition(key, num_partitions)``."""

    def partition(self, key, num_partitions):
        raise NotImplementedError


def broadcast_all(stream, parallelism=None):
    """``stream.broadcast()``: every element goes to each of the ``parallelism`` parallel
    instances of the next operator (default: Spark's default parallelism), one partition each."""
    n = parallelism or _instances(stream)
    return stream.flatMap(lambda x: [(i, x) for i in range(n)]).partitionBy(n, lambda i: i).values()


def partitioned(stream, partitioner, key_selector, parallelism=None):
    """``partition_custom(partitioner, key_selector)``: element ``x`` goes to partition
    ``partitioner.partition(key_selector(x), n)`` of ``n = parallelism`` (default: Spark's
    default parallelism)."""
    n = parallelism or _instances(stream)
    part = partitioner.partition if hasattr(partitioner, "partition") else partitioner
    get_key = key_selector.get_key if hasattr(key_selector, "get_key") else key_selector
    return stream.map(lambda x: (part(get_key(x), n), x)).partitionBy(n, lambda p: p).values()
