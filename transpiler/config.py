"""Settings of the command line: ``[tool.flink2spark]`` in ``pyproject.toml``, and rule/code selectors.

The configuration file is found like ruff finds its own: the nearest ``pyproject.toml`` with a
``[tool.flink2spark]`` table, from the first command-line PATH (its folder, for a file) upward;
``--config FILE`` names one instead. Keys (all optional)::

    [tool.flink2spark]
    exclude = ["legacy/**", "*_flink_test.py"]   # globs of paths skipped while walking folders
    select = ["dataset", "F2S9"]                  # rule ids / generations, marker code prefixes
    ignore = ["dataset.join", "F2S105"]
    output-format = "text"                        # text | json | sarif | github
    force-exclude = false                          # exclude files named on the command line too
    respect-gitignore = true                       # skip git-ignored files while walking folders
    spark-master = "local[4]"                      # .master(...) on the SparkSession the jobs create
    spark-app-name = "orders-etl"                  # .appName(...) on it
    jobs = 2                                       # files worked on at a time (default: the CPUs)

A command-line option replaces the value of the same key. A bad value is a ``ConfigError``
naming the file (the command line exits with status 2).

Selectors (``select``/``ignore``) are of two kinds:

* rule ids (``dataset.join``, as ``flink2spark rules`` lists them) or a generation
  (``dataset``, ``pyflink``: all its rules): they choose the rules ``convert`` applies.
  A construct whose rule is not selected or is ignored is left as is with a TODO marker.
* marker codes or code prefixes (``F2S105``, ``F2S2``, ``F2S9``): they choose which markers
  ``convert`` reports and which findings ``check`` reports. A ``check`` finding ``F2S901``
  also answers to the code of the TODO it found (``--ignore F2S105`` hides the TODOs F2S105).
  Error markers (a file that cannot be read or parsed) are always reported.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Optional

from flink2spark.transpiler.session import check_value

OUTPUT_FORMATS = ("text", "json", "sarif", "github")
TABLE = "tool.flink2spark"
_LIST_KEYS = ("exclude", "select", "ignore")
_BOOL_KEYS = ("force-exclude", "respect-gitignore")
_SESSION_KEYS = ("spark-master", "spark-app-name")
KEYS = _LIST_KEYS + _BOOL_KEYS + ("output-format",) + _SESSION_KEYS + ("jobs",)
_CODE_PREFIX = re.compile(r"F2S\d{0,3}")


class ConfigError(Exception):
    """A configuration file or a selector that cannot be used."""


@dataclass
class Config:
    path: Optional[Path] = None  # the file the settings come from (None: defaults)
    exclude: list[str] = field(default_factory=list)
    select: list[str] = field(default_factory=list)
    ignore: list[str] = field(default_factory=list)
    output_format: str = "text"
    force_exclude: bool = False
    respect_gitignore: bool = True
    spark_master: Optional[str] = None
    spark_app_name: Optional[str] = None
    jobs: Optional[int] = None  # None: as many as CPUs

    @property
    def root(self) -> Path:
        """The folder the ``exclude`` globs of the file are relative to."""
        return self.path.parent if self.path is not None else Path.cwd()


def _load_toml(path: Path) -> dict:
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib  # type: ignore[no-redef]
    try:
        with open(path, "rb") as handle:
            return tomllib.load(handle)
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read the configuration file: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None


def _table(data: dict) -> Optional[dict]:
    tool = data.get("tool")
    return tool.get("flink2spark") if isinstance(tool, dict) else None


def find_config(start: Path) -> Optional[Path]:
    """The nearest ``pyproject.toml`` with a ``[tool.flink2spark]`` table, from ``start`` upward."""
    folder = Path(start).absolute()
    if not folder.is_dir():
        folder = folder.parent
    for candidate in (folder, *folder.parents):
        pyproject = candidate / "pyproject.toml"
        if pyproject.is_file():
            try:
                if _table(_load_toml(pyproject)) is not None:
                    return pyproject
            except ConfigError:
                # A broken pyproject.toml: ours if it names our table (load_config then says what is wrong)
                if "[tool.flink2spark]" in pyproject.read_text("utf-8", errors="replace"):
                    return pyproject
    return None


def load_config(path: Optional[Path]) -> Config:
    """The settings of ``path`` (a ``pyproject.toml`` or any TOML file with the table); defaults for None."""
    if path is None:
        return Config()
    path = Path(path)
    data = _load_toml(path)
    table = _table(data)
    if table is None:
        raise ConfigError(f"{path}: no [{TABLE}] table")
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [{TABLE}] must be a table")
    config = Config(path=path)
    for key, value in table.items():
        where = f"{path}: [{TABLE}] {key}"
        if key not in KEYS:
            raise ConfigError(f"{path}: [{TABLE}]: unknown key {key!r} (known: {', '.join(KEYS)})")
        if key in _LIST_KEYS:
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise ConfigError(f"{where}: must be a list of strings, not {value!r}")
            if key != "exclude":
                try:
                    value = split_selectors(value)
                except ConfigError as exc:
                    raise ConfigError(f"{where}: {exc}") from None
            setattr(config, key, list(value))
        elif key in _BOOL_KEYS:
            if not isinstance(value, bool):
                raise ConfigError(f"{where}: must be true or false, not {value!r}")
            setattr(config, key.replace("-", "_"), value)
        elif key in _SESSION_KEYS:
            problem = check_value(value)
            if problem:
                raise ConfigError(f"{where}: {problem}")
            setattr(config, key.replace("-", "_"), value)
        elif key == "jobs":
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ConfigError(f"{where}: must be a whole number, 1 or more, not {value!r}")
            config.jobs = value
        else:  # output-format
            if value not in OUTPUT_FORMATS:
                raise ConfigError(f"{where}: must be one of {', '.join(OUTPUT_FORMATS)}, not {value!r}")
            config.output_format = value
    return config


# --------------------------------------------------------------------------- selectors


def split_selectors(values: Iterable[str]) -> list[str]:
    """``["F2S1,dataset.join", "F2S9"]`` -> ``["F2S1", "dataset.join", "F2S9"]``, each checked."""
    out = [part.strip() for value in values for part in value.split(",") if part.strip()]
    for selector in out:
        if not (is_code_selector(selector) or is_rule_selector(selector)):
            raise ConfigError(
                f"unknown rule id or marker code {selector!r} "
                "(see `flink2spark rules` and `flink2spark codes`; codes are prefixes such as F2S1 or F2S105)"
            )
    return out


def is_code_selector(selector: str) -> bool:
    from flink2spark.transpiler.markers import CODES

    return bool(_CODE_PREFIX.fullmatch(selector)) and any(code.startswith(selector) for code in CODES)


def _rule_ids() -> list[str]:
    from flink2spark.transpiler.registry import all_rules

    return [rule.id for rule in all_rules()]


def _rule_matches(selector: str, rule_id: str) -> bool:
    return rule_id == selector or rule_id.startswith(selector + ".")


def is_rule_selector(selector: str) -> bool:
    return any(_rule_matches(selector, rule_id) for rule_id in _rule_ids())


@dataclass(frozen=True)
class Selection:
    """What ``select`` and ``ignore`` choose, split into rules and marker codes."""

    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()

    def _part(self, values: tuple[str, ...], codes: bool) -> list[str]:
        return [v for v in values if is_code_selector(v) == codes]

    def disabled_rules(self) -> frozenset[str]:
        """Rule ids the engine must not apply: not selected (when rules are selected) or ignored."""
        chosen, dropped = self._part(self.select, False), self._part(self.ignore, False)
        if not chosen and not dropped:
            return frozenset()  # the common case: the rule registry is not even loaded
        return frozenset(
            rule_id
            for rule_id in _rule_ids()
            if (chosen and not any(_rule_matches(s, rule_id) for s in chosen))
            or any(_rule_matches(s, rule_id) for s in dropped)
        )

    def reports(self, code: str, todo_code: Optional[str] = None) -> bool:
        """Whether a marker with ``code`` (a check finding: and the code of the TODO it found) is shown."""
        codes = [c for c in (code, todo_code) if c]
        chosen, dropped = self._part(self.select, True), self._part(self.ignore, True)
        if chosen and not any(c.startswith(s) for c in codes for s in chosen):
            return False
        return not any(c.startswith(s) for c in codes for s in dropped)


# --------------------------------------------------------------------------- exclude globs


@functools.lru_cache(maxsize=256)
def glob_regex(pattern: str) -> re.Pattern:
    """A gitignore-like glob as a regex over a ``/``-separated relative path.

    ``*`` and ``?`` stay within one path part, ``**`` crosses parts, ``[...]`` is a class.
    """
    out, i = [], 0
    while i < len(pattern):
        ch = pattern[i]
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
            continue
        if pattern.startswith("**", i):
            out.append(".*")
            i += 2
            continue
        if ch == "*":
            out.append("[^/]*")
        elif ch == "?":
            out.append("[^/]")
        elif ch == "[" and "]" in pattern[i + 1 :]:
            end = pattern.index("]", i + 1)
            body = pattern[i + 1 : end]
            if body.startswith("!"):
                body = "^" + body[1:]
            out.append("[" + body.replace("\\", "\\\\") + "]")
            i = end + 1
            continue
        else:
            out.append(re.escape(ch))
        i += 1
    return re.compile("".join(out))


@dataclass(frozen=True)
class Excluder:
    """``exclude`` globs, each relative to a folder (the config file's, or the current one).

    A glob without ``/`` matches the name of a file or folder anywhere (``legacy``,
    ``*_test.py``); a glob with ``/`` matches the path relative to its folder
    (``jobs/old/**``, ``src/*/gen.py``; a leading ``/`` or ``./`` is dropped). A matched folder
    excludes everything below it.
    """

    patterns: tuple[tuple[Path, str], ...] = ()

    @staticmethod
    def of(globs: Iterable[str], base: Path) -> list[tuple[Path, str]]:
        base = Path(base).absolute()
        return [(base, g) for g in globs if g.strip()]

    def __bool__(self) -> bool:
        return bool(self.patterns)

    def matches(self, path: Path, whole: bool = False) -> bool:
        """Whether ``path`` is excluded; ``whole``: also when one of its folders is (a named file)."""
        absolute = Path(_absolute(path))
        for base, glob in self.patterns:
            anchored = "/" in glob.rstrip("/")
            text = glob.strip("/")
            if text.startswith("./"):
                text = text[2:]
            regex = glob_regex(text)
            try:
                parts = absolute.relative_to(base).parts
            except ValueError:
                if anchored:
                    continue
                parts = absolute.parts[1:]
            candidates = range(1, len(parts) + 1) if whole else [len(parts)]
            for n in candidates:
                subject = "/".join(parts[:n]) if anchored else (parts[n - 1] if n else "")
                if subject and regex.fullmatch(subject):
                    return True
        return False


def _absolute(path: Path) -> str:
    import os

    return os.path.abspath(path)
