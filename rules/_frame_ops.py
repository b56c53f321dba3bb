"""What a ``map``/``filter``/``flat_map`` over a frame becomes, for both frame models (not a
rule: it defines no ``rule``).

The DataSet frame model (``rules/dataset/_frames.py``) and the PyFlink one
(``rules/pyflink/_frames.py``) each decide whether an operator's function translates to
Columns (``transpiler/python_columns.py``) and which columns the records it makes have; this
module writes the DataFrame code from that, in one place: ``where(condition)`` for a filter,
``select`` of the Columns for a map, ``select(F.explode(items))`` then the Columns of each item's
record for a flat_map, a ``F.split`` the Columns compute more than once as one column first (an
unpacked ``a, b = s.split(sep)``: the items and their count check once, ``hoist_split``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence, Union

import libcst as cst

from flink2spark.transpiler import imports as I
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.python_columns import FlatTranslation, Translation, hoist_split


@dataclass(frozen=True)
class Column:
    """One column a map makes: its code (cast to the declared type where needed) and name."""

    code: str
    name: str


def operand(code: str) -> str:
    """``code`` as the receiver of a method call: parenthesised unless it is one already."""
    node = cst.parse_expression(code)
    if isinstance(node, (cst.Call, cst.Attribute, cst.Name, cst.Subscript)) and not node.lpar:
        return code
    return f"({code})"


def select_item(code: str, name: str) -> str:
    """A ``select`` argument: the column's name alone when the Column is that column."""
    if code == f'F.col("{name}")':
        return f'"{name}"'
    return f'{operand(code)}.alias("{name}")'


def shared_splits(columns: tuple[Column, ...], taken: set[str]) -> tuple[Optional[tuple[str, str]], tuple[Column, ...]]:
    """((name, code), columns) when the Columns compute the same ``F.split(...)`` more than once
    (``a, b, c = line.split(",")``: the count check and each item): the split as one column
    ``name`` to add before the ``select``, and the Columns reading it. Spark evaluates an
    expression as often as it is written (a 4-field parse: 8 splits a record, the benchmark's
    window job spent half its time there); it keeps a column it reads several times. (None,
    columns) when there is none."""
    import ast as _ast

    counts: dict[str, int] = {}
    for c in columns:
        for node in _ast.walk(_ast.parse(c.code, mode="eval")):
            if (isinstance(node, _ast.Call) and isinstance(node.func, _ast.Attribute) and node.func.attr == "split"
                    and isinstance(node.func.value, _ast.Name) and node.func.value.id == "F"):
                text = _ast.get_source_segment(c.code, node)
                counts[text] = counts.get(text, 0) + 1
    shared = [t for t, n in counts.items() if n > 1 and sum(c.code.count(t) for c in columns) == n]
    if len(shared) != 1:
        return None, columns
    name = next(n for n in ("parts", "_parts", "_f2s_parts") if n not in taken)
    code = shared[0]
    return (name, code), tuple(Column(c.code.replace(code, f'F.col("{name}")'), c.name) for c in columns)


def use_functions(ctx) -> None:
    """``from pyspark.sql import functions as F`` in the converted file."""
    I.need(ctx.conv.codemod, "pyspark.sql", "functions", "F")


def operator(ctx, found: Union[Translation, FlatTranslation], columns: Sequence[Column] = (), *,
             taken: Optional[set[str]] = None, drop_identity: bool = False, extra: Sequence[str] = ()):
    """The rule's ``filter``/``map``/``flat_map`` call (``ctx.site``) on a frame as DataFrame code.

    ``found`` is the function's translation, ``columns`` the record's columns the model made of
    its outputs (a flat_map: of each item's record); NOTE F2S264 for each approximation the
    translation names. ``taken``: the receiver's column names, when a ``F.split`` the columns
    compute more than once is to become one column (named apart from them) before the
    ``select``; ``drop_identity``: no ``select`` when the columns are the frame's as they are;
    ``extra``: ``select`` arguments after the columns."""
    use_functions(ctx)
    flat = found if isinstance(found, FlatTranslation) else None
    for note in found.notes + (flat.element.notes if flat is not None else ()):
        ctx.note(M.PF_COLUMN_NOTE, note)
    df = ctx.site.receiver
    if ctx.site.head.method == "filter":
        return ctx.expr("{df}.where(%s)" % found.code, df=df)
    if flat is not None and not flat.single:  # (single: one record per record, its Columns read the record)
        explode = f"F.explode({flat.items})"
        if len(columns) == 1 and columns[0].code == f'F.col("{flat.name}")':  # the items themselves
            return ctx.expr("{df}.select(%s)" % select_item(explode, columns[0].name), df=df)
        kept = '"*", ' if flat.keeps_record else ""  # the record's columns, for the item's record to read
        df = ctx.expr("{df}.select(%s%s)" % (kept, select_item(explode, flat.name)), df=df)
    if drop_identity and all(c.code == f'F.col("{c.name}")' for c in columns):
        return df  # the items themselves
    if taken is not None:
        hoisted = hoist_split(found, [c.code for c in columns], taken) if flat is None else None
        if hoisted is not None:  # `a, b, c = s.split(sep)`: split and checked once, read by index
            for step in hoisted[0]:
                df = ctx.expr("{df}.withColumn(%r, %s)" % step, df=df)
            columns = tuple(Column(code, c.name) for code, c in zip(hoisted[1], columns))
        else:
            split, columns = shared_splits(tuple(columns), taken)
            if split is not None:  # computed once, read by every field
                df = ctx.expr("{df}.withColumn(%r, %s)" % split, df=df)
    return ctx.expr("{df}.select(%s)" % ", ".join([*(select_item(c.code, c.name) for c in columns), *extra]), df=df)
