"""Runtime shim for unbounded PyFlink programs converted to Structured Streaming (imported as
``f2s_stream``).

A Kafka source becomes a native ``spark.readStream.format("kafka")...load()`` DataFrame whose
value is decoded with Spark's own functions (``CAST(value AS STRING)``, ``from_json``,
``from_csv``, ``from_avro``). PyFlink's Python operators (``map``/``flat_map``/``filter`` with
arbitrary functions over Python objects) have no streaming DataFrame counterpart, so the stream
is wrapped in ``MicroBatches``: it records those operators and applies them, as the RDD
operations of the bounded conversion, to each micro-batch in ``foreachBatch``.

Public API
----------
``micro_batches(df, type_info=None) -> MicroBatches``
    An unbounded stream read from the streaming DataFrame ``df`` (one column per field of a
    ``Types.ROW``/``ROW_NAMED`` type, else one ``value`` column): its elements are what
    PyFlink's Python operators see (``Row`` with the type's field names, or the value).
``elements(df, type_info=None) -> RDD``
    The same for a bounded (batch) DataFrame: an RDD of those elements.
``foreach_batch(stream, function) -> DataStreamWriter``
    ``stream.df.writeStream.foreachBatch(...)`` calling ``function(rdd)`` with the RDD of each
    micro-batch's elements (after the recorded operators). Give it a checkpoint location and
    ``start()`` it.
``to_dataframe(stream, type_info) -> DataFrame``
    The elements of an RDD as a DataFrame with Flink's field names and Spark types for
    ``type_info`` (a ``Types.ROW``/``ROW_NAMED`` -> one column per field; other types -> one
    ``value`` column): what Kafka sinks serialize.
``spark_schema(type_info) -> StructType``
``checkpoint(name) -> str``
    The checkpoint location of a query: ``$F2S_CHECKPOINT_DIR/<name>`` when that variable is
    set (a durable folder: a restarted program resumes where it stopped, as a Flink job
    restored from a checkpoint), else a fresh temporary folder per run (the program starts
    from the configured starting offsets each time, as a Flink job submitted anew).
``flink_csv(type_info, field_delimiter=",", null_literal=None) -> Column``
    A row as Flink's ``CsvRowSerializationSchema`` writes it (Spark's ``to_csv`` quotes and
    ends records differently).
``await_termination(spark)``
    ``env.execute()``: wait until every active streaming query ends (returns at once when
    none runs).

Depends on pyspark and the datastream shim only.
"""

from __future__ import annotations

import os
import tempfile

from flink2spark.runtime.datastream import Row, _check_supported, decoded

__all__ = [
    "MicroBatches",
    "micro_batches",
    "elements",
    "foreach_batch",
    "to_dataframe",
    "spark_schema",
    "checkpoint",
    "await_termination",
    "flink_csv",
]

_ROOT = []
_NAMES = set()


def checkpoint(name):
    """The checkpoint folder of the query called ``name`` (unique within the run)."""
    root = os.environ.get("F2S_CHECKPOINT_DIR")
    if not root:
        if not _ROOT:
            _ROOT.append(tempfile.mkdtemp(prefix="f2s-checkpoints-"))
        root = _ROOT[0]
    unique, n = name, 1
    while unique in _NAMES:
        n += 1
        unique = "%s-%d" % (name, n)
    _NAMES.add(unique)
    return os.path.join(root, unique)


_SPARK_TYPES = {
    "STRING": "StringType",
    "CHAR": "StringType",
    "BOOLEAN": "BooleanType",
    "BYTE": "ByteType",
    "SHORT": "ShortType",
    "INT": "IntegerType",
    "LONG": "LongType",
    "FLOAT": "FloatType",
    "DOUBLE": "DoubleType",
}


def _spark_type(type_info):
    from pyspark.sql import types as T

    kind = type_info.kind
    if kind in _SPARK_TYPES:
        return getattr(T, _SPARK_TYPES[kind])()
    if kind == "ROW":
        return T.StructType([T.StructField(n, _spark_type(t), True) for n, t in zip(type_info.field_names, type_info.field_types)])
    if kind == "PRIMITIVE_ARRAY" and type_info.field_types[0].kind == "BYTE":
        return T.BinaryType()  # byte[]
    if kind in ("PRIMITIVE_ARRAY", "BASIC_ARRAY", "LIST"):
        element = type_info.field_types[0]
        return T.ArrayType(_spark_type(element), kind != "PRIMITIVE_ARRAY")  # primitive arrays hold no nulls
    if kind == "MAP":
        key_type, value_type = type_info.field_types
        return T.MapType(_spark_type(key_type), _spark_type(value_type), True)
    raise NotImplementedError("flink2spark: no Spark type for %r" % (type_info,))


def spark_schema(type_info):
    """The Spark schema of a DataFrame of elements of ``type_info``."""
    from pyspark.sql import types as T

    if type_info is not None and type_info.kind == "ROW":
        return _spark_type(type_info)
    value = T.StringType() if type_info is None else _spark_type(type_info)
    return T.StructType([T.StructField("value", value, True)])


def _decoder(type_info):
    """Spark Row of a decoded Kafka value -> the element PyFlink's operators see."""
    if type_info is not None and type_info.kind == "ROW":
        decode = decoded(type_info)
        return lambda row: decode(tuple(row))
    decode = decoded(type_info)  # Spark gives binary values as bytearray, Flink as bytes
    return lambda row: decode(row[0])


def elements(df, type_info=None):
    """The elements of a bounded (batch) DataFrame read from Kafka, as an RDD."""
    return df.rdd.map(_decoder(type_info))


class MicroBatches(object):
    """An unbounded stream: a streaming DataFrame and the Python operators applied to its
    elements, run on each micro-batch as RDD operations (see ``foreach_batch``)."""

    def __init__(self, df, type_info=None, ops=()):
        self.df = df
        self.type_info = type_info
        self.ops = tuple(ops)

    def _then(self, name, function):
        return MicroBatches(self.df, self.type_info, self.ops + ((name, function),))

    def map(self, f):
        return self._then("map", f)

    def flatMap(self, f):  # noqa: N802 - RDD's name
        return self._then("flatMap", f)

    def filter(self, f):
        return self._then("filter", f)

    def mapPartitionsWithIndex(self, f):  # noqa: N802 - RDD's name
        return self._then("mapPartitionsWithIndex", f)

    def union(self, *others):
        raise NotImplementedError("flink2spark: union of unbounded streams is not converted; union the DataFrames by hand")

    def batch(self, batch_df):
        """The RDD of one micro-batch's elements after the recorded operators."""
        rdd = batch_df.rdd.map(_decoder(self.type_info))
        for name, function in self.ops:
            rdd = getattr(rdd, name)(function)
        return rdd


def micro_batches(df, type_info=None):
    """An unbounded stream of the elements of the streaming DataFrame ``df``."""
    _check_supported(type_info)
    return MicroBatches(df, type_info)


def foreach_batch(stream, function):
    """``stream.df.writeStream.foreachBatch(...)``: ``function(rdd)`` on each micro-batch."""
    return stream.df.writeStream.foreachBatch(lambda batch_df, batch_id: function(stream.batch(batch_df)))


def _as_tuple(value, type_info):
    if type_info is not None and type_info.kind == "ROW":
        if isinstance(value, Row):
            return tuple(value.get_fields_by_names(type_info.field_names) if hasattr(value, "_fields") else value)
        return tuple(value)
    return (value,)


def to_dataframe(stream, type_info):
    """The elements of ``stream`` (an RDD) as a DataFrame of ``type_info``'s schema."""
    from pyspark.sql import SparkSession

    spark = SparkSession.builder.getOrCreate()
    schema = spark_schema(type_info)
    return spark.createDataFrame(stream.map(lambda v: _as_tuple(v, type_info)), schema)


def flink_csv(type_info, field_delimiter=",", null_literal=None):
    """The Column holding each row as ``CsvRowSerializationSchema`` writes it (checked on
    Flink 2.3): fields in order joined by ``field_delimiter``, non-empty strings always in
    double quotes with inner quotes doubled, empty strings and nulls as nothing (or
    ``null_literal``), numbers and booleans as Java's ``toString``, then ``\n``."""
    from pyspark.sql import functions as F

    empty = F.lit("" if null_literal is None else null_literal)
    fields = []
    for name, t in zip(type_info.field_names, type_info.field_types):
        column = F.col("`%s`" % name)
        if t.kind in ("STRING", "CHAR"):
            quoted = F.concat(F.lit('"'), F.replace(column, F.lit('"'), F.lit('""')), F.lit('"'))
            text = F.when(column.isNull(), empty).when(column == "", F.lit("")).otherwise(quoted)
        else:
            text = F.coalesce(column.cast("string"), empty)
        fields.append(text)
    return F.concat(F.concat_ws(field_delimiter, *fields), F.lit("\n"))


def await_termination(spark):
    """``env.execute()``: wait for every active streaming query of ``spark`` to end."""
    for query in list(spark.streams.active):
        query.awaitTermination()
