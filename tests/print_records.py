"""Records from what a DataSet or a Kafka (Structured Streaming) PyFlink program and its Spark
conversion print: the harnesses of ``tests/test_fixtures.py`` and
``tests/test_pyflink_streaming.py`` compare these, never the print format.

A record is a tuple of value texts, each passed through ``table_output.normalise_value``.

Flink's lines
-------------
* DataSet ``output()`` (``flink_dataset_records``): Flink's ``Stringify``: a tuple is
  ``(a, 1, (b, 2.5))`` (fields joined by ``", "``, strings unquoted, a 1-tuple ``(5)``), anything
  else ``str(value)`` (one field).
* DataStream ``print()`` (``flink_stream_records``): an optional ``name> `` prefix (the sink's
  identifier, kept: records are compared per sink), then a PyFlink Row ``+I[a,1]``, a Java
  ``Tuple.toString`` ``(a,1)``, Python's ``str()`` of an untyped (pickled) value (``('a', 1)``),
  or a basic value (Java's ``toString``: ``2.5``, ``1.0E10``, ``true``, ``null``).

Spark's lines (``spark_print_records``)
----------------------------------------
``print(record)`` of a Python tuple or list (``('a', 1)``), of a Spark ``Row(w='a', n=1)``
(values only), ``DataFrame.show()`` boxes (one record per row), each with an optional ``name> ``
prefix when the harness reads per sink; any other line is read with the Flink grammar above, as
lines a program formats itself print the same on both engines. Python values become Java's
texts in the stream form (``None`` -> ``null``, ``True`` -> ``true``, floats by
``java_double``) and Flink Python's ``str()`` in the DataSet form (where Flink prints from Python).

A string holding ``", "`` (DataSet) or ``","`` (a stream's Row or Tuple) cannot be told from
two fields on Flink's side: fixtures avoid such strings.
"""

from __future__ import annotations

import ast
import re
from collections import Counter

from table_output import _boxes, _split_fields, java_double, normalise_value

Record = tuple[str, ...]

_PREFIX = re.compile(r"^(?P<prefix>[^\s\[\](){}<>'\"]+)> (?P<body>.*)$")
_FLINK_ROW = re.compile(r"^[+-][IUD]\[(?P<body>.*)\]$")
_SPARK_ROW = re.compile(r"^Row\((?P<body>.*)\)$|^<Row\((?P<values>.*)\)>$")  # Spark's Row; PyFlink's unnamed Row


def _python_value(value, java: bool) -> str:
    """A Python value as the engines' texts: Stringify (``java=False``: Flink's DataSet prints
    from Python) or Java's ``toString`` (``java=True``: a typed stream's Java print sink)."""
    if isinstance(value, (tuple, list)):
        return "(" + ", ".join(_python_value(v, java) for v in value) + ")"
    if java:
        if value is None:
            return "null"
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, float):
            return java_double(value)
    return str(value)


def _literal(text: str, scalars: bool = False):
    """A Python tuple/list literal (``('a', 1)``) or a Spark ``Row(...)``'s values, else None;
    with ``scalars``, a number, bool or None as a one-value list too."""
    m = _SPARK_ROW.match(text)
    try:
        if m:
            call = ast.parse(f"f({m['body'] if m['body'] is not None else m['values']})", mode="eval").body
            return [ast.literal_eval(a) for a in call.args] + [ast.literal_eval(k.value) for k in call.keywords]
        value = ast.literal_eval(text)
    except (SyntaxError, ValueError, TypeError, MemoryError, RecursionError):
        return None
    if isinstance(value, (tuple, list)):
        return list(value)
    return [value] if scalars and (value is None or isinstance(value, (int, float))) else None


def _stringify_record(line: str) -> Record:
    """One DataSet line of Flink's Stringify: ``(a, 1)`` -> ``('a', '1')``, else one field."""
    if len(line) >= 2 and line[0] == "(" and line[-1] == ")":
        return tuple(normalise_value(v) for v in _split_fields(line[1:-1]))
    return (line,)


def _stream_body(body: str) -> Record:
    """One DataStream print body on Flink (see the module docstring) as a record."""
    m = _FLINK_ROW.match(body)
    if m:
        return tuple(normalise_value(v) for v in _split_fields(m["body"], sep=","))
    values = _literal(body, scalars=True)  # an untyped stream: Python's str() of a tuple; numbers
    if values is not None:
        return tuple(normalise_value(_python_value(v, True)) for v in values)
    if len(body) >= 2 and body[0] == "(" and body[-1] == ")":  # Java Tuple.toString: (a,1)
        return tuple(normalise_value(v) for v in _split_fields(body[1:-1], sep=","))
    return (normalise_value(body),)


def _lines(stdout: str) -> list[str]:
    return [line.rstrip() for line in stdout.splitlines()]


def flink_dataset_records(stdout: str) -> list[Record]:
    """The records of a DataSet program's stdout on Flink, in order (blank lines skipped)."""
    return [_stringify_record(line) for line in _lines(stdout) if line.strip()]


def flink_stream_records(stdout: str) -> Counter:
    """(sink, record) pairs of a PyFlink program's print lines on Flink (sink: the identifier or '')."""
    records: Counter = Counter()
    for line in _lines(stdout):
        if line.strip():
            sink, body = _split_prefix(line)
            records[(sink, _stream_body(body))] += 1
    return records


def _split_prefix(line: str) -> tuple[str, str]:
    m = _PREFIX.match(line)
    return (m["prefix"], m["body"]) if m else ("", line)


def spark_print_records(stdout: str, stream: bool = False) -> list:
    """The records a Spark program printed, in order: ``print(record)`` of tuples, lists and
    Rows, ``show()`` boxes, other lines read as Flink's (see the module docstring). With
    ``stream``, (sink, record) pairs of lines with an optional ``name> `` prefix."""
    lines = _lines(stdout)
    records: list = []
    for start, _end, border, _header, rows in _boxes(lines):
        if border:
            records.extend((("", tuple(normalise_value(c) for c in row)) if stream else tuple(normalise_value(c) for c in row)) for row in rows)
            continue
        line = lines[start]
        if not line.strip():
            continue
        sink, body = _split_prefix(line) if stream else ("", line)
        values = _literal(body, scalars=stream)
        if values is not None:
            record = tuple(normalise_value(_python_value(v, stream)) for v in values)
        else:
            record = _stream_body(body) if stream else _stringify_record(body)
        records.append((sink, record) if stream else record)
    return records


def delimited_records(text: str, sep: str, spark: bool) -> list[Record]:
    """The records of a ``write_csv`` file: each line's fields split at ``sep``; Flink wrote each
    field with Stringify (``(a, 1)``), the Spark conversion with Python's ``str()`` (``('a', 1)``)."""
    records = []
    for line in _lines(text):
        if not line:
            continue
        fields = []
        for field in line.split(sep):
            values = _literal(field) if spark else None
            fields.append(normalise_value(_python_value(tuple(values), False) if values is not None else field))
        records.append(tuple(fields))
    return records
