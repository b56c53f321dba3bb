"""Assignments of Flink-only values and Flink function classes the conversion left unread are
dropped (transpiler/unread.py); whatever is still read, has effects or is the program's own
stays."""

from __future__ import annotations

import ast

from flink2spark.transpiler.engine import convert_source

# from_collection and assign_timestamps_and_watermarks become a DataFrame, the map of Double
# columns: the strategy, the timestamp assigner class it made an instance of and the map class
# are read by nothing once converted
NATIVE = '''from pyflink.common import Duration, Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.functions import MapFunction


class Stamp(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[1] * 1000


class Double(MapFunction):
    def map(self, value):
        return value[0], value[1] * 2


def main():
    env = StreamExecutionEnvironment.get_execution_environment()
    # event time of the numbers
    strategy = WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(Stamp())
    numbers = env.from_collection([("a", 1), ("b", 2)], type_info=Types.TUPLE([Types.STRING(), Types.INT()]))
    stamped = numbers.assign_timestamps_and_watermarks(strategy)
    stamped.map(Double(), output_type=Types.TUPLE([Types.STRING(), Types.INT()])).print()
    env.execute()
'''


def _convert(src: str):
    result = convert_source(src)
    assert result.output is not None, result.markers
    ast.parse(result.output)
    return result.output


def _bound(out: str) -> set[str]:
    """Names the output binds by assignment or class statement, at any depth."""
    tree = ast.parse(out)
    names = {n.name for n in ast.walk(tree) if isinstance(n, ast.ClassDef)}
    names |= {t.id for n in ast.walk(tree) if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)}
    return names


def test_unread_strategy_and_its_assigner_class_go():
    out = _convert(NATIVE)
    assert not {"strategy", "Stamp", "Double"} & _bound(out)
    assert "WatermarkStrategy" not in out and "f2s" not in out
    assert "F.col(" in out  # the map became columns
    # the comment above the dropped statement stays, on the next one
    assert "# event time of the numbers\n    numbers = " in out


def test_a_strategy_a_kept_path_reads_stays():
    # a strategy also read by a call that stays (a print of it) is still read: it stays, and so
    # does the class its value holds an instance of
    src = NATIVE.replace("    env.execute()\n", "    print(strategy)\n    env.execute()\n")
    out = _convert(src)
    assert {"strategy", "Stamp"} <= _bound(out)
    assert "print(strategy)" in out


def test_a_strategy_read_by_an_rdd_path_stays():
    # timestamps assigned on a stream that stays on RDDs (a key_by of a map's pickled results has no
    # DataFrame form): the RDD path reads the strategy (f2s.windows.with_timestamps), so it and its
    # assigner stay
    src = NATIVE.replace("stamped.map(Double(), output_type=Types.TUPLE([Types.STRING(), Types.INT()]))",
                         "stamped.map(lambda v: {v[0]: v}).key_by(lambda d: len(d))")
    out = _convert(src)
    assert "with_timestamps" in out
    assert {"strategy", "Stamp"} <= _bound(out)
    assert "Double" in _bound(out)  # no longer read by the input either: the program's own


def test_a_type_read_later_stays():
    src = '''from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment

ROW = Types.TUPLE([Types.STRING(), Types.INT()])
NAME = Types.STRING()


def main():
    env = StreamExecutionEnvironment.get_execution_environment()
    ds = env.from_collection([("a", 1)], type_info=ROW)
    names = ds.map(lambda r: r[0], output_type=NAME)
    names.print()
    print(NAME)
    env.execute()
'''
    out = _convert(src)
    assert "NAME" in _bound(out) and "print(NAME)" in out


def test_a_value_the_input_never_read_stays():
    # the program's own dead code is not the conversion's to remove
    src = NATIVE.replace("    numbers = env.from_collection(", "    unused = Types.STRING()\n    numbers = env.from_collection(")
    out = _convert(src)
    assert "unused" in _bound(out)


def test_a_value_with_effects_stays():
    # the strategy's delay comes from a function of the program: calling it may do anything
    src = NATIVE.replace(
        "WatermarkStrategy.for_monotonous_timestamps()", "WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_seconds(delay()))"
    ).replace("def main():", "def delay():\n    print('asked')\n    return 3\n\n\ndef main():")
    out = _convert(src)
    assert {"strategy", "Stamp"} <= _bound(out) and "Double" not in _bound(out)
    assert "Duration.of_seconds(delay())" in out
    # and so does one whose timestamp assigner a function makes
    src = NATIVE.replace("with_timestamp_assigner(Stamp())", "with_timestamp_assigner(make_stamp())").replace(
        "def main():", "def make_stamp():\n    print('made')\n    return Stamp()\n\n\ndef main():"
    )
    out = _convert(src)
    assert "strategy" in _bound(out)


def test_classes_that_do_something_when_made_stay():
    with_init = NATIVE.replace(
        "    def extract_timestamp(", "    def __init__(self):\n        print('stamp')\n\n    def extract_timestamp("
    )
    assert {"strategy", "Stamp"} <= _bound(_convert(with_init))
    decorated = NATIVE.replace("class Stamp(", "@register\nclass Stamp(").replace(
        "from pyflink.common import", "from jobs import register\nfrom pyflink.common import"
    )
    assert {"strategy", "Stamp"} <= _bound(_convert(decorated))


def test_non_flink_values_stay():
    src = NATIVE.replace("    strategy =", "    settings = {'a': 1}\n    strategy =").replace(
        "    stamped =", "    label = settings\n    stamped ="
    )
    out = _convert(src)
    assert "settings" in _bound(out)


def test_names_another_module_or_dynamic_code_may_read_stay():
    exported = '''__all__ = ["ROW", "main"]
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment

ROW = Types.TUPLE([Types.STRING(), Types.INT()])
STRING = Types.STRING()


def main():
    env = StreamExecutionEnvironment.get_execution_environment()
    env.from_collection(["a"], type_info=STRING).print()
    env.execute()
'''
    out = _convert(exported)
    assert "ROW" in _bound(out)
    dynamic = NATIVE.replace("    env.execute()\n", "    print(locals())\n    env.execute()\n")
    assert "strategy" in _bound(_convert(dynamic))


def test_a_class_body_constant_stays():
    # self.KIND reads a class attribute: no scope sees that read
    src = NATIVE.replace(
        "class Stamp(TimestampAssigner):\n", "class Stamp(TimestampAssigner):\n    KIND = Types.LONG()\n\n"
    ).replace("return value * 1000", "return value * 1000 if self.KIND else 0")
    out = _convert(src)
    assert "KIND" in _bound(out)


def test_converting_twice_changes_nothing():
    out = _convert(NATIVE)
    assert convert_source(out).output == out
