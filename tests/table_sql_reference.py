"""Flink SQL queries run on real Flink (the reference engine) to compare with their Spark translations.

``CASES`` are the queries (Flink SQL) over ``TABLES`` (tiny inline data, the same for both engines);
tests/test_table_sql.py translates each query with ``rules.table._sql`` and runs the translation on
Spark over the same data.  What Flink gives is recorded once in ``tests/data/table_sql_flink.json``:

    python tests/table_sql_reference.py          # re-record (one PyFlink program, one JVM, ~30 s)

This file is also the PyFlink program: ``python table_sql_reference.py --run`` (run by the reference
interpreter, .venv-flink) prints the results as one JSON line.  Flink runs in batch mode with the
session time zone UTC (Spark's session time zone is set to UTC in the test too).
"""

from __future__ import annotations

import datetime
import decimal
import csv
import json
import os
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
RECORDING = HERE / "data" / "table_sql_flink.json"
MARKER = "TABLE_SQL_RESULTS "

# name -> (columns as (name, Flink type), rows)
TABLES: dict[str, tuple[list[tuple[str, str]], list[tuple]]] = {
    "nums": (
        [("k", "STRING"), ("x", "INT"), ("y", "INT"), ("d", "DOUBLE")],
        [("a", 7, 2, 1.5), ("a", -7, 2, -2.25), ("a", 5, -3, 10.0), ("b", 1, 4, None), ("b", None, 1, 0.5), ("c", 9, 9, 2.5)],
    ),
    "events": (
        [("user_name", "STRING"), ("amount", "INT"), ("ts", "TIMESTAMP(3)")],
        [
            ("alice", 10, "2024-01-01 10:00:00"),
            ("alice", 20, "2024-01-01 10:04:59.999"),
            ("bob", 5, "2024-01-01 10:05:00"),
            ("alice", 1, "2024-01-01 10:09:00"),
            ("bob", 7, "2024-01-01 10:14:00"),  # exactly the 9 minute gap after 10:05 (session windows)
            ("bob", 3, "2024-01-01 10:40:00"),
            ("carol", 4, "2024-01-01 11:02:00"),
        ],
    ),
    "customers": (
        [("id", "INT"), ("name", "STRING"), ("city", "STRING")],
        [(1, "Ann", "Paris"), (2, "Bo", "Oslo"), (3, "Cy", None)],
    ),
    "orders": (
        [("oid", "BIGINT"), ("cid", "INT"), ("price", "DECIMAL(10, 2)"), ("note", "STRING")],
        [(100, 1, "9.99", "first order"), (101, 1, "20.00", "a_b\\c"), (102, 2, "5.50", None), (103, 4, "1.25", "x123y45")],
    ),
    # time as text and epoch milliseconds, arrays (TO_TIMESTAMP, TO_TIMESTAMP_LTZ, UNNEST)
    "visits": (
        [("vid", "INT"), ("tags", "ARRAY<STRING>"), ("line", "STRING"), ("ts_text", "STRING"), ("day_text", "STRING"), ("ms", "BIGINT")],
        [
            (1, ["a", "b"], "red green  red", "2024-01-01 10:00:00", "01/02/2024 10:11", 1704103200123),
            (2, ["c"], "blue ", "2024-1-5 08:30:00.123456", "15/03/2024 23:59", 1704103260000),
            (3, None, None, "x", "2024-13-01", None),
            (4, ["a", None, "b"], "green", "2024-02-29", "31/12/2023 00:00", 0),
            (5, ["d"], " red", "2024-02-29 23:59:59.5", "30/04/2024 10:00", -1500),
        ],
    ),
    # dates and times as text of several shapes, and words (TO_DATE, FLOOR/CEIL TO, INITCAP)
    "stamps": (
        [("sid", "INT"), ("txt", "STRING"), ("ts", "TIMESTAMP(3)"), ("words", "STRING")],
        [
            (1, "2024-01-05", "2024-05-15 10:17:23.456", "hello world"),
            (2, "2024-1-5 10:00:00", "2024-01-01 00:00:00", "it's foo_bar baz-qux"),
            (3, "2024-02-30", "2024-03-31 23:59:59.999", "x1y 2nd 3RD camelCase"),
            (4, "x", "2023-12-31 12:00:00", "\u00e9lan \u00c9COLE \u00f1and\u00fa stra\u00dfe"),
            (5, "", "2024-02-29 00:00:00.001", "  two  spaces\ttab"),
            (6, " 2024-12-31 ", "2024-07-01 00:00:00", "o'neil (a)b [c]d #e @f"),
            (7, "2023-02-29", "1969-12-31 23:59:59.5", ""),
            (8, "2024", "2024-06-30 23:00:00", "ABC"),
            (9, "01/02/2024", "2024-12-31 23:59:59", "\u65e5\u672c \u8a9e \u03c3\u03b1\u03c2"),
            (10, None, None, None),
        ],
    ),
}

CASES: dict[str, str] = {
    "json_value": "SELECT n, JSON_VALUE(js, '$.a') AS a, JSON_VALUE(js, '$.b') AS b, JSON_VALUE(js, '$.c') AS c, "
    "JSON_VALUE(js, '$.c.d') AS cd, JSON_VALUE(js, '$.e') AS e, JSON_VALUE(js, '$.e[1]') AS e1, JSON_VALUE(js, '$.f') AS f, "
    "JSON_VALUE(js, '$.missing') AS x, JSON_VALUE(js, '$.h') AS h, JSON_VALUE(js, '$.j') AS j, JSON_VALUE(js, '$.l') AS l, "
    "JSON_VALUE(js, '$[0]') AS first, JSON_VALUE(js, '$') AS root FROM (VALUES "
    "(1, '{\"a\": 1, \"b\": \"x\", \"c\": {\"d\": true}, \"e\": [1, 2], \"f\": null, \"h\": \"\\u00e9\", "
    "\"j\": 12345678901234, \"l\": \"{\\\"z\\\": 1}\"}'), (2, '{'), (3, ''), (4, '[7, 8]'), (5, '{\"a\": \"1\", \"c\": []}'), "
    "(6, CAST(NULL AS STRING))) AS v(n, js)",
    "json_query_exists": "SELECT n, JSON_QUERY(js, '$.c') AS c, JSON_QUERY(js, 'lax $.c.z') AS cz, JSON_QUERY(js, '$.e') AS e, "
    "JSON_QUERY(js, '$.a') AS a, JSON_QUERY(js, '$.f') AS f, JSON_QUERY(js, '$.n') AS nn, JSON_QUERY(js, '$[1]') AS at1, "
    "JSON_QUERY(js, '$') AS root, JSON_EXISTS(js, '$.a') AS xa, JSON_EXISTS(js, '$.f') AS xf, JSON_EXISTS(js, '$.missing') AS xm, "
    "JSON_EXISTS(js, '$.e[1]') AS xe1, JSON_EXISTS(js, '$.e[5]') AS xe5, JSON_EXISTS(js, 'lax $.c.z[1].y') AS xy, "
    "JSON_EXISTS(js, '$') AS xroot FROM (VALUES "
    "(1, '{\"a\": 1, \"b\": \"x\", \"c\": {\"z\": [1, {\"y\": null}], \"d\": true}, \"e\": [1, 2], \"f\": null, \"h\": \"\\u00e9\\t\", "
    "\"l\": \"{\\\"z\\\": 1}\", \"n\": [[], {}]}'), (2, '{'), (3, ''), (4, '[7, {\"k\": \"v\"}]'), (5, '{\"a\": \"1\", \"c\": []}'), "
    "(6, CAST(NULL AS STRING))) AS v(n, js)",
    "json_object_array": "SELECT oid, JSON_OBJECT('oid' VALUE oid, 'note' VALUE note, 'price' VALUE price, KEY 'cid' VALUE cid) AS o, "
    "JSON_OBJECT('note' VALUE note, 'id' VALUE cid ABSENT ON NULL) AS absent, JSON_OBJECT('order' VALUE JSON_OBJECT('id' VALUE oid, "
    "'note' VALUE note), 'tags' VALUE JSON_ARRAY(note, 'x'), 'ids' VALUE JSON_ARRAY(oid, cid, CAST(NULL AS INT)), "
    "'label' VALUE UPPER(note), 'tag' VALUE 'a\\b\"c') AS nested, "
    "JSON_ARRAY(oid, cid) AS ids, JSON_ARRAY(note) AS notes, JSON_ARRAY(price, price) AS prices, JSON_OBJECT() AS empty_object, "
    "JSON_ARRAY() AS empty_array, JSON_OBJECT('v' VALUE JSON_VALUE('{\"k\": [1]}', '$.k[0]'), 'q' VALUE JSON_QUERY('{\"k\": [1]}', '$.k')) AS texts FROM orders",
    "json_string": "SELECT oid, JSON_STRING(oid) AS o, JSON_STRING(cid) AS c, JSON_STRING(note) AS n, JSON_STRING(CAST(cid > 1 AS BOOLEAN)) AS b, "
    "JSON_STRING('x\\y\"z') AS s FROM orders",
    "ceil_week_quarter": "SELECT n, CEIL(ts TO WEEK) AS cw, CEIL(ts TO MONTH) AS cm, CEIL(ts TO QUARTER) AS cq, CEIL(ts TO YEAR) AS cy, "
    "CEIL(CAST(ts AS DATE) TO WEEK) AS cdw, CEIL(CAST(ts AS DATE) TO QUARTER) AS cdq, CEIL(CAST(ts AS DATE) TO MONTH) AS cdm, "
    "FLOOR(ts TO WEEK) AS fw, CAST(ts AS DATE) AS d FROM (VALUES (1, TIMESTAMP '2024-05-01 10:00:00'), "
    "(2, TIMESTAMP '2024-01-01 10:00:00'), (3, TIMESTAMP '2024-04-01 00:00:00'), (4, TIMESTAMP '2024-04-01 00:00:00.001'), "
    "(5, TIMESTAMP '2024-05-12 15:00:00'), (6, TIMESTAMP '2024-05-13 00:00:00'), (7, TIMESTAMP '2024-12-31 23:59:59'), "
    "(8, TIMESTAMP '2024-10-01 00:00:00'), (9, TIMESTAMP '2024-03-31 23:59:59.999'), (10, TIMESTAMP '2024-05-18 23:00:00'), "
    "(11, TIMESTAMP '1969-12-28 00:00:00'), (12, TIMESTAMP '1969-10-01 00:00:00'), (13, TIMESTAMP '2024-02-29 12:00:00'), "
    "(14, CAST(NULL AS TIMESTAMP))) AS v(n, ts)",
    # Known difference (NOTE F2S348; test_cast_to_date_before_1970_is_the_noted_difference): Flink 2.3's
    # date of a time before 1970 that is not midnight is the next day
    "cast_date_before_1970": "SELECT n, CAST(ts AS DATE) AS d FROM (VALUES (1, TIMESTAMP '1969-12-31 23:59:59.500'), "
    "(2, TIMESTAMP '1969-12-31 12:00:00.000'), (3, TIMESTAMP '1969-12-31 00:00:00.000'), (4, TIMESTAMP '1960-06-15 10:00:00.000'), "
    "(5, TIMESTAMP '1970-01-01 00:00:00.500'), (6, TIMESTAMP '2024-02-29 23:59:59.999'), (7, TIMESTAMP '1900-03-01 00:00:00.001')) AS v(n, ts)",
    "conditional_sums": "SELECT k, SUM(CASE WHEN x > 0 THEN 1 ELSE 0 END) AS positives, SUM(CASE WHEN d > 1 THEN x END) AS big_x, "
    "SUM(COALESCE(x, 0)) AS xs, SUM(IF(y > 1, y, 0)) AS ys, AVG(CASE WHEN x < 0 THEN -1 ELSE 1 END) AS sign_avg FROM nums GROUP BY k",
    "aggregates": "SELECT k, COUNT(*) AS n, COUNT(x) AS nx, SUM(x) AS s, AVG(x) AS a, MIN(x) AS mn, MAX(d) AS mx, AVG(d) AS ad "
    "FROM nums GROUP BY k",
    "integer_division": "SELECT x / y AS q, x % y AS r, MOD(x, y) AS m, -x / y AS nq, d / y AS dq, x * 2 + 1 AS e FROM nums",
    "join": "SELECT o.oid, c.name, o.price FROM orders AS o JOIN customers AS c ON o.cid = c.id",
    "left_join_having": "SELECT c.name, COUNT(o.oid) AS n, SUM(o.price) AS total FROM customers AS c "
    "LEFT JOIN orders AS o ON o.cid = c.id GROUP BY c.name HAVING COUNT(o.oid) < 2",
    "tumble_group_window": "SELECT user_name, TUMBLE_START(ts, INTERVAL '5' MINUTE) AS ws, TUMBLE_END(ts, INTERVAL '5' MINUTE) AS we, "
    "TUMBLE_ROWTIME(ts, INTERVAL '5' MINUTE) AS wt, SUM(amount) AS total, COUNT(*) AS n "
    "FROM events GROUP BY TUMBLE(ts, INTERVAL '5' MINUTE), user_name",
    "hop_group_window": "SELECT HOP_START(ts, INTERVAL '5' MINUTE, INTERVAL '10' MINUTE) AS ws, "
    "HOP_END(ts, INTERVAL '5' MINUTE, INTERVAL '10' MINUTE) AS we, SUM(amount) AS total "
    "FROM events GROUP BY HOP(ts, INTERVAL '5' MINUTE, INTERVAL '10' MINUTE)",
    "session_group_window": "SELECT user_name, SESSION_START(ts, INTERVAL '9' MINUTE) AS ws, SESSION_END(ts, INTERVAL '9' MINUTE) AS we, "
    "COUNT(*) AS n FROM events GROUP BY SESSION(ts, INTERVAL '9' MINUTE), user_name",
    "tumble_tvf": "SELECT window_start, window_end, window_time, user_name, SUM(amount) AS total "
    "FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), INTERVAL '10' MINUTES)) "
    "GROUP BY window_start, window_end, window_time, user_name",
    "hop_tvf": "SELECT window_start, window_end, COUNT(*) AS n, MAX(amount) AS mx "
    "FROM TABLE(HOP(TABLE events, DESCRIPTOR(ts), INTERVAL '10' MINUTES, INTERVAL '30' MINUTES)) "
    "GROUP BY window_start, window_end",
    "string_functions": "SELECT CHAR_LENGTH(note) AS l, SUBSTRING(note FROM 2 FOR 3) AS s1, SUBSTR(note, -3) AS s2, "
    "POSITION('_' IN note) AS p, CONCAT(note, '!') AS c, CONCAT_WS('-', note, CAST(NULL AS STRING), 'z') AS cw, "
    "UPPER(note) AS u, TRIM(note) AS t, REPLACE(note, 'r', 'R') AS rp, LPAD(note, 6, '*') AS lp, "
    "REGEXP_EXTRACT(note, '[0-9]+') AS re0, REGEXP_EXTRACT(note, 'x([0-9]+)y', 1) AS re1, "
    "note LIKE 'a\\_%' AS lk, note || '#' AS dp, REGEXP_REPLACE(note, '[0-9]', 'D') AS rr FROM orders",
    "date_functions": "SELECT DATE_FORMAT(ts, 'yyyy-MM-dd HH:mm:ss.SSS') AS f, YEAR(ts) AS yr, HOUR(ts) AS hr, "
    "EXTRACT(MINUTE FROM ts) AS mi, EXTRACT(SECOND FROM ts) AS se, ts + INTERVAL '1' HOUR AS later, "
    "FROM_UNIXTIME(amount * 86400) AS fu, FROM_UNIXTIME(amount, 'yyyy/MM/dd HH:mm') AS fu2 FROM events",
    "case_and_nulls": "SELECT k, CASE WHEN x > 5 THEN 'big' WHEN x < 0 THEN 'negative' ELSE 'small' END AS size, "
    "COALESCE(x, -1) AS cx, IFNULL(d, 0.0) AS dd, NULLIF(x, 7) AS nx, IF(y > 1, 'y', 'n') AS yn, x IS NULL AS isn "
    "FROM nums",
    "top_n": "SELECT user_name, amount, rn FROM (SELECT user_name, amount, "
    "ROW_NUMBER() OVER (PARTITION BY user_name ORDER BY amount DESC) AS rn FROM events) WHERE rn <= 2",
    "order_by_nulls_limit": "SELECT k, x FROM nums ORDER BY x, k LIMIT 4",
    "order_by_desc_nulls": "SELECT k, x FROM nums ORDER BY x DESC LIMIT 3",
    "math": "SELECT CEIL(d) AS cd, FLOOR(x) AS fx, ROUND(d, 1) AS rd, ABS(x) AS ax, x * x AS px, "
    "ROUND(x, -1) AS rx FROM nums WHERE d IS NOT NULL",
    "union_in_exists": "SELECT name FROM customers WHERE id IN (SELECT cid FROM orders) UNION "
    "SELECT city AS name FROM customers WHERE EXISTS (SELECT 1 FROM orders WHERE price > 10) AND id IN (SELECT cid FROM orders WHERE price > 10) "
    "UNION ALL SELECT 'Ann' AS name",
    "over_range": "SELECT user_name, ts, SUM(amount) OVER (PARTITION BY user_name ORDER BY ts "
    "RANGE BETWEEN INTERVAL '10' MINUTE PRECEDING AND CURRENT ROW) AS s FROM events",
    "lag": "SELECT user_name, ts, LAG(amount) OVER (PARTITION BY user_name ORDER BY ts) AS prev_amount FROM events",
    "cte_and_casts": "WITH big AS (SELECT oid, cid, price FROM orders WHERE price > 2) "
    "SELECT CAST(oid AS STRING) AS s, CAST(price AS INT) AS i, CAST(cid AS DOUBLE) / 2 AS h, TRY_CAST(CAST(oid AS STRING) AS INT) AS back "
    "FROM big",
    "literal_widths": "SELECT s, CHAR_LENGTH(s) AS l FROM (VALUES ('a'), ('bb'), ('ccc')) AS v(s) "
    "UNION ALL SELECT 'dddd' AS s, CHAR_LENGTH('dddd') AS l",
    "filter_distinct": "SELECT user_name, COUNT(*) FILTER (WHERE amount > 4) AS big, COUNT(DISTINCT amount) AS nd "
    "FROM events GROUP BY user_name",
    "more_strings": "SELECT LEFT(name, 2) AS l2, RIGHT(name, 2) AS r2, REVERSE(name) AS rv, REPEAT(name, 2) AS rp, "
    "MD5(name) AS h, ASCII(name) AS asc1, TO_BASE64(name) AS b64, LOCATE('n', name, 2) AS loc, INSTR(name, 'n') AS ins, "
    "LOWER(name) AS lo, LTRIM(CONCAT('  ', name)) AS lt, RTRIM(CONCAT(name, '  ')) AS rt, RPAD(name, 5, 'xy') AS rpd, "
    "TRIM(BOTH 'A' FROM name) AS tb FROM customers",
    "more_math": "SELECT x, SQRT(CAST(y AS DOUBLE)) AS sq, ROUND(d) AS r0, MOD(x, 4) AS m4, -x AS neg, x * y - 1 AS xy FROM nums",
    # One OVER window per query: Flink 2.3 fails in batch mode on RANK() OVER (ORDER BY ...) next to
    # windows partitioned otherwise in one SELECT (each alone runs).
    "rank": "SELECT user_name, amount, RANK() OVER (ORDER BY amount DESC) AS rk FROM events",
    "dense_rank_lead": "SELECT user_name, amount, DENSE_RANK() OVER (PARTITION BY user_name ORDER BY ts) AS drk, "
    "LEAD(amount, 1) OVER (PARTITION BY user_name ORDER BY ts) AS nxt FROM events",
    "set_operations": "SELECT cid FROM orders INTERSECT SELECT id FROM customers UNION ALL "
    "(SELECT id FROM customers EXCEPT SELECT cid FROM orders)",
    "predicates": "SELECT k, x BETWEEN 1 AND 7 AS btw, x IN (1, 5, 9) AS inl, x IS DISTINCT FROM 7 AS dst, "
    "x IS NOT NULL AND y > 1 AS cond, CASE k WHEN 'a' THEN 1 WHEN 'b' THEN 2 ELSE 0 END AS kk, NOT (x > 1) AS nx, "
    "TRY_CAST(k AS INT) AS tk FROM nums",
    "date_arithmetic": "SELECT ts - INTERVAL '90' MINUTE AS earlier, ts + INTERVAL '1' MONTH AS next_month, "
    "CAST(ts AS DATE) + INTERVAL '1' DAY AS tomorrow, CURRENT_DATE >= CAST(ts AS DATE) AS past, "
    "MONTH(ts) AS mo, DAYOFMONTH(ts) AS dm, DAYOFWEEK(ts) AS dw, QUARTER(ts) AS q FROM events",
    "avg_window": "SELECT k, x, AVG(x) OVER (PARTITION BY k) AS ax FROM nums",
    # FOLLOWING: run by Flink 2.3 in batch mode only ("OVER RANGE FOLLOWING windows are not supported yet" in streaming)
    "over_rows_following": "SELECT k, x, SUM(x) OVER (PARTITION BY k ORDER BY x ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS s, "
    "MAX(d) OVER (PARTITION BY k ORDER BY x ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) AS m FROM nums",
    "case_double_int": "SELECT k, SUM(CASE WHEN x > 0 THEN d ELSE 0 END) AS sd, MAX(CASE WHEN x > 0 THEN d ELSE 0 END) AS md FROM nums GROUP BY k",
    "to_timestamp": "SELECT vid, TO_TIMESTAMP(ts_text) AS t1, TO_TIMESTAMP(day_text, 'dd/MM/yyyy HH:mm') AS t2, "
    "TO_TIMESTAMP(CONCAT(day_text, ':07'), 'dd/MM/yyyy HH:mm:ss') AS t3, TO_TIMESTAMP(ts_text) + INTERVAL '1' HOUR AS t4, "
    "TO_TIMESTAMP(ts_text, 'dd/MM/yyyy HH:mm') AS t5, TO_TIMESTAMP(day_text, 'yyyy-MM-dd') AS t6 FROM visits",
    "to_timestamp_ltz": "SELECT vid, DATE_FORMAT(TO_TIMESTAMP_LTZ(ms, 3), 'yyyy-MM-dd HH:mm:ss.SSS') AS m, "
    "DATE_FORMAT(TO_TIMESTAMP_LTZ(ms / 1000, 0), 'yyyy-MM-dd HH:mm:ss') AS s, DATE_FORMAT(TO_TIMESTAMP_LTZ(ms), 'HH') AS h FROM visits",
    "window_over_parsed_time": "SELECT TUMBLE_START(t, INTERVAL '1' HOUR) AS ws, TUMBLE_END(t, INTERVAL '1' HOUR) - INTERVAL '0.001' SECOND AS we, "
    "COUNT(*) AS n FROM (SELECT TO_TIMESTAMP(ts_text) AS t FROM visits) WHERE t IS NOT NULL GROUP BY TUMBLE(t, INTERVAL '1' HOUR)",
    "window_bound_arithmetic": "SELECT user_name, TUMBLE_END(ts, INTERVAL '5' MINUTE) - INTERVAL '0.001' SECOND AS last_ms, "
    "TUMBLE_START(ts, INTERVAL '5' MINUTE) + INTERVAL '30' SECOND AS mid, COUNT(*) AS n FROM events "
    "GROUP BY TUMBLE(ts, INTERVAL '5' MINUTE), user_name",
    "tvf_bound_arithmetic": "SELECT window_start + INTERVAL '1' MINUTE AS s1, window_end - INTERVAL '0.001' SECOND AS e1, "
    "window_time - INTERVAL '1' HOUR AS t1, SUM(amount) AS total FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), INTERVAL '10' MINUTES)) "
    "GROUP BY window_start, window_end, window_time",
    "unnest": "SELECT vid, tag FROM visits CROSS JOIN UNNEST(tags) AS u(tag)",
    "unnest_split": "SELECT w, COUNT(*) AS n FROM visits, UNNEST(SPLIT(line, ' ')) AS u(w) GROUP BY w",
    "split_index": "SELECT vid, SPLIT_INDEX(line, ' ', 0) AS w0, SPLIT_INDEX(line, ' ', 1) AS w1, SPLIT_INDEX(line, ' ', 2) AS w2, "
    "SPLIT_INDEX(line, ' ', 3) AS w3, SPLIT_INDEX(line, ' ', vid - 3) AS wi, SPLIT_INDEX(ts_text, '-', 1) AS mo, "
    "SPLIT_INDEX(ts_text, '.', 1) AS frac, SPLIT_INDEX(day_text, '/', 2) AS yr, SPLIT_INDEX(line, 'en ', 0) AS whole, "
    "SPLIT_INDEX(SUBSTRING(line FROM 1 FOR 0), ' ', 0) AS blank FROM visits",
    "split_empty": "SELECT vid, SPLIT(SUBSTRING(line FROM 1 FOR 0), ' ') AS e, CARDINALITY(SPLIT(SUBSTRING(line FROM 1 FOR 0), ' ')) AS n, "
    "SPLIT(line, ' ')[2] AS w2, CARDINALITY(SPLIT(line, ' ')) AS nw FROM visits",
    "regexp": "SELECT oid, REGEXP(note, '[0-9]+') AS digits, REGEXP(note, '^a') AS starts_a, REGEXP(note, 'order$') AS ends, "
    "REGEXP(note, 'b.c') AS bc FROM orders",
    "array_index": "SELECT vid, tags[1] AS t1, tags[2] AS t2, tags[3] AS t3, tags[vid - 3] AS ti, CARDINALITY(tags) AS n, "
    "UPPER(tags[1]) AS u FROM visits",
    "unix_timestamp": "SELECT vid, UNIX_TIMESTAMP(ts_text) AS u1, UNIX_TIMESTAMP(day_text, 'dd/MM/yyyy HH:mm') AS u2, "
    "UNIX_TIMESTAMP(CONCAT(day_text, ':30'), 'dd/MM/yyyy HH:mm:ss') AS u3 FROM visits",
    "timestampdiff": "SELECT user_name, ts, TIMESTAMPDIFF(SECOND, ts, TIMESTAMP '2024-01-01 10:05:00') AS s, "
    "TIMESTAMPDIFF(MINUTE, ts, TIMESTAMP '2024-01-01 10:05:00') AS m, TIMESTAMPDIFF(HOUR, TIMESTAMP '2024-01-01 10:59:59', ts) AS h, "
    "TIMESTAMPDIFF(DAY, ts, TIMESTAMP '2024-01-02 10:04:59.999') AS d, TIMESTAMPDIFF(DAY, CAST(ts AS DATE), DATE '2024-01-03') AS dd "
    "FROM events",
    "timestampadd": "SELECT user_name, TIMESTAMPADD(HOUR, 2, ts) AS h, TIMESTAMPADD(MINUTE, -amount, ts) AS m, "
    "TIMESTAMPADD(MONTH, 1, TIMESTAMP '2024-01-31 10:00:00') AS mo, TIMESTAMPADD(DAY, amount, ts) AS d, "
    "TIMESTAMPADD(SECOND, 30, ts) AS s FROM events",
    "grouping_sets": "SELECT k, y, COUNT(*) AS n, SUM(x) AS sx FROM nums GROUP BY GROUPING SETS ((k), (k, y), ())",
    "rollup_cube": "SELECT c.city, o.cid, COUNT(*) AS n, SUM(o.price) AS total FROM orders AS o LEFT JOIN customers AS c "
    "ON o.cid = c.id GROUP BY CUBE (c.city, o.cid)",
    "rollup": "SELECT user_name, COUNT(*) AS n, SUM(amount) AS total FROM events GROUP BY ROLLUP (user_name)",
    # TO_DATE(s, format) only of text the format reads: Flink 2.3 gives 5471-09-27 for other text (NOTE F2S313)
    "to_date": "SELECT sid, TO_DATE(txt) AS d1, CASE WHEN sid = 9 THEN TO_DATE(txt, 'dd/MM/yyyy') END AS d2, "
    "TO_DATE(CONCAT('2024-03-', CAST(sid AS STRING)), 'yyyy-MM-d') AS d3, YEAR(TO_DATE(txt)) AS y FROM stamps",
    "floor_ceil_to": "SELECT sid, FLOOR(ts TO SECOND) AS fs, CEIL(ts TO SECOND) AS cs, FLOOR(ts TO MINUTE) AS fm, CEIL(ts TO MINUTE) AS cm, "
    "FLOOR(ts TO HOUR) AS fh, CEIL(ts TO HOUR) AS ch, FLOOR(ts TO DAY) AS fd, CEIL(ts TO DAY) AS cd, FLOOR(ts TO MONTH) AS fmo, "
    "CEIL(ts TO MONTH) AS cmo, FLOOR(ts TO QUARTER) AS fq, FLOOR(ts TO YEAR) AS fy, CEIL(ts TO YEAR) AS cy FROM stamps WHERE sid <> 7",
    "floor_ceil_to_before_1970": "SELECT sid, FLOOR(ts TO SECOND) AS fs, CEIL(ts TO SECOND) AS cs, FLOOR(ts TO MINUTE) AS fm, "
    "CEIL(ts TO MINUTE) AS cm, FLOOR(ts TO HOUR) AS fh, CEIL(ts TO HOUR) AS ch, FLOOR(ts TO DAY) AS fd, CEIL(ts TO DAY) AS cd "
    "FROM stamps WHERE sid = 7",
    # not of 1969-12-31 23:59:59.5: Flink 2.3's CAST of it AS DATE is 1970-01-01 (Spark's 1969-12-31)
    "floor_ceil_date_to": "SELECT sid, FLOOR(CAST(ts AS DATE) TO DAY) AS fd, FLOOR(CAST(ts AS DATE) TO MONTH) AS fmo, "
    "CEIL(CAST(ts AS DATE) TO MONTH) AS cmo, FLOOR(CAST(ts AS DATE) TO QUARTER) AS fq, "
    "FLOOR(CAST(ts AS DATE) TO YEAR) AS fy, CEIL(CAST(ts AS DATE) TO YEAR) AS cy FROM stamps WHERE sid <> 7",
    "cumulate_tvf": "SELECT window_start, window_end, window_time, user_name, SUM(amount) AS total, COUNT(*) AS n "
    "FROM TABLE(CUMULATE(TABLE events, DESCRIPTOR(ts), INTERVAL '5' MINUTES, INTERVAL '15' MINUTES)) "
    "GROUP BY window_start, window_end, window_time, user_name",
    "cumulate_tvf_rows": "SELECT c.user_name, c.amount, c.ts, c.window_start, c.window_end FROM "
    "TABLE(CUMULATE(TABLE events, DESCRIPTOR(ts), INTERVAL '20' MINUTES, INTERVAL '1' HOUR)) AS c WHERE c.amount > 3",
    "floor_to_week": "SELECT sid, FLOOR(ts TO WEEK) AS fw, FLOOR(CAST(ts AS DATE) TO WEEK) AS fdw FROM stamps",
    "initcap": "SELECT sid, INITCAP(words) AS w, INITCAP(UPPER(words)) AS u FROM stamps",
    "listagg": "SELECT user_name, LISTAGG(CAST(amount AS STRING)) AS amounts, LISTAGG(user_name, '|') AS names, "
    "LISTAGG(CASE WHEN amount > 100 THEN user_name END) AS none_big FROM events GROUP BY user_name",
}

# Cases whose Spark rows differ from Flink's as a NOTE says (tests/test_table_sql.py checks how).
KNOWN_DIFFERENT = {"cast_date_before_1970"}
# Cases whose rows are compared in order (they have ORDER BY).
ORDERED = {"order_by_nulls_limit", "order_by_desc_nulls"}
# Cases Flink runs in streaming mode only (batch: "Window SessionGroupWindow ... is not supported right
# now"; an OVER ... RANGE BETWEEN INTERVAL ... PRECEDING over a TIMESTAMP(3) fails at run time in
# batch mode: generated code casts TimestampData to Long): over a filesystem csv copy of the tables with WATERMARK FOR ts AS ts (a bounded source; the
# last watermark closes every window, and a window aggregate emits insert-only rows).
STREAMING = {"session_group_window", "over_range"}


def literal(value, flink_type: str) -> str:
    """A value as a typed SQL literal both engines read the same (the type written Flink's way)."""
    if isinstance(value, list):
        return f"CAST(ARRAY[{', '.join(literal(v, 'STRING') for v in value)}] AS {flink_type})"
    if value is None:
        text = "NULL"
    elif isinstance(value, str):
        text = "'" + value.replace("'", "''") + "'"
    else:
        text = repr(value)
    return f"CAST({text} AS {flink_type})"


def values_sql(name: str) -> str:
    columns, rows = TABLES[name]
    body = ", ".join("(" + ", ".join(literal(v, t) for v, (_, t) in zip(row, columns)) + ")" for row in rows)
    return f"SELECT * FROM (VALUES {body}) AS {name}({', '.join(c for c, _ in columns)})"


def plain(value):
    """A result value as JSON (the same for PyFlink's and PySpark's Python objects)."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, decimal.Decimal):
        return "decimal:" + str(value)
    if isinstance(value, datetime.datetime):
        return value.replace(tzinfo=None).isoformat(sep=" ")
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    return repr(value)


def run() -> dict:
    from pyflink.table import EnvironmentSettings, TableEnvironment

    t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    t_env.get_config().set("parallelism.default", "1")
    t_env.get_config().set("table.local-time-zone", "UTC")
    for name in TABLES:
        t_env.execute_sql(f"CREATE TEMPORARY VIEW {name} AS {values_sql(name)}")
    s_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
    s_env.get_config().set("parallelism.default", "1")
    s_env.get_config().set("table.local-time-zone", "UTC")
    folder = tempfile.mkdtemp(prefix="table-sql-")
    for name, (columns, rows) in TABLES.items():
        with open(os.path.join(folder, name + ".csv"), "w", newline="") as out:
            csv.writer(out).writerows([["" if v is None else v for v in row] for row in rows])
        watermark = ", WATERMARK FOR ts AS ts" if "ts" in dict(columns) else ""
        s_env.execute_sql(
            f"CREATE TEMPORARY TABLE {name} ({', '.join(f'{c} {t}' for c, t in columns)}{watermark}) WITH "
            f"('connector' = 'filesystem', 'path' = '{folder}/{name}.csv', 'format' = 'csv')"
        )
    results = {}
    for name, sql in CASES.items():
        try:
            table = (s_env if name in STREAMING else t_env).sql_query(sql)
            schema = table.get_schema()
            with table.execute().collect() as rows:
                got = [[plain(v) for v in row] for row in rows]
            if name not in ORDERED:
                got.sort(key=json.dumps)  # a multiset: the file is the same whatever order Flink gives
            results[name] = {
                "columns": schema.get_field_names(),
                "types": [str(t) for t in schema.get_field_data_types()],
                "rows": got,
            }
        except Exception as exc:  # recorded: the test fails on it, naming the case
            lines = str(exc).strip().splitlines()
            results[name] = {"error": next((line for line in lines if "Exception:" in line), lines[0])[:500]}
    return results


def run_on_flink_results() -> dict:
    """The cases run on the reference Flink (a subprocess with .venv-flink's interpreter)."""
    sys.path.insert(0, str(HERE))
    from flink_reference import run_on_flink

    stdout = run_on_flink(Path(__file__), ["--run"], timeout=600)
    line = next(line for line in stdout.splitlines() if line.startswith(MARKER))
    return json.loads(line[len(MARKER):])


def record() -> None:
    results = run_on_flink_results()
    RECORDING.parent.mkdir(exist_ok=True)
    RECORDING.write_text(json.dumps(results, indent=1, sort_keys=True) + "\n")
    print(f"recorded {len(results)} cases in {RECORDING}")


if __name__ == "__main__":
    if sys.argv[1:] == ["--run"]:
        print(MARKER + json.dumps(run()), flush=True)
    else:
        record()
