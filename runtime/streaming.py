"""Runtime shim for unbounded PyFlink programs converted to Structured Streaming (imported as
``f2s_stream``).

A Kafka source becomes a native ``spark.readStream.format("kafka")...load()`` DataFrame whose
value is decoded with Spark's own functions (``CAST(value AS STRING)``, ``from_json``,
``from_csv``, ``from_avro``). PyFlink's Python operators (``map``/``flat_map``/``filter`` with
arbitrary functions over Python objects) have no streaming DataFrame counterpart, so the stream
is wrapped in ``MicroBatches``: it records those operators and applies them, as the RDD
operations of the bounded conversion, to each micro-batch in ``foreachBatch``.

Public API
----------
``micro_batches(df, type_info=None) -> MicroBatches``
    An unbounded stream read from the streaming DataFrame ``df`` (one column per field of a
    ``Types.ROW``/``ROW_NAMED`` type, else one ``value`` column): its elements are what
    PyFlink's Python operators see (``Row`` with the type's field names, or the value).
``elements(df, type_info=None) -> RDD``
    The same for a bounded (batch) DataFrame: an RDD of those elements.
``foreach_batch(stream, function) -> DataStreamWriter``
    ``stream.df.writeStream.foreachBatch(...)`` calling ``function(rdd)`` with the RDD of each
    micro-batch's elements (after the recorded operators). Give it a checkpoint location and
    ``start()`` it.
``to_dataframe(stream, type_info) -> DataFrame``
    The elements of an RDD as a DataFrame with Flink's field names and Spark types for
    ``type_info`` (a ``Types.ROW``/``ROW_NAMED`` -> one column per field; other types -> one
    ``value`` column): what Kafka sinks serialize.
``spark_schema(type_info) -> StructType``
``checkpoint(name) -> str``
    The checkpoint location of a query: ``$F2S_CHECKPOINT_DIR/<name>`` when that variable is
    set (a durable folder: a restarted program resumes where it stopped, as a Flink job
    restored from a checkpoint), else a fresh temporary folder per run (the program starts
    from the configured starting offsets each time, as a Flink job submitted anew).
``flink_csv(type_info, field_delimiter=",", null_literal=None) -> Column``
    A row as Flink's ``CsvRowSerializationSchema`` writes it (Spark's ``to_csv`` quotes and
    ends records differently).
``stream.keyBy(key) -> KeyedMicroBatches`` and ``rolling_reduce(keyed, fn) -> MicroBatches``
    ``key_by(key).reduce(fn)`` (and ``sum``/``min``/``max``/``min_by``/``max_by`` with the
    ``f2s.Sum(field)``... reduce functions) in STREAMING mode: for every element, the reduction
    of its key's elements so far, the key's state kept across micro-batches (and across
    restarts from the same checkpoint) by ``groupBy().transformWithState()``. Needs Spark >=
    4.1 with pyarrow, pandas and protobuf on the driver and the workers, and the RocksDB
    state store (the only one transformWithState runs on): ``rolling_reduce`` sets
    ``spark.sql.streaming.stateStore.providerClass`` to it when the session has the default
    provider.
``keyed_process(stream.keyBy(key), function, timers=None) -> MicroBatches``
    ``key_by(key).process(KeyedProcessFunction)``: ``process_element`` with the key's state,
    kept by ``transformWithState``; with ``timers="event"`` (a timestamped stream) or
    ``"processing"``, ``on_timer`` for the timers it registers. ``side_output(result, tag)``
    (``f2s.side_output``) is what it yielded as ``(tag, value)``.
``windows(stream.keyBy(key), assigner) -> StreamWindows``
    ``key_by(key).window(assigner)`` (event-time tumbling, sliding, session windows) of a
    timestamped stream: ``reduce``/``aggregate``/``process``/``apply`` fire each window when
    the watermark passes it (transformWithState); ``side_output_late_data(tag)``.
``f2s.windows.with_timestamps(stream, strategy)``
    ``assign_timestamps_and_watermarks(strategy)``: a timestamped stream of ``(timestamp,
    value)`` pairs (``mapValues``/``values``...) whose watermark follows the strategy.
``stream.union(*others) -> MicroBatches``
    ``a.union(b, ...)`` of unbounded streams: the elements of all, pickled after each
    stream's operators, in one streaming DataFrame (pyarrow needed, as for ``rolling_reduce``).
``table(stream, ddl) -> DataFrame``
    ``t_env.from_data_stream(stream)``: the elements of an unbounded stream (tuples of the
    table's columns) as a streaming DataFrame of the columns ``ddl`` (pyarrow needed).
``await_termination(spark)``
    ``env.execute()``: wait until every active streaming query ends (returns at once when
    none runs).

Depends on pyspark and the datastream shim only (``rolling_reduce``: pyarrow, pandas and protobuf too).
"""

from __future__ import annotations

import itertools
import os
import pickle
import tempfile

from flink2spark.runtime.datastream import Row, _check_supported, decoded
from flink2spark.runtime.windows import MIN_WATERMARK, NO_TIMESTAMP

__all__ = [
    "MicroBatches",
    "KeyedMicroBatches",
    "micro_batches",
    "rolling_reduce",
    "keyed_process",
    "side_output",
    "windows",
    "StreamWindows",
    "elements",
    "foreach_batch",
    "to_dataframe",
    "spark_schema",
    "checkpoint",
    "await_termination",
    "flink_csv",
    "table",
]

_ROOT = []
_NAMES = set()


def checkpoint(name):
    """The checkpoint folder of the query called ``name`` (unique within the run)."""
    root = os.environ.get("F2S_CHECKPOINT_DIR")
    if not root:
        if not _ROOT:
            _ROOT.append(tempfile.mkdtemp(prefix="f2s-checkpoints-"))
        root = _ROOT[0]
    unique, n = name, 1
    while unique in _NAMES:
        n += 1
        unique = "%s-%d" % (name, n)
    _NAMES.add(unique)
    return os.path.join(root, unique)


_SPARK_TYPES = {
    "STRING": "StringType",
    "CHAR": "StringType",
    "BOOLEAN": "BooleanType",
    "BYTE": "ByteType",
    "SHORT": "ShortType",
    "INT": "IntegerType",
    "LONG": "LongType",
    "FLOAT": "FloatType",
    "DOUBLE": "DoubleType",
}


def _spark_type(type_info):
    from pyspark.sql import types as T

    kind = type_info.kind
    if kind in _SPARK_TYPES:
        return getattr(T, _SPARK_TYPES[kind])()
    if kind == "ROW":
        return T.StructType([T.StructField(n, _spark_type(t), True) for n, t in zip(type_info.field_names, type_info.field_types)])
    if kind == "PRIMITIVE_ARRAY" and type_info.field_types[0].kind == "BYTE":
        return T.BinaryType()  # byte[]
    if kind in ("PRIMITIVE_ARRAY", "BASIC_ARRAY", "LIST"):
        element = type_info.field_types[0]
        return T.ArrayType(_spark_type(element), kind != "PRIMITIVE_ARRAY")  # primitive arrays hold no nulls
    if kind == "MAP":
        key_type, value_type = type_info.field_types
        return T.MapType(_spark_type(key_type), _spark_type(value_type), True)
    raise NotImplementedError("flink2spark: no Spark type for %r" % (type_info,))


def spark_schema(type_info):
    """The Spark schema of a DataFrame of elements of ``type_info``."""
    from pyspark.sql import types as T

    if type_info is not None and type_info.kind == "ROW":
        return _spark_type(type_info)
    value = T.StringType() if type_info is None else _spark_type(type_info)
    return T.StructType([T.StructField("value", value, True)])


def _decoder(type_info):
    """Spark Row of a decoded Kafka value -> the element PyFlink's operators see."""
    if type_info is not None and type_info.kind == "ROW":
        decode = decoded(type_info)
        return lambda row: decode(tuple(row))
    decode = decoded(type_info)  # Spark gives binary values as bytearray, Flink as bytes
    return lambda row: decode(row[0])


def elements(df, type_info=None):
    """The elements of a bounded (batch) DataFrame read from Kafka, as an RDD."""
    return df.rdd.map(_decoder(type_info))


class MicroBatches(object):
    """An unbounded stream: a streaming DataFrame and the Python operators applied to its
    elements, run on each micro-batch as RDD operations (see ``foreach_batch``).

    ``decode`` turns a row of ``df`` into an element (default: the decoder of ``type_info``);
    ``order`` names a column that gives the elements' order within a micro-batch.

    A *timestamped* stream (``with_watermark``, after ``f2s.windows.with_timestamps``) has
    ``(timestamp, value)`` pairs as elements, as the bounded shim's timestamped RDDs, and the
    watermark delay of its strategy (``delay`` ms behind the largest timestamp; None: no
    watermark)."""

    def __init__(self, df, type_info=None, ops=(), decode=None, order=None, timestamped=False, delay=None, stateful=False, watermarked=False, chained=False):
        self.df = df
        self.type_info = type_info
        self.ops = tuple(ops)
        self.decode = decode
        self.order = order
        self.timestamped = timestamped
        self.delay = delay
        self.stateful = stateful  # made by a transformWithState operator that does not hand the watermark on
        self.chained = chained  # made by one that does: its elements come before the watermark that made them
        self.watermarked = watermarked  # its DataFrame has Spark's watermark already (a union's inputs)

    def _copy(self, **changes):
        fields = dict(
            df=self.df, type_info=self.type_info, ops=self.ops, decode=self.decode, order=self.order, timestamped=self.timestamped, delay=self.delay, stateful=self.stateful,
            watermarked=self.watermarked, chained=self.chained,
        )
        fields.update(changes)
        return MicroBatches(**fields)

    tagged = None  # the results of a keyed process function, side outputs included (``side_output``)

    def _then(self, name, function):
        return self._copy(ops=self.ops + ((name, function),))

    def map(self, f):
        return self._then("map", f)

    def flatMap(self, f):  # noqa: N802 - RDD's name
        return self._then("flatMap", f)

    def filter(self, f):
        return self._then("filter", f)

    def mapPartitionsWithIndex(self, f):  # noqa: N802 - RDD's name
        return self._then("mapPartitionsWithIndex", f)

    def mapValues(self, f):  # noqa: N802 - RDD's name
        """``map`` on the values of (timestamp, value) pairs."""
        return self._then("map", lambda pair: (pair[0], f(pair[1])))

    def flatMapValues(self, f):  # noqa: N802 - RDD's name
        return self._then("flatMap", lambda pair: ((pair[0], v) for v in f(pair[1])))

    def values(self):
        return self._then("map", lambda pair: pair[1])

    def with_watermark(self, delay):
        """The elements (already ``(timestamp, value)`` pairs) as a timestamped stream whose
        watermark stays ``delay`` ms behind the largest timestamp (None: no watermark)."""
        return self._copy(timestamped=True, delay=delay)

    def keyBy(self, f):  # noqa: N802 - RDD's name
        """``key_by(f)``: a keyed stream for ``rolling_reduce``/``keyed_process`` (on a
        timestamped stream ``f`` gets the value of each pair)."""
        return KeyedMicroBatches(self, f)

    def union(self, *others):
        """``a.union(b, ...)`` of unbounded streams: one stream of the elements of all (each
        stream's elements pickled after its operators, the DataFrames unioned); Flink gives
        no order between the inputs, here they are interleaved by their partition positions."""
        streams = (self,) + others
        for other in others:
            if not isinstance(other, MicroBatches):
                raise TypeError("flink2spark: union of an unbounded stream with a bounded one is not converted")
            if other.timestamped != self.timestamped:
                raise TypeError("flink2spark: union of unbounded streams with and without timestamps is not converted")
        df = _pickled_rows(self)
        for other in others:
            df = df.unionByName(_pickled_rows(other))
        if not self.timestamped:
            return MicroBatches(df, decode=_unpickled, order="order", stateful=any(s.stateful for s in streams))
        # Flink's watermark of a union is the least of its inputs': each input gets its own watermark here and
        # Spark's global watermark is the least of them (its default policy)
        delays = [s.delay for s in streams]
        if None in delays:
            return MicroBatches(df, decode=_stamped, order="order", timestamped=True, delay=None, stateful=any(s.stateful for s in streams))
        df = _watermarked_rows(self)
        for other in others:
            df = df.unionByName(_watermarked_rows(other))
        chained = any(s.chained for s in streams)
        return MicroBatches(df, decode=_stamped, order="order", timestamped=True, delay=max(delays), stateful=any(s.stateful for s in streams), watermarked=True, chained=chained)

    def _decoder(self):
        return self.decode if self.decode is not None else _decoder(self.type_info)

    def batch(self, batch_df):
        """The RDD of one micro-batch's elements after the recorded operators."""
        if self.order is not None:
            batch_df = batch_df.sort(self.order)
        rdd = batch_df.rdd.map(self._decoder())
        for name, function in self.ops:
            rdd = getattr(rdd, name)(function)
        return rdd


class KeyedMicroBatches(object):
    """``stream.keyBy(key)`` of an unbounded stream (``mapValues(f)`` changes the values after
    the key is taken, as on a pair RDD); ``rolling_reduce`` and ``keyed_process`` read it."""

    def __init__(self, stream, key, value_ops=()):
        self.stream = stream
        self.key = key
        self.value_ops = tuple(value_ops)

    def mapValues(self, f):  # noqa: N802 - RDD's name
        return KeyedMicroBatches(self.stream, self.key, self.value_ops + (f,))


# pickles read back by other processes and, in the state, by later runs: one fixed protocol
_PROTOCOL = 4
_PROVIDER = "spark.sql.streaming.stateStore.providerClass"
ROCKSDB = "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider"
_OUTPUT_SCHEMA = "value binary, order long"


def _elements(decode, ops, index, rows):
    """The recorded operators on the iterator of a partition's rows (``RDD`` semantics)."""
    elements = map(decode, rows)
    for name, f in ops:
        if name == "map":
            elements = map(f, elements)
        elif name == "flatMap":
            elements = itertools.chain.from_iterable(map(f, elements))
        elif name == "filter":
            elements = filter(f, elements)
        else:
            elements = f(index, elements)
    return elements


def _batch_rows(batches, schema):
    """The rows ``df.rdd`` gives (binary values as bytearray) of a partition's Arrow batches of ``schema``."""
    import pyarrow as pa
    from pyspark.sql.conversion import ArrowTableToRowsConversion

    for b in batches:
        yield from ArrowTableToRowsConversion.convert(pa.Table.from_batches([b]), schema, binary_as_bytes=False)


def table(stream, ddl):
    """``t_env.from_data_stream(stream)`` of an unbounded stream whose elements (after its
    recorded operators) are tuples of the table's columns: a streaming DataFrame of the
    columns ``ddl`` (Spark SQL, such as ``"f0 STRING"``), each micro-batch's elements made
    rows by ``mapInArrow`` (a value that does not fit its column's type fails the query, as
    Flink's serializer fails the job). Needs pyarrow, as ``rolling_reduce``."""
    from pyspark.sql import SparkSession
    from pyspark.sql.pandas.types import to_arrow_schema

    output = SparkSession.builder.getOrCreate().createDataFrame([], ddl).schema
    arrow = to_arrow_schema(output)
    schema, decode, ops = stream.df.schema, stream._decoder(), stream.ops  # not the DataFrame: it stays on the driver

    def encode(batches):
        import pyarrow as pa
        from pyspark import TaskContext

        index = TaskContext.get().partitionId()
        rows = []
        for element in _elements(decode, ops, index, _batch_rows(batches, schema)):
            rows.append(tuple(element))
            if len(rows) == 4096:
                yield _record_batch(pa, rows, arrow)
                rows = []
        yield _record_batch(pa, rows, arrow)

    return stream.df.mapInArrow(encode, output)


def _record_batch(pa, rows, arrow):
    return pa.RecordBatch.from_arrays([pa.array([r[i] for r in rows], type=f.type) for i, f in enumerate(arrow)], schema=arrow)


def _keyed_rows(keyed):
    """The streaming DataFrame (key, value, order) of a keyed stream's elements: the pickled
    key and element and the element's position in its micro-batch partition (partition,
    index) as one long."""
    return _pickled_rows(keyed.stream, keyed.key, keyed.value_ops)


def _pickled_rows(stream, key=None, value_ops=()):
    """The streaming DataFrame of ``stream``'s elements after its recorded operators, each
    pickled with its position in its micro-batch partition (partition, index) as one long:
    (value, order), or (key, value, order) with the pickled ``key(element)`` (taken before
    ``value_ops``) when ``key`` is given."""
    schema, decode, ops = stream.df.schema, stream._decoder(), stream.ops  # not the DataFrame: it stays on the driver
    stamped = stream.timestamped  # elements are (timestamp, value) pairs: a ts column too
    columns = (("key",) if key is not None else ()) + ("value", "order") + (("ts",) if stamped else ())

    def encode(batches):
        import pyarrow as pa
        from pyspark import TaskContext

        index = TaskContext.get().partitionId()
        output = pa.schema([(c, pa.int64() if c in ("order", "ts") else pa.binary()) for c in columns])
        out = {c: [] for c in columns}
        for n, element in enumerate(_elements(decode, ops, index, _batch_rows(batches, schema))):
            if stamped:
                out["ts"].append(None if element[0] is None or element[0] == NO_TIMESTAMP else element[0])
                element = element[1]
            if key is not None:
                out["key"].append(pickle.dumps(key(element), _PROTOCOL))
                for f in value_ops:
                    element = f(element)
            out["value"].append(pickle.dumps(element, _PROTOCOL))
            out["order"].append((index << 40) + n)
            if len(out["value"]) == 4096:
                yield pa.RecordBatch.from_pydict(out, schema=output)
                out = {c: [] for c in columns}
        yield pa.RecordBatch.from_pydict(out, schema=output)

    ddl = ", ".join("%s %s" % (c, "long" if c in ("order", "ts") else "binary") for c in columns)
    return stream.df.mapInArrow(encode, ddl)


def _rolling_processor(fn, stamped=False):
    """A StatefulProcessor folding each key's elements with ``fn`` in their order, the
    reduction so far (pickled) in a ValueState, emitting it after every element (``stamped``:
    with the element's timestamp, as Flink emits it)."""
    from pyspark.sql import Row
    from pyspark.sql.streaming import StatefulProcessor

    class RollingReduce(StatefulProcessor):
        def init(self, handle):
            self.state = _pickled_state(handle, "reduced")

        def handleInputRows(self, key, rows, timerValues):  # noqa: N802, N803 - PySpark's names
            has_state = self.state.exists()
            reduced = pickle.loads(self.state.get()[0]) if has_state else None
            pickled = None
            for row in sorted(rows, key=lambda r: r.order):
                value = pickle.loads(row.value)
                reduced = fn(reduced, value) if has_state else value
                has_state = True
                pickled = pickle.dumps(reduced, _PROTOCOL)  # emitted now: later in-place updates do not change it
                yield Row(value=pickled, order=row.order, ts=row.ts) if stamped else Row(value=pickled, order=row.order)
            if pickled is not None:
                self.state.update((pickled,))

        def close(self):
            pass

    return RollingReduce()


def _unpickled(row):
    return pickle.loads(row[0])


def rolling_reduce(keyed, fn):
    """``KeyedStream.reduce(fn)`` (STREAMING mode) of an unbounded stream: for every element,
    the reduction of its key's elements so far (the first element of a key as it is).

    Keys are grouped by their pickled bytes, as PyFlink does for keys without ``key_type``.
    Each key's elements are reduced in their order in the source partition (a Kafka
    partition keeps its order); the results of a micro-batch come out in that order. The
    reduction so far is kept per key by ``groupBy().transformWithState()`` in the query's
    checkpoint, so it survives micro-batches and restarts from the same checkpoint. On a
    timestamped stream each result carries the timestamp of the element just reduced in.
    """
    stream = keyed.stream
    _use_rocksdb(stream.df.sparkSession)
    stamped = stream.timestamped
    schema = _OUTPUT_SCHEMA + (", ts long" if stamped else "")
    reduced = _keyed_rows(keyed).groupBy("key").transformWithState(_rolling_processor(fn, stamped), schema, "Append", "None")
    if stamped:
        return MicroBatches(reduced, decode=_stamped, order="order", timestamped=True, delay=stream.delay, stateful=True)
    return MicroBatches(reduced, decode=_unpickled, order="order", stateful=True)


_TIME_MODES = {None: "None", "event": "EventTime", "processing": "ProcessingTime"}
# what a timer emits sorts before the elements of its micro-batch: Flink fires a timer as soon as
# the watermark (or the clock) passes it, which happened before these elements arrived
_TIMER_ORDER = -(1 << 62)


def _process_processor(function, timers=None, chained=False):
    """A StatefulProcessor running ``function.process_element(value, ctx)`` (a
    KeyedProcessFunction) on each key's elements in their order, with the keyed state its
    ``open()`` created (the key's state values, pickled, live in one ValueState), and
    ``function.on_timer(timestamp, ctx)`` for the timers of the domain ``timers`` ("event",
    "processing" or None) it registers. ``chained``: the elements come from an event-time
    operator that made them when this watermark came: they go in first, seeing the key's
    previous watermark, and the timers due fire after them, as on Flink."""
    from pyspark.sql import Row
    from pyspark.sql.streaming import StatefulProcessor

    from flink2spark.runtime.datastream import task_attempt
    from flink2spark.runtime.process import Context, KeyedRuntimeContext, OutputTag, TimeDomain, _Store

    domains = {TimeDomain.EVENT_TIME: "event", TimeDomain.PROCESSING_TIME: "processing"}

    class KeyedProcess(StatefulProcessor):
        def init(self, handle):
            self.handle = handle
            self.state = _pickled_state(handle, "keyed_state")
            self.seen = _pickled_state(handle, "watermark")  # chained: the watermark the key saw last
            self.fn = function  # each task unpickles its own processor, with its own instance
            self.store = _Store()
            self.key = self.timestamp = self.domain = None
            self.watermark = MIN_WATERMARK
            self.ctx = Context(self)  # the bounded shim's ctx, on this runner
            if hasattr(self.fn, "open"):
                self.fn.open(KeyedRuntimeContext(self.store, 0, task_attempt(), type(self.fn).__name__))

        def current_key(self):
            return self.key

        # -- timers (TimeDomain, time): Spark keeps them per key, in the operator's one time mode
        def register(self, domain, timestamp):
            if domains[domain] == "event" and timers == "never":
                return  # no watermark: Flink keeps the timer, which never fires
            if domains[domain] != timers:
                raise NotImplementedError("flink2spark: %s-time timers in a function converted for %s-time timers" % (domains[domain], timers))
            self.handle.registerTimer(int(timestamp))

        def delete(self, domain, timestamp):
            if domains[domain] == timers:
                self.handle.deleteTimer(int(timestamp))

        def _now(self, timer_values):
            if timers == "event":
                self.watermark = _watermark(timer_values)
                return self.watermark
            return timer_values.getCurrentProcessingTimeInMs()

        def _load(self, key):
            self.key = _load_keyed_state(self.state, self.store, key)
            return self.key

        def _save(self, k):
            _save_keyed_state(self.state, self.store, k)

        def _rows(self, results, order, ts):
            for out in results or ():
                tag = None
                if isinstance(out, tuple) and len(out) == 2 and isinstance(out[0], OutputTag):
                    tag, out = out[0].tag_id, out[1]
                yield Row(value=pickle.dumps(out, _PROTOCOL), order=order, ts=ts, tag=tag)

        def _fire(self, timestamp):
            self.timestamp = timestamp
            self.domain = TimeDomain.EVENT_TIME if timers == "event" else TimeDomain.PROCESSING_TIME
            emitted = timestamp if timers == "event" else None  # Flink erases the timestamp of processing-time results
            yield from self._rows(self.fn.on_timer(timestamp, self.ctx), _TIMER_ORDER + timestamp, emitted)
            self.domain = None

        def _due(self, timer_values):
            now = self._now(timer_values)
            for t in sorted(self.handle.listTimers()):
                if t <= now:
                    self.handle.deleteTimer(t)
                    yield from self._fire(t)

        def handleInputRows(self, key, rows, timerValues):  # noqa: N802, N803 - PySpark's names
            k = self._load(key)
            if chained:  # the elements came before this watermark: they see the key's previous one
                self.watermark = pickle.loads(self.seen.get()[0]) if self.seen.exists() else MIN_WATERMARK
            elif timers is not None:  # timers already due fire first, as on Flink
                yield from self._due(timerValues)
            for row in sorted(rows, key=lambda r: r.order):
                ts = getattr(row, "ts", None)
                self.timestamp = NO_TIMESTAMP if ts is None else ts
                yield from self._rows(self.fn.process_element(pickle.loads(row.value), self.ctx), row.order, ts)
            if chained:
                if timers is not None:
                    yield from self._due(timerValues)
                self.seen.update((pickle.dumps(_watermark(timerValues), _PROTOCOL),))
            self._save(k)

        def handleExpiredTimer(self, key, timerValues, expiredTimerInfo):  # noqa: N802, N803 - PySpark's names
            k = self._load(key)
            self._now(timerValues)
            yield from self._fire(expiredTimerInfo.getExpiryTimeInMs())
            self._save(k)

        def close(self):
            if hasattr(self.fn, "close"):
                self.fn.close()

    return KeyedProcess()


_PROCESS_SCHEMA = "value binary, order long, ts long, tag string"
# EventTime-mode operators add the column that carries Spark's watermark to the next stateful
# operator (transformWithState's eventTimeColumnName)
_EVENT_SCHEMA = _PROCESS_SCHEMA + ", event_time timestamp"
_LAST_MS = 253402300799999  # 9999-12-31T23:59:59.999Z, the last instant a Spark timestamp holds


def _event_time_output(processor):
    """``processor`` with an ``event_time`` column on its rows: the result's timestamp, but
    after the current watermark (Spark refuses rows an operator emits behind it; Flink's
    results keep their timestamps, which stay in ``ts``)."""
    import datetime

    from pyspark.sql import Row
    from pyspark.sql.streaming import StatefulProcessor

    utc = datetime.timezone.utc

    def stamped(rows, timer_values):
        floor = max(timer_values.getCurrentWatermarkInMs(), 0) + 1
        for row in rows:
            at = min(max(floor, row.ts if row.ts is not None else floor), _LAST_MS)
            yield Row(value=row.value, order=row.order, ts=row.ts, tag=row.tag, event_time=datetime.datetime.fromtimestamp(at / 1000, tz=utc))

    class EventTimeOutput(StatefulProcessor):
        def init(self, handle):
            processor.init(handle)

        def handleInputRows(self, key, rows, timerValues):  # noqa: N802, N803 - PySpark's names
            return stamped(processor.handleInputRows(key, rows, timerValues), timerValues)

        def handleExpiredTimer(self, key, timerValues, expiredTimerInfo):  # noqa: N802, N803 - PySpark's names
            return stamped(processor.handleExpiredTimer(key, timerValues, expiredTimerInfo), timerValues)

        def close(self):
            processor.close()

    return EventTimeOutput()


def _transform(rows, processor, mode):
    """``rows.groupBy("key").transformWithState(processor, ...)`` in ``mode``; in EventTime
    mode its results carry the watermark on to later stateful operators."""
    grouped = rows.groupBy("key")
    if mode == "EventTime":
        return grouped.transformWithState(_event_time_output(processor), _EVENT_SCHEMA, "Append", mode, eventTimeColumnName="event_time")
    return grouped.transformWithState(processor, _PROCESS_SCHEMA, "Append", mode)


def _pickled_state(handle, name):
    from pyspark.sql.types import BinaryType, StructField, StructType

    return handle.getValueState(name, StructType([StructField("value", BinaryType(), False)]))


def _load_keyed_state(state, store, key):
    """The key of a transformWithState group (pickled), its keyed state values (one pickled
    dict in ``state``) loaded into the shim's ``store`` that the state objects read."""
    k = pickle.loads(key[0])
    saved = pickle.loads(state.get()[0]) if state.exists() else {}
    for table in store.tables.values():
        table.clear()  # the state objects keep these dicts: refill them for this key
    for name, value in saved.items():
        store.table(name)[k] = value
    store.key = k
    return k


def _save_keyed_state(state, store, k):
    now = {name: table[k] for name, table in store.tables.items() if k in table}
    if now:
        state.update((pickle.dumps(now, _PROTOCOL),))
    elif state.exists():
        state.clear()


def _use_rocksdb(spark):
    provider = spark.conf.get(_PROVIDER, None)
    if not provider or provider.endswith(".HDFSBackedStateStoreProvider"):
        spark.conf.set(_PROVIDER, ROCKSDB)  # transformWithState runs on RocksDB only


def _stamped(row):
    return (NO_TIMESTAMP if row[2] is None else row[2]), pickle.loads(row[0])


def keyed_process(keyed, function, timers=None):
    """``KeyedStream.process(KeyedProcessFunction)`` of an unbounded stream (STREAMING mode):
    ``process_element`` on every element with the keyed state (value, list, map, reducing,
    aggregating) of its key, kept by ``groupBy().transformWithState()`` in the query's
    checkpoint across micro-batches and restarts. Keys are grouped by their pickled bytes, each
    key's elements run in their source partition's order, the results of a micro-batch come
    out in that order.

    ``timers``: the one timer domain the function uses ("event" or "processing"; Spark's
    transformWithState has one time mode). Event-time timers fire when the watermark of the
    timestamped input stream (its strategy's delay behind the largest timestamp, as Flink's)
    passes them; Spark advances it between micro-batches. Timers due by then fire before the
    micro-batch's elements of their key. On a timestamped stream ``ctx.timestamp()`` is the
    element's timestamp and the results carry it (``on_timer``'s: the timer's time).
    ``yield tag, value`` with an ``OutputTag`` goes to ``side_output(result, tag)``."""
    stream = keyed.stream
    _use_rocksdb(stream.df.sparkSession)
    rows = _keyed_rows(keyed)
    mode = _TIME_MODES[timers]
    if timers == "event":
        if not stream.timestamped:
            raise ValueError("flink2spark: event-time timers on a stream without timestamps never fire on Flink")
        if stream.delay is None:
            mode = "None"  # no_watermarks(): the watermark never passes a timer
            timers = "never"
        else:
            rows = _event_time_rows(keyed)  # late elements included: Flink's process functions see them
    elif timers is None and stream.timestamped and stream.delay is not None and not stream.stateful:
        mode, rows = "EventTime", _event_time_rows(keyed)  # no timers, but the watermark goes on to later operators
    results = _transform(rows, _process_processor(function, timers, stream.chained), mode)
    return _outputs(results, stream, mode=mode)


def _outputs(results, stream, timestamped=None, mode=None):
    """The main output of a process function's results (a ``tag`` column names side outputs);
    timestamped as ``stream`` unless ``timestamped`` says. The results of an EventTime-mode
    operator (``mode``) carry the watermark on: event time may follow."""
    stamped = stream.timestamped if timestamped is None else timestamped
    decode = _stamped if stamped else _unpickled
    chained = mode == "EventTime"
    main = MicroBatches(
        results.filter(results.tag.isNull()), decode=decode, order="order", timestamped=stamped, delay=stream.delay,
        stateful=not chained, watermarked=chained, chained=chained,
    )
    main.tagged = results
    return main


def side_output(stream, tag):
    """``stream.get_side_output(tag)`` of a process function's results on an unbounded stream."""
    results = getattr(stream, "tagged", None)
    if results is None:
        raise ValueError("get_side_output(): this stream was not made by a process function")
    return stream._copy(df=results.filter(results.tag == tag.tag_id))


def _watermark(timer_values):
    """The watermark of a transformWithState call as Flink gives it: Long.MIN_VALUE before the
    first one (Spark says 0; without event time, -1)."""
    wm = timer_values.getCurrentWatermarkInMs()
    return MIN_WATERMARK if wm <= 0 else wm


def _window_processor(assigner, emit, functions, late_tag, lateness=0):
    """A StatefulProcessor keeping each key's event-time windows as Flink's WindowOperator
    does: an element goes to the windows its assigner gives (session windows merged with those
    they touch), except windows the watermark has passed (late: dropped, or to ``late_tag``'s
    side output when no window takes it); a timer at each window's ``max_timestamp()`` fires it
    (``emit(key, window, elements in arrival order)``), and its contents are dropped once the
    watermark passes ``max_timestamp() + lateness`` (Flink's allowed lateness: until then an
    element still joins the window and fires it again at once, with all its elements). ``functions``
    with ``open``/``close`` get them once per task, their keyed state scoped to the key."""
    from pyspark.sql import Row
    from pyspark.sql.streaming import StatefulProcessor

    from flink2spark.runtime.datastream import task_attempt
    from flink2spark.runtime.process import KeyedRuntimeContext, _Store

    class WindowOperator(StatefulProcessor):
        def init(self, handle):
            self.handle = handle
            self.windows = _pickled_state(handle, "windows")  # {window: [(sequence, value), ...]}, elements seen
            self.state = _pickled_state(handle, "keyed_state")
            self.store = _Store()
            self.functions = functions  # each task unpickles its own
            for fn in self.functions:
                if hasattr(fn, "open"):
                    fn.open(KeyedRuntimeContext(self.store, 0, task_attempt(), type(fn).__name__))

        def _load(self, key):
            k = _load_keyed_state(self.state, self.store, key)
            saved = pickle.loads(self.windows.get()[0]) if self.windows.exists() else ({}, 0)
            self.fired = set(saved[2]) if len(saved) > 2 else set()  # windows fired and kept for late elements
            return k, saved[0], saved[1]

        def _save(self, k, contents, sequence):
            _save_keyed_state(self.state, self.store, k)
            if contents or (assigner.count and sequence):  # count windows number the key's elements
                self.fired &= set(contents)
                self.windows.update((pickle.dumps((contents, sequence, sorted(self.fired)), _PROTOCOL),))
            elif self.windows.exists():
                self.windows.clear()

        def _emit(self, k, window, entries, order, watermark):
            """The window function on ``window``; ``watermark``: what its context's
            ``current_watermark()`` gives (Flink: the watermark that fired it)."""
            end = window.max_timestamp()
            for result in emit(k, window, [value for _, value in sorted(entries, key=lambda e: e[0])], watermark):
                yield Row(value=pickle.dumps(result, _PROTOCOL), order=order, ts=end, tag=None)

        def _fire(self, k, contents, until, watermark):
            """Fire (in time order) the windows whose max_timestamp() is due by ``until``, and
            drop those whose max_timestamp() + lateness is."""
            for window in sorted((w for w in contents if w.max_timestamp() <= until and w not in self.fired), key=lambda w: (w.max_timestamp(), w.start)):
                yield from self._emit(k, window, contents[window], _TIMER_ORDER + window.max_timestamp(), watermark)
                self.fired.add(window)
            for window in [w for w in contents if w.max_timestamp() + lateness <= until]:
                del contents[window]

        def _target(self, contents, window):
            """The window an element of ``window`` goes to and the windows merged into it:
            session windows merge with the windows they touch, transitively (Flink's
            MergingWindowSet)."""
            if not assigner.merging:
                return window, [window] if window in contents else []
            members, cover, changed = [], window, True
            while changed:
                changed = False
                for other in contents:
                    if other not in members and other.intersects(cover):
                        members.append(other)
                        cover, changed = cover.cover(other), True
            return cover, members

        def _count(self, k, contents, count, value, row, watermark):
            """Count windows: the element (the key's ``count``-th) joins its windows; a window
            holding ``size`` elements fires with them (results carry the element's timestamp)."""
            for window in assigner.windows(value, None, count):
                members = contents.setdefault(window, [])
                members.append((count, value))
                if len(members) == assigner._size:
                    for result in emit(k, window, [v for _, v in contents.pop(window)], watermark):
                        yield Row(value=pickle.dumps(result, _PROTOCOL), order=row.order, ts=getattr(row, "ts", None), tag=None)

        def handleInputRows(self, key, rows, timerValues):  # noqa: N802, N803 - PySpark's names
            k, contents, sequence = self._load(key)
            current = _watermark(timerValues)
            if assigner.count:
                for row in sorted(rows, key=lambda r: r.order):
                    yield from self._count(k, contents, sequence, pickle.loads(row.value), row, current)
                    sequence += 1
                self._save(k, contents, sequence)
                return
            now = None
            if assigner.processing_time:  # the micro-batch's time places its elements
                now = timerValues.getCurrentProcessingTimeInMs()
                yield from self._fire(k, contents, now, current)
                watermark = MIN_WATERMARK  # processing-time windows are never late
            else:
                watermark = current
                yield from self._fire(k, contents, watermark, current)  # due windows fire first, as on Flink
            for row in sorted(rows, key=lambda r: r.order):
                value = pickle.loads(row.value)
                taken = False
                placed_at = now if assigner.processing_time else (NO_TIMESTAMP if getattr(row, "ts", None) is None else row.ts)
                for window in assigner.windows(value, placed_at, None):
                    target, members = self._target(contents, window)
                    if target.max_timestamp() + lateness <= watermark:
                        continue  # late: Flink drops it
                    entries = []
                    for member in members:
                        if member != target:
                            self.handle.deleteTimer(member.max_timestamp())
                        entries.extend(contents.pop(member))
                    sequence += 1
                    contents[target] = entries + [(sequence, value)]
                    if target.max_timestamp() <= watermark:  # within the lateness: the window fires again now
                        yield from self._emit(k, target, contents[target], row.order, current)
                    else:
                        self.handle.registerTimer(target.max_timestamp())
                    if lateness:
                        self.handle.registerTimer(target.max_timestamp() + lateness)  # its cleanup
                    taken = True
                if not taken and late_tag is not None:
                    yield Row(value=pickle.dumps(value, _PROTOCOL), order=row.order, ts=getattr(row, "ts", None), tag=late_tag)
            self._save(k, contents, sequence)

        def handleExpiredTimer(self, key, timerValues, expiredTimerInfo):  # noqa: N802, N803 - PySpark's names
            k, contents, sequence = self._load(key)
            yield from self._fire(k, contents, expiredTimerInfo.getExpiryTimeInMs(), _watermark(timerValues))
            self._save(k, contents, sequence)

        def close(self):
            for fn in self.functions:
                if hasattr(fn, "close"):
                    fn.close()

    return WindowOperator()


def _trigger_processor(assigner, trigger, emit, functions, late_tag, lateness, domain, chained=False):
    """A StatefulProcessor running each key's windows through the bounded shim's
    ``_KeyOperator`` (PyFlink's window operator with ``trigger``), kept in transformWithState
    across micro-batches: the watermark (``domain`` "event") or the clock ("processing") of
    the micro-batch first fires the timers due by then, one round per call as Flink's timer
    service does (timers registered in a round fire at a later watermark), then the key's
    elements arrive; a Spark timer stands for every pending timer of ``domain``. Late elements
    no window takes go to ``late_tag``'s side output. ``chained``: the elements come from an
    event-time operator that made them when this watermark came, so they go in first (judged
    by the key's previous watermark) and the timers fire after them, as on Flink."""
    from pyspark.sql import Row
    from pyspark.sql.streaming import StatefulProcessor

    from flink2spark.runtime.datastream import task_attempt
    from flink2spark.runtime.process import KeyedRuntimeContext, _Store
    from flink2spark.runtime.windows import _KeyOperator

    event = domain == "event"

    class TriggerOperator(StatefulProcessor):
        def init(self, handle):
            self.handle = handle
            self.kept = _pickled_state(handle, "window_operator")
            self.state = _pickled_state(handle, "keyed_state")
            self.count = _pickled_state(handle, "elements")  # the key's elements so far: their order in a window
            self.store = _Store()
            self.functions = functions
            for fn in self.functions:
                if hasattr(fn, "open"):
                    fn.open(KeyedRuntimeContext(self.store, 0, task_attempt(), type(fn).__name__))

        def _load(self, key, timer_values):
            k = _load_keyed_state(self.state, self.store, key)
            operator = _KeyOperator(assigner, trigger, emit, k, lateness)
            if self.kept.exists():
                operator.restore(pickle.loads(self.kept.get()[0]))
            operator.now = timer_values.getCurrentProcessingTimeInMs()
            return k, operator

        def _advance(self, operator, timer_values, at=MIN_WATERMARK):
            """One round of the timers due by the micro-batch's watermark (or clock), or by ``at``."""
            if event:
                operator.advance(max(_watermark(timer_values), at))
            else:
                operator.advance(max(operator.now, at), event=False)

        def _save(self, k, operator):
            _save_keyed_state(self.state, self.store, k)
            kept = operator.saved()
            if kept is not None:
                self.kept.update((pickle.dumps(kept, _PROTOCOL),))
            elif self.kept.exists():
                self.kept.clear()
            if event and operator.pending(False):
                raise NotImplementedError("flink2spark: processing-time timers of a window trigger on an event-time stream (transformWithState has one time mode)")
            wanted, have = operator.pending(event), set(self.handle.listTimers())
            for at in have - wanted:
                self.handle.deleteTimer(at)
            for at in wanted - have:
                self.handle.registerTimer(at)

        def _results(self, operator):
            for order, ts, result in operator.out:
                at = order[1] if order[0] == 0 else _TIMER_ORDER + order[1]
                yield Row(value=pickle.dumps(result, _PROTOCOL), order=at, ts=None if ts == NO_TIMESTAMP else ts, tag=None)
            del operator.out[:]

        def handleInputRows(self, key, rows, timerValues):  # noqa: N802, N803 - PySpark's names
            k, operator = self._load(key, timerValues)
            if not chained:
                self._advance(operator, timerValues)  # timers due by now fire before the elements, as on Flink
                yield from self._results(operator)
            count = pickle.loads(self.count.get()[0]) if self.count.exists() else 0
            for row in sorted(rows, key=lambda r: r.order):
                value = pickle.loads(row.value)
                ts = NO_TIMESTAMP if getattr(row, "ts", None) is None else row.ts
                late = operator.element(count, ts, value, operator.now, count, order=row.order)
                count += 1
                yield from self._results(operator)
                if late and late_tag is not None:
                    yield Row(value=pickle.dumps(value, _PROTOCOL), order=row.order, ts=getattr(row, "ts", None), tag=late_tag)
            yield from self._results(operator)
            if chained:
                self._advance(operator, timerValues)
                yield from self._results(operator)
            self.count.update((pickle.dumps(count, _PROTOCOL),))
            self._save(k, operator)

        def handleExpiredTimer(self, key, timerValues, expiredTimerInfo):  # noqa: N802, N803 - PySpark's names
            k, operator = self._load(key, timerValues)
            self._advance(operator, timerValues, expiredTimerInfo.getExpiryTimeInMs())
            yield from self._results(operator)
            self._save(k, operator)

        def close(self):
            for fn in self.functions:
                if hasattr(fn, "close"):
                    fn.close()

    return TriggerOperator()


def _event_time_rows(keyed):
    """The (key, value, order, ts) rows of a timestamped keyed stream with Spark's watermark
    following the stream's strategy; the event-time column is dropped before the stateful
    operator, which would otherwise drop late rows itself (Flink's operators decide)."""
    if keyed.stream.stateful:
        raise NotImplementedError("flink2spark: event time after a stateful operator that is not of event time (rolling aggregations, processing-time or count windows...) is not converted")
    rows = _keyed_rows(keyed)
    return rows if keyed.stream.watermarked else _watermarked(rows, keyed.stream.delay)


def _watermarked_rows(stream):
    """The pickled rows of a timestamped stream with its watermark: its own (the strategy's
    delay), or the one it already has (a union's, a stateful operator's)."""
    rows = _pickled_rows(stream)
    return rows if stream.watermarked else _watermarked(rows, stream.delay)


def _watermarked(rows, delay):
    """``rows`` (with a ``ts`` column of milliseconds) with Spark's watermark ``delay`` ms behind
    the largest ``ts``; the event-time column it is defined on is dropped again."""
    from pyspark.sql import functions as F

    event_time = F.when(F.col("ts").isNotNull(), F.timestamp_millis("ts"))
    return rows.withColumn("event_time", event_time).withWatermark("event_time", "%d milliseconds" % delay).drop("event_time")


class StreamWindows(object):
    """``key_by(k).window(assigner)`` of an unbounded stream (event-time tumbling, sliding and
    session windows on a timestamped stream, processing-time ones) and ``count_window(n[, s])``:
    ``reduce``/``aggregate``/``process``/``apply`` as the bounded shim's ``f2s.windows.Windows``,
    each time window fired when Spark's watermark (or clock) passes its ``max_timestamp()``, a
    count window when full (kept by transformWithState in the query's checkpoint). Results of
    time windows carry the window's ``max_timestamp()``, of count windows the timestamp of the
    element that filled them."""

    def __init__(self, keyed, assigner, all_windows=False):
        from flink2spark.runtime.windows import Windows

        stream = keyed.stream
        if not (assigner.count or assigner.processing_time or assigner.is_global or (assigner.event_time and stream.timestamped)):
            raise ValueError("flink2spark: event-time windows on an unbounded stream need timestamps")
        self._keyed = keyed
        self._assigner = assigner
        self._late_tag = None
        self._lateness = 0
        self._trigger = None
        # the window functions' emit(key, window, elements); all-windows functions take no key
        self._functions = Windows(None, assigner, keyed=not all_windows)

    def allowed_lateness(self, time_ms):
        """``allowed_lateness(ms)``: a window keeps its elements until the watermark passes its
        end by ``ms``; an element arriving in that time fires it again with all of them (Flink's
        EventTimeTrigger). Session windows then run through the trigger operator (a late
        element may merge sessions that fired)."""
        self._lateness = int(time_ms.to_milliseconds() if hasattr(time_ms, "to_milliseconds") else time_ms)
        return self

    def trigger(self, trigger):
        """``trigger(t)``: ``t`` decides when windows fire and purge (``_trigger_processor``)."""
        self._trigger = trigger
        return self

    def _operated(self):
        """Whether the windows run through the trigger operator: a trigger, GlobalWindows, or
        allowed lateness of windows the plain processor does not keep (sessions, and
        processing-time windows, where Flink ignores it), or event-time windows after another
        event-time operator (whose results come before the watermark that made them)."""
        lateness = self._lateness > 0 and (self._assigner.merging or self._assigner.processing_time)
        chained = self._keyed.stream.chained and self._assigner.event_time  # elements come before the watermark
        return self._trigger is not None or self._assigner.is_global or lateness or chained

    def side_output_late_data(self, output_tag):
        """``side_output_late_data(tag)``: elements no window takes because the watermark has
        passed them go to ``f2s.side_output(result, tag)``."""
        self._late_tag = output_tag.tag_id
        return self

    def _run(self, emit, functions):
        stream = self._keyed.stream
        _use_rocksdb(stream.df.sparkSession)
        managed = [f for f in functions if hasattr(f, "open") or hasattr(f, "close")]
        if self._operated():
            return self._run_operator(emit, managed)
        processor = _window_processor(self._assigner, emit, managed, self._late_tag, self._lateness)
        if self._assigner.count:  # no timers: a window fires when full; results keep their element's timestamp
            results = _keyed_rows(self._keyed).groupBy("key").transformWithState(processor, _PROCESS_SCHEMA, "Append", "None")
            return _outputs(results, stream)
        if self._assigner.processing_time:
            results = _keyed_rows(self._keyed).groupBy("key").transformWithState(processor, _PROCESS_SCHEMA, "Append", "ProcessingTime")
            return _outputs(results, stream, timestamped=True)  # results carry their window's max_timestamp()
        if stream.delay is None:
            raise ValueError("flink2spark: no_watermarks(): Flink's event-time windows never fire")
        results = _transform(_event_time_rows(self._keyed), processor, "EventTime")
        return _outputs(results, stream, mode="EventTime")

    def _run_operator(self, emit, managed):
        from flink2spark.runtime.windows import EventTimeTrigger, NeverTrigger, ProcessingTimeTrigger

        stream, assigner = self._keyed.stream, self._assigner
        trigger = self._trigger
        if trigger is None:
            trigger = NeverTrigger() if assigner.is_global else ProcessingTimeTrigger() if assigner.processing_time else EventTimeTrigger()
        domain = "processing" if assigner.processing_time or not stream.timestamped else "event"
        if domain == "event" and stream.delay is None:
            domain = "processing"  # no_watermarks(): the watermark never passes an event-time timer
        processor = _trigger_processor(assigner, trigger, emit, managed, self._late_tag, self._lateness, domain, stream.chained)
        if domain == "event":
            rows, mode = _event_time_rows(self._keyed), "EventTime"
        else:
            rows, mode = _keyed_rows(self._keyed), "ProcessingTime"
        results = _transform(rows, processor, mode)
        time_window = not (assigner.count or assigner.is_global)
        return _outputs(results, stream, timestamped=stream.timestamped or time_window, mode=mode)

    def reduce(self, reduce_function, window_function=None):
        return self._functions.reduce(reduce_function, window_function, fire=self._run)

    def aggregate(self, aggregate_function, window_function=None):
        return self._functions.aggregate(aggregate_function, window_function, fire=self._run)

    def process(self, process_window_function):
        return self._functions.process(process_window_function, fire=self._run)

    def apply(self, window_function):
        return self._functions.apply(window_function, fire=self._run)


def windows(keyed, assigner):
    """``keyed.window(assigner)`` of an unbounded stream: a ``StreamWindows``."""
    return StreamWindows(keyed, assigner)


def windows_all(stream, assigner):
    """``stream.window_all(assigner)`` of an unbounded stream: the windows of one key, as Flink's
    all-windows operator (parallelism 1) keeps them; its functions (``ProcessAllWindowFunction``,
    ``AllWindowFunction``) take no key."""
    return StreamWindows(stream.keyBy(lambda element: None), assigner, all_windows=True)


def micro_batches(df, type_info=None):
    """An unbounded stream of the elements of the streaming DataFrame ``df``."""
    _check_supported(type_info)
    return MicroBatches(df, type_info)


def foreach_batch(stream, function):
    """``stream.df.writeStream.foreachBatch(...)``: ``function(rdd)`` on each micro-batch."""
    return stream.df.writeStream.foreachBatch(lambda batch_df, batch_id: function(stream.batch(batch_df)))


def _as_tuple(value, type_info):
    if type_info is not None and type_info.kind == "ROW":
        if isinstance(value, Row):
            return tuple(value.get_fields_by_names(type_info.field_names) if hasattr(value, "_fields") else value)
        return tuple(value)
    return (value,)


def to_dataframe(stream, type_info):
    """The elements of ``stream`` (an RDD) as a DataFrame of ``type_info``'s schema."""
    from pyspark.sql import SparkSession

    spark = SparkSession.builder.getOrCreate()
    schema = spark_schema(type_info)
    return spark.createDataFrame(stream.map(lambda v: _as_tuple(v, type_info)), schema)


def flink_csv(type_info, field_delimiter=",", null_literal=None):
    """The Column holding each row as ``CsvRowSerializationSchema`` writes it (checked on
    Flink 2.3): fields in order joined by ``field_delimiter``, non-empty strings always in
    double quotes with inner quotes doubled, empty strings and nulls as nothing (or
    ``null_literal``), numbers and booleans as Java's ``toString``, then ``\n``."""
    from pyspark.sql import functions as F

    empty = F.lit("" if null_literal is None else null_literal)
    fields = []
    for name, t in zip(type_info.field_names, type_info.field_types):
        column = F.col("`%s`" % name)
        if t.kind in ("STRING", "CHAR"):
            quoted = F.concat(F.lit('"'), F.replace(column, F.lit('"'), F.lit('""')), F.lit('"'))
            text = F.when(column.isNull(), empty).when(column == "", F.lit("")).otherwise(quoted)
        else:
            text = F.coalesce(column.cast("string"), empty)
        fields.append(text)
    return F.concat(F.concat_ws(field_delimiter, *fields), F.lit("\n"))


def await_termination(spark):
    """``env.execute()``: wait for every active streaming query of ``spark`` to end."""
    for query in list(spark.streams.active):
        query.awaitTermination()
