"""Records from what a PyFlink Table API / SQL program and its Spark conversion print.

The conversion tests run a fixture of fixtures/table/ on Flink (its recorded stdout is
``expected_stdout.txt``, raw) and the converted program on Spark, and compare
``flink_records(flink stdout) == spark_records(spark stdout)``: two multisets (``Counter``) of
records, a record being a tuple of value texts, each passed through ``normalise_value``.
Row order is never compared (every fixture is ``"ordered": false``).

Flink's outputs (``flink_records``)
------------------------------------
Tableau boxes of ``TableResult.print()`` (``execute().print()``, ``execute_sql(...).print()``)::

    +----+--------------------------------+----------------------+
    | op |                           word |                  cnt |
    +----+--------------------------------+----------------------+
    | +I |                             to |                    1 |
    | -U |                             to |                    1 |
    | +U |                             to |                    2 |
    +----+--------------------------------+----------------------+
    3 rows in set

    (A streaming query's box, stopped while it prints, has no closing border: its rows up to
    the end of the output are read.)  The cells are cut at the ``+`` positions of the border line and stripped (values are
    right-aligned).  The header row and the ``N row(s) in set`` / ``Empty set`` lines are
    skipped.  A box whose first header cell is ``op`` (streaming mode) is a changelog and is
    FOLDED into its final table: ``+I`` and ``+U`` add the row, ``-U`` and ``-D`` remove one
    equal row; a removal of a row that is not there raises ``ChangelogError``.  Each box is
    folded on its own, then the boxes' rows are added up.
    Flink cuts a cell longer than 30 characters to 27 + ``...``: fixtures keep values short.

Print connector lines ``+I[a, 1]`` (Java ``Row.toString``) and DataStream ``print()`` lines of
PyFlink rows (``to_data_stream`` / ``to_changelog_stream``): ``+I[a,1]``, the fields joined by
``,`` without a space after Python's ``str()`` of each value), with an optional ``N> ``,
``name> `` or ``name:N> `` prefix.  The fields are split at top-level ``, `` (outside
brackets), or, when there is none but there is a top-level ``,``, at ``,`` (the DataStream
form; its Python texts ``None``, ``True``/``False`` and floats such as ``1e-05`` or ``12345678.0``
are turned into the Java texts first: ``null``, ``true``, ``1.0E-5``, ``1.2345678E7``).  The
lines of one sink (prefix name, subtask number dropped) are folded like a changelog box
(``-U``/``-D`` remove one equal row).  A string value holding ``, `` (or ``,`` in the
DataStream form) cannot be told from two fields: fixtures avoid such strings.  A retract
stream's lines ``(true,+I[a, 1])`` / ``(false,-U[a, 1])`` (1.x ``to_retract_stream``, Flink 2.3)
are folded per sink too: ``true`` adds the row, ``false`` removes one equal row; the records
are the rows left.

A ``print(row)`` of a Row of ``collect()`` (a whole line): PyFlink 2.3 prints it as
``<Row('a', 1, None, 2.5)>`` (``Row.__repr__`` of a row without field names, which is what
``TableResult.collect()`` gives; Flink 2.3 run, tests/test_table_output.py), Spark as
``Row(word='a', n=1, s=None, d=2.5)``.  Both are read as one record: the Python texts of the
values (``'a'``, ``1``, ``None``, ``2.5``: Python's ``repr`` on both engines, for the same
Python types), split as Python arguments (a string holding ``, `` stays one value), the
field names dropped.  Such records are not normalised and are never equal to a box's
(``'a'`` is not ``a``): the rows a program collects and prints compare with the rows its
conversion collects and prints.

Every other non-blank line (``print(...)`` in the program: formatted lines of collected rows,
a pandas frame of ``to_pandas()``) is a one-field record holding the line without trailing
whitespace and NOT normalised (Python prints those on both engines).

Spark's outputs (``spark_records``)
-----------------------------------
``DataFrame.show()`` boxes (``+---+`` borders, ``|a  |b  |`` cells: left-aligned with
``truncate=False``, right-aligned otherwise); cut at the border's ``+`` and stripped; the
header row and ``only showing top N rows`` are skipped.  ``show()``'s default truncation (20
characters, ``...``) is not undone: converted programs use ``truncate=False``.  DataStream
``print()`` lines of a converted stream (``f2s.print`` writes Flink's ``[name> ]+I[a,1]``: a
Table turned into a stream) are read and folded per sink as Flink's.  Other lines are one-field
records as above.

Values (``normalise_value``): see its docstring; each rule was found by printing the same
values on Flink 2.3 and Spark 4 (evidence: tests/test_table_output.py).
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from decimal import Decimal

Record = tuple[str, ...]

_BORDER = re.compile(r"^\+(?:-+\+)+$")
_ROW_COUNT = re.compile(r"^(?:\d+ rows? in set|Empty set)$")
_SHOWING = re.compile(r"^only showing top \d+ rows?$")
# [prefix> ]<kind>[fields]; prefix = name, N, or name:N (Java PrintSinkOutputWriter)
_PRINT_LINE = re.compile(r"^(?:(?P<prefix>[^\[\](){}<>\n]*?)> )?(?P<kind>[+-][IUD])\[(?P<body>.*)\]$")
_SUBTASK = re.compile(r"(?:^|:)\d+$")
# a retract stream's print line (1.x to_retract_stream): ``[prefix> ](true,+I[a, 1])``, ``(false,-U[a, 1])``
_RETRACT_LINE = re.compile(r"^(?:(?P<prefix>[^\[\](){}<>\n]*?)> )?\((?P<flag>true|false),(?P<kind>[+-][IUD])\[(?P<body>.*)\]\)$")

ADD = ("+I", "+U")
REMOVE = ("-U", "-D")


class ChangelogError(ValueError):
    """A -U/-D row that removes a row the changelog never added."""


def _fold(changes: Iterable[tuple[str, Record]], where: str) -> Counter:
    table: Counter = Counter()
    for kind, record in changes:
        if kind in ADD:
            table[record] += 1
        elif kind in REMOVE:
            if table[record] <= 0:
                raise ChangelogError(f"{where}: {kind} of {record!r}, a row that is not in the table")
            table[record] -= 1
        else:
            raise ChangelogError(f"{where}: unknown row kind {kind!r}")
    return +table


def _cells(line: str, border: str) -> list[str]:
    """The cells of a box row, cut at the positions of the border's ``+``.

    Both engines pad wide characters (CJK) by display width, so such a row is shorter than
    its border: it is split at ``|`` instead.
    """
    if len(line) != len(border):
        return [cell.strip() for cell in line[1:-1].split("|")]
    cuts = [i for i, ch in enumerate(border) if ch == "+"]
    return [line[a + 1 : b].strip() for a, b in zip(cuts, cuts[1:])]


def _is_row(line: str, border: str) -> bool:
    return line.startswith("|") and line.endswith("|") and len(line) <= len(border)


def _boxes(lines: list[str]) -> Iterator[tuple[int, int, str, list[str], list[list[str]]]]:
    """(first line, line after, border, header cells, row cells) of each box in ``lines``.

    A box is border, header row, border, rows, border (Flink's and Spark's boxes alike); rows
    that run to the end of the output with no closing border are a box too: Flink's print of a
    streaming query closes its box only when the query ends, and a reference run of an endless
    query is stopped while it prints.
    """
    i = 0
    while i < len(lines):
        line = lines[i]
        if _BORDER.match(line) and i + 2 < len(lines) and lines[i + 2] == line and _is_row(lines[i + 1], line):
            header = _cells(lines[i + 1], line)
            rows = []
            j = i + 3
            while j < len(lines) and lines[j] != line:
                if not _is_row(lines[j], line):
                    break
                rows.append(_cells(lines[j], line))
                j += 1
            if j == len(lines) or lines[j] == line:
                yield i, j + 1, line, header, rows
                i = j + 1
                continue
        yield i, i + 1, "", [], []  # not a box: one plain line
        i += 1


def _split_fields(body: str, sep: str = ", ") -> list[str]:
    """``a, [1, 2], +I[x, y]`` -> ``['a', '[1, 2]', '+I[x, y]']`` (split at top-level ``sep``)."""
    if body == "":
        return []
    fields, depth, start = [], 0, 0
    for i, ch in enumerate(body):
        if ch in "[({":
            depth += 1
        elif ch in "])}":
            depth = max(0, depth - 1)
        elif ch == "," and depth == 0 and body.startswith(sep, i):
            fields.append(body[start:i])
            start = i + len(sep)
    fields.append(body[start:])
    return fields


def _print_fields(body: str) -> list[str]:
    """Fields of a print line's ``[...]``: Java ``a, 1`` or PyFlink DataStream ``a,1`` (see above)."""
    fields = _split_fields(body)
    if len(fields) == 1:
        python_fields = _split_fields(body, sep=",")
        if len(python_fields) > 1:
            return [_java_text(f) for f in python_fields]
    return fields


_PY_FLOAT = re.compile(r"^-?(?:\d+\.\d+(?:e[+-]\d+)?|\d+e[+-]\d+|inf|nan)$")
_PY_TEXTS = {"None": "null", "True": "true", "False": "false"}


def _java_text(value: str) -> str:
    """Python's ``str()`` of a None, bool or float as Java (and Flink SQL) prints it."""
    if value in _PY_TEXTS:
        return _PY_TEXTS[value]
    if _PY_FLOAT.match(value):
        return java_double(float(value))
    return value


def java_double(x: float) -> str:
    """Java ``Double.toString``: plain from 1e-3 up to (not including) 1e7, else ``d.dddE±n``.

    The digits are Python's shortest round-trip digits (``repr``), as Java's for the values
    in the fixtures: ``1.0E-5``, ``0.001``, ``1.2345678E7``, ``1260.0``.
    """
    if x != x:
        return "NaN"
    if x in (float("inf"), float("-inf")):
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0:
        return "-0.0" if str(x).startswith("-") else "0.0"
    sign = "-" if x < 0 else ""
    digits, exponent = _shortest_digits(abs(x))
    if 1e-3 <= abs(x) < 1e7:
        point = exponent + 1  # digits before the decimal point
        if point <= 0:
            return f"{sign}0.{'0' * -point}{digits}"
        whole = (digits + "0" * point)[:point]
        frac = digits[point:] or "0"
        return f"{sign}{whole}.{frac}"
    return f"{sign}{digits[0]}.{digits[1:] or '0'}E{exponent}"


def _shortest_digits(x: float) -> tuple[str, int]:
    """(significant digits, decimal exponent of the first digit) of ``repr(x)``, x > 0."""
    _sign, digits, exp = Decimal(repr(x)).normalize().as_tuple()
    text = "".join(map(str, digits))
    return text, len(text) - 1 + exp


def flink_records(stdout: str) -> Counter:
    """Records of a Flink program's stdout (see the module docstring), changelogs folded.

    Tableau boxes -> one record per row (the ``op`` column, if any, folded away); print
    connector lines ``[prefix> ]+I[...]`` -> one record per row, folded per sink; other
    non-blank lines -> one-field records, unnormalised.  Raises ``ChangelogError`` for a
    ``-U``/``-D`` whose row was never added.
    """
    lines = [line.rstrip() for line in stdout.splitlines()]
    records: Counter = Counter()
    sinks: dict[str, list[tuple[str, Record]]] = {}
    for start, _end, border, header, rows in _boxes(lines):
        if border:
            values = [tuple(normalise_value(c) for c in row) for row in rows]
            if header and header[0] == "op":
                changes = [(row[0], value[1:]) for row, value in zip(rows, values)]
                records += _fold(changes, f"tableau box at line {start + 1}")
            else:
                records.update(values)
            continue
        line = lines[start]
        if not line.strip() or _ROW_COUNT.match(line):
            continue
        if not _print_line(line, sinks):
            records[_row_record(line, _FLINK_ROW) or _stream_print_record(line) or (line,)] += 1
    return records + _folded_sinks(sinks)


def fixture_records(fixture) -> Counter:
    """``flink_records`` of a table fixture's ``expected_stdout.txt``, less the lines Flink prints
    for ``execute_sql("INSERT ...").print()``: ``-1`` (the affected-row count, job metadata, once
    the job ends) that the converted write does not print (NOTE F2S328). fixture.json
    ``insert_result_lines`` says how many there are; a count that differs fails."""
    import json

    records = flink_records((fixture / "expected_stdout.txt").read_text())
    printed = json.loads((fixture / "fixture.json").read_text()).get("insert_result_lines", 0)
    assert records[("-1",)] == printed, f"Flink printed -1 {records[('-1',)]} times, fixture.json says {printed}"
    return records - Counter({("-1",): printed})


_STREAM_PRINT = re.compile(r"^(?P<sink>[A-Za-z_][\w.-]*)> (?P<body>.*)$")


def _stream_print_record(line: str) -> Record | None:
    """A DataStream ``print(identifier)`` line of a program that turns a Table into a
    DataStream (``name> `` then a record in Flink's or, converted, Python's form: see
    ``stream_line_record``) as ``("name>", *fields)``; None for another line."""
    m = _STREAM_PRINT.match(line)
    return (f"{m['sink']}>", *stream_line_record(m["body"])) if m else None


_FLINK_ROW = re.compile(r"^<Row\((?P<body>.*)\)>$")
_SPARK_ROW = re.compile(r"^Row\((?P<body>.*)\)$")


def _row_record(line: str, form: re.Pattern) -> Record | None:
    """The values of a printed Python Row (``<Row('a', 1)>`` on Flink, ``Row(w='a', n=1)`` on
    Spark: see the module docstring) as their Python texts, or None for another line."""
    m = form.match(line)
    if m is None:
        return None
    text = f"f({m['body']})"
    try:
        call = ast.parse(text, mode="eval").body
    except SyntaxError:
        return None
    values = [*call.args, *(k.value for k in call.keywords)] if not (call.args and call.keywords) else []
    if not values or any(isinstance(v, ast.Starred) for v in values) or (form is _FLINK_ROW and call.keywords):
        return None
    return tuple(ast.get_source_segment(text, v) for v in values)


def _print_line(line: str, sinks: dict[str, list[tuple[str, Record]]]) -> bool:
    """Whether ``line`` is a print line ``[prefix> ]+I[...]`` (then added to its sink's changes),
    or a retract stream's ``[prefix> ](true,+I[...])`` / ``(false,-U[...])``: ``true`` adds the row,
    ``false`` removes one equal row (the row kind inside is not read), folded per sink into
    the records of the rows left (what a converted job shows of the table)."""
    m = _RETRACT_LINE.match(line)
    if m:
        sink = _SUBTASK.sub("", m["prefix"] or "")
        record = tuple(normalise_value(f) for f in _print_fields(m["body"]))
        sinks.setdefault(sink + " (retract)", []).append(("+I" if m["flag"] == "true" else "-D", record))
        return True
    m = _PRINT_LINE.match(line)
    if m:
        sink = _SUBTASK.sub("", m["prefix"] or "")
        record = tuple(normalise_value(f) for f in _print_fields(m["body"]))
        sinks.setdefault(sink, []).append((m["kind"], record))
    return m is not None


def _folded_sinks(sinks: dict[str, list[tuple[str, Record]]]) -> Counter:
    records: Counter = Counter()
    for sink, changes in sinks.items():
        records += _fold(changes, f"print sink {sink!r}" if sink else "print sink")
    return records


def spark_records(stdout: str) -> Counter:
    """Records of a Spark program's stdout: ``show()`` boxes' rows, the DataStream print lines
    of a converted stream (``f2s.print`` writes Flink's ``[name> ]+I[a,1]``, read as Flink's),
    printed Rows ``Row(w='a', n=1)`` as their values, other lines as one field."""
    lines = [line.rstrip() for line in stdout.splitlines()]
    records: Counter = Counter()
    sinks: dict[str, list[tuple[str, Record]]] = {}
    for start, _end, border, _header, rows in _boxes(lines):
        if border:
            records.update(tuple(normalise_value(c) for c in row) for row in rows)
            continue
        line = lines[start]
        if line.strip() and not _SHOWING.match(line) and not _print_line(line, sinks):
            records[_row_record(line, _SPARK_ROW) or _stream_print_record(line) or (line,)] += 1
    return records + _folded_sinks(sinks)


# --- values ---------------------------------------------------------------------------------

NULL = "NULL"
_NULLS = {"<NULL>", "NULL", "null"}
_BOOLS = {"TRUE": "true", "true": "true", "FALSE": "false", "false": "false"}
# 2024-01-01 10:00:00[.fff] (tableau, Spark) or 2024-01-01T10:00[:00][.fff] (print connector)
# (a trailing Z: the print connector's TIMESTAMP_LTZ, Java Instant.toString in UTC; the Spark
# sessions of the tests and tools here run in UTC, so show() prints the same wall time)
_TIMESTAMP = re.compile(r"^(\d{4,}-\d\d-\d\d)[ T](\d\d:\d\d)(?::(\d\d))?(?:\.(\d{1,9}))?Z?$")
_SPARK_BINARY = re.compile(r"^\[([0-9A-F]{2}(?: [0-9A-F]{2})*)\]$")
_FLINK_BINARY = re.compile(r"^x'([0-9a-fA-F]*)'$")


def normalise_value(s: str) -> str:
    """One canonical text for a value as Flink (tableau or print connector) or Spark shows it.

    ==============  ===========================  ==============================  ===================
    canonical       Flink tableau                Flink print connector           Spark ``show()``
    ==============  ===========================  ==============================  ===================
    ``NULL``        ``<NULL>`` (``NULL`` nested)  ``null``                        ``NULL``
    ``true``        ``TRUE``                     ``true``                        ``true``
    timestamp       ``2024-01-01 10:00:00.120``  ``2024-01-01T10:00:00.120``     ``2024-01-01 10:00:00.12``
      -> ``2024-01-01 10:00:00.12`` (seconds always, fraction without trailing zeros, none if 0;
      ``2024-01-01T10:00`` -> ``2024-01-01 10:00:00``; the print connector's TIMESTAMP_LTZ
      ``2024-01-01T10:00:00Z`` (UTC) -> ``2024-01-01 10:00:00``)
    array           ``[1, NULL]``                ``[1, null]``                   ``[1, NULL]``
    map             ``{a=1, b=2}``               ``{a=1, b=2}``                  ``{a -> 1, b -> 2}``
      -> ``{a -> 1, b -> 2}`` with the entries sorted (Flink prints Java HashMap order)
    row             ``(1, x)``                   ``+I[1, x]``                    ``{1, x}``
      -> ``(1, x)``
    binary          ``x'0102'``                  (``[1, 2]``: not told from an array)  ``[01 02]``
      -> ``x'0102'``
    ==============  ===========================  ==============================  ===================

    Unchanged because the engines agree: doubles and floats (Java ``Double.toString`` on both:
    ``2.5``, ``1.0E10``, ``1.0E-5``, ``0.001``, ``1.2345678E7``), decimals (scale kept:
    ``1.000``, ``3.50``), integers, dates (``2024-01-02``), strings.  Elements of arrays, maps
    and rows are normalised recursively (split at top-level ``, ``).  Surrounding spaces are
    stripped.
    """
    s = s.strip()
    if s in _NULLS:
        return NULL
    if s in _BOOLS:
        return _BOOLS[s]
    m = _TIMESTAMP.match(s)
    if m:
        day, hm, sec, frac = m.groups()
        frac = (frac or "").rstrip("0")
        return f"{day} {hm}:{sec or '00'}" + (f".{frac}" if frac else "")
    m = _FLINK_BINARY.match(s)
    if m:
        return f"x'{m[1].lower()}'"
    m = _SPARK_BINARY.match(s)
    if m:
        return "x'" + m[1].replace(" ", "").lower() + "'"
    if len(s) >= 2 and s[0] == "[" and s[-1] == "]":
        return "[" + ", ".join(normalise_value(v) for v in _split_fields(s[1:-1])) + "]"
    if len(s) >= 4 and s[:3] in ("+I[", "-U[", "+U[", "-D[") and s[-1] == "]":  # nested Flink Row
        return "(" + ", ".join(normalise_value(v) for v in _split_fields(s[3:-1])) + ")"
    if len(s) >= 2 and s[0] == "(" and s[-1] == ")":
        return "(" + ", ".join(normalise_value(v) for v in _split_fields(s[1:-1])) + ")"
    if len(s) >= 2 and s[0] == "{" and s[-1] == "}":
        return _normalise_braces(s[1:-1])
    return s


def _normalise_braces(body: str) -> str:
    """Flink map ``a=1, b=2``, Spark map ``a -> 1, b -> 2`` or Spark struct ``1, x``.

    A map has a top-level (outside brackets) `` -> `` or ``=`` in every entry; else a struct.
    """
    fields = _split_fields(body)
    if not fields:
        return "{}"  # an empty map (Spark has no empty struct)
    pairs = [_top_level_pair(field) for field in fields]
    if None in pairs:  # a Spark struct: a row
        return "(" + ", ".join(normalise_value(v) for v in fields) + ")"
    entries = sorted(f"{normalise_value(k)} -> {normalise_value(v)}" for k, v in pairs)
    return "{" + ", ".join(entries) + "}"


def _top_level_pair(field: str) -> tuple[str, str] | None:
    """(key, value) of a map entry ``k -> v`` (Spark) or ``k=v`` (Flink), split outside brackets."""
    depth = 0
    for i, ch in enumerate(field):
        if ch in "[({":
            depth += 1
        elif ch in "])}":
            depth = max(0, depth - 1)
        elif depth == 0 and field.startswith(" -> ", i):
            return field[:i], field[i + 4 :]
        elif depth == 0 and ch == "=":
            return field[:i], field[i + 1 :]
    return None


# --- DataStream print() lines (fixtures/pyflink) ------------------------------------------------
#
# PyFlink 2.3's ``DataStream.print()`` writes one line per record, by the stream's type (see
# rules/pyflink/print.py): ``+I[101,keyboard,49.5]`` for Types.ROW/ROW_NAMED (PyFlink joins
# Python's ``str()`` of the fields with ``,``), ``(keyboard,101)`` for Types.TUPLE (Java's
# ``Tuple.toString``), Java's ``toString`` for basic types (``189.99``, ``1.0E-5``, ``true``),
# Python's ``str()`` for pickled values (``('keyboard', 59.4)``).  The fixtures' recorded
# ``expected_stdout.txt`` holds those lines without their ``name> ``/``N> `` prefixes
# (``flink_reference.normalize_flink_print``).  A converted stream printed as a DataFrame
# shows a ``show()`` box instead: one record per row, one value per column; one kept as an RDD
# prints each record in Python's form (``for record in rdd.collect(): print(record)``:
# ``('keyboard', 101)``, ``Row(id=1, name='a')``, ``Decimal('1.50')``...).  All meet as records
# of values (``stream_line_record``):
#
# * Python's forms (``print_records.python_record``, which documents them): a tuple or Row's
#   fields, any other value as one field; Flink's pickled values print so too;
# * ``+I[a,1]``: the fields of PyFlink's Row print (Python's ``str()`` of each, joined with
#   ``,``), Python texts made Java's (``True`` -> ``true``, ``None`` -> ``null``, ``1e-05`` ->
#   ``1.0E-5``), containers and bytes read as Python's forms; another row kind (``-U[...]``)
#   keeps its kind as a first value;
# * ``(a,1)``: a Java tuple, split at top-level ``,``;
# * any other line: one value, normalised (``true``, ``NULL``).
# A string holding ``,`` inside a Row or a Java tuple, or a string value that looks like a
# tuple, cannot be told from several fields: fixtures avoid them.


def stream_line_record(line: str) -> Record:
    """The record of one DataStream ``print()`` line, its prefix dropped (see above): Python's
    forms first (``print_records.python_record``: a converted RDD stream's ``print(record)``,
    Flink's pickled values), then Flink's."""
    from print_records import field_text, flink_row_record, python_record  # it imports this module

    record = python_record(line)
    if record is not None:
        return record
    m = _PRINT_LINE.match(line)
    if m and not m["prefix"]:
        fields = flink_row_record(m["body"])
        return fields if m["kind"] == "+I" else (m["kind"], *fields)
    if len(line) >= 2 and line[0] == "(" and line[-1] == ")":
        return tuple(field_text(f) for f in _split_fields(line[1:-1], ","))
    return (field_text(line),)


def flink_stream_records(lines: Iterable[str]) -> Counter:
    """Records of a PyFlink program's print lines (prefixes already dropped; an empty line is
    the record of an empty string)."""
    return Counter(stream_line_record(line) for line in lines)


def _box_record(row) -> Record:
    """The record of one ``show()`` row: its cells; a row of one cell holding a Python tuple's
    ``str()`` (PyFlink's print of pickled records is ``str()`` of each: ``f2s_process.as_text``)
    is read as ``stream_line_record`` reads that line of Flink's print, a record of its fields."""
    from print_records import cell_text, python_record  # it imports this module

    if len(row) == 1 and row[0].startswith("(") and row[0].endswith(")"):
        found = python_record(row[0])
        if found is not None and len(found) > 1:
            return found
    return tuple(cell_text(c) for c in row)


def spark_stream_records(stdout: str, normalize_lines) -> Counter:
    """Records of a converted PyFlink program's stdout: its ``show()`` boxes' rows, and its
    other lines as ``flink_stream_records`` after ``normalize_lines`` (which drops the
    ``name> `` prefixes the shim's print writes as Flink does)."""
    raw = stdout.splitlines()
    lines = [line.rstrip() for line in raw]
    records: Counter = Counter()
    plain = []
    from print_records import cell_text  # it imports this module

    for start, _end, border, _header, rows in _boxes(lines):
        if border:
            records.update(_box_record(row) for row in rows)
        elif not _SHOWING.match(lines[start]):
            plain.append(raw[start])
    return records + flink_stream_records(normalize_lines(plain))
