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


# --- Python's forms of records ----------------------------------------------------------------
#
# A converted stream kept as an RDD prints its records as Spark's RDD idiom does:
# ``for record in rdd.collect(): print(record)``, Python's ``str()`` of each record: a tuple
# ``('a', 1, Decimal('1.50'), datetime.date(2024, 1, 31))``, a Row ``Row(id=1, name='a')`` (a
# PyFlink Row without names: ``<Row(1, 'a')>``), a dict, a list, bytes ``b'\x01'``, an
# ``Instant<1706695200, 0>``, a float ``1.100000023841858``, a string as it is. Flink printed the
# same records in its per-type format (see ``table_output.stream_line_record``): a Row's fields
# by Python's ``str()`` (``+I[1,a,1.50,2024-01-31]``), a Java tuple ``(a,1)``, Java's toString
# of basic values (``1.1`` for a FLOAT, ``true``, ``null``), Python's ``str()`` of a pickled
# value. ``python_record`` reads Python's forms into the values' texts that Flink's forms
# normalise to, so records compare as values:
#
# * None, True, 1e-05 -> ``NULL``, ``true``, ``1.0E-5`` (Java's texts, as Flink prints them);
# * a float that a 32-bit float holds exactly is written with the fewest digits that give that
#   32-bit float back (Java's ``Float.toString``): a ``Types.FLOAT()`` value prints ``1.1`` on
#   Flink's Java sink and ``1.100000023841858`` (the same 32-bit value, widened) in Python.
#   Two doubles closer than a 32-bit float's precision whose one is a 32-bit float then read
#   alike; a wrong value beyond that precision still fails;
# * Decimal('1.50') -> ``1.50``; dates and datetimes as ``str()`` (``2024-01-31``,
#   ``2024-01-31 10:00:05.123000``, whose fraction ``normalise_value`` trims); a time without
#   its fraction (``10:00:05``: Java's ``Time.toString`` drops it, so Flink's records do not
#   show it; PyFlink's Row prints ``10:00:05.123000``, read alike);
# * a tuple or Row nested in a record -> ``(a, 1)``, a list ``[a, 1]``, a dict ``{k -> v}`` with
#   its entries sorted (Flink prints Java HashMap order), bytes as Java prints a byte[]: signed
#   numbers ``[1, -1]`` (PyFlink's Row prints them ``b'\x01\xff'``, read alike; a list of the
#   same numbers reads alike too);
# * at the top: a tuple or Row is a record of its fields, any other value a one-field record;
#   a line ending in ``,)`` is Java's tuple with an empty last string (``(103,)``), not
#   Python's 1-tuple (Flink prints a Tuple1 ``(103)``, read as the value 103, as Python's
#   ``(103,)`` would be).

import datetime as _datetime  # noqa: E402
import struct as _struct  # noqa: E402
from decimal import Decimal as _Decimal  # noqa: E402

_ROW_OPEN = re.compile(r"<Row\(")
_INSTANT = re.compile(r"Instant<(-?\d+), (\d+)>")
# a float as Java (1.5, 1.0E-5) or Python (1e-05, 1.5e+20) prints it; not a decimal's text
# (5.00, 1E+2: trailing zeros, an upper-case E with a sign)
_JAVA_FLOAT = re.compile(r"^-?(?:\d+\.(?:0|\d*[1-9])(?:E-?\d+)?|\d+(?:\.\d*[1-9])?e[+-]\d+|NaN|Infinity|nan|inf)$")
_TIME = re.compile(r"^\d\d:\d\d:\d\d(?:\.\d{1,6})?$")
_CALLS = {"Decimal": _Decimal, "date": _datetime.date, "datetime": _datetime.datetime, "time": _datetime.time}


class _Row(tuple):
    """A Row read from its ``repr`` (Spark's or PyFlink's): its values in field order."""


class _Instant(tuple):
    """PyFlink's ``Instant<seconds, nanos>``."""


def _evaluate(node: ast.AST):
    """The value of a Python form's syntax tree (literals, Row, Decimal, datetime values,
    Instant); ValueError for anything else (a name, another call)."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, (ast.Tuple, ast.List)):
        values = [_evaluate(e) for e in node.elts]
        return tuple(values) if isinstance(node, ast.Tuple) else values
    if isinstance(node, ast.Dict) and None not in node.keys:
        return {_evaluate(k): _evaluate(v) for k, v in zip(node.keys, node.values)}  # type: ignore[arg-type]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        value = _evaluate(node.operand)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.Name) and node.id in ("nan", "inf"):
        return float(node.id)
    if isinstance(node, ast.Call):
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in ("datetime", "decimal") else func.id if isinstance(func, ast.Name) else None
        args = [_evaluate(a) for a in node.args]
        if name == "Row" and not (args and node.keywords):
            return _Row(args or [_evaluate(k.value) for k in node.keywords])
        if name == "Instant" and len(args) == 2 and not node.keywords:
            return _Instant(args)
        if name in _CALLS and not node.keywords:
            try:
                return _CALLS[name](*args)
            except (TypeError, ValueError, ArithmeticError) as e:
                raise ValueError(str(e)) from e
    raise ValueError(f"not a value: {ast.dump(node)[:60]}")


def _read_python(text: str):
    """The value a Python form prints as (see above); ValueError when ``text`` is not one."""
    text = _INSTANT.sub(r"Instant(\1, \2)", _ROW_OPEN.sub("Row(", text))
    if text != text.strip() or not text:
        raise ValueError("not a value")
    text = re.sub(r"\)>", ")", text) if "Row(" in text else text
    try:
        tree = ast.parse(text, mode="eval").body
    except (SyntaxError, ValueError, MemoryError, RecursionError) as e:
        raise ValueError(str(e)) from e
    return _evaluate(tree)


def _float32(x: float) -> float:
    return _struct.unpack("f", _struct.pack("f", x))[0]


def float_text(x: float) -> str:
    """A float's text as Java prints it; a 32-bit float's with its 32-bit digits (see above)."""
    if x == x and abs(x) not in (float("inf"),) and x != 0:
        try:
            narrow = _float32(x)
        except OverflowError:
            narrow = None
        if narrow == x:
            for precision in range(1, 10):
                shortest = float("%.*e" % (precision - 1, x))
                if _float32(shortest) == x:
                    return java_double(shortest)
    return java_double(x)


def value_text(value) -> str:
    """A Python value's canonical text (see above), nested values included."""
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return float_text(value)
    if isinstance(value, _Instant):
        return "Instant<%d, %d>" % value
    if isinstance(value, tuple):  # a tuple or a Row
        return "(" + ", ".join(value_text(v) for v in value) + ")"
    if isinstance(value, list):
        return "[" + ", ".join(value_text(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(sorted(f"{value_text(k)} -> {value_text(v)}" for k, v in value.items())) + "}"
    if isinstance(value, (bytes, bytearray)):  # Java's byte[]: signed numbers
        return "[" + ", ".join(str(b - 256 if b > 127 else b) for b in value) + "]"
    if isinstance(value, _datetime.time):  # java.sql.Time.toString: no fraction
        return value.strftime("%H:%M:%S")
    if isinstance(value, _datetime.date) and not isinstance(value, _datetime.datetime):
        return value.isoformat()
    return normalise_value(str(value))


def python_record(text: str) -> Record | None:
    """The record of one line in one of Python's forms (see above), or None for another line
    (a line a program formats itself, Flink's ``+I[...]``, a Java tuple ``(a,1)``...)."""
    if text.endswith(",)"):  # Java's tuple with an empty last string, (103,): not a 1-tuple
        return None
    try:
        value = _read_python(text)
    except ValueError:
        return None
    if isinstance(value, str):
        return None  # a quoted string: not what print() writes for a string
    if isinstance(value, tuple) and not isinstance(value, _Instant):
        return tuple(value_text(v) for v in value)
    return (value_text(value),)


def _python_fields(body: str) -> list[str]:
    """The fields of a PyFlink ``+I[...]`` line's body: Python's ``str()`` of each, joined with
    ``,``. Split at top-level commas, quotes of bytes and of strings in containers skipped."""
    fields, depth, start, i = [], 0, 0, 0
    while i < len(body):
        ch = body[i]
        at_start = i == start or (i == start + 1 and body[start] == "b")
        if i == start and body.startswith("Instant<", i) and ">" in body[i:]:  # Instant<s, n>
            i = body.index(">", i)
        elif ch in "'\"" and (depth > 0 or at_start):
            i += 1
            while i < len(body) and body[i] != ch:
                i += 2 if body[i] == "\\" else 1
        elif ch in "[({":
            depth += 1
        elif ch in "])}":
            depth = max(0, depth - 1)
        elif ch == "," and depth == 0:
            fields.append(body[start:i])
            start = i + 1
        i += 1
    fields.append(body[start:])
    return fields


def field_text(text: str) -> str:
    """One field of Flink's print line (a Row's Python ``str()``, a Java tuple's toString) as
    ``value_text`` writes the value: containers, bytes and Rows read as Python's forms, None,
    True and floats as Java's, anything else through ``normalise_value``."""
    text = text.strip()
    if text[:1] in "[({<" or text[:2] in ("b'", 'b"') or text.startswith(("Row(", "Instant<")):
        try:
            return value_text(_read_python(text))
        except ValueError:
            pass
    if len(text) >= 2 and text[0] == "(" and text[-1] == ")":  # a nested Java tuple: (s2,3)
        return "(" + ", ".join(field_text(f) for f in _split_fields(text[1:-1], sep=",")) + ")"
    if text in ("None", "null"):
        return "NULL"
    if text in ("True", "False", "true", "false"):
        return text.lower()
    if _JAVA_FLOAT.match(text):
        return float_text(float(text))
    if _TIME.match(text):  # a time's str() in a PyFlink Row: as java.sql.Time prints it
        return text[:8]
    return normalise_value(text)


def flink_row_record(body: str) -> Record:
    """The record of a PyFlink ``+I[...]`` line's body (``_python_fields``, ``field_text``)."""
    return tuple(field_text(f) for f in _python_fields(body))


def cell_text(text: str) -> str:
    """A ``show()`` box cell as ``field_text`` writes a value: a float with ``float_text``; a
    TIME (``20:30:15.25``) without its fraction, as ``field_text`` reads Flink's times."""
    if _TIME.match(text.strip()):
        return text.strip()[:8]
    return float_text(float(text)) if _JAVA_FLOAT.match(text.strip()) else normalise_value(text)
