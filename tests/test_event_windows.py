"""Event-time windows lowered to ``groupBy(key, F.window(...))`` (rules/pyflink/_event_windows.py).

The lowerings are built from the program ``tests/event_windows/program.py`` (written for this
test) by the helpers the rules call, run on real Spark over a DataFrame of its collection, and
compared with what the same program printed on real Flink 2.3 (``flink_stdout.txt``, recorded
with ``python tests/test_event_windows.py --record``; ``test_recorded_output_is_flinks`` runs it
again on Flink when the reference interpreter is there).
"""

from __future__ import annotations

import ast
import sys
from collections import Counter
from pathlib import Path

import libcst as cst
import pytest

from flink2spark.rules.pyflink import _event_windows as W
from flink2spark.runtime import frame_windows
from flink2spark.rules.pyflink._common import record_shape
from flink2spark.transpiler import python_columns as PC
from flink2spark.transpiler.infer import Resolver
from flink2spark.transpiler.models import MODELS
from flink2spark.transpiler.visitors import nodes

HERE = Path(__file__).parent / "event_windows"
PROGRAM = HERE / "program.py"
RECORDED = HERE / "flink_stdout.txt"
sys.path.insert(0, str(Path(__file__).parent))
from flink_reference import flink_available, run_on_flink  # noqa: E402


def _program():
    module = cst.parse_module(PROGRAM.read_text())
    return module, Resolver(module, MODELS["pyflink"])


def _calls(module, method):
    return [c for c in nodes(module, cst.Call) if isinstance(c.func, cst.Attribute) and c.func.attr.value == method]


def _class(module, name):
    return next(c for c in nodes(module, cst.ClassDef) if c.name.value == name)


def _jobs():
    """identifier -> (Spark code over the DataFrame ``readings`` with its ``ts`` column, whether
    its records print as tuples), built by the helpers from each
    ``window(...).<function>(...).print(identifier)`` of the program."""
    module, resolver = _program()
    shape = record_shape(resolver, _assigned(module, "READING"))
    fields = [f.name for f in shape.fields]
    key = "F.col('f0').alias('key')"
    jobs = {}
    for printed in _calls(module, "print"):
        ident = printed.args[0].value.evaluated_value
        function = printed.func.value
        window = function.func.value
        plan = W.window_plan(resolver, window.args[0].value)
        assert isinstance(plan, W.WindowPlan), plan
        first = function.args[0].value
        output = record_shape(resolver, next(a.value for a in function.args if a.keyword and a.keyword.value == "output_type"))
        then = next((a.value for a in function.args if a.keyword and a.keyword.value == "window_function"), None)
        if function.func.attr.value == "process":
            bounds = W.window_bounds("readings", key, plan, fields)
            code = W.per_window(bounds, f"{first.func.value}()", "process", fields, "tuple", output, W.TIMESTAMP_COLUMN)
            jobs[ident] = (code, True)
            continue
        if function.func.attr.value == "reduce":
            aggregates = W.reduce_aggregates(first, shape, "f0")
        else:
            aggregates = W.aggregate_function(_class(module, first.func.value), shape, resolver.qualified_name, checked=True)
        assert isinstance(aggregates, W.Aggregates), aggregates
        code = W.window_aggregate("readings", key, plan, aggregates, with_bounds=then is not None)
        if then is not None:
            result = [o.name or f"f{i}" for i, o in enumerate(aggregates.result)]
            code = W.per_window(code, f"{then.func.value}()", "process", result, "tuple" if aggregates.tuple else "value", output, None)
        jobs[ident] = (code, output.kind != "value")
    return jobs


def _classes():
    """The program's function classes (their PyFlink bases are not needed to call them)."""
    module, _ = _program()
    found = {}
    for cls in nodes(module, cst.ClassDef):
        if cls.name.value in ("Bounds", "Readings"):
            code = cst.Module(body=[cls.with_changes(bases=[])]).code
            exec(code, found)
    return {k: v for k, v in found.items() if k in ("Bounds", "Readings")}


def _assigned(module, name):
    return next(a.value for a in nodes(module, cst.Assign) if isinstance(a.targets[0].target, cst.Name)
                and a.targets[0].target.value == name)


def _flink_line(ident, row, is_tuple):
    """The line Flink prints for a TUPLE / basic value record."""
    text = "(" + ",".join(str(v) for v in row) + ")" if is_tuple else str(row[0])
    return f"{ident}> {text}"


def test_spark_gives_flinks_records(spark):
    from pyspark.sql import functions as F

    module, resolver = _program()
    spark.conf.set("spark.sql.session.timeZone", "UTC")
    data = ast.literal_eval(PROGRAM.read_text().split("READINGS = ", 1)[1].split("\nREADING", 1)[0])
    shape = record_shape(resolver, _assigned(module, "READING"))
    extract = W.extract_function(_class(module, "ReadingTime"))
    millis = W.timestamp_column(extract, shape)
    assert isinstance(millis, PC.Output), millis
    readings = eval(W.with_timestamp("frame", millis), {"F": F, "frame": spark.createDataFrame(data, "f0 string, f1 int, f2 bigint")})
    lines = []
    for ident, (code, is_tuple) in _jobs().items():
        frame = eval(code, {"F": F, "readings": readings, "f2s_windows": frame_windows, **_classes()})
        lines += [_flink_line(ident, tuple(r), is_tuple) for r in frame.collect()]
    expected = _recorded(RECORDED.read_text())
    assert Counter(lines) == Counter(expected)
    assert {l.split(">")[0] for l in expected} == {"tumbling_reduce", "sliding_sum_count", "session_max", "offset_weighted",
                                                         "tumbling_bounds", "sliding_readings"}


@pytest.mark.skipif(not flink_available(), reason="reference Flink interpreter not installed")
def test_recorded_output_is_flinks():
    assert Counter(_recorded(run_on_flink(PROGRAM))) == Counter(_recorded(RECORDED.read_text()))


def _recorded(text):
    """Flink's lines with their identifiers (the program runs at parallelism 1: no N> prefix)."""
    return [line for line in text.splitlines() if "> " in line]


if __name__ == "__main__" and sys.argv[1:] == ["--record"]:
    RECORDED.write_text(run_on_flink(PROGRAM))
