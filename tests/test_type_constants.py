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
        "env.from_collection(ORDERS, type_info=ORDER).map(lambda o: {o.item: o.qty}).print()\n"
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
