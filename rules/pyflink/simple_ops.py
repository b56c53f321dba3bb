"""``map``, ``flat_map`` and ``filter`` -> ``select``/``where`` or ``RDD.map``/``flatMap``/``filter``.

On a stream the program model lowers to a DataFrame (``StreamFacts.frame``), ``map(f,
output_type=T)`` is ``select`` of the Columns ``f`` translates to (``transpiler/python_columns``;
named as ``T``'s fields, integers cast to ``T``'s width: Flink's serializer and Spark's ANSI cast
both fail on a value out of range) and ``filter(f)`` is ``where``. The planner decided that
the translation is exact. Where the function has no Column form but the results' schema is
known (``output_type``; a filter's records are its input's), the user's function runs as a
Python UDTF over the frame, ``f2s_process.python_udtf(df, "map", f, kind, schema)``
(``_side_outputs.function_plan``: records as Flink hands them to Python, results stored as its
serializer stores them, ``open``/``close`` once per Spark task: NOTE F2S203). A map with no
``output_type`` (Flink pickles its results) is a ``select`` when the translator types its result
exactly (``_frames.untyped_shape``); else its results have no Spark type and stay Python objects,
``f2s_process.pickled(df, "map", f, kind)`` (``_side_outputs.UNTYPED``), run with the functions
after them in the UDTF of the next map/flat_map with an ``output_type`` (``python_udtf(pickled,
..., "pickled", schema)``) or of a print (``f2s_process.as_text``). Otherwise the
stream is an RDD and what follows applies.

PyFlink functions take one element and return the result (``flat_map``: any iterable, usually
a generator), exactly what Spark calls, so lambdas and defs pass as they are, any other callable
too, and function classes become their bound method (``Split().flat_map``; their PyFlink base
class is dropped). On a keyed stream the operators apply to its elements (``values()``).

A function class with ``open(runtime_context)``/``close()`` runs through
``mapPartitionsWithIndex(f2s.with_open_close(instance, "map"))``: ``open`` before the first
element of each partition, ``close`` after the last one. Flink calls them once per parallel
instance, Spark once per partition (NOTE F2S203): results are the same unless they have side
effects. ``open`` may ask its runtime context for task information and, on a keyed stream, for
keyed state (``runtime_context.get_state(...)``): such a class runs through
``f2s.keyed_process(keyed, instance, method="map")``, which scopes the state to each element's
key (see ``process.py``); keyed state on a stream that is not keyed is left with a TODO. Over a
frame, where the program model plans it (``_stateful.plan``: results that cannot depend on the
order of a key's rows, or rows in the source's order at parallelism 1), the class becomes a
StatefulProcessor run by ``groupBy(key).transformWithState`` (``process.stateful_processor``).

``output_type`` decides how later ``print``/``execute_and_collect`` format the elements. PyFlink
fuses a Python operator with the next one when that is its only consumer and passes its
objects on as they are; a stream read by several operators (a variable used more than once)
reaches each of them through Flink's serializers for ``output_type``, which gives a positional
``Row`` the type's field names and ``Types.FLOAT`` values 32 bits: there the result is followed
by ``map(f2s.decoded(output_type))`` (not needed when the function visibly returns values of
the right shape, or for types decoded unchanged).
"""

from flink2spark.rules.pyflink._common import as_stream, decoded_output, program, runtime_mode, spark_program
from flink2spark.rules.pyflink._time import windows_shim
from flink2spark.rules.pyflink._streams import facts
from flink2spark.transpiler import functions as F
from flink2spark.transpiler import markers as M
from flink2spark.transpiler import pyflink_model as P
from flink2spark.transpiler.registry import Example, Rule

SPARK = {"map": "map", "flat_map": "flatMap", "filter": "filter"}
# the head of examples converted to UDTFs over DataFrames, before the module's functions
_UDTF_HEAD = "from flink2spark.runtime import frame_process as f2s_process\nfrom pyspark.sql import SparkSession, functions as F\n\nenv = SparkSession.builder.getOrCreate()\n\n\n"
# On a timestamped stream ((timestamp, value) pairs, see runtime/windows.py) the records keep their timestamps.
SPARK_TIMESTAMPED = {"map": "mapValues", "flat_map": "flatMapValues"}

rule = Rule(
    __name__,
    matches=["DataStream.map", "DataStream.flat_map", "DataStream.filter"],
    summary="map/filter -> select/where of Columns on a DataFrame, flat_map -> select(F.explode(...)); a function with no Column form over a DataFrame -> f2s_process.python_udtf (the function as a Python UDTF); keyed map/flat_map of a class with keyed state -> groupBy(key).transformWithState; map/flat_map/filter -> RDD.map/flatMap/filter (lambdas, defs, function classes, open/close)",
    codes=(M.PF_FUNCTION, M.PF_STATE, M.PF_OPEN_CLOSE, M.PF_EVENT_TIME, M.PF_TWS_SOURCE_ORDER, M.PF_TWS_MAP_ORDER, M.PF_TWS_TTL, M.PF_PROCESS),
    examples=[
        Example(  # on a DataFrame (the program model's frame form): the function as Columns
            program(
                "\n\nclass Cheap(FilterFunction):\n"
                "    def filter(self, value):\n"
                "        return value[1] < 20\n\n\n"
                "items = env.from_collection([('pen', 3), ('ink', 30)], Types.TUPLE([Types.STRING(), Types.INT()]))\n"
                "items.filter(Cheap()).map(lambda t: (t[0], t[1] * 2), output_type=Types.TUPLE([Types.STRING(), Types.INT()])).print()\n",
                imports="from pyflink.common import Types\nfrom pyflink.datastream.functions import FilterFunction\n",
            ),
            "from pyspark.sql import SparkSession, functions as F\n\n"
            "env = SparkSession.builder.getOrCreate()\n"
            "\n\n"  # Cheap: read by nothing once its filter is a Column (transpiler/unread.py)
            'items = env.createDataFrame([("pen", 3), ("ink", 30)], "f0 STRING, f1 INT")\n'
            "items.where(F.col(\"f1\") < 20).select(\n"
            '    "f0", (F.col("f1").cast("long") * 2).cast("int").alias("f1")\n'
            ").show(2147483647, truncate=False)\n",
        ),
        Example(  # a function with no Column form (statements, a %.2f: Java's differ) over a frame: a Python UDTF of it
            program(
                "\n\ndef label(t):\n"
                "    name, price = t\n"
                "    return '%s: %.2f' % (name, price)\n\n\n"
                "items = env.from_collection([('pen', 3.5), ('ink', 30.0)], Types.TUPLE([Types.STRING(), Types.DOUBLE()]))\n"
                "items.map(label, output_type=Types.STRING()).print()\n",
                imports="from pyflink.common import Types\n",
            ),
            "from flink2spark.runtime import frame_process as f2s_process\n"
            "from pyspark.sql import SparkSession\n\n"
            "env = SparkSession.builder.getOrCreate()\n\n\n"
            "def label(t):\n"
            "    name, price = t\n"
            "    return '%s: %.2f' % (name, price)\n\n\n"
            'items = env.createDataFrame([("pen", 3.5), ("ink", 30.0)], "f0 STRING, f1 DOUBLE")\n'
            'f2s_process.python_udtf(items, "map", label, "tuple", "value STRING").show(\n'
            "    2147483647, truncate=False\n"
            ")\n",
        ),
        Example(  # a MapFunction with open()/close(): its instance in the UDTF, open() once per Spark task (NOTE F2S203)
            program(
                "\n\nclass Rate(MapFunction):\n"
                "    def open(self, runtime_context):\n"
                "        self.rates = {'USD': 0.9}\n\n"
                "    def map(self, value):\n"
                "        return Row(value[0], round(value[1] * self.rates.get(value[0], 1.0), 2))\n\n"
                "    def close(self):\n"
                "        self.rates = None\n\n\n"
                "prices = env.from_collection([('USD', 10.0), ('EUR', 4.0)], Types.TUPLE([Types.STRING(), Types.DOUBLE()]))\n"
                "prices.map(Rate(), output_type=Types.ROW_NAMED(['cur', 'eur'], [Types.STRING(), Types.DOUBLE()])).print()\n",
                imports="from pyflink.common import Row, Types\nfrom pyflink.datastream.functions import MapFunction\n",
            ),
            "from flink2spark.runtime import frame_process as f2s_process\n"
            "from pyspark.sql import Row, SparkSession\n\n"
            "env = SparkSession.builder.getOrCreate()\n\n\n"
            "class Rate:\n"
            "    def open(self, runtime_context):\n"
            '        self.rates = {"USD": 0.9}\n\n'
            "    def map(self, value):\n"
            "        return Row(value[0], round(value[1] * self.rates.get(value[0], 1.0), 2))\n\n"
            "    def close(self):\n"
            "        self.rates = None\n\n\n"
            'prices = env.createDataFrame([("USD", 10.0), ("EUR", 4.0)], "f0 STRING, f1 DOUBLE")\n'
            "# NOTE(flink2spark): F2S203 Rate.open()/close() run once per Spark task (the UDTF's instance; Flink: once per"
            " parallel instance); results are the same unless they have side effects\n"
            "f2s_process.python_udtf(\n"
            '    prices, "map", Rate(), "tuple", "cur STRING, eur DOUBLE", rows=True\n'
            ").show(2147483647, truncate=False)\n",
        ),
        Example(  # no output_type: Columns where the translator types the result exactly (STRING, BIGINT); else
            # the results stay pickled Python objects (no Spark type) and run in one UDTF with the next typed function
            program(
                "\n\ndef parse(line):\n"
                "    level, _, message = line.partition(' ')\n"
                "    return level, message\n\n\n"
                "logs = env.from_collection(['WARN disk', 'INFO ok'], Types.STRING())\n"
                "logs.map(parse).filter(lambda lm: lm[0] == 'WARN').map(lambda lm: lm[1], output_type=Types.STRING()).print()\n"
                "logs.map(lambda s: (s[:4], 1)).print()\n",
                imports="from pyflink.common import Types\n",
            ),
            _UDTF_HEAD +
            'def parse(line):\n'
            "    level, _, message = line.partition(' ')\n"
            '    return level, message\n'
            '\n'
            '\n'
            'logs = env.createDataFrame(["WARN disk", "INFO ok"], "string")\n'
            'f2s_process.python_udtf(\n'
            '    f2s_process.pickled(\n'
            '        f2s_process.pickled(logs, "map", parse, "value"),\n'
            '        "filter",\n'
            '        lambda lm: lm[0] == "WARN",\n'
            '    ),\n'
            '    "map",\n'
            '    lambda lm: lm[1],\n'
            '    "pickled",\n'
            '    "value STRING",\n'
            ').show(2147483647, truncate=False)\n'
            'logs.select(F.substring(F.col("value"), 1, 4).alias("f0"), F.lit(1).alias("f1")).show(\n'
            '    2147483647, truncate=False\n'
            ')\n',
        ),
        Example(  # refused: a class keeping data between records, at Flink's default parallelism (instances see parts of the stream)
            program(
                "\n\nclass Dedupe(FilterFunction):\n"
                "    def __init__(self):\n"
                "        self.seen = set()\n\n"
                "    def filter(self, value):\n"
                "        if value in self.seen:\n"
                "            return False\n"
                "        self.seen.add(value)\n"
                "        return True\n\n\n"
                "env.from_collection(['a', 'b', 'a'], Types.STRING()).filter(Dedupe()).print()\n",
                imports="from pyflink.common import Types\nfrom pyflink.datastream.functions import FilterFunction\n",
            ),
            spark_program(
                "\n\nclass Dedupe:\n"
                "    def __init__(self):\n"
                "        self.seen = set()\n\n"
                "    def filter(self, value):\n"
                "        if value in self.seen:\n"
                "            return False\n"
                "        self.seen.add(value)\n"
                "        return True\n\n\n"
                "for record in (\n"
                '    env.sparkContext.parallelize(["a", "b", "a"]).filter(Dedupe().filter).collect()\n'
                "):\n"
                "    print(record)\n",
                rdd="`.filter()` at line 19 has no DataFrame form (its function: a function that is not a lambda, a def or a"
                " function class without open()/close(); as a Python UDTF: Dedupe keeps data between records, which do not"
                " come in a collection's order at parallelism 1)",
            ),
        ),
        Example(  # a function class with keyed state on a keyed frame: a StatefulProcessor (rules/pyflink/_stateful.py);
            # its numbering follows the order of a key's rows: the source's at parallelism 1, one partition
            program(
                "\n\nclass Numbered(MapFunction):\n"
                "    def open(self, runtime_context):\n"
                "        self.n = runtime_context.get_state(ValueStateDescriptor('n', Types.INT()))\n\n"
                "    def map(self, value):\n"
                "        n = (self.n.value() or 0) + 1\n"
                "        self.n.update(n)\n"
                "        return value[0], n\n\n\n"
                "env.set_parallelism(1)\n"
                "words = env.from_collection([('a', 1), ('b', 2), ('a', 3)], Types.TUPLE([Types.STRING(), Types.INT()]))\n"
                "words.key_by(lambda w: w[0]).map(Numbered(), output_type=Types.TUPLE([Types.STRING(), Types.INT()])).print()\n",
                imports="from pyflink.common import Types\nfrom pyflink.datastream.functions import MapFunction\n"
                "from pyflink.datastream.state import ValueStateDescriptor\n",
            ),
            "from pyspark.sql import Row, SparkSession\nfrom pyspark.sql.streaming import StatefulProcessor\n\n"
            "env = SparkSession.builder.getOrCreate()\n"
            "\n\nclass Numbered(StatefulProcessor):\n"
            "    def init(self, handle):\n"
            '        self.n = handle.getValueState("n", "value int")\n\n'
            "    def handleInputRows(self, key, rows, timerValues):\n"
            "        for value in rows:\n"
            "            n = (self.state_value(self.n) or 0) + 1\n"
            "            self.n.update((n,))\n"
            "            yield Row(f0=value[0], f1=n)\n\n"
            "    @staticmethod\n"
            "    def state_value(state):\n"
            '        """The value of a ValueState (Spark keeps it in a 1-tuple); None when it has none."""\n'
            "        found = state.get()\n"
            "        return None if found is None else found[0]\n\n\n"
            'words = env.createDataFrame([("a", 1), ("b", 2), ("a", 3)], "f0 STRING, f1 INT")\n'
            "# NOTE(flink2spark): F2S291 Numbered: each key's rows reach handleInputRows in the source's order (one partition:"
            " coalesce(1)), as Flink's at parallelism 1; Spark keeps that order (one shuffle block, a stable sort by key) without"
            " promising it\n"
            'words.coalesce(1).groupBy("f0").transformWithState(\n'
            '    Numbered(), "f0 string, f1 int", "Update", "None"\n'
            ").show(2147483647, truncate=False)\n",
        ),
        Example(  # two keyed maps with state, the second reading the first's results: their rows carry
            # their place in the source (parallelism 1), each key's rows sorted by it (rules/pyflink/_stateful.py)
            program(
                "\n\nclass Once(FlatMapFunction):\n"
                "    def open(self, runtime_context):\n"
                "        self.seen = runtime_context.get_state(ValueStateDescriptor('seen', Types.BOOLEAN()))\n\n"
                "    def flat_map(self, value):\n"
                "        if self.seen.value() is None:\n"
                "            self.seen.update(True)\n"
                "            yield value[0], value[1].upper()\n\n\n"
                "class Numbered(MapFunction):\n"
                "    def open(self, runtime_context):\n"
                "        self.n = runtime_context.get_state(ValueStateDescriptor('n', Types.INT()))\n\n"
                "    def map(self, value):\n"
                "        n = (self.n.value() or 0) + 1\n"
                "        self.n.update(n)\n"
                "        return value[1], n\n\n\n"
                "env.set_parallelism(1)\n"
                "t = Types.TUPLE([Types.STRING(), Types.STRING()])\n"
                "moves = env.from_collection([('m1', 'a'), ('m2', 'b'), ('m1', 'a'), ('m3', 'a')], t)\n"
                "once = moves.key_by(lambda m: m[0]).flat_map(Once(), output_type=t)\n"
                "once.key_by(lambda m: m[1]).map(Numbered(), output_type=Types.TUPLE([Types.STRING(), Types.INT()])).print()\n",
                imports="from pyflink.common import Types\nfrom pyflink.datastream.functions import FlatMapFunction, MapFunction\n"
                "from pyflink.datastream.state import ValueStateDescriptor\n",
            ),
            "from pyspark.sql import Row, SparkSession, functions as F\n"
            "from pyspark.sql.streaming import StatefulProcessor\n"
            "\n"
            "env = SparkSession.builder.getOrCreate()\n"
            "\n"
            "\n"
            "class Once(StatefulProcessor):\n"
            "    def init(self, handle):\n"
            "        self.seen = handle.getValueState(\"seen\", \"value boolean\")\n"
            "\n"
            "    def handleInputRows(self, key, rows, timerValues):\n"
            "        for value in sorted(rows, key=lambda row: row._f2s_seq):\n"
            "            if self.state_value(self.seen) is None:\n"
            "                self.seen.update((True,))\n"
            "                yield Row(f0=value[0], f1=value[1].upper(), _f2s_seq=value._f2s_seq)\n"
            "\n"
            "    @staticmethod\n"
            "    def state_value(state):\n"
            "        \"\"\"The value of a ValueState (Spark keeps it in a 1-tuple); None when it has none.\"\"\"\n"
            "        found = state.get()\n"
            "        return None if found is None else found[0]\n"
            "\n"
            "\n"
            "class Numbered(StatefulProcessor):\n"
            "    def init(self, handle):\n"
            "        self.n = handle.getValueState(\"n\", \"value int\")\n"
            "\n"
            "    def handleInputRows(self, key, rows, timerValues):\n"
            "        for value in sorted(rows, key=lambda row: row._f2s_seq):\n"
            "            n = (self.state_value(self.n) or 0) + 1\n"
            "            self.n.update((n,))\n"
            "            yield Row(f0=value[1], f1=n)\n"
            "\n"
            "    @staticmethod\n"
            "    def state_value(state):\n"
            "        \"\"\"The value of a ValueState (Spark keeps it in a 1-tuple); None when it has none.\"\"\"\n"
            "        found = state.get()\n"
            "        return None if found is None else found[0]\n"
            "\n"
            "\n"
            "moves = env.createDataFrame(\n"
            "    [(\"m1\", \"a\"), (\"m2\", \"b\"), (\"m1\", \"a\"), (\"m3\", \"a\")], \"f0 STRING, f1 STRING\"\n"
            ")\n"
            "once = (\n"
            "    moves.withColumn(\"_f2s_seq\", F.monotonically_increasing_id())\n"
            "    .groupBy(\"f0\")\n"
            "    .transformWithState(\n"
            "        Once(), \"f0 string, f1 string, _f2s_seq bigint\", \"Update\", \"None\"\n"
            "    )\n"
            ")\n"
            "once.groupBy(\"f1\").transformWithState(\n"
            "    Numbered(), \"f0 string, f1 int\", \"Update\", \"None\"\n"
            ").show(2147483647, truncate=False)\n",
        ),
        Example(  # %-formatting, str.format, f-string specs: F.format_string where Java's %s/%d give Python's text
            # (a map with no output_type giving a string, never None, is a string column too)
            program(
                "moves = env.from_collection([('acc1', 5), ('acc2', -3)], Types.TUPLE([Types.STRING(), Types.INT()]))\n"
                "moves.map(lambda m: '%s moved %+d' % m).print()\n"
                "moves.map(lambda m: f'{m[0]}: {m[1]:>4}', output_type=Types.STRING()).print()\n",
                imports="from pyflink.common import Types\n",
            ),
            "from pyspark.sql import SparkSession, functions as F\n\n"
            "env = SparkSession.builder.getOrCreate()\n"
            'moves = env.createDataFrame([("acc1", 5), ("acc2", -3)], "f0 STRING, f1 INT")\n'
            "moves.select(\n"
            '    F.format_string("%s moved %+d", F.col("f0"), F.col("f1")).alias("value")\n'
            ").show(2147483647, truncate=False)\n"
            'moves.select(F.format_string("%s: %4d", F.col("f0"), F.col("f1")).alias("value")).show(\n'
            "    2147483647, truncate=False\n"
            ")\n",
        ),
        Example(  # flat_map on a DataFrame: the items as an array Column, exploded, then each item's record
            program(
                "\n\nclass Tags(FlatMapFunction):\n"
                "    def flat_map(self, value):\n"
                "        for tag in value[1].split(';'):\n"
                "            yield tag, 1\n\n\n"
                "posts = env.from_collection([(1, 'a;b'), (2, 'b')], Types.TUPLE([Types.INT(), Types.STRING()]))\n"
                "posts.flat_map(Tags(), output_type=Types.TUPLE([Types.STRING(), Types.INT()])).print()\n"
                "posts.flat_map(lambda p: p[1].split(), output_type=Types.STRING()).print()\n",
                imports="from pyflink.common import Types\nfrom pyflink.datastream.functions import FlatMapFunction\n",
            ),
            "from pyspark.sql import SparkSession, functions as F\n\n"
            "env = SparkSession.builder.getOrCreate()\n"
            "\n\n"  # Tags: read by nothing once its flat_map is Columns (transpiler/unread.py)
            'posts = env.createDataFrame([(1, "a;b"), (2, "b")], "f0 INT, f1 STRING")\n'
            'posts.select(F.explode(F.split(F.col("f1"), ";")).alias("tag")).select(\n'
            '    F.col("tag").alias("f0"), F.lit(1).alias("f1")\n'
            ").show(2147483647, truncate=False)\n"
            "posts.select(\n"
            '    F.explode(F.array_remove(F.split(F.col("f1"), r"(?U)[\\s\\x1c-\\x1f]+"), "")).alias(\n'
            '        "value"\n'
            "    )\n"
            ").show(2147483647, truncate=False)\n",
        ),
        Example(
            program(
                "\n\ndef split(line):\n    yield from line.split()\n\n\n"
                "lines = env.from_collection(['a b'])\n"
                "words = lines.flat_map(split).filter(lambda w: w != 'b').map(lambda w: (w, 1), output_type=None)\n"
            ),
            'from flink2spark.runtime import frame_process as f2s_process\n'
            'from pyspark.sql import SparkSession\n'
            '\n'
            'env = SparkSession.builder.getOrCreate()\n'
            '\n'
            '\n'
            'def split(line):\n'
            '    yield from line.split()\n'
            '\n'
            '\n'
            'lines = env.createDataFrame(["a b"], "string")\n'
            'words = f2s_process.pickled(\n'
            '    f2s_process.pickled(\n'
            '        f2s_process.pickled(lines, "flat_map", split, "value"),\n'
            '        "filter",\n'
            '        lambda w: w != "b",\n'
            '    ),\n'
            '    "map",\n'
            '    lambda w: (w, 1),\n'
            ')\n',
        ),
        Example(
            program(
                "\n\nclass Upper(MapFunction):\n"
                "    def open(self, runtime_context):\n"
                "        self.suffix = '!'\n\n"
                "    def map(self, value):\n"
                "        return value.upper() + self.suffix\n\n\n"
                "class Long(FilterFunction):\n"
                "    def filter(self, value):\n"
                "        return len(value) > 3\n\n\n"
                "words = env.from_collection(['a']).filter(Long()).map(Upper()).key_by(lambda w: w)\n",
                imports="from pyflink.datastream.functions import FilterFunction, MapFunction\n",
            ),
            'from flink2spark.runtime import datastream as f2s\n'
            'from pyspark.sql import SparkSession\n'
            '\n'
            '# NOTE(flink2spark): F2S205 PyFlink streams become RDDs: Python functions over records run on the RDD API (SparkContext), which Spark Connect does not offer; here because `.key_by()` at line 20 has no DataFrame form over the results of a function with no output_type (Flink pickles them; here only map, flat_map, filter and print take them, in one Python UDTF with the next function that has an output_type)\n'
            'env = SparkSession.builder.getOrCreate()\n'
            '\n'
            '\n'
            'class Upper:\n'
            '    def open(self, runtime_context):\n'
            '        self.suffix = "!"\n'
            '\n'
            '    def map(self, value):\n'
            '        return value.upper() + self.suffix\n'
            '\n'
            '\n'
            'class Long:\n'
            '    def filter(self, value):\n'
            '        return len(value) > 3\n'
            '\n'
            '\n'
            '# NOTE(flink2spark): F2S203 Upper.open()/close() run once per Spark partition (Flink: once per parallel instance); results are the same unless they have side effects\n'
            'words = (\n'
            '    env.sparkContext.parallelize(["a"])\n'
            '    .filter(Long().filter)\n'
            '    .mapPartitionsWithIndex(f2s.with_open_close(Upper(), "map"))\n'
            '    .keyBy(lambda w: w)\n'
            ')\n',
        ),
    ],
    noop=[
        "import pandas as pd\n\ns = pd.Series([1, 2])\nt = s.map(lambda x: x * 2)\nu = list(filter(None, [1]))\n",
        "from pyspark import SparkContext\n\nsc = SparkContext.getOrCreate()\nsc.parallelize([1]).map(lambda x: x).filter(bool).collect()\n",
        # flat_map of objects that are no Flink streams (a project's own class, a Spark RDD)
        "class Lines:\n    def flat_map(self, f, output_type=None):\n        return [y for x in ['a b'] for y in f(x)]\n\n\n"
        "Lines().flat_map(lambda s: s.split(), output_type=str)\n",
        "from pyspark.sql import SparkSession\n\nspark = SparkSession.builder.getOrCreate()\n"
        "spark.sparkContext.parallelize(['a b']).flatMap(lambda s: s.split()).collect()\n",
    ],
)


def open_close_class(ctx, seg):
    """(class info, converted instance) when the function argument is a function class
    with open()/close(), else None."""
    found = ctx.arg(seg, 0, "func")
    if found is None:
        return None
    known = ctx.conv.class_of(found[0])
    if known is None or not known[0].convertible:
        return None
    info = known[0]
    if F._method(info.node, "open") is None and F._method(info.node, "close") is None:
        return None
    return info, found[1]


def stateful_plan(ctx, seg) -> bool:
    """Whether the keyed ``map``/``flat_map`` is a function class with keyed state over a frame
    that the program model plans as a StatefulProcessor (``_stateful.plan``)."""
    from flink2spark.rules.pyflink._stateful import Plan, plan
    from flink2spark.rules.pyflink._streams import graph

    shape = facts(ctx.resolver, seg.original.func.value).frame  # type: ignore[attr-defined]
    return shape is not None and open_close_class(ctx, seg) is not None and isinstance(plan(graph(ctx.resolver), seg.original, shape), Plan)


def keyed_state_call(ctx, seg, info, instance):
    """``f2s.keyed_process(keyed, Cls(), method=...)`` for a class whose ``open()`` creates
    keyed state: the shim scopes the state to each element's key (rules/pyflink/process.py)."""
    from flink2spark.rules.pyflink._process import flag, shim_call, unbounded_todo

    name = info.node.name.value
    if ctx.site.receiver_type != P.KEYED:
        return ctx.todo(M.PF_STATE, f"{name} uses keyed state on a stream that is not keyed (Flink fails at run time); key it with key_by()")
    if unbounded_todo(ctx, seg.original.func.value, f"{name} with keyed state"):
        return ctx.todo_left()
    mode = runtime_mode(ctx)
    stamped = facts(ctx.resolver, seg.original.func.value).timestamped
    keywords = {"mode": "batch" if mode == "batch" and stamped else None, "timestamped": flag(stamped), "method": seg.method}
    return decoded_output(ctx, shim_call(ctx, "keyed_process", [ctx.site.receiver, instance], keywords))


def frame_operator(ctx, seg):
    """``select(...)``/``where(...)`` of the Columns the function translates to, on a frame;
    a flat_map: ``select(F.explode(items))``, then the Columns of each item's record."""
    from flink2spark.rules import _frame_ops
    from flink2spark.rules.pyflink import _frames
    from flink2spark.rules.pyflink._event_windows import TIMESTAMP_COLUMN, carries_stamp
    from flink2spark.rules.pyflink._streams import graph

    g = graph(ctx.resolver)
    shape = facts(ctx.resolver, seg.original.func.value).frame  # type: ignore[attr-defined]
    if seg.method == "filter":
        return _frame_ops.operator(ctx, _frames.translated(g, seg.original, shape))
    value = facts(ctx.resolver, seg.original).frame.kind == "value"
    if seg.method == "flat_map":
        _, found, columns = _frames.flat_map_columns(g, seg.original, shape)
        taken = {f.name for f in shape.fields} if found.single else None
    else:
        found = _frames.translated(g, seg.original, shape)
        _, columns = _frames.map_columns(g, seg.original, shape)
        taken = {f.name for f in shape.fields}
    if value:
        columns = [_frame_ops.Column(c.code, "value") for c in columns]
    # a map's record keeps its timestamp, for the event-time window after it
    stamp = [repr(TIMESTAMP_COLUMN)] if seg.method == "map" and carries_stamp(g, seg.original) else []
    return _frame_ops.operator(ctx, found, columns, taken=taken, extra=stamp)


def column_form(ctx, seg) -> bool:
    """Whether the function of the map/flat_map/filter over a frame has its Columns (else it is
    run as a Python UDTF: ``python_udtf``)."""
    from flink2spark.rules.pyflink import _frames
    from flink2spark.rules.pyflink._streams import graph

    g, call = graph(ctx.resolver), seg.original
    shape = facts(ctx.resolver, call.func.value).frame  # type: ignore[attr-defined]
    if shape.kind == "untyped":  # records of a function with no output_type: no Columns to read
        return False
    if seg.method == "filter":
        return _frames.filter_shape(g, call, shape) is not None
    return (_frames.flat_map_shape if seg.method == "flat_map" else _frames.map_shape)(g, call, shape) is not None


def python_udtf(ctx, seg):
    """``f2s_process.python_udtf(df, "map", fn, kind, "<schema>")``: the user's function as a
    Python UDTF over the frame (the program model's plan, ``_side_outputs.function_plan``)."""
    from flink2spark.transpiler import imports as I
    from flink2spark.rules.pyflink._side_outputs import UNTYPED, function_plan, schema
    from flink2spark.rules.pyflink._streams import graph

    shape = facts(ctx.resolver, seg.original.func.value).frame  # type: ignore[attr-defined]
    found = function_plan(graph(ctx.resolver), seg.original, shape)
    if found.cls is not None:
        fn = ctx.arg(seg, 0, "func")[1]
        ctx.note(
            M.PF_OPEN_CLOSE,
            f"{found.cls.name.value}.open()/close() run once per Spark task (the UDTF's instance; Flink: once per parallel"
            " instance); results are the same unless they have side effects",
        )
    else:
        fn = ctx.function(seg, seg.method)
        if fn is None:
            return ctx.todo_left()
    I.need(ctx.conv.codemod, "flink2spark.runtime", "frame_process", "f2s_process")
    df = ctx.expr("{df}.coalesce(1)", df=ctx.site.receiver) if found.one else ctx.site.receiver
    if found.output.kind == UNTYPED.kind:  # no output_type: run later, by the function that gives the results a type
        kind = "" if shape.kind == UNTYPED.kind else ', "%s"' % shape.kind
        return ctx.expr('f2s_process.pickled({df}, "%s", {fn}%s)' % (seg.method, kind), df=df, fn=fn)
    if shape.kind == UNTYPED.kind:
        kind, rows = "pickled", ", rows=True" if found.output.kind == "row" else ""
    else:
        kind, rows = shape.kind, ", rows=True" if found.output.kind == "row" or seg.method == "filter" else ""
    return ctx.expr('f2s_process.python_udtf({df}, "%s", {fn}, "%s", %r%s)' % (seg.method, kind, schema(found.output), rows), df=df, fn=fn)


@rule.converter
def convert(ctx):
    seg = ctx.site.head
    if seg.method != "filter" and ctx.site.receiver_type == P.KEYED and stateful_plan(ctx, seg):
        from flink2spark.rules.pyflink.process import stateful_processor

        return stateful_processor(ctx, seg, open_close_class(ctx, seg)[1])  # type: ignore[index]
    if facts(ctx.resolver, seg.original).frame is not None:
        return frame_operator(ctx, seg) if column_form(ctx, seg) else python_udtf(ctx, seg)
    stream = as_stream(ctx, ctx.site.receiver, ctx.site.receiver_type)
    lifecycle = open_close_class(ctx, seg)
    if lifecycle is not None and lifecycle[0].uses_state:
        return keyed_state_call(ctx, seg, *lifecycle)
    stamped = facts(ctx.resolver, seg.original.func.value).timestamped  # type: ignore[attr-defined]
    if lifecycle is not None and F._method(lifecycle[0].node, seg.method) is not None:
        info, instance = lifecycle
        ctx.note(
            M.PF_OPEN_CLOSE,
            f"{info.node.name.value}.open()/close() run once per Spark partition (Flink: once per parallel instance);"
            " results are the same unless they have side effects",
        )
        wrap = ctx.expr('{wrap}({fn}, "%s"%s)' % (seg.method, ", timestamped=True" if stamped else ""), wrap=ctx.shim("with_open_close"), fn=instance)
        return decoded_output(ctx, ctx.expr("{ds}.mapPartitionsWithIndex({wrap})", ds=stream, wrap=wrap))
    if stamped:
        fn = ctx.function(seg, seg.method)
        if fn is None:
            return ctx.todo_left()
        if seg.method == "filter":
            by_value = windows_shim(ctx, "by_value")
            return ctx.expr("{ds}.filter({by}({fn}))", ds=stream, by=by_value, fn=fn)
        return decoded_output(ctx, ctx.expr("{ds}.%s({fn})" % SPARK_TIMESTAMPED[seg.method], ds=stream, fn=fn))
    fn = ctx.function(seg, seg.method)
    if fn is None:
        return ctx.todo_left()
    return decoded_output(ctx, ctx.expr("{ds}.%s({fn})" % SPARK[seg.method], ds=stream, fn=fn))
