"""The PyFlink program model (rules/pyflink/_streams.py), table-driven: a program -> the facts
of one of its streams (the value of the variable ``probe``), and of the program.

Expected facts are what Flink does with the program: which streams read an unbounded source,
carry event timestamps, what their elements are. They are written from Flink's documented
behaviour, not read off the code under test.
"""

from __future__ import annotations

import textwrap

import libcst as cst
import libcst.matchers as m
import pytest

from flink2spark.rules.pyflink._streams import facts, graph
from flink2spark.transpiler.infer import Resolver
from flink2spark.transpiler.models import MODELS

HEAD = """\
import datetime
import decimal
from pyflink.common import Row, Types, WatermarkStrategy, SimpleStringSchema
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import StreamExecutionEnvironment, RuntimeExecutionMode
from pyflink.datastream.connectors.kafka import KafkaSource, KafkaOffsetsInitializer
from pyflink.datastream.connectors.file_system import FileSink, FileSource, StreamFormat, StreamingFileSink
from pyflink.datastream.connectors.number_seq import NumberSequenceSource
from pyflink.common.serialization import Encoder
from pyflink.datastream.window import TumblingEventTimeWindows, CountSlidingWindowAssigner
from pyflink.common.time import Time

class Stamp(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[1]

env = StreamExecutionEnvironment.get_execution_environment()
kafka = (
    KafkaSource.builder()
    .set_bootstrap_servers("localhost:9092")
    .set_topics("events")
    .set_value_only_deserializer(SimpleStringSchema())
    .build()
)
bounded_kafka = (
    KafkaSource.builder()
    .set_bootstrap_servers("localhost:9092")
    .set_topics("events")
    .set_value_only_deserializer(SimpleStringSchema())
    .set_bounded(KafkaOffsetsInitializer.latest())
    .build()
)
stamped = WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(Stamp())
"""


def _ask(body: str, ask):
    """What ``ask(resolver, probe)`` gives for the program ``HEAD + body``, ``probe`` the value
    assigned to the variable ``probe``."""
    module = cst.parse_module(HEAD + textwrap.dedent(body))
    resolver = Resolver(module, MODELS["pyflink"])
    found = [n for n in _assignments(module) if n.targets[0].target.value == "probe"]
    probe = found[-1].value if found else None
    return ask(resolver, probe)


def _assignments(module: cst.Module) -> list[cst.Assign]:
    return list(m.findall(module, m.Assign(targets=[m.AssignTarget(target=m.Name())])))


CASES = [
    # (id, program, facts of `probe` that Flink gives it)
    ("collection untyped", "probe = env.from_collection([1, 2, 3])",
     dict(api_type="DataStream", element_type="PICKLED", micro_batches=False, unbounded_source=False, timestamped=False)),
    ("collection typed", "probe = env.from_collection([('a', 1)], type_info=Types.ROW([Types.STRING(), Types.INT()]))",
     dict(element_type="Types.ROW([Types.STRING(), Types.INT()])")),
    ("map output type", "probe = env.from_collection([1]).map(str, output_type=Types.STRING())",
     dict(element_type="Types.STRING()")),
    ("map without output type is pickled", "probe = env.from_collection([1], type_info=Types.INT()).map(str)",
     dict(element_type="PICKLED")),
    ("key_by keeps the element type", "probe = env.from_collection([1], type_info=Types.INT()).key_by(lambda x: x % 2)",
     dict(api_type="KeyedStream", element_type="Types.INT()")),
    ("text file lines", "probe = env.read_text_file('in.txt')",
     dict(element_type="STRING", micro_batches=False)),
    ("unbounded kafka", "probe = env.from_source(kafka, WatermarkStrategy.no_watermarks(), 'k')",
     dict(micro_batches=True, unbounded_source=True, kafka_timestamps=True, timestamped=False, element_type="STRING")),
    ("bounded kafka is read in batch", "probe = env.from_source(bounded_kafka, WatermarkStrategy.no_watermarks(), 'k')",
     dict(micro_batches=False, unbounded_source=False, kafka_timestamps=True)),
    ("kafka reassigned through map and filter", """
        ds = env.from_source(kafka, WatermarkStrategy.no_watermarks(), 'k')
        ds = ds.map(lambda s: s.strip())
        ds = ds.filter(lambda s: s != '')
        probe = ds
     """, dict(micro_batches=True, unbounded_source=True)),
    ("kafka handed to a helper", """
        def show(stream):
            global probe
            probe = stream
        show(env.from_source(kafka, WatermarkStrategy.no_watermarks(), 'k').map(str))
     """, dict(micro_batches=True, unbounded_source=True, kafka_timestamps=True)),
    ("helper called with a keyed and a plain stream has no API type", """
        def show(stream):
            global probe
            probe = stream
        nums = env.from_collection([1, 2])
        show(nums)
        show(nums.key_by(lambda x: x))
     """, dict(api_type=None)),
    ("monitored folder", """
        files = FileSource.for_record_stream_format(StreamFormat.text_line_format(), 'in').monitor_continuously(Time.seconds(5)).build()
        probe = env.from_source(files, WatermarkStrategy.no_watermarks(), 'files')
     """, dict(micro_batches=True, unbounded_source=True, element_type="STRING", kafka_timestamps=False)),
    ("java source function", "probe = env.add_source(MySourceFunction())",
     dict(unbounded_source=True, micro_batches=False)),
    ("timestamps assigned", "probe = env.from_collection([('a', 1)]).assign_timestamps_and_watermarks(stamped)",
     dict(timestamped=True)),
    ("a strategy without an assigner gives no timestamps",
     "probe = env.from_collection([('a', 1)]).assign_timestamps_and_watermarks(WatermarkStrategy.for_monotonous_timestamps())",
     dict(timestamped=False)),
    ("map keeps timestamps", "probe = env.from_collection([('a', 1)]).assign_timestamps_and_watermarks(stamped).map(lambda e: e[0])",
     dict(timestamped=True)),
    ("event-time window", """
        windowed = env.from_collection([('a', 1)]).assign_timestamps_and_watermarks(stamped).key_by(lambda e: e[0]).window(TumblingEventTimeWindows.of(Time.seconds(5)))
        probe = windowed
     """, dict(windowed_by="TumblingEventTimeWindows", timestamped=True)),
    ("time window results carry the window's timestamp",
     "probe = env.from_collection([('a', 1)]).key_by(lambda e: e[0]).window(TumblingEventTimeWindows.of(Time.seconds(5))).reduce(lambda a, b: a)",
     dict(timestamped=True, element_type="PICKLED")),
    ("count window", "probe = env.from_collection([1]).key_by(lambda x: x).count_window(3)",
     dict(windowed_by="count", timestamped=False)),
    ("union", "a = env.from_collection([1])\nb = env.from_collection([2])\nprobe = a.union(b).map(str)",
     dict(from_union=True)),
    ("a process function ends 'from a union'", "a = env.from_collection([1])\nprobe = a.union(a).process(P())",
     dict(from_union=False)),
    ("union with an unbounded input is unbounded", """
        a = env.from_collection([1])
        b = env.from_source(kafka, WatermarkStrategy.no_watermarks(), 'k')
        probe = a.union(b)
     """, dict(micro_batches=True, unbounded_source=True)),
    ("rolling aggregation keeps state", "probe = env.from_source(kafka, WatermarkStrategy.no_watermarks(), 'k').map(lambda s: (s, 1)).key_by(lambda p: p[0]).sum(1)",
     dict(after_state=True, micro_batches=True)),
    ("map after a source keeps no state", "probe = env.from_source(kafka, WatermarkStrategy.no_watermarks(), 'k').map(str)",
     dict(after_state=False, unstreamable=None)),
    ("async I/O is not run per micro-batch", """
        from pyflink.datastream import AsyncDataStream
        source = env.from_source(kafka, WatermarkStrategy.no_watermarks(), 'k')
        probe = AsyncDataStream.unordered_wait(source, Lookup(), Time.seconds(1))
     """, dict(unstreamable="unordered_wait", micro_batches=True)),
    ("a Python operator read twice", """
        probe = env.from_collection([1], type_info=Types.INT()).map(lambda x: [x], output_type=Types.LIST(Types.INT()))
        probe.print()
        probe.filter(bool).print()
     """, dict(readers=2, undecoded=True)),
    ("a source's elements come from Flink's serializers", "probe = env.from_collection([1], type_info=Types.INT())",
     dict(readers=0, undecoded=False)),  # the variable is read by no operator
    ("key_by decodes", "probe = env.from_collection([1]).map(lambda x: [x]).key_by(len)",
     dict(undecoded=False)),
    ("from a source", "probe = env.from_collection([1])", dict(origin="source")),
    ("from an operator", "probe = env.from_collection([1]).map(str)", dict(origin="operator")),
    ("from a reassigned name", "ds = env.from_collection([1])\nds = ds.map(str)\nprobe = ds", dict(origin="reassigned")),
    ("from a helper", "def make():\n    return env.from_collection([1])\nprobe = make()", dict(origin="helper", element_type="PICKLED")),
    ("a helper's parameter", """
        def show(stream):
            global probe
            probe = stream
        show(env.from_collection([1]))
     """, dict(origin="parameter")),
    ("from the Table API", """
        from pyflink.table import StreamTableEnvironment
        t_env = StreamTableEnvironment.create(env)
        rows = t_env.to_data_stream(t_env.from_elements([(1, 'a')]))
        probe = rows.map(str)
     """, dict(origin="table")),
    ("through a helper from the Table API", """
        from pyflink.table import StreamTableEnvironment
        t_env = StreamTableEnvironment.create(env)
        def show(stream):
            global probe
            probe = stream.filter(bool)
        show(t_env.to_append_stream(t_env.from_elements([1]), Types.INT()))
     """, dict(origin="table")),
    # a Table's rows: Row with the table's column names, Flink's types for the columns (BIGINT
    # -> LONG); decoded from the table's serializers (PyFlink's to_data_stream)
    ("rows of an insert-only table", """
        from pyflink.table import StreamTableEnvironment
        t_env = StreamTableEnvironment.create(env)
        probe = t_env.to_data_stream(t_env.from_elements([(1, 'a')], ['id', 'name']))
     """, dict(origin="table", element_type='Types.ROW_NAMED(["id", "name"], [Types.LONG(), Types.STRING()])',
               undecoded=False, micro_batches=False, timestamped=False)),
    ("to_append_stream: the given type", """
        from pyflink.table import StreamTableEnvironment
        t_env = StreamTableEnvironment.create(env)
        probe = t_env.to_append_stream(t_env.from_elements([(1, 'a')], ['id', 'name']), Types.ROW([Types.LONG(), Types.STRING()]))
     """, dict(origin="table", element_type="Types.ROW([Types.LONG(), Types.STRING()])")),
    ("to_retract_stream: (flag, record) pairs of the given type", """
        from pyflink.table import StreamTableEnvironment
        t_env = StreamTableEnvironment.create(env)
        probe = t_env.to_retract_stream(t_env.from_elements([(1, 'a')], ['id', 'name']), Types.ROW([Types.LONG(), Types.STRING()]))
     """, dict(origin="table", element_type="Types.TUPLE([Types.BOOLEAN(), Types.ROW([Types.LONG(), Types.STRING()])])")),
    # issue 15: a bounded insert-only table's stream is a frame source of the table's columns
    # (nullable: no NOT NULL is followed); pairs, and rolling sums over the table's row order, are not
    ("a table's rows as a DataFrame", """
        from pyflink.table import StreamTableEnvironment
        t_env = StreamTableEnvironment.create(env)
        probe = t_env.to_data_stream(t_env.from_elements([(1, 'a')], ['id', 'name']))
        probe.filter(lambda row: row.id > 0).print()
     """, dict(origin="table", frame="id BIGINT, name STRING")),
    ("to_append_stream as a DataFrame: the type's field names", """
        from pyflink.table import StreamTableEnvironment
        t_env = StreamTableEnvironment.create(env)
        probe = t_env.to_append_stream(t_env.from_elements([(1, 'a')], ['id', 'name']), Types.ROW([Types.LONG(), Types.STRING()]))
        probe.print()
     """, dict(frame="f0 BIGINT, f1 STRING")),
    ("a table column whose name is no identifier keeps the stream an RDD", """
        from pyflink.table import StreamTableEnvironment
        t_env = StreamTableEnvironment.create(env)
        probe = t_env.to_data_stream(t_env.from_elements([(1, 'a')], ['id', 'full name']))
        probe.print()
     """, dict(frame=None)),
    ("to_retract_stream's pairs are no DataFrame", """
        from pyflink.table import StreamTableEnvironment
        t_env = StreamTableEnvironment.create(env)
        probe = t_env.to_retract_stream(t_env.from_elements([(1, 'a')], ['id', 'name']), Types.ROW([Types.LONG(), Types.STRING()]))
        probe.print()
     """, dict(frame=None)),
    ("a rolling sum over a table's rows is no DataFrame (the table's row order is not a source's)", """
        from pyflink.table import StreamTableEnvironment
        t_env = StreamTableEnvironment.create(env)
        probe = t_env.to_data_stream(t_env.from_elements([(1, 'a')], ['id', 'name']))
        probe.map(lambda row: Row(name=row.name, n=1), output_type=Types.ROW_NAMED(['name', 'n'], [Types.STRING(), Types.INT()])).key_by(lambda r: r.name).sum(1).print()
     """, dict(frame=None)),
    ("an updating table's changelog is left to the Table API part (no element type)", """
        from pyflink.table import StreamTableEnvironment
        from pyflink.table.expressions import col
        t_env = StreamTableEnvironment.create(env)
        words = t_env.from_elements([('a', 1)], ['w', 'n'])
        probe = t_env.to_changelog_stream(words.group_by(col('w')).select(col('w'), col('n').sum))
     """, dict(origin="table", element_type=None)),
    ("the function classes an operator runs", """
        from pyflink.datastream.functions import ProcessFunction, AggregateFunction
        class Enrich(ProcessFunction):
            def process_element(self, value, ctx):
                yield value
        class Avg(AggregateFunction):
            pass
        avg = Avg()
        windowed = env.from_collection([1]).process(Enrich()).key_by(lambda x: x).count_window(2)
        probe = windowed.aggregate(avg, lambda k, w, xs: xs)
     """, dict(functions=["Avg"])),
    ("lambdas are no function classes", "probe = env.from_collection([1]).map(lambda x: x)", dict(functions=[])),
    ("a stream reassigned in a loop does not loop the model", """
        ds = env.from_collection([1])
        for i in range(3):
            ds = ds.union(ds.map(lambda x: x + i))
            probe = ds
     """, dict(micro_batches=False, from_union=True, timestamped=False)),
]


@pytest.mark.parametrize("body, expected", [pytest.param(body, expected, id=name) for name, body, expected in CASES])
def test_stream_facts(body, expected):
    found = _ask(body, lambda resolver, probe: facts(resolver, probe).as_dict())
    assert {k: found[k] for k in expected} == expected


def test_facts_are_computed_once_per_node():
    _ask("""
        ds = env.from_source(kafka, WatermarkStrategy.no_watermarks(), 'k')
        probe = ds.map(str).filter(bool)
    """, _computed_once)


def _computed_once(resolver, probe):
    first = facts(resolver, probe)
    assert first.micro_batches
    program = graph(resolver)
    kept = dict(program._facts)
    assert facts(resolver, probe) is first
    assert facts(resolver, probe).micro_batches
    assert program._facts == kept  # asked again: nothing recomputed
    # the inputs' facts were computed on the way, once each: the map, the name, the source
    assert sum(1 for (name, _) in kept if name == "micro_batches") >= 3


@pytest.mark.parametrize("body, mode", [
    ("", "streaming"),  # Flink's default
    ("env.set_runtime_mode(RuntimeExecutionMode.BATCH)", "batch"),
    ("env.set_runtime_mode(RuntimeExecutionMode.AUTOMATIC)", "batch"),  # AUTOMATIC on bounded sources
    ("env.set_runtime_mode(RuntimeExecutionMode.BATCH)\nenv.set_runtime_mode(RuntimeExecutionMode.STREAMING)", None),
    ("env.set_runtime_mode(mode_from_args())", None),
])
def test_runtime_mode(body, mode):
    assert _ask(body + "\nprobe = env.from_collection([1])", lambda resolver, _: graph(resolver).runtime_mode) == mode


@pytest.mark.parametrize("body, parallelism", [
    ("", (True, None)),
    ("env.set_parallelism(1)", (True, 1)),
    ("env.set_parallelism(4)\nenv.set_parallelism(2)", (False, None)),
    ("env.set_parallelism(n)", (False, None)),
    ("env.from_collection([1]).map(str).set_parallelism(3)", (True, None)),  # an operator's, not the environment's
])
def test_parallelism(body, parallelism):
    assert _ask(body + "\nprobe = env.from_collection([1])", lambda resolver, _: graph(resolver).parallelism) == parallelism


@pytest.mark.parametrize("body, reads", [
    ("probe = env.from_collection([1])", False),
    ("probe = env.from_source(bounded_kafka, WatermarkStrategy.no_watermarks(), 'k')", False),
    ("def job():\n    return env.from_source(kafka, WatermarkStrategy.no_watermarks(), 'k')\nprobe = 1", True),
])
def test_reads_unbounded(body, reads):
    assert _ask(body, lambda resolver, _: graph(resolver).reads_unbounded) is reads


# -- the frame plan (issue 14): a stream is a DataFrame only when every consumer of it, and of
# the streams it makes, has a native form; Flink's records decide what "native" may be.
TEXT = "env.from_source(FileSource.for_record_stream_format(StreamFormat.text_line_format(), '/in').build(), WatermarkStrategy.no_watermarks(), 'in')"
ROWS = "env.from_collection([(1, 'a'), (2, 'b')], type_info=Types.ROW([Types.INT(), Types.STRING()]))"
_T_ENV = "from pyflink.table import StreamTableEnvironment\nt_env = StreamTableEnvironment.create(env)\n"
INSTANTS = ("probe = env.from_collection([(Instant.of_epoch_milli(1000), 'a'), (Instant.of_epoch_milli(2000), 'b')],"
            " type_info=Types.ROW([Types.INSTANT(), Types.STRING()]))")
FRAME_CASES = [
    # a Table of a stream (from_data_stream, create_temporary_view) is the stream's frame itself
    ("a stream a table is made of", f"{_T_ENV}probe = {ROWS}\nt_env.from_data_stream(probe).execute().print()", "f0 INT, f1 STRING"),
    ("... or a view", f"{_T_ENV}probe = {ROWS}\nt_env.create_temporary_view('v', probe)", "f0 INT, f1 STRING"),
    ("... not a stream of Instants (Flink's TIMESTAMP_LTZ)",
     f"{_T_ENV}probe = env.from_collection([1], type_info=Types.INSTANT())\nt_env.from_data_stream(probe)", None),
    ("... a stream of literal Instant.of_epoch_milli(n) values only made a table: TIMESTAMP columns",
     f"{_T_ENV}from pyflink.common.time import Instant\n{INSTANTS}\nt_env.from_data_stream(probe)", "f0 TIMESTAMP, f1 STRING"),
    ("... not when a map reads the Instants first (Flink hands it Instant objects)",
     f"{_T_ENV}from pyflink.common.time import Instant\n{INSTANTS}\n"
     "t_env.from_data_stream(probe.map(lambda r: r, output_type=Types.ROW([Types.INSTANT(), Types.STRING()])))", None),
    ("... nor when it is printed too",
     f"{_T_ENV}from pyflink.common.time import Instant\n{INSTANTS}\nt_env.from_data_stream(probe)\nprobe.print()", None),
    ("... nor of Instants other than literal Instant.of_epoch_milli(n)",
     f"{_T_ENV}from pyflink.common.time import Instant\n{INSTANTS.replace('(2000)', '(now())')}\nt_env.from_data_stream(probe)",
     None),
    ("... nor a stream read elsewhere where its uses cannot be followed",
     f"{_T_ENV}probe = {ROWS}\nt_env.from_data_stream(probe)\nkeep(probe)", None),
    # streams through the module's defs: a parameter's reads are the stream's, a return's are the call's
    ("a stream passed to a helper that prints it", f"def show(s):\n    s.print()\n\n\nprobe = {ROWS}\nshow(probe)",
     "f0 INT, f1 STRING"),
    ("... whose helper maps it with no native form is no frame",
     f"def show(s):\n    s.map(lambda r: [r[0]]).key_by(lambda x: x[0]).print()\n\n\nprobe = {ROWS}\nshow(probe)", None),
    ("... nor when another call passes it an RDD",
     f"def show(s):\n    s.print()\n\n\nprobe = {ROWS}\nshow(probe)\nshow(env.from_collection([(1, 'a')]))", None),
    ("a stream a helper returns, printed by the caller",
     f"def typed():\n    return {ROWS}\n\n\nprobe = typed()\nprobe.print()", "f0 INT, f1 STRING"),
    ("... or mapped by the caller with no native form: no frame",
     f"def typed():\n    return {ROWS}\n\n\nprobe = typed()\nprobe.map(lambda r: [r[0]]).key_by(lambda x: x[0]).print()", None),
    ("a typed collection printed is a DataFrame", f"probe = {ROWS}\nprobe.print()", "f0 INT, f1 STRING"),
    ("named fields keep their names",
     "probe = env.from_collection([(1, 'a')], Types.ROW_NAMED(['id', 'tag'], [Types.LONG(), Types.STRING()]))\nprobe.print()",
     "id BIGINT, tag STRING"),
    ("a basic type is a one-column frame", "probe = env.from_collection(['a'], type_info=Types.STRING())\nprobe.print()", "string"),
    ("an untyped (pickled) collection of literal tuples is a frame of their types",
     "probe = env.from_collection([(1, 'a'), (-2, 'b')])\nprobe.print()", "f0 BIGINT, f1 STRING"),
    ("... of literal values, a one-column frame", "probe = env.from_collection([1.5, 2.0])\nprobe.print()", "double"),
    ("... not of lists (Python sees lists)", "probe = env.from_collection([[1, 'a']])\nprobe.print()", None),
    ("... nor of mixed types in a field", "probe = env.from_collection([(1, 'a'), (2.5, 'b')])\nprobe.print()", None),
    ("... nor of ints beyond 64 bits", "probe = env.from_collection([9223372036854775808])\nprobe.print()", None),
    ("... nor keyed (Python's ints have no bound: no aggregation reads them)",
     "probe = env.from_collection([('a', 1)])\nprobe.key_by(lambda p: p[0]).print()", None),
    ("literal dates from 1582-10-15 on are a DATE column",
     "probe = env.from_collection([(1, datetime.date(1582, 10, 15))], Types.TUPLE([Types.INT(), Types.SQL_DATE()]))\nprobe.print()",
     "f0 INT, f1 DATE"),
    ("... not an earlier one (Flink hands Python the Julian date)",
     "probe = env.from_collection([datetime.date(1582, 10, 14)], Types.SQL_DATE())\nprobe.print()", None),
    ("... nor dates not written as literals",
     "probe = env.from_collection([datetime.date.today()], Types.SQL_DATE())\nprobe.print()", None),
    ("literal decimals of one scale are a DECIMAL(38, scale) column",
     "probe = env.from_collection([decimal.Decimal('1.50'), decimal.Decimal('-0.25')], Types.BIG_DEC())\nprobe.print()",
     "decimal(38,2)"),
    ("... not of several scales (Flink keeps each one's)",
     "probe = env.from_collection([decimal.Decimal('1.5'), decimal.Decimal('0.25')], Types.BIG_DEC())\nprobe.print()", None),
    ("... nor -0 (Flink makes it 0) nor a positive exponent",
     "probe = env.from_collection([decimal.Decimal('-0'), decimal.Decimal('1E+2')], Types.BIG_DEC())\nprobe.print()", None),
    ("arrays of basic types are ARRAY columns",
     "probe = env.from_collection([([1, 2], ['a'])], Types.TUPLE([Types.PRIMITIVE_ARRAY(Types.INT()), Types.BASIC_ARRAY(Types.STRING())]))\n"
     "probe.print()", "f0 ARRAY<INT>, f1 ARRAY<STRING>"),
    ("... not of bytes (Python sees bytes)",
     "probe = env.from_collection([(b'x', 1)], Types.TUPLE([Types.PRIMITIVE_ARRAY(Types.BYTE()), Types.INT()]))\nprobe.print()", None),
    ("a frame with a DATE column goes to no key_by",
     "probe = env.from_collection([(1, datetime.date(2024, 1, 31))], Types.TUPLE([Types.INT(), Types.SQL_DATE()]))\n"
     "probe.key_by(lambda r: r[0]).print()", None),
    ("FLOAT is a FLOAT column (Python reads the 32-bit value widened, as from Flink; prints are compared as values)",
     "probe = env.from_collection([1.5], type_info=Types.FLOAT())\nprobe.print()", "float"),
    ("... not a literal past the 32-bit range (Flink makes it infinite)",
     "probe = env.from_collection([1e39], type_info=Types.FLOAT())\nprobe.print()", None),
    ("a FLOAT output read through key_by/union/print is a frame (Flink's serializer gives the 32-bit value)",
     "probe = env.from_collection([1, 2]).map(lambda n: n / 10, output_type=Types.FLOAT())\nprobe.union(probe).print()",
     "float"),
    ("... not when one chained Python function reads it (Flink hands it the object as it is)",
     "probe = env.from_collection([1, 2]).map(lambda n: n / 10, output_type=Types.FLOAT())\nprobe.map(lambda x: repr(x)).print()",
     None),
    ("SQL_TIME of literal naive times of whole milliseconds is a TIME(6) column (Flink cuts to milliseconds)",
     "probe = env.from_collection([datetime.time(8, 0), datetime.time(20, 30, 15, 250000)], type_info=Types.SQL_TIME())\nprobe.print()",
     "time(6)"),
    ("... not a time with microseconds (Flink cuts them)",
     "probe = env.from_collection([datetime.time(9, 30, 0, 1500)], type_info=Types.SQL_TIME())\nprobe.print()", None),
    ("... nor a time with a tzinfo (Flink shifts it to the JVM's zone)",
     "probe = env.from_collection([datetime.time(9, 30, tzinfo=datetime.timezone.utc)], type_info=Types.SQL_TIME())\nprobe.print()",
     None),
    ("a nested ROW_NAMED of Row literals is a STRUCT column",
     "probe = env.from_collection([('k', Row(a=1, b='x'))], Types.TUPLE([Types.STRING(), Types.ROW_NAMED(['a', 'b'], [Types.INT(), Types.STRING()])]))\nprobe.print()",
     "f0 STRING, f1 STRUCT<a: INT, b: STRING>"),
    ("... not with its fields named out of order",
     "probe = env.from_collection([('k', Row(b='x', a=1))], Types.TUPLE([Types.STRING(), Types.ROW_NAMED(['a', 'b'], [Types.INT(), Types.STRING()])]))\nprobe.print()",
     None),
    ("a map with an output type makes a frame of that type",
     f"probe = {ROWS}.map(lambda r: (r[1], r[0] * 2), output_type=Types.TUPLE([Types.STRING(), Types.LONG()]))\nprobe.print()",
     "f0 STRING, f1 BIGINT"),
    ("a map without an output type whose result the translator types exactly is a frame of that type",
     f"src = {ROWS}\nprobe = src.map(lambda r: (r[1], r[0] + 1))\nprobe.print()", "f0 STRING, f1 BIGINT"),
    ("... not a Row it makes (Flink pickles the Row)",
     f"src = {ROWS}\nprobe = src.map(lambda r: Row(r[1], r[0] + 1))\nprobe.print()", "untyped"),
    ("... otherwise its results are pickled: no DataFrame (the functions run in the next typed one's UDTF)",
     f"src = {ROWS}\nprobe = src.map(lambda r: [r[0]])\nprobe.print()", "untyped"),
    ("... its input is a frame", f"probe = {ROWS}\nprobe.map(lambda r: [r[0]]).print()", "f0 INT, f1 STRING"),
    ("... a filter of pickled records too",
     f"src = {ROWS}\nprobe = src.map(lambda r: [r[0]]).filter(lambda x: x[0] > 1)\nprobe.print()", "untyped"),
    ("... and a typed map of them is a frame of its type (one UDTF)",
     f"src = {ROWS}\nprobe = src.map(lambda r: [r[0]]).map(lambda x: x[0], output_type=Types.INT())\nprobe.print()", "int"),
    ("... read by anything else (key_by) they keep the stream an RDD",
     f"probe = {ROWS}\nprobe.map(lambda r: [r[0]]).key_by(lambda x: x[0]).print()", None),
    ("a flat_map of split items with an output type makes a frame of that type",
     f"probe = {ROWS}.flat_map(lambda r: [(w, 1) for w in r[1].split(',')], output_type=Types.TUPLE([Types.STRING(), Types.INT()]))\n"
     "probe.print()", "f0 STRING, f1 INT"),
    ("a flat_map without an output type is pickled: its input is a frame",
     f"probe = {ROWS}\nprobe.flat_map(lambda r: r[1].split()).print()", "f0 INT, f1 STRING"),
    ("a flat_map whose items read the record is a frame (the items exploded next to its columns)",
     f"probe = {ROWS}.flat_map(lambda r: [(w, r[0]) for w in r[1].split()], output_type=Types.TUPLE([Types.STRING(), Types.INT()]))\n"
     "probe.print()", "f0 STRING, f1 INT"),
    ("a flat_map of a comprehension with `if` is a frame (F.filter of the items)",
     f"probe = {ROWS}\nprobe.flat_map(lambda r: [w for w in r[1].split() if w], output_type=Types.STRING()).print()", "f0 INT, f1 STRING"),
    ("a flat_map of a comprehension with two `if`s has no Columns: a Python UDTF over the frame",
     f"probe = {ROWS}\nprobe.flat_map(lambda r: [w for w in r[1].split() if w if w != 'x'], output_type=Types.STRING()).print()",
     "f0 INT, f1 STRING"),
    ("... with no output_type its results are pickled (its input is a frame)",
     f"probe = {ROWS}\nprobe.flat_map(lambda r: [w for w in r[1].split() if w if w != 'x']).print()", "f0 INT, f1 STRING"),
    ("STREAMING: a rolling sum after a flat_map is a frame (explode keeps the source order)",
     f"probe = {ROWS}.flat_map(lambda r: [(w, 1) for w in r[1].split()], output_type=Types.TUPLE([Types.STRING(), Types.INT()]))\n"
     "probe.key_by(lambda r: r[0]).sum(1).print()", "f0 STRING, f1 INT"),
    ("a refused map read by key_by keeps its input an RDD",
     f"probe = {ROWS}\nprobe.map(lambda r: r[1].encode()).key_by(lambda b: b).print()", None),
    ("... with an output_type it is a Python UDTF over the frame (bytes for a STRING fail its job, as Flink's)",
     f"probe = {ROWS}\nprobe.map(lambda r: r[1].encode(), output_type=Types.STRING()).print()", "f0 INT, f1 STRING"),
    ("... not when it keeps data between calls",
     f"SEEN = []\nprobe = {ROWS}\nprobe.map(lambda r: SEEN.append(r) or str(len(SEEN)), output_type=Types.STRING()).print()", None),
    ("one consumer with no native form keeps the stream an RDD",
     f"probe = {ROWS}\nprobe.print()\nprobe.key_by(lambda r: r[1]).process(P()).print()", None),
    ("... and its sibling consumers too", f"""
        src = {ROWS}
        probe = src.filter(lambda r: r[0] > 1)
        probe.print()
        src.key_by(lambda r: r[1]).process(P()).print()
     """, None),
    ("a union of frames of one schema is a frame", f"probe = {ROWS}\nprobe.union(probe).print()", "f0 INT, f1 STRING"),
    ("a union with a stream of other columns keeps both RDDs",
     f"probe = {ROWS}\nother = env.from_collection([('a', 1)], type_info=Types.TUPLE([Types.STRING(), Types.INT()]))\n"
     "probe.union(other).print()", None),
    ("a stream a helper reads stays an RDD", f"probe = {ROWS}\nshow(probe)", None),
    ("an unbounded source of strings read by operators Structured Streaming runs is a (streaming) frame",
     "probe = env.from_source(kafka, WatermarkStrategy.no_watermarks(), 'k')\nprobe.print()", "string"),
    ("an unbounded source read by a rolling aggregation of a field keyed by a field is a streaming frame (transformWithState)",
     "probe = env.from_source(kafka, WatermarkStrategy.no_watermarks(), 'k')\n"
     "probe.map(lambda w: (w, 1), output_type=Types.TUPLE([Types.STRING(), Types.INT()])).key_by(lambda p: p[0]).sum(1).print()", "string"),
    ("... but not by a rolling min_by (no processor for it: micro-batches)",
     "probe = env.from_source(kafka, WatermarkStrategy.no_watermarks(), 'k')\n"
     "probe.map(lambda w: (w, 1), output_type=Types.TUPLE([Types.STRING(), Types.INT()])).key_by(lambda p: p[0]).min_by(1).print()", None),
    ("BATCH: a keyed sum whose other fields are the keys is a frame",
     f"env.set_runtime_mode(RuntimeExecutionMode.BATCH)\nprobe = {ROWS}.key_by(lambda r: r[1]).sum(0)\nprobe.print()",
     "f0 INT, f1 STRING"),
    ("STREAMING: a rolling sum (one record per element) is a window function over the source order",
     f"probe = {ROWS}\nprobe.key_by(lambda r: r[1]).sum(0).print()", "f0 INT, f1 STRING"),
    ("STREAMING: a field neither key nor summed is the key's first element's (F.first over the window)",
     "probe = env.from_collection([(1, 'a', 'x')], Types.TUPLE([Types.INT(), Types.STRING(), Types.STRING()]))\n"
     "probe.key_by(lambda r: r[1]).sum(0).print()", "f0 INT, f1 STRING, f2 STRING"),
    ("STREAMING: a rolling reduce of per-field sums/max after a filter and a map is a frame",
     f"probe = {ROWS}.filter(lambda r: r[0] > 0).map(lambda r: (r[1], r[0]), output_type=Types.TUPLE([Types.STRING(), Types.INT()]))\n"
     "probe.key_by(lambda r: r[0]).reduce(lambda a, b: (a[0], max(a[1], b[1]))).print()", "f0 STRING, f1 INT"),
    ("STREAMING: a rolling reduce of products is not", f"probe = {ROWS}\n"
     "probe.key_by(lambda r: r[1]).reduce(lambda a, b: Row(a[0] * b[0], b[1])).print()", None),
    ("STREAMING: a rolling reduce keeping a non-key field of b (the element's) or a (the key's first) is a frame",
     "probe = env.from_collection([(1, 'a', 'x')], Types.TUPLE([Types.INT(), Types.STRING(), Types.STRING()]))\n"
     "probe.key_by(lambda r: r[0]).reduce(lambda a, b: (a[0], b[1], a[2])).print()", "f0 INT, f1 STRING, f2 STRING"),
    ("STREAMING: a rolling min_by of an integer field is a frame (the whole element, the earlier on ties)",
     f"probe = {ROWS}\nprobe.key_by(lambda r: r[1]).min_by(0).print()", "f0 INT, f1 STRING"),
    ("STREAMING: ... not of a field that may hold None",
     "probe = env.from_collection(rows_from_a_file(), Types.ROW([Types.INT(), Types.STRING()]))\n"
     "probe.key_by(lambda r: r[1]).max_by(0).print()", None),
    ("BATCH: ... and in BATCH (the key's last element in the source order: F.max_by(x, seq))",
     "env.set_runtime_mode(RuntimeExecutionMode.BATCH)\n"
     "probe = env.from_collection([(1, 'a')], Types.TUPLE([Types.INT(), Types.STRING()]))\n"
     "probe.key_by(lambda r: r[0]).reduce(lambda a, b: (a[0], b[1])).print()", "f0 INT, f1 STRING"),
    ("BATCH: ... not after a union (the source order is not a key's order)",
     "env.set_runtime_mode(RuntimeExecutionMode.BATCH)\n"
     "probe = env.from_collection([(1, 'a')], Types.TUPLE([Types.INT(), Types.STRING()]))\n"
     "probe.union(probe).key_by(lambda r: r[0]).reduce(lambda a, b: (a[0], b[1])).print()", None),
    ("BATCH: ... but a union under per-field sums is (no order needed)",
     "env.set_runtime_mode(RuntimeExecutionMode.BATCH)\n"
     "probe = env.from_collection([(1, 'a')], Types.TUPLE([Types.INT(), Types.STRING()]))\n"
     "probe.union(probe).key_by(lambda r: r[1]).sum(0).print()", "f0 INT, f1 STRING"),
    ("STREAMING: after a union the rows are not in Flink's arrival order: no frame",
     f"probe = {ROWS}\nprobe.union(probe).key_by(lambda r: r[1]).sum(0).print()", None),
    ("STREAMING: a rolling sum of a rolling sum (its rows are in key order, not the source's): no frame",
     f"probe = {ROWS}\nprobe.key_by(lambda r: r[1]).sum(0).key_by(lambda r: r[1]).max(0).print()", None),
    ("STREAMING: the rolling sum of a field that may hold None is not (Python fails, Spark skips NULL)",
     "probe = env.from_collection(rows_from_a_file(), Types.ROW([Types.INT(), Types.STRING()]))\n"
     "probe.key_by(lambda r: r[1]).sum(0).print()", None),
    ("STREAMING: a rolling reduce of per-field sums of an unbounded stream is a streaming frame (transformWithState)",
     "probe = env.from_source(kafka, WatermarkStrategy.no_watermarks(), 'k')\n"
     "probe.map(lambda w: (w, 1)).key_by(lambda p: p[0]).reduce(lambda a, b: (a[0], a[1] + b[1])).print()", "string"),
    ("... not one whose function is no per-field form (micro-batches: f2s_stream.rolling_reduce)",
     "probe = env.from_source(kafka, WatermarkStrategy.no_watermarks(), 'k')\n"
     "probe.map(lambda w: (w, 1)).key_by(lambda p: p[0]).reduce(lambda a, b: (a[0] + b[0], a[1])).print()", None),
    ("BATCH: a field neither key nor summed comes from the key's first element: a frame over the source order",
     "env.set_runtime_mode(RuntimeExecutionMode.BATCH)\n"
     "probe = env.from_collection([(1, 'a', 'x')], Types.TUPLE([Types.INT(), Types.STRING(), Types.STRING()]))\n"
     "probe.key_by(lambda r: r[1]).sum(0).print()", "f0 INT, f1 STRING, f2 STRING"),
    ("BATCH: a reduce keeping the element of the larger field, the earlier on ties, is max_by (a frame)",
     "env.set_runtime_mode(RuntimeExecutionMode.BATCH)\n"
     "probe = env.from_collection([(1, 'a', 'x')], Types.TUPLE([Types.INT(), Types.STRING(), Types.STRING()]))\n"
     "probe.key_by(lambda r: r[1]).reduce(lambda a, b: b if a[0] < b[0] else a).print()", "f0 INT, f1 STRING, f2 STRING"),
    ("BATCH: ... not with a strict comparison (the later element on ties)",
     "env.set_runtime_mode(RuntimeExecutionMode.BATCH)\n"
     "probe = env.from_collection([(1, 'a', 'x')], Types.TUPLE([Types.INT(), Types.STRING(), Types.STRING()]))\n"
     "probe.key_by(lambda r: r[1]).reduce(lambda a, b: a if a[0] > b[0] else b).print()", None),
    ("execute_and_collect() iterated where it stands is a frame's consumer",
     f"probe = {ROWS}\nprint(sorted(probe.execute_and_collect()))", "f0 INT, f1 STRING"),
    ("... kept in a variable it is not (Flink's closeable iterator)",
     f"probe = {ROWS}\nresults = probe.execute_and_collect()\nprint(list(results))", None),
    ("BATCH: ... not after a union (a key's records come from two inputs: no source order)",
     "env.set_runtime_mode(RuntimeExecutionMode.BATCH)\n"
     "probe = env.from_collection([(1, 'a', 'x')], Types.TUPLE([Types.INT(), Types.STRING(), Types.STRING()]))\n"
     "probe.union(probe).key_by(lambda r: r[1]).sum(0).print()", None),
    ("BATCH: a computed key is no field", f"env.set_runtime_mode(RuntimeExecutionMode.BATCH)\nprobe = {ROWS}\nprobe.key_by(lambda r: r[0] % 2).sum(0).print()", None),
    ("BATCH: a reduce of per-field sums is a frame",
     f"env.set_runtime_mode(RuntimeExecutionMode.BATCH)\nprobe = {ROWS}.key_by(lambda r: r[1]).reduce(lambda a, b: Row(a[0] + b[0], b[1]))\nprobe.print()",
     "f0 INT, f1 STRING"),
    ("BATCH: a reduce of products is not", f"env.set_runtime_mode(RuntimeExecutionMode.BATCH)\nprobe = {ROWS}\n"
     "probe.key_by(lambda r: r[1]).reduce(lambda a, b: Row(a[0] * b[0], b[1])).print()", None),
    ("BATCH: the sum of a field that may hold None is not (Python fails, Spark skips NULL)",
     "env.set_runtime_mode(RuntimeExecutionMode.BATCH)\n"
     "probe = env.from_collection(rows_from_a_file(), Types.ROW([Types.INT(), Types.STRING()]))\n"
     "probe.key_by(lambda r: r[1]).sum(0).print()", None),
    ("a name reassigned through its operators (ds = ds.filter(...)) follows each value", f"""
        ds = {ROWS}
        ds = ds.filter(lambda r: r[0] > 1)
        probe = ds.map(lambda r: (r[1], r[0]), output_type=Types.TUPLE([Types.STRING(), Types.INT()]))
        probe.print()
     """, "f0 STRING, f1 INT"),
    ("... and a read of it with no native form keeps them all RDDs", f"""
        ds = {ROWS}
        ds = ds.filter(lambda r: r[0] > 1)
        probe = ds.filter(lambda r: r[0] > 2)
        probe.print()
        ds.key_by(lambda r: r[1]).process(P()).print()
     """, None),
    ("data a function makes may hold PyFlink Rows: a frame only when Row is Spark's (every stream a frame)",
     f"probe = env.from_collection(load(), type_info=Types.ROW([Types.INT(), Types.STRING()]))\nprobe.print()\n"
     "env.from_collection([Row(1, 'a')]).print()", None),
    ("... which it is when every stream is a frame",
     "probe = env.from_collection(load(), type_info=Types.ROW([Types.INT(), Types.STRING()]))\nprobe.print()\n"
     "env.from_collection([Row(1, 'a')], type_info=Types.ROW([Types.INT(), Types.STRING()])).print()", "f0 INT, f1 STRING"),
    ("a literal the schema does not take as Flink does (an int for a DOUBLE) keeps an RDD",
     "probe = env.from_collection([1, 2], type_info=Types.DOUBLE())\nprobe.print()", None),
    ("a map building Row(...) under other names than its output type's is not followed",
     f"probe = {ROWS}\nprobe.map(lambda r: Row(b=r[1], a=r[0]), output_type=Types.ROW_NAMED(['a', 'b'], [Types.INT(), Types.STRING()])).print()",
     None),
    ("timestamps are no native form (yet)", f"probe = {ROWS}.assign_timestamps_and_watermarks(stamped)\nprobe.print()", None),
    # text file sources (spark.read.text: one non-null string column) and string file sinks
    ("the lines of a bounded text FileSource are a string frame", f"probe = {TEXT}\nprobe.filter(lambda s: s != '').print()", "string"),
    ("read_text_file (UTF-8) too", "probe = env.read_text_file('/in', 'UTF-8')\nprobe.print()", "string"),
    ("read_text_file of another charset stays an RDD", "probe = env.read_text_file('/in', 'latin-1')\nprobe.print()", None),
    ("a text source with a watermark strategy no operator reads is a string frame",
     "probe = env.from_source(FileSource.for_record_stream_format(StreamFormat.text_line_format(), '/in').build(),"
     " WatermarkStrategy.for_monotonous_timestamps(), 'in')\nprobe.print()", "string"),
    ("a text source with a timestamp assigner is no frame",
     "probe = env.from_source(FileSource.for_record_stream_format(StreamFormat.text_line_format(), '/in').build(),"
     " stamped, 'in')\nprobe.print()", None),
    ("a number sequence is a bigint frame",
     "probe = env.from_source(NumberSequenceSource(1, 5), WatermarkStrategy.no_watermarks(), 'n')\nprobe.print()", "bigint"),
    ("a monitored (unbounded) text source is a (streaming) string frame",
     "probe = env.from_source(FileSource.for_record_stream_format(StreamFormat.text_line_format(), '/in')"
     ".monitor_continuously(Time.seconds(1)).build(), WatermarkStrategy.no_watermarks(), 'in')\nprobe.print()", "string"),
    ("a text line format of another charset is no frame",
     "probe = env.from_source(FileSource.for_record_stream_format(StreamFormat.text_line_format('latin-1'), '/in').build(),"
     " WatermarkStrategy.no_watermarks(), 'in')\nprobe.print()", None),
    ("a row-format FileSink of strings is a native consumer",
     f"probe = {TEXT}\nprobe.sink_to(FileSink.for_row_format('/out', Encoder.simple_string_encoder()).build())", "string"),
    ("... a FileSink of Rows too (Java's toString of them: F.format_string)",
     f"probe = {ROWS}\nprobe.sink_to(FileSink.for_row_format('/out', Encoder.simple_string_encoder()).build())", "f0 INT, f1 STRING"),
    ("... and of a basic type",
     "probe = env.from_collection(load(), type_info=Types.DOUBLE())\n"
     "probe.sink_to(FileSink.for_row_format('/out', Encoder.simple_string_encoder()).build())", "double"),
    ("... nor a StreamingFileSink given to sink_to (Flink rejects it)",
     f"probe = {TEXT}\nprobe.sink_to(StreamingFileSink.for_row_format('/out', Encoder.simple_string_encoder()).build())", None),
    ("... nor another encoder",
     f"probe = {TEXT}\nprobe.sink_to(FileSink.for_row_format('/out', Encoder.simple_string_encoder('latin-1')).build())", None),
    ("... a map of strings that may be None: a Python UDTF, whose None fails the job as Flink's",
     f"src = {TEXT}\nprobe = src.map(lambda s: s if s else None, output_type=Types.STRING())\n"
     "probe.sink_to(FileSink.for_row_format('/out', Encoder.simple_string_encoder()).build())", "string"),
]


@pytest.mark.parametrize("body, frame", [pytest.param(b, f, id=n) for n, b, f in FRAME_CASES])
def test_frame_plan(body, frame):
    assert _ask(body, lambda resolver, probe: facts(resolver, probe).as_dict()["frame"]) == frame


@pytest.mark.parametrize("body, free", [
    (f"probe = {ROWS}\nprobe.filter(lambda r: r[0] > 1).print()", True),
    (f"probe = {ROWS}\nprobe.print()\nenv.from_collection([[1]]).print()", False),  # a pickled stream of lists: an RDD
    # the environment only makes a table environment: no stream, no RDD (no NOTE F2S205)
    ("from pyflink.table import StreamTableEnvironment\nt_env = StreamTableEnvironment.create(env)\n"
     "t_env.execute_sql('SELECT 1').print()", True),
])
def test_rdd_free_program(body, free):
    assert _ask(body, lambda resolver, _: graph(resolver).rdd_free) is free


_HEAD_LINES = HEAD.count("\n")


@pytest.mark.parametrize("body, line, says", [
    # the first construct, in the text, that keeps a stream an RDD, and its line in the program
    (f"a = {ROWS}\nb = {ROWS}\nprobe = a.connect(b)\nprobe.map(lambda r: r).print()", 3, "`.connect()` at line {}"),
    ("probe = env.from_collection([[1], [2]])\nprobe.print()", 1, "the source `.from_collection()` at line {} has no type_info"),
    ("probe = env.from_collection([('a', 1)])\nprobe.key_by(lambda p: p[0]).print()", 1,
     "the source `.from_collection()` at line {} has no type_info"),
    (f"probe = {ROWS}\nkept = [probe]\nkept[0].print()", 2, "`probe` is kept in a container or another expression at line {}"),
    (f"def show(s):\n    s.print()\n\n\nprobe = {ROWS}\nshow(probe)\nshow(probe)", 6, "`probe` is passed to `show()` at line {}"),
    (f"probe = {ROWS}\nprobe.print()\nenv.from_collection([[1]]).print()", 3, "the source `.from_collection()` at line {}"),
    ("from pyflink.table import StreamTableEnvironment\nt_env = StreamTableEnvironment.create(env)\n"
     "probe = t_env.to_retract_stream(t_env.from_elements([(1, 'a')], ['id', 'name']), Types.ROW([Types.LONG(), Types.STRING()]))\n"
     "probe.print()", 3, "the table's stream `.to_retract_stream()` at line {} has no DataFrame form"),
])
def test_rdd_reason(body, line, says):
    found = _ask(body, lambda resolver, _: graph(resolver).rdd_reason)
    assert found is not None and says.format(_HEAD_LINES + line) in found, found


def test_rdd_reason_none_without_rdds():
    assert _ask(f"probe = {ROWS}\nprobe.filter(lambda r: r[0] > 1).print()", lambda resolver, _: graph(resolver).rdd_reason) is None


_ASYNC_OVER_UNBOUNDED_TABLE = '''
from pyflink.common import Types, Time
from pyflink.datastream import StreamExecutionEnvironment, AsyncDataStream, AsyncFunction
from pyflink.table import StreamTableEnvironment


class Enrich(AsyncFunction):
    async def async_invoke(self, value):
        return [f"{value[0]}:{value[1]}"]


env = StreamExecutionEnvironment.get_execution_environment()
t_env = StreamTableEnvironment.create(env)
t_env.execute_sql("""
    CREATE TABLE clicks (user_id INT, page STRING)
    WITH ('connector' = 'datagen', 'rows-per-second' = '5')
""")
clicks = t_env.to_data_stream(t_env.from_path("clicks"))
enriched = AsyncDataStream.unordered_wait(clicks, Enrich(), Time.seconds(5), 100, Types.STRING())
enriched.print()
env.execute("enrich clicks")
'''


def test_converted_micro_batches_stay_unbounded():
    """An async operator over the stream of an unbounded table keeps its TODO (F2S254); its
    input is then ``f2s_stream.micro_batches(...)``, which a second conversion must still read
    as unbounded (else it converted the async operator and its print as a bounded job's)."""
    from flink2spark.transpiler.engine import convert_source

    once = convert_source(_ASYNC_OVER_UNBOUNDED_TABLE, "enrich.py").output
    assert "f2s_stream.micro_batches(" in once and "TODO(flink2spark): F2S254" in once
    assert convert_source(once, "enrich.py").output == once
