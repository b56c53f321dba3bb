"""Flink SQL to Spark SQL, with sqlglot: exact translations or ``Untranslatable``.

A pure library (no libcst): the Table API rules call it on the SQL text a PyFlink program hands to
``execute_sql`` / ``sql_query``.  Flink SQL is Calcite's dialect; it is parsed here with a small
sqlglot dialect (``FlinkDialect``: Spark's, with Flink's lexical rules: only ``'`` quotes strings, a
backslash is an ordinary character, ``TIMESTAMP`` is without time zone, ``TIMESTAMP_LTZ`` and
``BYTES`` exist, ``CHAR(n)``/``VARCHAR(n)`` keep their length, window functions take ``TABLE t``
and ``DESCRIPTOR(ts)`` arguments), then every node of the tree is checked against an allowlist of
what was seen to mean the same on both engines (``_ALLOWED``), the differences are rewritten
explicitly, and sqlglot's Spark generator writes the result.

Principle: a translation is exact, or it is refused.  Anything not allowed raises ``Untranslatable``
naming the construct; nothing is passed through on the hope that Spark agrees.

Rewritten (each seen on Flink 2.3 and Spark 4; tests/test_table_sql.py, tests/table_sql_reference.py):
    * types: ``TIMESTAMP[(p)]`` -> ``TIMESTAMP_NTZ``, ``TIMESTAMP_LTZ[(p)]`` -> ``TIMESTAMP``,
      ``BYTES``/``VARBINARY`` -> ``BINARY``, ``ROW<...>`` -> ``STRUCT<...>``, ``VARCHAR(n)``/``CHAR(n)``
      -> ``STRING`` in DDL.  In a ``CAST`` Flink truncates (and ``CHAR(n)`` pads) to n: refused, as is a
      ``CAST`` to a timestamp precision other than 6; ``CAST(x AS VARCHAR)`` is to STRING.
    * integer ``/``: Flink divides as Java does, in the operands' type (``7 / 2`` = 3, ``-7 / 2`` = -3,
      INT), Spark's ``/`` gives a DOUBLE -> ``CAST(a DIV b AS INT)``; ``FLOAT / FLOAT`` is a FLOAT.
      DECIMAL division (Flink and Spark pick other result scales) and operands of unknown type: refused.
    * ``AVG``/``SUM`` of an integer column are of that type in Flink (``AVG`` of -5 and 2 is -1), ``CEIL``/
      ``FLOOR`` keep the argument's type, ``ROW_NUMBER``/``RANK``/``DENSE_RANK`` and the date parts
      (``YEAR``, ``EXTRACT``...) are BIGINT: casts to Flink's types.
    * group windows ``GROUP BY TUMBLE/HOP/SESSION(ts, ...)`` -> ``window(ts, size[, slide])`` /
      ``session_window(ts, gap)`` (HOP's slide comes first in Flink, last in Spark);
      ``*_START``/``*_END`` -> ``window.start``/``window.end`` (both exclusive ends), ``*_ROWTIME`` -> end - 1 ms.
    * window TVFs ``TABLE(TUMBLE|HOP(TABLE t, DESCRIPTOR(ts), ...))`` -> a subquery over ``t`` adding
      ``window_start``, ``window_end``, ``window_time`` (end - 1 ms) from Spark's ``window()``, which like
      Flink's HOP gives one row per window a row falls in.
    * window alignment: Spark aligns on the epoch in UTC, Flink over a TIMESTAMP_LTZ in the session time
      zone; refused unless the column is a TIMESTAMP or the size and slide divide a quarter hour.
    * ``PROCTIME()``/``CURRENT_TIMESTAMP`` (milliseconds in Flink) -> ``date_trunc('MILLISECOND',
      current_timestamp())``; ``REGEXP_EXTRACT(s, r[, i])`` (group 0 by default, NULL when nothing
      matches; Spark: group 1, '') -> ``CASE WHEN s RLIKE r THEN regexp_extract(s, r, i) END``;
      ``LIKE`` has no escape character in Flink unless ``ESCAPE`` says, a backslash in Spark: doubled.
    * the same in both (checked): ``||``, ``CONCAT``, ``CONCAT_WS`` (skips NULLs), ``CHAR_LENGTH``,
      ``SUBSTRING``/``SUBSTR`` (0 and negative starts), ``POSITION``/``LOCATE``/``INSTR``, ``UPPER``/``LOWER``,
      ``TRIM``, ``REPLACE``, ``REVERSE``, ``REPEAT``, ``LPAD``/``RPAD``, ``LEFT``/``RIGHT``, ``MD5``,
      ``ASCII``, ``TO_BASE64``, ``REGEXP_REPLACE``, ``IFNULL``/``COALESCE``, ``NULLIF``, ``IF``, ``CASE``,
      ``ABS``, ``MOD``/``%`` (sign of the dividend), ``SQRT``, ``ROUND`` (half up), ``DATE_FORMAT``/``FROM_UNIXTIME`` with the pattern letters
      y M d H m s S E, ``UNIX_TIMESTAMP()``, ``CURRENT_DATE``, ``ts + INTERVAL``, ``COUNT``/``MIN``/
      ``MAX``, ``FILTER (WHERE ...)``, ``LAG``/``LEAD``, OVER windows (``RANGE BETWEEN INTERVAL ...``),
      top-N with ``ROW_NUMBER``, joins, subqueries, ``UNION``/``INTERSECT``/``EXCEPT``, ``WITH``,
      ``VALUES``, ``ORDER BY`` (NULLs first ascending, last descending, in both), ``LIMIT``.
    * ``MIN``/``MAX`` of a FLOAT/DOUBLE (or of an unknown type), also in windows and OVER: the same
      call, NOTE F2S329 (a NaN: Flink's result depends on the order rows come; ``_types.extreme_nan``,
      the Table API's decision too).
    * ``TO_TIMESTAMP(s)`` -> ``CAST(date_trunc('MILLISECOND', try_to_timestamp(s, 'yyyy-M-d[
      H:m:s[.S...]]')) AS TIMESTAMP_NTZ)`` (Flink's default pattern, milliseconds);
      ``TO_TIMESTAMP(s, 'dd/MM/yyyy HH:mm:ss')`` (letters y M d H m s, at most SSS) ->
      ``CAST(COALESCE(try_to_timestamp(s, fmt), <the default>) AS TIMESTAMP_NTZ)`` (Flink reads
      text the format does not read with its default pattern): the same TIMESTAMP(3) for text
      either reads, NULL for text neither reads; Flink's lenient parser also reads 2024-02-30
      and text after the pattern (NOTE F2S313).
      ``TO_TIMESTAMP_LTZ(n[, 3|0])`` of an integer -> ``timestamp_millis(n)``/``timestamp_seconds(n)``.
      ``TO_DATE(s[, format])`` -> ``try_to_date(s[, format])`` (NOTE F2S313: ``_to_date``).
    * ``FLOOR/CEIL(ts TO SECOND..YEAR)`` of a TIMESTAMP or DATE -> ``date_trunc``/``trunc``, ``CEIL TO WEEK..YEAR``
      by Flink 2.3's rule of the day (``_floor_ceil_to``); ``CAST(ts AS DATE)``, NOTE F2S348 (``DATE_BEFORE_1970``);
      ``JSON_VALUE``/``JSON_QUERY``/``JSON_EXISTS`` (``json_value``...), ``JSON_OBJECT``/``JSON_ARRAY`` (``_json_object``);
      ``INITCAP(s)`` -> Flink's words of ASCII letters and digits, per character (``_initcap``);
      ``TABLE(CUMULATE(TABLE t, DESCRIPTOR(ts), step, size))`` in batch mode -> a subquery with a row per
      window that holds the row (``_cumulate``).
    * ``LISTAGG(s[, sep])`` -> ``listagg(s, sep)`` (Flink's default separator ',', Spark's '';
      NULLs skipped in both; the order of a group's values: NOTE F2S314).
    * ``FROM t CROSS JOIN UNNEST(a) AS u(x)`` (or ``, UNNEST(...)``) of an array of scalars ->
      ``LATERAL VIEW explode(a) u AS x``; ``SPLIT(s, 'd')`` with a delimiter that is no regular
      expression -> ``split`` (empty strings kept between and after delimiters in both; ``SPLIT('',
      d)`` is an empty array in Flink, [''] in Spark: ``CASE WHEN s = '' THEN ARRAY() ...``).
    * ``SPLIT_INDEX(s, 'sep', i)`` -> ``CASE WHEN s <> '' THEN get(split(s, regex), i) END``; ``a[i]`` of an
      ARRAY -> ``get(a, i - 1)`` (NULL out of range in both); ``CARDINALITY(a)`` -> ``array_size(a)``; ``REGEXP(s, r)`` -> ``s RLIKE r``;
      ``UNIX_TIMESTAMP(s[, fmt])`` -> ``unix_seconds(try_to_timestamp(...))``, -9223372036854775808 for
      text that does not parse (NOTE F2S313); ``TIMESTAMPDIFF(SECOND|MINUTE|HOUR|DAY, a, b)`` of
      TIMESTAMPs or DATEs -> ``CAST(timestampdiff(...) AS INT)``; ``TIMESTAMPADD(unit, n, ts)`` of a TIMESTAMP
      -> ``timestampadd``; ``NOW()`` as ``CURRENT_TIMESTAMP``; ``LOCALTIMESTAMP`` -> its milliseconds;
      ``GROUP BY GROUPING SETS/ROLLUP/CUBE`` in batch mode as they are.
    * ``window_end``/``TUMBLE_END(...)``/``window_start`` +/- an interval: of the time column's
      type; a computed column (``ts AS TO_TIMESTAMP(...)``) and a SQL view's columns have the
      types of their translation (``TableDef.computed_types``, ``view_columns``).
    * OVER frames ending ``FOLLOWING`` pass as they are (the same rows in batch mode, seen on
      Flink 2.3; in streaming mode Flink refuses them: ``following_frame``, for the caller).
    - ``[LEFT] JOIN LATERAL TABLE(f(...)) [AS t(a, b)] [ON TRUE]`` (or after a comma) of a table
      function the program registered -> ``LATERAL f(...)``, Spark's lateral join of its Python
      UDTF (``_laterals``).

Refused, among others: ``FOR SYSTEM_TIME AS OF``, ``MATCH_RECOGNIZE``, ``LATERAL TABLE`` of anything
else than the program's Python table functions, ``LEFT JOIN UNNEST``, ``UNNEST`` of ROWs or MAPs,
``CUMULATE`` over a stream, the ``SESSION`` window TVF, SQL hints, ``LN``/``LOG``/``LOG10``/``LOG2`` (seen on Flink
2.3: NaN for x <= 0 where Spark gives NULL, and ``LOG10(11)`` 1.0413926851582251 where Spark's
``LOG(10, 11)`` is 1.041392685158225, ``LOG(2, 3)`` 1.5849625007211563 where Spark's is 1.584962500721156), ``EXP``/``POWER`` (Flink
computes them with java.lang.Math, Spark with StrictMath; they differ in the last digit for about one
double in ten: ``EXP(-6.584347405493595)`` is 0.0013818288473327206 in Flink, 0.0013818288473327204 in Spark), ``GREATEST``/``LEAST`` (NULL in Flink if any argument is), ``CEIL(d TO DAY)`` of a DATE,
``CURRENT_TIME``/``LOCALTIME``,
``CAST`` of a timestamp or boolean to STRING (Flink: '2024-01-01 10:00:00.100', 'TRUE'; Spark:
'2024-01-01 10:00:00.1', 'true'), ``STDDEV``/``VAR`` (integer results in
Flink), ``ROLLUP``/``CUBE``/``GROUPING SETS`` over a stream and ``GROUPING()``, ``INSERT OVERWRITE``.

Known, not refused: integer overflow (Flink wraps, ``2147483647 + 1`` = -2147483648; Spark, ANSI
by default, fails the query: never a different result); Flink identifiers are case-sensitive, Spark's
are not (two columns differing only in case would clash in Spark).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Collection, Optional

import sqlglot
import sqlglot.parser
from sqlglot import exp
from sqlglot.dialects.spark import Spark
from sqlglot.errors import ParseError, TokenError
from sqlglot.tokens import Token, TokenType

from flink2spark.rules.table._flink_reserved import RESERVED
from flink2spark.rules.table._types import extreme_nan

__all__ = [
    "TableDef",
    "Untranslatable",
    "create_table",
    "create_view",
    "insert",
    "query",
    "spark_create_table",
    "statement_kind",
]


class Untranslatable(Exception):
    """A construct with no same-meaning Spark SQL form; str(exc) names the construct, e.g. "FOR SYSTEM_TIME AS OF (temporal join)"."""


class Updating(Untranslatable):
    """An aggregation without a window on a streaming query: an updating table in Flink, which
    only a consumer taking updates (Spark's update output mode) can run; ``query``/``insert``
    translate it when told the consumer does (``updates=True``)."""


@dataclass(frozen=True)
class TableDef:
    name: str  # as written (unquoted)
    columns: tuple[tuple[str, str], ...]  # physical columns: (name, Spark SQL type)
    computed: tuple[tuple[str, str], ...]  # computed columns: (name, Spark SQL expression)
    connector: str  # options['connector'], lower case
    options: Mapping[str, str] = field(hash=False)  # the WITH (...) options as written
    watermark: Optional[tuple[str, str]]  # (column, Spark delay threshold such as "5 seconds")
    primary_key: tuple[str, ...]
    declared: Mapping[str, str] = field(default_factory=dict, hash=False)  # column -> Flink type as written, upper case (DDL only)
    # METADATA columns: (name, Spark SQL type, the connector's metadata key)
    metadata: tuple[tuple[str, str, str], ...] = ()
    order: tuple[str, ...] = ()  # every column's name (physical, computed, metadata) as declared
    # False when Flink reads the table as an unbounded stream (a Kafka topic, a view over one):
    # queries over it are streaming queries, Structured Streaming in Spark
    bounded: bool = True
    # computed column -> the Spark SQL type of its expression (None: not known)
    computed_types: Mapping[str, Optional[str]] = field(default_factory=dict, hash=False)
    # PARTITIONED BY (...) of a filesystem table: its partition columns, in the clause's order
    partitioned_by: tuple[str, ...] = ()
    # the NOTEs of the computed columns' translations (``query(..., notes=)``)
    notes: tuple = ()
    # TIMESTAMP columns holding no time before 1970 but midnights (a view of VALUES: ``view_after_1970``)
    after_1970: frozenset = frozenset()

    def computed_type(self, column: str) -> Optional[str]:
        """The type of a computed column in Spark: the view of an unbounded table casts its
        watermark column to TIMESTAMP (Spark's watermark refuses a TIMESTAMP_NTZ)."""
        if not self.bounded and self.watermark is not None and self.watermark[0] == column:
            return "TIMESTAMP"
        return self.computed_types.get(column)

    def rowtime_read(self) -> Optional[str]:
        """What the watermark column of this unbounded table is when Flink's column is a TIMESTAMP
        without time zone, which the Spark view casts to a TIMESTAMP in the session time zone
        (Spark's watermark refuses a TIMESTAMP_NTZ): "the legacy Rowtime() column <name>" (a
        connect() descriptor's), "the TIMESTAMP(3) rowtime column <name>" (as declared) or "the
        computed TIMESTAMP rowtime column <name>"; None otherwise (a bounded table, a
        TIMESTAMP_LTZ column, no watermark...)."""
        if self.bounded or self.watermark is None:
            return None
        column = self.watermark[0]
        if ROWTIME_FROM in self.options:
            return f"the legacy Rowtime() column {column}"
        declared = re.sub(r"\s+", " ", self.declared.get(column, ""))
        if re.fullmatch(r"TIMESTAMP( ?\(\d\))?( WITHOUT TIME ZONE)?", declared):
            return f"the {declared} rowtime column {column}"
        if self.computed_types.get(column) == "TIMESTAMP_NTZ":
            return f"the computed TIMESTAMP rowtime column {column}"
        return None

    def proctime_watermark(self) -> Optional[str]:
        """The ``PROCTIME()`` column that the Spark view of a Kafka table without WATERMARK
        watermarks with no delay (its only processing-time column): the view's column is
        ``current_timestamp()``, the micro-batch's time, and Structured Streaming closes the
        windows over it by that watermark (NOTE F2S332). None for other tables."""
        if self.bounded or self.connector != "kafka" or self.watermark is not None:
            return None
        names = [n for n, e in self.computed if e == _sql(_NOW)]
        return names[0] if len(names) == 1 else None


def is_bounded(connector: str, options: Mapping[str, str]) -> bool:
    """Whether Flink reads a table of this connector as a bounded input."""
    if connector in ("kafka", "upsert-kafka"):
        return "scan.bounded.mode" in options and options["scan.bounded.mode"] != "unbounded"
    if connector == "datagen":  # ends after number-of-rows rows, or where a sequence field ends
        return "number-of-rows" in options or any(
            k.lower().endswith(".kind") and v == "sequence" for k, v in options.items())
    return True


# --------------------------------------------------------------------------------------------
# The dialect


def _parse_window_call(self, name: str) -> exp.Expr:
    """TUMBLE/HOP/CUMULATE/SESSION(...): a group window (``TUMBLE(ts, i)``) or a window table
    function (``TUMBLE(TABLE t [PARTITION BY k], DESCRIPTOR(ts), i)``)."""
    args: list[exp.Expr] = []
    while True:
        if self._match(TokenType.TABLE):
            table = self._parse_table_parts()
            parts: list[exp.Expr] = [table]
            if self._match(TokenType.PARTITION_BY):
                parts.append(exp.Anonymous(this="PARTITION_BY", expressions=self._parse_csv(self._parse_assignment)))
            args.append(exp.Anonymous(this="TABLE_ARG", expressions=parts))
        else:
            args.append(self._parse_lambda())
        if not self._match(TokenType.COMMA):
            break
    return exp.Anonymous(this=name, expressions=args)


class FlinkDialect(Spark):
    """Flink SQL's lexical rules on top of sqlglot's Spark dialect."""

    class Tokenizer(Spark.Tokenizer):
        QUOTES = ["'"]  # "x" is not a string in Flink SQL
        STRING_ESCAPES = ["'"]  # '' is a quote; a backslash is an ordinary character
        NUMERIC_ESCAPES: dict = {}
        NUMERIC_LITERALS: dict = {}  # no Hive 10L / 10Y suffixes
        RAW_STRINGS: list = []
        KEYWORDS = {
            **{k: v for k, v in Spark.Tokenizer.KEYWORDS.items() if k != "SESSION"},  # SESSION(...) windows
            "TIMESTAMP": TokenType.TIMESTAMPNTZ,  # Flink's TIMESTAMP has no time zone
            "TIMESTAMP_LTZ": TokenType.TIMESTAMPTZ,  # Spark's TIMESTAMP is the local-time-zone one
            "BYTES": TokenType.VARBINARY,
        }

    class Parser(Spark.Parser):
        # Kept as written: sqlglot would fill in Spark's defaults (REGEXP_EXTRACT's group 1) or
        # convert the date format; the translation handles them itself.
        FUNCTIONS = {
            **Spark.Parser.FUNCTIONS,
            **{
                name: (lambda n: lambda args: exp.Anonymous(this=n, expressions=args))(name)
                for name in ("REGEXP_EXTRACT", "DATE_FORMAT", "FROM_UNIXTIME", "TO_TIMESTAMP", "TO_TIMESTAMP_LTZ", "TO_DATE", "UNIX_TIMESTAMP",
                             # not Flink built-ins (sqlglot reads them as LISTAGG, as BigQuery ML's
                             # PREDICT of at most 3 arguments): a function of the program's, else unknown
                             "GROUP_CONCAT", "PREDICT")
            },
        }

        def _parse_types(self, *args, **kwargs):
            # Not Hive's, which turns CHAR(n)/VARCHAR(n) into STRING: in Flink a CAST to them truncates.
            return sqlglot.parser.Parser._parse_types(self, *args, **kwargs)

        FUNCTION_PARSERS = {
            **Spark.Parser.FUNCTION_PARSERS,
            **{name: (lambda n: lambda self: _parse_window_call(self, n))(name) for name in ("TUMBLE", "HOP", "CUMULATE", "SESSION")},
        }


_SPARK = "spark"


def _tokens(sql: str) -> list[Token]:
    try:
        return FlinkDialect().tokenize(sql)
    except TokenError as exc:
        raise Untranslatable(f"text that does not parse as Flink SQL ({_first_line(exc)})") from None


def _first_line(exc: Exception) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


# Constructs refused before parsing: sqlglot either does not parse them or parses them as
# something else (FOR SYSTEM_TIME AS OF becomes a time-travel clause).
_REFUSED_TEXT = [
    (re.compile(r"\bFOR\s+SYSTEM_TIME\s+AS\s+OF\b", re.I), "FOR SYSTEM_TIME AS OF (temporal join)"),
    (re.compile(r"\bMATCH_RECOGNIZE\b", re.I), "MATCH_RECOGNIZE"),
    (re.compile(r"/\*\+"), "SQL hints (/*+ ... */)"),
]


def _refuse_text(sql: str) -> None:
    scrubbed = _without_strings(sql)
    for pattern, construct in _REFUSED_TEXT:
        if pattern.search(scrubbed if construct != "SQL hints (/*+ ... */)" else sql):
            raise Untranslatable(construct)


def _without_strings(sql: str) -> str:
    return re.sub(r"'(?:[^']|'')*'", "''", sql)


_LATERAL_TABLE = re.compile(r"\bLATERAL\s+TABLE\s*\(", re.I)


def _lateral_tables(sql: str) -> str:
    """Flink's ``LATERAL TABLE(f(args))`` -> ``LATERAL f(args)`` (the form sqlglot and Spark
    read); ``_translate`` keeps it only when ``f`` is one of the program's table functions."""
    out, pos = [], 0
    masked = re.sub(r"'(?:[^']|'')*'", lambda m: "_" * len(m.group()), sql)  # positions kept
    for m in _LATERAL_TABLE.finditer(masked):
        if m.start() < pos:
            continue
        depth, end = 1, m.end()
        while end < len(masked) and depth:
            depth += {"(": 1, ")": -1}.get(masked[end], 0)
            end += 1
        if depth:
            raise Untranslatable("LATERAL TABLE( without its closing parenthesis")
        out.append(sql[pos:m.start()] + "LATERAL " + sql[m.end():end - 1])
        pos = end
    return "".join(out) + sql[pos:]


def _parse_one(sql: str) -> exp.Expr:
    _refuse_text(sql)
    sql = _lateral_tables(sql)
    try:
        trees = [tree for tree in sqlglot.parse(sql, read=FlinkDialect) if tree is not None]
    except (ParseError, TokenError) as exc:
        raise Untranslatable(f"text that does not parse as Flink SQL ({_first_line(exc)})") from None
    if len(trees) != 1:
        raise Untranslatable(f"{len(trees)} statements where one was expected")
    for identifier in trees[0].find_all(exp.Identifier):
        column = identifier.parent
        if isinstance(column, exp.Column) and not column.table and identifier.name.upper() in _NILADIC:
            continue  # a function without parentheses (LOCALTIMESTAMP), not a name: _rewrite, _check_allowed
        if not identifier.quoted:
            _check_unquoted(identifier.name)
    return trees[0]


# Flink's functions called without parentheses that sqlglot reads as column names
_NILADIC = {"LOCALTIMESTAMP", "CURRENT_TIME", "LOCALTIME", "CURRENT_ROW_TIMESTAMP"}


# --------------------------------------------------------------------------------------------
# Statement kinds


def _words(tokens: list[Token], n: int = 6) -> list[str]:
    return [token.text.upper() for token in tokens[:n]]


_OTHER_STATEMENTS = {"SHOW", "USE", "DESCRIBE", "DESC", "EXPLAIN", "LOAD", "UNLOAD", "BEGIN", "END", "EXECUTE", "ANALYZE"}


def statement_kind(sql: str) -> str:
    """One of "create_table", "create_view", "create_function", "insert", "query", "set", "drop",
    "other"; ``Untranslatable`` for text that does not parse as Flink SQL."""
    tokens = _tokens(sql)
    words = [w for w in _words(tokens, 8) if w not in ("TEMPORARY", "TEMP", "OR", "REPLACE", "SYSTEM")]
    if not words:
        raise Untranslatable("empty statement")
    if words[0] == "CREATE" and len(words) > 1:
        if words[1] == "TABLE":
            return "create_table"  # Flink DDL (WATERMARK, computed columns): parsed by create_table
        if words[1] == "VIEW":
            return "create_view"
        if words[1] == "FUNCTION":
            return "create_function"
    if words[0] in ("SET", "RESET"):
        return "set"
    if words[0] in _OTHER_STATEMENTS or (words[0] in ("CREATE", "ALTER") and len(words) > 1 and words[1] in ("CATALOG", "DATABASE")):
        return "other"  # Flink's own statements (sqlglot parses few of them); nothing to translate

    tree = _parse_one(sql)
    if isinstance(tree, exp.Insert):
        return "insert"
    if isinstance(tree, exp.Query) or isinstance(tree, exp.Values):
        return "query"
    if isinstance(tree, exp.Drop) or words[0] == "DROP":
        return "drop"
    if isinstance(tree, exp.Create):
        kind = (tree.args.get("kind") or "").upper()
        return {"TABLE": "create_table", "VIEW": "create_view", "FUNCTION": "create_function"}.get(kind, "other")
    return "other"


# --------------------------------------------------------------------------------------------
# CREATE TABLE

_SIMPLE_TYPES = {
    "STRING": "STRING",
    "INT": "INT",
    "INTEGER": "INT",
    "BIGINT": "BIGINT",
    "TINYINT": "TINYINT",
    "SMALLINT": "SMALLINT",
    "BOOLEAN": "BOOLEAN",
    "DOUBLE": "DOUBLE",
    "FLOAT": "FLOAT",  # 4 bytes in both
    "DATE": "DATE",
    "BYTES": "BINARY",
}
_LENGTH_TYPES = {"VARCHAR": "STRING", "CHAR": "STRING", "VARBINARY": "BINARY", "BINARY": "BINARY"}


class _Tokens:
    def __init__(self, tokens: list[Token], sql: str):
        # sqlglot has multi-word tokens ("PRIMARY KEY", "NOT NULL"): one word each here.
        self.tokens = []
        for token in tokens:
            words = token.text.split() if token.token_type not in (TokenType.STRING, TokenType.IDENTIFIER) else [token.text]
            if len(words) <= 1:
                self.tokens.append(token)
            else:
                for word in words:
                    self.tokens.append(Token(TokenType.VAR, word, token.line, token.col, token.start, token.end))
        self.sql = sql
        self.i = 0

    def peek(self, k: int = 0) -> str:
        j = self.i + k
        return self.tokens[j].text.upper() if j < len(self.tokens) else ""

    def peek_type(self, k: int = 0):
        j = self.i + k
        return self.tokens[j].token_type if j < len(self.tokens) else None

    def next(self) -> Token:
        if self.i >= len(self.tokens):
            raise Untranslatable("CREATE TABLE that does not parse (unexpected end)")
        token = self.tokens[self.i]
        self.i += 1
        return token

    def accept(self, *words: str) -> bool:
        if all(self.peek(k) == w for k, w in enumerate(words)):
            self.i += len(words)
            return True
        return False

    def expect(self, word: str) -> Token:
        token = self.next()
        if token.text.upper() != word:
            raise Untranslatable(f"CREATE TABLE that does not parse (expected {word}, got {token.text!r})")
        return token

    def done(self) -> bool:
        return self.i >= len(self.tokens)


def _ddl_type(ts: _Tokens) -> str:
    """A Flink column type -> its Spark SQL type."""
    name = ts.next().text.upper()
    params: list[str] = []

    def read_params() -> None:
        if ts.peek() == "(":
            ts.next()
            while ts.peek() != ")":
                token = ts.next()
                if token.text != ",":
                    params.append(token.text)
            ts.next()

    if name == "DOUBLE":
        ts.accept("PRECISION")
    if name in ("ARRAY", "MAP"):
        ts.expect("<")
        inner = [_ddl_type(ts)]
        while ts.accept(","):
            inner.append(_ddl_type(ts))
        ts.expect(">")
        if len(inner) != (1 if name == "ARRAY" else 2):
            raise Untranslatable(f"type {name} with {len(inner)} parameters")
        return f"{name}<{', '.join(inner)}>"
    if name == "ROW":
        close = {"<": ">", "(": ")"}.get(ts.peek())
        if close is None:
            raise Untranslatable("type ROW without fields")
        ts.next()
        fields = []
        while ts.peek() != close:
            field_name = _ident(ts.next())
            fields.append(f"{_quote(field_name)}: {_ddl_type(ts)}")
            if ts.peek_type() == TokenType.STRING:  # a field's description
                ts.next()
            ts.accept(",")
        ts.next()
        return f"STRUCT<{', '.join(fields)}>"
    read_params()
    if name in ("TIMESTAMP", "TIMESTAMP_LTZ"):
        ltz = name == "TIMESTAMP_LTZ"
        if ts.accept("WITH", "LOCAL", "TIME", "ZONE"):
            ltz = True
        elif ts.accept("WITHOUT", "TIME", "ZONE"):
            pass
        elif ts.peek() == "WITH":
            raise Untranslatable("type TIMESTAMP WITH TIME ZONE")
        if params and not (0 <= int(params[0]) <= 6):
            raise Untranslatable(f"type {name}({params[0]}) (Spark timestamps have microseconds)")
        return "TIMESTAMP" if ltz else "TIMESTAMP_NTZ"
    if name in _SIMPLE_TYPES and not params:
        return _SIMPLE_TYPES[name]
    if name in _LENGTH_TYPES:
        return _LENGTH_TYPES[name]
    if name in ("DECIMAL", "DEC", "NUMERIC"):
        precision, scale = (params + ["10", "0"][len(params):])[:2] if params else ("10", "0")
        if int(precision) > 38:
            raise Untranslatable(f"type DECIMAL({precision}, {scale})")
        return f"DECIMAL({precision}, {scale})"
    if name == "TIME":
        raise Untranslatable("type TIME (Spark has no time-of-day type)")
    raise Untranslatable(f"type {name}")


def _ident(token: Token) -> str:
    if token.token_type not in (TokenType.VAR, TokenType.IDENTIFIER) and not token.text.replace("_", "").isalnum():
        raise Untranslatable(f"CREATE TABLE that does not parse (expected a name, got {token.text!r})")
    if token.token_type != TokenType.IDENTIFIER:
        _check_unquoted(token.text)
    return token.text


def _check_unquoted(name: str) -> None:
    """Refuse a name written without backticks that Flink's SQL parser reads as a reserved word:
    Flink refuses the statement (checked on Flink 2.3: ``SQL parse failed. Encountered
    "method"``), where Spark would run its translation."""
    if name.upper() in RESERVED:
        raise Untranslatable(f"the name {name} without backticks: {name.upper()} is a reserved word of Flink SQL, Flink refuses "
                             f"the statement (\"SQL parse failed. Encountered \"{name}\"\"); written `{name}` it is a name")


def _quote(name: str) -> str:
    return name if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name) else "`" + name.replace("`", "``") + "`"


def _skip_to_element_end(ts: _Tokens) -> int:
    """Index of the token ending the current column-list element (``,`` or the closing ``)``)."""
    depth = 0
    angles: list[int] = []  # depths at which a type's < > is open (ARRAY<, MAP<, ROW<)
    j = ts.i
    while j < len(ts.tokens):
        text = ts.tokens[j].text
        if text == "(":
            depth += 1
        elif text == "<" and j > 0 and ts.tokens[j - 1].text.upper() in ("ARRAY", "MAP", "ROW", "MULTISET"):
            angles.append(depth)
        elif text == ">" and angles and angles[-1] == depth:
            angles.pop()
        elif text == ")":
            if depth == 0:
                return j
            depth -= 1
        elif text == "," and depth == 0 and not angles:
            return j
        j += 1
    raise Untranslatable("CREATE TABLE that does not parse (unclosed column list)")


_LIKE_FEATURES = ("CONSTRAINTS", "DISTRIBUTION", "GENERATED", "METADATA", "OPTIONS", "PARTITIONS", "WATERMARKS")


def _like(base: TableDef, clauses: list[tuple[str, str]], columns, computed, metadata, order, declared, computed_types,
          watermark, primary_key, options, partitioned_by) -> tuple:
    """The parts of ``CREATE TABLE t2 (...) WITH (...) LIKE base (clauses)`` merged as Flink 2.3
    merges them (seen with SHOW CREATE TABLE): base's physical columns first, then t2's (a name in
    both fails in Flink: refused); base's computed (GENERATED) and METADATA columns, watermark,
    primary key (CONSTRAINTS), PARTITIONED BY and options unless EXCLUDING (by default INCLUDING ALL
    OVERWRITING OPTIONS: t2's options replace base's of the same key; INCLUDING OPTIONS with a key
    in both fails in Flink: refused; OVERWRITING WATERMARKS: t2's watermark replaces base's)."""
    strategy = {feature: "INCLUDING" for feature in _LIKE_FEATURES}
    strategy["OPTIONS"] = "OVERWRITING"
    for how, feature in clauses:
        if how not in ("INCLUDING", "EXCLUDING", "OVERWRITING") or feature not in (*_LIKE_FEATURES, "ALL"):
            raise Untranslatable(f"CREATE TABLE ... LIKE option {how} {feature}")
        for f in (_LIKE_FEATURES if feature == "ALL" else (feature,)):
            strategy[f] = how
    generated = strategy["GENERATED"] != "EXCLUDING"
    with_metadata = strategy["METADATA"] != "EXCLUDING"
    base_order = [n for n in base.order
                  if n in dict(base.columns) or (generated and n in dict(base.computed))
                  or (with_metadata and n in {m for m, _, _ in base.metadata})]
    clash = sorted(set(base_order) & set(order))
    if clash:
        raise Untranslatable(f"CREATE TABLE ... LIKE with a column also in {base.name} ({clash[0]})")
    new_computed = (list(base.computed) if generated else []) + list(computed)
    new_metadata = (list(base.metadata) if with_metadata else []) + list(metadata)
    new_types = {**(dict(base.computed_types) if generated else {}), **computed_types}
    new_declared = {**{k: v for k, v in base.declared.items() if k in base_order}, **declared}
    if watermark is not None and base.watermark is not None and strategy["WATERMARKS"] == "INCLUDING":
        raise Untranslatable(f"CREATE TABLE ... LIKE with a WATERMARK and {base.name}'s (Flink fails)")
    new_watermark = watermark if watermark is not None or strategy["WATERMARKS"] == "EXCLUDING" else base.watermark
    if primary_key and base.primary_key and strategy["CONSTRAINTS"] == "INCLUDING":
        raise Untranslatable(f"CREATE TABLE ... LIKE with a PRIMARY KEY and {base.name}'s (Flink fails)")
    new_key = tuple(primary_key) or (base.primary_key if strategy["CONSTRAINTS"] != "EXCLUDING" else ())
    if partitioned_by and base.partitioned_by and strategy["PARTITIONS"] == "INCLUDING":
        raise Untranslatable(f"CREATE TABLE ... LIKE with PARTITIONED BY and {base.name}'s (Flink fails)")
    new_partitions = list(partitioned_by) or (list(base.partitioned_by) if strategy["PARTITIONS"] != "EXCLUDING" else [])
    if strategy["OPTIONS"] == "EXCLUDING":
        new_options = dict(options)
    else:
        if strategy["OPTIONS"] == "INCLUDING" and set(options) & set(base.options):
            raise Untranslatable(f"CREATE TABLE ... LIKE (INCLUDING OPTIONS) with an option also of {base.name} (Flink fails)")
        new_options = {**base.options, **options}
    return (list(base.columns) + list(columns), new_computed, new_metadata, base_order + list(order), new_declared, new_types,
            new_watermark, new_key, new_options, new_partitions)


def _text_between(ts: _Tokens, start: int, end: int) -> str:
    return ts.sql[ts.tokens[start].start : ts.tokens[end - 1].end + 1]


_UNITS = {"SECOND": "seconds", "MINUTE": "minutes", "HOUR": "hours", "DAY": "days"}


def _duration(interval: exp.Expr, what: str) -> str:
    """A Flink ``INTERVAL 'n' UNIT`` -> Spark's duration string "n units"."""
    if not isinstance(interval, exp.Interval) or not isinstance(interval.this, exp.Literal):
        raise Untranslatable(f"{what} that is not INTERVAL 'n' SECOND|MINUTE|HOUR|DAY")
    unit = interval.args.get("unit")
    unit_name = unit.name.upper().rstrip("S") if isinstance(unit, exp.Var) else ""
    value = interval.this.name.strip()
    if unit_name not in _UNITS or not re.fullmatch(r"\d+", value):
        raise Untranslatable(f"{what} {interval.sql(_SPARK)}")
    return f"{int(value)} {_UNITS[unit_name]}"


def _duration_micros(duration: str) -> int:
    value, unit = duration.split()
    return int(value) * {"milliseconds": 1_000, "seconds": 1_000_000, "minutes": 60_000_000, "hours": 3_600_000_000,
                         "days": 86_400_000_000}[unit]


def create_table(sql: str, tables: Mapping[str, TableDef] = {}) -> TableDef:
    """A Flink ``CREATE [TEMPORARY] TABLE ... WITH (...)``; ``Untranslatable`` otherwise.  ``CREATE
    TABLE t2 [(...)] [WITH (...)] LIKE t1 [(options)]`` of a table ``t1`` of ``tables``: the table
    as if written in full (``_like``)."""
    ts = _Tokens(_tokens(sql.strip().rstrip(";")), sql)
    ts.expect("CREATE")
    ts.accept("TEMPORARY")
    ts.expect("TABLE")
    ts.accept("IF", "NOT", "EXISTS")
    name_parts = [_ident(ts.next())]
    while ts.accept("."):
        name_parts.append(_ident(ts.next()))
    name = ".".join(name_parts)
    columns: list[tuple[str, str]] = []
    computed: list[tuple[str, str]] = []
    computed_types: dict[str, Optional[str]] = {}
    notes: list = []
    declared: dict[str, str] = {}
    metadata: list[tuple[str, str, str]] = []
    order: list[str] = []
    watermark = None
    primary_key: tuple[str, ...] = ()
    if ts.peek() != "(" and not (ts.peek() in ("WITH", "LIKE") and re.search(r"\bLIKE\b", _without_strings(sql), re.I)):
        raise Untranslatable("CREATE TABLE without a column list (CREATE TABLE AS / LIKE)")
    has_columns = ts.accept("(")
    while has_columns:
        end = _skip_to_element_end(ts)
        if ts.accept("WATERMARK"):
            ts.expect("FOR")
            column = _ident(ts.next())
            ts.expect("AS")
            watermark = (column, _watermark_delay(column, _text_between(ts, ts.i, end)))
            ts.i = end
        elif ts.peek() in ("PRIMARY", "CONSTRAINT"):
            if ts.accept("CONSTRAINT"):
                ts.next()
            ts.expect("PRIMARY")
            ts.expect("KEY")
            ts.expect("(")
            keys = [_ident(ts.next())]
            while ts.accept(","):
                keys.append(_ident(ts.next()))
            ts.expect(")")
            ts.accept("NOT", "ENFORCED")
            primary_key = tuple(keys)
        else:
            column = _ident(ts.next())
            order.append(column)
            if ts.accept("AS"):
                visible = columns + [(n, t) for n, t, _ in metadata]
                spark_expression, computed_types[column] = _expression(_text_between(ts, ts.i, end), name, visible, notes)
                computed.append((column, spark_expression))
                ts.i = end
            else:
                type_start = ts.i
                spark_type = _ddl_type(ts)
                declared[column] = " ".join(_text_between(ts, type_start, ts.i).upper().split())
                while ts.i < end:
                    if ts.accept("NOT", "NULL") or ts.accept("NULL"):
                        continue
                    if ts.accept("PRIMARY", "KEY"):
                        ts.accept("NOT", "ENFORCED")
                        primary_key = (column,)
                        continue
                    if ts.accept("COMMENT"):
                        ts.next()
                        continue
                    if ts.accept("METADATA"):
                        key = column
                        if ts.accept("FROM"):
                            token = ts.next()
                            if token.token_type != TokenType.STRING:
                                raise Untranslatable("METADATA FROM that is not a 'key' string")
                            key = token.text
                        ts.accept("VIRTUAL")
                        metadata.append((column, spark_type, key))
                        spark_type = None
                        break
                    raise Untranslatable(f"column clause {ts.peek()}")
                if spark_type is not None:
                    columns.append((column, spark_type))
        if ts.i != end:
            raise Untranslatable(f"CREATE TABLE that does not parse (at {ts.peek()!r})")
        if ts.accept(","):
            continue
        ts.expect(")")
        break
    options: dict[str, str] = {}
    partitioned_by: list[str] = []
    like: Optional[tuple[str, list[tuple[str, str]]]] = None
    while not ts.done():
        if ts.accept("COMMENT"):
            ts.next()
        elif ts.accept("PARTITIONED"):
            ts.expect("BY")
            ts.expect("(")
            partitioned_by.append(_ident(ts.next()))
            while ts.accept(","):
                partitioned_by.append(_ident(ts.next()))
            ts.expect(")")
        elif ts.peek() == "DISTRIBUTED":
            raise Untranslatable("DISTRIBUTED BY")
        elif ts.accept("LIKE"):
            source = [_ident(ts.next())]
            while ts.accept("."):
                source.append(_ident(ts.next()))
            clauses: list[tuple[str, str]] = []
            if ts.accept("("):
                while ts.peek() != ")":
                    strategy, feature = ts.next().text.upper(), ts.next().text.upper()
                    clauses.append((strategy, feature))
                    ts.accept(",")
                ts.expect(")")
            like = (".".join(source), clauses)
        elif ts.accept("WITH"):
            ts.expect("(")
            while ts.peek() != ")":
                key = ts.next()
                ts.expect("=")
                value = ts.next()
                if key.token_type != TokenType.STRING or value.token_type != TokenType.STRING:
                    raise Untranslatable("WITH option that is not 'key' = 'value'")
                options[key.text] = value.text
                ts.accept(",")
            ts.expect(")")
        elif ts.peek() == "AS":
            raise Untranslatable("CREATE TABLE AS SELECT")
        else:
            raise Untranslatable(f"CREATE TABLE clause {ts.peek()}")
    if like is not None:
        base = tables.get(like[0])
        if base is None:
            raise Untranslatable(f"CREATE TABLE ... LIKE {like[0]} (a table the program does not declare before)")
        merged = _like(base, like[1], columns, computed, metadata, order, declared, computed_types, watermark,
                       primary_key, options, partitioned_by)
        columns, computed, metadata, order, declared, computed_types, watermark, primary_key, options, partitioned_by = merged
    elif not has_columns:
        raise Untranslatable("CREATE TABLE without a column list (CREATE TABLE AS / LIKE)")
    if "connector" not in options and "connector.type" in options:
        options = legacy_options(options, [n for n, _ in columns])
    if "connector" not in options:
        raise Untranslatable("CREATE TABLE without a 'connector' option")
    if watermark and watermark[0] not in order:
        raise Untranslatable(f"WATERMARK on unknown column {watermark[0]}")
    if partitioned_by and options["connector"].lower() != "filesystem":
        raise Untranslatable(f"PARTITIONED BY of a {options['connector']!r} table (the partitioned tables converted are"
                             " filesystem ones)")
    return TableDef(
        name=name,
        columns=tuple(columns),
        computed=tuple(computed),
        connector=options["connector"].lower(),
        options=dict(options),
        watermark=watermark,
        primary_key=primary_key,
        declared=declared,
        metadata=tuple(metadata),
        order=tuple(order),
        bounded=is_bounded(options["connector"].lower(), options),
        computed_types=computed_types,
        notes=tuple(notes) + (tables[like[0]].notes if like is not None else ()),
        partitioned_by=tuple(partitioned_by),
    )


# Flink 1.10's descriptor properties of a filesystem table in the csv format ('connector.type' =
# 'filesystem', 'format.type' = 'csv': Flink's legacy CsvTableSource, still in Flink 2.3) -> the
# options of the SQL DDL that read the same, as OldCsv() of a connect() descriptor
# (rules/table/_connect.py): no quote character unless one is given.
_LEGACY_CSV = {
    "connector.path": "path",
    "format.field-delimiter": "csv.field-delimiter",
    "format.quote-character": "csv.quote-character",
    "format.ignore-parse-errors": "csv.ignore-parse-errors",
}
_LEGACY_IGNORED = re.compile(r"^(connector|format)\.property-version$|^format\.derive-schema$")
# a table of legacy properties: read by Spark only (Flink's legacy CsvTableSink is not converted yet)
LEGACY_SOURCE = "csv.legacy-source"


# Flink 1.10's descriptor properties of a Kafka table in the json format ('connector.type' =
# 'kafka', 'format.type' = 'json': the legacy Kafka table source of Flink 1.10-1.13, the Kafka()
# and Json() descriptors of a connect() written as properties) -> the options of the SQL DDL.
# 'connector.version' names the client (universal, 0.10, 0.11): the SQL connector reads them all.
_LEGACY_KAFKA = {
    "connector.topic": "topic",
    "connector.startup-mode": "scan.startup.mode",
    "format.fail-on-missing-field": "json.fail-on-missing-field",
    "format.ignore-parse-errors": "json.ignore-parse-errors",
}
_LEGACY_KAFKA_IGNORED = re.compile(r"^connector\.version$|^update-mode$")


def _legacy_kafka(legacy: dict[str, str]) -> dict[str, str]:
    """The SQL DDL options of a legacy Kafka table in the json format (``_LEGACY_KAFKA``): its
    TIMESTAMP fields are RFC 3339 text, as Flink 1.x's legacy json format reads them."""
    options = {"connector": "kafka", "format": "json", "json.timestamp-format.standard": LEGACY_JSON_TIMESTAMP}
    for key, value in legacy.items():
        if key in ("connector.type", "format.type") or _LEGACY_IGNORED.match(key):
            continue
        if key == "update-mode" and value.lower() != "append":
            raise Untranslatable(f"CREATE TABLE of Flink 1.10's legacy properties: 'update-mode' = {value!r}")
        if key in _LEGACY_KAFKA:
            options[_LEGACY_KAFKA[key]] = value
        elif key.startswith("connector.properties.") and not re.match(r"connector\.properties\.\d+\.", key):
            options["properties." + key[len("connector.properties."):]] = value
        elif not _LEGACY_KAFKA_IGNORED.match(key):
            raise Untranslatable(f"CREATE TABLE of Flink 1.10's legacy properties: {key!r}")
    return options


def legacy_options(legacy: dict[str, str], columns: list[str]) -> dict[str, str]:
    """The SQL DDL options of a table declared by Flink 1.10's ``'connector.type'`` properties
    (a filesystem table in the legacy csv format: ``_LEGACY_CSV``; a Kafka table in the json
    format: ``_legacy_kafka``), or Untranslatable."""
    kind, fmt = legacy.get("connector.type", "").lower(), legacy.get("format.type", "").lower()
    if kind == "kafka" and fmt == "json":
        return _legacy_kafka(legacy)
    if kind != "filesystem" or fmt != "csv":
        raise Untranslatable(f"CREATE TABLE of Flink 1.10's legacy properties 'connector.type' = {kind!r},"
                             f" 'format.type' = {fmt!r} (a filesystem table in the csv format and a Kafka table in"
                             " the json format are converted)")
    options = {"connector": "filesystem", "format": "csv", "csv.disable-quote-character": "true", LEGACY_SOURCE: "true"}
    names = []
    for key, value in legacy.items():
        field = re.fullmatch(r"format\.fields\.(\d+)\.(name|type|data-type)", key)
        if key in ("connector.type", "format.type") or _LEGACY_IGNORED.match(key):
            continue
        if key in _LEGACY_CSV:
            options[_LEGACY_CSV[key]] = value
            if key == "format.quote-character":
                options.pop("csv.disable-quote-character")
        elif key == "format.line-delimiter" and value == "\n":
            pass
        elif key == "format.comment-prefix" and value == "#":
            options["csv.allow-comments"] = "true"
        elif key == "format.ignore-first-line":
            options[IGNORE_FIRST_LINE] = value
        elif field is not None:
            if field.group(2) == "name":
                names.append((int(field.group(1)), value))
        else:
            raise Untranslatable(f"CREATE TABLE of Flink 1.10's legacy properties: {key!r}")
    if names and [n for _, n in sorted(names)] != columns:
        raise Untranslatable("CREATE TABLE of Flink 1.10's legacy properties: format fields that are not the table's columns")
    return options


def _watermark_delay(column: str, text: str) -> str:
    tree = _parse_one("SELECT " + text)
    expression = tree.expressions[0]
    if isinstance(expression, exp.Column) and expression.name == column:
        return "0 seconds"
    if (
        isinstance(expression, exp.Sub)
        and isinstance(expression.this, exp.Column)
        and expression.this.name == column
        and not expression.this.table
    ):
        return _duration(expression.expression, "WATERMARK delay")
    raise Untranslatable(f"WATERMARK expression {text.strip()} (only ts or ts - INTERVAL 'n' unit)")


def _expression(text: str, table: str, columns: list[tuple[str, str]], notes: Optional[list] = None) -> tuple[str, Optional[str]]:
    """A computed column's expression -> (Spark SQL, its type, None when not known); ``notes`` gets
    the NOTEs of the translation."""
    schema = TableDef(table, tuple(columns), (), "", {}, None, ())
    tree = _translate(_parse_one(f"SELECT {text} FROM {_quote(table)}"), {table: schema}, notes=notes)
    spark = sqlglot.parse_one(tree.sql(_SPARK), read=_SPARK).expressions[0].sql(_SPARK)
    return spark, _Types({table: schema}, tree).of(tree.expressions[0])


# --------------------------------------------------------------------------------------------
# Spark DDL for filesystem tables

# OldCsv().ignore_first_line() of a connect() descriptor (rules/table/_connect.py): skip the first
# line of each file, as Spark's csv header option does when the schema is given
IGNORE_FIRST_LINE = "csv.ignore-first-line"
# Schema().field(c, ...).rowtime(Rowtime().timestamps_from_field(f)) of a connect() descriptor:
# "c=f", the column c holds the format's field f (a Kafka table's view reads it so)
ROWTIME_FROM = "schema.rowtime.timestamps.from"
# Json().json_schema() of a connect() descriptor: 'json.timestamp-format.standard' of Flink 1.x's
# JSON schema format, a 'date-time' read as RFC 3339 text (2024-05-01T10:00:00Z, the Z dropped)
LEGACY_JSON_TIMESTAMP = "RFC-3339"
# Csv().line_delimiter(d) of a connect() descriptor: what Flink 1.x's csv format ends each record
# it writes with (its deserializer never reads it): a Kafka source reads as without it
LEGACY_LINE_DELIMITER = "csv.line-delimiter"
# OldCsv() of a connect() FileSystem() descriptor, CsvTableSink(): Flink 1.x's legacy csv sink,
# which writes each record as it comes (no in-progress files, as Flink 2.x's filesystem sink
# keeps until a checkpoint): a stream written to it is Spark's file sink of the table
LEGACY_CSV_SINK = "sink.legacy-csv"
_CSV_OPTIONS = {
    "csv.field-delimiter": "sep",
    "csv.quote-character": "quote",
    "csv.escape-character": "escape",
    "csv.null-literal": "nullValue",
}
# Column types whose text is the same in Flink's and Spark's csv and json files (checked by writing both).
# types a csv/json file gives alike to both engines when read (not when written: see file_source)
_READ_TYPES = {"TIMESTAMP_NTZ", "DATE"} | {f"DECIMAL({p}, {s})" for p in range(1, 39) for s in range(0, p + 1)}
_FLINK_TIMESTAMP = "yyyy-MM-dd HH:mm:ss[.SSSSSSSSS]"
_TEXT_FILE_TYPES = {"INT", "BIGINT", "SMALLINT", "TINYINT", "STRING", "BOOLEAN", "DOUBLE"}
# Options that change how files are cut and named, not what they hold.
_LAYOUT_OPTIONS = re.compile(r"^(sink\.rolling-policy\..*|sink\.parallelism|auto-compaction|compaction\.file-size)$")
# PARTITIONED BY (...): the types of partition columns whose folder names (col=value) Flink 2.3 and
# Spark write and read back alike (seen on Flink 2.3: the value's text, ':' '/' '=' '%' ... escaped
# as %XX as Spark does, a space kept), and the options of a partitioned table that change when
# Flink commits a partition (a _SUCCESS file in it, a metastore), not the records its files hold.
_PARTITION_TYPES = {"STRING", "INT", "BIGINT", "SMALLINT", "TINYINT"}
_PARTITION_OPTIONS = re.compile(r"^(sink\.partition-commit\..*|partition\.time-extractor\..*|sink\.shuffle-by-partition\.enable)$")
# The folder name of a NULL partition value: Spark's (not configurable), Flink's default 'partition.default-name'
SPARK_DEFAULT_PARTITION = "__HIVE_DEFAULT_PARTITION__"
FLINK_DEFAULT_PARTITION = "__DEFAULT_PARTITION__"


def _sql_string(value: str) -> str:
    return exp.Literal.string(value).sql(_SPARK)


def spark_create_table(table: TableDef, write_only: bool = False) -> Optional[str]:
    """Spark DDL for a table Spark reads and inserts into the same way (``write_only``: a table the
    program only writes, which Spark writes the same way); None when the connector is not a Spark
    table (print, blackhole, datagen, kafka, ...: the caller handles them)."""
    if table.connector != "filesystem":
        return None
    if table.partitioned_by and not write_only:
        # Spark's catalog lists the partitions of a partitioned table that Spark's INSERTs added, not
        # the folders already under its path (ALTER TABLE ... RECOVER PARTITIONS would add them)
        raise Untranslatable("PARTITIONED BY of a table the program both reads and writes")
    using, spark_options, columns = file_source(table, write_only=write_only)
    column_sql = ", ".join(f"{_quote(n)} {t}" for n, t in columns)
    option_sql = ", ".join(f"{k} {_sql_string(v)}" for k, v in spark_options)
    partitions = f" PARTITIONED BY ({', '.join(_quote(n) for n in table.partitioned_by)})" if table.partitioned_by else ""
    return f"CREATE TABLE {_quote(table.name)} ({column_sql}) USING {using}{partitions} OPTIONS ({option_sql})"


def _partitions(table: TableDef, options: dict[str, str]) -> None:
    """Untranslatable unless the PARTITIONED BY columns of ``table`` are its last physical columns
    in the clause's order (Spark puts a table's partition columns last: its INSERT and SELECT *
    would take the columns in another order than Flink's), of ``_PARTITION_TYPES``; takes the
    partition options out of ``options``."""
    names = [n for n, _ in table.columns]
    partitions = list(table.partitioned_by)
    if len(partitions) >= len(names) or names[len(names) - len(partitions):] != partitions \
            or (table.order and list(table.order) != names):
        raise Untranslatable(f"PARTITIONED BY ({', '.join(partitions)}) of columns that are not the table's last ones in"
                             " that order: Spark puts the partition columns last")
    for column, spark_type in table.columns:
        if column in partitions and spark_type not in _PARTITION_TYPES:
            raise Untranslatable(f"PARTITIONED BY a {spark_type} column ({column}): its folder names are not checked alike")
    options.pop("partition.default-name", None)
    for key in list(options):
        if _PARTITION_OPTIONS.match(key):
            options.pop(key)


def partition_note(table: TableDef) -> Optional[str]:
    """The NOTE a partitioned filesystem table needs (None: none): the folder of a NULL partition value."""
    if not table.partitioned_by or table.options.get("partition.default-name") == SPARK_DEFAULT_PARTITION:
        return None
    flink = table.options.get("partition.default-name", FLINK_DEFAULT_PARTITION)
    return (f"table {table.name!r} is partitioned by {', '.join(table.partitioned_by)}: the folder of a NULL (or '')"
            f" partition value is {SPARK_DEFAULT_PARTITION} in Spark, {flink} in Flink (Spark reads Flink's as that"
            " text; Flink 2.3 fails reading its own back)")


def file_source(table: TableDef, read_only: bool = False, write_only: bool = False) -> tuple[str, list[tuple[str, str]], list[tuple[str, str]]]:
    """(Spark data source, its options, the columns) of a filesystem table, or Untranslatable.

    A table only read (``read_only``) may also have TIMESTAMP, DATE and DECIMAL columns,
    which both engines read alike from Flink's text forms (they write them differently).
    A csv ``STRING`` column: Flink reads an empty field of it as '' unless ``csv.null-literal`` is
    '' (then NULL, as Spark). With no null literal and ``read_only`` (the table is only read, a
    source) it is allowed too: the caller fills Spark's NULLs of those columns with '' (in a table
    Spark also writes to, they would stay). Any other null literal is refused. A table the program
    only writes (``write_only``) may have STRING columns too, written as Flink 2.3 writes them (seen
    there: '' and NULL as an empty field, ' ' kept): Spark's csv writer told not to quote an empty
    string (emptyValue) nor trim spaces (ignoreLeading/TrailingWhiteSpace)."""
    if table.connector != "filesystem":
        raise Untranslatable(f"connector {table.connector!r} is not a file source")
    options = dict(table.options)
    options.pop("connector")
    path = options.pop("path", None)
    fmt = options.pop("format", None)
    if not path:
        raise Untranslatable("filesystem table without 'path'")
    if table.metadata:
        raise Untranslatable(f"METADATA column {table.metadata[0][0]} of a filesystem table")
    if table.computed and not read_only:
        # Spark's CREATE TABLE has no computed columns: a table only read is a view of the files
        # with them (``file_columns``), one written is not translated
        raise Untranslatable("computed column in a filesystem table the program writes")
    if any(expression == _sql(_NOW) for _, expression in table.computed):
        raise Untranslatable("PROCTIME() column of a filesystem table (the order Flink reads its rows in)")
    if table.partitioned_by:
        _partitions(table, options)
    spark_options: list[tuple[str, str]] = [("path", path)]
    columns = list(table.columns)
    if fmt == "csv":
        using = "csv"
        quote = options.pop("csv.quote-character", '"')
        if options.pop("csv.disable-quote-character", "false").lower() == "true":
            quote = ""
        spark_options.append(("quote", quote))
        if quote:
            # Flink's csv (Jackson) doubles a quote inside a quoted field; Spark escapes with \ unless told.
            spark_options.append(("escape", options.pop("csv.escape-character", quote)))
        lenient = options.pop("csv.ignore-parse-errors", "false").lower() == "true"
        spark_options.append(("mode", "PERMISSIVE" if lenient else "FAILFAST"))
        if options.pop("csv.allow-comments", "false").lower() == "true":
            spark_options.append(("comment", "#"))
        options.pop(LEGACY_CSV_SINK, None)
        if options.pop(LEGACY_SOURCE, "false") == "true" and not read_only:
            raise Untranslatable("a table of Flink 1.10's legacy 'connector.type' properties that the program writes"
                                 " (Flink's legacy CsvTableSink: not converted yet)")
        if options.pop(IGNORE_FIRST_LINE, "false").lower() == "true":
            if not read_only:  # Spark's writer would write a header line, Flink's legacy csv sink none
                raise Untranslatable("OldCsv().ignore_first_line() of a table the program also writes")
            spark_options.append(("header", "true"))
        for key, spark_key in _CSV_OPTIONS.items():
            if key in options:
                spark_options.append((spark_key, options.pop(key)))
    elif fmt == "json":
        using = "json"
        lenient = options.pop("json.ignore-parse-errors", "false").lower() == "true"
        spark_options.append(("mode", "PERMISSIVE" if lenient else "FAILFAST"))
        spark_options.append(("ignoreNullFields", "false"))  # Flink writes "k":null
        if options.pop("json.fail-on-missing-field", "false").lower() == "true" and lenient:
            raise Untranslatable("json options 'fail-on-missing-field' and 'ignore-parse-errors' both 'true' (Flink refuses them)")
    elif fmt == "parquet":
        using = "parquet"
        for column, spark_type in columns:
            if spark_type in ("TIMESTAMP", "TIMESTAMP_NTZ"):
                # Flink's parquet writer stores timestamps as INT96 by default, which Spark reads only as a
                # TIMESTAMP (with time zone), not into a TIMESTAMP_NTZ column.
                raise Untranslatable(f"parquet file with a timestamp column ({column})")
    elif fmt == "raw":
        using = "text"
        if len(columns) != 1 or columns[0][1] != "STRING":
            raise Untranslatable("raw format with other than one STRING column")
        charset = options.pop("raw.charset", "UTF-8")
        if charset.upper().replace("-", "") != "UTF8":
            raise Untranslatable(f"filesystem option 'raw.charset' = {charset!r}")
    else:
        raise Untranslatable(f"filesystem format {fmt!r}")
    if fmt in ("csv", "json"):
        for column, spark_type in columns:
            if column in table.partitioned_by:  # in the folder names, not in the files
                continue
            if spark_type in _READ_TYPES and read_only:
                if spark_type == "TIMESTAMP_NTZ" and ("timestampNTZFormat", _FLINK_TIMESTAMP) not in spark_options:
                    # Flink's SQL timestamp text (a space, an optional fraction); Spark's default wants a T
                    spark_options.append(("timestampNTZFormat", _FLINK_TIMESTAMP))
            elif fmt == "json" and read_only and _element_type(spark_type) in _TEXT_FILE_TYPES:
                # Seen on Flink 2.3 and Spark 4: a json array of scalars reads alike into an ARRAY of them
                # ([] empty, null and a missing field NULL, null elements NULL, [1, true] into ARRAY<STRING>
                # '1', 'true'); a value of another kind fails Flink's job (NOTE F2S315 of the caller)
                pass
            elif spark_type not in _TEXT_FILE_TYPES:
                # Seen on Flink 2.3: it writes TIMESTAMP(3) 10:00:00.500 as "2024-01-01 10:00:00.5" (quoted in
                # csv, the fewest fraction digits) and DECIMAL(10, 2) 2.50 as 2.5; Spark writes neither so.
                if read_only:
                    raise Untranslatable(f"{fmt} file with a {spark_type} column ({column}), only read: not seen to read alike on "
                                         "Flink and Spark")
                raise Untranslatable(f"{fmt} file with a {spark_type} column ({column}): Flink and Spark write it differently")
            literal = table.options.get("csv.null-literal")
            if fmt == "csv" and spark_type == "STRING" and write_only and literal is None:
                for option in (("emptyValue", ""), ("ignoreLeadingWhiteSpace", "false"), ("ignoreTrailingWhiteSpace", "false")):
                    if option not in spark_options:
                        spark_options.append(option)
            elif fmt == "csv" and spark_type == "STRING" and literal != "" and not (read_only and literal is None):
                # Seen on Flink 2.3: an empty csv field (1,,x) is '' in a STRING column; Spark reads it as NULL,
                # whatever nullValue says (an empty unquoted field is the null value).
                raise Untranslatable(f"csv file with a STRING column ({column}): Flink reads an empty field as '', Spark as NULL")
    for key in list(options):
        if _LAYOUT_OPTIONS.match(key):
            options.pop(key)
    if options:
        raise Untranslatable(f"filesystem option {sorted(options)[0]!r}")
    return using, spark_options, columns


def file_columns(table: TableDef) -> Optional[list[str]]:
    """The Spark SQL of the columns of the view of a filesystem table that has computed columns,
    in the order declared (``a``, ``CAST(...) AS ts``, as ``SELECT *`` gives them in Flink); None
    for a table without."""
    if not table.computed:
        return None
    computed = dict(table.computed)
    return [f"{computed[name]} AS {_quote(name)}" if name in computed else _quote(name) for name in table.order]


# --------------------------------------------------------------------------------------------
# Queries


def query(sql: str, tables: Mapping[str, TableDef] = {}, functions: Collection[str] = (), updates: bool = False,
          notes: Optional[list[str]] = None) -> str:
    """A Flink query (SELECT, UNION, WITH, VALUES) -> Spark SQL with the same meaning.

    ``functions``: the names the program registered its Python functions under (Spark UDFs of
    the same names): calls of them pass as they are. ``updates``: the query's consumer takes an
    updating table (a streaming aggregation without a window passes; else ``Updating``).
    ``notes``: gets the NOTE F2S329 subjects of the translation (MIN/MAX that a NaN may change,
    ``_types.extreme_nan``)."""
    tree = _parse_one(sql)
    if not isinstance(tree, (exp.Query, exp.Values)):
        raise Untranslatable(f"{type(tree).__name__.upper()} statement where a query was expected")
    return _translate(tree, tables, functions, updates, notes).sql(_SPARK)


def insert(sql: str, tables: Mapping[str, TableDef] = {}, functions: Collection[str] = (), updates: bool = False,
           notes: Optional[list[str]] = None) -> tuple[str, str]:
    """Flink ``INSERT INTO t [(cols)] <query>`` -> (target table, Spark SQL of the query).

    ``INSERT OVERWRITE`` is refused (its meaning depends on the sink: the caller's to decide), and
    so is a column list (the caller would have to reorder the query's columns to the table's)."""
    tree = _parse_one(sql)
    if not isinstance(tree, exp.Insert):
        raise Untranslatable("statement that is not INSERT INTO")
    if tree.args.get("overwrite"):
        raise Untranslatable("INSERT OVERWRITE")
    target = tree.this
    if isinstance(target, exp.Schema):
        raise Untranslatable("INSERT INTO with a column list")
    if not isinstance(target, exp.Table) or target.args.get("partition"):
        raise Untranslatable("INSERT INTO with a PARTITION clause")
    source = tree.expression
    if not isinstance(source, (exp.Query, exp.Values)):
        raise Untranslatable("INSERT whose source is not a query")
    return _table_name(target), _translate(source, tables, functions, updates, notes).sql(_SPARK)


def tables_read(sql: str) -> Optional[set[str]]:
    """The tables a statement may read: those its text names, but for the table an INSERT writes
    or a CREATE TABLE declares; None when the text does not parse."""
    try:
        kind = statement_kind(sql)
        if kind in ("create_table", "set", "other", "drop"):
            return set()
        tree = _parse_one(sql)
    except Untranslatable:
        return None
    written = tree.this if isinstance(tree, exp.Insert) else None
    if isinstance(written, exp.Schema):
        written = written.this
    ctes = {cte.alias_or_name for cte in tree.find_all(exp.CTE)}
    return {_table_name(t) for t in tree.find_all(exp.Table) if t is not written and t.name and t.name not in ctes}


def create_view(sql: str, tables: Mapping[str, TableDef] = {}, functions: Collection[str] = (),
                notes: Optional[list[str]] = None) -> tuple[str, str]:
    """``CREATE [TEMPORARY] VIEW v AS <query>`` -> (view name, Spark SQL of the query)."""
    name, source = _view(sql)
    return name, _translate(source, tables, functions, notes=notes).sql(_SPARK)


def view_name(sql: str) -> str:
    """The name ``CREATE [TEMPORARY] VIEW v AS <query>`` declares (its query not translated)."""
    return _view(sql)[0]


def _view(sql: str) -> tuple[str, exp.Expr]:
    tree = _parse_one(sql)
    if not isinstance(tree, exp.Create) or (tree.args.get("kind") or "").upper() != "VIEW":
        raise Untranslatable("statement that is not CREATE VIEW")
    target = tree.this
    if isinstance(target, exp.Schema):
        raise Untranslatable("CREATE VIEW with a column list")
    source = tree.expression
    if not isinstance(source, (exp.Query, exp.Values)):
        raise Untranslatable("CREATE VIEW whose body is not a query")
    return _table_name(target), source


def view_columns(sql: str, tables: Mapping[str, TableDef] = {}, functions: Collection[str] = ()) -> Optional[tuple[tuple[str, Optional[str]], ...]]:
    """The columns of ``CREATE VIEW v AS <query>`` with the Spark types of their translation
    (None: not known), for the queries that read the view; None when the view does not translate."""
    try:
        translated = _translate(_view(sql)[1], tables, functions)
    except Untranslatable:
        return None
    columns = _Types(tables, translated).query(translated)
    return tuple(columns.items()) if columns else None


def view_after_1970(sql: str, tables: Mapping[str, TableDef] = {}, functions: Collection[str] = ()) -> frozenset:
    """The columns of ``CREATE VIEW v AS <query>`` holding only NULLs and TIMESTAMP literals of 1970
    or later or of midnights (``_Types.after_1970``: no NOTE F2S348 for their dates)."""
    try:
        translated = _translate(_view(sql)[1], tables, functions)
    except Untranslatable:
        return frozenset()
    return _Types(tables, translated).select_after_1970(translated) if isinstance(translated, exp.Select) else frozenset()


def query_columns(sql: str, tables: Mapping[str, TableDef]) -> Optional[dict[str, str]]:
    """The columns (name -> Spark type) of a Flink query's result, when every one is known: named
    (a column or an alias) and of a type ``_Types`` follows; None otherwise."""
    try:
        tree = _parse_one(sql)
    except Untranslatable:
        return None
    if not isinstance(tree, exp.Query):
        return None
    if not isinstance(tree, exp.Select) or not all(
            isinstance(p, exp.Alias) or (isinstance(p, exp.Column) and isinstance(p.this, exp.Identifier)) for p in tree.expressions):
        return None  # Flink names an unnamed expression EXPR$n; a star's columns come from each source
    found = _Types(tables, tree).query(tree)
    names = [p.alias_or_name for p in tree.expressions]
    if not found or len(set(names)) != len(names) or list(found) != names or any(t is None for t in found.values()):
        return None
    return found  # type: ignore[return-value]


def appending_query(sql: str) -> Optional[set[str]]:
    """The tables a query (or the query of a ``CREATE VIEW`` or an ``INSERT``) reads when it gives only inserts in
    Flink's streaming mode: projections, filters, UNION ALL and group windows (``GROUP BY
    TUMBLE/HOP/SESSION(...)``, a window TVF's ``window_start, window_end``); None for anything
    that may update its rows (aggregations without a window, DISTINCT, joins, ORDER BY, LIMIT,
    OVER, set operations other than UNION ALL, subqueries in conditions)."""
    tree = _parse_one(sql)
    if isinstance(tree, (exp.Create, exp.Insert)):
        tree = tree.expression
    if not isinstance(tree, exp.Query):
        return None
    for node in tree.walk():
        if isinstance(node, exp.Join) and isinstance(node.this, exp.Unnest):
            continue  # CROSS JOIN UNNEST: each row's array exploded, a projection
        if isinstance(node, (exp.Order, exp.Limit, exp.Fetch, exp.Offset, exp.Join, exp.Window, exp.Intersect, exp.Except)):
            return None
        if isinstance(node, exp.Union) and node.args.get("distinct"):
            return None
        if isinstance(node, exp.Select) and node.args.get("distinct"):
            return None
        if isinstance(node, (exp.Exists, exp.In)) and node.find(exp.Select):
            return None
    for select in tree.find_all(exp.Select):
        group = select.args.get("group")
        keys = group.expressions if group else []
        aggregating = group is not None or any(a.find_ancestor(exp.Select) is select for a in select.find_all(exp.AggFunc))
        windowed = any(_is_call(k, "TUMBLE", "HOP", "SESSION") for k in keys) or {"window_start", "window_end"} <= {
            k.name for k in keys if isinstance(k, exp.Column)}
        if aggregating and not windowed:
            return None
    ctes = {cte.alias_or_name for cte in tree.find_all(exp.CTE)}
    return {t.name for t in tree.find_all(exp.Table) if isinstance(t.this, exp.Identifier) and t.name not in ctes}


def drop(sql: str) -> tuple[str, str, bool]:
    """``DROP [TEMPORARY] TABLE|VIEW [IF EXISTS] name`` -> (TABLE or VIEW, name, if exists), for a
    name of the current catalog and database.
    Other DROP statements (functions, databases, catalogs) are not translated."""
    words = [w for w in _words(_tokens(sql), 8) if w not in ("TEMPORARY", "SYSTEM")]
    if len(words) < 2 or words[0] != "DROP" or words[1] not in ("TABLE", "VIEW"):
        raise Untranslatable(f"DROP {words[1] if len(words) > 1 else ''} statement".replace("  ", " "))
    tree = _parse_one(sql)
    found = tree.args.get("tables") or [] if isinstance(tree, exp.Drop) else []
    if len(found) != 1 or not isinstance(found[0], exp.Table) or tree.args.get("cascade") or tree.args.get("purge"):
        raise Untranslatable("DROP statement of another form than DROP TABLE|VIEW [IF EXISTS] name")
    if len(found[0].parts) != 1:
        raise Untranslatable(f"DROP of {_table_name(found[0])} (a name in a Flink catalog or database)")
    return words[1], found[0].name, bool(tree.args.get("exists"))


def _table_name(table: exp.Table) -> str:
    return ".".join(part.name for part in table.parts)


# --------------------------------------------------------------------------------------------
# Types: what Flink infers for the expressions whose result differs by type (/, AVG, SUM, CEIL)

_INT_TYPES = ("TINYINT", "SMALLINT", "INT", "BIGINT")
_APPROX_TYPES = ("FLOAT", "DOUBLE")


class _Types:
    """Column types of the relations a SELECT reads, for the few rewrites that depend on them.
    ``None`` is "not known": a rewrite that needs a type it does not know is refused."""

    def __init__(self, tables: Mapping[str, TableDef], tree: exp.Expr, notes: Optional[list[str]] = None):
        self.tables = tables
        self.notes = notes if notes is not None else []  # NOTE F2S329 subjects (MIN/MAX that NaN may change)
        self.ctes: dict[str, exp.Expr] = {}
        for cte in tree.find_all(exp.CTE):
            self.ctes[cte.alias_or_name] = cte.this
        self._scopes: dict[int, tuple[dict, dict]] = {}

    # TIMESTAMP columns known to hold no time before 1970 but midnights (NOTE F2S348) ---------
    def after_1970(self, column: exp.Column) -> bool:
        """Whether ``column`` only holds NULLs and TIMESTAMP literals of 1970 or later or of a
        midnight: a column of VALUES rows, of a view of them (``TableDef.after_1970``), through
        subqueries of the column."""
        select = column.find_ancestor(exp.Select)
        if select is None or not isinstance(column.this, exp.Identifier):
            return False
        sources = [select.args["from_"].this] if select.args.get("from_") is not None else []
        sources += [join.this for join in select.args.get("joins") or []]
        if column.table:
            sources = [s for s in sources if s.alias_or_name == column.table]
        return len(sources) == 1 and self._relation_after_1970(sources[0], column.name)

    def _relation_after_1970(self, rel: exp.Expr, name: str) -> bool:
        if isinstance(rel, exp.Table) and isinstance(rel.this, exp.Identifier) and not rel.args.get("db"):
            table = self.tables.get(rel.name)
            return rel.name not in self.ctes and table is not None and name in table.after_1970
        if isinstance(rel, exp.Subquery) and isinstance(rel.this, exp.Values) and not rel.args.get("alias"):
            return self._relation_after_1970(rel.this, name)
        if isinstance(rel, exp.Values):
            alias = rel.args.get("alias") or (rel.parent.args.get("alias") if isinstance(rel.parent, exp.Subquery) else None)
            names = [c.name for c in alias.columns] if alias is not None else []
            if name not in names:
                return False
            i = names.index(name)
            rows = [row.expressions if isinstance(row, exp.Tuple) else [row] for row in rel.expressions]
            return all(len(row) == len(names) and _literal_after_1970(row[i]) for row in rows)
        if isinstance(rel, exp.Subquery) and isinstance(rel.this, exp.Select):
            return name in self.select_after_1970(rel.this)
        return False

    def select_after_1970(self, select: exp.Select) -> frozenset[str]:
        """The columns of ``select``'s result that ``after_1970`` holds of (a view's: its TableDef)."""
        found = set()
        for projection in select.expressions:
            if isinstance(projection, exp.Star) or (isinstance(projection, exp.Column) and isinstance(projection.this, exp.Star)):
                sources = [select.args["from_"].this] if select.args.get("from_") is not None else []
                if len(sources) == 1 and not select.args.get("joins"):
                    columns = self.relation(sources[0]) or {}
                    found.update(c for c in columns if self._relation_after_1970(sources[0], c))
            elif isinstance(projection.unalias(), exp.Column) and self.after_1970(projection.unalias()):
                found.add(projection.alias_or_name)
        return frozenset(found)

    # relations ------------------------------------------------------------------------------
    def relation(self, rel: exp.Expr) -> Optional[dict[str, Optional[str]]]:
        if isinstance(rel, exp.Table) and isinstance(rel.this, exp.Identifier) and not rel.args.get("db"):
            name = rel.name
            if name in self.ctes:
                return self.query(self.ctes[name])
            table = self.tables.get(name)
            if table is None or not (table.columns or table.computed or table.metadata):
                return None
            columns: dict[str, Optional[str]] = dict(table.columns)
            columns.update((n, t) for n, t, _ in table.metadata)
            for column, expression in table.computed:
                columns[column] = "TIMESTAMP" if expression == _sql(_NOW) else table.computed_type(column)
            return columns
        if isinstance(rel, exp.Subquery):
            return self.query(rel.this)
        if isinstance(rel, exp.Values):
            return self.values(rel)
        if isinstance(rel, exp.Unnest):
            alias = rel.args.get("alias")
            names = [c.name for c in alias.columns] if alias is not None else []
            return {names[0]: _element_type(self.of(rel.expressions[0]))} if len(names) == 1 and len(rel.expressions) == 1 else None
        return None

    def values(self, rel: exp.Values) -> Optional[dict[str, Optional[str]]]:
        """``(VALUES (1, 'a'), (2, NULL)) AS v(x, y)``: each column of the type its rows agree on
        (``common``: integers widen, NULLs take the others' type)."""
        alias = rel.args.get("alias")
        names = [c.name for c in alias.columns] if alias is not None else []
        rows = [row.expressions if isinstance(row, exp.Tuple) else [row] for row in rel.expressions]
        if not names or any(len(row) != len(names) for row in rows):
            return None
        return {name: self.common([row[i] for row in rows]) for i, name in enumerate(names)}

    def query(self, q: exp.Expr) -> Optional[dict[str, Optional[str]]]:
        if isinstance(q, exp.Subquery):
            return self.query(q.this)
        if isinstance(q, exp.SetOperation):
            left, right = self.query(q.left), self.query(q.right)
            if left is None or right is None or len(left) != len(right):
                return None
            return {k: (t if t == u else None) for (k, t), u in zip(left.items(), right.values())}
        if isinstance(q, exp.Select):
            by_alias, merged = self.scope(q)
            out: dict[str, Optional[str]] = {}
            for projection in q.expressions:
                if isinstance(projection, exp.Star):
                    for columns in by_alias.values():
                        if columns is None:
                            return None
                        out.update(columns)
                elif isinstance(projection, exp.Column) and isinstance(projection.this, exp.Star):
                    columns = by_alias.get(projection.table)
                    if columns is None:
                        return None
                    out.update(columns)
                else:
                    out[projection.alias_or_name] = self.of(projection)
            return out
        return None

    def scope(self, select: exp.Select) -> tuple[dict, dict]:
        key = id(select)
        if key not in self._scopes:
            by_alias: dict[str, Optional[dict]] = {}
            sources = []
            if select.args.get("from_") is not None:
                sources.append(select.args["from_"].this)
            sources.extend(join.this for join in select.args.get("joins") or [])
            for source in sources:
                if not isinstance(source, exp.Unnest):
                    by_alias[source.alias_or_name] = self.relation(source)
            self._scopes[key] = (by_alias, _merged(by_alias))
            unnests = [source for source in sources if isinstance(source, exp.Unnest)]
            if unnests:  # their arrays are columns of the other relations, typed above
                by_alias = {**by_alias, **{u.alias_or_name: self.relation(u) for u in unnests}}
                self._scopes[key] = (by_alias, _merged(by_alias))
            views = [v for v in select.args.get("laterals") or [] if isinstance(v.this, exp.Explode)]
            for view in views:  # LATERAL VIEW explode(array) a AS x (CUMULATE's window ends: _cumulate)
                alias = view.args.get("alias")
                names = [c.name for c in alias.columns] if alias is not None else []
                if len(names) == 1:
                    by_alias = {**by_alias, alias.name: {names[0]: _element_type(self.of(view.this.this))}}
                self._scopes[key] = (by_alias, _merged(by_alias))
        return self._scopes[key]

    # expressions ----------------------------------------------------------------------------
    def of(self, e: exp.Expr) -> Optional[str]:
        if isinstance(e, (exp.Alias, exp.Paren, exp.Neg)):
            return self.of(e.this)
        if isinstance(e, exp.Literal):
            if e.is_string:
                return "STRING"
            text = e.this
            if re.fullmatch(r"\d+", text):
                return "INT" if int(text) <= 2**31 - 1 else "BIGINT"
            return "DOUBLE" if "e" in text.lower() else "DECIMAL"
        if isinstance(e, (exp.Cast, exp.TryCast)):
            return e.to.sql(_SPARK).upper()
        if isinstance(e, (exp.Add, exp.Sub)) and isinstance(e.expression, exp.Interval):
            return self.of(e.this)
        if isinstance(e, exp.TimestampAdd):
            return self.of(e.this)
        if isinstance(e, exp.CurrentDate):
            return "DATE"
        if isinstance(e, exp.CurrentTimestamp) or _is_call(e, "DATE_TRUNC", "TIMESTAMP_MILLIS", "TIMESTAMP_SECONDS"):
            return "TIMESTAMP"
        if isinstance(e, (exp.GroupConcat, exp.JSONFormat, exp.JSONExtractScalar,  # JSON_OBJECT/ARRAY/QUERY/VALUE
                          exp.Upper, exp.Lower, exp.Trim, exp.Concat, exp.ConcatWs, exp.Substring, exp.Replace)):
            return "STRING"
        if isinstance(e, exp.RegexpSplit):
            return "ARRAY<STRING>"
        if _is_call(e, "GET") and e.expressions:  # an array's element (_array_element, _split_index)
            return _element_type(self.of(e.expressions[0]))
        if _is_call(e, "ARRAY_SIZE"):
            return "INT"
        if _is_call(e, "UNIX_SECONDS"):
            return "BIGINT"
        if _is_call(e, "TRY_TO_DATE", "TRUNC", "ADD_MONTHS", "DATE_SUB"):
            return "DATE"
        if _is_call(e, "ARRAY_JOIN"):
            return "STRING"
        if _is_call(e, "SEQUENCE") and e.expressions:
            element = self.of(e.expressions[0])
            return f"ARRAY<{element}>" if element else None
        if isinstance(e, exp.Array):
            element = self.common(list(e.expressions))
            return f"ARRAY<{element}>" if element else None
        if _is_call(e, "WINDOW", "SESSION_WINDOW"):  # a struct of start and end of ts's type
            time_type = self.of(e.expressions[0])
            return f"STRUCT<start: {time_type}, end: {time_type}>" if time_type else None
        if isinstance(e, exp.Dot) and e.expression.name in ("start", "end"):
            window = self.of(e.this)  # window(ts, ...).start, or of a column holding the window
            found = re.fullmatch(r"STRUCT<start: (.+), end: \1>", window or "")
            return found.group(1) if found else None
        if isinstance(e, exp.Column) and e.table in ("window", "session_window") and e.name in ("start", "end"):
            select = e.find_ancestor(exp.Select)
            group = select.args.get("group") if select else None
            calls = [g for g in (group.expressions if group else []) if _is_call(g, e.table.upper())]
            return self.of(calls[0].expressions[0]) if calls else None
        if isinstance(e, exp.Column) and isinstance(e.this, exp.Identifier):
            select = e.find_ancestor(exp.Select)
            if select is None:
                return None
            by_alias, merged = self.scope(select)
            if e.table:
                columns = by_alias.get(e.table)
                return columns.get(e.name) if columns else None
            return merged.get(e.name)
        if isinstance(e, (exp.Add, exp.Sub, exp.Mul, exp.Mod, exp.IntDiv)):
            return _arithmetic(self.of(e.this), self.of(e.expression))
        if isinstance(e, exp.Count):
            return "BIGINT"
        if isinstance(e, (exp.Sum, exp.Min, exp.Max, exp.Avg)):
            return self.of(e.this)
        if isinstance(e, exp.Length):
            return "INT"
        if isinstance(e, (exp.Case, exp.If, exp.Coalesce)):
            return self.common([*_branches(e)])
        return None

    def common(self, branches: list[exp.Expr]) -> Optional[str]:
        """The type of a CASE/IF/COALESCE of ``branches`` where both engines agree: all of one
        type, integers of several (the widest), DOUBLEs and integers (DOUBLE); NULL branches
        take the others' type."""
        found = {self.of(b) for b in branches if not isinstance(b, exp.Null)}
        if len(found) == 1:
            return found.pop()
        if found and found <= set(_INT_TYPES):
            return max(found, key=_INT_TYPES.index)
        if "DOUBLE" in found and all(t in ("DOUBLE", *_INT_TYPES) or (t or "").startswith("DECIMAL") for t in found):
            return "DOUBLE"  # integers and DECIMALs widen to DOUBLE in both (CASE WHEN ... THEN d ELSE 0 END)
        return None


def _merged(by_alias: dict[str, Optional[dict]]) -> dict[str, Optional[str]]:
    """The columns of a SELECT's relations by name: None for a name in several of them, and for
    every name when a relation's columns are not known."""
    merged: dict[str, Optional[str]] = {}
    seen: dict[str, int] = {}
    unknown = False
    for columns in by_alias.values():
        if columns is None:
            unknown = True
            continue
        for name, type_ in columns.items():
            seen[name] = seen.get(name, 0) + 1
            merged[name] = type_
    for name, count in seen.items():
        if count > 1 or unknown:
            merged[name] = None
    return merged


def _element_type(array_type: Optional[str]) -> Optional[str]:
    """The element type of an ARRAY type, None when not an array's or not known."""
    found = re.fullmatch(r"ARRAY<(.+)>", array_type or "")
    return found.group(1) if found else None


def _branches(e: exp.Expr):
    """The values a CASE, IF or COALESCE may give."""
    if isinstance(e, exp.Case):
        yield from (i.args["true"] for i in e.args.get("ifs") or [])
        yield e.args["default"] if e.args.get("default") is not None else exp.Null()
    elif isinstance(e, exp.If):
        yield e.args["true"]
        yield e.args["false"] if e.args.get("false") is not None else exp.Null()
    else:
        yield e.this
        yield from e.expressions


def _arithmetic(left: Optional[str], right: Optional[str]) -> Optional[str]:
    if left in _INT_TYPES and right in _INT_TYPES:
        return max(left, right, key=_INT_TYPES.index)
    if "DOUBLE" in (left, right) and {left, right} <= {"DOUBLE", "FLOAT", *_INT_TYPES}:
        return "DOUBLE"
    if left == right == "FLOAT" or ("FLOAT" in (left, right) and {left, right} <= {"FLOAT", *_INT_TYPES}):
        return "FLOAT"
    return None


def _cast(e: exp.Expr, type_: str) -> exp.Expr:
    return exp.Cast(this=e, to=exp.DataType.build(type_, dialect=_SPARK))


# --------------------------------------------------------------------------------------------
# The translation


def _translate(tree: exp.Expr, tables: Mapping[str, TableDef], functions: Collection[str] = (), updates: bool = False,
               notes: Optional[list[str]] = None) -> exp.Expr:
    tree = tree.copy()
    _refuse_nodes(tree)
    _laterals(tree, functions)
    _keep_format_functions(tree)
    streaming = is_streaming(tree, tables)
    if streaming:
        _check_streaming(tree, tables, updates)
    _window_tvfs(tree, tables, streaming)
    _group_windows(tree, tables)
    if streaming:
        grouping = next(tree.find_all(exp.GroupingSets, exp.Rollup, exp.Cube), None)
        if grouping is not None:
            raise Untranslatable(f"GROUP BY {_sql(grouping)[:60]} over a stream (translated in batch mode)")
    types = _Types(tables, tree, notes)
    noted = len(types.notes)
    for node in list(tree.walk(bfs=False))[::-1]:  # children before parents
        replacement = _rewrite(node, types)
        if replacement is not None and replacement is not node:
            node.replace(replacement)
    types.notes[noted:] = reversed(types.notes[noted:])  # in the order of the text
    _check_allowed(tree, {f.lower() for f in functions})
    _aggregate_calls(tree, functions)
    return tree


def _aggregate_calls(tree: exp.Expr, functions: Collection[str]) -> None:
    """Calls of the program's Python aggregate functions of AggregateFunction classes
    (``functions`` maps names to kinds, "udaf" for those): rule ``udaf`` makes each a Spark UDF
    of the group's rows, so ``f(a, b)`` -> ``f(collect_list(struct(a, b)))``, as in the Table
    API (``collect_list`` drops no row: a struct is never NULL). In an OVER window or with
    DISTINCT: refused."""
    udafs = {n.lower() for n, kind in functions.items() if kind == "udaf"} if isinstance(functions, Mapping) else set()
    for call in list(tree.find_all(exp.Anonymous)):
        if call.name.lower() not in udafs:
            continue
        if isinstance(call.parent, exp.Window) or any(isinstance(a, exp.Distinct) for a in call.expressions) \
                or not call.expressions:
            raise Untranslatable(f"{call.name.upper()}() (a Python aggregate function) in an OVER window, with DISTINCT"
                                 " or without arguments")
        rows = exp.Anonymous(this="collect_list", expressions=[exp.Struct(expressions=[a.copy() for a in call.expressions])])
        call.set("expressions", [rows])


_REFUSED_NODES = {
    exp.IntDiv: "DIV (not Flink SQL)",
    exp.Version: "FOR SYSTEM_TIME AS OF (temporal join)",
}


def _refuse_nodes(tree: exp.Expr) -> None:
    for node in tree.walk():
        for cls, construct in _REFUSED_NODES.items():
            if isinstance(node, cls):
                raise Untranslatable(construct)


def _laterals(tree: exp.Expr, functions: Collection[str]) -> None:
    """``[LEFT] JOIN LATERAL f(args) [AS t(a, b)] [ON TRUE]`` (or after a comma) of a table
    function the program registered (``functions`` maps names to kinds, "udtf" for those):
    Spark's Python UDTF registered under the same name joins as Flink's does (each row with
    the rows ``f`` gives for it; LEFT keeps a row it gives none for, with NULLs; checked on
    both). Its columns are named by the alias, else f0, f1... on both sides."""
    udtfs = {n.lower() for n, kind in functions.items() if kind == "udtf"} if isinstance(functions, Mapping) else set()
    for lateral in tree.find_all(exp.Lateral):
        call = lateral.this
        if not (isinstance(call, exp.Anonymous) and call.name.lower() in udtfs) or lateral.args.get("view") \
                or lateral.args.get("ordinality"):
            raise Untranslatable("LATERAL TABLE (table function join) of something else than a Python table function of the program")
        join = lateral.parent
        if not isinstance(join, exp.Join) or join.this is not lateral:
            raise Untranslatable("LATERAL TABLE (table function join) outside a FROM clause's join")
        on = join.args.get("on")
        if join.args.get("using") or (on is not None and not (isinstance(on, exp.Boolean) and on.this is True)):
            raise Untranslatable("LATERAL TABLE join with a condition other than ON TRUE")
        if (join.side or "").upper() not in ("", "LEFT"):
            raise Untranslatable(f"{join.side.upper()} JOIN LATERAL TABLE")


# Functions whose format argument sqlglot would convert between dialects: kept as written (the
# patterns are checked to mean the same in both).
_DATE_LETTERS = re.compile(r"^(?:'[^']*'|[yMdHmsSE]+|[^A-Za-z'])*$")


def _format_literal(e: exp.Expr, function: str) -> exp.Expr:
    if not isinstance(e, exp.Literal) or not e.is_string or not _DATE_LETTERS.match(e.this):
        raise Untranslatable(f"{function} with a format other than a literal of y M d H m s S E letters")
    return e


def _keep_format_functions(tree: exp.Expr) -> None:
    """DATE_FORMAT(ts, f) and FROM_UNIXTIME(n[, f]): same names and defaults ('yyyy-MM-dd HH:mm:ss')
    in Spark, and the same meaning for the pattern letters y M d H m s S E."""
    for node in list(tree.find_all(exp.Anonymous)):
        name = node.name.upper()
        if name == "DATE_FORMAT":
            if len(node.expressions) != 2:
                raise Untranslatable("DATE_FORMAT with other than 2 arguments")
            _format_literal(node.expressions[1], name)
            node.set("this", "date_format")
        elif name == "FROM_UNIXTIME":
            if len(node.expressions) not in (1, 2):
                raise Untranslatable("FROM_UNIXTIME with other than 1 or 2 arguments")
            if len(node.expressions) == 2:
                _format_literal(node.expressions[1], name)
            node.set("this", "from_unixtime")
        elif name == "UNIX_TIMESTAMP":
            node.replace(_unix_timestamp(node.expressions) if node.expressions else exp.Anonymous(this="unix_timestamp"))
        elif name == "TO_DATE":
            node.replace(_to_date(node.expressions))
        elif name == "TO_TIMESTAMP":
            node.replace(_to_timestamp(node.expressions))
        elif name == "TO_TIMESTAMP_LTZ":
            node.replace(_to_timestamp_ltz(node.expressions))


# Flink's TO_TIMESTAMP(s) reads 'yyyy-M-d' with an optional ' H:m:s' and fraction (not 'T', no
# zone, no spaces around: seen on Flink 2.3); Spark's one-argument to_timestamp is a CAST, which
# reads those too.
_FLINK_TIMESTAMP_TEXT = "yyyy-M-d[ H:m:s[.SSSSSSSSS]]"
# the pattern letters TO_TIMESTAMP's format may have, and their longest runs (SSS: Flink's milliseconds)
_PARSE_LETTERS = {"y": 4, "M": 2, "d": 2, "H": 2, "m": 2, "s": 2, "S": 3}


def _parse_format(fmt: str) -> bool:
    """Whether ``fmt`` is made of quoted text, other characters than letters, and runs of the
    letters of ``_PARSE_LETTERS`` no longer than theirs."""
    if fmt.count("'") % 2:
        return False
    runs = re.finditer(r"([A-Za-z])\1*", re.sub(r"'[^']*'", "", fmt))
    return all(len(run.group()) <= _PARSE_LETTERS.get(run.group(1), 0) for run in runs)


def _to_timestamp(args: list[exp.Expr]) -> exp.Expr:
    """Flink ``TO_TIMESTAMP(s[, format])``: a TIMESTAMP(3), NULL for text that does not parse ->
    ``CAST(try_to_timestamp(s, format) AS TIMESTAMP_NTZ)`` (``try_``: NULL where Spark's
    to_timestamp fails; the cast: Flink's TIMESTAMP has no time zone, Spark's to_timestamp gives
    one of the session time zone, read back in it: the same wall-clock time but in a daylight
    saving gap).  Without a format, or for text the format does not read, Flink's default
    pattern and its milliseconds (``date_trunc``).  Flink's parser is lenient where Spark's gives
    NULL (a day past the month's end, text after the pattern): the NOTE of the caller (F2S313)."""
    if len(args) not in (1, 2):
        raise Untranslatable("TO_TIMESTAMP with other than 1 or 2 arguments")
    default = exp.Anonymous(this="try_to_timestamp", expressions=[args[0].copy(), exp.Literal.string(_FLINK_TIMESTAMP_TEXT)])
    parsed: exp.Expr = exp.Anonymous(this="date_trunc", expressions=[exp.Literal.string("MILLISECOND"), default])
    if len(args) == 2:
        fmt = args[1]
        if not (isinstance(fmt, exp.Literal) and fmt.is_string and _parse_format(fmt.this)):
            raise Untranslatable("TO_TIMESTAMP with a format other than a literal of y M d H m s S (at most SSS) letters")
        # Seen on Flink 2.3: text the format does not read is read as in TO_TIMESTAMP(s) (Flink's
        # DateTimeUtils falls back to java.sql.Timestamp/Date.valueOf): '2024-03-01 09:21:00' with
        # 'dd/MM/yyyy HH:mm:ss' is 2024-03-01 09:21.
        parsed = exp.Coalesce(this=exp.Anonymous(this="try_to_timestamp", expressions=[args[0].copy(), fmt.copy()]),
                              expressions=[parsed])
    return _cast(parsed, "TIMESTAMP_NTZ")


def _to_date(args: list[exp.Expr]) -> exp.Expr:
    """Flink ``TO_DATE(s[, format])``: a DATE -> Spark's ``try_to_date(s[, format])`` (NULL where
    Spark's to_date fails with ANSI on).  Seen on Flink 2.3: ``TO_DATE(s)`` reads 'yyyy-M-d' with
    surrounding blanks and anything after a space (2024-1-5 10:00 is 2024-01-05), 'yyyy' and
    'yyyy-M' (the 1st), NULL for other text, a day past the month's end, NULL; Spark's reads the same
    text the same.  Both differ on a 'T' before the time (Flink NULL, Spark the date), years of
    other than 4 digits or with a sign, and a space inside the date (2024 -01-05: Flink 2024-01-01,
    Spark NULL).  With a format, Flink's lenient java.text.SimpleDateFormat also reads one-digit
    fields, a day past the month's end (31/02/2024 is 2024-03-02) and text after the pattern, and
    gives a wrong date (5471-09-27) for text it does not read, where Spark gives NULL: the NOTE of
    the caller (F2S313, by ``TRY_TO_DATE(``)."""
    if len(args) not in (1, 2):
        raise Untranslatable("TO_DATE with other than 1 or 2 arguments")
    if len(args) == 2 and not (isinstance(args[1], exp.Literal) and args[1].is_string and _parse_format(args[1].this)):
        raise Untranslatable("TO_DATE with a format other than a literal of y M d H m s S letters")
    return exp.Anonymous(this="try_to_date", expressions=[a.copy() for a in args])


# Flink's UNIX_TIMESTAMP(s) reads 'yyyy-MM-dd HH:mm:ss' with a lenient java.text.SimpleDateFormat,
# which also reads one-digit fields (2024-3-1 10:00:00) and stops before a fraction of a second (seen
# on Flink 2.3); unix_seconds drops the fraction Spark reads
_FLINK_UNIX_TIMESTAMP_TEXT = "yyyy-M-d H:m:s[.SSSSSSSSS]"
_LONG_MIN = "-9223372036854775808"


def _unix_timestamp(args: list[exp.Expr]) -> exp.Expr:
    """Flink ``UNIX_TIMESTAMP(s[, format])``: the epoch seconds of the text ``s`` read with
    ``format`` (default 'yyyy-MM-dd HH:mm:ss') in the session time zone, NULL for NULL,
    -9223372036854775808 for text that does not parse (seen on Flink 2.3) -> ``CASE WHEN s IS NULL
    THEN NULL ELSE COALESCE(unix_seconds(try_to_timestamp(s, format)), <that>) END`` (Spark's
    ``unix_timestamp`` fails on such text with ANSI on).  Flink's lenient parser also reads text
    after the pattern and a day past the month's end, where this gives -9223372036854775808: the
    NOTE of the caller (F2S313, by ``UNIX_SECONDS(``).  Format letters y M d H m s only (Flink's
    ``S`` counts milliseconds, Spark's is a fraction)."""
    if len(args) not in (1, 2):
        raise Untranslatable("UNIX_TIMESTAMP with other than 1 or 2 arguments")
    fmt = args[1] if len(args) == 2 else exp.Literal.string(_FLINK_UNIX_TIMESTAMP_TEXT)
    if len(args) == 2 and not (isinstance(fmt, exp.Literal) and fmt.is_string and _parse_format(fmt.this)
                               and "S" not in re.sub(r"'[^']*'", "", fmt.this)):
        raise Untranslatable("UNIX_TIMESTAMP with a format other than a literal of y M d H m s letters")
    seconds = exp.Anonymous(this="unix_seconds", expressions=[
        exp.Anonymous(this="try_to_timestamp", expressions=[args[0].copy(), fmt.copy()])])
    unparsed = exp.Cast(this=exp.Literal.string(_LONG_MIN), to=exp.DataType.build("BIGINT", dialect=_SPARK))
    return exp.Case(ifs=[exp.If(this=exp.Is(this=args[0].copy(), expression=exp.Null()), true=exp.Null())],
                    default=exp.Coalesce(this=seconds, expressions=[unparsed]))


def _split_index(node: exp.Anonymous, types: "_Types") -> exp.Expr:
    """Flink ``SPLIT_INDEX(s, 'sep', i)``: piece i (from 0) of s split at each whole 'sep', empty
    pieces kept (between, before and after separators), NULL for i out of range or negative, for
    the empty string and for NULLs (seen on Flink 2.3) -> ``CASE WHEN s <> '' THEN get(split(s,
    regex), i) END`` (Spark's ``split`` keeps empty pieces too with its default limit; ``get`` is
    NULL out of range).  Spark's split takes a regular expression: each of . { } ( ) * + ? $ | in
    'sep' in a character class ('.' -> '[.]'); a separator with a backslash, [ ] or ^ is refused."""
    args = node.expressions
    if len(args) != 3:
        raise Untranslatable("SPLIT_INDEX with other than 3 arguments")
    string, separator, index = args
    if not (isinstance(separator, exp.Literal) and separator.is_string and separator.this) or re.search(r"[\\\[\]^]", separator.this):
        raise Untranslatable("SPLIT_INDEX with a separator other than a non-empty string literal without \\ [ ] ^")
    if types.of(index) not in _INT_TYPES:
        raise Untranslatable(f"SPLIT_INDEX with an index of {types.of(index) or 'unknown type'}")
    regex = "".join(f"[{c}]" if c in ".{}()*+?$|" else c for c in separator.this)
    pieces = exp.RegexpSplit(this=string.copy(), expression=exp.Literal.string(regex))
    piece = exp.Anonymous(this="get", expressions=[pieces, index.copy()])
    return exp.Case(ifs=[exp.If(this=exp.NEQ(this=string.copy(), expression=exp.Literal.string("")), true=piece)])


def _array_element(node: exp.Bracket, types: "_Types") -> Optional[exp.Expr]:
    """Flink ``a[i]`` of an ARRAY: element i counting from 1, NULL for an index out of range (0 and
    negative ones too: seen on Flink 2.3) -> Spark's ``get(a, i - 1)`` (from 0, NULL out of range
    and for negative indexes).  A MAP's ``m[key]`` is left to ``_check_allowed``."""
    if not _element_type(types.of(node.this)) or len(node.expressions) != 1:
        return None
    index = node.expressions[0]
    if types.of(index) not in _INT_TYPES:
        raise Untranslatable(f"{_sql(node)[:60]} (an array index of {types.of(index) or 'unknown type'})")
    if isinstance(index, exp.Literal):
        position: exp.Expr = exp.Literal.number(int(index.this) - 1)
    else:
        position = exp.Sub(this=index.copy(), expression=exp.Literal.number(1))
    return exp.Anonymous(this="get", expressions=[node.this.copy(), position])


def _to_timestamp_ltz(args: list[exp.Expr]) -> exp.Expr:
    """Flink ``TO_TIMESTAMP_LTZ(n[, precision])``: n milliseconds (precision 3, the default) or
    seconds (0) since the epoch, a TIMESTAMP_LTZ(3) -> Spark's ``timestamp_millis(n)`` /
    ``timestamp_seconds(n)`` (Spark's TIMESTAMP is the local-time-zone one); integer ``n`` only
    (checked in ``_rewrite``, where the types are known)."""
    precision = args[1] if len(args) == 2 else exp.Literal.number(3)
    if len(args) not in (1, 2) or not (isinstance(precision, exp.Literal) and precision.this in ("0", "3")):
        raise Untranslatable("TO_TIMESTAMP_LTZ with other than (epoch, 0 or 3)")
    function = "timestamp_millis" if precision.this == "3" else "timestamp_seconds"
    return exp.Anonymous(this=function, expressions=[args[0].copy()])


def json_path(path: str, what: str = "JSON_VALUE") -> str:
    """A Flink JSON path as Spark's JSON functions take it (``_expressions._json_path_text``:
    fields and array indexes in lax mode, ``'lax $.a'`` is ``'$.a'``)."""
    from flink2spark.rules.table import _expressions, _types

    try:
        return _expressions._json_path_text(path, what)
    except _types.Untranslatable as exc:
        raise Untranslatable(str(exc)) from None


def _json_path(node: exp.Anonymous) -> str:
    """The path of ``JSON_VALUE(s, 'path')`` (``JSON_QUERY``, ``JSON_EXISTS``): fields and array
    indexes only (no strict mode, wildcards, filters, RETURNING, wrapper or ON EMPTY/ERROR
    clauses: sqlglot does not parse those, the statement is refused)."""
    what = node.name.upper()
    if len(node.expressions) != 2 or not (isinstance(node.expressions[1], exp.Literal) and node.expressions[1].is_string):
        raise Untranslatable(f"{what} with other than (text, 'path')")
    return json_path(node.expressions[1].this, what)


def json_value(text: str, path: str) -> str:
    """Spark SQL of Flink's ``JSON_VALUE(text, path)`` (Flink 2.3, default RETURNING STRING, NULL
    ON EMPTY/ERROR): the scalar's text (get_json_object), NULL for an object or array (Flink's
    lax mode gives NULL there, get_json_object their JSON text) and for text that is not JSON.
    A number with a fraction or an exponent reads as Flink's BigDecimal text in Flink (1.50,
    1E+10) and as its double text in Spark (1.5, 1.0E10): the NOTE of the caller."""
    quoted = "'" + path + "'"
    return (f"CASE WHEN schema_of_variant(try_variant_get(try_parse_json({text}), {quoted})) RLIKE '^(OBJECT|ARRAY)' "
            f"THEN NULL ELSE get_json_object({text}, {quoted}) END")


def json_query(text: str, path: str) -> str:
    """Spark SQL of Flink's ``JSON_QUERY(text, path)`` (Flink 2.3, WITHOUT WRAPPER, NULL ON
    EMPTY/ERROR): an object's or array's compact JSON text, keys in name order (Flink's writer
    sorts them, Spark's variant keeps them sorted); NULL for a scalar, a JSON null, a missing
    path, text that is not JSON (``_expressions._json_form``, the Table API's findings; NOTE of
    the caller: numbers with a fraction or an exponent)."""
    value = f"try_variant_get(try_parse_json({text}), '{path}')"
    return f"CASE WHEN schema_of_variant({value}) RLIKE '^(OBJECT|ARRAY)' THEN to_json({value}) END"


def json_exists(text: str, path: str) -> str:
    """Spark SQL of Flink's ``JSON_EXISTS(text, path)`` (Flink 2.3, FALSE ON ERROR): TRUE where the
    path leads to a value that is not JSON null; FALSE for a JSON null, a missing path, text that
    is not JSON; NULL for NULL."""
    value = f"try_variant_get(try_parse_json({text}), '{path}')"
    return f"CASE WHEN {text} IS NOT NULL THEN COALESCE(schema_of_variant({value}) <> 'VOID', FALSE) END"


# JSON_OBJECT / JSON_ARRAY values written as the same JSON by Flink 2.3 and Spark's to_json (seen
# on both: integers, BOOLEAN true/false, DECIMAL by its text with its scale (2.50, 1E-8), strings
# escaped alike (\" \\ \t \u0001; é / < > & ' as they are)).  Flink writes a DOUBLE or FLOAT by
# its decimal value (1.0E-5 as 0.000010, 12345678.0 as 12345678, 1.5E20 as 1.5E+20: Spark 1.0E-5,
# 1.2345678E7, 1.5E20), a TIMESTAMP as 2024-01-01T10:00:00.5 (Spark with a zone), fails on a DATE,
# pads a CHAR(n): refused.
_JSON_SCALARS = (*_INT_TYPES, "BOOLEAN", "STRING")


def _json_scalar(value: exp.Expr, types: "_Types", what: str) -> exp.Expr:
    """A value of JSON_OBJECT / JSON_ARRAY written the same by both (``_JSON_SCALARS``, DECIMAL)."""
    value_type = types.of(value)
    if value_type not in _JSON_SCALARS and not (value_type or "").startswith("DECIMAL"):
        raise Untranslatable(f"{what} of a {value_type or 'value of unknown type'} (Flink writes DOUBLE/FLOAT numbers, "
                             "TIMESTAMPs and other types otherwise than Spark's to_json; integers, DECIMAL, BOOLEAN and "
                             "STRING are translated)")
    return value.copy()


def _json_nested(value: exp.Expr, absent: bool, what: str) -> Optional[exp.Expr]:
    """The struct or array of a JSON_OBJECT / JSON_ARRAY nested in another (already translated:
    ``to_json(named_struct(...)[, options])``, ``to_json(filter(array(...), ...))``), written as
    JSON in the outer value, as Flink does; None for another value."""
    if not isinstance(value, exp.JSONFormat) or not value.args.get("f2s_json"):
        return None
    inner_absent = value.args["f2s_json"] == "absent"
    if isinstance(value.this, exp.Anonymous) and value.this.name == "named_struct" and inner_absent != absent:
        raise Untranslatable(f"{what} holding a JSON_OBJECT of the other NULL ON NULL / ABSENT ON NULL mode")
    return value.this.copy()


def _json_object(node: exp.JSONObject, types: "_Types") -> exp.Expr:
    """Flink ``JSON_OBJECT([KEY] 'k' VALUE v, ... [NULL ON NULL | ABSENT ON NULL])``, seen on Flink 2.3:
    the object's compact JSON text, keys in name order whatever the order written (Java's String
    order; a repeated key keeps its last value), a NULL value written null (NULL ON NULL, the
    default) or left out (ABSENT ON NULL), a JSON_OBJECT/JSON_ARRAY value nested as JSON, any
    other string value as a JSON string -> ``to_json(named_struct(<keys in that order>),
    map('ignoreNullFields', 'false'|'true'))``; ``JSON_OBJECT()`` -> ``'{}'``.  Keys that are not
    literals, a repeated key and values of other types (``_json_scalar``) are refused."""
    what = "JSON_OBJECT"
    if any(node.args.get(arg) for arg in ("unique_keys", "return_type", "encoding", "star")):
        raise Untranslatable(f"{what} with WITH UNIQUE KEYS, RETURNING or ENCODING")
    absent = str(node.args.get("null_handling") or "").upper() == "ABSENT ON NULL"
    pairs: dict[str, exp.Expr] = {}
    for pair in node.expressions:
        if not (isinstance(pair, exp.JSONKeyValue) and isinstance(pair.this, exp.Literal) and pair.this.is_string):
            raise Untranslatable(f"{what} with a key that is not a string literal")
        key = pair.this.this
        if key in pairs:
            raise Untranslatable(f"{what} with the key {key!r} twice")
        nested = _json_nested(pair.expression, absent, what)
        pairs[key] = nested if nested is not None else _json_scalar(pair.expression, types, f"{what} value {key!r}")
    if not pairs:
        return exp.Literal.string("{}")
    fields: list[exp.Expr] = []
    for key in sorted(pairs, key=lambda k: k.encode("utf-16-be")):
        fields += [exp.Literal.string(key), pairs[key]]
    options = exp.VarMap(keys=exp.Array(expressions=[exp.Literal.string("ignoreNullFields")]),
                         values=exp.Array(expressions=[exp.Literal.string("true" if absent else "false")]))
    return exp.JSONFormat(this=exp.Anonymous(this="named_struct", expressions=fields), options=options,
                          f2s_json="absent" if absent else "null")


def _json_array(node: exp.Anonymous, types: "_Types") -> exp.Expr:
    """Flink ``JSON_ARRAY(v, ...)`` (ABSENT ON NULL, the default; sqlglot parses no ON NULL clause
    of JSON_ARRAY), seen on Flink 2.3: the compact JSON text of the values that are not NULL ->
    ``to_json(filter(array(...), x -> x IS NOT NULL))`` when the values are of one kind (integers,
    DECIMALs of one type, BOOLEANs or STRINGs: Spark's array has one element type; ``_json_scalar``),
    or all JSON_OBJECTs of the same keys and mode; ``JSON_ARRAY()`` -> ``'[]'``."""
    what = "JSON_ARRAY"
    if not node.expressions:
        return exp.Literal.string("[]")
    if any(isinstance(v, exp.JSONFormat) and v.args.get("f2s_json") for v in node.expressions):
        raise Untranslatable(f"{what} of JSON_OBJECT or JSON_ARRAY values (one Spark array holds values of one type)")
    values = [_json_scalar(v, types, f"{what} value") for v in node.expressions]
    kinds = {("INT" if t in _INT_TYPES else t) for t in map(types.of, node.expressions)}
    if kinds == {"DECIMAL"} and len(values) > 1:  # literals: Spark's array takes the widest scale (2.5 as 2.50)
        raise Untranslatable(f"{what} of DECIMAL literals (Spark's array gives them one scale)")
    if len(kinds) != 1:
        raise Untranslatable(f"{what} of values of several types ({', '.join(sorted(kinds))}): Flink writes each as it is, "
                             "Spark's array has one element type")
    element = exp.to_identifier("f2s_v")
    keep = exp.Not(this=exp.Is(this=exp.column(element.copy()), expression=exp.Null()))
    kept = exp.ArrayFilter(this=exp.Array(expressions=values), expression=exp.Lambda(this=keep, expressions=[element]))
    return exp.JSONFormat(this=kept, f2s_json="absent")


def _json_string(node: exp.Anonymous, types: "_Types") -> exp.Expr:
    """Flink ``JSON_STRING(v)`` (seen on Flink 2.3): the JSON text of a scalar (1, true, "x\\"y"
    with JSON's escapes), NULL for NULL -> the element of ``to_json(array(v))`` between its
    brackets, for integers, BOOLEAN and STRING (written as JSON_OBJECT's values: ``_json_scalar``);
    a DOUBLE (Flink's decimal text) and other types are refused."""
    if len(node.expressions) != 1:
        raise Untranslatable("JSON_STRING of other than one value")
    value = node.expressions[0]
    if types.of(value) not in _JSON_SCALARS:
        raise Untranslatable(f"JSON_STRING of a {types.of(value) or 'value of unknown type'} (integers, BOOLEAN and STRING are translated)")
    text = exp.JSONFormat(this=exp.Array(expressions=[value.copy()]))
    inner = exp.Substring(this=text, start=exp.Literal.number(2),
                          length=exp.Sub(this=exp.Length(this=text.copy()), expression=exp.Literal.number(2)))
    return exp.Case(ifs=[exp.If(this=exp.Not(this=exp.Is(this=value.copy(), expression=exp.Null())), true=inner)])


def _is_call(node: exp.Expr, *names: str) -> bool:
    return isinstance(node, exp.Anonymous) and node.name.upper() in names


def _spark_window(kind: str, args: list[exp.Expr], what: str) -> tuple[exp.Expr, list[str]]:
    """Flink TUMBLE(ts, size) / HOP(ts, slide, size) / SESSION(ts, gap) -> Spark's
    window(ts, size[, slide]) / session_window(ts, gap), and the durations."""
    if kind == "TUMBLE" and len(args) == 2:
        durations = [_duration(args[1], f"{what} size")]
    elif kind == "HOP" and len(args) == 3:
        durations = [_duration(args[2], f"{what} size"), _duration(args[1], f"{what} slide")]
    elif kind == "SESSION" and len(args) == 2:
        durations = [_duration(args[1], f"{what} gap")]
    else:
        raise Untranslatable(f"{kind} window with an offset or other arguments")
    if not isinstance(args[0], exp.Column):
        raise Untranslatable(f"{kind} window over an expression (not a time column)")
    name = "session_window" if kind == "SESSION" else "window"
    return exp.Anonymous(this=name, expressions=[args[0].copy(), *map(exp.Literal.string, durations)]), durations


_QUARTER_HOUR = 15 * 60 * 1_000_000


def check_alignment(kind: str, durations: list[str], time_type: Optional[str], read_as: Optional[str] = None) -> None:
    """Spark aligns windows on the epoch in UTC; Flink aligns windows over a TIMESTAMP_LTZ time
    attribute on the epoch in the session time zone.  Both agree whenever the window size and slide
    divide a quarter hour (every time zone offset is a multiple of 15 minutes) or the time column is
    a TIMESTAMP (without time zone). ``read_as``: the column is Flink's TIMESTAMP without time
    zone that the Spark view reads as a TIMESTAMP in the session time zone (the program model's
    ``rowtime_read``, which names it): Flink aligns the windows on its values, Spark in UTC (sizes
    dividing a quarter hour pass: the same windows while the session time zone keeps one offset,
    which the view's NOTE F2S324 says)."""
    if kind == "SESSION" or time_type == "TIMESTAMP_NTZ":
        return
    if all(_QUARTER_HOUR % _duration_micros(d) == 0 for d in durations):
        return
    if read_as is not None and time_type == "TIMESTAMP":
        raise Untranslatable(
            f"{kind} window of {' / '.join(durations)} over {read_as} (a TIMESTAMP without time zone: Flink aligns the "
            "window on its values; Spark's watermark needs a TIMESTAMP, so the converted view reads it in the session "
            "time zone and Spark aligns the window in UTC: other windows unless the session time zone is UTC)"
        )
    reason = "a TIMESTAMP_LTZ column" if time_type == "TIMESTAMP" else "a column of unknown type"
    raise Untranslatable(
        f"{kind} window of {' / '.join(durations)} over {reason} (Flink aligns it in the session time zone, Spark in UTC)"
    )


def _rowtime_read(table: Optional[TableDef], column: str) -> Optional[str]:
    """``TableDef.rowtime_read`` of ``table`` when ``column`` is its watermark column."""
    if table is None or table.watermark is None or table.watermark[0] != column:
        return None
    return table.rowtime_read()


def _window_tvfs(tree: exp.Expr, tables: Mapping[str, TableDef], streaming: bool = False) -> None:
    """FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), size)) -> a subquery over t with window_start,
    window_end and window_time (end - 1 ms, Flink's rowtime of the window).

    In a streaming query the subquery gives the window itself (``__f2s_window``), which the
    aggregation groups by: Spark finalises a window in append mode only when the grouping key
    carries the watermark, which ``window(ts, ...)`` does and its ``.start`` does not (seen on
    Spark 4: "append ... not supported for streaming aggregations without watermark"). Grouped
    without both bounds, the aggregation is an updating one in Flink (``_check_streaming``): the
    subquery gives the window's columns per row, as in batch mode."""
    for table in list(tree.find_all(exp.Table)):
        if not _is_call(table.this, "TABLE"):
            continue
        call = table.this.expressions[0] if len(table.this.expressions) == 1 else None
        kind = call.name.upper() if isinstance(call, exp.Anonymous) else ""
        if kind not in ("TUMBLE", "HOP", "SESSION", "CUMULATE"):
            raise Untranslatable(f"table function {kind or 'TABLE(...)'} in FROM")
        if kind == "SESSION":
            raise Untranslatable(f"{kind} window table function")
        args = call.expressions
        if not args or not _is_call(args[0], "TABLE_ARG") or len(args[0].expressions) != 1:
            raise Untranslatable(f"{kind} window table function with named or partitioned arguments")
        source = args[0].expressions[0]
        if len(args) < 2 or not _is_call(args[1], "DESCRIPTOR") or len(args[1].expressions) != 1:
            raise Untranslatable(f"{kind} window table function without DESCRIPTOR(time column)")
        time_column = args[1].expressions[0]
        if kind == "CUMULATE":
            table.replace(_cumulate(source, time_column, args[2:], tables, streaming, table.args.get("alias")))
            continue
        window, durations = _spark_window(kind, [time_column, *args[2:]], f"{kind} window table function")
        source_def = tables.get(source.name) if not source.args.get("db") else None
        time_type = dict(source_def.columns).get(time_column.name) if source_def else None
        if source_def and time_column.name in dict(source_def.computed):
            time_type = source_def.computed_type(time_column.name) or "TIMESTAMP"
        check_alignment(kind, durations, time_type, _rowtime_read(source_def, time_column.name))
        start = exp.Dot(this=window.copy(), expression=exp.to_identifier("start"))
        end = exp.Dot(this=window.copy(), expression=exp.to_identifier("end"))
        one_ms = exp.Interval(this=exp.Literal.string("0.001"), unit=exp.Var(this="SECOND"))
        alias = source.alias_or_name
        outer = table.find_ancestor(exp.Select)
        # a streaming aggregation by the window itself; grouped otherwise (an updating
        # aggregation in Flink, update mode in Spark), the window's columns as in batch mode
        by_window = streaming and (not (outer is not None and outer.args.get("group")) or _tvf_window_keys(outer))
        if by_window:
            inner = exp.select(
                exp.Column(this=exp.Star(), table=exp.to_identifier(alias)),
                exp.alias_(window.copy(), _STREAM_WINDOW),
            ).from_(source.copy())
        else:
            inner = exp.select(
                exp.Column(this=exp.Star(), table=exp.to_identifier(alias)),
                exp.alias_(start, "window_start"),
                exp.alias_(end, "window_end"),
                exp.alias_(exp.Sub(this=end.copy(), expression=one_ms), "window_time"),
            ).from_(source.copy())
        subquery = exp.Subquery(this=inner)
        outer_alias = table.args.get("alias")
        subquery.set("alias", outer_alias.copy() if outer_alias else exp.TableAlias(this=exp.to_identifier(alias)))
        table.replace(subquery)
        if by_window:
            _group_by_stream_window(outer, one_ms)


def _cumulate(source: exp.Table, time_column: exp.Expr, args: list[exp.Expr], tables: Mapping[str, TableDef],
              streaming: bool, outer_alias: Optional[exp.Expr]) -> exp.Subquery:
    """Flink ``TABLE(CUMULATE(TABLE t, DESCRIPTOR(ts), step, size))`` in batch mode: for each row of
    t, one row per window [start, start + k * step) that holds ts (k = 1 .. size / step, start =
    the start of ts's window of ``size`` aligned as TUMBLE's), with window_start, window_end,
    window_time (end - 1 ms) -> a subquery over t: ``window(ts, size).start`` and ``LATERAL VIEW
    explode(sequence(start + step, start + size, step))`` of the window ends, those after ts.
    The same rows as Flink's (checked on Flink 2.3 and Spark 4: tests/table_sql_reference.py
    ``cumulate_tvf``).  In streaming mode Flink emits each window as the watermark passes its
    end.  Spark's streaming aggregation keeps and ends its groups by a window() of the watermarked
    column, of one size (a slide longer than the window is refused: "The slide_duration must be
    <= the window_duration", seen on Spark 4), so a row cannot be in the growing windows of one
    start; a union of one aggregation per window end (the rows of window(ts, size) before start +
    k * step) runs on Spark 4 but emits every window of a start only when the watermark passes
    start + size, not each as it passes its end: refused."""
    if streaming:
        raise Untranslatable("CUMULATE window table function over a stream (translated in batch mode; Spark's streaming "
                             "windows are of one size, so the growing windows of one start would each be emitted only "
                             "when the watermark passes the end of the largest, where Flink emits each at its own end)")
    if len(args) != 2:
        raise Untranslatable("CUMULATE window table function with an offset or other arguments")
    if not isinstance(time_column, exp.Column):
        raise Untranslatable("CUMULATE window over an expression (not a time column)")
    step, size = _duration(args[0], "CUMULATE step"), _duration(args[1], "CUMULATE size")
    if _duration_micros(size) % _duration_micros(step):
        raise Untranslatable(f"CUMULATE window of a size ({size}) that is not a multiple of its step ({step})")
    source_def = tables.get(source.name) if not source.args.get("db") else None
    time_type = dict(source_def.columns).get(time_column.name) if source_def else None
    if source_def and time_column.name in dict(source_def.computed):
        time_type = source_def.computed_type(time_column.name) or "TIMESTAMP"
    check_alignment("CUMULATE", [size, step], time_type, _rowtime_read(source_def, time_column.name))
    alias = source.alias_or_name
    start_name, end_name = "window_start", "window_end"
    start = exp.Dot(this=exp.Anonymous(this="window", expressions=[time_column.copy(), exp.Literal.string(size)]),
                    expression=exp.to_identifier("start"))
    inner = exp.select(exp.Column(this=exp.Star(), table=exp.to_identifier(alias)), exp.alias_(start, start_name)).from_(source.copy())

    def interval(duration: str) -> exp.Expr:
        value, unit = duration.split()
        return exp.Interval(this=exp.Literal.string(value), unit=exp.Var(this=unit.rstrip("s").upper()))

    ends = exp.Anonymous(this="sequence", expressions=[
        exp.Add(this=exp.column(start_name), expression=interval(step)),
        exp.Add(this=exp.column(start_name), expression=interval(size)),
        interval(step),
    ])
    one_ms = exp.Interval(this=exp.Literal.string("0.001"), unit=exp.Var(this="SECOND"))
    lateral = exp.Lateral(this=exp.Explode(this=ends), view=True,
                          alias=exp.TableAlias(this=exp.to_identifier(_CUMULATE_VIEW), columns=[exp.to_identifier(end_name)]))
    outer = (exp.select(exp.Column(this=exp.Star(), table=exp.to_identifier(alias)), exp.column(end_name),
                        exp.alias_(exp.Sub(this=exp.column(end_name), expression=one_ms), "window_time"))
             .from_(exp.Subquery(this=inner, alias=exp.TableAlias(this=exp.to_identifier(alias))))
             .lateral(lateral)
             .where(exp.GT(this=exp.column(end_name), expression=exp.column(time_column.name, table=alias))))
    return exp.Subquery(this=outer, alias=outer_alias.copy() if outer_alias else exp.TableAlias(this=exp.to_identifier(alias)))


_STREAM_WINDOW = "__f2s_window"
_CUMULATE_VIEW = "f2s_cumulate"
_WINDOW_COLUMNS = ("window_start", "window_end", "window_time")


def _tvf_window_keys(select: Optional[exp.Select]) -> bool:
    """Whether the aggregation groups by the window of its window table function: GROUP BY
    window_start, window_end (Flink's window aggregation, a row per window once it ends)."""
    group = select.args.get("group") if select is not None else None
    keys = {e.name for e in (group.expressions if group else []) if isinstance(e, exp.Column) and e.name in _WINDOW_COLUMNS}
    return {"window_start", "window_end"} <= keys


def _group_by_stream_window(select: Optional[exp.Select], one_ms: exp.Expr) -> None:
    """The aggregation over a window TVF of a streaming query: GROUP BY window_start, window_end
    -> GROUP BY the window; window_start/_end/_time -> its start, end, end - 1 ms."""
    group = select.args.get("group") if select is not None else None
    keys = [e for e in (group.expressions if group else []) if isinstance(e, exp.Column) and e.name in _WINDOW_COLUMNS]
    if {k.name for k in keys} != {"window_start", "window_end"}:
        raise Untranslatable("window table function of a streaming query without GROUP BY window_start, window_end")
    window = exp.column(_STREAM_WINDOW)
    fields = {
        "window_start": lambda: exp.Dot(this=window.copy(), expression=exp.to_identifier("start")),
        "window_end": lambda: exp.Dot(this=window.copy(), expression=exp.to_identifier("end")),
        "window_time": lambda: exp.Sub(this=exp.Dot(this=window.copy(), expression=exp.to_identifier("end")), expression=one_ms.copy()),
    }
    group.set("expressions", [e for e in group.expressions if e not in keys] + [window.copy()])
    for projection in list(select.expressions):
        if isinstance(projection, exp.Column) and projection.name in _WINDOW_COLUMNS:
            projection.replace(exp.alias_(fields[projection.name](), projection.name))
    for node in list(select.find_all(exp.Column)):
        if node.name in _WINDOW_COLUMNS and node.find_ancestor(exp.Select) is select and node.parent is not None:
            node.replace(fields[node.name]())


def following_frame(sql: str) -> bool:
    """Whether an OVER window of the statement has a frame ending after the current row (``...
    AND n FOLLOWING``): Flink 2.3 runs it in batch mode only ("OVER RANGE FOLLOWING windows are
    not supported yet" in streaming mode, for ROWS too); False when the text does not parse."""
    try:
        tree = _parse_one(sql)
    except Untranslatable:
        return False
    return any((spec.args.get("end_side") or "").upper() == "FOLLOWING" for spec in tree.find_all(exp.WindowSpec))


def over_watermarks(sql: str, tables: Mapping[str, TableDef]) -> list[tuple[str, str]]:
    """The (column, delay) watermarks of the tables a statement reads that one of its OVER
    windows is ordered by (``OVER (... ORDER BY ts ...)`` with ``WATERMARK FOR ts``): Flink's
    streaming over aggregation drops the records at or behind the watermark; [] when none, or
    when the text does not parse."""
    try:
        tree = _parse_one(sql)
    except Untranslatable:
        return []
    marks = {t.watermark[0]: t.watermark for t in _read_tables(tree, tables) if t.watermark is not None}
    found = []
    for window in tree.find_all(exp.Window):
        order = window.args.get("order")
        for key in (order.expressions if order is not None else []):
            column = key.this if isinstance(key, exp.Ordered) else key
            if isinstance(column, exp.Column) and column.name in marks and marks[column.name] not in found:
                found.append(marks[column.name])
    return found


def streaming(sql: str, tables: Mapping[str, TableDef]) -> bool:
    """Whether a statement (query, INSERT, CREATE VIEW) reads an unbounded table; False when it
    does not parse (its translation is refused anyway)."""
    try:
        return is_streaming(_parse_one(sql), tables)
    except Untranslatable:
        return False


def updating(sql: str, tables: Mapping[str, TableDef], functions: Collection[str] = ()) -> bool:
    """Whether a statement (query, INSERT) is a streaming query that translates only for a
    consumer taking updates (an aggregation without a window over an unbounded table: an
    updating table in Flink); False when it translates as it is or does not at all."""
    try:
        tree = _parse_one(sql)
        source = tree.expression if isinstance(tree, exp.Insert) else tree
        if not isinstance(source, (exp.Query, exp.Values)):
            return False
        _translate(source, tables, functions)
    except Updating:
        return True
    except Untranslatable:
        return False
    return False


def is_streaming(tree: exp.Expr, tables: Mapping[str, TableDef]) -> bool:
    """Whether the statement reads an unbounded table (the program model's fact)."""
    return any(not t.bounded for t in _read_tables(tree, tables))


def _read_tables(tree: exp.Expr, tables: Mapping[str, TableDef]) -> list[TableDef]:
    ctes = {cte.alias_or_name for cte in tree.find_all(exp.CTE)}
    names = [t.name for t in tree.find_all(exp.Table) if isinstance(t.this, exp.Identifier) and not t.args.get("db")]
    for call in tree.find_all(exp.Anonymous):  # TABLE t inside a window table function
        if call.name.upper() == "TABLE_ARG":
            names.extend(e.name for e in call.expressions)
    return [tables[n] for n in names if n in tables and n not in ctes]


def _check_streaming(tree: exp.Expr, tables: Mapping[str, TableDef], updates: bool = False) -> None:
    """Refuse what Structured Streaming refuses or computes otherwise on a streaming query
    (Spark would fail at run time, or give other rows): what passes is projections, filters,
    UNION ALL and one window aggregation (group window or window TVF) on the time column the
    source's WATERMARK is declared on, which Spark finalises as Flink does (append mode); with
    ``updates`` (the consumer takes an updating table), also one aggregation without a window
    (Spark's update mode: the groups' state kept as Flink keeps it, with no TTL in either)."""
    what = "on a streaming query (a Kafka table)"
    for node in tree.walk():
        if isinstance(node, exp.Order) and not isinstance(node.parent, exp.Window):
            raise Untranslatable(f"ORDER BY {what}: Spark sorts a stream only after a complete-mode aggregation")
        if isinstance(node, (exp.Limit, exp.Fetch, exp.Offset)):
            raise Untranslatable(f"LIMIT/FETCH {what}")
        if isinstance(node, exp.Join) and not isinstance(node.this, exp.Unnest):  # explode: a projection
            raise Untranslatable(f"JOIN {what}: Flink keeps both inputs as state, Spark's stream joins need watermarks and time bounds")
        if isinstance(node, exp.Window):
            raise Untranslatable(f"OVER window {what}")
        if isinstance(node, exp.Select) and node.args.get("distinct"):
            raise Untranslatable(f"SELECT DISTINCT {what}: an updating table in Flink")
        if isinstance(node, (exp.Intersect, exp.Except)) or (isinstance(node, exp.Union) and node.args.get("distinct")):
            raise Untranslatable(f"{type(node).__name__.upper()} {what}")
        if isinstance(node, exp.Distinct) and isinstance(node.parent, exp.AggFunc):
            raise Untranslatable(f"DISTINCT aggregate {what}: Spark refuses it on streams")
        if isinstance(node, (exp.Exists, exp.In)) and node.find(exp.Select):
            raise Untranslatable(f"subquery in a condition {what}")
    read = [t for t in _read_tables(tree, tables) if not t.bounded]
    watermarks = {t.watermark[0] for t in read if t.watermark} | {t.proctime_watermark() for t in read} - {None}
    aggregating = [s for s in tree.find_all(exp.Select) if s.args.get("group") or any(
        a.find_ancestor(exp.Select) is s for a in s.find_all(exp.AggFunc))]
    if len(aggregating) > 1:
        raise Untranslatable(f"aggregation over an aggregation {what}")
    for select in aggregating:
        group = select.args.get("group")
        keys = group.expressions if group else []
        windows = [k for k in keys if _is_call(k, "TUMBLE", "HOP", "SESSION", "CUMULATE")]
        time = windows[0].expressions[0] if windows and windows[0].expressions else None
        if not windows:
            source = select.args.get("from_")
            call = source.this.this if source is not None and isinstance(source.this, exp.Table) else None
            if _is_call(call, "TABLE") and call.expressions and isinstance(call.expressions[0], exp.Anonymous):
                args = call.expressions[0].expressions
                time = args[1].expressions[0] if len(args) > 1 and _is_call(args[1], "DESCRIPTOR") and args[1].expressions else None
                if group and not _tvf_window_keys(select):
                    # GROUP BY window_start (without window_end), or other columns: seen on Flink
                    # 2.3, a GroupAggregate over the WindowTableFunction (+I/-U/+U per record);
                    # the TVF drops no late record, only a NULL time, as Spark's window() does
                    if updates:
                        _check_updating(select, what)
                        continue
                    raise Updating(f"aggregation over a window table function without GROUP BY window_start, window_end "
                                   f"{what}: Flink updates its rows as records come (an updating table)")
            elif not any(isinstance(k, exp.Column) and k.name in ("window_start", "window_end") for k in keys):
                if updates:
                    _check_updating(select, what)
                    continue
                raise Updating(f"aggregation without a window {what}: Flink updates its rows as records come (an updating table)")
        if not isinstance(time, exp.Column) or time.name not in watermarks:
            if isinstance(time, exp.Column) and time.name in _processing_time(tree, tables):
                raise Untranslatable(f"processing-time window (PROCTIME()) {what}: Flink closes it by the wall clock, even "
                                     "with no new records; Spark closes a streaming window only by an event-time watermark")
            raise Untranslatable(f"window {what} on a column without WATERMARK (Spark finalises windows by the watermark)")


def _processing_time(tree: exp.Expr, tables: Mapping[str, TableDef]) -> set[str]:
    """The columns of the tables the statement reads that are ``PROCTIME()`` (computed columns
    whose translation is the current time)."""
    return {name for t in _read_tables(tree, tables) for name, expression in t.computed
            if expression == _sql(_NOW)}


def _check_updating(select: exp.Select, what: str) -> None:
    """Refuse, around an aggregation without a window run in Spark's update mode, what makes
    Flink retract a group's row (-D): a condition on the aggregated rows (HAVING, a WHERE of an
    enclosing query) that turns false when a group changes; Spark's update mode then writes
    nothing for the group, and its last row stays. Set operations over the updating rows too."""
    if select.args.get("having"):
        raise Untranslatable(f"HAVING of an aggregation without a window {what}: Flink retracts a group's row when the "
                             "condition turns false, Spark's update mode writes nothing for it")
    node = select.parent
    while node is not None:
        if isinstance(node, exp.Select) and node.args.get("where"):
            raise Untranslatable(f"WHERE over an aggregation without a window {what}: Flink retracts a group's row when the "
                                 "condition turns false, Spark's update mode writes nothing for it")
        if isinstance(node, exp.SetOperation):
            raise Untranslatable(f"{type(node).__name__.upper()} of an aggregation without a window {what}")
        node = node.parent


_GROUP_WINDOW_FUNCTIONS = {
    "START": lambda w: exp.Column(this=exp.to_identifier("start"), table=exp.to_identifier(w)),
    "END": lambda w: exp.Column(this=exp.to_identifier("end"), table=exp.to_identifier(w)),
    "ROWTIME": lambda w: exp.Sub(
        this=exp.Column(this=exp.to_identifier("end"), table=exp.to_identifier(w)),
        expression=exp.Interval(this=exp.Literal.string("0.001"), unit=exp.Var(this="SECOND")),
    ),
}


def _group_windows(tree: exp.Expr, tables: Mapping[str, TableDef]) -> None:
    """GROUP BY TUMBLE(ts, size) -> GROUP BY window(ts, 'size'); TUMBLE_START(...) -> window.start."""
    types = _Types(tables, tree)
    for select in list(tree.find_all(exp.Select)):
        group = select.args.get("group")
        windows = [e for e in (group.expressions if group else []) if _is_call(e, "TUMBLE", "HOP", "SESSION", "CUMULATE")]
        auxiliary = [
            node
            for node in select.find_all(exp.Anonymous)
            if re.fullmatch(r"(TUMBLE|HOP|SESSION)_(START|END|ROWTIME|PROCTIME)", node.name.upper())
            and node.find_ancestor(exp.Select) is select
        ]
        if not windows:
            if auxiliary:
                raise Untranslatable(f"{auxiliary[0].name.upper()} without a group window in GROUP BY")
            continue
        if len(windows) > 1:
            raise Untranslatable("several group windows in one GROUP BY")
        (call,) = windows
        kind = call.name.upper()
        if kind == "CUMULATE":
            raise Untranslatable("CUMULATE window")
        spark_window, durations = _spark_window(kind, call.expressions, f"{kind} group window")
        time_column = call.expressions[0] if isinstance(call.expressions[0], exp.Column) else None
        source = select.args["from_"].this if select.args.get("from_") is not None and not select.args.get("joins") else None
        source_def = tables.get(source.name) if isinstance(source, exp.Table) and not source.args.get("db") else None
        check_alignment(kind, durations, types.of(call.expressions[0]),
                        _rowtime_read(source_def, time_column.name) if time_column is not None else None)
        window_name = spark_window.name
        for node in auxiliary:
            prefix, _, what = node.name.upper().partition("_")
            if prefix != kind or [a.sql(_SPARK) for a in node.expressions] != [a.sql(_SPARK) for a in call.expressions]:
                raise Untranslatable(f"{node.name.upper()} whose arguments differ from the GROUP BY {kind}")
            if what == "PROCTIME":
                raise Untranslatable(f"{node.name.upper()} (processing time of a window)")
            node.replace(_GROUP_WINDOW_FUNCTIONS[what](window_name))
        call.replace(spark_window)


# Flink's PROCTIME() and CURRENT_TIMESTAMP are TIMESTAMP_LTZ(3): milliseconds, where Spark's
# current_timestamp() has microseconds.
_NOW = exp.Anonymous(this="date_trunc", expressions=[exp.Literal.string("MILLISECOND"), exp.CurrentTimestamp()])
_DATE_PARTS = (exp.Year, exp.Month, exp.DayOfMonth, exp.DayOfWeek, exp.Quarter, exp.Hour, exp.Minute, exp.Second)
_EXTRACT_UNITS = {"YEAR", "QUARTER", "MONTH", "DAY", "HOUR", "MINUTE", "SECOND", "DOW"}
_CAST_TO_STRING_OK = {*_INT_TYPES, "STRING", "DOUBLE", "FLOAT", "DATE"}


def _sql(e: exp.Expr) -> str:
    return e.sql(_SPARK)


def _rewrite(node: exp.Expr, types: _Types) -> Optional[exp.Expr]:
    if isinstance(node, (exp.Min, exp.Max)):
        message = extreme_nan(_sql(node), types.of(node.this))
        if message is not None:
            types.notes.append(message)
        return None
    if isinstance(node, exp.Div):
        left, right = types.of(node.this), types.of(node.expression)
        if left in _INT_TYPES and right in _INT_TYPES:
            # Flink divides integers as Java does (truncating, in the operands' type); Spark's / gives DOUBLE.
            return _cast(exp.IntDiv(this=node.this, expression=node.expression), _arithmetic(left, right))
        result = _arithmetic(left, right)
        if result == "DOUBLE":
            return None
        if result == "FLOAT":
            return _cast(node.copy(), "FLOAT")
        raise Untranslatable(f"division {_sql(node)} of {left or 'unknown type'} by {right or 'unknown type'}")
    if isinstance(node, (exp.Avg, exp.Sum)):
        if isinstance(node.this, exp.Distinct) and len(node.this.expressions) == 1:
            argument_type = types.of(node.this.expressions[0])
        else:
            argument_type = types.of(node.this)
        name = "AVG" if isinstance(node, exp.Avg) else "SUM"
        if argument_type in _INT_TYPES:
            # Flink: AVG and SUM of an integer column are of that type (AVG truncates).
            target = node.parent if isinstance(node.parent, exp.Window) else node
            target.replace(_cast(target.copy(), argument_type))
            return None
        if argument_type == "DOUBLE" or (name == "SUM" and argument_type and argument_type.startswith("DECIMAL")):
            return None
        if argument_type is None:
            unknown = sorted({c.sql(_SPARK) for c in node.find_all(exp.Column) if types.of(c) is None})
            raise Untranslatable(f"{name} of an expression of unknown type: {_sql(node)[:60]}"
                                 + (f" (the type of {', '.join(unknown)} is not known)" if unknown else "")
                                 + f" (Flink's {name} of INTs is an INT, Spark's {'a DOUBLE' if name == 'AVG' else 'a BIGINT'})")
        raise Untranslatable(f"{name} of {argument_type}")
    if isinstance(node, (exp.Add, exp.Sub)) and isinstance(node.expression, exp.Interval):
        _check_interval_arithmetic(node, types)
        return None
    if isinstance(node, exp.Window) and isinstance(node.this, (exp.RowNumber, exp.Rank, exp.DenseRank)):
        return _cast(node.copy(), "BIGINT")  # BIGINT in Flink, INT in Spark
    if isinstance(node, (exp.Ceil, exp.Floor)):
        name = "CEIL" if isinstance(node, exp.Ceil) else "FLOOR"
        if node.args.get("to") is not None:
            return _floor_ceil_to(node, types)
        if node.args.get("decimals") is not None:
            raise Untranslatable(f"{name} with decimals")
        argument_type = types.of(node.this)
        if argument_type in (*_INT_TYPES, "DOUBLE", "FLOAT"):
            return _cast(node.copy(), argument_type)  # Spark's CEIL/FLOOR give BIGINT
        if argument_type and argument_type.startswith("DECIMAL"):
            return None
        raise Untranslatable(f"{name} of {argument_type or 'an expression of unknown type'}")
    if isinstance(node, exp.Like):
        pattern = node.expression
        if not (isinstance(pattern, exp.Literal) and pattern.is_string):
            raise Untranslatable("LIKE with a pattern that is not a string literal")
        if not isinstance(node.parent, exp.Escape) and "\\" in pattern.this:
            # Flink's LIKE has no escape character unless ESCAPE says; Spark's default is '\'.
            node.set("expression", exp.Literal.string(pattern.this.replace("\\", "\\\\")))
        return None
    if isinstance(node, exp.Initcap):
        return _initcap(node)
    if _is_call(node, "REGEXP_EXTRACT"):
        return _regexp_extract(node)
    if _is_call(node, "SPLIT_INDEX"):
        return _split_index(node, types)
    if _is_call(node, "REGEXP") and len(node.expressions) == 2:
        # Flink's REGEXP(s, r): whether r matches a part of s (find), NULL for NULLs -> RLIKE, which finds too
        return exp.RegexpLike(this=node.expressions[0].copy(), expression=node.expressions[1].copy())
    if isinstance(node, exp.Bracket):
        return _array_element(node, types)
    if _is_call(node, "CARDINALITY"):
        # Flink's CARDINALITY of an ARRAY: its length, NULL for NULL (seen on Flink 2.3) -> Spark's
        # array_size (NULL for NULL; size/cardinality give -1 unless ANSI is on)
        if len(node.expressions) != 1 or not _element_type(types.of(node.expressions[0])):
            raise Untranslatable(f"CARDINALITY of {types.of(node.expressions[0]) if node.expressions else 'nothing'} (of an ARRAY is translated)")
        return exp.Anonymous(this="array_size", expressions=[node.expressions[0].copy()])
    if isinstance(node, exp.JSONObject):
        return _json_object(node, types)
    if _is_call(node, "JSON_ARRAY"):
        return _json_array(node, types)
    if _is_call(node, "JSON_STRING"):
        return _json_string(node, types)
    if _is_call(node, "JSON_VALUE", "JSON_QUERY", "JSON_EXISTS"):
        form = {"JSON_VALUE": json_value, "JSON_QUERY": json_query, "JSON_EXISTS": json_exists}[node.name.upper()]
        return exp.maybe_parse(form(_sql(node.expressions[0]), _json_path(node)), dialect=_SPARK)
    if isinstance(node, (exp.FirstValue, exp.LastValue)) and not isinstance(node.parent, exp.Window):
        # the aggregate: Flink's skips NULLs (seen on Flink 2.3: FIRST_VALUE of NULL, 1, 2, NULL is
        # 1, LAST_VALUE 2; of NULLs only NULL), Spark's first_value/last_value with ignoreNulls
        # true (NOTE F2S326: the order the rows reach the aggregate)
        if not isinstance(node.this, (exp.Column, exp.Literal, exp.Cast)) or node.args.get("expression") is not None:
            raise Untranslatable(f"{node.sql_name()} other than {node.sql_name()}(value)")
        name = "first_value" if isinstance(node, exp.FirstValue) else "last_value"
        return exp.Anonymous(this=name, expressions=[node.this.copy(), exp.true()])
    if isinstance(node, exp.GroupConcat):
        separator = node.args.get("separator")
        if isinstance(node.this, (exp.Distinct, exp.Order)) or not (separator is None or (isinstance(separator, exp.Literal) and separator.is_string)):
            raise Untranslatable("LISTAGG other than LISTAGG(value[, 'separator'])")
        if separator is None:  # Flink's default separator; Spark's is ''
            node.set("separator", exp.Literal.string(","))
        return None
    if isinstance(node, exp.RegexpSplit):
        delimiter = node.expression
        if not (isinstance(delimiter, exp.Literal) and delimiter.is_string and delimiter.this
                and not re.search(r"[\\.\[\]{}()*+\-?^$|]", delimiter.this)) or node.args.get("limit") is not None:
            # Flink splits at the text of the delimiter, Spark at a regular expression
            raise Untranslatable("SPLIT with a delimiter other than a literal without regular expression characters")
        # Seen on Flink 2.3: SPLIT('', ';') is an empty array; Spark's split gives ['']
        empty = exp.Cast(this=exp.Array(expressions=[]), to=exp.DataType.build("ARRAY<STRING>", dialect=_SPARK))
        return exp.Case(ifs=[exp.If(this=exp.EQ(this=node.this.copy(), expression=exp.Literal.string("")), true=empty)],
                        default=node.copy())
    if isinstance(node, exp.Unnest):
        _check_unnest(node, types)
        return None
    if _is_call(node, "TIMESTAMP_MILLIS", "TIMESTAMP_SECONDS"):
        argument_type = types.of(node.expressions[0])
        if argument_type not in _INT_TYPES:
            raise Untranslatable(f"TO_TIMESTAMP_LTZ of {argument_type or 'an expression of unknown type'} (integers only)")
        return None
    if _is_call(node, "PROCTIME") and not node.expressions:
        return _NOW.copy()
    if isinstance(node, exp.CurrentTimestamp) and not _is_call(node.parent, "DATE_TRUNC"):
        return _NOW.copy()
    if isinstance(node, exp.Column) and not node.table and not node.this.quoted and node.name.upper() == "LOCALTIMESTAMP":
        # Flink's LOCALTIMESTAMP: the wall-clock time of the session time zone, a TIMESTAMP(3) (without
        # zone); Spark's localtimestamp() is one of microseconds
        return _cast(exp.Anonymous(this="date_trunc", expressions=[exp.Literal.string("MILLISECOND"),
                                                                     exp.Anonymous(this="localtimestamp")]), "TIMESTAMP_NTZ")
    if isinstance(node, _DATE_PARTS):
        return _cast(node.copy(), "BIGINT")  # BIGINT in Flink, INT in Spark
    if isinstance(node, exp.TimestampDiff):
        return _timestamp_diff(node, types)
    if isinstance(node, exp.TimestampAdd):
        _check_timestamp_add(node, types)
        return None
    if _is_call(node, "NOW") and not node.expressions:
        return _NOW.copy()  # Flink's NOW() is its CURRENT_TIMESTAMP
    if isinstance(node, exp.Extract):
        unit = node.this.name.upper() if isinstance(node.this, exp.Var) else ""
        if unit not in _EXTRACT_UNITS:
            raise Untranslatable(f"EXTRACT({unit or _sql(node.this)} FROM ...)")
        return _cast(node.copy(), "BIGINT")  # BIGINT in Flink; Spark's EXTRACT(SECOND) is a DECIMAL
    if isinstance(node, exp.TsOrDsToDate) and not isinstance(node.parent, _DATE_PARTS):
        raise Untranslatable(f"{_sql(node)[:60]}")
    if isinstance(node, exp.Pad):
        fill = node.args.get("fill_pattern")
        if isinstance(fill, exp.Literal) and fill.this == "":
            raise Untranslatable("LPAD/RPAD with an empty pad (Flink fails, Spark pads nothing)")
    if isinstance(node, (exp.Upper, exp.Lower)):
        if isinstance(node.this, exp.Literal) and not node.this.this.isascii():
            raise Untranslatable("UPPER/LOWER of a non-ASCII literal (Flink keeps the CHAR(n) length of the literal)")
    if isinstance(node, (exp.Cast, exp.TryCast)):
        _check_cast(node, types)
        if node.to.this == exp.DataType.Type.DATE and types.of(node.this) == "TIMESTAMP_NTZ" and _may_precede_1970(node.this, types):
            types.notes.append((DATE_BEFORE_1970, f"{_sql(node)}"))
    return None


def _literal_after_1970(value: exp.Expr) -> bool:
    """NULL, or a TIMESTAMP literal (translated: ``CAST('...' AS TIMESTAMP_NTZ)``) of 1970 or later
    or of a midnight."""
    if isinstance(value, exp.Null) or (isinstance(value, exp.Cast) and isinstance(value.this, exp.Null)):
        return True
    return isinstance(value, exp.Cast) and isinstance(value.this, exp.Literal) and value.this.is_string \
        and not _may_precede_1970(value)


# A NOTE of the translation other than F2S329 (``query(..., notes=)``: (this, its subject)):
# CAST(ts AS DATE) of a TIMESTAMP, seen on Flink 2.3: the date of a time before 1970 that is not
# midnight is the next day (1969-12-31 23:59:59.5, 1969-12-31 12:00 and 1960-06-15 10:00 are
# 1970-01-01, 1970-01-01, 1960-06-16; 1969-12-31 00:00 is itself; a TIMESTAMP_LTZ's is right).
DATE_BEFORE_1970 = "date_before_1970"


def _may_precede_1970(value: exp.Expr, types: Optional["_Types"] = None) -> bool:
    """Whether a TIMESTAMP ``value`` (translated) may be a time before 1970 that is not midnight:
    False for a TIMESTAMP literal of 1970 or later or of a midnight, for the current time, and for
    a column whose values are such literals (``_Types.after_1970``: of VALUES rows, of a view of them)."""
    if types is not None and isinstance(value, exp.Column) and types.after_1970(value):
        return False
    if isinstance(value, exp.Cast) and isinstance(value.this, exp.Literal) and value.this.is_string:
        found = re.fullmatch(r"\s*(\d{4})-\d{1,2}-\d{1,2}(?:[ T](\d{1,2}):(\d{1,2})(?::(\d{1,2})(?:\.(\d*))?)?)?\s*", value.this.this)
        if found:
            year, *time = found.groups()
            return int(year) < 1970 and any(int(part or 0) for part in time)
    if value.find(exp.Column, exp.Interval) is None and not any(isinstance(c.this, exp.Literal) for c in value.find_all(exp.Cast)):
        return False  # LOCALTIMESTAMP, CURRENT_TIMESTAMP: now
    return True


_DIFF_UNITS = ("SECOND", "MINUTE", "HOUR", "DAY")
_FLOOR_UNITS = ("SECOND", "MINUTE", "HOUR", "DAY", "MONTH", "QUARTER", "YEAR")


def _floor_ceil_to(node: exp.Expr, types: "_Types") -> exp.Expr:
    """Flink ``FLOOR(ts TO unit)`` / ``CEIL(ts TO unit)`` of a TIMESTAMP or a DATE, seen on Flink 2.3
    (a TIMESTAMP(3) or a DATE, NULL for NULL):
    * FLOOR: the start of the unit ts is in.  TIMESTAMP, SECOND to YEAR -> ``CAST(date_trunc(unit,
      ts) AS TIMESTAMP_NTZ)`` (date_trunc gives a TIMESTAMP; back to the same wall-clock time).
      Flink 2.3 floors a time before 1970 TO MONTH/QUARTER/YEAR from the next day (1969-12-31
      23:59:59.5 TO MONTH is 1970-01-01): not done here (NOTE F2S313 of the caller, by
      ``DATE_TRUNC('MONTH'`` ...).  DATE, MONTH/QUARTER/YEAR -> ``trunc(d, unit)``, DAY -> d.
      WEEK: the Sunday before (Flink's weeks start on Sunday, Spark's date_trunc's on Monday) ->
      ``date_sub(day, dayofweek(ts) - 1)`` (of a TIMESTAMP before 1970: NOTE F2S348, as CEIL).
    * CEIL TO SECOND/MINUTE/HOUR/DAY of a TIMESTAMP: the start of the next unit unless ts is one ->
      ``CASE WHEN <floor> = ts THEN <floor> ELSE <floor> + INTERVAL 1 unit END``.
    * CEIL TO WEEK/MONTH/QUARTER/YEAR (Calcite's julianDateFloor, of ts's day, its time of day not
      looked at): MONTH the day itself if it is a month's first day, else the next month's first
      (2024-05-01 10:00 is 2024-05-01 00:00, 2024-05-02 is 2024-06-01); YEAR January 1st itself,
      else the next January 1st; QUARTER January 1st itself, else the first day of the next quarter
      (2024-04-01 is 2024-07-01, 2024-10-01 2025-01-01: only January 1st stays); WEEK the day itself
      if a Sunday, else the next Sunday (2024-05-12 15:00 is 2024-05-12 00:00, 2024-05-13 00:00
      2024-05-19) -> ``CASE`` of ``dayofmonth``/``month``/``trunc``/``add_months``/``date_add``, of
      ``CAST(ts AS DATE)`` for a TIMESTAMP (back to TIMESTAMP_NTZ).  Flink 2.3 takes the day of a
      time before 1970 that is not midnight as the next day: NOTE F2S348 (``types.notes``).
    CEIL(d TO DAY) of a DATE is d + 1 in Flink 2.3 (even though d is a day's start): refused.
    MILLISECOND, DECADE and longer: refused."""
    name = "CEIL" if isinstance(node, exp.Ceil) else "FLOOR"
    unit = node.args["to"].name.upper() if isinstance(node.args["to"], (exp.Var, exp.Column)) else ""
    argument_type = types.of(node.this)
    what = f"{name}(... TO {unit or _sql(node.args['to'])}) of {argument_type or 'an expression of unknown type'}"
    if unit not in (*_FLOOR_UNITS, "WEEK") or argument_type not in ("TIMESTAMP_NTZ", "DATE"):
        raise Untranslatable(what)
    value = node.this
    if unit == "WEEK" and name == "FLOOR":
        # Flink's weeks start on Sunday (Spark's date_trunc('WEEK') on Monday): the day less its
        # day of the week (dayofweek: 1 for Sunday in Spark)
        day = value.copy() if argument_type == "DATE" else _cast(value.copy(), "DATE")
        if argument_type != "DATE" and _may_precede_1970(value, types):  # of the next day before 1970 (1969-12-27 12:00 is 1969-12-28)
            types.notes.append((DATE_BEFORE_1970, f"FLOOR({_sql(value)} TO WEEK)"))
        days_in = exp.Sub(this=exp.DayOfWeek(this=value.copy()), expression=exp.Literal.number(1))
        sunday = exp.Anonymous(this="date_sub", expressions=[day, days_in])
        return sunday if argument_type == "DATE" else _cast(sunday, "TIMESTAMP_NTZ")
    if name == "CEIL" and unit in ("WEEK", "MONTH", "QUARTER", "YEAR"):
        return _ceil_to_day_based(node, unit, argument_type, types)
    if argument_type == "DATE":
        if unit == "DAY":
            if name == "CEIL":
                raise Untranslatable(f"{what} (Flink 2.3 gives the next day, even for a date)")
            return value.copy()
        if unit not in ("MONTH", "QUARTER", "YEAR"):
            raise Untranslatable(what)
        return exp.Anonymous(this="trunc", expressions=[value.copy(), exp.Literal.string(unit)])
    floor = _cast(exp.Anonymous(this="date_trunc", expressions=[exp.Literal.string(unit), value.copy()]), "TIMESTAMP_NTZ")
    if name == "FLOOR":
        return floor
    later = exp.Add(this=floor.copy(), expression=exp.Interval(this=exp.Literal.string("1"), unit=exp.Var(this=unit)))
    return exp.Case(ifs=[exp.If(this=exp.EQ(this=floor.copy(), expression=value.copy()), true=floor)], default=later)


def _ceil_to_day_based(node: exp.Expr, unit: str, argument_type: str, types: "_Types") -> exp.Expr:
    """``CEIL(x TO WEEK|MONTH|QUARTER|YEAR)`` as Flink 2.3 computes it from x's day (``_floor_ceil_to``)."""
    value = node.this
    day = value.copy() if argument_type == "DATE" else _cast(value.copy(), "DATE")
    if argument_type != "DATE" and _may_precede_1970(value, types):
        types.notes.append((DATE_BEFORE_1970, f"CEIL({_sql(value)} TO {unit})"))

    def number(n: int) -> exp.Expr:
        return exp.Literal.number(n)

    def first_of_month() -> exp.Expr:
        return exp.EQ(this=exp.DayOfMonth(this=day.copy()), expression=number(1))

    if unit == "WEEK":
        # Spark's dayofweek: 1 for Sunday; the days to the next Sunday, 0 on a Sunday
        ahead = exp.Mod(this=exp.Paren(this=exp.Sub(this=number(8), expression=exp.DayOfWeek(this=day.copy()))),
                        expression=number(7))
        result: exp.Expr = exp.Anonymous(this="date_add", expressions=[day.copy(), ahead])
    else:
        months = {"MONTH": 1, "QUARTER": 3, "YEAR": 12}[unit]
        stays = first_of_month() if unit == "MONTH" else exp.And(
            this=exp.EQ(this=exp.Month(this=day.copy()), expression=number(1)), expression=first_of_month())
        start = exp.Anonymous(this="trunc", expressions=[day.copy(), exp.Literal.string(unit)])
        later = exp.Anonymous(this="add_months", expressions=[start, number(months)])
        result = exp.Case(ifs=[exp.If(this=stays, true=day.copy())], default=later)
    return result if argument_type == "DATE" else _cast(result, "TIMESTAMP_NTZ")


def _initcap(node: exp.Initcap) -> exp.Expr:
    """Flink ``INITCAP(s)`` (Calcite's): a word is a run of ASCII letters and digits; its first
    character in upper case if a letter, its other letters in lower case; every other character
    (a blank, ' _ - , a non-ASCII letter) stays as it is and ends a word (seen on Flink 2.3: "it's
    foo_bar 2nd élan" is "It'S Foo_Bar 2nd éLan").  Spark's initcap splits at blanks only and
    changes non-ASCII letters -> per character: ``array_join(transform(sequence(1, char_length(s)),
    i -> CASE WHEN <letter> THEN IF(<after a letter or digit>, lower(c), upper(c)) ELSE c END),
    '')``, '' for '' (``sequence(1, 0)`` counts down), NULL for NULL."""
    if node.args.get("expression") is not None and _sql(node.args["expression"]) != "' '":
        raise Untranslatable("INITCAP with delimiters")
    text = node.this
    i = exp.to_identifier("f2s_i")

    def char(offset: int) -> exp.Expr:
        position: exp.Expr = exp.column(i.copy()) if not offset else exp.Sub(this=exp.column(i.copy()), expression=exp.Literal.number(-offset))
        return exp.Substring(this=text.copy(), start=position, length=exp.Literal.number(1))

    after_word = exp.And(this=exp.GT(this=exp.column(i.copy()), expression=exp.Literal.number(1)),
                         expression=exp.RegexpLike(this=char(-1), expression=exp.Literal.string("[A-Za-z0-9]")))
    each = exp.Case(ifs=[exp.If(this=exp.RegexpLike(this=char(0), expression=exp.Literal.string("[A-Za-z]")),
                                true=exp.If(this=after_word, true=exp.Lower(this=char(0)), false=exp.Upper(this=char(0))))],
                    default=char(0))
    positions = exp.Anonymous(this="sequence", expressions=[exp.Literal.number(1), exp.Length(this=text.copy())])
    chars = exp.Anonymous(this="transform", expressions=[positions, exp.Lambda(this=each, expressions=[i.copy()])])
    joined = exp.Anonymous(this="array_join", expressions=[chars, exp.Literal.string("")])
    return exp.Case(ifs=[exp.If(this=exp.EQ(this=text.copy(), expression=exp.Literal.string("")), true=text.copy())], default=joined)


def _timestamp_diff(node: exp.TimestampDiff, types: _Types) -> exp.Expr:
    """Flink ``TIMESTAMPDIFF(unit, a, b)`` of two TIMESTAMPs or two DATEs, in SECONDs, MINUTEs,
    HOURs or DAYs: the whole units from a to b, truncated toward zero (10:00:59 to 10:01:00 is 0
    MINUTE, 10:01:00 to 10:00:01 is 0), an INT (seen on Flink 2.3) -> Spark's ``timestampdiff``
    (``ChronoUnit.between`` of the wall-clock times: truncated too), a BIGINT cast to INT.  MONTH,
    QUARTER, YEAR (month ends) and TIMESTAMP_LTZs (a daylight saving change in the session time
    zone: Spark counts wall-clock hours) are not translated."""
    unit = node.args.get("unit")
    name = unit.name.upper().rstrip("S") if isinstance(unit, (exp.Var, exp.Column)) else ""
    operands = {types.of(node.this), types.of(node.expression)}
    if name not in _DIFF_UNITS:
        raise Untranslatable(f"TIMESTAMPDIFF({name or _sql(unit)}, ...) (SECOND, MINUTE, HOUR and DAY are translated)")
    if operands not in ({"TIMESTAMP_NTZ"}, {"DATE"}):
        described = " and ".join(sorted(t or "unknown type" for t in operands))
        raise Untranslatable(f"TIMESTAMPDIFF of {described} (two TIMESTAMPs or two DATEs are translated)")
    return _cast(node.copy(), "INT")


_ADD_UNITS = ("SECOND", "MINUTE", "HOUR", "DAY", "WEEK", "MONTH", "QUARTER", "YEAR")


def _check_timestamp_add(node: exp.TimestampAdd, types: _Types) -> None:
    """Flink ``TIMESTAMPADD(unit, n, ts)`` of a TIMESTAMP and an integer n: ``ts + n units`` (a
    month added to Jan 31 is the month's last day, as ``ts + INTERVAL '1' MONTH``) -> Spark's
    ``timestampadd``, the same (of a TIMESTAMP_NTZ, a TIMESTAMP_NTZ).  Of a DATE Flink gives a DATE,
    Spark a TIMESTAMP; of a TIMESTAMP_LTZ a daylight saving change may differ: not translated."""
    unit = node.args.get("unit")
    name = unit.name.upper().rstrip("S") if isinstance(unit, (exp.Var, exp.Column)) else ""
    if name not in _ADD_UNITS:
        raise Untranslatable(f"TIMESTAMPADD({name or _sql(unit)}, ...)")
    amount, operand = types.of(node.expression), types.of(node.this)
    if operand != "TIMESTAMP_NTZ" or amount not in _INT_TYPES:
        raise Untranslatable(f"TIMESTAMPADD of {amount or 'unknown type'} to {operand or 'unknown type'} "
                             "(an integer to a TIMESTAMP is translated)")


def _check_unnest(node: exp.Unnest, types: _Types) -> None:
    """``FROM t CROSS JOIN UNNEST(a) AS u(x)`` (or ``FROM t, UNNEST(a) AS u(x)``): each row of t
    with each element of its array a, in the array's order, none for an empty or NULL array
    (checked on both) -> Spark's ``LATERAL VIEW explode(a) u AS x`` (sqlglot writes it).  Flink
    spreads an array of ROWs over several columns, and a MAP over two: only arrays of other
    element types; LEFT JOIN UNNEST (explode_outer), WITH ORDINALITY: not translated."""
    join = node.parent
    alias = node.args.get("alias")
    if not isinstance(join, exp.Join) or join.side or (join.kind or "CROSS").upper() != "CROSS" or join.args.get("on") is not None:
        raise Untranslatable("UNNEST other than in FROM t CROSS JOIN UNNEST(array) AS u(x)")
    if node.args.get("offset") or len(node.expressions) != 1 or alias is None or len(alias.columns) != 1:
        raise Untranslatable("UNNEST other than of one array named by AS u(x) (WITH ORDINALITY, several arrays)")
    array_type = types.of(node.expressions[0])
    element = _element_type(array_type)
    if element is None or element.startswith(("STRUCT<", "MAP<")):
        raise Untranslatable(f"UNNEST of {array_type or 'an expression of unknown type'} (an ARRAY of other than ROWs is translated)")


def _check_interval_arithmetic(node: exp.Expr, types: _Types) -> None:
    """ts +/- INTERVAL 'n' SECOND|MINUTE|HOUR|DAY|MONTH|YEAR on a timestamp, date +/- INTERVAL 'n' DAY: the
    same in both (2024-01-31 10:00 + 1 month is 2024-02-29 10:00 in both).  Seen on Flink 2.3: DATE
    '2024-01-01' + INTERVAL '1' HOUR is the DATE 2024-01-01; in Spark the TIMESTAMP 2024-01-01 01:00."""
    interval = node.expression
    unit = interval.args.get("unit")
    unit_name = unit.name.upper().rstrip("S") if isinstance(unit, exp.Var) else ""
    operand = types.of(node.this)
    if operand in ("TIMESTAMP_NTZ", "TIMESTAMP") and (unit_name in _UNITS or unit_name in ("MONTH", "YEAR")):
        return
    if operand == "DATE" and unit_name == "DAY":
        return
    raise Untranslatable(f"{_sql(node)} ({operand or 'operand of unknown type'} with an interval of {unit_name or _sql(interval)})")


def _check_cast(node: exp.Expr, types: _Types) -> None:
    to = node.to
    kind = to.this
    params = [p.name for p in to.expressions]
    if kind in (exp.DataType.Type.CHAR, exp.DataType.Type.VARCHAR, exp.DataType.Type.NCHAR, exp.DataType.Type.NVARCHAR):
        # Seen on Flink 2.3: CAST('abc' AS VARCHAR(2)) is 'ab', CAST('abc' AS CHAR(5)) 'abc  ', CAST('abc' AS VARCHAR) 'abc'.
        if params not in ([], ["2147483647"]) or kind != exp.DataType.Type.VARCHAR:
            raise Untranslatable(f"CAST to {kind.value}({', '.join(params) or '1'}) (Flink truncates and pads to the length)")
        node.set("to", exp.DataType.build("STRING", dialect=_SPARK))
    if kind in (exp.DataType.Type.TIMESTAMPNTZ, exp.DataType.Type.TIMESTAMPTZ) and params and params != ["6"]:
        raise Untranslatable(f"CAST to a timestamp of precision {params[0]} (Spark keeps microseconds)")
    if kind in (exp.DataType.Type.TIME, exp.DataType.Type.TIMETZ):
        raise Untranslatable("type TIME (Spark has no time-of-day type)")
    if node.to.this == exp.DataType.Type.TEXT or _sql(node.to).upper() == "STRING":
        source = types.of(node.this)
        if isinstance(node.this, exp.Null):
            return
        if source not in _CAST_TO_STRING_OK and not (source and source.startswith("DECIMAL")):
            raise Untranslatable(f"CAST of {source or 'an expression of unknown type'} to STRING")


def _regexp_extract(node: exp.Anonymous) -> exp.Expr:
    """Flink REGEXP_EXTRACT(s, r[, i]): group i (default 0, the whole match) of the first match, NULL
    when nothing matches.  Spark's regexp_extract defaults to group 1 and gives '' when nothing
    matches: CASE WHEN s RLIKE r THEN regexp_extract(s, r, i) END (RLIKE finds, as Flink does)."""
    args = node.expressions
    if len(args) not in (2, 3):
        raise Untranslatable("REGEXP_EXTRACT with other than 2 or 3 arguments")
    string, pattern = args[0], args[1]
    index = args[2] if len(args) == 3 else exp.Literal.number(0)
    if not (isinstance(pattern, exp.Literal) and pattern.is_string):
        raise Untranslatable("REGEXP_EXTRACT with a pattern that is not a string literal")
    if not (isinstance(index, exp.Literal) and not index.is_string):
        raise Untranslatable("REGEXP_EXTRACT with a group index that is not a number")
    if int(index.this) > 0 and re.search(r"[|?*{]", pattern.this):
        # A group that may not take part in a match: Flink gives NULL, Spark ''.
        raise Untranslatable("REGEXP_EXTRACT of a group that may not take part in the match")
    extract = exp.Anonymous(this="regexp_extract", expressions=[string.copy(), pattern.copy(), index.copy()])
    return exp.Case(ifs=[exp.If(this=exp.RegexpLike(this=string.copy(), expression=pattern.copy()), true=extract)])


_ALLOWED = (
    # structure
    exp.Select, exp.From, exp.Join, exp.Where, exp.Group, exp.Having, exp.Order, exp.Ordered, exp.Limit,
    exp.Union, exp.Intersect, exp.Except, exp.With, exp.CTE, exp.Subquery, exp.Values, exp.Tuple,
    exp.Table, exp.TableAlias, exp.Alias, exp.Column, exp.Identifier, exp.Star, exp.Dot, exp.Distinct,
    exp.Literal, exp.Boolean, exp.Null, exp.DataType, exp.DataTypeParam, exp.Var, exp.Interval,
    exp.Window, exp.WindowSpec, exp.Paren, exp.Filter, exp.Lateral, exp.Unnest, exp.Array,
    # operators
    exp.EQ, exp.NEQ, exp.GT, exp.GTE, exp.LT, exp.LTE, exp.NullSafeEQ, exp.NullSafeNEQ,
    exp.And, exp.Or, exp.Not, exp.Is, exp.In, exp.Between, exp.Exists, exp.Like, exp.Escape,
    exp.Add, exp.Sub, exp.Mul, exp.Mod, exp.Neg, exp.IntDiv, exp.Div, exp.DPipe, exp.RegexpLike,
    exp.Case, exp.If, exp.Cast, exp.TryCast, exp.Coalesce, exp.Nullif,
    # functions checked to give the same results
    exp.Length, exp.Substring, exp.StrPosition, exp.Upper, exp.Lower, exp.Trim, exp.Concat, exp.ConcatWs,
    exp.Replace, exp.Reverse, exp.Repeat, exp.Pad, exp.Left, exp.Right, exp.MD5, exp.Ascii, exp.ToBase64,
    exp.RegexpReplace, exp.Abs, exp.Sqrt, exp.Round, exp.Ceil, exp.Floor,
    *_DATE_PARTS, exp.Extract, exp.TsOrDsToDate, exp.CurrentDate, exp.CurrentTimestamp,
    exp.RegexpSplit, exp.GroupConcat, exp.TimestampDiff, exp.TimestampAdd,
    # GROUP BY GROUPING SETS/ROLLUP/CUBE (batch mode: _translate), without GROUPING()/GROUPING_ID()
    exp.GroupingSets, exp.Rollup, exp.Cube,
    exp.Count, exp.Sum, exp.Avg, exp.Min, exp.Max, exp.RowNumber, exp.Rank, exp.DenseRank, exp.Lag, exp.Lead,
    # what JSON_VALUE/JSON_QUERY become (json_value, json_query): no Flink SQL function parses to these
    exp.Lambda, exp.JSONFormat, exp.ArrayFilter, exp.VarMap,
    exp.JSONExtractScalar, exp.JSONPath, exp.JSONPathKey, exp.JSONPathRoot, exp.JSONPathSubscript,
)
_ALLOWED_CALLS = {"window", "session_window", "first_value", "last_value", "date_format", "from_unixtime", "unix_timestamp", "regexp_extract", "date_trunc",
                  "try_to_timestamp", "timestamp_millis", "timestamp_seconds", "unix_seconds", "get", "array_size", "localtimestamp",
                  "schema_of_variant", "try_variant_get", "try_parse_json", "try_to_date", "trunc", "add_months",
                  "sequence", "transform", "array_join", "date_sub", "named_struct", "date_add"}


def _check_allowed(tree: exp.Expr, functions: Collection[str] = frozenset()) -> None:
    for node in tree.walk():
        if isinstance(node, exp.Func) and not isinstance(node, exp.Anonymous) and node.sql_name().lower() in functions:
            # Flink's temporary system function hides the built-in one; Spark's does not
            raise Untranslatable(f"function {node.sql_name()} registered by the program under a built-in function's name")
        if isinstance(node, exp.Anonymous):
            if node.name not in _ALLOWED_CALLS and node.name.lower() not in functions:
                if node.name.upper() == "GROUP_CONCAT":
                    raise Untranslatable("function GROUP_CONCAT (not a Flink built-in, nor a function the program registers: "
                                         "Flink's is LISTAGG)")
                raise Untranslatable(f"function {node.name.upper()}")
        elif isinstance(node, exp.Bracket):
            # m['key'] of a MAP: NULL for a missing key in both (Spark too with ANSI on: checked). An
            # ARRAY's index counts from 1 in Flink, from 0 in Spark: refused.
            keys = node.expressions
            if len(keys) != 1 or not (isinstance(keys[0], exp.Literal) and keys[0].is_string):
                raise Untranslatable(f"{_sql(node)[:60]} (an index that is not a string literal: arrays count from 1 in Flink, from 0 in Spark)")
        elif isinstance(node, exp.Explode) and isinstance(node.parent, exp.Lateral) and node.parent.alias == _CUMULATE_VIEW:
            pass  # CUMULATE's window ends (_cumulate); Flink has no EXPLODE
        elif not isinstance(node, _ALLOWED):
            if isinstance(node, exp.Func):
                raise Untranslatable(f"function {node.sql_name()}")
            raise Untranslatable(f"{type(node).__name__} ({_sql(node)[:60]})")
        if isinstance(node, exp.Column) and not node.table and node.name.upper() in ("LOCALTIMESTAMP", "CURRENT_TIME", "LOCALTIME", "CURRENT_ROW_TIMESTAMP"):
            raise Untranslatable(f"function {node.name.upper()}")
        if isinstance(node, exp.Join) and node.args.get("kind") and node.args["kind"].upper() not in ("INNER", "OUTER", "CROSS"):
            raise Untranslatable(f"{node.args['kind'].upper()} JOIN")
