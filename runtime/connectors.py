"""Runtime shim for PyFlink file sinks in converted programs (imported as ``f2s_io``).

Spark's writers name their part files ``part-00000-<uuid>-c000.txt`` and leave ``_SUCCESS``
markers; Flink's ``FileSink``/``StreamingFileSink`` with a row format write
``<base path>/<bucket>/<prefix>-<uuid>-<n><suffix>``, one line per record. Programs (and
downstream jobs) that read those files by folder or name pattern need Flink's layout, which
no Spark option gives: this module writes it.

Public API
----------
``write_rows(stream, base_path, type_info, part_prefix="part", part_suffix="", bucket=None)``
    ``FileSink.for_row_format(base_path, Encoder.simple_string_encoder())`` as the sink of
    ``stream`` (an RDD): every element as Java's ``toString`` of its Flink type (strings as
    they are), UTF-8, ``\\n`` after each. Spark writes the lines (``RDD.saveAsTextFile``, any
    Hadoop file system) to a hidden in-progress folder; the non-empty part files are then
    moved to ``<base_path>/<bucket>/<part_prefix>-<uuid>-<n><part_suffix>`` and the rest is
    deleted. One part file per non-empty Spark partition (Flink: one per subtask and roll).
    ``part_names="subtask"``: ``StreamingFileSink``'s names, ``<prefix>-<subtask>-<counter><suffix>``.
``date_time_bucket(format_str="yyyy-MM-dd--HH", timezone_id=None) -> str``
    The folder ``BucketAssigner.date_time_bucket_assigner`` gives a record written now.
``java_time_format(format_str) -> str``
    A ``DateTimeFormatter`` pattern as a ``strftime`` format (ValueError when it uses a field
    other than years, months, days, hours, minutes, seconds).

Depends on pyspark (passed in) and the datastream shim's formatting only.
"""

from __future__ import annotations

import datetime
import re
import uuid

from flink2spark.runtime.datastream import _check_supported, _java_str

__all__ = ["write_rows", "date_time_bucket", "java_time_format"]

_FIELDS = {"yyyy": "%Y", "uuuu": "%Y", "yy": "%y", "MM": "%m", "dd": "%d", "HH": "%H", "mm": "%M", "ss": "%S"}
_TOKEN = re.compile(r"'(?:[^']|'')*'|([A-Za-z])\1*|[^A-Za-z']+")


def java_time_format(format_str):
    """``yyyy-MM-dd--HH`` -> ``%Y-%m-%d--%H`` (quoted text kept as it is)."""
    out = []
    for m in _TOKEN.finditer(format_str):
        token = m.group(0)
        if token.startswith("'"):
            out.append(token[1:-1].replace("''", "'").replace("%", "%%") if len(token) > 2 else "'")
        elif token[0].isalpha():
            if token not in _FIELDS:
                raise ValueError("date-time bucket pattern field %r has no strftime counterpart" % token)
            out.append(_FIELDS[token])
        else:
            out.append(token.replace("%", "%%"))
    return "".join(out)


def date_time_bucket(format_str="yyyy-MM-dd--HH", timezone_id=None):
    """The bucket folder of ``DateTimeBucketAssigner`` for the current time (the JVM's time
    zone, i.e. the local one, unless ``timezone_id`` names another)."""
    if timezone_id is None:
        now = datetime.datetime.now()
    else:
        from zoneinfo import ZoneInfo

        now = datetime.datetime.now(ZoneInfo(timezone_id))
    return now.strftime(java_time_format(format_str))


def _encoder(type_info):
    if type_info is None or type_info.kind == "PICKLED_BYTE_ARRAY":
        raise TypeError("a FileSink of pickled values writes Java byte arrays; give the stream an output_type")
    _check_supported(type_info)
    if type_info.kind == "STRING":
        return lambda value: value
    return lambda value: _java_str(value, type_info)


def write_rows(stream, base_path, type_info, part_prefix="part", part_suffix="", bucket=None, part_names="uuid"):
    """Write ``stream`` as ``FileSink.for_row_format(base_path, simple_string_encoder())``.

    ``part_names="subtask"`` names the parts as ``StreamingFileSink`` does,
    ``<prefix>-<subtask>-<counter><suffix>`` (the n-th non-empty partition as subtask n)."""
    encode = _encoder(type_info)
    _write_parts(stream.context, lambda target: stream.map(encode).saveAsTextFile(target), base_path, part_prefix, part_suffix, bucket, part_names)


def _write_parts(sc, write, base_path, part_prefix, part_suffix, bucket, part_names):
    """``write(folder)`` into a hidden in-progress folder, then its non-empty part files moved
    to ``base_path[/bucket]`` under Flink's names."""
    if part_names not in ("uuid", "subtask"):
        raise ValueError("part_names must be 'uuid' or 'subtask', not %r" % (part_names,))
    jvm = sc._jvm
    hadoop_path = jvm.org.apache.hadoop.fs.Path
    folder = base_path.rstrip("/") + ("/" + bucket if bucket else "")
    run = str(uuid.uuid4())
    in_progress = "%s/.%s-%s.inprogress" % (folder, part_prefix, run)
    write(in_progress)
    fs = hadoop_path(folder).getFileSystem(sc._jsc.hadoopConfiguration())
    try:  # a local file system keeps .crc files beside the data: move the data alone
        mover = fs.getRawFileSystem()
    except Exception:  # noqa: BLE001 - py4j: no such method on this file system
        mover = fs
    parts = [s for s in fs.listStatus(hadoop_path(in_progress)) if s.getPath().getName().startswith("part-") and s.getLen() > 0]
    parts.sort(key=lambda s: s.getPath().getName())
    for n, status in enumerate(parts):
        name = "%s-%s-%d%s" % (part_prefix, run, n, part_suffix) if part_names == "uuid" else "%s-%d-0%s" % (part_prefix, n, part_suffix)
        target = hadoop_path(folder, name)
        if not mover.rename(status.getPath(), target):
            raise IOError("could not move %s to %s" % (status.getPath().toString(), target.toString()))
    fs.delete(hadoop_path(in_progress), True)
