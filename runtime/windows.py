"""Event time and windows for programs converted from the PyFlink DataStream API (bounded jobs).

Converted programs reach this module as ``f2s.windows`` (``flink2spark.runtime.datastream``
imports it). Like the rest of the shim it imports only the standard library: PySpark objects
are passed in.

Record timestamps
-----------------
A Flink record may carry a timestamp (milliseconds since the epoch). A converted stream whose
records do is a *timestamped stream*: an RDD of ``(timestamp, value)`` pairs, where
``timestamp`` is an int; a record without a timestamp has ``NO_TIMESTAMP`` (Long.MIN_VALUE,
what PyFlink's ``ctx.timestamp()`` and ``record_timestamp`` give for it). Keyed (``key_by``), it is the pair RDD ``(key, (timestamp, value))``. Every
other stream is an RDD of plain values, whose records carry no timestamp (``NO_TIMESTAMP``
for a function that asks).

* ``assign_timestamps_and_watermarks(strategy.with_timestamp_assigner(a))`` makes one:
  ``with_timestamps(stream, a.extract_timestamp)`` calls ``a.extract_timestamp(value,
  record_timestamp)`` on every element, as PyFlink does (``record_timestamp`` is the
  timestamp the record had, ``NO_TIMESTAMP`` for a source without timestamps). Without a timestamp
  assigner the records keep the timestamps they had.
* Every operator keeps the timestamp of its input record on what it emits, as Flink does:
  ``map``/``flat_map`` -> ``mapValues``/``flatMapValues``, ``filter`` ->
  ``filter(f2s.windows.by_value(f))``, ``key_by`` -> ``f2s.windows.keyed(stream, key)``,
  ``print``/``execute_and_collect`` print/collect the ``values()``, ``union`` of streams with
  and without timestamps gives the latter ``NO_TIMESTAMP`` (``without_timestamps(stream)``).
* Time windows emit their results with the timestamp ``window.max_timestamp()`` (end - 1);
  count windows with the timestamp of the element that completed the window.

Watermarks
----------
For a bounded input Flink ends with the watermark ``Long.MAX_VALUE``, which fires every
pending event-time window. Before that, watermarks come every 200 ms (``pipeline.auto-watermark-
interval``): on the small inputs of a batch-sized job no window fires and no element is late
before the end of the input, and that is what the conversion computes (every window gets all
its elements). The current watermark a window function sees is ``Long.MAX_VALUE`` then.

Processing time
---------------
Processing-time windows (``TumblingProcessingTimeWindows``...) place an element by the wall
clock when it reaches the window operator, with PyFlink's formulas. A window fires when the
clock passes its ``max_timestamp()``; in STREAMING mode the windows still pending when the
bounded input ends never fire (Flink cancels processing-time timers then), in BATCH mode all
fire at the end. Results depend on when the job runs, on Flink too.
"""

from __future__ import annotations

import time

__all__ = [
    "Duration",
    "Time",
    "WatermarkStrategy",
    "TimestampAssigner",
    "TumblingProcessingTimeWindows",
    "SlidingProcessingTimeWindows",
    "ProcessingTimeSessionWindows",
    "DynamicProcessingTimeSessionWindows",
    "NO_TIMESTAMP",
    "MAX_WATERMARK",
    "with_timestamps",
    "without_timestamps",
    "by_value",
    "keyed",
    "reducing_values",
]

MAX_WATERMARK = 9223372036854775807  # Long.MAX_VALUE: the watermark at the end of a bounded input
NO_TIMESTAMP = -9223372036854775808  # Long.MIN_VALUE: PyFlink's timestamp of a record without one
MIN_WATERMARK = NO_TIMESTAMP  # no watermark yet


class Generic(object):
    """Base of the shim classes whose PyFlink counterparts are ``typing.Generic``: programs write
    ``ProcessWindowFunction[IN, OUT, KEY, W]`` in bases and ``Context[TimeWindow]`` or
    ``ValueState[int]`` in annotations, which Python evaluates; here they mean the class itself."""

    def __class_getitem__(cls, item):
        return cls


# ---------------------------------------------------------------------------------------------
# Durations and watermark strategies (PyFlink's pyflink.common.Duration/Time/WatermarkStrategy)


class Duration(object):
    """``pyflink.common.Duration``: a length of time (kept in nanoseconds, as Java does)."""

    def __init__(self, nanos):
        self._nanos = int(nanos)

    @staticmethod
    def of_days(days):
        return Duration(days * 86_400_000_000_000)

    @staticmethod
    def of_hours(hours):
        return Duration(hours * 3_600_000_000_000)

    @staticmethod
    def of_minutes(minutes):
        return Duration(minutes * 60_000_000_000)

    @staticmethod
    def of_seconds(seconds):
        return Duration(seconds * 1_000_000_000)

    @staticmethod
    def of_millis(millis):
        return Duration(millis * 1_000_000)

    @staticmethod
    def of_nanos(nanos):
        return Duration(nanos)

    def to_milliseconds(self):
        return self._nanos // 1_000_000

    def __eq__(self, other):
        return isinstance(other, Duration) and self._nanos == other._nanos

    def __hash__(self):
        return hash(self._nanos)


class Time(object):
    """``pyflink.common.Time``: a window size or gap in milliseconds."""

    def __init__(self, milliseconds):
        self._milliseconds = milliseconds

    def to_milliseconds(self):
        return self._milliseconds

    @staticmethod
    def milliseconds(milliseconds):
        return Time(milliseconds)

    @staticmethod
    def seconds(seconds):
        return Time.milliseconds(seconds * 1000)

    @staticmethod
    def minutes(minutes):
        return Time.seconds(minutes * 60)

    @staticmethod
    def hours(hours):
        return Time.minutes(hours * 60)

    @staticmethod
    def days(days):
        return Time.hours(days * 24)

    def __eq__(self, other):
        return isinstance(other, Time) and self._milliseconds == other._milliseconds

    def __hash__(self):
        return hash(self._milliseconds)

    def __str__(self):
        return "{} ms".format(self._milliseconds)


class WatermarkStrategy(object):
    """``pyflink.common.WatermarkStrategy``: on a bounded input only its timestamp assigner
    changes results (see the module docstring); the watermark settings are kept for reading."""

    def __init__(self, kind, max_out_of_orderness=None, timestamp_assigner=None):
        self.kind = kind
        self.max_out_of_orderness = max_out_of_orderness
        self._timestamp_assigner = timestamp_assigner

    @staticmethod
    def for_monotonous_timestamps():
        return WatermarkStrategy("monotonous")

    @staticmethod
    def for_bounded_out_of_orderness(max_out_of_orderness):
        return WatermarkStrategy("bounded", max_out_of_orderness)

    @staticmethod
    def no_watermarks():
        return WatermarkStrategy("none")

    def with_timestamp_assigner(self, timestamp_assigner):
        return WatermarkStrategy(self.kind, self.max_out_of_orderness, timestamp_assigner)

    def with_idleness(self, idle_timeout):
        return self

    def with_watermark_alignment(self, watermark_group, max_allowed_watermark_drift, update_interval=None):
        return self


class TimestampAssigner(object):
    """``pyflink.common.watermark_strategy.TimestampAssigner``: ``extract_timestamp(value,
    record_timestamp)`` gives an element's event time in milliseconds."""

    def extract_timestamp(self, value, record_timestamp):
        raise NotImplementedError


# ---------------------------------------------------------------------------------------------
# Timestamped streams


def with_timestamps(stream, extract_timestamp, timestamped=False):
    """``assign_timestamps_and_watermarks(... .with_timestamp_assigner(assigner))``: the
    timestamped stream ``(extract_timestamp(value, record_timestamp), value)``.

    ``extract_timestamp`` is the assigner's method, or a ``WatermarkStrategy`` with a timestamp
    assigner.

    ``stream`` is a plain stream (records without timestamps: ``record_timestamp`` is ``NO_TIMESTAMP``) or,
    with ``timestamped=True``, a timestamped stream whose timestamps are replaced."""
    strategy = extract_timestamp if isinstance(extract_timestamp, WatermarkStrategy) else None
    if strategy is not None:
        if strategy._timestamp_assigner is None:
            raise ValueError("this WatermarkStrategy has no timestamp assigner: the records keep their timestamps")
        extract_timestamp = strategy._timestamp_assigner.extract_timestamp

    def plain(value):
        return _timestamp(extract_timestamp(value, NO_TIMESTAMP)), value

    def pair(record):
        return _timestamp(extract_timestamp(record[1], record[0])), record[1]

    if hasattr(stream, "with_watermark"):  # an unbounded stream (flink2spark.runtime.streaming.MicroBatches)
        if strategy is None:
            raise ValueError("an unbounded stream needs the WatermarkStrategy (its watermark), not only the assigner")
        return stream.map(pair if timestamped else plain).with_watermark(watermark_delay(strategy))
    return stream.map(pair if timestamped else plain)


def watermark_delay(strategy):
    """How far (ms) the watermark of ``strategy`` stays behind the largest timestamp seen:
    Flink's ``BoundedOutOfOrdernessWatermarks`` emit ``max - out_of_orderness - 1``
    (monotonous: out_of_orderness 0); None for ``no_watermarks()`` (the watermark never
    advances)."""
    if strategy.kind == "none":
        return None
    bound = strategy.max_out_of_orderness
    millis = 0 if bound is None else (bound.to_milliseconds() if hasattr(bound, "to_milliseconds") else int(bound))
    return millis + 1


def _timestamp(ts):
    """The timestamp as Flink keeps it (a Java long)."""
    if ts is None:
        raise TypeError("extract_timestamp() returned None: Flink needs a timestamp (a long) here")
    return int(ts)


def without_timestamps(stream):
    """A plain stream as a timestamped one: ``(NO_TIMESTAMP, value)`` (``union`` with
    timestamped streams)."""
    return stream.map(lambda value: (NO_TIMESTAMP, value))


def by_value(fn):
    """``filter(fn)`` on a timestamped stream: ``fn`` gets the value of a ``(timestamp, value)``
    pair."""

    def test(record):
        return fn(record[1])

    return test


def keyed(stream, key):
    """``key_by(key)`` on a timestamped stream: ``(key(value), (timestamp, value))``."""

    def with_key(record):
        return key(record[1]), record

    return stream.map(with_key)


def reducing_values(fn):
    """A reduce function over ``(timestamp, value)`` pairs for the keyed reductions
    (``KeyedStream.reduce/sum/min/max...`` on a timestamped stream): ``fn`` reduces the values
    and the result carries the timestamp of the element just reduced in, as Flink emits it."""

    def reduce(a, b):
        return b[0], fn(a[1], b[1])

    return reduce


# ---------------------------------------------------------------------------------------------
# Windows and window assigners (PyFlink's pyflink.datastream.window, a pure Python
# implementation there too; adapted from Apache Flink 2.3, Apache License 2.0)

MAX_LONG_VALUE = MAX_WATERMARK


class TimeWindow(object):
    """``[start, end)``; ``max_timestamp()`` is ``end - 1``."""

    def __init__(self, start, end):
        self.start = start
        self.end = end

    def max_timestamp(self):
        return self.end - 1

    def intersects(self, other):
        return self.start <= other.end and self.end >= other.start

    def cover(self, other):
        return TimeWindow(min(self.start, other.start), max(self.end, other.end))

    @staticmethod
    def get_window_start_with_offset(timestamp, offset, window_size):
        return timestamp - (timestamp - offset + window_size) % window_size

    def __eq__(self, other):
        return isinstance(other, TimeWindow) and (self.start, self.end) == (other.start, other.end)

    def __hash__(self):
        return hash((self.start, self.end))

    def __lt__(self, other):
        return (self.start, self.end) < (other.start, other.end)

    def __repr__(self):
        return "TimeWindow(start={}, end={})".format(self.start, self.end)


class CountWindow(object):
    """A count window: its ``id``; ``max_timestamp()`` is Long.MAX_VALUE."""

    def __init__(self, id):  # noqa: A002 - PyFlink's name
        self.id = id

    def max_timestamp(self):
        return MAX_LONG_VALUE

    def __eq__(self, other):
        return isinstance(other, CountWindow) and self.id == other.id

    def __hash__(self):
        return hash(self.id)

    def __repr__(self):
        return "CountWindow(id={})".format(self.id)


def _no_timestamp_error():
    return ValueError(
        "Record has Java Long.MIN_VALUE timestamp (= no timestamp marker). Is the time characteristic set to "
        "'ProcessingTime', or did you forget to call 'data_stream.assign_timestamps_and_watermarks(...)'?"
    )


class _Assigner(object):
    event_time = True
    processing_time = False
    merging = False
    count = False

    def windows(self, value, timestamp, count):
        raise NotImplementedError


class TumblingEventTimeWindows(_Assigner):
    def __init__(self, size, offset):
        if abs(offset) >= size:
            raise ValueError("TumblingEventTimeWindows parameters must satisfy abs(offset) < size")
        self._size, self._offset = size, offset

    @classmethod
    def of(cls, size, offset=None):
        return cls(size.to_milliseconds(), 0 if offset is None else offset.to_milliseconds())

    def windows(self, value, timestamp, count):
        if timestamp <= NO_TIMESTAMP:
            raise _no_timestamp_error()
        start = TimeWindow.get_window_start_with_offset(timestamp, self._offset, self._size)
        return [TimeWindow(start, start + self._size)]


class SlidingEventTimeWindows(_Assigner):
    def __init__(self, size, slide, offset):
        if abs(offset) >= slide or size <= 0:
            raise ValueError("SlidingEventTimeWindows parameters must satisfy abs(offset) < slide and size > 0")
        self._size, self._slide, self._offset = size, slide, offset

    @classmethod
    def of(cls, size, slide, offset=None):
        return cls(size.to_milliseconds(), slide.to_milliseconds(), 0 if offset is None else offset.to_milliseconds())

    def windows(self, value, timestamp, count):
        if timestamp <= NO_TIMESTAMP:
            raise _no_timestamp_error()
        last_start = TimeWindow.get_window_start_with_offset(timestamp, self._offset, self._slide)
        return [TimeWindow(start, start + self._size) for start in range(last_start, timestamp - self._size, -self._slide)]


class EventTimeSessionWindows(_Assigner):
    merging = True

    def __init__(self, session_gap):
        if session_gap <= 0:
            raise ValueError("EventTimeSessionWindows parameters must satisfy 0 < size")
        self._session_gap = session_gap

    @classmethod
    def with_gap(cls, size):
        return cls(size.to_milliseconds())

    @classmethod
    def with_dynamic_gap(cls, extractor):
        return cls.dynamic(extractor)  # the dynamic-gap assigner of the same time domain

    def windows(self, value, timestamp, count):
        if timestamp <= NO_TIMESTAMP:
            raise _no_timestamp_error()
        return [TimeWindow(timestamp, timestamp + self._session_gap)]


class DynamicEventTimeSessionWindows(_Assigner):
    merging = True

    def __init__(self, extractor):
        self._extractor = extractor

    @classmethod
    def with_dynamic_gap(cls, extractor):
        return cls(extractor)

    def windows(self, value, timestamp, count):
        gap = self._extractor.extract(value)
        if gap <= 0:
            raise ValueError("Dynamic session time gap must satisfy 0 < gap")
        return [TimeWindow(timestamp, timestamp + gap)]


class TumblingProcessingTimeWindows(TumblingEventTimeWindows):
    """Windows of the processing time: ``windows(value, now, count)`` is given the current
    processing time (PyFlink's formulas, the event-time assigner's with ``now``)."""

    event_time = False
    processing_time = True


class SlidingProcessingTimeWindows(SlidingEventTimeWindows):
    event_time = False
    processing_time = True


class ProcessingTimeSessionWindows(EventTimeSessionWindows):
    event_time = False
    processing_time = True


class DynamicProcessingTimeSessionWindows(DynamicEventTimeSessionWindows):
    event_time = False
    processing_time = True


EventTimeSessionWindows.dynamic = DynamicEventTimeSessionWindows
ProcessingTimeSessionWindows.dynamic = DynamicProcessingTimeSessionWindows


class CountTumblingWindowAssigner(_Assigner):
    event_time = False
    count = True

    def __init__(self, window_size):
        if window_size <= 0:
            raise ValueError("The window size must be larger than 0")
        self._size = window_size
        self._slide = window_size

    @staticmethod
    def of(window_size):
        return CountTumblingWindowAssigner(window_size)

    def windows(self, value, timestamp, count):
        return [CountWindow(count // self._size)]


class CountSlidingWindowAssigner(_Assigner):
    event_time = False
    count = True

    def __init__(self, window_size, window_slide):
        if window_size <= 0 or window_slide <= 0:
            raise ValueError("The window size and slide must be larger than 0")
        self._size, self._slide = window_size, window_slide

    @staticmethod
    def of(window_size, window_slide):
        return CountSlidingWindowAssigner(window_size, window_slide)

    def windows(self, value, timestamp, count):
        last_id = count // self._slide
        last_start = last_id * self._slide
        last_end = last_start + self._size - 1
        found = []
        while last_id >= 0 and last_start <= count <= last_end:
            found.append(CountWindow(last_id))
            last_id -= 1
            last_start -= self._slide
            last_end -= self._slide
        return found


class SessionWindowTimeGapExtractor(object):
    """``extract(element)``: the session gap of an element, in milliseconds."""

    def extract(self, element):
        raise NotImplementedError


# ---------------------------------------------------------------------------------------------
# Window functions


class _Context(Generic):
    """What ``ProcessWindowFunction.process`` gets as ``context`` (``Context[TimeWindow]`` in
    annotations: PyFlink's is generic)."""

    def __init__(self, window):
        self._window = window

    def window(self):
        return self._window

    def current_processing_time(self):
        return int(time.time() * 1000)

    def current_watermark(self):
        return MAX_WATERMARK  # windows fire at the end of the bounded input


class ProcessWindowFunction(Generic):
    """``pyflink.datastream.functions.ProcessWindowFunction`` (base dropped by the conversion;
    ``ProcessWindowFunction.Context`` stays usable in annotations)."""

    Context = _Context


class ProcessAllWindowFunction(Generic):
    Context = _Context


def _merge_sessions(assigned):
    """Merge the windows of (window, element) pairs as Flink's MergingWindowSet does at the end
    of the input: windows that intersect (touching included) become their cover."""
    merged = []  # [window, [elements in arrival order]]
    for window, item in sorted(assigned, key=lambda wi: (wi[0].start, wi[0].end)):
        if merged and merged[-1][0].intersects(window):
            merged[-1][0] = merged[-1][0].cover(window)
            merged[-1][1].append(item)
        else:
            merged.append([window, [item]])
    return [(w, sorted(items, key=lambda i: i[0])) for w, items in merged]


class Windows(object):
    """``key_by(...).window(assigner)`` / ``window_all(assigner)`` / ``count_window(...)`` of a
    bounded stream: each window gets all its elements and fires at the end of the input (time
    windows; Flink's final watermark) or when full (count windows; partial ones never fire).

    ``stream``: keyed, a pair RDD ``(key, value)`` (timestamped: ``(key, (timestamp, value))``);
    not keyed, values or ``(timestamp, value)`` pairs. The window function sees a window's
    elements in stream order (in BATCH mode, by timestamp: Flink sorts the keyed input by key
    and timestamp). Results are timestamped streams ``(timestamp, result)`` (time windows:
    ``window.max_timestamp()``; count windows: the timestamp of the element that filled the
    window), except count windows over a stream without timestamps, which give plain values.
    """

    def __init__(self, stream, assigner, keyed=True, timestamped=False, batch=False):
        self._stream = stream
        self._assigner = assigner
        self._keyed = keyed
        self._timestamped = timestamped
        self._batch = batch
        self._late_data = False

    def side_output_late_data(self, output_tag):
        """``side_output_late_data(tag)``: on a bounded input no element is late (the watermark
        passes the windows only at the end), so ``get_side_output(tag)`` of the results is empty."""
        self._late_data = True
        return self

    # -- the windows of each key ---------------------------------------------------------------
    def _fire(self, emit, functions=()):
        """RDD of the results of ``emit(key, window, elements)`` (an iterable) for every window
        that fires, as (timestamp, result) pairs (plain results for count windows without
        timestamps). ``functions``: the user's function objects; those that define ``open``
        get it before a partition's first key, with keyed state scoped to the key whose
        windows fire (state lives across windows, as Flink's keyed state does), and ``close``
        after the last; each key's windows fire in time order (Flink's timer order)."""
        assigner, keyed, timestamped, batch = self._assigner, self._keyed, self._timestamped, self._batch
        stream = self._stream if keyed else self._stream.map(lambda record: (None, record))

        processing = assigner.processing_time

        def number(partition, records):
            if processing:
                # the time an element reaches the window operator places it; the time the partition's input
                # ended is kept in its position (partition, n, end): windows the clock has not passed by then do
                # not fire (the window stage itself runs later, after Spark's shuffle)
                placed = [(key, int(time.time() * 1000), record[1] if timestamped else record) for key, record in records]
                end = int(time.time() * 1000)
                for n, (key, ts, value) in enumerate(placed):
                    yield key, ((partition, n, end), ts, value)
                return
            for n, (key, record) in enumerate(records):
                ts, value = record if timestamped else (NO_TIMESTAMP, record)
                yield key, ((partition, n), ts, value)

        def windows_of(kv):
            key, items = kv
            items = sorted(items, key=(lambda i: (i[1], i[0])) if batch else (lambda i: i[0]))
            out = []
            if assigner.count:
                contents = {}
                for count, (position, ts, value) in enumerate(items):
                    for window in assigner.windows(value, ts, count):
                        contents.setdefault(window.id, []).append(value)
                        if len(contents[window.id]) == assigner._size:
                            for result in emit(key, window, contents.pop(window.id)):
                                out.append(((position, 0), ts, result))
                return out
            assigned = [(w, item) for item in items for w in assigner.windows(item[2], item[1], None)]
            if assigner.merging:
                groups = _merge_sessions(assigned)
            else:
                by_window = {}
                for window, item in assigned:
                    by_window.setdefault(window, []).append(item)
                groups = list(by_window.items())
            first = items[0][0]
            if processing and not batch:  # at the end of the input Flink drops the processing-time timers still pending
                ended = max(i[0][2] for i in items)
                groups = [g for g in groups if g[0].max_timestamp() <= ended]
            groups = sorted(groups, key=lambda g: g[0].max_timestamp())  # stable: ties keep their order
            for window, members in groups:
                for n, result in enumerate(emit(key, window, [i[2] for i in members])):
                    out.append(((window.max_timestamp(), first, n), window.max_timestamp(), result))
            return out

        grouped = stream.mapPartitionsWithIndex(number).groupByKey()
        managed = [f for f in functions if hasattr(f, "open") or hasattr(f, "close")]
        fired = grouped.mapPartitionsWithIndex(_with_lifecycle(managed, windows_of)) if managed else grouped.flatMap(windows_of)
        ordered = fired.sortBy(lambda r: r[0], numPartitions=max(self._stream.getNumPartitions(), 1))
        if assigner.count and not timestamped:
            results = ordered.map(lambda r: r[2])
        else:
            results = ordered.map(lambda r: (r[1], r[2]))
        if self._late_data:  # what process.side_output reads: no (tag, timestamp, value) record
            results._f2s_tagged = (results.context.emptyRDD(), timestamped)
        return results

    # -- window functions (closures capture no RDD: only the function objects); ``fire``: what
    # runs ``emit(key, window, elements)`` instead of ``_fire`` (the unbounded stream's windows)
    def reduce(self, reduce_function, window_function=None, fire=None):
        """``WindowedStream.reduce(f[, window_function])``: the elements reduced in order."""
        reduce_function = getattr(reduce_function, "reduce", reduce_function)
        keyed = self._keyed

        def emit(key, window, values):
            acc = values[0]
            for value in values[1:]:
                acc = reduce_function(acc, value)
            return [acc] if window_function is None else _call(window_function, keyed, key, window, [acc])

        return (fire or self._fire)(emit, (window_function,) if window_function is not None else ())

    def aggregate(self, aggregate_function, window_function=None, fire=None):
        """``WindowedStream.aggregate(AggregateFunction[, window_function])``."""
        keyed = self._keyed

        def emit(key, window, values):
            acc = aggregate_function.create_accumulator()
            for value in values:
                acc = aggregate_function.add(value, acc)
            result = aggregate_function.get_result(acc)
            return [result] if window_function is None else _call(window_function, keyed, key, window, [result])

        return (fire or self._fire)(emit, (window_function,) if window_function is not None else ())

    def process(self, process_window_function, fire=None):
        """``WindowedStream.process(ProcessWindowFunction)``: ``process(key, context,
        elements)`` (all-windows: ``process(context, elements)``) returns an iterable."""
        keyed = self._keyed

        def emit(key, window, values):
            return _call(process_window_function, keyed, key, window, values)

        return (fire or self._fire)(emit, (process_window_function,))

    def apply(self, window_function, fire=None):
        """``WindowedStream.apply(WindowFunction)``: ``apply(key, window, elements)``
        (all-windows: ``apply(window, elements)``) returns an iterable."""
        keyed = self._keyed

        def emit(key, window, values):
            return _call(window_function, keyed, key, window, values)

        return (fire or self._fire)(emit, (window_function,))


def _with_lifecycle(functions, windows_of):
    """``mapPartitionsWithIndex`` function: ``open(runtime_context)`` of each function before
    the partition's keys, ``windows_of(key, items)`` with the keyed state set to each key,
    ``close()`` after them (once per Spark partition: Flink does it once per parallel
    instance)."""

    def run(index, groups):
        from flink2spark.runtime.datastream import task_attempt
        from flink2spark.runtime.process import KeyedRuntimeContext, _Store

        attempt = task_attempt()
        store = _Store()
        for fn in functions:
            if hasattr(fn, "open"):
                fn.open(KeyedRuntimeContext(store, index, attempt, type(fn).__name__))
        try:
            for group in groups:
                store.key = group[0]
                for out in windows_of(group):
                    yield out
        finally:
            for fn in functions:
                if hasattr(fn, "close"):
                    fn.close()

    return run


def _call(fn, keyed, key, window, elements):
    """A window function on one window: ``ProcessWindowFunction.process`` or
    ``WindowFunction.apply`` (their all-windows forms take no key); None counts as no result."""
    if hasattr(fn, "process"):
        context = _Context(window)
        out = fn.process(key, context, elements) if keyed else fn.process(context, elements)
    elif hasattr(fn, "apply"):
        out = fn.apply(key, window, elements) if keyed else fn.apply(window, elements)
    else:
        raise TypeError("%r is neither a ProcessWindowFunction nor a WindowFunction" % (fn,))
    return () if out is None else out
