"""Top-level statements that cannot touch Flink are set aside before libcst sees the module.

libcst's parse, metadata and rewrites cost far more than CPython's own parser: a 1 MB module
of helper functions with a few lines of Flink took minutes, almost all of it on code no rule
could change. Such statements are replaced, before parsing, by a placeholder of the same number of
lines (one for each run of consecutive such statements), and put back byte for byte after the conversion. Line numbers (of the
markers) are therefore unchanged.

A top-level statement is kept for the converter when it mentions "flink" in its text (every
Flink import, marker and guard does), or shares a module-level name with such a statement (uses what one binds, binds what one uses), to a
fixed point: a stream passed to a helper function keeps that function, a helper or constant
a job reads is kept, a statement reading a Flink object is kept. Names are over-approximated
(every identifier a statement mentions that some top-level statement binds, locals of its
functions included), so a statement is set aside only when no module-level name links it to
Flink code. Imports and the module docstring are always kept (they place the imports the
conversion adds); a name that only non-Flink imports bind (``os``) links nothing: it is another
module's object. Placeholders keep the kind of the statement (a function definition or a
statement) so that the formatter's blank-line rules see the same neighbours.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from dataclasses import dataclass
from typing import Optional

PLACEHOLDER = "__f2s_elided_"


@dataclass
class Elided:
    text: str  # the module with placeholders
    originals: dict[str, str]  # placeholder text -> the original lines

    def restore(self, output: str) -> Optional[str]:
        """``output`` with the original statements back (None if a placeholder is not found once)."""
        for placeholder, original in self.originals.items():
            if output.count(placeholder) != 1:
                return None
            output = output.replace(placeholder, original)
        return output


def elide(source: str, tree: ast.Module, distinctive: frozenset[str] = frozenset()) -> Optional[Elided]:
    """``source`` with its statements that cannot touch Flink set aside (None: nothing to set aside).
    A statement calling a method only Flink's API has (``distinctive``: ``t_env.execute_sql(...)``
    on an object of another module) is kept too: the converter marks it."""
    if PLACEHOLDER in source:
        return None
    body = tree.body
    lines = source.splitlines(keepends=True)
    spans = [_span(stmt) for stmt in body]
    keep = [_pinned(i, stmt) for i, stmt in enumerate(body)]
    seeds = [_mentions_flink(lines, spans[i]) or _calls_distinctive(body[i], distinctive) for i in range(len(body))]
    if any(seed and _star_import(stmt) for stmt, seed in zip(body, seeds)):
        return None  # the names a Flink star import binds are not known here
    if all(k or seed for k, seed in zip(keep, seeds)):
        return None  # every statement is kept anyway: no need to link names
    # names only other imports bind are another module's objects: they link nothing
    imported = {stmt for stmt, seed in zip(body, seeds) if isinstance(stmt, (ast.Import, ast.ImportFrom)) and not seed}
    bound = _module_names([stmt for stmt in body if stmt not in imported])
    names = [_names(stmt) & bound for stmt in body]
    # a shared line (``a = 1; b = 2``) ties statements together
    for i in range(1, len(body)):
        if spans[i][0] <= spans[i - 1][1]:
            seeds[i] = seeds[i - 1] = seeds[i] or seeds[i - 1]
            keep[i] = keep[i - 1] = True
    users = defaultdict(list)
    for i, found in enumerate(names):
        for name in found:
            users[name].append(i)
    todo = [i for i, seed in enumerate(seeds) if seed]
    keep = [k or seed for k, seed in zip(keep, seeds)]
    seen_names: set[str] = set()
    while todo:
        i = todo.pop()
        for name in names[i] - seen_names:
            seen_names.add(name)
            for j in users[name]:
                if not keep[j]:
                    keep[j] = True
                    todo.append(j)
    if all(keep):
        return None
    out: list[str] = []
    originals: dict[str, str] = {}
    line = 1
    for first, last, stmt in _runs(body, spans, keep):
        out.append("".join(lines[line - 1 : first - 1]))
        original = "".join(lines[first - 1 : last])
        ends = [_ending(lines[n - 1]) for n in range(first, last + 1)]
        name = f"{PLACEHOLDER}{len(originals)}__"
        head = f"def {name}(): " if isinstance(stmt, _DEFS) else f"{name} = "
        placeholder = head + '"""' + "".join(ends[:-1]) + '"""' + ends[-1]  # one token of as many lines
        originals[placeholder] = original
        out.append(placeholder)
        line = last + 1
    out.append("".join(lines[line - 1 :]))
    return Elided("".join(out), originals)


_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _runs(body: list[ast.stmt], spans: list[tuple[int, int]], keep: list[bool]):
    """(first line, last line, last statement) of each run of consecutive statements set aside;
    the comments and blank lines between them go with the run."""
    run = None
    for i, stmt in enumerate(body):
        if keep[i]:
            if run:
                yield run
            run = None
        elif run is None:
            run = (spans[i][0], spans[i][1], stmt)
        else:
            run = (run[0], spans[i][1], stmt)
    if run:
        yield run


def _ending(line: str) -> str:
    for end in ("\r\n", "\n", "\r"):
        if line.endswith(end):
            return end
    return ""


def _span(stmt: ast.stmt) -> tuple[int, int]:
    first = min([stmt.lineno] + [d.lineno for d in getattr(stmt, "decorator_list", ())])
    return first, stmt.end_lineno or stmt.lineno


def _pinned(i: int, stmt: ast.stmt) -> bool:
    """Statements the converter always sees (imports place the new ones, the docstring stays first);
    they link nothing by themselves."""
    if isinstance(stmt, (ast.Import, ast.ImportFrom)):
        return True
    return i == 0 and isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)


def _star_import(stmt: ast.stmt) -> bool:
    from flink2spark.transpiler.source import statements  # imports are statements

    return any(isinstance(n, ast.ImportFrom) and any(a.name == "*" for a in n.names) for n in statements(stmt))


def _calls_distinctive(stmt: ast.stmt, distinctive: frozenset[str]) -> bool:
    """Whether ``stmt`` calls a method of one of the names ``distinctive``."""
    return bool(distinctive) and any(
        isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in distinctive
        for node in ast.walk(stmt)
    )


def _mentions_flink(lines: list[str], span: tuple[int, int]) -> bool:
    """Every Flink import, marker comment and guard has "flink" in its text."""
    return "flink" in "".join(lines[span[0] - 1 : span[1]]).lower()


def _module_names(body: list[ast.stmt]) -> set[str]:
    """Names bound at module level (by any top-level statement or a ``global`` declaration)."""
    bound: set[str] = set()
    for stmt in body:
        for node in _module_level_nodes(stmt):
            if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
                bound.add(node.id)
            elif isinstance(node, _DEFS):
                bound.add(node.name)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                for alias in node.names:
                    bound.add((alias.asname or alias.name).split(".")[0])
            elif isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
                bound.add(node.name)
            elif isinstance(node, ast.ExceptHandler) and node.name:
                bound.add(node.name)
        for node in ast.walk(stmt):
            if isinstance(node, ast.Global):
                bound.update(node.names)
    return bound


def _module_level_nodes(stmt: ast.stmt):
    """The nodes of a top-level statement outside function and class bodies, lambdas and comprehensions."""
    stack: list[ast.AST] = [stmt]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, _DEFS):
            stack.extend(getattr(node, "decorator_list", ()))
            continue
        if isinstance(node, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            continue
        stack.extend(ast.iter_child_nodes(node))


def _names(stmt: ast.stmt) -> set[str]:
    """Every identifier a statement mentions (definitions' names and attribute-free names)."""
    found: set[str] = set()
    for node in ast.walk(stmt):
        if isinstance(node, ast.Name):
            found.add(node.id)
        elif isinstance(node, _DEFS):
            found.add(node.name)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            found.update(node.names)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                found.add((alias.asname or alias.name).split(".")[0])
        elif isinstance(node, ast.ExceptHandler) and node.name:
            found.add(node.name)
        elif isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
            found.add(node.name)
    return found
