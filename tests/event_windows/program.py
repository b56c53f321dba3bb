"""Event-time windows over a collection of sensor readings, for tests/test_event_windows.py.

Written for the project (not a fixture): each job prints with its own identifier, so one Flink
run records what every lowering in rules/pyflink/_event_windows.py must give on Spark.
"""

from pyflink.common import Duration, Time, WatermarkStrategy
from pyflink.common.typeinfo import Types
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.functions import AggregateFunction, ProcessWindowFunction
from pyflink.datastream.window import EventTimeSessionWindows, SlidingEventTimeWindows, TumblingEventTimeWindows

# (sensor, reading, timestamp in ms): in timestamp order per sensor, one reading before 0
READINGS = [
    ("s1", 4, -1_500),
    ("s1", 7, 1_000),
    ("s2", 3, 2_000),
    ("s1", 5, 4_500),
    ("s2", 9, 6_000),
    ("s1", 2, 9_999),
    ("s2", 1, 10_000),
    ("s1", 8, 16_000),
    ("s2", 6, 21_000),
    ("s2", 2, 23_500),
]
READING = Types.TUPLE([Types.STRING(), Types.INT(), Types.LONG()])


class ReadingTime(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[2]


class SumCount(AggregateFunction):
    def create_accumulator(self):
        return 0, 0

    def add(self, value, accumulator):
        return accumulator[0] + value[1], accumulator[1] + 1

    def get_result(self, accumulator):
        return accumulator[0], accumulator[1]

    def merge(self, a, b):
        return a[0] + b[0], a[1] + b[1]


class Weighted(AggregateFunction):
    def create_accumulator(self):
        return 100

    def add(self, value, accumulator):
        return accumulator + value[1] * 2

    def get_result(self, accumulator):
        return accumulator - 100

    def merge(self, a, b):
        return a + b - 100


class Bounds(ProcessWindowFunction):
    def process(self, key, context, results):
        window = context.window()
        for total, count in results:
            yield key, window.start, window.end, total, count


class Readings(ProcessWindowFunction):
    def process(self, key, context, readings):
        window = context.window()
        yield key, window.max_timestamp(), "/".join(str(r[1]) for r in readings)


def main():
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    readings = env.from_collection(READINGS, type_info=READING).assign_timestamps_and_watermarks(
        WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_seconds(1)).with_timestamp_assigner(ReadingTime())
    )
    by_sensor = readings.key_by(lambda r: r[0], key_type=Types.STRING())
    by_sensor.window(TumblingEventTimeWindows.of(Time.seconds(10))).reduce(
        lambda a, b: (a[0], a[1] + b[1], max(a[2], b[2])), output_type=READING
    ).print("tumbling_reduce")
    by_sensor.window(SlidingEventTimeWindows.of(Time.seconds(10), Time.seconds(5))).aggregate(
        SumCount(), output_type=Types.TUPLE([Types.LONG(), Types.LONG()])
    ).print("sliding_sum_count")
    by_sensor.window(EventTimeSessionWindows.with_gap(Time.seconds(4))).reduce(
        lambda a, b: (a[0], max(a[1], b[1]), min(a[2], b[2])), output_type=READING
    ).print("session_max")
    by_sensor.window(TumblingEventTimeWindows.of(Time.seconds(10), Time.seconds(3))).aggregate(
        Weighted(), output_type=Types.LONG()
    ).print("offset_weighted")
    by_sensor.window(TumblingEventTimeWindows.of(Time.seconds(10))).aggregate(
        SumCount(), window_function=Bounds(),
        output_type=Types.TUPLE([Types.STRING(), Types.LONG(), Types.LONG(), Types.LONG(), Types.LONG()]),
    ).print("tumbling_bounds")
    by_sensor.window(SlidingEventTimeWindows.of(Time.seconds(10), Time.seconds(5))).process(
        Readings(), output_type=Types.TUPLE([Types.STRING(), Types.LONG(), Types.STRING()])
    ).print("sliding_readings")
    env.execute("event_windows")


if __name__ == "__main__":
    main()
