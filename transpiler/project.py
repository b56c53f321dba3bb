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
_RESOLVERS: dict[tuple[str, int, int], object] = {}  # the same key -> the module's Resolver (None: it does not parse)


def imported_constant(resolver, name: cst.Name) -> Optional[cst.BaseExpression]:
    """The string literal the project module ``name`` is imported from binds it to, or None."""
    found = _imported_from(resolver, name)
    return _constants(found[0]).get(found[1]) if found is not None else None


def imported_module(resolver, node: cst.ImportFrom, name: str):
    """(the Resolver of the project module the statement ``node`` imports ``name`` from, the name
    that module binds) for ``from <module> import name [as alias]``, or None. The module's facts
    (its UDFs: the Table API program model of that module) are asked of its own Resolver, built
    once per run."""
    found = _import_of(resolver, node, name)
    if found is None:
        return None
    file, original = found
    key = _key(file)
    if key not in _RESOLVERS:
        from flink2spark.transpiler.infer import Resolver

        try:
            module = cst.parse_module(file.read_bytes())
        except (cst.ParserSyntaxError, UnicodeDecodeError, ValueError, RecursionError):
            module = None
        sibling = Resolver(module, resolver.model) if module is not None else None
        if sibling is not None:
            sibling.path = str(file)
        _RESOLVERS[key] = sibling
    return (_RESOLVERS[key], original) if _RESOLVERS[key] is not None else None


def _imported_from(resolver, name: cst.Name) -> Optional[tuple[Path, str]]:
    """(the file of the project module ``name`` is imported from, the name it binds there)."""
    refs = resolver.referents(name)
    if len(refs) != 1 or not isinstance(refs[0].node, cst.ImportFrom):
        return None
    return _import_of(resolver, refs[0].node, name.value)


def _import_of(resolver, node: cst.ImportFrom, name: str) -> Optional[tuple[Path, str]]:
    path = getattr(resolver, "path", None)
    if not path or not os.path.isfile(path) or isinstance(node.names, cst.ImportStar):
        return None
    original = next((a.name.value for a in node.names if isinstance(a.name, cst.Name)
                     and (a.asname.name.value if a.asname is not None else a.name.value) == name), None)
    module = _module_file(Path(path).parent, node)
    return (module, original) if original is not None and module is not None else None


def _key(file: Path) -> tuple[str, int, int]:
    stat = file.stat()
    return (str(file.resolve()), stat.st_size, stat.st_mtime_ns)


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
    key = _key(file)
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
