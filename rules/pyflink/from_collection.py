"""``env.from_collection(collection, type_info=None)`` -> ``sparkContext.parallelize(...)``.

Without ``type_info`` PyFlink pickles the elements: Python operators get them back as they
are, which ``parallelize`` does too. With a type, Flink's source hands Python operators the
elements converted to it: ``Types.ROW([...])`` gives ``Row`` objects with fields ``f0, f1...``,
``Types.ROW_NAMED`` named ``Row`` objects, ``Types.TUPLE`` tuples, ``Types.FLOAT()`` 32-bit
floats, ``SQL_TIME``/``SQL_TIMESTAMP``/``INSTANT`` values cut to milliseconds;
``f2s.typed(collection, type_info)`` does that conversion. ``Types.LOCAL_DATE/LOCAL_TIME/
LOCAL_DATE_TIME`` do not exist in PyFlink 2.3 (TODO). Types whose conversion
changes nothing (strings, integers, booleans) need no call. The source keeps the collection's
order, like Flink's (a parallelism-1 source).

When the program model plans the stream as a DataFrame (``_frames.source_shape``: a schema of
basic types; literal FLOATs within the 32-bit range as FLOAT; literal dates from 1582-10-15 on
as DATE, literal naive times of whole milliseconds as TIME(6), literal decimals of one scale as DECIMAL(38, s), arrays of basic types, nested
``Row(...)`` literals of a ROW of basic types as a STRUCT; untyped literal data of one type per
field), the source
is ``createDataFrame(xs, schema)``. ``Types.INSTANT()`` fields whose values are all literal
``Instant.of_epoch_milli(n)`` are TIMESTAMP columns when the stream's only consumers are Tables
of it (``from_data_stream``/``create_temporary_view``: Flink's TIMESTAMP_LTZ, no Python function
sees the Instant objects): ``createDataFrame([f2s.table_values(r) for r in xs], schema)``, the
Instants' UTC datetimes.

Arrays and maps: ``Types.PRIMITIVE_ARRAY(Types.BYTE())`` fields come to Python as ``bytes``,
other arrays (``PRIMITIVE_ARRAY``, ``BASIC_ARRAY``) as lists, ``Types.MAP`` as dicts (NOTE
F2S211: Flink's dicts have their Java HashMap's key order). Flink 2.3 itself fails on a
collection of bare byte arrays (``type_info=Types.PRIMITIVE_ARRAY(Types.BYTE())``: byte[] is not an
Object[]) and on ``Types.LIST``: those keep a TODO.
"""

import json

import libcst as cst

from flink2spark.rules.pyflink.type_constants import named_frame_schema
from flink2spark.rules.pyflink._frames import ddl, instants
from flink2spark.rules.pyflink._streams import facts
from flink2spark.rules.pyflink._common import (
    IDENTITY_TYPES,
    MAP_ORDER_NOTE,
    _is_none,
    _shape,
    basic_type,
    byte_array_type,
    container_notes,
    followed,
    program,
    spark_program,
    type_kinds,
    unsupported_reason,
    unsupported_types,
)
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule

rule = Rule(
    __name__,
    matches=["StreamExecutionEnvironment.from_collection"],
    summary="from_collection(xs, type_info) -> sparkContext.parallelize(xs) / parallelize(f2s.typed(xs, type_info))",
    codes=(M.PF_UNSUPPORTED, M.PF_MAP_ORDER),
    examples=[
        Example(
            program(
                "words = env.from_collection(['a', 'b'], type_info=Types.STRING())\n"
                "pairs = env.from_collection([('a', 1)])\n"
                "rows = env.from_collection([(1, 'a')], Types.ROW([Types.INT(), Types.STRING()]))\n",
                imports="from pyflink.common import Types\n",
            ),
            spark_program(  # collections whose consumers all have a native form: DataFrames
                'words = env.createDataFrame(["a", "b"], "string")\n'
                'pairs = env.createDataFrame([("a", 1)], "f0 STRING, f1 BIGINT")\n'
                'rows = env.createDataFrame([(1, "a")], "f0 INT, f1 STRING")\n',
                frames=True,
            ),
        ),
        Example(  # literal dates from 1582-10-15 on and arrays of basic types: DATE and ARRAY<T> columns
            program(
                "days = env.from_collection([(1, datetime.date(2024, 1, 31), [2, 3])],"
                " Types.TUPLE([Types.INT(), Types.SQL_DATE(), Types.PRIMITIVE_ARRAY(Types.INT())]))\n"
                "days.filter(lambda d: d[0] > 0).print()\n"
                "pairs = env.from_collection([('a', 1), ('b', -2)])\n"
                "pairs.filter(lambda p: p[1] > 0).print()\n",
                imports="import datetime\n\nfrom pyflink.common import Types\n",
            ),
            "import datetime\n"
            "from pyspark.sql import SparkSession, functions as F\n\n"
            "env = SparkSession.builder.getOrCreate()\n"
            "days = env.createDataFrame(\n"
            '    [(1, datetime.date(2024, 1, 31), [2, 3])], "f0 INT, f1 DATE, f2 ARRAY<INT>"\n'
            ")\n"
            'days.where(F.col("f0") > 0).show(2147483647, truncate=False)\n'
            'pairs = env.createDataFrame([("a", 1), ("b", -2)], "f0 STRING, f1 BIGINT")\n'
            'pairs.where(F.col("f1") > 0).show(2147483647, truncate=False)\n',
        ),
        Example(  # literal decimals of one scale: DECIMAL(38, s); of several scales: no frame (Flink keeps each one's)
            program(
                "fees = env.from_collection([Decimal('0.25'), Decimal('1.50')], Types.BIG_DEC())\n"
                "fees.print()\n"
                "rates = env.from_collection([('a', Decimal('0.5')), ('b', Decimal('0.25'))],"
                " Types.TUPLE([Types.STRING(), Types.BIG_DEC()]))\n"
                "rates.print()\n",
                imports="from decimal import Decimal\n\nfrom pyflink.common import Types\n",
            ),
            spark_program(
                'fees = env.createDataFrame([Decimal("0.25"), Decimal("1.50")], "decimal(38,2)")\n'
                "fees.show(2147483647, truncate=False)\n"
                "rates = env.sparkContext.parallelize(\n"
                "    f2s.typed(\n"
                '        [("a", Decimal("0.5")), ("b", Decimal("0.25"))],\n'
                "        f2s.Types.TUPLE([f2s.Types.STRING(), f2s.Types.BIG_DEC()]),\n"
                "    )\n"
                ")\n"
                "for record in rates.collect():\n"
                "    print(record)\n",
                imports="from decimal import Decimal\n",
                shim=True,
                rdd="the source `.from_collection()` at line 9 has no DataFrame schema: its type_info or its data has none here",
            ),
        ),
        Example(  # no frame: a date before 1582-10-15 (Flink's is Julian), mixed pickled types, a pickled stream keyed
            program(
                "old = env.from_collection([datetime.date(1500, 3, 1)], Types.SQL_DATE())\n"
                "old.print()\n"
                "mixed = env.from_collection([(1, 'a'), (2.5, 'b')])\n"
                "mixed.print()\n"
                "pairs = env.from_collection([('a', 1)])\n"
                "pairs.key_by(lambda p: p[0]).print()\n",
                imports="import datetime\n\nfrom pyflink.common import Types\n",
            ),
            spark_program(
                "old = env.sparkContext.parallelize(\n"
                "    f2s.typed([datetime.date(1500, 3, 1)], f2s.Types.SQL_DATE())\n"
                ")\n"
                "for record in old.collect():\n"
                "    print(record)\n"
                'mixed = env.sparkContext.parallelize([(1, "a"), (2.5, "b")])\n'
                "for record in mixed.collect():\n"
                "    print(record)\n"
                'pairs = env.sparkContext.parallelize([("a", 1)])\n'
                "for record in pairs.keyBy(lambda p: p[0]).values().collect():\n"
                "    print(record)\n",
                imports="import datetime\n",
                shim=True,
                rdd="the source `.from_collection()` at line 7 has no DataFrame schema: its type_info or its data has none here",
            ),
        ),
        Example(  # a consumer with no native form (key_by of pickled lists) keeps the stream an RDD
            program(
                "rows = env.from_collection([(1, 'a')], Types.ROW([Types.INT(), Types.STRING()]))\n"
                "rows.map(lambda r: [r[0]]).key_by(lambda x: x[0]).print()\n"
                "named = env.from_collection([Row(id=1, name='a')], Types.ROW_NAMED(['id', 'name'], [Types.INT(), Types.STRING()]))\n"
                "named.print()\n",
                imports="from pyflink.common import Row, Types\n",
            ),
            'from flink2spark.runtime import datastream as f2s\n'
            'from pyspark.sql import SparkSession\n'
            '\n'
            '# NOTE(flink2spark): F2S205 PyFlink streams become RDDs: Python functions over records run on the RDD API (SparkContext), which Spark Connect does not offer; here because `.key_by()` at line 6 has no DataFrame form over the results of a function with no output_type (Flink pickles them; here only map, flat_map, filter and print take them, in one Python UDTF with the next function that has an output_type)\n'
            'env = SparkSession.builder.getOrCreate()\n'
            'rows = env.sparkContext.parallelize(\n'
            '    f2s.typed([(1, "a")], f2s.Types.ROW([f2s.Types.INT(), f2s.Types.STRING()]))\n'
            ')\n'
            'for record in rows.map(lambda r: [r[0]]).keyBy(lambda x: x[0]).values().collect():\n'
            '    print(record)\n'
            'named = env.sparkContext.parallelize(\n'
            '    f2s.typed(\n'
            '        [f2s.Row(id=1, name="a")],\n'
            '        f2s.Types.ROW_NAMED(["id", "name"], [f2s.Types.INT(), f2s.Types.STRING()]),\n'
            '    )\n'
            ')\n'
            'for record in named.collect():\n'
            '    print(record)\n',
        ),
        Example(  # every stream a DataFrame: no RDD (no NOTE F2S205), PyFlink's Row is Spark's
            program(
                "named = env.from_collection([Row(id=1, name='a')], Types.ROW_NAMED(['id', 'name'], [Types.INT(), Types.STRING()]))\n"
                "named.print()\n",
                imports="from pyflink.common import Row, Types\n",
            ),
            "from pyspark.sql import Row, SparkSession\n\n"
            "env = SparkSession.builder.getOrCreate()\n"
            'named = env.createDataFrame([Row(id=1, name="a")], "id INT, name STRING")\n'
            "named.show(2147483647, truncate=False)\n",
        ),
        Example(  # literal naive times of whole milliseconds: TIME(6); with microseconds Flink cuts: no frame
            program(
                "opens = env.from_collection([datetime.time(8, 0), datetime.time(9, 30, 0, 250000)], Types.SQL_TIME())\n"
                "opens.print()\n",
                imports="import datetime\n\nfrom pyflink.common import Types\n",
            ),
            "import datetime\n"
            "from pyspark.sql import SparkSession\n\n"
            "env = SparkSession.builder.getOrCreate()\n"
            "opens = env.createDataFrame(\n"
            '    [datetime.time(8, 0), datetime.time(9, 30, 0, 250000)], "time(6)"\n'
            ")\n"
            "opens.show(2147483647, truncate=False)\n",
        ),
        Example(  # FLOAT columns (Python reads the 32-bit value widened, as from Flink) and a nested Row: a struct
            program(
                "ratios = env.from_collection([1.1, 1e-5], type_info=Types.FLOAT())\n"
                "ratios.print()\n"
                "tagged = env.from_collection([('k', Row(a=1, b='x'))],"
                " Types.TUPLE([Types.STRING(), Types.ROW_NAMED(['a', 'b'], [Types.INT(), Types.STRING()])]))\n"
                "tagged.print()\n",
                imports="from pyflink.common import Row, Types\n",
            ),
            "from pyspark.sql import Row, SparkSession\n\n"
            "env = SparkSession.builder.getOrCreate()\n"
            'ratios = env.createDataFrame([1.1, 1e-5], "float")\n'
            "ratios.show(2147483647, truncate=False)\n"
            "tagged = env.createDataFrame(\n"
            '    [("k", Row(a=1, b="x"))], "f0 STRING, f1 STRUCT<a: INT, b: STRING>"\n'
            ")\n"
            "tagged.show(2147483647, truncate=False)\n",
        ),
        Example(
            program(
                "payloads = env.from_collection([(b'{}', 1)], Types.ROW([Types.PRIMITIVE_ARRAY(Types.BYTE()), Types.INT()]))\n"
                "counts = env.from_collection([{'a': 1}], Types.MAP(Types.STRING(), Types.INT()))\n"
                "days = env.from_collection([{datetime.date(2024, 1, 31): 1}], Types.MAP(Types.SQL_DATE(), Types.INT()))\n"
                "blobs = env.from_collection([b'x'], Types.PRIMITIVE_ARRAY(Types.BYTE()))\n",
                imports="import datetime\n\nfrom pyflink.common import Types\n",
            ),
            spark_program(
                "payloads = env.sparkContext.parallelize(\n"
                "    f2s.typed(\n"
                '        [(b"{}", 1)],\n'
                "        f2s.Types.ROW([f2s.Types.PRIMITIVE_ARRAY(f2s.Types.BYTE()), f2s.Types.INT()]),\n"
                "    )\n"
                ")\n"
                "counts = env.sparkContext.parallelize(\n"
                '    f2s.typed([{"a": 1}], f2s.Types.MAP(f2s.Types.STRING(), f2s.Types.INT()))\n'
                ")\n"
                "# NOTE(flink2spark): F2S211 " + MAP_ORDER_NOTE + "\n"
                "days = env.sparkContext.parallelize(\n"
                "    f2s.typed(\n"
                "        [{datetime.date(2024, 1, 31): 1}],\n"
                "        f2s.Types.MAP(f2s.Types.SQL_DATE(), f2s.Types.INT()),\n"
                "    )\n"
                ")\n"
                "# TODO(flink2spark): F2S200 from_collection() of bare byte arrays: Flink 2.3 fails building the job"
                " (ClassCastException: byte[] is not an Object[]); wrap each in a Types.ROW([Types.PRIMITIVE_ARRAY(Types.BYTE())])\n"
                'blobs = env.from_collection([b"x"], f2s.Types.PRIMITIVE_ARRAY(f2s.Types.BYTE()))\n',
                imports="import datetime\n",
                shim=True,
                rdd='the source `.from_collection()` at line 7 has no DataFrame schema: its type_info or its data has none here',
            ),
        ),
        Example(  # dates, times, timestamps, instants and decimals: f2s.typed truncates as Flink does
            program(
                "stamps = env.from_collection([t], type_info=Types.SQL_TIMESTAMP())\n"
                "days = env.from_collection([d], Types.LOCAL_DATE())\n",
                imports="from pyflink.common import Types\n",
            ),
            spark_program(
                "stamps = env.sparkContext.parallelize(f2s.typed([t], f2s.Types.SQL_TIMESTAMP()))\n"
                "# TODO(flink2spark): F2S200 from_collection() with Types.LOCAL_DATE(): PyFlink 2.3's Types has no"
                " LOCAL_DATE() (the program fails on Flink with AttributeError)\n"
                "days = env.from_collection([d], f2s.Types.LOCAL_DATE())\n",
                shim=True,
                rdd='the source `.from_collection()` at line 5 has no DataFrame schema: its type_info or its data has none here',
            ),
        ),
    ],
    noop=["class Env:\n    def from_collection(self, xs):\n        return xs\n\n\nEnv().from_collection([1])\n"],
)


@rule.converter
def convert(ctx):
    seg = ctx.site.head
    collection = ctx.arg(seg, 0, "collection")
    if collection is None:
        return ctx.todo(M.PF_UNSUPPORTED, "from_collection() without a collection argument")
    frame = facts(ctx.resolver, seg.original).frame
    info = ctx.arg(seg, 1, "type_info")
    if frame is not None:  # a DataFrame with the type's schema (the program model's plan)
        data = "{xs}"
        if instants(frame):  # Instant.of_epoch_milli(n) values: their UTC datetimes, TIMESTAMP (_frames.source_shape)
            data = "[{values}(r) for r in {xs}]"
        if info is not None and named_frame_schema(ctx.resolver, info[0]):  # ORDER = "id INT, ..." (type_constants)
            return ctx.expr("{env}.createDataFrame(%s, {schema})" % data, env=ctx.site.receiver, xs=collection[1],
                            schema=info[1], **({"values": ctx.shim("table_values")} if instants(frame) else {}))
        return ctx.expr("{env}.createDataFrame(%s, %s)" % (data, json.dumps(ddl(frame))), env=ctx.site.receiver,
                        xs=collection[1], **({"values": ctx.shim("table_values")} if instants(frame) else {}))
    sc = ctx.expr("{env}.sparkContext", env=ctx.site.receiver)
    if info is None or _is_none(info[0]) or basic_type(ctx.resolver, info[0]) in IDENTITY_TYPES:
        return ctx.expr("{sc}.parallelize({xs})", sc=sc, xs=collection[1])
    unsupported = unsupported_types(ctx.resolver, info[0])
    if unsupported:
        return ctx.todo(M.PF_UNSUPPORTED, f"from_collection() with Types.{unsupported[0]}(): {unsupported_reason(unsupported[0])}")
    if byte_array_type(ctx.resolver, info[0]):
        return ctx.todo(
            M.PF_UNSUPPORTED,
            "from_collection() of bare byte arrays: Flink 2.3 fails building the job (ClassCastException: byte[] is not"
            " an Object[]); wrap each in a Types.ROW([Types.PRIMITIVE_ARRAY(Types.BYTE())])",
        )
    if "LIST" in type_kinds(ctx.resolver, info[0]):
        return ctx.todo(M.PF_UNSUPPORTED, "from_collection() with Types.LIST(): Flink 2.3 fails building the job (ClassCastException: Object[] is not a List)")
    container_notes(ctx, info[0], printed=False)
    if _tuples_as_they_are(ctx.resolver, collection[0], info[0]):
        return ctx.expr("{sc}.parallelize({xs})", sc=sc, xs=collection[1])
    return ctx.expr("{sc}.parallelize({typed}({xs}, {t}))", sc=sc, typed=ctx.shim("typed"), xs=collection[1], t=info[1])


def _tuples_as_they_are(resolver, collection: cst.BaseExpression, info: cst.BaseExpression) -> bool:
    """Whether Flink's source hands Python the elements unchanged: a ``Types.TUPLE`` of types
    that decode unchanged (strings, integers, booleans, doubles) over a list (or a name bound
    once to one) of tuple literals of its size. The type then changes no value (its other use,
    Flink's print format, is not the converted program's: it prints Python's), so no
    ``f2s.typed`` call."""
    shape = _shape(resolver, info)
    if shape is None or shape[0] != "tuple":
        return False
    data = followed(resolver, collection)
    return isinstance(data, (cst.List, cst.Tuple)) and all(
        isinstance(e, cst.Element) and isinstance(e.value, cst.Tuple) and len(e.value.elements) == shape[1]
        and all(isinstance(f, cst.Element) for f in e.value.elements)
        for e in data.elements
    )
