"""flink2spark.runtime.windows: record timestamps and windows of converted PyFlink programs.

Expected values come from PyFlink 2.3's source (``common/time.py``,
``common/watermark_strategy.py``, ``datastream/data_stream.py``) and from probes run on the
reference Flink: a source without timestamps gives ``record_timestamp`` Long.MIN_VALUE,
operators keep their input's timestamp.
"""

from __future__ import annotations

import pytest

from flink2spark.runtime import datastream as f2s
from flink2spark.runtime import windows as W


def _by_field():
    """A TimestampAssigner (defined here: Spark's workers pickle it by value)."""

    class ByField:
        def extract_timestamp(self, value, record_timestamp):
            return value[1] + (0 if record_timestamp == W.NO_TIMESTAMP else 1_000_000)

    return ByField()


def test_durations_and_time():
    assert W.Duration.of_seconds(2).to_milliseconds() == 2000
    assert W.Duration.of_minutes(1) == W.Duration.of_millis(60_000)
    assert W.Duration.of_nanos(3_000_000).to_milliseconds() == 3
    assert W.Time.minutes(15).to_milliseconds() == 900_000
    assert W.Time.days(1).to_milliseconds() == 86_400_000
    assert f2s.Time is W.Time and f2s.WatermarkStrategy is W.WatermarkStrategy


def test_with_timestamps_calls_the_assigner_like_pyflink(sc):
    stream = sc.parallelize([("a", 5), ("b", 7)], 2)
    stamped = W.with_timestamps(stream, _by_field().extract_timestamp)
    assert stamped.collect() == [(5, ("a", 5)), (7, ("b", 7))]
    # a second assigner sees the timestamps of the first
    again = W.with_timestamps(stamped, _by_field().extract_timestamp, timestamped=True)
    assert again.collect() == [(1_000_005, ("a", 5)), (1_000_007, ("b", 7))]


def test_with_timestamps_takes_a_strategy(sc):
    strategy = W.WatermarkStrategy.for_bounded_out_of_orderness(W.Duration.of_seconds(1)).with_timestamp_assigner(_by_field()).with_idleness(W.Duration.of_seconds(9))
    assert W.with_timestamps(sc.parallelize([("a", 5)]), strategy).collect() == [(5, ("a", 5))]
    with pytest.raises(ValueError):
        W.with_timestamps(sc.parallelize([1]), W.WatermarkStrategy.for_monotonous_timestamps())


def test_assigner_returning_none_fails(sc):
    class Nothing:
        def extract_timestamp(self, value, record_timestamp):
            return None

    with pytest.raises(Exception, match="extract_timestamp"):
        W.with_timestamps(sc.parallelize([1]), Nothing().extract_timestamp).collect()


def test_operators_keep_timestamps(sc):
    stamped = sc.parallelize([(10, "a b"), (20, "c")], 2)
    assert stamped.flatMapValues(str.split).filter(W.by_value(lambda w: w != "b")).collect() == [(10, "a"), (20, "c")]
    keyed = W.keyed(stamped, len)
    assert keyed.collect() == [(3, (10, "a b")), (1, (20, "c"))]
    assert W.without_timestamps(sc.parallelize(["x"])).collect() == [(W.NO_TIMESTAMP, "x")]


def test_rolling_reduce_keeps_the_latest_timestamp(sc):
    keyed = W.keyed(sc.parallelize([(1, ("k", 1)), (2, ("k", 2)), (3, ("j", 5)), (4, ("k", 3))], 2), lambda v: v[0])
    out = f2s.rolling_reduce(keyed, W.reducing_values(lambda a, b: (a[0], a[1] + b[1]))).collect()
    assert out == [(1, ("k", 1)), (2, ("k", 3)), (3, ("j", 5)), (4, ("k", 6))]


def test_classes_generic_in_pyflink_take_type_arguments():
    # PyFlink declares these typing.Generic: programs subscript them in bases and annotations
    from flink2spark.runtime import process

    assert f2s.ProcessWindowFunction.Context[f2s.TimeWindow] is f2s.ProcessWindowFunction.Context
    assert f2s.ProcessWindowFunction[tuple, str, str, f2s.TimeWindow] is f2s.ProcessWindowFunction
    assert f2s.ProcessAllWindowFunction.Context[f2s.TimeWindow] is f2s.ProcessAllWindowFunction.Context
    assert process.ValueState[int] is process.ValueState and process.MapState[str, int] is process.MapState
    assert process.ListState[int] is process.ListState
    assert process.KeyedBroadcastProcessFunction[str, int, int, str] is process.KeyedBroadcastProcessFunction


def test_window_functions_with_open_get_keyed_state_that_outlives_windows(sc):
    # a ProcessWindowFunction whose open() creates keyed state: the state of a key carries from
    # one of its windows to the next (in time order), never to another key's
    class Numbered:
        def open(self, runtime_context):
            self.seen = runtime_context.get_state(f2s.ValueStateDescriptor("seen", f2s.Types.INT()))

        def process(self, key, context, elements):
            n = (self.seen.value() or 0) + 1
            self.seen.update(n)
            yield key, context.window().start, n, sum(v for _, v in elements)

        def close(self):
            self.seen = None

    # (timestamp, value) records, out of time order within key "a"
    records = [(3500, ("a", 1)), (100, ("a", 2)), (1200, ("b", 5)), (2100, ("a", 3)), (150, ("b", 1))]
    keyed = W.keyed(sc.parallelize(records, 2), lambda v: v[0])
    windows = W.Windows(keyed, f2s.TumblingEventTimeWindows.of(f2s.Time.seconds(1)), timestamped=True)
    out = sorted(windows.process(Numbered()).values().collect())
    assert out == [("a", 0, 1, 2), ("a", 2000, 2, 3), ("a", 3000, 3, 1), ("b", 0, 1, 1), ("b", 1000, 2, 5)]



def test_processing_time_windows_fire_only_when_the_clock_has_passed_them(sc):
    # STREAMING: a window still open when the bounded input ends never fires (Flink cancels the
    # pending processing-time timers); 1 ms windows have all ended, every element fires in one;
    # BATCH: every window fires at the end. The windows place elements by the wall clock.
    import time

    pairs = sc.parallelize([("a", 1), ("b", 2), ("a", 3), ("a", 4)], 2).keyBy(lambda p: p[0])

    def run(size, batch=False):
        assigner = f2s.TumblingProcessingTimeWindows.of(size)
        return W.Windows(pairs, assigner, batch=batch).reduce(lambda x, y: (x[0], x[1] + y[1])).collect()

    assert run(f2s.Time.days(1)) == []  # (unless the job runs across midnight UTC)
    before = int(time.time() * 1000)
    tiny = run(f2s.Time.milliseconds(1))
    assert {k: sum(v for key, v in (r[1] for r in tiny) if key == k) for k in "ab"} == {"a": 8, "b": 2}
    assert all(before <= ts <= int(time.time() * 1000) for ts, _ in tiny)
    assert sorted(v for _, v in run(f2s.Time.days(1), batch=True)) == [("a", 8), ("b", 2)]
    assert f2s.ProcessingTimeSessionWindows.with_gap(f2s.Time.seconds(1)).windows(None, 5000, None) == [W.TimeWindow(5000, 6000)]
    assert f2s.SlidingProcessingTimeWindows.of(f2s.Time.seconds(10), f2s.Time.seconds(5)).windows(None, 12000, None) == [
        W.TimeWindow(10000, 20000),
        W.TimeWindow(5000, 15000),
    ]
