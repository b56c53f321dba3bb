"""User functions imported from sibling modules (``from utils import Verify``).

A Flink job often keeps its function classes in a module next to it. The imported module is
found on disk (beside the file, or in a parent folder, as Python would find it when the job runs
from there), parsed, and its top-level classes and defs analysed exactly as that module's own
conversion analyses them, so both files agree on the rewritten method signatures.
"""

from __future__ import annotations

import functools
import os
from typing import Optional, Union

import libcst as cst

from flink2spark.transpiler.visitors import Visitor
from flink2spark.transpiler import functions as F
from flink2spark.transpiler.infer import Resolver, dotted

MAX_PARENT_LEVELS = 3


class _Analyzer(Visitor):
    def __init__(self, model):
        super().__init__()
        self.model = model
        self.classes: dict[str, F.ClassInfo] = {}
        self.defs: dict[str, cst.FunctionDef] = {}
        self.plain_classes: dict[str, cst.ClassDef] = {}  # classes that are no Flink function
        # names the module imports (a package's __init__.py re-exporting its modules' classes):
        # local name -> (module, its name there, relative level); star imports: (module, level)
        self.imports: dict[str, tuple[str, str, int]] = {}
        self.star_imports: list[tuple[str, int]] = []

    def visit_Module(self, node: cst.Module) -> bool:
        # (as before: a sibling module's analysis does not follow reassigned names)
        resolver = Resolver(node, self.model, reassigned=False)
        known: dict[int, F.ClassInfo] = {}
        for stmt in node.body:
            if isinstance(stmt, cst.ClassDef):
                info = F.analyze_class(stmt, resolver, known)
                if info is not None:
                    known[id(stmt)] = info
                    self.classes[stmt.name.value] = info
                else:
                    self.plain_classes[stmt.name.value] = stmt
                _BASES[id(stmt)] = [resolver.qualified_name(b.value) for b in stmt.bases]
            elif isinstance(stmt, cst.FunctionDef):
                self.defs[stmt.name.value] = stmt
            elif isinstance(stmt, cst.SimpleStatementLine):
                for small in stmt.body:
                    if isinstance(small, cst.ImportFrom):
                        module = dotted(small.module) if small.module else ""
                        if isinstance(small.names, cst.ImportStar):
                            self.star_imports.append((module or "", len(small.relative)))
                            continue
                        for alias in small.names:
                            name = dotted(alias.name) or ""
                            local = alias.asname.name.value if alias.asname else name  # type: ignore[union-attr]
                            self.imports[local] = (module or "", name, len(small.relative))
        return False


# id(ClassDef) of a sibling module's class -> the qualified names of its bases, resolved in its
# own module (the analysed modules stay cached, so the ids stay theirs)
_BASES: dict[int, list[Optional[str]]] = {}


def base_names(cls: cst.ClassDef) -> Optional[list[Optional[str]]]:
    """Qualified names of the bases of a class that ``lookup`` found in a sibling module."""
    return _BASES.get(id(cls))


@functools.lru_cache(maxsize=256)
def _load(path: str, mtime: float, model) -> Optional[_Analyzer]:
    try:
        with open(path, "rb") as fh:
            module = cst.parse_module(fh.read().decode("utf-8-sig"))
    except (OSError, UnicodeDecodeError, cst.ParserSyntaxError):
        return None
    analyzer = _Analyzer(model)
    module.visit(analyzer)
    return analyzer


def _find_module(base_dir: str, module: str, level: int) -> Optional[str]:
    parts = module.split(".") if module else []
    if level:  # relative import: from the file's package
        roots = [base_dir]
        for _ in range(level - 1):
            roots = [os.path.dirname(roots[0])]
    else:
        roots, d = [], base_dir
        for _ in range(MAX_PARENT_LEVELS + 1):
            roots.append(d)
            d = os.path.dirname(d)
    for root in roots:
        candidate = os.path.join(root, *parts)
        for path in (candidate + ".py", os.path.join(candidate, "__init__.py")):
            if parts and os.path.isfile(path):
                return path
    return None


def lookup(
    resolver: Resolver, name: cst.BaseExpression, file_path: Optional[str]
) -> Optional[Union[F.ClassInfo, cst.FunctionDef, cst.ClassDef]]:
    """What ``name`` (``Verify`` or ``utils.Verify``) imports from a sibling module: the class
    info of a Flink function class, a def, or the ClassDef of any other class."""
    if not file_path or not os.path.isfile(file_path):
        return None
    if isinstance(name, cst.Attribute) and isinstance(name.value, cst.Name):
        return _lookup_attribute(resolver, name.value, name.attr.value, file_path)
    if not isinstance(name, cst.Name):
        return None
    refs = resolver.referents(name)
    if len(refs) != 1 or not isinstance(refs[0].node, cst.ImportFrom):
        return None
    node: cst.ImportFrom = refs[0].node
    if isinstance(node.names, cst.ImportStar):
        return None
    imported = None
    for alias in node.names:
        local = alias.asname.name.value if alias.asname else dotted(alias.name)  # type: ignore[union-attr]
        if local == name.value:
            imported = dotted(alias.name)
    if imported is None:
        return None
    module = dotted(node.module) if node.module else ""
    path = _find_module(os.path.dirname(os.path.abspath(file_path)), module or "", len(node.relative))
    if path is None or os.path.abspath(path) == os.path.abspath(file_path):
        return None
    return _member(path, imported, resolver.model)


MAX_REEXPORTS = 5  # a name followed through this many modules that import it from another


def _member(path: str, name: str, model, depth: int = 0):
    """What module ``path`` defines as ``name``: a class or def of its own, or what it imports
    under that name from another module of the tree (``utils/__init__.py`` doing
    ``from .functions import Tokenizer``, or ``from .functions import *``), followed there."""
    analyzer = _load(path, os.path.getmtime(path), model)
    if analyzer is None:
        return None
    found = analyzer.classes.get(name) or analyzer.defs.get(name) or analyzer.plain_classes.get(name)
    if found is not None or depth >= MAX_REEXPORTS:
        return found
    here = os.path.dirname(os.path.abspath(path))
    origin = analyzer.imports.get(name)
    candidates = [(origin[0], origin[2], origin[1])] if origin is not None else []
    candidates += [(module, level, name) for module, level in analyzer.star_imports]
    for module, level, original in candidates:
        target = _find_module(here, module, level)
        if target is not None and os.path.abspath(target) != os.path.abspath(path):
            found = _member(target, original, model, depth + 1)
            if found is not None:
                return found
    return None


def _lookup_attribute(resolver: Resolver, module_name: cst.Name, attr: str, file_path: str):
    """``import utils`` / ``import utils as u`` then ``utils.Verify``."""
    refs = resolver.referents(module_name)
    if len(refs) != 1 or not isinstance(refs[0].node, cst.Import):
        return None
    module = None
    for alias in refs[0].node.names:
        full = dotted(alias.name)
        local = alias.asname.name.value if alias.asname else full  # type: ignore[union-attr]
        if local == module_name.value:
            module = full
    if not module:
        return None
    path = _find_module(os.path.dirname(os.path.abspath(file_path)), module, 0)
    if path is None or os.path.abspath(path) == os.path.abspath(file_path):
        return None
    return _member(path, attr, resolver.model)
