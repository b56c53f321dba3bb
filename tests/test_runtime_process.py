"""flink2spark.runtime.process: process functions, keyed state, timers, side outputs, connect.

Expected values come from PyFlink 2.3's source (``fn_execution/state_impl.py``: what the state
objects return; ``fn_execution/datastream/process/input_handler.py``: ``yield tag, value``) and
from runs on the reference Flink 2.3 (``fixtures/pyflink``, and the timer probes recorded in
the fixtures event_time_timer_semantics and batch_keyed_timers).
"""

from __future__ import annotations

import sys

from pyspark import cloudpickle

from flink2spark.runtime import datastream as f2s
from flink2spark.runtime.process import MAX_WATERMARK, MIN_WATERMARK

cloudpickle.register_pickle_by_value(sys.modules[__name__])  # Spark workers cannot import this test module


class _States(f2s.KeyedProcessFunction):
    def open(self, runtime_context):
        self.flags = runtime_context.get_map_state(f2s.MapStateDescriptor("flags", None, None))
        self.avg = runtime_context.get_aggregating_state(f2s.AggregatingStateDescriptor("avg", _Mean(), None))
        self.items = runtime_context.get_list_state(f2s.ListStateDescriptor("items", None))

    def process_element(self, value, ctx):
        self.flags.put(value, None)
        self.items.add(value)
        self.avg.add(len(value))
        before = self.avg.get()
        self.avg.add(None)  # PyFlink: adding None clears an AggregatingState
        yield ctx.get_current_key(), self.flags.contains(value), self.flags.is_empty(), list(self.items.get()), before, self.avg.get()


class _Mean(f2s.AggregateFunction):
    def create_accumulator(self):
        return (0, 0)

    def add(self, value, acc):
        return acc[0] + value, acc[1] + 1

    def get_result(self, acc):
        return acc[0] / acc[1]


def test_state_objects_answer_as_pyflinks(sc):
    keyed = sc.parallelize(["ab", "c", "de"], 2).keyBy(len)
    got = sorted(f2s.keyed_process(keyed, _States()).collect())
    # MapState.contains() is False for a key mapped to None, is_empty() False all the same;
    # ListState keeps the key's elements in order
    assert got == [(1, False, False, ["c"], 1.0, None), (2, False, False, ["ab"], 2.0, None), (2, False, False, ["ab", "de"], 2.0, None)]


class _Timers(f2s.KeyedProcessFunction):
    def process_element(self, value, ctx):
        key, ts = value
        yield "el %s %d wm=%d" % (key, ctx.timestamp(), ctx.timer_service().current_watermark())
        ctx.timer_service().register_event_time_timer(ts + 10)
        ctx.timer_service().register_event_time_timer(ts + 10)  # one timer per key and time
        if ts == 5:
            ctx.timer_service().delete_event_time_timer(15)

    def on_timer(self, timestamp, ctx):
        yield "timer %s %d wm=%d %s" % (ctx.get_current_key(), timestamp, ctx.timer_service().current_watermark(), ctx.time_domain())
        if timestamp < 100:
            ctx.timer_service().register_event_time_timer(timestamp + 1000)


def _timestamped(sc, records):
    return sc.parallelize([(ts, (key, ts)) for key, ts in records], 1).map(lambda r: (r[1][0], r))


def test_streaming_timers_fire_at_the_end_in_time_order(sc):
    keyed = _timestamped(sc, [("a", 30), ("b", 20), ("a", 5), ("b", 40), ("a", 12)])
    got = f2s.keyed_process(keyed, _Timers(), timestamped=True).values().collect()
    els = [g for g in got if g.startswith("el")]
    timers = [g for g in got if g.startswith("timer")]
    # Flink 2.3 (STREAMING, bounded input): elements first with no watermark yet, then every
    # timer at the final watermark, by time; the one at 15 was deleted
    assert els == ["el a 30 wm=%d" % MIN_WATERMARK, "el b 20 wm=%d" % MIN_WATERMARK, "el a 5 wm=%d" % MIN_WATERMARK,
                   "el b 40 wm=%d" % MIN_WATERMARK, "el a 12 wm=%d" % MIN_WATERMARK]
    assert [t.split(" wm=")[0] for t in timers] == [
        "timer a 22", "timer b 30", "timer a 40", "timer b 50", "timer a 1022", "timer b 1030", "timer a 1040", "timer b 1050"]
    assert all("wm=%d TimeDomain.EVENT_TIME" % MAX_WATERMARK in t for t in timers)


def test_batch_timers_fire_after_each_keys_elements_sorted_by_time(sc):
    keyed = _timestamped(sc, [("a", 30), ("b", 20), ("a", 5)])
    got = f2s.keyed_process(keyed, _Timers(), mode="batch", timestamped=True).values().collect()
    a = [g.split(" wm=")[0] for g in got if " a " in g]
    assert a == ["el a 5", "el a 30", "timer a 40", "timer a 1040"]  # 15 deleted by the element at 5


class _Split(f2s.ProcessFunction):
    def process_element(self, value, ctx):
        if value < 0:
            yield NEGATIVE, -value
        else:
            yield value
        yield ctx.timestamp()


NEGATIVE = f2s.OutputTag("negative")


def test_side_outputs_and_the_timestamp_of_records_without_one(sc):
    main = f2s.process(sc.parallelize([1, -2, 3], 2), _Split())
    assert sorted(main.collect()) == sorted([1, 3] + [MIN_WATERMARK] * 3)
    assert f2s.side_output(main, f2s.OutputTag("negative")).collect() == [2]  # tags match by id


class _Pair(f2s.KeyedCoProcessFunction):
    def open(self, runtime_context):
        self.seen = runtime_context.get_list_state(f2s.ListStateDescriptor("seen", None))

    def process_element1(self, value, ctx):
        self.seen.add("L" + value)
        yield ctx.get_current_key(), sorted(self.seen.get())

    def process_element2(self, value, ctx):
        self.seen.add("R" + value)
        yield ctx.get_current_key(), sorted(self.seen.get())


def test_keyed_connected_streams_share_state_per_key(sc):
    left = sc.parallelize(["x1", "y1"], 1)
    right = sc.parallelize(["x2"], 1)
    connected = f2s.connect(left, right).key_by(lambda v: v[0], lambda v: v[0])
    got = f2s.co_process(connected, _Pair()).collect()
    assert sorted(got) == [("x", ["Lx1"]), ("x", ["Lx1", "Rx2"]), ("y", ["Ly1"])]


class _Rules(f2s.BroadcastProcessFunction):
    def process_element(self, value, ctx):
        yield value, sorted(ctx.get_broadcast_state(RULES).keys())

    def process_broadcast_element(self, value, ctx):
        ctx.get_broadcast_state(RULES).put(value, True)
        return []


RULES = f2s.MapStateDescriptor("rules", None, None)


def test_every_instance_gets_every_broadcast_element(sc):
    data = sc.parallelize([1, 2, 3, 4], 2)
    got = f2s.co_process(f2s.connect(data, f2s.broadcast(sc.parallelize(["r1", "r2"], 1), RULES)), _Rules()).collect()
    assert sorted(got) == [(n, ["r1", "r2"]) for n in (1, 2, 3, 4)]


def test_broadcast_copies_and_custom_partitions(sc):
    copies = f2s.broadcast_all(sc.parallelize(["a", "b"], 1), parallelism=3)
    assert copies.getNumPartitions() == 3 and sorted(copies.glom().collect()) == [["a", "b"]] * 3

    class Parity(f2s.Partitioner):
        def partition(self, key, num_partitions):
            return key % num_partitions

    parts = f2s.partitioned(sc.parallelize([1, 2, 3, 4], 1), Parity(), lambda x: x, parallelism=2).glom().collect()
    assert [sorted(p) for p in parts] == [[2, 4], [1, 3]]
