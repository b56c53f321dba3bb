"""Where a name imported from a module of the same project comes from (one engine fact).

A real job often keeps its SQL text and table names in a module of its own
(``from .orders_ddl import ORDERS_DDL`` then ``t_env.execute_sql(ORDERS_DDL)``). The module is
found next to the file being converted, as Python finds it when the job runs as a script (its
folder first on ``sys.path``) or as a package's module (``from .name``, ``from ..pkg.name``):
``<folder>/name.py`` or ``<folder>/name/__init__.py``. It is read, never written: parsed with
libcst once per run (cached by path, size and modification time, so parallel workers and a
second conversion read the same), and only its module-level assignments are looked at.

``imported_constant`` gives the value of a module-level name that module binds exactly once to
a string literal (a plain, implicitly concatenated or triple-quoted string; no f-string and no
expression, whose value would be that module's to compute). Anything else, a missing module
(a single file converted alone), a name bound twice or set by a star import: None, and the
conversion is the one it would be without the module.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Optional

import libcst as cst

_LITERALS = (cst.SimpleString, cst.ConcatenatedString)
# (path, size, mtime_ns) -> the module's names bound once to a string literal
_CACHE: dict[tuple[str, int, int], dict[str, cst.BaseExpression]] = {}


def imported_constant(resolver, name: cst.Name) -> Optional[cst.BaseExpression]:
    """The string literal the project module ``name`` is imported from binds it to, or None."""
    path = getattr(resolver, "path", None)
    if not path or not os.path.isfile(path):
        return None
    refs = resolver.referents(name)
    if len(refs) != 1 or not isinstance(refs[0].node, cst.ImportFrom):
        return None
    node = refs[0].node
    if isinstance(node.names, cst.ImportStar):
        return None
    original = next((a.name.value for a in node.names if isinstance(a.name, cst.Name)
                     and (a.asname.name.value if a.asname is not None else a.name.value) == name.value), None)
    module = _module_file(Path(path).parent, node)
    if original is None or module is None:
        return None
    return _constants(module).get(original)


def _module_file(folder: Path, node: cst.ImportFrom) -> Optional[Path]:
    """The file of the module ``node`` imports from, relative to ``folder`` (the converted file's)."""
    if node.module is None:  # from . import name: a module, not a constant
        return None
    dotted = []
    part = node.module
    while isinstance(part, cst.Attribute):
        dotted.insert(0, part.attr.value)
        part = part.value
    if not isinstance(part, cst.Name):
        return None
    dotted.insert(0, part.value)
    for _ in range(max(len(node.relative) - 1, 0)):  # from ..pkg.name: the parent package's folder
        folder = folder.parent
    base = folder.joinpath(*dotted)
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _constants(file: Path) -> dict[str, cst.BaseExpression]:
    stat = file.stat()
    key = (str(file.resolve()), stat.st_size, stat.st_mtime_ns)
    if key not in _CACHE:
        _CACHE[key] = _read(file)
    return _CACHE[key]


def _read(file: Path) -> dict[str, cst.BaseExpression]:
    try:
        module = cst.parse_module(file.read_bytes())
    except (cst.ParserSyntaxError, UnicodeDecodeError, ValueError, RecursionError):
        return {}
    values: dict[str, Optional[cst.BaseExpression]] = {}
    for statement in module.body:
        small = statement.body if isinstance(statement, cst.SimpleStatementLine) else []
        for line in small:
            for name in _bound(line):
                value = line.value if isinstance(line, (cst.Assign, cst.AnnAssign)) else None
                single = isinstance(line, cst.Assign) and len(line.targets) == 1 or isinstance(line, cst.AnnAssign)
                values[name] = value if name not in values and single and isinstance(value, _LITERALS) else None
        if not isinstance(statement, cst.SimpleStatementLine):  # a def, class, if, for... may bind it again
            for name in _bound_in_block(statement):
                values[name] = None
    if "*" in values:  # a star import may bind any name
        return {}
    globals_ = _GlobalNames()
    module.visit(globals_)  # a function's ``global NAME`` may bind it again
    return {name: value for name, value in values.items() if value is not None and name not in globals_.names}


class _GlobalNames(cst.CSTVisitor):
    def __init__(self) -> None:
        self.names: set[str] = set()

    def visit_Global(self, node: cst.Global) -> None:
        self.names.update(n.name.value for n in node.names)


def _bound(line: cst.BaseSmallStatement) -> list[str]:
    """Module-level names a simple statement binds."""
    if isinstance(line, cst.Assign):
        return [n for t in line.targets for n in _names(t.target)]
    if isinstance(line, (cst.AnnAssign, cst.AugAssign)):
        return _names(line.target)
    if isinstance(line, (cst.Import, cst.ImportFrom)) and not isinstance(line.names, cst.ImportStar):
        return [(a.asname.name if a.asname is not None else a.name).value if isinstance(
            a.asname.name if a.asname is not None else a.name, cst.Name) else "" for a in line.names]
    if isinstance(line, cst.ImportFrom):  # a star import may bind any name
        return ["*"]
    if isinstance(line, cst.Global):
        return [n.name.value for n in line.names]
    return []


def _names(target: cst.BaseExpression) -> list[str]:
    if isinstance(target, cst.Name):
        return [target.value]
    if isinstance(target, (cst.Tuple, cst.List)):
        return [n for e in target.elements for n in _names(e.value)]
    return []


def _bound_in_block(statement: cst.CSTNode) -> list[str]:
    """Names a compound statement at module level binds (defs, classes, assignments in its body)."""
    found = []
    if isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
        found.append(statement.name.value)
        return found
    for child in statement.children:
        if isinstance(child, cst.SimpleStatementLine):
            for line in child.body:
                found += _bound(line)
        elif isinstance(child, (cst.FunctionDef, cst.ClassDef)):
            found.append(child.name.value)
        elif isinstance(child, cst.CSTNode):
            found += _bound_in_block(child)
    return found
