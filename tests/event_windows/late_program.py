"""An out-of-order bounded input whose late record Flink drops: what NOTE F2S270 warns about.

Written for tests/test_event_windows.py. The map before the timestamps takes 400 ms per record
(a slow enrichment), so Flink's periodic watermark (every 200 ms) passes 12000 - 1000 - 1 ms
before the record at 2000 ms comes: its window [0, 10000) has fired without it. Spark's batch
window counts it.
"""

import time

from pyflink.common import Configuration, Duration, Time, WatermarkStrategy
from pyflink.common.typeinfo import Types
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.window import TumblingEventTimeWindows

READINGS = [("s1", 1, 1_000), ("s1", 2, 12_000), ("s1", 4, 2_000), ("s1", 8, 13_000)]
READING = Types.TUPLE([Types.STRING(), Types.INT(), Types.LONG()])


class ReadingTime(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[2]


def slowly(reading):
    time.sleep(0.4)
    return reading


def main():
    config = Configuration()
    config.set_integer("python.fn-execution.bundle.size", 1)  # each record leaves the Python worker at once
    env = StreamExecutionEnvironment.get_execution_environment(config)
    env.set_parallelism(1)
    readings = env.from_collection(READINGS, type_info=READING).map(slowly, output_type=READING)
    readings.assign_timestamps_and_watermarks(
        WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_seconds(1)).with_timestamp_assigner(ReadingTime())
    ).key_by(lambda r: r[0]).window(TumblingEventTimeWindows.of(Time.seconds(10))).reduce(
        lambda a, b: (a[0], a[1] + b[1], max(a[2], b[2])), output_type=READING
    ).print("late")
    env.execute("late_program")


if __name__ == "__main__":
    main()
