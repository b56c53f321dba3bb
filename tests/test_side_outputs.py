"""A non-keyed ``process(ProcessFunction)`` over a DataFrame, side outputs included
(``rules/pyflink/_side_outputs.py``, ``runtime/frame_process.py``).

The converted program runs on the test session with its records spread over several partitions
and prints the records that Flink 2.3 printed (checked against each output as the original program's
function gives it per record in plain Python, which is how Flink calls it). The functions whose results
do not depend on their record alone (context, instance data, timers) stay on the shim's RDDs: each
refusal is checked.
"""

from __future__ import annotations

from collections import Counter

import pytest

from flink2spark.transpiler.engine import convert_source

HEAD = (
    "from pyflink.common import Row, Types\n"
    "from pyflink.datastream import OutputTag, ProcessFunction, StreamExecutionEnvironment\n\n"
    "SHORT = OutputTag('short', Types.STRING())\n"
    "PAIRS = OutputTag('pairs', Types.TUPLE([Types.STRING(), Types.INT()]))\n\n\n"
)
TAIL = (
    "\n\nenv = StreamExecutionEnvironment.get_execution_environment()\n"
    "words = env.from_collection(WORDS, type_info=Types.TUPLE([Types.STRING(), Types.INT()]))\n"
    "sized = words.process(Sizes(), output_type=Types.ROW_NAMED(['word', 'size'], [Types.STRING(), Types.INT()]))\n"
    "sized.print()\n"
    "sized.get_side_output(SHORT).print()\n"
    "sized.get_side_output(PAIRS).print()\n"
)
WORDS = [("kiwi", 2), ("fig", 1), ("banana", 3), ("", 0), ("plum", 4), ("apple", 2)]
SIZES = (
    "class Sizes(ProcessFunction):\n"
    "    def process_element(self, fruit, ctx):\n"
    "        name, boxes = fruit\n"
    "        if len(name) < 4:\n"
    "            yield SHORT, 'short ' + name\n"
    "            return\n"
    "        for i in range(boxes):\n"
    "            yield Row(word=name, size=len(name) + i)\n"
    "        if boxes > 2:\n"
    "            yield PAIRS, (name, boxes)\n"
)


def _program(function: str) -> str:
    return HEAD + function + f"\n\nWORDS = {WORDS!r}\n" + TAIL


def test_a_process_function_with_side_outputs_is_one_tagged_frame(spark):
    from flink2spark.runtime import frame_process as f2s_process

    result = convert_source(_program(SIZES), "sizes.py")
    assert "F2S205" not in result.output and "TODO" not in result.output, result.output
    assert "sized_outputs = f2s_process.tagged(" in result.output and ".cache()" in result.output
    assert "f2s_process.side_output(sized_outputs, SHORT)" in result.output

    # the converted class and tags, run on a frame of 3 partitions (Flink: one call per record)
    scope: dict = {}
    exec(compile(result.output.split("\nenv = ")[0], "sizes.py", "exec"), scope)
    frame = spark.createDataFrame(WORDS, "f0 STRING, f1 INT").repartition(3)
    outputs = f2s_process.tagged(frame, scope["Sizes"](), "tuple", "word STRING, size INT",
                                 {"short": "value STRING", "pairs": "f0 STRING, f1 INT"}).cache()
    main = Counter(tuple(r) for r in f2s_process.main_output(outputs).collect())
    short = Counter(r.value for r in f2s_process.side_output(outputs, scope["SHORT"]).collect())
    pairs = Counter(tuple(r) for r in f2s_process.side_output(outputs, scope["PAIRS"]).collect())
    assert main == Counter({("kiwi", 4): 1, ("kiwi", 5): 1, ("banana", 6): 1, ("banana", 7): 1, ("banana", 8): 1,
                            ("plum", 4): 1, ("plum", 5): 1, ("plum", 6): 1, ("plum", 7): 1, ("apple", 5): 1, ("apple", 6): 1})
    assert short == Counter({"short fig": 1, "short ": 1})
    assert pairs == Counter({("banana", 3): 1, ("plum", 4): 1})


@pytest.mark.parametrize(
    "function, why",
    [
        (SIZES.replace("name, boxes = fruit\n", "name, boxes = fruit\n        ctx.timestamp()\n"), "reads its context"),
        (SIZES.replace("    def process_element", "    def __init__(self):\n        self.seen = 0\n\n    def process_element"),
         "keeps data in its instance"),
        (SIZES.replace("    def process_element", "    def open(self, runtime_context):\n        pass\n\n    def process_element"),
         "has open()"),
        (SIZES.replace("yield PAIRS, (name, boxes)", "yield (PAIRS if boxes else SHORT), (name, boxes)"), "tags chosen by an expression"),
    ],
)
def test_a_function_whose_results_are_not_of_its_record_alone_stays_on_rdds(function, why):
    result = convert_source(_program(function), "sizes.py")
    assert "F2S205" in result.output and "f2s.process(" in result.output, why
    assert "f2s_process" not in result.output, why


COUNTS = (
    "from pyflink.common import Types\n"
    "from pyflink.datastream import CoMapFunction, StreamExecutionEnvironment\n\n\n"
    "class Count(CoMapFunction):\n"
    "    def __init__(self):\n"
    "        self.left = 0\n"
    "        self.right = 0\n\n"
    "    def map1(self, word):\n"
    "        self.left += 1\n"
    "        return '%d %s' % (self.left, word)\n\n"
    "    def map2(self, number):\n"
    "        self.right += 1\n"
    "        return '%d %d' % (self.right, number)\n\n\n"
    "env = StreamExecutionEnvironment.get_execution_environment()\n"
    "env.set_parallelism(1)\n"
    "words = env.from_collection(['a', 'b'], type_info=Types.STRING())\n"
    "numbers = env.from_collection([7, 8], type_info=Types.INT())\n"
    "words.connect(numbers).map(Count(), output_type=Types.STRING()).print()\n"
)


def test_connected_frames_with_a_counter_per_input_at_parallelism_1_are_each_in_one_partition():
    result = convert_source(COUNTS, "counts.py")
    assert "F2S205" not in result.output, result.output
    assert "f2s_process.connected(" in result.output and "words.coalesce(1)" in result.output
    assert "numbers.coalesce(1)" in result.output


@pytest.mark.parametrize(
    "source, why",
    [
        (COUNTS.replace("env.set_parallelism(1)\n", ""), "instance data at Flink's default parallelism"),
        (COUNTS.replace("self.right += 1\n        return '%d %d' % (self.right", "self.left += 1\n        return '%d %d' % (self.left"),
         "map1 and map2 share a counter: Flink's interleaving of the inputs shows"),
    ],
)
def test_connected_frames_whose_results_depend_on_the_interleaving_stay_on_rdds(source, why):
    result = convert_source(source, "counts.py")
    assert "F2S205" in result.output and "f2s.co_process(" in result.output, why


def test_instance_data_over_rows_in_spark_s_own_order_stays_on_rdds():
    # a BATCH keyed sum's results come in Spark's group order: a counter over them would number them differently
    source = (
        "from pyflink.common import Types\n"
        "from pyflink.datastream import ProcessFunction, RuntimeExecutionMode, StreamExecutionEnvironment\n\n\n"
        "class Number(ProcessFunction):\n"
        "    def __init__(self):\n"
        "        self.seen = 0\n\n"
        "    def process_element(self, total, ctx):\n"
        "        self.seen += 1\n"
        "        yield '%d %s' % (self.seen, total[0])\n\n\n"
        "env = StreamExecutionEnvironment.get_execution_environment()\n"
        "env.set_parallelism(1)\n"
        "env.set_runtime_mode(RuntimeExecutionMode.BATCH)\n"
        "sales = env.from_collection([('a', 1), ('b', 2), ('a', 3)], type_info=Types.TUPLE([Types.STRING(), Types.INT()]))\n"
        "sales.key_by(lambda s: s[0]).sum(1).process(Number(), output_type=Types.STRING()).print()\n"
    )
    result = convert_source(source, "totals.py")
    assert "F2S205" in result.output and "f2s.process(" in result.output, result.output
    assert "f2s_process" not in result.output
    assert "Number(), output_type" not in result.output  # converted, on RDDs
    # without the counter the same chain is a frame
    stateless = source.replace("        self.seen += 1\n", "").replace("self.seen, ", "0, ").replace(
        "    def __init__(self):\n        self.seen = 0\n\n", "")
    assert "f2s_process.main_output(" in convert_source(stateless, "totals.py").output
