"""Runtime shim for programs converted from the legacy Flink DataSet Python API.

Converted programs import these helpers for the Flink behaviour that PySpark
has no native equivalent for.  The module depends only on the standard
library at import time; ``pyspark`` (and the py4j gateway it ships with) is
imported lazily inside the functions that need a SparkContext, so the module
can be imported by the converter itself and is cheap to import on executors
(ship it with ``spark-submit --py-files``).

Public API
----------
``stringify(value) -> str``
    Flink's ``Stringify`` (``DataSet.output`` / ``write_text`` formatting).
``csv_stringify(value, field_delimiter=",") -> str``
    Flink's ``CsvStringify`` (``write_csv`` formatting).
``output(rdd, to_error=False) -> None``
    The ``DataSet.output()`` print sink.
``write_text(rdd, path, write_mode=0) -> None``
    ``DataSet.write_text`` at parallelism 1: one file at ``path``.
``write_csv(rdd, path, line_delimiter="\\n", field_delimiter=",", write_mode=0) -> None``
    ``DataSet.write_csv`` at parallelism 1: one file at ``path``.
``FlinkIterator(iterable)``
    Flink's group/partition iterator (``next()``, ``has_next()``, iteration).
``aggregate(rdd, aggregations, key=None)``
    ``aggregate`` / ``and_agg`` / ``sum`` / ``min`` / ``max`` (Aggregation.py).
``RuntimeContext(broadcast_variables=None)``
    ``self.context`` of a user function (broadcast sets, subtask index).
``with_broadcast_sets(function, sets)``
    ``with_broadcast_set(name, data_set)`` on an operator.

Constants from ``flink.plan.Constants`` (the converter rewrites leftover references to them)
----------------------------------------------------------------------------------------------
``WriteMode`` (``NO_OVERWRITE`` = 0, ``OVERWRITE`` = 1; also module-level ``NO_OVERWRITE`` /
``OVERWRITE``), ``Order`` (``NONE``, ``ASCENDING``, ``DESCENDING``, ``ANY``), the ``read_csv``
type samples ``INT``, ``LONG``, ``FLOAT``, ``STRING``, ``BOOL``, ``BYTES``, and
``csv_schema(types) -> str`` (Spark DDL schema for a ``read_csv`` types tuple).
"""

import collections
import collections.abc
import functools
import re
import os
import sys
import uuid

__all__ = [
    "NO_OVERWRITE",
    "OVERWRITE",
    "WriteMode",
    "Order",
    "INT",
    "LONG",
    "FLOAT",
    "STRING",
    "BOOL",
    "BYTES",
    "csv_schema",
    "stringify",
    "csv_stringify",
    "output",
    "write_text",
    "write_csv",
    "FlinkIterator",
    "aggregate",
    "RuntimeContext",
    "with_broadcast_sets",
]

#: ``flink.plan.Constants.WriteMode.NO_OVERWRITE``
NO_OVERWRITE = 0
#: ``flink.plan.Constants.WriteMode.OVERWRITE``
OVERWRITE = 1


class WriteMode(object):
    """Flink's ``flink.plan.Constants.WriteMode``: the ``write_mode`` of the file sinks."""

    NO_OVERWRITE = NO_OVERWRITE
    OVERWRITE = OVERWRITE


class Order(object):
    """Flink's ``flink.plan.Constants.Order`` (``sort_group`` directions), same values."""

    NONE = 0
    ASCENDING = 1
    DESCENDING = 2
    ANY = 3


# ``read_csv`` field types are *sample values* in Flink (flink.plan.Constants, Python 3 branch);
# Flink derives the Java field type from the Python type of each sample.
INT = 1
LONG = 1  # Python 2 only in Flink (long(1)); an int is sent to Java as a Long either way
FLOAT = 2.5
STRING = "type"
BOOL = True
BYTES = bytearray(b"byte")


def read_csv(spark, path, types, line_delimiter="\n", field_delimiter=","):
    """Flink's ``env.read_csv(path, types, line_delimiter, field_delimiter)`` as an RDD of tuples.

    Spark's CSV reader cannot reproduce Flink's ``CsvInputFormat`` exactly, so the lines are read
    as text and parsed here the way Flink parses them:

    * ``types`` is a tuple of sample values (``INT``, ``FLOAT``, ``STRING``, ``BOOL`` from
      ``flink.plan.Constants``, mirrored in this module); the plan sender maps ``int`` to a Java
      **Long**, ``float`` to Double, ``str`` to String, ``bool`` to Boolean.
    * Fields are split on ``field_delimiter`` with no quoting; only the first ``len(types)``
      fields are read, extra trailing fields are ignored (TPC-H ``.tbl`` rows end in ``|``);
      a row with too few fields, or a field that does not parse, fails the job.
    * An empty string field is ``""`` (Spark's CSV reader would give ``None``); numbers accept no
      surrounding whitespace; booleans are ``true``/``false`` in any case.
    * With the default ``"\n"`` line delimiter the ``\r`` of ``\r\n`` is dropped; blank lines
      are skipped.
    """
    parsers = [_csv_field_parser(i, sample) for i, sample in enumerate(types)]
    count = len(parsers)
    strip_cr = line_delimiter == "\n"

    def parse(line):
        if strip_cr and line.endswith("\r"):
            line = line[:-1]
        fields = line.split(field_delimiter)
        if len(fields) < count:
            raise ValueError(
                "read_csv: row has %d field(s), %d expected: %r" % (len(fields), count, line)
            )
        return tuple(parser(field) for parser, field in zip(parsers, fields))

    lines = spark.read.text(path, lineSep=line_delimiter).rdd.map(lambda row: row.value)
    return lines.filter(lambda line: line not in ("", "\r")).map(parse)


def _csv_field_parser(index, sample):
    if isinstance(sample, bool):
        return functools.partial(_parse_bool, index)
    if isinstance(sample, int):
        return functools.partial(_parse_number, index, int, _INT_PATTERN)
    if isinstance(sample, float):
        return functools.partial(_parse_number, index, float, None)
    if isinstance(sample, str):
        return str
    raise ValueError(
        "read_csv: field %d has type %s; Flink's CSV reader parses only INT, FLOAT, STRING and BOOL"
        % (index, type(sample).__name__)
    )


_INT_PATTERN = re.compile(r"[+-]?[0-9]+")


def _parse_number(index, kind, pattern, text):
    if text != text.strip() or not text or (pattern is not None and not pattern.fullmatch(text)):
        raise ValueError("read_csv: field %d: %r is not a valid %s" % (index, text, kind.__name__))
    return kind(text)


def _parse_bool(index, text):
    lowered = text.lower()
    if lowered == "true":
        return True
    if lowered == "false":
        return False
    raise ValueError("read_csv: field %d: %r is not a valid boolean" % (index, text))


def csv_schema(types):
    """Spark DDL schema (``"_c0 BIGINT, _c1 STRING, ..."``) for a Flink ``read_csv`` types tuple.

    Stands for the type derivation Flink does for ``env.read_csv(path, types)``: ``types`` is a
    tuple of sample values (``INT``, ``FLOAT``, ``STRING``, ``BOOL`` from
    ``flink.plan.Constants`` or any value of those Python types) and the plan sender maps each
    sample's Python type to a Java type (``connection/Collector.py`` ``_get_type_info``):
    ``bool`` -> Boolean, ``int`` -> **Long** (there is no Integer: ``INT`` fields are parsed as
    64-bit), ``float`` -> Double, ``str`` -> String.  Spark's CSV reader needs an explicit
    schema instead, so the converter calls this when the types are only known at run time.
    Other sample types (``BYTES``, ``None``, nested tuples) have no CSV parser in Flink and
    raise ``ValueError``.
    """
    columns = []
    for i, sample in enumerate(types):
        if isinstance(sample, bool):
            spark_type = "BOOLEAN"
        elif isinstance(sample, int):
            spark_type = "BIGINT"
        elif isinstance(sample, float):
            spark_type = "DOUBLE"
        elif isinstance(sample, str):
            spark_type = "STRING"
        else:
            raise ValueError(
                "read_csv field type %d: %r is not an INT, LONG, FLOAT, STRING or BOOL sample" % (i, sample)
            )
        columns.append("_c%d %s" % (i, spark_type))
    return ", ".join(columns)


# --------------------------------------------------------------------------------------------
# Formatting
# --------------------------------------------------------------------------------------------


def stringify(value):
    """Render ``value`` exactly as Flink's ``Stringify`` map function does.

    Stands for ``flink.plan.DataSet.Stringify``, the map that ``DataSet.output()`` and
    ``DataSet.write_text()`` put in front of the sink: tuples and lists (recursively) become
    ``"(" + ", ".join(parts) + ")"``, everything else is ``str(value)``.  So strings are
    unquoted (``('a', 1)`` -> ``(a, 1)``) and a 1-tuple has no trailing comma (``(5,)`` ->
    ``(5)``).  Spark has no equivalent: ``saveAsTextFile`` and ``print`` use ``str``/``repr``
    of the Python tuple, which quotes strings and keeps the 1-tuple comma.
    """
    if isinstance(value, (tuple, list)):
        return "(" + ", ".join([stringify(x) for x in value]) + ")"
    return str(value)


def csv_stringify(value, field_delimiter=","):
    """Render one record exactly as Flink's ``CsvStringify`` map function does.

    Stands for ``flink.plan.DataSet.CsvStringify``, the map that ``DataSet.write_csv()`` puts
    in front of the CSV sink: the *top-level* fields are joined with ``field_delimiter`` and
    each field is rendered like :func:`stringify` (nested tuples become ``"(a, b)"``).  There
    is no quoting or escaping.  Like Flink, the value is simply iterated: a string record is
    therefore split into its characters (``"abc"`` -> ``"a,b,c"``) and a non-iterable record
    (an ``int``) raises ``TypeError``.  Spark's CSV writer needs a DataFrame and quotes/escapes
    fields and writes ``None`` as an empty field, so it cannot reproduce this output.
    """
    return field_delimiter.join([stringify(field) for field in value])


# --------------------------------------------------------------------------------------------
# Sinks
# --------------------------------------------------------------------------------------------


def output(rdd, to_error=False):
    """Print every element of ``rdd`` in order, formatted with :func:`stringify`.

    Stands for ``DataSet.output(to_error=False)`` (Java ``PrintingOutputFormat`` behind a
    ``Stringify`` map).  Legacy programs run at parallelism 1, so Flink prints the elements in
    input order without ``"N> "`` prefixes, to stdout, or to stderr when ``to_error`` is true.
    Spark has no print sink for RDDs: executors' stdout is not the driver's, so the RDD is
    collected (an action) and printed on the driver, then the stream is flushed.
    """
    stream = sys.stderr if to_error else sys.stdout
    for element in rdd.collect():
        stream.write(stringify(element) + "\n")
    stream.flush()


def write_text(rdd, path, write_mode=NO_OVERWRITE):
    """Write ``rdd`` as ONE text file at ``path``: one :func:`stringify` line per element.

    Stands for ``DataSet.write_text(path, write_mode)``: at the legacy default parallelism of
    1, Flink's ``TextOutputFormat`` writes a single file named ``path`` (not a directory), each
    record followed by ``"\\n"``, in input order.  ``write_mode`` is ``NO_OVERWRITE`` (0: fail if
    ``path`` exists, writing nothing) or ``OVERWRITE`` (1: replace an existing file or
    directory).  Spark always writes a directory of ``part-*`` files plus ``_SUCCESS`` and
    checksum files, so the data is written with ``coalesce(1).saveAsTextFile`` into a
    temporary sibling directory and the single part file is then moved to ``path`` with the
    Hadoop FileSystem API (works for local paths, ``file://``, ``hdfs://``, ``s3a://``).  The
    temporary directory is always removed.  An empty RDD gives an empty file.
    """
    _write_single_file(rdd, path, write_mode, stringify, "\n")


def write_csv(rdd, path, line_delimiter="\n", field_delimiter=",", write_mode=NO_OVERWRITE):
    """Write ``rdd`` as ONE CSV file at ``path`` with Flink's ``CsvStringify`` formatting.

    Stands for ``DataSet.write_csv(path, line_delimiter, field_delimiter, write_mode)``.
    Flink renders each record with ``CsvStringify(field_delimiter)`` in Python and hands the
    string to Java as a ``Tuple1<String>`` for ``CsvOutputFormat``, which writes the field and
    then ``line_delimiter`` after EVERY record (including the last one); no quoting.  At
    parallelism 1 this is a single file named ``path``.  ``write_mode`` as in
    :func:`write_text`.  Spark's CSV writer quotes, escapes and writes a directory, so the
    same single-file mechanism as :func:`write_text` is used; a line delimiter other than
    ``"\\n"`` is written with the DataFrame text writer's ``lineSep`` option, and an empty line
    delimiter (records concatenated) is streamed through the driver.
    """
    render = functools.partial(csv_stringify, field_delimiter=field_delimiter)
    _write_single_file(rdd, path, write_mode, render, line_delimiter)


def _check_write_mode(write_mode):
    if write_mode in (NO_OVERWRITE, OVERWRITE) and not isinstance(write_mode, float):
        return int(write_mode)
    raise ValueError(
        "write_mode must be 0 (WriteMode.NO_OVERWRITE) or 1 (WriteMode.OVERWRITE), got %r" % (write_mode,)
    )


def _exists_error(path):
    # Same wording as Flink's FileSystem.initOutPathLocalFS / initOutPathDistFS.
    return FileExistsError(
        "File or directory already exists: %s. Existing files and directories are not "
        "overwritten in NO_OVERWRITE mode. Use OVERWRITE mode to overwrite existing files "
        "and directories." % (path,)
    )


def _raw_filesystem(jvm, fs):
    """The FileSystem to move files with: for checksummed file systems (the local one) the raw
    file system, so that no ``.<name>.crc`` file is created next to the target."""
    try:
        checksum_cls = jvm.java.lang.Class.forName("org.apache.hadoop.fs.ChecksumFileSystem")
        if checksum_cls.isInstance(fs):
            return fs.getRawFileSystem()
    except Exception:  # pragma: no cover - exotic gateways; fall back to the FS itself
        pass
    return fs


def _write_through_driver(rdd, fs, tmp_dir, jpath_cls, render, line_sep):
    """Stream the rendered records through the driver into ``tmp_dir/part-00000``."""
    out = fs.create(jpath_cls(tmp_dir, "part-00000"), False)
    try:
        chunk, size = [], 0
        for element in rdd.toLocalIterator():
            piece = (render(element) + line_sep).encode("utf-8")
            chunk.append(piece)
            size += len(piece)
            if size >= 1 << 20:
                out.write(bytearray(b"".join(chunk)))
                chunk, size = [], 0
        if chunk:
            out.write(bytearray(b"".join(chunk)))
    finally:
        out.close()


def _write_single_file(rdd, path, write_mode, render, line_sep):
    mode = _check_write_mode(write_mode)
    sc = rdd.context
    jvm = sc._jvm
    jpath_cls = jvm.org.apache.hadoop.fs.Path
    target = jpath_cls(os.fspath(path))
    fs = target.getFileSystem(sc._jsc.hadoopConfiguration())
    target = fs.makeQualified(target)
    if mode == NO_OVERWRITE and fs.exists(target):
        raise _exists_error(path)

    tmp_dir = jpath_cls(target.getParent(), ".%s.flink2spark-%s.tmp" % (target.getName(), uuid.uuid4().hex))
    failed = True
    try:
        lines = rdd.map(render)
        if line_sep == "\n":
            lines.coalesce(1).saveAsTextFile(tmp_dir.toString())
        elif line_sep == "":
            _write_through_driver(rdd, fs, tmp_dir, jpath_cls, render, line_sep)
        else:
            from pyspark.sql import SparkSession

            spark = SparkSession.builder.getOrCreate()
            frame = spark.createDataFrame(lines.map(lambda s: (s,)), "value string")
            frame.coalesce(1).write.text(tmp_dir.toString(), lineSep=line_sep)

        parts = []
        if fs.exists(tmp_dir):
            parts = [
                status.getPath()
                for status in fs.listStatus(tmp_dir)
                if status.isFile() and status.getPath().getName().startswith("part-")
            ]
        if len(parts) > 1:  # pragma: no cover - coalesce(1) guarantees at most one
            raise RuntimeError(
                "expected a single part file in %s, found %d" % (tmp_dir.toString(), len(parts))
            )

        if fs.exists(target):
            if mode == NO_OVERWRITE:  # created while we were writing
                raise _exists_error(path)
            if not fs.delete(target, True):
                raise IOError("could not delete existing output %s" % (target.toString(),))
        raw = _raw_filesystem(jvm, fs)
        if parts:
            if not raw.rename(parts[0], target):
                raise IOError("could not move %s to %s" % (parts[0].toString(), target.toString()))
        else:  # an RDD without partitions writes no part file: Flink still creates the file
            raw.create(target, False).close()
        failed = False
    finally:
        try:
            if fs.exists(tmp_dir):
                fs.delete(tmp_dir, True)
        except Exception:
            if not failed:
                raise


# --------------------------------------------------------------------------------------------
# Iterator
# --------------------------------------------------------------------------------------------

_NOTHING = object()


class FlinkIterator(collections.abc.Iterator):
    """Flink's iterator over a group or partition, wrapping any iterable (single pass).

    Stands for ``flink.connection.Iterator`` (``Iterator``, ``GroupIterator``,
    ``ListIterator``), the object passed to ``reduce_group``, ``map_partition`` and
    ``co_group`` functions.  User code calls ``iterator.next()`` and ``iterator.has_next()``
    (Python 2 style), which Spark's ``ResultIterable`` and partition iterators do not have.
    ``has_next()`` looks one element ahead; ``next()`` past the end raises ``StopIteration``
    like Flink's.
    """

    def __init__(self, iterable=()):
        self._source = iter(iterable)
        self._peeked = _NOTHING
        self._exhausted = False

    def has_next(self):
        """True if another element is available (fetches it into the look-ahead slot)."""
        if self._peeked is not _NOTHING:
            return True
        if self._exhausted:
            return False
        try:
            self._peeked = next(self._source)
        except StopIteration:
            self._exhausted = True
            return False
        return True

    def next(self):
        """The next element; raises ``StopIteration`` when there is none."""
        if self._peeked is not _NOTHING:
            value, self._peeked = self._peeked, _NOTHING
            return value
        if self._exhausted:
            raise StopIteration
        try:
            return next(self._source)
        except StopIteration:
            self._exhausted = True
            raise

    def __next__(self):
        return self.next()

    def __iter__(self):
        return self


# --------------------------------------------------------------------------------------------
# Aggregations
# --------------------------------------------------------------------------------------------

_AGGREGATIONS = ("sum", "min", "max")


def _agg_init(name):
    # AggregationOperator.initialize_aggregation: None, overridden by Sum to 0.
    return 0 if name == "sum" else None


def _agg_step(name, agg, value):
    # Literal copies of Sum/Min/Max.aggregate in flink/functions/Aggregation.py.
    if name == "sum":
        agg += value
        return agg
    if name == "min":
        if agg != None:  # noqa: E711 - Flink compares with != None, not "is not None"
            if value < agg:
                agg = value
        else:
            agg = value
        return agg
    if agg != None:  # noqa: E711
        if value > agg:
            agg = value
    else:
        agg = value
    return agg


def _normalise_aggregations(aggregations):
    result = []
    for entry in aggregations:
        name, field = entry
        name = getattr(name, "__name__", name)  # also accept Flink's Sum/Min/Max classes
        name = str(name).lower()
        if name not in _AGGREGATIONS:
            raise ValueError(
                "unknown aggregation %r: expected one of %s" % (entry[0], ", ".join(_AGGREGATIONS))
            )
        result.append((name, int(field)))
    return tuple(result)


def _fold_sorted_groups(aggregations, records):
    """Fold records sorted by (key hash, input position) into one tuple per key.

    Within a run of equal hashes several keys may interleave (hash collisions); each key's
    records still arrive in input order, so the fold is exactly Aggregation.reduce over the
    group in input order.
    """
    run_hash = _NOTHING
    states = {}
    for (key_hash, _position), (key, element) in records:
        if key_hash != run_hash:
            for state in states.values():
                yield _finish(aggregations, state)
            states = {}
            run_hash = key_hash
        state = states.get(key)
        if state is None:
            # Tuple that will be filled in with aggregated values: the FIRST element.
            state = states[key] = [list(element), [_agg_init(name) for name, _ in aggregations]]
        accs = state[1]
        for i, (name, field) in enumerate(aggregations):
            accs[i] = _agg_step(name, accs[i], element[field])
    for state in states.values():
        yield _finish(aggregations, state)


def _finish(aggregations, state):
    item, accs = state
    for (name, field), acc in zip(aggregations, accs):
        item[field] = acc  # in order: the last aggregation on a field wins
    return tuple(item)


def aggregate(rdd, aggregations, key=None):
    """Flink's Python ``aggregate``: one tuple per group (or one for the whole RDD).

    Stands for ``DataSet/UnsortedGrouping.aggregate(Aggregation.X, field)``, its ``.and_agg``
    chain and the ``sum``/``min``/``max`` shortcuts, implemented in Flink by the Python
    ``AggregationFunction`` group-reduce.  ``aggregations`` is a list of ``(name, field)``
    with name ``"sum"``, ``"min"`` or ``"max"``; ``key`` is ``None`` (whole data set) or a
    function element -> key (one result per group).

    Semantics copied from ``flink/functions/Aggregation.py``: the result is the FIRST element
    of the group (here: lowest input position) converted to a list, each aggregated field
    overwritten in ``aggregations`` order (so with several aggregations on the same field
    the last one wins; each one still sees the original input values).  Sum starts at ``0``
    and does ``agg += value``; Min/Max start at ``None`` and replace only on a strict
    ``value < agg`` / ``value > agg`` (ties keep the value seen first, NaN compares false,
    a ``None`` before the first real value is skipped).  The values are folded sequentially
    in input order, so float sums round exactly as Flink's loop does.  An empty RDD gives an
    empty result.

    Spark has no equivalent: ``reduceByKey``/DataFrame aggregations do not carry the other
    fields of the group's first element (``F.first`` is arbitrary) and combine partial
    results in an unspecified order.  The shim is lazy (no Spark action): elements are
    tagged with ``(partition index, position)`` via ``mapPartitionsWithIndex`` (the order
    ``zipWithIndex`` would give, without its counting job), shuffled with
    ``repartitionAndSortWithinPartitions`` by key hash and sorted by position, and each
    group is folded in one streaming pass.  Returns an RDD of tuples.
    """
    aggs = _normalise_aggregations(aggregations)
    grouped = key is not None

    def tag(partition_index, iterator):
        if grouped:
            from pyspark.rdd import portable_hash

            for position, element in enumerate(iterator):
                k = key(element)
                yield (portable_hash(k), (partition_index, position)), (k, element)
        else:
            for position, element in enumerate(iterator):
                yield (0, (partition_index, position)), (None, element)

    num_partitions = max(1, rdd.getNumPartitions()) if grouped else 1
    return (
        rdd.mapPartitionsWithIndex(tag)
        .repartitionAndSortWithinPartitions(num_partitions, partitionFunc=_first_item)
        .mapPartitions(functools.partial(_fold_sorted_groups, aggs))
    )


def _first_item(pair):
    return pair[0]


# --------------------------------------------------------------------------------------------
# Runtime context and broadcast sets
# --------------------------------------------------------------------------------------------


class RuntimeContext(object):
    """``self.context`` of a converted user function.

    Stands for ``flink.functions.RuntimeContext.RuntimeContext``.  In Flink every Python
    function object gets a context whose ``get_broadcast_variable(name)`` returns a
    ``collections.deque`` with all elements of the data set registered with
    ``with_broadcast_set(name, ds)``, and ``get_index_of_this_subtask()`` the index of the
    parallel instance.  Spark functions have no context object: broadcast variables are
    explicit ``Broadcast`` handles and the partition id comes from ``TaskContext``.

    ``broadcast_variables`` maps names to ``pyspark.Broadcast`` objects (read lazily with
    ``.value`` where the function runs, i.e. on executors) or to plain sequences.  The deque
    is built once per deserialised context (once per Spark task, like Flink's once per task)
    and the same object is returned by later calls.
    """

    def __init__(self, broadcast_variables=None):
        self._broadcast_variables = dict(broadcast_variables or {})
        self._deques = {}

    def _add_broadcast_variable(self, name, var):
        self._broadcast_variables[name] = var
        self._deques.pop(name, None)

    def get_broadcast_variable(self, name):
        """A ``collections.deque`` of the elements of the broadcast set ``name``."""
        if name not in self._deques:
            var = self._broadcast_variables[name]  # KeyError for unknown names, as in Flink
            try:
                from pyspark.broadcast import Broadcast
            except ImportError:  # pragma: no cover
                Broadcast = ()
            data = var.value if isinstance(var, Broadcast) else var
            self._deques[name] = collections.deque(data)
        return self._deques[name]

    def get_index_of_this_subtask(self):
        """The Spark partition id of the running task (0 on the driver)."""
        try:
            from pyspark import TaskContext
        except ImportError:  # pragma: no cover
            return 0
        context = TaskContext.get()
        return 0 if context is None else context.partitionId()

    def __getstate__(self):
        # Ship only the broadcast handles, never deques materialised on the driver.
        return {"_broadcast_variables": self._broadcast_variables}

    def __setstate__(self, state):
        self._broadcast_variables = state["_broadcast_variables"]
        self._deques = {}


def with_broadcast_sets(function, sets):
    """Attach broadcast sets to a user function object and return it.

    Stands for Flink's ``operator.with_broadcast_set(name, data_set)`` (possibly chained),
    which makes ``data_set`` readable inside the operator's function through
    ``self.context.get_broadcast_variable(name)``.  Spark has no per-operator broadcast
    inputs: each RDD in ``sets`` (name -> RDD) is collected (an action, in input order) and
    broadcast with ``SparkContext.broadcast``; ``function.context`` becomes a
    :class:`RuntimeContext` holding the handles, which pickles into the task closure and
    reads ``.value`` lazily on the executors.  Calling this again on the same object adds
    the new sets to the same context.  Values that are not RDDs are stored as plain lists.
    """
    context = getattr(function, "context", None)
    if not isinstance(context, RuntimeContext):
        context = RuntimeContext()
    for name, data in dict(sets).items():
        if hasattr(data, "collect") and hasattr(data, "context"):
            value = data.context.broadcast(data.collect())
        else:
            value = list(data)
        context._add_broadcast_variable(name, value)
    function.context = context
    return function
