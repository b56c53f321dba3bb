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
``RuntimeContext(broadcast_variables=None)``
    ``self.context`` of a user function (broadcast sets, subtask index).
``with_broadcast_sets(function, sets)``
    ``with_broadcast_set(name, data_set)`` on an operator.

Constants from ``flink.plan.Constants`` (the converter rewrites leftover references to them)
----------------------------------------------------------------------------------------------
``WriteMode`` (``NO_OVERWRITE`` = 0, ``OVERWRITE`` = 1; also module-level ``NO_OVERWRITE`` /
``OVERWRITE``), ``Order`` (``NONE``, ``ASCENDING``, ``DESCENDING``, ``ANY``). The ``read_csv``
field types become Spark DDL type names in the converted program (``INT`` -> ``"BIGINT"``).
"""

import collections
import collections.abc
import functools
import os
import sys
import uuid

__all__ = [
    "NO_OVERWRITE",
    "OVERWRITE",
    "WriteMode",
    "Order",
    "stringify",
    "csv_stringify",
    "output",
    "write_text",
    "write_csv",
    "FlinkIterator",
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
