"""Placeholder of the Flink SQL translation (replaced by the full module)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Mapping, Optional

import sqlglot
from sqlglot import exp


class Untranslatable(Exception):
    pass


@dataclass(frozen=True)
class TableDef:
    name: str
    columns: tuple
    computed: tuple
    connector: str
    options: Mapping[str, str]
    watermark: Optional[tuple]
    primary_key: tuple


def statement_kind(sql: str) -> str:
    head = sql.strip().split(None, 3)
    words = [w.upper() for w in head]
    if words[:2] == ["CREATE", "TABLE"] or words[:3] == ["CREATE", "TEMPORARY", "TABLE"]:
        return "create_table"
    if "VIEW" in words[:3]:
        return "create_view"
    if words[0] == "INSERT":
        return "insert"
    if words[0] in ("SELECT", "WITH"):
        return "query"
    if words[0] == "SET":
        return "set"
    return "other"


def create_table(sql: str) -> TableDef:
    m = re.match(r"\s*CREATE\s+(?:TEMPORARY\s+)?TABLE\s+`?(\w+)`?\s*\((.*)\)\s*WITH\s*\((.*)\)\s*;?\s*$", sql, re.S | re.I)
    if not m:
        raise Untranslatable("CREATE TABLE")
    cols = []
    for part in m.group(2).split(","):
        bits = part.split()
        cols.append((bits[0].strip("`"), bits[1].upper()))
    options = dict(re.findall(r"'([^']*)'\s*=\s*'([^']*)'", m.group(3)))
    return TableDef(m.group(1), tuple(cols), (), options.get("connector", "").lower(), options, None, ())


def spark_create_table(table: TableDef) -> Optional[str]:
    if table.connector != "filesystem":
        return None
    fmt = table.options.get("format")
    if fmt != "csv":
        raise Untranslatable(f"format {fmt}")
    cols = ", ".join(f"{n} {t}" for n, t in table.columns)
    return f"CREATE TABLE {table.name} ({cols}) USING csv OPTIONS (path '{table.options['path']}')"


def query(sql: str, tables: Mapping = {}) -> str:
    return sqlglot.transpile(sql, read="hive", write="spark")[0]


def insert(sql: str, tables: Mapping = {}) -> tuple:
    tree = sqlglot.parse_one(sql, read="hive")
    if not isinstance(tree, exp.Insert):
        raise Untranslatable("INSERT")
    return tree.this.name, tree.expression.sql("spark")


def create_view(sql: str, tables: Mapping = {}) -> tuple:
    tree = sqlglot.parse_one(sql, read="hive")
    return tree.this.name, tree.expression.sql("spark")
