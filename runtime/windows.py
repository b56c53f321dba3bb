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
"""

from __future__ import annotations

__all__ = [
    "Duration",
    "Time",
    "WatermarkStrategy",
    "TimestampAssigner",
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
    if isinstance(extract_timestamp, WatermarkStrategy):
        if extract_timestamp._timestamp_assigner is None:
            raise ValueError("this WatermarkStrategy has no timestamp assigner: the records keep their timestamps")
        extract_timestamp = extract_timestamp._timestamp_assigner.extract_timestamp

    def plain(value):
        return _timestamp(extract_timestamp(value, NO_TIMESTAMP)), value

    def pair(record):
        return _timestamp(extract_timestamp(record[1], record[0])), record[1]

    return stream.map(pair if timestamped else plain)


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
