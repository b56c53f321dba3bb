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
pending event-time window. Before that (STREAMING mode), a watermark comes every 200 ms by the
wall clock (``pipeline.auto-watermark-interval``; not per record), at the largest timestamp
seen so far minus the out-of-orderness minus 1 ms. The shim emits none before the end: every
window fires once, at the end, with all its elements, and no element is late. That is Flink's
result when no periodic watermark passes a window before its last record arrives (small
inputs usually, in-order inputs always); on an out-of-order input Flink may have fired the
window without a record that comes behind the watermark and dropped it (or, within
``allowed_lateness``, fired the window again with it). Which records that hits depends on
timing, so it is not emulated; the converter writes NOTE F2S270 where a record can be late.
The current watermark a window function sees is ``Long.MAX_VALUE``.

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
from enum import Enum

__all__ = [
    "Duration",
    "Time",
    "WatermarkStrategy",
    "TimestampAssigner",
    "TumblingProcessingTimeWindows",
    "SlidingProcessingTimeWindows",
    "ProcessingTimeSessionWindows",
    "DynamicProcessingTimeSessionWindows",
    "GlobalWindows",
    "GlobalWindow",
    "Trigger",
    "TriggerResult",
    "EventTimeTrigger",
    "ContinuousEventTimeTrigger",
    "ProcessingTimeTrigger",
    "ContinuousProcessingTimeTrigger",
    "PurgingTrigger",
    "CountTrigger",
    "NeverTrigger",
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
    is_global = False

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


class GlobalWindow(object):
    """The one window of ``GlobalWindows``; ``max_timestamp()`` is Long.MAX_VALUE."""

    @staticmethod
    def get():
        return GlobalWindow()

    def max_timestamp(self):
        return MAX_LONG_VALUE

    def __eq__(self, other):
        return isinstance(other, GlobalWindow)

    def __hash__(self):
        return 0

    def __repr__(self):
        return "GlobalWindow"


class GlobalWindows(_Assigner):
    """``GlobalWindows.create()``: every element of a key in one window, which only a trigger
    fires (its default trigger, ``NeverTrigger``, never does)."""

    event_time = False
    is_global = True

    @staticmethod
    def create():
        return GlobalWindows()

    def windows(self, value, timestamp, count):
        return [GlobalWindow()]


class SessionWindowTimeGapExtractor(object):
    """``extract(element)``: the session gap of an element, in milliseconds."""

    def extract(self, element):
        raise NotImplementedError


# ---------------------------------------------------------------------------------------------
# Window functions


class _Context(Generic):
    """What ``ProcessWindowFunction.process`` gets as ``context`` (``Context[TimeWindow]`` in
    annotations: PyFlink's is generic)."""

    def __init__(self, window, watermark=MAX_WATERMARK):
        self._window = window
        self._watermark = watermark

    def window(self):
        return self._window

    def current_processing_time(self):
        return int(time.time() * 1000)

    def current_watermark(self):
        return self._watermark  # Long.MAX_VALUE when windows fire at the end of the bounded input


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
        self._trigger = None
        self._lateness = 0

    def trigger(self, trigger):
        """``trigger(t)``: ``t`` decides when windows fire and purge instead of the assigner's
        default trigger (each key's windows then run through ``_KeyOperator``)."""
        self._trigger = trigger
        return self

    def allowed_lateness(self, time_ms):
        """``allowed_lateness(ms)`` of a window with a trigger: no element is late here (no
        watermark before the end of the input; see the module docstring), but its windows'
        cleanup timers come ``ms`` later, and the trigger sees them."""
        self._lateness = int(time_ms.to_milliseconds() if hasattr(time_ms, "to_milliseconds") else time_ms)
        return self

    def side_output_late_data(self, output_tag):
        """``side_output_late_data(tag)``: no element is late here (the shim's watermark passes
        the windows only at the end), so ``get_side_output(tag)`` of the results is empty (on
        Flink: the records its periodic watermark made late; see the module docstring)."""
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
        if self._trigger is not None or self._assigner.is_global:
            return self._operate(emit, functions)
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

    def _operate(self, emit, functions=()):
        """``_fire`` for windows with a trigger (and ``GlobalWindows``): each key's elements go
        through a ``_KeyOperator`` in stream order (BATCH mode: by timestamp), then the end of
        the input. Results: (timestamp, result) pairs, plain results for count and global
        windows over a stream without timestamps."""
        assigner, timestamped, batch, lateness = self._assigner, self._timestamped, self._batch, self._lateness
        trigger = self._trigger if self._trigger is not None else NeverTrigger()
        stream = self._stream if self._keyed else self._stream.map(lambda record: (None, record))

        def number(partition, records):
            placed = [(key, record, int(time.time() * 1000)) for key, record in records]
            ended = int(time.time() * 1000)  # when this partition's input ended
            for n, (key, record, now) in enumerate(placed):
                ts, value = record if timestamped else (NO_TIMESTAMP, record)
                yield key, ((partition, n), ts, value, now, ended)

        def run(kv):
            key, items = kv
            items = sorted(items, key=(lambda i: (i[1], i[0])) if batch else (lambda i: i[0]))
            operator = _KeyOperator(assigner, trigger, emit, key, lateness, batch)
            for count, (position, ts, value, now, _) in enumerate(items):
                operator.element(position, ts, value, now, count)
            return operator.end(max(i[4] for i in items))

        grouped = stream.mapPartitionsWithIndex(number).groupByKey()
        managed = [f for f in functions if hasattr(f, "open") or hasattr(f, "close")]
        fired = grouped.mapPartitionsWithIndex(_with_lifecycle(managed, run)) if managed else grouped.flatMap(run)
        ordered = fired.sortBy(lambda r: r[0], numPartitions=max(self._stream.getNumPartitions(), 1))
        if not timestamped and (assigner.count or assigner.is_global):
            results = ordered.map(lambda r: r[2])
        else:
            results = ordered.map(lambda r: (r[1], r[2]))
        if self._late_data:
            results._f2s_tagged = (results.context.emptyRDD(), timestamped)
        return results

    # -- window functions (closures capture no RDD: only the function objects); ``fire``: what
    # runs ``emit(key, window, elements)`` instead of ``_fire`` (the unbounded stream's windows)
    def reduce(self, reduce_function, window_function=None, fire=None):
        """``WindowedStream.reduce(f[, window_function])``: the elements reduced in order."""
        reduce_function = getattr(reduce_function, "reduce", reduce_function)
        keyed = self._keyed

        def emit(key, window, values, watermark=MAX_WATERMARK):
            acc = values[0]
            for value in values[1:]:
                acc = reduce_function(acc, value)
            return [acc] if window_function is None else _call(window_function, keyed, key, window, [acc], watermark)

        return (fire or self._fire)(emit, (window_function,) if window_function is not None else ())

    def aggregate(self, aggregate_function, window_function=None, fire=None):
        """``WindowedStream.aggregate(AggregateFunction[, window_function])``."""
        keyed = self._keyed

        def emit(key, window, values, watermark=MAX_WATERMARK):
            acc = aggregate_function.create_accumulator()
            for value in values:
                acc = aggregate_function.add(value, acc)
            result = aggregate_function.get_result(acc)
            return [result] if window_function is None else _call(window_function, keyed, key, window, [result], watermark)

        return (fire or self._fire)(emit, (window_function,) if window_function is not None else ())

    def process(self, process_window_function, fire=None):
        """``WindowedStream.process(ProcessWindowFunction)``: ``process(key, context,
        elements)`` (all-windows: ``process(context, elements)``) returns an iterable."""
        keyed = self._keyed

        def emit(key, window, values, watermark=MAX_WATERMARK):
            return _call(process_window_function, keyed, key, window, values, watermark)

        return (fire or self._fire)(emit, (process_window_function,))

    def apply(self, window_function, fire=None):
        """``WindowedStream.apply(WindowFunction)``: ``apply(key, window, elements)``
        (all-windows: ``apply(window, elements)``) returns an iterable."""
        keyed = self._keyed

        def emit(key, window, values, watermark=MAX_WATERMARK):
            return _call(window_function, keyed, key, window, values, watermark)

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


def _call(fn, keyed, key, window, elements, watermark=MAX_WATERMARK):
    """A window function on one window: ``ProcessWindowFunction.process`` or
    ``WindowFunction.apply`` (their all-windows forms take no key); None counts as no result.
    ``watermark``: what ``context.current_watermark()`` gives."""
    if hasattr(fn, "process"):
        context = _Context(window, watermark)
        out = fn.process(key, context, elements) if keyed else fn.process(context, elements)
    elif hasattr(fn, "apply"):
        out = fn.apply(key, window, elements) if keyed else fn.apply(window, elements)
    else:
        raise TypeError("%r is neither a ProcessWindowFunction nor a WindowFunction" % (fn,))
    return () if out is None else out


# ---------------------------------------------------------------------------------------------
# Triggers (PyFlink's pyflink.datastream.window triggers, which run in Python there too;
# behaviour of Apache Flink 2.3, Apache License 2.0)


class TriggerResult(Enum):
    """What a trigger asks of its window: (fire the window function, purge the contents)."""

    CONTINUE = (False, False)
    FIRE_AND_PURGE = (True, True)
    FIRE = (True, False)
    PURGE = (False, True)

    def is_fire(self):
        return self.value[0]

    def is_purge(self):
        return self.value[1]


class Trigger(Generic):
    """Base of the triggers: ``on_element``, ``on_event_time``, ``on_processing_time`` return a
    ``TriggerResult``; ``ctx`` registers and deletes timers of the window and gives state
    scoped to the key and the window (``get_partitioned_state``)."""

    class TriggerContext(Generic):
        pass

    class OnMergeContext(TriggerContext):
        pass

    def on_element(self, element, timestamp, window, ctx):
        return TriggerResult.CONTINUE

    def on_processing_time(self, time, window, ctx):
        return TriggerResult.CONTINUE

    def on_event_time(self, time, window, ctx):
        return TriggerResult.CONTINUE

    def can_merge(self):
        return False

    def on_merge(self, window, ctx):
        pass

    def clear(self, window, ctx):
        pass


class _Clock(Trigger):
    """A trigger of one time domain: event time, or processing time when ``processing``."""

    processing = False

    def _now(self, ctx):
        return ctx.get_current_processing_time() if self.processing else ctx.get_current_watermark()

    def _register(self, ctx, time):
        if self.processing:
            ctx.register_processing_time_timer(time)
        else:
            ctx.register_event_time_timer(time)

    def _delete(self, ctx, time):
        if self.processing:
            ctx.delete_processing_time_timer(time)
        else:
            ctx.delete_event_time_timer(time)

    def on_event_time(self, time, window, ctx):
        return TriggerResult.CONTINUE if self.processing else self._on_timer(time, window, ctx)

    def on_processing_time(self, time, window, ctx):
        return self._on_timer(time, window, ctx) if self.processing else TriggerResult.CONTINUE

    def can_merge(self):
        return True


class _WindowEnd(_Clock):
    """Fires when the watermark (the clock) passes the window's end: the event-time
    (processing-time) assigners' default trigger."""

    @classmethod
    def create(cls):
        return cls()

    def on_element(self, element, timestamp, window, ctx):
        if not self.processing and window.max_timestamp() <= ctx.get_current_watermark():
            return TriggerResult.FIRE
        self._register(ctx, window.max_timestamp())
        return TriggerResult.CONTINUE

    def _on_timer(self, time, window, ctx):
        return TriggerResult.FIRE if self.processing or time == window.max_timestamp() else TriggerResult.CONTINUE

    def on_merge(self, window, ctx):
        if window.max_timestamp() > self._now(ctx):
            self._register(ctx, window.max_timestamp())

    def clear(self, window, ctx):
        self._delete(ctx, window.max_timestamp())


class EventTimeTrigger(_WindowEnd):
    pass


class ProcessingTimeTrigger(_WindowEnd):
    processing = True


def _earliest(a, b):
    return min(a, b)


class _Continuous(_Clock):
    """Fires every ``interval`` ms of event time (or processing time), from the interval of the
    first element, and at the window's end (event time)."""

    def __init__(self, interval):
        from flink2spark.runtime.process import ReducingStateDescriptor

        self.interval = interval
        self.state_desc = ReducingStateDescriptor("fire-time", _earliest)

    @classmethod
    def of(cls, interval):
        return cls(interval.to_milliseconds())

    def _next(self, time, window, ctx, state):
        fire = min(time + self.interval, window.max_timestamp())
        state.add(fire)
        self._register(ctx, fire)

    def on_element(self, element, timestamp, window, ctx):
        if not self.processing:
            if window.max_timestamp() <= ctx.get_current_watermark():
                return TriggerResult.FIRE
            ctx.register_event_time_timer(window.max_timestamp())
        else:
            timestamp = ctx.get_current_processing_time()
        state = ctx.get_partitioned_state(self.state_desc)
        if state.get() is None:
            self._next(timestamp - (timestamp % self.interval), window, ctx, state)
        return TriggerResult.CONTINUE

    def _on_timer(self, time, window, ctx):
        if not self.processing and time == window.max_timestamp():
            return TriggerResult.FIRE
        state = ctx.get_partitioned_state(self.state_desc)
        if state.get() is not None and state.get() == time:
            state.clear()
            self._next(time, window, ctx, state)
            return TriggerResult.FIRE
        return TriggerResult.CONTINUE

    def on_merge(self, window, ctx):
        ctx.merge_partitioned_state(self.state_desc)
        fire = ctx.get_partitioned_state(self.state_desc).get()
        if fire is not None:
            self._register(ctx, fire)

    def clear(self, window, ctx):
        state = ctx.get_partitioned_state(self.state_desc)
        fire = state.get()
        if fire is not None:
            self._delete(ctx, fire)
            state.clear()


class ContinuousEventTimeTrigger(_Continuous):
    pass


class ContinuousProcessingTimeTrigger(_Continuous):
    processing = True


class PurgingTrigger(Trigger):
    """``PurgingTrigger.of(trigger)``: purges the window whenever ``trigger`` fires."""

    def __init__(self, nested_trigger):
        self.nested_trigger = nested_trigger

    @staticmethod
    def of(nested_trigger):
        return PurgingTrigger(nested_trigger)

    @staticmethod
    def _purging(result):
        return TriggerResult.FIRE_AND_PURGE if result.is_fire() else result

    def on_element(self, element, timestamp, window, ctx):
        return self._purging(self.nested_trigger.on_element(element, timestamp, window, ctx))

    def on_event_time(self, time, window, ctx):
        return self._purging(self.nested_trigger.on_event_time(time, window, ctx))

    def on_processing_time(self, time, window, ctx):
        return self._purging(self.nested_trigger.on_processing_time(time, window, ctx))

    def can_merge(self):
        return self.nested_trigger.can_merge()

    def on_merge(self, window, ctx):
        self.nested_trigger.on_merge(window, ctx)

    def clear(self, window, ctx):
        self.nested_trigger.clear(window, ctx)


def _add(a, b):
    return a + b


class CountTrigger(Trigger):
    """``CountTrigger.of(n)``: fires (without purging) each time the window got ``n`` more elements."""

    def __init__(self, window_size):
        from flink2spark.runtime.process import ReducingStateDescriptor

        self._window_size = window_size
        self._count_state_descriptor = ReducingStateDescriptor("count", _add)

    @staticmethod
    def of(window_size):
        return CountTrigger(window_size)

    def on_element(self, element, timestamp, window, ctx):
        count = ctx.get_partitioned_state(self._count_state_descriptor)
        count.add(1)
        if count.get() >= self._window_size:
            count.clear()
            return TriggerResult.FIRE
        return TriggerResult.CONTINUE

    def can_merge(self):
        return True

    def on_merge(self, window, ctx):
        ctx.merge_partitioned_state(self._count_state_descriptor)

    def clear(self, window, ctx):
        ctx.get_partitioned_state(self._count_state_descriptor).clear()


class NeverTrigger(Trigger):
    """Never fires: ``GlobalWindows``' default trigger."""


class _TriggerContext(object):
    """What a trigger gets as ``ctx``: the operator's clocks and timers for ``window``, and state
    scoped to the key and ``window`` (``merged_windows`` while windows merge)."""

    def __init__(self, operator):
        self._operator = operator
        self._window = None
        self.merged_windows = None

    @property
    def window(self):
        return self._window

    @window.setter
    def window(self, window):
        self._window = window
        self._operator.store.key = window

    def get_current_processing_time(self):
        return self._operator.now

    def get_current_watermark(self):
        return self._operator.watermark

    def get_metric_group(self):
        from flink2spark.runtime.datastream import RuntimeContext

        return RuntimeContext().get_metrics_group()

    def register_event_time_timer(self, time):
        self._operator.timer(True, time, self._window, True)

    def register_processing_time_timer(self, time):
        self._operator.timer(False, time, self._window, True)

    def delete_event_time_timer(self, time):
        self._operator.timer(True, time, self._window, False)

    def delete_processing_time_timer(self, time):
        self._operator.timer(False, time, self._window, False)

    def get_partitioned_state(self, state_descriptor):
        from flink2spark.runtime.process import _STATES

        self._operator.store.key = self._window
        return _STATES[state_descriptor.kind](self._operator.store, state_descriptor)

    def merge_partitioned_state(self, state_descriptor):
        if not self.merged_windows:
            return
        kind = state_descriptor.kind
        if kind not in ("reducing", "aggregating", "list"):
            raise Exception("The given state descriptor does not refer to a mergeable state (MergingState)")
        table = self._operator.store.table(state_descriptor.name)
        merged = None
        for source in list(self.merged_windows) + [self._window]:
            if source not in table:
                continue
            value = table.pop(source)
            if merged is None:
                merged = value
            elif kind == "reducing":
                merged = state_descriptor.reduce(merged, value)
            elif kind == "aggregating":
                merged = state_descriptor.agg_function.merge(merged, value)
            else:
                merged = list(merged) + list(value)
        if merged is not None:
            table[self._window] = merged


_MAX_END_TIMERS = 1_000_000  # timers that keep registering timers never end on Flink either


class _KeyOperator(object):
    """One key's window operator on a bounded input, as PyFlink's Python ``WindowOperator`` runs
    it with a trigger: elements in stream order with the watermark ``Long.MIN_VALUE``, each
    added to its windows (sessions merge as ``MergingWindowSet`` merges them) and shown to the
    trigger; then the end of the input. There (STREAMING mode) pending processing-time timers
    are dropped and the watermark becomes ``Long.MAX_VALUE``: the event-time timers fire in
    rounds, as on Flink 2.3, where the timers a round registers or deletes count only from the
    next round (they go through the Python worker while Java fires the round: seen with a
    trigger that chains timers). A window fires with its contents in arrival order; results
    carry the timestamp of the element (or timer) that fired them."""

    def __init__(self, assigner, trigger, emit, key, lateness=0, batch=False):
        from flink2spark.runtime.process import _Store

        self.assigner, self.trigger, self.emit, self.key, self.lateness = assigner, trigger, emit, key, lateness
        self.batch = batch  # BATCH mode: processing-time timers fire at the end of the key
        self.store = _Store()  # the trigger's state, by window
        self.contents = {}  # state window -> [(position, value)]
        self.mapping = {} if assigner.merging else None  # merging: window -> its state window
        self.timers = {True: {}, False: {}}  # event time?: {(time, window): registration number}
        self.registered = 0
        self.watermark = MIN_WATERMARK
        self.now = int(time.time() * 1000)
        self.ctx = _TriggerContext(self)
        self.out = []  # (order, timestamp, result)

    # -- timers and windows ----------------------------------------------------------------
    def timer(self, event, at, window, register):
        timers = self.timers[event]
        if register:
            self.registered += 1
            timers.setdefault((at, window), self.registered)
        else:
            timers.pop((at, window), None)

    def _cleanup_time(self, window):
        if self.assigner.event_time:
            at = window.max_timestamp() + self.lateness
            return at if at >= window.max_timestamp() and at <= MAX_LONG_VALUE else MAX_LONG_VALUE
        return window.max_timestamp()

    def _cleanup_timer(self, window, register):
        at = self._cleanup_time(window)
        if at != MAX_LONG_VALUE:
            self.ctx.window = window
            self.timer(self.assigner.event_time, at, window, register)

    def _late(self, window):
        return self.assigner.event_time and self._cleanup_time(window) <= self.watermark

    def _add_window(self, new_window):
        """``MergingWindowSet.add_window``: the window ``new_window`` ends up in."""
        windows = sorted(list(self.mapping) + [new_window], key=lambda w: (w.start, w.end))
        groups, current = [], None
        for candidate in windows:
            if current is not None and current[0].intersects(candidate):
                current[0] = current[0].cover(candidate)
                current[1].append(candidate)
            else:
                current = [candidate, [candidate]]
                groups.append(current)
        result, merged_new = new_window, False
        merges = [g for g in groups if len(g[1]) > 1]  # (merge result, the windows it covers)
        for merge_result, members in merges:
            if new_window in members:
                merged_new = True
                members.remove(new_window)
                result = merge_result
            state_window = self.mapping[members[0]]
            state_windows = [self.mapping.pop(w) for w in members if w in self.mapping]
            self.mapping[merge_result] = state_window
            state_windows.remove(state_window)
            if merge_result not in members or len(members) != 1:
                self._merge(merge_result, members, state_window, state_windows)
        if not merges or (result == new_window and not merged_new):
            self.mapping[result] = result
        return result

    def _merge(self, merge_result, merged_windows, state_window, merged_state_windows):
        self.ctx.window = merge_result
        self.ctx.merged_windows = merged_windows
        self.trigger.on_merge(merge_result, self.ctx)
        self.ctx.merged_windows = None
        for window in merged_windows:
            self.ctx.window = window
            self.trigger.clear(window, self.ctx)
            self._cleanup_timer(window, False)
        target = self.contents.setdefault(state_window, [])
        for other in merged_state_windows:
            target.extend(self.contents.pop(other, []))

    def _fire(self, window, state_window, result, order, timestamp):
        if result.is_fire():
            contents = self.contents.get(state_window)
            if contents:
                values = [v for _, v in sorted(contents, key=lambda c: c[0])]
                for n, out in enumerate(self.emit(self.key, window, values, self.watermark)):
                    self.out.append((order + (n,), timestamp, out))
        if result.is_purge():
            self.contents.pop(state_window, None)

    # -- elements and timers ---------------------------------------------------------------
    def element(self, position, timestamp, value, now, count, order=None):
        """One element (``position``: its place in the key's stream; ``order``: where what it
        fires goes among the results, ``position`` if None); True when it is late (no window
        took it and the watermark passed it by the allowed lateness: Flink drops it, or sends it
        to the late-data side output)."""
        self.now = now
        if not self.batch:
            self._processing_timers(now, position)
        assigned = self.assigner.windows(value, now if self.assigner.processing_time else timestamp, count)
        skipped = True
        for i, window in enumerate(assigned):
            if self.mapping is not None:
                actual = self._add_window(window)
                if self._late(actual):
                    self.mapping.pop(actual, None)
                    continue
                state_window = self.mapping[actual]
            else:
                if self._late(window):
                    continue
                actual = state_window = window
            skipped = False
            self.contents.setdefault(state_window, []).append((position, value))
            self.ctx.window = actual
            result = self.trigger.on_element(value, timestamp, actual, self.ctx)
            self._fire(actual, state_window, result, (0, position if order is None else order, i), timestamp)
            self._cleanup_timer(actual, True)
        return skipped and self.assigner.event_time and timestamp + self.lateness <= self.watermark

    def _on_timer(self, event, at, window, order):
        self.ctx.window = window
        if self.mapping is not None:
            state_window = self.mapping.get(window)
            if state_window is None:
                return  # the window was merged away or cleared
        else:
            state_window = window
        result = self.trigger.on_event_time(at, window, self.ctx) if event else self.trigger.on_processing_time(at, window, self.ctx)
        self._fire(window, state_window, result, order, at)
        if self.assigner.event_time == event and at == self._cleanup_time(window):
            self.contents.pop(state_window, None)
            self.ctx.window = window
            self.trigger.clear(window, self.ctx)
            if self.mapping is not None:
                self.mapping.pop(window, None)

    def _processing_timers(self, now, position):
        """Processing-time timers the clock passed, each when it comes due (Flink's timer thread)."""
        timers = self.timers[False]
        while timers:
            (at, window), number = min(timers.items(), key=lambda t: (t[0][0], t[1]))
            if at > now:
                return
            del timers[(at, window)]
            self._on_timer(False, at, window, (0, position, -1, number))

    def advance(self, watermark, event=True):
        """A watermark (``event``; else the clock of processing-time timers) reaching
        ``watermark``: one round of the timers due by then, in time order. Timers the round
        registers count from the next round, and its deletions do not stop a timer of the round
        (on Flink they reach Java's timer service after it fired the round). The number of
        timers fired."""
        if event:
            self.watermark = max(self.watermark, watermark)
        timers = self.timers[event]
        due = sorted(((t, n) for t, n in timers.items() if t[0] <= watermark), key=lambda t: (t[0][0], t[1]))
        for timer, _ in due:
            del timers[timer]
        for (at, window), number in due:
            self._on_timer(event, at, window, (1, at, number))
        return len(due)

    def end(self, ended):
        """The end of the input (``ended``: the processing time it ended)."""
        batch = self.batch
        if not batch:
            self._processing_timers(ended, (MAX_LONG_VALUE,))
            self.timers[False].clear()  # STREAMING: Flink drops the pending processing-time timers
        fired = 0
        while self.timers[True] or (batch and self.timers[False]):
            fired += self.advance(MAX_LONG_VALUE, event=bool(self.timers[True]))
            if fired > _MAX_END_TIMERS:
                raise RuntimeError("window triggers keep registering timers at the end of the input (on Flink the job never ends)")
        return self.out

    # -- across micro-batches (f2s_stream.windows keeps this in transformWithState) -------------
    def saved(self):
        """What the operator keeps of its key (picklable), None when nothing."""
        if not (self.contents or self.mapping or self.timers[True] or self.timers[False] or any(self.store.tables.values())):
            return None
        return self.contents, self.mapping, self.timers, self.registered, self.store.tables, self.watermark

    def restore(self, kept):
        self.contents, self.mapping, self.timers, self.registered, tables, self.watermark = kept
        self.store.tables.clear()
        self.store.tables.update(tables)

    def pending(self, event):
        """The times of the pending timers of one domain."""
        return {at for at, _ in self.timers[event]}
