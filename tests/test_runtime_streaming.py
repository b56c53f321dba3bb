"""The Structured Streaming shim's keyed rolling reduce (runtime/streaming.py) on real local
streaming queries: text files read by ``spark.readStream``, several micro-batches and a
restart from the same checkpoint. Expected values are Flink's rolling semantics worked out by
hand (STREAMING mode: every element emits its key's reduction so far)."""

from __future__ import annotations

import pytest


def _in_order(folder):
    """Give the files of ``folder`` increasing modification times in name order: Spark's file
    source reads new files by modification time, and files written within the same instant
    could come in any order."""
    import os

    for n, path in enumerate(sorted(folder.iterdir())):
        os.utime(path, (1_700_000_000 + n, 1_700_000_000 + n))


def _inputs(tmp_path, *texts):
    """A folder of input files 1.txt, 2.txt... holding ``texts`` (one micro-batch each)."""
    folder = tmp_path / "in"
    folder.mkdir()
    for n, text in enumerate(texts, 1):
        (folder / ("%d.txt" % n)).write_text(text)
    return folder


def _run(spark, folder, checkpoint):
    """One run of the job: read every new file (one file per micro-batch), keyed rolling sum of
    the second field of lists [key, n], then a map after it; the rows of each micro-batch."""
    from flink2spark.runtime import streaming
    from flink2spark.runtime.datastream import Sum, Types

    lines = streaming.micro_batches(spark.readStream.option("maxFilesPerTrigger", 1).text(str(folder)), Types.STRING())
    pairs = lines.map(lambda line: line.split(" ")).map(lambda p: [p[0], int(p[1])])
    sums = streaming.rolling_reduce(pairs.keyBy(lambda p: p[0]), Sum(1)).map(lambda p: (p[0], p[1]))
    batches = []
    query = (
        streaming.foreach_batch(sums, lambda rdd: batches.append(rdd.collect()))
        .option("checkpointLocation", str(checkpoint))
        .trigger(availableNow=True)
        .start()
    )
    query.awaitTermination()
    return [b for b in batches if b]


def test_rolling_sum_keeps_per_key_state_across_micro_batches_and_restarts(spark, tmp_path, state_store_reset):
    folder, checkpoint = tmp_path / "in", tmp_path / "checkpoint"
    folder.mkdir()
    (folder / "1.txt").write_text("a 1\nb 2\na 3\n")
    (folder / "2.txt").write_text("b 10\nc 5\na 100\n")
    first = _run(spark, folder, checkpoint)
    # a: 1, 1+3=4 | b: 2 ; then b: 2+10=12 | c: 5 | a: 4+100=104 (in each file's order)
    assert first == [[("a", 1), ("b", 2), ("a", 4)], [("b", 12), ("c", 5), ("a", 104)]]
    (folder / "3.txt").write_text("c 1\na 1\nd 7\n")
    second = _run(spark, folder, checkpoint)  # a new query on the same checkpoint: the state is restored
    assert second == [[("c", 6), ("a", 105), ("d", 7)]]


def test_rolling_reduce_with_a_function_after_flat_map_filter_and_map_values(spark, tmp_path, state_store_reset):
    from flink2spark.runtime import streaming
    from flink2spark.runtime.datastream import Types

    folder = _inputs(
        tmp_path,
        "x 3,y 1\nx 2,skip\nx 5\n",
    )
    lines = streaming.micro_batches(spark.readStream.text(str(folder)), Types.STRING())
    words = lines.flatMap(lambda line: line.split(",")).filter(lambda w: w != "skip")
    keyed = words.map(lambda w: (w[0], int(w[2:]))).keyBy(lambda p: p[0]).mapValues(lambda p: ("v", p[1] * 10))
    smallest = streaming.rolling_reduce(keyed, lambda a, b: a if a[1] <= b[1] else b)
    out = []
    streaming.foreach_batch(smallest, lambda rdd: out.extend(rdd.collect())).option(
        "checkpointLocation", str(tmp_path / "cp")
    ).trigger(availableNow=True).start().awaitTermination()
    # keys x/y taken before mapValues, values ("v", n * 10): x: 30, min(30,20)=20, min(20,50)=20 ; y: 10
    assert out == [("v", 30), ("v", 10), ("v", 20), ("v", 20)]


def test_union_of_unbounded_streams_then_a_keyed_rolling_count(spark, tmp_path, state_store_reset):
    """``a.union(b)`` of two file streams, each with its own operators, then a map and a keyed
    rolling count over the union: every element of both inputs once, the counts per key
    running over both (Flink gives no order between the inputs: compared as multisets, and
    per key the counts 1..n)."""
    from collections import Counter

    from flink2spark.runtime import streaming
    from flink2spark.runtime.datastream import Sum, Types

    web, app = tmp_path / "web", tmp_path / "app"
    web.mkdir()
    app.mkdir()
    (web / "1.txt").write_text("GET /a\nPOST /b\nGET /a\n")
    (app / "1.txt").write_text("login u1\nlogout u1\nlogin u2\n")
    requests = streaming.micro_batches(spark.readStream.text(str(web)), Types.STRING()).map(lambda line: line.split(" ")[1])
    logins = streaming.micro_batches(spark.readStream.text(str(app)), Types.STRING()).filter(lambda line: line.startswith("login "))
    merged = requests.union(logins.map(lambda line: "user:" + line.split(" ")[1]))
    tagged = merged.map(lambda s: (s, 1))
    counts = streaming.rolling_reduce(tagged.keyBy(lambda p: p[0]), Sum(1))
    seen, counted = [], []
    for stream, out, cp in ((tagged, seen, "cp1"), (counts, counted, "cp2")):
        streaming.foreach_batch(stream, lambda rdd, out=out: out.extend(rdd.collect())).option(
            "checkpointLocation", str(tmp_path / cp)
        ).trigger(availableNow=True).start().awaitTermination()
    assert Counter(seen) == Counter([("/a", 1), ("/b", 1), ("/a", 1), ("user:u1", 1), ("user:u2", 1)])
    assert Counter(counted) == Counter([("/a", 1), ("/a", 2), ("/b", 1), ("user:u1", 1), ("user:u2", 1)])


def test_union_with_a_bounded_stream_is_refused(spark, tmp_path):
    import pytest

    from flink2spark.runtime import streaming
    from flink2spark.runtime.datastream import Types

    (tmp_path / "in").mkdir()
    lines = streaming.micro_batches(spark.readStream.text(str(tmp_path / "in")), Types.STRING())
    with pytest.raises(TypeError, match="bounded"):
        lines.union(spark.sparkContext.parallelize(["x"]))


def test_keyed_process_function_keeps_its_state_across_micro_batches_and_restarts(spark, tmp_path, state_store_reset):
    # Flink's semantics worked out by hand: per key, a running count (ValueState), the distinct
    # values seen (MapState) and the last two values (ListState), emitted for every element
    from flink2spark.runtime import streaming
    from flink2spark.runtime.datastream import Types
    from flink2spark.runtime.process import KeyedProcessFunction, ListStateDescriptor, MapStateDescriptor, ValueStateDescriptor

    class Track(KeyedProcessFunction):
        def open(self, runtime_context):
            self.count = runtime_context.get_state(ValueStateDescriptor("count", Types.INT()))
            self.seen = runtime_context.get_map_state(MapStateDescriptor("seen", Types.STRING(), Types.BOOLEAN()))
            self.last = runtime_context.get_list_state(ListStateDescriptor("last", Types.STRING()))

        def process_element(self, value, ctx):
            n = (self.count.value() or 0) + 1
            self.count.update(n)
            self.seen.put(value[1], True)
            recent = (list(self.last.get()) + [value[1]])[-2:]
            self.last.update(recent)
            yield ctx.get_current_key(), n, len(list(self.seen.keys())), ",".join(recent)

    def run(folder, checkpoint):
        lines = streaming.micro_batches(spark.readStream.option("maxFilesPerTrigger", 1).text(str(folder)), Types.STRING())
        pairs = lines.map(lambda line: tuple(line.split(" ")))
        batches = []
        streaming.foreach_batch(streaming.keyed_process(pairs.keyBy(lambda p: p[0]), Track()), lambda rdd: batches.append(rdd.collect())).option(
            "checkpointLocation", str(checkpoint)
        ).trigger(availableNow=True).start().awaitTermination()
        return [b for b in batches if b]

    folder, checkpoint = tmp_path / "in", tmp_path / "cp"
    folder.mkdir()
    (folder / "1.txt").write_text("a x\nb y\na x\n")
    (folder / "2.txt").write_text("a z\nb y\n")
    assert run(folder, checkpoint) == [
        [("a", 1, 1, "x"), ("b", 1, 1, "y"), ("a", 2, 1, "x,x")],
        [("a", 3, 2, "x,z"), ("b", 2, 1, "y,y")],
    ]
    (folder / "3.txt").write_text("b w\nc v\na q\n")
    assert run(folder, checkpoint) == [[("b", 3, 2, "y,w"), ("c", 1, 1, "v"), ("a", 4, 3, "z,q")]]


def test_process_function_without_state_runs_on_each_micro_batch(spark, tmp_path):
    # f2s.process on the micro-batches of an unbounded stream, as the conversion writes it for a
    # ProcessFunction with no state, timers or timestamps: the same records as on an RDD
    from flink2spark.runtime import datastream as f2s
    from flink2spark.runtime import streaming
    from flink2spark.runtime.datastream import Types

    class Parse(f2s.ProcessFunction):
        def open(self, runtime_context):
            self.base = 10

        def process_element(self, value, ctx):
            if value.isdigit():
                yield int(value) + self.base

    folder = _inputs(
        tmp_path,
        "1\nx\n22\n",
        "3\n",
    )
    lines = streaming.micro_batches(spark.readStream.option("maxFilesPerTrigger", 1).text(str(folder)), Types.STRING())
    batches = []
    streaming.foreach_batch(f2s.process(lines, Parse()).map(lambda n: n * 2), lambda rdd: batches.append(rdd.collect())).option(
        "checkpointLocation", str(tmp_path / "cp")
    ).trigger(availableNow=True).start().awaitTermination()
    assert [b for b in batches if b] == [[22, 64], [26]]


def _timed_job(spark, folder, checkpoint, side=False):
    """Lines "key timestamp" (one file per micro-batch), timestamps from the second field with
    a 1 s out-of-orderness watermark; a keyed process function counting each key's elements
    (ValueState), registering an event-time timer 1 s after each element and sending elements
    at or behind the watermark to a side output. What reaches the sink, per micro-batch."""
    from flink2spark.runtime import streaming
    from flink2spark.runtime.datastream import Types
    from flink2spark.runtime.process import KeyedProcessFunction, OutputTag, ValueStateDescriptor
    from flink2spark.runtime.windows import Duration, WatermarkStrategy, with_timestamps

    late = OutputTag("late", Types.TUPLE([Types.STRING(), Types.LONG()]))

    class ByField:
        def extract_timestamp(self, value, record_timestamp):
            return value[1]

    class Alarm(KeyedProcessFunction):
        def open(self, runtime_context):
            self.count = runtime_context.get_state(ValueStateDescriptor("count", Types.INT()))

        def process_element(self, value, ctx):
            watermark = ctx.timer_service().current_watermark()
            if ctx.timestamp() <= watermark:
                yield late, ("late", value[0], ctx.timestamp())
                return
            self.count.update((self.count.value() or 0) + 1)
            ctx.timer_service().register_event_time_timer(ctx.timestamp() + 1000)
            yield "el", ctx.get_current_key(), ctx.timestamp(), watermark

        def on_timer(self, timestamp, ctx):
            yield "timer", ctx.get_current_key(), timestamp, ctx.timestamp(), self.count.value()

    _in_order(folder)
    strategy = WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_seconds(1)).with_timestamp_assigner(ByField())
    lines = streaming.micro_batches(spark.readStream.option("maxFilesPerTrigger", 1).text(str(folder)), Types.STRING())
    events = with_timestamps(lines.map(lambda line: (line.split(" ")[0], int(line.split(" ")[1]))), strategy)
    alarms = streaming.keyed_process(events.keyBy(lambda e: e[0]), Alarm(), timers="event")
    out = streaming.side_output(alarms, late) if side else alarms
    batches = []
    streaming.foreach_batch(out, lambda rdd: batches.append(rdd.collect())).option("checkpointLocation", str(checkpoint)).trigger(
        availableNow=True
    ).start().awaitTermination()
    return [b for b in batches if b]


def test_keyed_process_event_time_timers_fire_as_the_watermark_passes(spark, tmp_path, state_store_reset):
    # Flink's semantics worked out by hand, the watermark (max timestamp - 1000 - 1) advancing
    # between the files: 1999 after the first, 4999 after the second, 7999 after the third.
    # Results are (timestamp, value) pairs: elements keep theirs, timers give theirs.
    folder = _inputs(
        tmp_path,
        "a 1000\nb 1500\na 3000\n",
        "a 2500\nb 6000\n",
        "a 4000\nc 9000\n",
    )
    no_watermark = -(2**63)
    assert _timed_job(spark, folder, tmp_path / "cp") == [
        [(1000, ("el", "a", 1000, no_watermark)), (1500, ("el", "b", 1500, no_watermark)), (3000, ("el", "a", 3000, no_watermark))],
        [(2500, ("el", "a", 2500, 1999)), (6000, ("el", "b", 6000, 1999))],
        # timers a@2000, b@2500, a@3500, a@4000 are due by 4999: they fire first, in time order;
        # a 4000 is behind the watermark (side output), c 9000 is not
        [
            (2000, ("timer", "a", 2000, 2000, 3)),
            (2500, ("timer", "b", 2500, 2500, 2)),
            (3500, ("timer", "a", 3500, 3500, 3)),
            (4000, ("timer", "a", 4000, 4000, 3)),
            (9000, ("el", "c", 9000, 4999)),
        ],
        [(7000, ("timer", "b", 7000, 7000, 2))],  # the watermark 7999 passes b@7000 (c@10000 waits)
    ]
    side = _timed_job(spark, folder, tmp_path / "cp-side", side=True)
    assert side == [[(4000, ("late", "a", 4000))]]


def _windowed(spark, folder, checkpoint, build, side=None):
    """Lines "key timestamp n" (one file per micro-batch), timestamps from the second field with
    a 1 s out-of-orderness watermark, keyed by the first; ``build(keyed)`` makes the windowed
    result. What reaches the sink, per micro-batch, each batch sorted (windows of different
    keys firing at the same time come in no fixed order)."""
    from flink2spark.runtime import streaming
    from flink2spark.runtime.datastream import Types
    from flink2spark.runtime.process import side_output
    from flink2spark.runtime.windows import Duration, WatermarkStrategy, with_timestamps

    class ByField:
        def extract_timestamp(self, value, record_timestamp):
            return value[1]

    _in_order(folder)
    strategy = WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_seconds(1)).with_timestamp_assigner(ByField())
    lines = streaming.micro_batches(spark.readStream.option("maxFilesPerTrigger", 1).text(str(folder)), Types.STRING())
    events = with_timestamps(lines.map(lambda line: (line.split(" ")[0], int(line.split(" ")[1]), int(line.split(" ")[2]))), strategy)
    result = build(events.keyBy(lambda e: e[0]))
    out = side_output(result, side) if side is not None else result
    batches = []
    streaming.foreach_batch(out, lambda rdd: batches.append(sorted(rdd.collect()))).option("checkpointLocation", str(checkpoint)).trigger(
        availableNow=True
    ).start().awaitTermination()
    return [b for b in batches if b]


@pytest.mark.parametrize("explicit_trigger", [False, True], ids=["default", "trigger-operator"])
def test_tumbling_event_time_windows_fire_as_the_watermark_passes_and_late_elements_go_aside(spark, tmp_path, state_store_reset, explicit_trigger):
    # Flink's semantics worked out by hand, the watermark (max timestamp - 1001) 4999, 10999 and
    # 14999 after the three files: 5 s windows summing n per key, fired at max_timestamp(). With
    # the assigner's default trigger given explicitly the windows run through the trigger
    # operator (_KeyOperator, Flink's WindowOperator): the same results
    from flink2spark.runtime import streaming
    from flink2spark.runtime.datastream import Types
    from flink2spark.runtime.process import OutputTag
    from flink2spark.runtime.windows import EventTimeTrigger, Time, TumblingEventTimeWindows

    late = OutputTag("late", Types.TUPLE([Types.STRING(), Types.LONG(), Types.INT()]))
    folder = _inputs(
        tmp_path,
        "a 1000 1\na 2000 2\nb 4000 3\na 6000 4\n",
    )
    (folder / "2.txt").write_text("a 3000 10\nb 12000 5\n")  # a 3000: its window [0, 5000) has fired
    (folder / "3.txt").write_text("c 1000 7\na 16000 1\n")  # c 1000: behind the watermark 10999

    def build(keyed):
        windowed = streaming.windows(keyed, TumblingEventTimeWindows.of(Time.seconds(5))).side_output_late_data(late)
        if explicit_trigger:
            windowed = windowed.trigger(EventTimeTrigger.create())
        return windowed.reduce(lambda x, y: (x[0], x[1], x[2] + y[2]))

    assert _windowed(spark, folder, tmp_path / "cp", build) == [
        [(4999, ("a", 1000, 3)), (4999, ("b", 4000, 3))],
        [(9999, ("a", 6000, 4))],
        [(14999, ("b", 12000, 5))],  # a's [15000, 20000) waits for a watermark past 19999
    ]
    assert _windowed(spark, folder, tmp_path / "cp-late", build, side=late) == [[(3000, ("a", 3000, 10))], [(1000, ("c", 1000, 7))]]


def test_session_windows_merge_across_micro_batches_with_a_process_window_function(spark, tmp_path, state_store_reset):
    # gap 3 s: s 1000 -> [1000, 4000), s 5000 -> [5000, 8000); the watermark 3999 fires the first.
    # s 3500 -> [3500, 6500) merges with [5000, 8000); s 6000 extends it to [3500, 9000), which
    # fires when t 20000 brings the watermark to 18999.
    from flink2spark.runtime import streaming
    from flink2spark.runtime.windows import EventTimeSessionWindows, ProcessWindowFunction, Time

    class Session(ProcessWindowFunction):
        def process(self, key, context, elements):
            w = context.window()
            yield key, w.start, w.end, sorted(e[1] for e in elements)

    folder = _inputs(
        tmp_path,
        "s 1000 0\ns 5000 0\n",
        "s 3500 0\ns 6000 0\n",
        "t 20000 0\n",
    )

    def build(keyed):
        return streaming.windows(keyed, EventTimeSessionWindows.with_gap(Time.seconds(3))).process(Session())

    assert _windowed(spark, folder, tmp_path / "cp", build) == [
        [(3999, ("s", 1000, 4000, [1000]))],
        [(8999, ("s", 3500, 9000, [3500, 5000, 6000]))],
    ]


def test_processing_time_windows_group_each_micro_batch_by_the_clock(spark, tmp_path, state_store_reset):
    # 1 ms tumbling windows of processing time: every element of a micro-batch is placed at the
    # micro-batch's time, so each key's elements of a file share one window, which the clock has
    # passed by the end of the micro-batch; a window holds one file's elements only
    import time

    from flink2spark.runtime import streaming
    from flink2spark.runtime.datastream import Types
    from flink2spark.runtime.windows import Time, TumblingProcessingTimeWindows

    folder = _inputs(
        tmp_path,
        "a 1\nb 2\na 3\n",
        "a 10\n",
    )
    lines = streaming.micro_batches(spark.readStream.option("maxFilesPerTrigger", 1).text(str(folder)), Types.STRING())
    pairs = lines.map(lambda line: (line.split(" ")[0], int(line.split(" ")[1])))
    sums = streaming.windows(pairs.keyBy(lambda p: p[0]), TumblingProcessingTimeWindows.of(Time.milliseconds(1))).reduce(lambda x, y: (x[0], x[1] + y[1]))
    out = []
    before = int(time.time() * 1000)
    # in ProcessingTime mode Spark runs micro-batches without data for ever (timers may come due):
    # the query is stopped once both files are in, as an unbounded job would never stop
    query = streaming.foreach_batch(sums, lambda rdd: out.extend(rdd.collect())).option("checkpointLocation", str(tmp_path / "cp")).start()
    deadline = time.time() + 120
    while len(out) < 3 and time.time() < deadline:
        time.sleep(0.5)
    query.stop()
    after = int(time.time() * 1000)
    assert sorted(v for _, v in out) == [("a", 4), ("a", 10), ("b", 2)]
    assert all(before <= ts <= after for ts, _ in out)  # stamped with the window's max_timestamp()


def test_union_of_timestamped_streams_keeps_the_timestamps_and_the_slower_watermark(spark, tmp_path, state_store_reset):
    # two timestamped file streams (delays 1001 and 3001 ms) unioned, then 5 s windows summing
    # per key: the union's watermark is the least of its inputs' (Flink's): web's 6000 - 1001 = 4999,
    # not app's 16000 - 3001 = 12999, so a's [0, 5000) fires and b's [5000, 10000) waits (the larger
    # one would fire it); each element keeps its timestamp
    from flink2spark.runtime import streaming
    from flink2spark.runtime.datastream import Types
    from flink2spark.runtime.windows import Duration, Time, TumblingEventTimeWindows, WatermarkStrategy, with_timestamps

    class ByField:
        def extract_timestamp(self, value, record_timestamp):
            return value[1]

    def stream(name, seconds):
        folder = tmp_path / name
        folder.mkdir()
        (folder / "1.txt").write_text({"web": "a 1000 1\nb 6000 2\n", "app": "a 2000 10\nb 7000 5\na 16000 20\n"}[name])
        lines = streaming.micro_batches(spark.readStream.text(str(folder)), Types.STRING())
        strategy = WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_seconds(seconds)).with_timestamp_assigner(ByField())
        return with_timestamps(lines.map(lambda line: (line.split(" ")[0], int(line.split(" ")[1]), int(line.split(" ")[2]))), strategy)

    merged = stream("web", 1).union(stream("app", 3))
    assert (merged.timestamped, merged.delay) == (True, 3001)
    sums = streaming.windows(merged.keyBy(lambda e: e[0]), TumblingEventTimeWindows.of(Time.seconds(5))).reduce(lambda x, y: (x[0], x[1], x[2] + y[2]))
    out = []
    streaming.foreach_batch(sums, lambda rdd: out.extend(rdd.collect())).option("checkpointLocation", str(tmp_path / "cp")).trigger(
        availableNow=True
    ).start().awaitTermination()
    assert sorted(out) == [(4999, ("a", 1000, 11))]


def test_count_windows_fill_across_micro_batches(spark, tmp_path, state_store_reset):
    # Flink's count windows worked out by hand: tumbling 2 sums pairs (a: 1+2, then 3+4; b: 5+6 once
    # its second element comes in the second file); sliding (2, 1) sums each element with the one
    # before it (element c is in windows c and c-1, window w fires when w+1 arrives)
    from flink2spark.runtime import streaming
    from flink2spark.runtime.datastream import CountSlidingWindowAssigner, CountTumblingWindowAssigner, Types

    folder = _inputs(
        tmp_path,
        "a 1\na 2\nb 5\n",
        "a 3\nb 6\na 4\n",
    )

    _in_order(folder)

    def run(assigner, name):
        lines = streaming.micro_batches(spark.readStream.option("maxFilesPerTrigger", 1).text(str(folder)), Types.STRING())
        pairs = lines.map(lambda line: (line.split(" ")[0], int(line.split(" ")[1])))
        sums = streaming.windows(pairs.keyBy(lambda p: p[0]), assigner).reduce(lambda x, y: (x[0], x[1] + y[1]))
        batches = []
        streaming.foreach_batch(sums, lambda rdd: batches.append(sorted(rdd.collect()))).option("checkpointLocation", str(tmp_path / name)).trigger(
            availableNow=True
        ).start().awaitTermination()
        return [b for b in batches if b]

    assert run(CountTumblingWindowAssigner.of(2), "tumbling") == [[("a", 3)], [("a", 7), ("b", 11)]]
    assert run(CountSlidingWindowAssigner.of(2, 1), "sliding") == [[("a", 3)], [("a", 5), ("a", 7), ("b", 11)]]


def test_allowed_lateness_keeps_windows_and_fires_them_again(spark, tmp_path, state_store_reset):
    # Flink's EventTimeTrigger with 2 s of allowed lateness, worked out by hand (watermark = max
    # timestamp - 1001: 4999, 5999, 10999 after the first three files): [0, 5000) fires at 4999
    # with 1, again at once when 3000 (10) and 4000 (100) come within the lateness, and is dropped
    # at 6999, so 4500 in the fourth file is late; [5000, 10000) fires at 9999 (before the fourth
    # file's elements)
    from flink2spark.runtime import streaming
    from flink2spark.runtime.windows import Time, TumblingEventTimeWindows

    folder = _inputs(
        tmp_path,
        "a 1000 1\na 6000 2\n",
        "a 3000 10\na 7000 1\n",
        "a 4000 100\nb 12000 0\n",
        "a 4500 1000\n",
    )

    def build(keyed):
        windowed = streaming.windows(keyed, TumblingEventTimeWindows.of(Time.seconds(5))).allowed_lateness(2000)
        return windowed.reduce(lambda x, y: (x[0], x[1], x[2] + y[2]))

    assert _windowed(spark, folder, tmp_path / "cp", build) == [
        [(4999, ("a", 1000, 1)), (4999, ("a", 1000, 11))],
        [(4999, ("a", 1000, 111))],
        [(9999, ("a", 6000, 3))],
    ]


def test_continuous_event_time_trigger_fires_as_each_watermark_passes_its_timers(spark, tmp_path, state_store_reset):
    # worked out by hand from Flink's ContinuousEventTimeTrigger (2 s) on 10 s windows, watermark =
    # max timestamp - 1001: a's window registers 2000 (first fire) and 9999 (its end); the watermark
    # 3499 (start of file 4) fires 2000, which registers 4000; 5999 fires 4000 (registers 6000); the
    # last watermark 10999 fires 6000 and 9999 in one round (9999 also cleans the window up and
    # deletes 8000, registered in that round); b's window fires at 8000 and 9999
    from flink2spark.runtime import streaming
    from flink2spark.runtime.windows import ContinuousEventTimeTrigger, Time, TumblingEventTimeWindows

    folder = _inputs(
        tmp_path,
        "a 1000 1\n",
        "a 2500 2\n",
        "a 4500 3\n",
        "b 7000 0\n",
        "b 12000 0\n",
    )

    def build(keyed):
        windowed = streaming.windows(keyed, TumblingEventTimeWindows.of(Time.seconds(10)))
        return windowed.trigger(ContinuousEventTimeTrigger.of(Time.seconds(2))).reduce(lambda x, y: (x[0], x[1], x[2] + y[2]))

    assert _windowed(spark, folder, tmp_path / "cp", build) == [
        [(2000, ("a", 1000, 6))],
        [(4000, ("a", 1000, 6))],
        [(6000, ("a", 1000, 6)), (8000, ("b", 7000, 0)), (9999, ("a", 1000, 6)), (9999, ("b", 7000, 0))],
    ]


def test_global_windows_with_a_purging_count_trigger_across_micro_batches(spark, tmp_path, state_store_reset):
    # batches of 2 per key, counted across micro-batches; results carry the timestamp of the
    # element that completed them
    from flink2spark.runtime import streaming
    from flink2spark.runtime.windows import CountTrigger, GlobalWindows, PurgingTrigger

    folder = _inputs(
        tmp_path,
        "a 1000 1\nb 1100 5\n",
        "a 1200 2\na 1300 3\n",
        "b 1400 6\na 1500 4\n",
    )

    def build(keyed):
        windowed = streaming.windows(keyed, GlobalWindows.create()).trigger(PurgingTrigger.of(CountTrigger.of(2)))
        return windowed.reduce(lambda x, y: (x[0], y[1], x[2] + y[2]))

    assert _windowed(spark, folder, tmp_path / "cp", build) == [
        [(1200, ("a", 1200, 3))],
        [(1400, ("b", 1400, 11)), (1500, ("a", 1500, 7))],
    ]


def test_allowed_lateness_of_session_windows_merges_late_elements(spark, tmp_path, state_store_reset):
    # worked out by hand (Flink's WindowOperator, EventTimeTrigger, sessions of 1 s, 3 s lateness,
    # watermark = max timestamp - 1001): the watermark 3999 fires [1000, 2000) with 1; 1500 then
    # makes [1500, 2500), which merges with it: the merged session is behind the watermark and
    # fires at once with 1 and 10; the watermark 7999 fires [5000, 6000) and cleans up [1000,
    # 2500) (at 5499), so 1200 in the third file is late: dropped, or in the late side output
    from flink2spark.runtime import streaming
    from flink2spark.runtime.datastream import Types
    from flink2spark.runtime.process import OutputTag
    from flink2spark.runtime.windows import EventTimeSessionWindows, Time

    late = OutputTag("late", Types.TUPLE([Types.STRING(), Types.LONG(), Types.INT()]))
    folder = _inputs(
        tmp_path,
        "a 1000 1\na 5000 2\n",
        "a 1500 10\na 9000 0\n",
        "a 1200 100\n",
    )

    def build(keyed):
        windowed = streaming.windows(keyed, EventTimeSessionWindows.with_gap(Time.seconds(1))).allowed_lateness(3000)
        return windowed.side_output_late_data(late).reduce(lambda x, y: (x[0], x[1], x[2] + y[2]))

    assert _windowed(spark, folder, tmp_path / "cp", build) == [
        [(1500, ("a", 1000, 11)), (1999, ("a", 1000, 1))],
        [(5999, ("a", 5000, 2))],
    ]
    assert _windowed(spark, folder, tmp_path / "cp-late", build, side=late) == [[(1200, ("a", 1200, 100))]]


@pytest.mark.parametrize("explicit_trigger", [False, True], ids=["default", "trigger-operator"])
def test_window_functions_see_the_watermark_that_fired_them(spark, tmp_path, state_store_reset, explicit_trigger):
    # watermark = max timestamp - 1001: 4999 after the first file fires a's and b's [0, 5000) at the
    # start of the second; 10999 after it fires a's [5000, 10000) (third file); 14999 after the
    # third fires b's [10000, 15000) in the micro-batch without data that follows
    from flink2spark.runtime import streaming
    from flink2spark.runtime.windows import EventTimeTrigger, ProcessWindowFunction, Time, TumblingEventTimeWindows

    class Watermark(ProcessWindowFunction):
        def process(self, key, context, elements):
            yield key, context.window().start, context.current_watermark()

    folder = _inputs(
        tmp_path,
        "a 1000 1\na 2000 2\nb 4000 3\na 6000 4\n",
        "a 3000 10\nb 12000 5\n",
        "c 1000 7\na 16000 1\n",
    )

    def build(keyed):
        windowed = streaming.windows(keyed, TumblingEventTimeWindows.of(Time.seconds(5)))
        if explicit_trigger:
            windowed = windowed.trigger(EventTimeTrigger.create())
        return windowed.process(Watermark())

    assert _windowed(spark, folder, tmp_path / "cp", build) == [
        [(4999, ("a", 0, 4999)), (4999, ("b", 0, 4999))],
        [(9999, ("a", 5000, 10999))],
        [(14999, ("b", 10000, 14999))],
    ]


def _after_window_sums(spark, tmp_path, then):
    """5 s event-time windows summing n per key (watermark = max timestamp - 1001), their
    results handed to ``then(sums)``: what reaches the sink, per micro-batch."""
    from flink2spark.runtime import streaming
    from flink2spark.runtime.windows import Time, TumblingEventTimeWindows

    folder = _inputs(
        tmp_path,
        "a 1000 1\nb 2000 2\na 6000 3\n",
        "b 7000 4\na 11000 5\n",
        "c 16000 1\n",
    )

    def build(keyed):
        return then(streaming.windows(keyed, TumblingEventTimeWindows.of(Time.seconds(5))).reduce(lambda x, y: (x[0], x[1], x[2] + y[2])))

    return _windowed(spark, folder, tmp_path / "cp", build)


def test_event_time_windows_after_event_time_windows_get_their_results_before_the_watermark(spark, tmp_path, state_store_reset):
    # worked out by hand from Flink: 10 s windows over all the window sums. The watermark 9999
    # (start of the third file) fires a's and b's [5000, 10000); Flink hands those results to the
    # second operator before that watermark, so its [0, 10000) then holds all four sums
    # (1 + 2 + 3 + 4) when the watermark fires it
    from flink2spark.runtime import streaming
    from flink2spark.runtime.windows import Time, TumblingEventTimeWindows

    def overall(sums):
        windowed = streaming.windows(sums.keyBy(lambda s: "all"), TumblingEventTimeWindows.of(Time.seconds(10)))
        return windowed.reduce(lambda x, y: ("all", 0, x[2] + y[2]))

    assert _after_window_sums(spark, tmp_path, overall) == [[(9999, ("all", 0, 10))]]


def test_keyed_process_function_after_event_time_windows(spark, tmp_path, state_store_reset):
    # worked out by hand from Flink: the window sums reach a keyed process function before the
    # watermark that fired them, so process_element sees the previous watermark; each sum
    # registers a timer 1 s after its timestamp, which fires once the watermark passes it (b's
    # 10999 with no element of b in that micro-batch)
    from flink2spark.runtime import streaming
    from flink2spark.runtime.process import KeyedProcessFunction
    from flink2spark.runtime.windows import MIN_WATERMARK

    class Follow(KeyedProcessFunction):
        def process_element(self, value, ctx):
            ctx.timer_service().register_event_time_timer(ctx.timestamp() + 1000)
            yield "elem", ctx.get_current_key(), value[2], ctx.timer_service().current_watermark()

        def on_timer(self, timestamp, ctx):
            yield "timer", ctx.get_current_key(), timestamp

    def follow(sums):
        return streaming.keyed_process(sums.keyBy(lambda s: s[0]), Follow(), timers="event")

    assert _after_window_sums(spark, tmp_path, follow) == [
        [(4999, ("elem", "a", 1, MIN_WATERMARK)), (4999, ("elem", "b", 2, MIN_WATERMARK))],
        [(5999, ("timer", "a", 5999)), (5999, ("timer", "b", 5999)), (9999, ("elem", "a", 3, 4999)), (9999, ("elem", "b", 4, 4999))],
        [(10999, ("timer", "a", 10999)), (10999, ("timer", "b", 10999)), (14999, ("elem", "a", 5, 9999))],
    ]


def test_window_all_on_an_unbounded_stream(spark, tmp_path, state_store_reset):
    # the tumbling-window input above, windowed over all keys (Flink's all-windows operator):
    # the watermarks 4999, 10999 and 14999 fire [0, 5000), [5000, 10000) and [10000, 15000);
    # a 3000 and c 1000 come behind the watermark and are dropped
    from flink2spark.runtime import streaming
    from flink2spark.runtime.windows import ProcessAllWindowFunction, Time, TumblingEventTimeWindows

    class Values(ProcessAllWindowFunction):
        def process(self, context, elements):
            yield context.window().start, sorted(e[2] for e in elements)

    folder = _inputs(
        tmp_path,
        "a 1000 1\na 2000 2\nb 4000 3\na 6000 4\n",
        "a 3000 10\nb 12000 5\n",
        "c 1000 7\na 16000 1\n",
    )

    def build(keyed):
        return streaming.windows_all(keyed.stream, TumblingEventTimeWindows.of(Time.seconds(5))).process(Values())

    assert _windowed(spark, folder, tmp_path / "cp", build) == [[(4999, (0, [1, 2, 3]))], [(9999, (5000, [4]))], [(14999, (10000, [5]))]]


def test_rolling_reduce_of_a_timestamped_stream_keeps_the_element_timestamps(spark, tmp_path, state_store_reset):
    # Flink's rolling reduce emits each key's reduction so far with the timestamp of the element
    # just reduced in (worked out by hand; no window, so the watermark plays no part)
    from flink2spark.runtime import streaming

    folder = _inputs(tmp_path, "a 1000 1\nb 1500 5\na 3000 2\n", "a 2500 4\nb 9000 1\n")

    def build(keyed):
        return streaming.rolling_reduce(keyed, lambda x, y: (x[0], y[1], x[2] + y[2]))

    assert _windowed(spark, folder, tmp_path / "cp", build) == [
        [(1000, ("a", 1000, 1)), (1500, ("b", 1500, 5)), (3000, ("a", 3000, 3))],
        [(2500, ("a", 2500, 7)), (9000, ("b", 9000, 6))],
    ]
