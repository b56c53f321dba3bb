"""Taxi fares per pickup zone and 15-minute event-time window (PyFlink DataStream).

Reads rides as CSV text lines ``ride_id,zone,pickup_ms,fare_cents`` (pickup times in epoch
milliseconds, at most 30 s out of order), assigns event time from the pickup, and sums the
fares of each zone over tumbling 15-minute windows with an AggregateFunction; a
ProcessWindowFunction stamps each result with its window start. Results are text lines
``zone,window_start_ms,rides,total_cents,max_cents`` written by a FileSink.

Usage: window_fares.py RIDES_CSV OUTPUT_DIR
"""

import sys

from pyflink.common import Duration, Encoder, Time, Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.file_system import (
    BucketAssigner,
    FileSink,
    FileSource,
    OutputFileConfig,
    StreamFormat,
)
from pyflink.datastream.functions import AggregateFunction, ProcessWindowFunction
from pyflink.datastream.window import TumblingEventTimeWindows


def parse_ride(line):
    ride_id, zone, pickup_ms, fare_cents = line.split(",")
    return int(ride_id), zone, int(pickup_ms), int(fare_cents)


class PickupTime(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[2]


class FareStats(AggregateFunction):
    """(rides, total fare, highest fare) of a zone's window, in cents."""

    def create_accumulator(self):
        return 0, 0, 0

    def add(self, value, accumulator):
        rides, total, highest = accumulator
        return rides + 1, total + value[3], max(highest, value[3])

    def get_result(self, accumulator):
        return accumulator

    def merge(self, a, b):
        return a[0] + b[0], a[1] + b[1], max(a[2], b[2])


class StampWindow(ProcessWindowFunction):
    def process(self, key, context, elements):
        for rides, total, highest in elements:
            yield "%s,%d,%d,%d,%d" % (key, context.window().start, rides, total, highest)


def main(rides_path, output_dir):
    env = StreamExecutionEnvironment.get_execution_environment()

    rides = (
        env.from_source(
            FileSource.for_record_stream_format(StreamFormat.text_line_format(), rides_path).build(),
            WatermarkStrategy.no_watermarks(),
            "rides",
        )
        .map(parse_ride, output_type=Types.TUPLE([Types.LONG(), Types.STRING(), Types.LONG(), Types.LONG()]))
        .assign_timestamps_and_watermarks(
            WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_minutes(1))
            .with_timestamp_assigner(PickupTime())
        )
    )

    fares = (
        rides.key_by(lambda ride: ride[1], key_type=Types.STRING())
        .window(TumblingEventTimeWindows.of(Time.minutes(15)))
        .aggregate(
            FareStats(),
            window_function=StampWindow(),
            accumulator_type=Types.TUPLE([Types.LONG(), Types.LONG(), Types.LONG()]),
            output_type=Types.STRING(),
        )
    )

    fares.sink_to(
        FileSink.for_row_format(output_dir, Encoder.simple_string_encoder())
        .with_bucket_assigner(BucketAssigner.base_path_bucket_assigner())
        .with_output_file_config(OutputFileConfig.builder().with_part_prefix("fares").build())
        .build()
    )

    env.execute("window_fares")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
