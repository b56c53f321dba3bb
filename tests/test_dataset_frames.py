"""rules/dataset/_frames.py: which DataSet data sets become DataFrames, decided once per data set.

Each case converts a small DataSet program and checks where the conversion put DataFrames and
where RDDs (``createDataFrame``/``range``/``read.text(...).select`` against ``parallelize``/
``.rdd``), and the NOTE a frame sum of a 64-bit field carries. The records of the frame forms
are checked on Spark by the fixtures (tests/test_fixtures.py: word_count_tokenizer,
warehouse_totals, sensor_units_mixed, two_executions) and on Spark Connect
(tests/test_spark_connect.py); here no session is needed.
"""

from __future__ import annotations

import pytest

from flink2spark.rules.dataset._common import program
from flink2spark.transpiler.engine import convert_source


def _converted(body: str, imports: str = "", todo: bool = False) -> tuple[str, list[str]]:
    result = convert_source(program(body, imports), "job.py")
    assert result.status == ("partial" if todo else "converted"), [m.format("job.py") for m in result.markers]
    assert convert_source(result.output, "job.py").output == result.output  # idempotent
    return result.output, [m.code for m in result.markers]


FRAMES = {
    "literal tuples": "env.from_elements(('a', 1), ('b', -2)).filter(lambda t: t[1] > 0).output()\n",
    "ints of both sizes": "env.from_elements(('a', 1), ('b', 5000000000)).output()\n",  # f1 BIGINT
    "bool values": "env.from_elements(True, False).filter(lambda b: b).output()\n",
    "text lines": "env.read_text('in.txt').filter(lambda line: line.startswith('#')).write_text('out')\n",
    "flat_map lambda with collector": "env.from_elements('a b').flat_map(lambda line, c: c.collect(line.upper())).output()\n",
    "flat_map lambda returning the split": "env.read_text('in').flat_map(lambda line, c: line.split(',')).output()\n",
    "grouped reduce": "env.from_elements(('a', 1)).group_by(0).reduce(lambda a, b: (b[0], max(a[1], b[1]))).output()\n",
    "a name read twice": "xs = env.from_elements(('a', 1))\nxs.output()\nxs.group_by(0).sum(1).output()\n",
}


@pytest.mark.parametrize("body", FRAMES.values(), ids=FRAMES.keys())
def test_typed_data_sets_become_dataframes(body):
    out, _ = _converted(body)
    assert "sparkContext" not in out and ".rdd" not in out, out
    assert "createDataFrame" in out or ".read.text(" in out, out


RDDS = {
    # a Python int past 64 bits: a Spark BIGINT cannot hold it
    "int past 64 bits": "env.from_elements(('a', 9223372036854775808)).output()\n",
    # bools and ints in one field: Python's True is 1, a Spark column has one type
    "bools and ints": "env.from_elements(1, True).output()\n",
    # doubles print by Java's toString on Spark, repr in Python
    "floats": "env.from_elements(('a', 1.5)).output()\n",
    "tuples of several shapes": "env.from_elements(('a', 1), ('b',)).output()\n",
    "tuples and values": "env.from_elements(('a', 1), 'b').output()\n",
    "computed elements": "n = 3\nenv.from_elements(n, 4).output()\n",
    "print to stderr": "env.from_elements(1, 2).output(to_error=True)\n",
    "a function the translator refuses": "env.from_elements('a').map(lambda s: s.zfill(3)).output()\n",
    "a map that may give None": "env.from_elements(1, 2).map(lambda x: x if x > 1 else None).output()\n",
    "a key selector": "env.from_elements(('a', 1)).group_by(lambda t: t[0]).sum(1).output()\n",
    "a field neither key nor aggregated": "env.from_elements(('a', 'x', 1)).group_by(0).sum(2).output()\n",
    "a float division": "env.from_elements(('a', 1)).map(lambda t: (t[0], t[1] / 2)).output()\n",
    "a sum of strings": "env.from_elements(('a', 'x')).group_by(0).reduce(lambda a, b: (a[0], a[1] + b[1])).output()\n",
    "an ungrouped aggregate": "env.from_elements(('a', 1)).sum(1).output()\n",
    "a write_csv of values": "env.from_elements('a', 'b').write_csv('out')\n",
    "a write_text of tuples": "env.from_elements(('a', 1)).write_text('out')\n",
    "a named operator": "env.from_elements(1).filter(lambda x: x > 0).name('positive').output()\n",
    "a data set no one reads": "xs = env.from_elements(1, 2)\n",
    "a broadcast set": (
        "\n\nclass Scale(MapFunction):\n"
        "    def map(self, value):\n"
        "        return value * self.context.get_broadcast_variable('factor')[0]\n\n\n"
        "factor = env.from_elements(2)\n"
        "env.from_elements(1).map(Scale()).with_broadcast_set('factor', factor).output()\n"
    ),
}


@pytest.mark.parametrize("body", RDDS.values(), ids=RDDS.keys())
def test_data_sets_without_a_frame_form_stay_rdds(body):
    out, _ = _converted(body, imports="from flink.functions.MapFunction import MapFunction\n" if "MapFunction" in body else "")
    assert "createDataFrame" not in out and "F." not in out, out


def test_one_consumer_without_a_frame_form_keeps_the_data_set_and_its_siblings_rdds():
    out, _ = _converted(
        "xs = env.from_elements(('a', 1), ('b', 2))\n"
        "xs.filter(lambda t: t[1] > 1).output()\n"  # has a frame form
        "xs.map(lambda t: (t[0], t[1] / 3)).output()\n"  # has none: xs stays an RDD, so does the filter
        "env.from_elements(('c', 3)).group_by(0).sum(1).output()\n"  # unrelated: a DataFrame
    )
    assert out.count("sparkContext.parallelize") == 1 and out.count("createDataFrame") == 1, out
    flat = "".join(out.split())
    assert "xs.filter(lambda t: t[1] > 1)" in out and 'groupBy("f0").agg(F.sum("f1")' in flat, out


def test_output_whose_value_is_used_keeps_its_todo_on_an_rdd():
    out, codes = _converted("sink = env.from_elements(1, 2).output()\n", todo=True)
    assert codes == ["F2S100"] and "parallelize([1, 2]).output()" in out, out


def test_a_derived_data_set_without_a_frame_form_keeps_its_inputs_rdds():
    out, _ = _converted("env.read_text('in').map(lambda line: line.strip()).map(lambda s: s.zfill(3)).output()\n")
    assert ".rdd.map(" in out and "F." not in out, out


def test_a_64_bit_sum_carries_a_note_and_a_32_bit_one_none():
    _, codes = _converted("env.generate_sequence(1, 10).map(lambda n: (n % 2, n)).group_by(0).sum(1).output()\n")
    assert "F2S280" in codes
    out, codes = _converted("env.from_elements(('a', 2147483647), ('a', 2147483647)).group_by(0).sum(1).output()\n")
    assert "F2S280" not in codes and 'F.sum("f1")' in out and '"f0 STRING, f1 INT"' in out, out


def test_word_count_class_tokenizer_is_an_exact_split_and_a_grouped_sum():
    out, codes = _converted(
        "\n\nclass Tokenizer(FlatMapFunction):\n"
        "    def flat_map(self, value, collector):\n"
        "        for word in value.split():\n"
        "            collector.collect((word, 1))\n\n\n"
        "\n\nclass Adder(GroupReduceFunction):\n"
        "    def reduce(self, iterator, collector):\n"
        "        word, count = iterator.next()\n"
        "        count += sum([x[1] for x in iterator])\n"
        "        collector.collect((word, count))\n\n\n"
        "env.read_text('in').flat_map(Tokenizer()).group_by(0).reduce_group(Adder(), combinable=True).write_csv('out')\n",
        imports="from flink.functions.FlatMapFunction import FlatMapFunction\n"
                "from flink.functions.GroupReduceFunction import GroupReduceFunction\n",
    )
    # Python's whitespace runs (Java's \s with (?U) is Unicode White_Space, plus \x1c-\x1f), empty words dropped
    assert r'F.array_remove(F.split(F.col("value"), r"(?U)[\s\x1c-\x1f]+"), "")' in out, out
    assert 'groupBy("f0")' in out and 'F.sum("f1")' in out and "reduceByKey" not in out, out
    assert "F2S273" not in codes and "F2S280" not in codes  # a sum of 1s: an INT field


@pytest.mark.parametrize("use, strips", [
    ("flat_map(lambda line, c: line.split())", False),  # \r is whitespace: the same words
    ("flat_map(lambda line, c: [(w, 1) for w in line.split()])", False),
    ("flat_map(lambda line, c: line.split(','))", True),  # 'a,b\r' -> 'b\r'
    ("flat_map(lambda line, c: [(w, len(line)) for w in line.split()])", True),  # reads the line itself
    ("filter(lambda line: line.endswith('x'))", True),
])
def test_lines_drop_the_cr_of_crlf_unless_every_use_splits_on_whitespace(use, strips):
    out, _ = _converted(f"env.read_text('in').{use}.output()\n")
    assert ("regexp_replace" in out or "removesuffix" in out) == strips, out  # a frame or (len(line)) an RDD
