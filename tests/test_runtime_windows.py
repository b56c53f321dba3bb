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


# ---------------------------------------------------------------------------------------------
# Triggers. Expected values worked out by hand from Flink's WindowOperator and trigger code,
# and seen on Flink 2.3 (probes with the same elements, STREAMING mode, parallelism 1).

_EVENTS = [("a", 1000, 1), ("b", 1500, 5), ("a", 3500, 2), ("a", 4200, 9), ("b", 6100, 3), ("a", 7000, 4),
           ("a", 12000, 6), ("b", 12500, 8), ("a", 13000, 1), ("a", 19000, 7), ("b", 13100, 2)]


def _keyed_events(sc):
    stamped = W.with_timestamps(sc.parallelize(_EVENTS, 2), lambda value, record_timestamp: value[1])
    return W.keyed(stamped, lambda e: e[0])


def _contents():
    """A ProcessWindowFunction: (key, window start or None, values, watermark it saw)."""

    class Contents:
        def process(self, key, context, elements):
            yield key, getattr(context.window(), "start", None), [e[2] for e in elements], context.current_watermark()

    return Contents()


def test_count_trigger_on_global_windows_fires_without_purging(sc):
    windows = W.Windows(_keyed_events(sc), W.GlobalWindows.create(), timestamped=True).trigger(W.CountTrigger.of(3))
    got = windows.process(_contents()).collect()
    # a's 3rd and 6th element fire the window with all it holds; b has 4 elements: one firing
    assert sorted(got) == sorted([
        (4200, ("a", None, [1, 2, 9], W.MIN_WATERMARK)),
        (13000, ("a", None, [1, 2, 9, 4, 6, 1], W.MIN_WATERMARK)),
        (12500, ("b", None, [5, 3, 8], W.MIN_WATERMARK)),
    ])
    # without a trigger GlobalWindows never fire (NeverTrigger)
    assert W.Windows(_keyed_events(sc), W.GlobalWindows.create(), timestamped=True).reduce(lambda x, y: x).collect() == []


def test_purging_count_trigger_on_count_windows(sc):
    windows = W.Windows(_keyed_events(sc), W.CountTumblingWindowAssigner.of(3), timestamped=True)
    got = windows.trigger(W.PurgingTrigger.of(W.CountTrigger.of(2))).process(_contents()).collect()
    # a: window 0 gets 1, 2 (fire, purge) then 9; window 1 gets 4, 6 (fire) then 1; b: 5, 3 fire
    assert sorted(v[2] for _, v in got) == [[1, 2], [4, 6], [5, 3]]


def test_session_windows_merge_the_trigger_state(sc):
    windows = W.Windows(_keyed_events(sc), W.EventTimeSessionWindows.with_gap(W.Time.seconds(3)), timestamped=True)
    got = windows.trigger(W.CountTrigger.of(2)).process(_contents()).collect()
    # a: 1000 and 3500 merge into one session: the merged count reaches 2 (fire [1, 2]), 4200 and
    # 7000 extend it (fire [1, 2, 9, 4]); 12000/13000 a new session; 19000 alone never fires
    assert sorted((v[0], v[1], v[2]) for _, v in got) == [
        ("a", 1000, [1, 2]), ("a", 1000, [1, 2, 9, 4]), ("a", 12000, [6, 1]), ("b", 12500, [8, 2])]


def test_continuous_event_time_trigger_fires_once_per_round_at_the_end(sc):
    windows = W.Windows(_keyed_events(sc), W.TumblingEventTimeWindows.of(W.Time.seconds(10)), timestamped=True)
    got = windows.trigger(W.ContinuousEventTimeTrigger.of(W.Time.seconds(3))).process(_contents()).collect()
    # each window registered its first interval timer and its end timer while the input ran; at the
    # end both fire (watermark MAX); the next interval timer, registered then, is deleted by the
    # window's cleanup in the same round: two firings per window, as on Flink 2.3
    by_window = {}
    for ts, (key, start, values, watermark) in got:
        assert watermark == W.MAX_WATERMARK
        by_window.setdefault((key, start), []).append((ts, values))
    assert by_window == {
        ("a", 0): [(3000, [1, 2, 9, 4]), (9999, [1, 2, 9, 4])],
        ("a", 10000): [(15000, [6, 1, 7]), (19999, [6, 1, 7])],
        ("b", 0): [(3000, [5, 3]), (9999, [5, 3])],
        ("b", 10000): [(15000, [8, 2]), (19999, [8, 2])],
    }


def test_timers_registered_at_the_end_fire_in_later_rounds():
    """Flink 2.3 fires the timers pending at the final watermark in one round; those that round
    registers fire in the next (a deletion in the round does not stop a timer of the same round)."""

    class Chain(W.Trigger):
        def on_element(self, element, timestamp, window, ctx):
            seen = ctx.get_partitioned_state(f2s.ValueStateDescriptor("seen"))
            if not seen.value():
                seen.update(True)
                for delay in (1000, 1500, 1700):
                    ctx.register_event_time_timer(timestamp + delay)
            return W.TriggerResult.CONTINUE

        def on_event_time(self, time, window, ctx):
            if time % 1000 == 500:
                ctx.delete_event_time_timer(time + 200)
            elif time < 5000:
                ctx.register_event_time_timer(time + 1000)
            return W.TriggerResult.FIRE

    operator = W._KeyOperator(W.GlobalWindows.create(), Chain(), lambda key, window, values, watermark: [sum(values)], "a")
    operator.element((0, 0), 1000, 1, 0, 0)
    operator.element((0, 1), 1200, 2, 0, 1)
    fired = [ts for _, ts, _ in operator.end(0)]
    # round 1: 2000 (adds 3000), 2500 (deletes 2700: too late), 2700 (adds 3700); round 2: 3000, 3700;
    # round 3: 4000, 4700; round 4: 5000, 5700 (nothing more): 9 firings, as Flink printed
    assert fired == [2000, 2500, 2700, 3000, 3700, 4000, 4700, 5000, 5700]


def test_custom_trigger_with_state_purges_and_fires_at_timers(sc):
    class Big(W.Trigger):
        def on_element(self, element, timestamp, window, ctx):
            if element[2] >= 8:
                return W.TriggerResult.FIRE_AND_PURGE
            ctx.register_event_time_timer(window.max_timestamp() - 500)
            return W.TriggerResult.CONTINUE

        def on_event_time(self, time, window, ctx):
            return W.TriggerResult.FIRE if time == window.max_timestamp() - 500 else W.TriggerResult.CONTINUE

    windows = W.Windows(_keyed_events(sc), W.TumblingEventTimeWindows.of(W.Time.seconds(10)), timestamped=True)
    got = sorted(windows.trigger(Big()).process(_contents()).collect())
    assert got == [
        (4200, ("a", 0, [1, 2, 9], W.MIN_WATERMARK)),  # 9 fires and purges at once
        (9499, ("a", 0, [4], W.MAX_WATERMARK)),
        (9499, ("b", 0, [5, 3], W.MAX_WATERMARK)),
        (12500, ("b", 10000, [8], W.MIN_WATERMARK)),
        (19499, ("a", 10000, [6, 1, 7], W.MAX_WATERMARK)),
        (19499, ("b", 10000, [2], W.MAX_WATERMARK)),
    ]
