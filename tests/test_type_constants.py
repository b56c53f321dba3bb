"""Record-type constants (``rules/pyflink/type_constants.py``) and timestamp assigners of frame
programs (``_event_windows.unread_assigner``): a constant becomes a DDL string only when every
read of it is a DataFrame's schema, an assigner class goes only when the timestamp column
replaces its only use; anything else keeps them. The frame case runs on Spark and is compared
with the records the original data gives, decided here from the program's own data."""

from __future__ import annotations

import contextlib
import io
import runpy

from flink2spark.transpiler.engine import convert_source

HEAD = """\
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
ORDER = Types.ROW_NAMED(["id", "item", "qty"], [Types.INT(), Types.STRING(), Types.INT()])
ORDERS = [(1, "kiwi", 3), (2, "fig", 0), (3, "kiwi", 5)]
"""


def _convert(body: str) -> str:
    result = convert_source(HEAD + body, "job.py")
    assert result.status == "converted", [m.format("job.py") for m in result.markers]
    assert convert_source(result.output, "job.py").output == result.output  # idempotent
    return result.output


def test_a_constant_read_only_as_frame_schemas_becomes_ddl(tmp_path):
    out = _convert(
        "orders = env.from_collection(ORDERS, type_info=ORDER)\n"
        "orders.filter(lambda o: o.qty > 0).print()\n"
        "more = env.from_collection([(4, 'fig', 2)], ORDER)\n"
        "more.print()\n"
    )
    assert 'ORDER = "id INT, item STRING, qty INT"\n' in out
    assert "createDataFrame(ORDERS, ORDER)" in out and "createDataFrame([(4, \"fig\", 2)], ORDER)" in out
    assert "Types" not in out and "f2s" not in out
    path = tmp_path / "job.py"
    path.write_text(out)
    stdout = io.StringIO()
    with contextlib.redirect_stdout(stdout):
        runpy.run_path(str(path), run_name="__main__")
    rows = [
        tuple(c.strip() for c in line.strip("|").split("|"))
        for line in stdout.getvalue().splitlines()
        if line.startswith("|") and not line.startswith("|id")
    ]
    want = [(str(i), item, str(q)) for i, item, q in [(1, "kiwi", 3), (3, "kiwi", 5), (4, "fig", 2)]]
    assert sorted(rows) == sorted(want)


def test_a_constant_also_read_by_an_rdd_stays_a_type_object():
    out = _convert(
        "orders = env.from_collection(ORDERS, type_info=ORDER)\n"
        "orders.filter(lambda o: o.qty > 0).print()\n"
        "env.from_collection(ORDERS, type_info=ORDER).map(lambda o: {o.item: o.qty}).key_by(lambda d: len(d)).print()\n"
    )
    assert "ORDER = f2s.Types.ROW_NAMED(" in out
    assert "ORDER)" in out and "DDL" not in out


def test_a_constant_read_elsewhere_stays_a_type_object():
    out = _convert(
        "orders = env.from_collection(ORDERS, type_info=ORDER)\n"
        "orders.print()\n"
        "print(ORDER)\n"
    )
    assert "ORDER = f2s.Types.ROW_NAMED(" in out


ASSIGNER = """\
from pyflink.common import Duration, Time, Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.window import TumblingEventTimeWindows

env = StreamExecutionEnvironment.get_execution_environment()


class At(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[2]


clicks = env.from_collection([("a", 1, 1000), ("a", 2, 4000)], Types.TUPLE([Types.STRING(), Types.INT(), Types.LONG()]))
"""
WINDOW = ".key_by(lambda c: c[0]).window(TumblingEventTimeWindows.of(Time.seconds(10))).reduce(lambda a, b: (a[0], a[1] + b[1], max(a[2], b[2]))).print()\n"


def test_an_assigner_class_read_only_by_a_frame_strategy_is_dropped():
    out = convert_source(
        ASSIGNER + "clicks.assign_timestamps_and_watermarks(WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(At()))" + WINDOW,
        "job.py",
    ).output
    assert "F.window(" in out and "class At" not in out and "At()" not in out


def test_an_assigner_class_kept_where_the_stream_is_an_rdd_dropped_with_an_unread_strategy_variable():
    # a strategy variable that nothing reads once the window is native goes, and the class with it
    # (transpiler/unread.py); before that pass both stayed
    strategy = "strategy = WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(At())\n"
    out = convert_source(ASSIGNER + strategy + "clicks.assign_timestamps_and_watermarks(strategy)" + WINDOW, "job.py").output
    assert "F.window(" in out and "class At" not in out and "strategy =" not in out
    rdd = WINDOW.replace(".print()", ".map(lambda r: {r[0]: r[1]}).key_by(len).print()")  # key_by of dicts: the stream stays an RDD
    out = convert_source(
        ASSIGNER + "clicks.assign_timestamps_and_watermarks(WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(At()))" + rdd,
        "job.py",
    ).output
    assert "f2s.windows.Windows(" in out and "class At" in out and "At().extract_timestamp" in out
