"""The ``flink2spark`` command line: convert, check, rules, codes, shim-zip.

Every command reads files, hands them one by one to the engine
(``flink2spark.transpiler.engine.convert_bytes`` or ``check.check_bytes``) and reports
``path:line:col: ...`` lines. A bad file never stops the run: it is reported, left
untouched, and the exit status says so at the end.
"""

from __future__ import annotations

import contextlib
import difflib
import functools
import inspect
import json
import os
import sys
import time
import zipfile
from pathlib import Path
from typing import Callable, Iterator, List, Optional

import typer

from flink2spark.transpiler import config as C
from flink2spark.transpiler import files as F
from flink2spark.transpiler import markers as M
from flink2spark.transpiler import parallel as P
from flink2spark.transpiler.assess import OutputFormat as AssessFormat
from flink2spark.transpiler.result import ConversionResult, Marker

# Exit statuses, shared by every command.
EXIT_OK = 0  # done; nothing left to report
EXIT_FINDINGS = 1  # check found Flink constructs; convert --strict left TODO markers
EXIT_ERROR = 2  # usage error, or an input file that could not be read, parsed or written
# (kept as one code for existing CI and pre-commit users; the last stderr line tells which)

# Marker codes for a file that cannot be read or written, and for a crash of the converter on
# one file (the closest existing codes until markers.py has dedicated ones).
IO_ERROR = getattr(M, "IO_ERROR", M.NOT_TEXT)
ENGINE_ERROR = getattr(M, "ENGINE_ERROR", M.INVALID_OUTPUT)

PROGRESS_THRESHOLD = 20  # show a progress bar above this many files (only on a terminal)
PROGRESS_REFRESH_SECONDS = 0.1
# Files with Flink text read ahead at once before check forks its workers: checking a file
# takes tens of milliseconds, about what forking two workers costs (convert: two files).
CHECKS_WORTH_A_POOL = 4

EXIT_CODES_HELP = (
    "Exit status: 0 done (check: no Flink construct left); "
    "1 findings (check found Flink imports or TODO markers; convert --strict left TODO markers); "
    "2 usage error, or an input file that could not be read, decoded, parsed or written "
    "(the other files are still processed; the last line on stderr then says how many files "
    "could not be converted or checked)."
)

app = typer.Typer(
    name="flink2spark",
    help="Rewrite Apache Flink Python programs (DataSet API, Jython streaming, PyFlink) into PySpark.\n\n"
    "Examples:\n\n"
    "\b\n"
    "  flink2spark convert jobs/ --out converted/\n"
    "  flink2spark check converted/\n\n"
    "Settings: [tool.flink2spark] in pyproject.toml (exclude, select, ignore, output-format, "
    "force-exclude, respect-gitignore); options override them.\n\n"
    + EXIT_CODES_HELP,
    no_args_is_help=True,
    add_completion=False,
    context_settings={"help_option_names": ["-h", "--help"]},
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
)


def _version() -> str:
    """The installed package's version; from pyproject.toml when run from a source tree."""
    import importlib.metadata

    try:
        return importlib.metadata.version("flink2spark")
    except importlib.metadata.PackageNotFoundError:
        import re

        pyproject = Path(__file__).resolve().parent / "pyproject.toml"
        found = re.search(r'^version\s*=\s*"([^"]+)"', pyproject.read_text("utf-8"), re.M)
        return found.group(1) if found else "unknown"


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"flink2spark {_version()}")
        raise typer.Exit(EXIT_OK)


@app.callback()
def _main(
    version: bool = typer.Option(
        False, "--version", "-V", callback=_print_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    pass


# --------------------------------------------------------------------------- settings
# Options shared by convert and check; each replaces the [tool.flink2spark] key of its name.

CONFIG_OPTION = typer.Option(
    None, "--config", dir_okay=False, exists=True, metavar="FILE",
    help="Read [tool.flink2spark] from this TOML file instead of the nearest pyproject.toml that has one.",
)
EXCLUDE_OPTION = typer.Option(
    None, "--exclude", metavar="GLOB",
    help="Skip files and folders matching GLOB while walking folders (repeatable; replaces the config's exclude).",
)
FORCE_EXCLUDE_OPTION = typer.Option(
    None, "--force-exclude/--no-force-exclude",
    help="Apply --exclude and .gitignore to files named on the command line too (for pre-commit).",
    show_default=False,
)
GITIGNORE_OPTION = typer.Option(
    None, "--respect-gitignore/--no-respect-gitignore",
    help="Skip files git ignores while walking a folder in a git work tree (default: on).", show_default=False,
)
SELECT_OPTION = typer.Option(
    None, "--select", metavar="ID",
    help="Only these rule ids/generations (convert) or marker code prefixes (repeatable or comma-separated).",
)
IGNORE_OPTION = typer.Option(
    None, "--ignore", metavar="ID",
    help="Not these rule ids/generations (convert) nor marker code prefixes (repeatable or comma-separated).",
)
FORMAT_OPTION = typer.Option(
    None, "--output-format", metavar="FORMAT",
    help="text (default), json, sarif or github (GitHub Actions annotations).", show_default=False,
)
JOBS_OPTION = typer.Option(
    None, "--jobs", "-j", min=1, metavar="N",
    help="Work on up to N files at a time, in worker processes (default: the number of CPUs; 1: no worker).",
    show_default=False,
)


SHARED_OPTIONS = {  # parameter: (type, option)
    "config_file": (Optional[Path], CONFIG_OPTION),
    "exclude": (Optional[List[str]], EXCLUDE_OPTION),
    "force_exclude": (Optional[bool], FORCE_EXCLUDE_OPTION),
    "respect_gitignore": (Optional[bool], GITIGNORE_OPTION),
    "select": (Optional[List[str]], SELECT_OPTION),
    "ignore": (Optional[List[str]], IGNORE_OPTION),
    "output_format": (Optional[str], FORMAT_OPTION),
    "jobs": (Optional[int], JOBS_OPTION),
}


def with_settings(command: Callable) -> Callable:
    """Give a command the options of ``SHARED_OPTIONS``; it receives them as one ``settings`` argument."""
    signature = inspect.signature(command)
    own = [p for p in signature.parameters.values() if p.name != "settings"]
    shared = [
        inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=option, annotation=kind)
        for name, (kind, option) in SHARED_OPTIONS.items()
    ]

    @functools.wraps(command)
    def wrapper(**kwargs):
        from flink2spark.transpiler.session import SESSION

        options = {name: kwargs.pop(name) for name in SHARED_OPTIONS}
        token = SESSION.set(SESSION.get())  # what the command sets lasts as long as it runs
        try:
            return command(**kwargs, settings=Settings(kwargs["paths"], **options))
        finally:
            SESSION.reset(token)

    wrapper.__signature__ = signature.replace(parameters=own + shared)
    annotations = {k: v for k, v in command.__annotations__.items() if k != "settings"}
    wrapper.__annotations__ = {**annotations, **{name: kind for name, (kind, _) in SHARED_OPTIONS.items()}}
    return wrapper


class Settings:
    """The configuration file's settings with the command-line options applied over them."""

    def __init__(
        self, paths, config_file, exclude, force_exclude, respect_gitignore, select, ignore, output_format, jobs
    ) -> None:
        try:
            found = config_file if config_file is not None else C.find_config(paths[0])
            config = C.load_config(found)
            if select is not None:
                config.select = C.split_selectors(select)
            if ignore is not None:
                config.ignore = C.split_selectors(ignore)
        except C.ConfigError as exc:
            _usage_error(str(exc))
        self.format_from_command_line = output_format is not None
        if output_format is not None and output_format not in C.OUTPUT_FORMATS:
            _usage_error(f"--output-format must be one of {', '.join(C.OUTPUT_FORMATS)}, not {output_format!r}")
        self.output_format = output_format or config.output_format
        patterns = C.Excluder.of(exclude, Path.cwd()) if exclude is not None else C.Excluder.of(config.exclude, config.root)
        self.excluder = C.Excluder(tuple(patterns))
        self.force_exclude = config.force_exclude if force_exclude is None else force_exclude
        self.respect_gitignore = config.respect_gitignore if respect_gitignore is None else respect_gitignore
        self.selection = C.Selection(tuple(config.select), tuple(config.ignore))
        self.spark_master, self.spark_app_name = config.spark_master, config.spark_app_name
        self.jobs = jobs or config.jobs or P.default_jobs()

    def collect(self, paths: List[Path], exclude: List[Path] = ()) -> list[F.InputFile]:
        return _collect(paths, exclude, self)


def _reported(markers: list[Marker], selection: C.Selection) -> list[Marker]:
    """The markers --select/--ignore let through; errors always are."""
    from flink2spark.transpiler.check import todo_code

    return [m for m in markers if m.severity == "error" or selection.reports(m.code, todo_code(m))]


def _write_or_exit(path: Path, text: str, what: str) -> None:
    """Write ``text`` to ``path`` atomically (making its folder), or say why not and exit 2."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        F.atomic_write(path, text.encode("utf-8"))
    except OSError as exc:
        typer.echo(f"{F.shown(str(path))}: error: could not write {what}: {exc}", err=True)
        raise typer.Exit(EXIT_ERROR)


def _write_document(settings: Settings, entries: list, json_document: Callable[[], dict]) -> None:
    """The json/sarif/github output of a run on stdout; ``entries``: (path, markers) of each file."""
    from flink2spark.transpiler import formats

    if settings.output_format == "json":
        typer.echo(formats.to_json(json_document()), nl=False)
    elif settings.output_format == "sarif":
        typer.echo(formats.to_json(formats.sarif(entries, _version())), nl=False)
    elif settings.output_format == "github":
        typer.echo(formats.github(entries), nl=False)


# --------------------------------------------------------------------------- convert


@app.command(
    help="Convert Flink programs to PySpark.\n\n"
    "PATH is a .py file or a directory (walked recursively; hidden folders, __pycache__, "
    "node_modules, site-packages, virtualenvs, --exclude globs and git-ignored files are skipped).\n\n"
    "Output: with one input file and no option, the converted code goes to stdout. "
    "--out DIR writes the converted tree under DIR (non-Flink .py files are copied as they are). "
    "--in-place rewrites the changed files atomically (a symlink leading outside the given "
    "paths is refused: an error for that file, nothing written). --diff prints a unified diff and writes nothing.\n\n"
    "Files that cannot be read or parsed are reported on stderr as 'path:line:col: error: ...' "
    "and left untouched; the others are still converted, and the last line on stderr says how many "
    "could not be. File names with control characters (newline, escape) are printed as quoted "
    "Python strings. Empty files found in a directory are "
    "skipped; an empty file named on the command line is an error unless --skip-empty.\n\n"
    "--select/--ignore take rule ids (flink2spark rules) or generations (dataset, pyflink): a construct "
    "whose rule is not applied is left as is with a TODO; and marker code prefixes (F2S1, F2S105): "
    "which markers are printed and reported. --output-format json|sarif|github prints the markers "
    "as one document on stdout (needs --out or --in-place). Settings: [tool.flink2spark] in pyproject.toml.\n\n"
    "Examples:\n\n"
    "\b\n"
    "  flink2spark convert job.py                  # the converted code on stdout\n"
    "  flink2spark convert jobs/ --out converted/  # a converted copy of the tree\n"
    "  flink2spark convert jobs/ --diff            # what would change\n"
    "  flink2spark convert jobs/ --in-place --ignore dataset.join --output-format sarif > f2s.sarif\n\n"
    "Exit status: 0 done (also when TODO markers were written, unless --strict); "
    "1 with --strict when TODO markers were written; 2 usage error or some file could not be converted."
)
@with_settings
def convert(
    paths: List[Path] = typer.Argument(
        ..., metavar="PATH", exists=True, help="Files or directories.", show_default=False
    ),
    out: Optional[Path] = typer.Option(
        None, "--out", "-o", file_okay=False, help="Write the converted tree under this directory."
    ),
    in_place: bool = typer.Option(False, "--in-place", "-i", help="Rewrite changed files in place."),
    diff: bool = typer.Option(False, "--diff", help="Print a unified diff per changed file; write nothing."),
    report: Optional[Path] = typer.Option(
        None, "--report", dir_okay=False, metavar="FILE.json", help="Write a JSON report of the run."
    ),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Only print errors (no notes, todos, summary)."),
    strict: bool = typer.Option(False, "--strict", help="Exit 1 when TODO markers were written."),
    skip_empty: bool = typer.Option(
        False, "--skip-empty", help="Skip empty files named on the command line too (pre-commit hook)."
    ),
    spark_master: Optional[str] = typer.Option(
        None, "--spark-master", metavar="URL", help="Set .master(URL) on the SparkSession the converted jobs create."
    ),
    spark_app_name: Optional[str] = typer.Option(
        None, "--spark-app-name", metavar="NAME", help="Set .appName(NAME) on the SparkSession the converted jobs create."
    ),
    settings: Settings = None,  # the shared options: see with_settings
) -> None:
    from flink2spark.transpiler.session import SESSION, SessionSettings, check_value

    for option, value in (("--spark-master", spark_master), ("--spark-app-name", spark_app_name)):
        problem = check_value(value) if value is not None else None
        if problem:
            _usage_error(f"{option} {problem}")
    SESSION.set(SessionSettings(spark_master or settings.spark_master, spark_app_name or settings.spark_app_name))
    chosen = [name for name, on in (("--out", out is not None), ("--in-place", in_place), ("--diff", diff)) if on]
    if len(chosen) > 1:
        _usage_error(f"{' and '.join(chosen)} cannot be used together")
    mode = {"--out": "out", "--in-place": "in-place", "--diff": "diff"}[chosen[0]] if chosen else "stdout"
    if settings.output_format != "text" and mode in ("stdout", "diff"):
        if settings.format_from_command_line:
            what = "the diff" if mode == "diff" else "the converted code"
            _usage_error(
                f"--output-format {settings.output_format} prints to stdout, where {what} goes: "
                "use it with --out DIR or --in-place (or write a JSON report with --report FILE.json)"
            )
        settings.output_format = "text"  # the config file's format: stdout is taken, markers stay text
    inputs = settings.collect(paths, exclude=[out] if out is not None else [])
    if mode == "stdout" and len(inputs) != 1:
        _usage_error(
            f"{len(inputs)} input files: to print to stdout, give exactly one file; "
            "otherwise use --out DIR, --in-place or --diff"
        )
    root = F.common_root(inputs)
    disabled = settings.selection.disabled_rules()

    results: list[ConversionResult] = []
    reads = (_read_for_conversion(file, skip_empty, disabled) for file in inputs)
    setup = functools.partial(SESSION.set, SESSION.get())  # a worker converts with this command's settings
    conversions = P.in_order(reads, _run_engine, settings.jobs, _conversion_crashed, setup, _load_converter)
    def deliver(job, converted) -> None:
        result = _deliver(job, converted, mode, root, out)
        if result is not None:
            result.markers = _reported(result.markers, settings.selection)
            if settings.output_format == "text":
                _print_markers(result, quiet)
            results.append(result.drop_text())  # delivered: only its status and markers are kept

    # --in-place: files are rewritten once every file is converted, so a module another file imports
    # (transpiler/project.py reads it) is read as it was, whatever the order and the number of workers
    held: list = []
    with _progress(len(inputs), "converting") as advance, contextlib.closing(conversions):
        for job, converted in conversions:
            if mode == "in-place":
                held.append((job, converted))
            else:
                deliver(job, converted)
            advance()
    for job, converted in held:
        deliver(job, converted)

    from flink2spark.transpiler.report import build_report

    _write_document(settings, [(r.path, r.markers) for r in results], lambda: build_report(results))
    if report is not None:
        from flink2spark.transpiler.report import report_json

        _write_or_exit(report, report_json(results), "the report")
    if not quiet:
        _print_summary(results)

    failed = sum(r.status == "error" for r in results)
    if failed:
        typer.echo(f"{failed} of {len(results)} file(s) could not be converted (exit status {EXIT_ERROR})", err=True)
        raise typer.Exit(EXIT_ERROR)
    if strict and any(m.severity == "todo" for r in results for m in r.markers):
        raise typer.Exit(EXIT_FINDINGS)
    raise typer.Exit(EXIT_OK)


def _convert_file(
    file: F.InputFile, mode: str, root: Path, out: Optional[Path], skip_empty: bool, disabled: frozenset = frozenset()
) -> Optional[ConversionResult]:
    """Convert one file and deliver the output; None for a skipped empty file.

    ``mode`` is where the output goes: "out" (the tree under ``out``), "in-place", "diff" or "stdout".
    """
    job = _read_for_conversion(file, skip_empty, disabled)
    return _deliver(job, _run_engine(*job.args) if job.args is not None else None, mode, root, out)


def _read_for_conversion(file: F.InputFile, skip_empty: bool, disabled: frozenset) -> P.Job:
    """Read one file: the engine's arguments for it (``job.args``), or, without them, its outcome.

    ``job.key`` is (file, its bytes, the result when there is nothing to convert). The engine
    has real work only where the bytes hold Flink text (``job.offload``: worth a worker).
    """
    from flink2spark.transpiler.source import may_be_flink

    try:
        data = file.path.read_bytes()
    except OSError as exc:
        return P.Job((file, None, _io_error(file.display, f"cannot read the file: {exc.strerror or exc}")), None)
    if not data and (not file.explicit or skip_empty):
        # An empty file inside a tree (usually a package's __init__.py): nothing to convert,
        # but the mirrored tree still needs it.
        return P.Job((file, data, None), None)
    shadowed = F.local_flink_modules([file])  # the project's own flink/pyflink modules, seen from this file's folder
    return P.Job((file, data, None), (data, file.display, shadowed, disabled), may_be_flink(data), len(data))


def _run_engine(data: bytes, path: str, shadowed: frozenset, disabled: frozenset) -> ConversionResult:
    """The engine's conversion of one file (in a worker process with --jobs); a crash is an error result."""
    from flink2spark.transpiler import engine  # imported on first use: it loads libcst and black

    try:
        # ``disabled`` only when rules are deselected: engines without the parameter (tests' fakes) still fit
        return engine.convert_bytes(data, path, shadowed, **({"disabled": disabled} if disabled else {}))
    except Exception as exc:  # a converter bug must not stop the other files
        return _engine_error(path, f"{type(exc).__name__}: {exc}")


def _load_converter() -> None:
    """What every conversion needs, loaded before workers are forked so that none loads it again."""
    from flink2spark.transpiler import engine  # noqa: F401 - libcst and black
    from flink2spark.transpiler.registry import all_rules

    all_rules()


def _engine_error(path: str, what: str) -> ConversionResult:
    marker = Marker(1, 1, ENGINE_ERROR, "error", f"internal error in the converter ({what}); please report it")
    return ConversionResult(path, "", None, status="error", markers=[marker])


def _conversion_crashed(job: P.Job, how: str) -> ConversionResult:
    return _engine_error(job.key[0].display, f"the worker process converting this file ended: {how}")


def _deliver(job: P.Job, result: Optional[ConversionResult], mode: str, root: Path, out: Optional[Path]):
    """Deliver the output of a file read by ``_read_for_conversion``; returns its result (None: skipped)."""
    file, data, outcome = job.key
    if job.args is None:  # not converted: unreadable (``outcome``), or an empty file skipped
        if outcome is None and mode == "out":
            _deliver_to_out(file, data, root, out)
        return outcome
    try:
        if result.status == "error":
            pass  # reported by the caller; nothing is written
        elif mode == "out":  # unchanged files are copied byte for byte
            _deliver_to_out(file, result.output.encode("utf-8") if result.changed else data, root, out)
        elif mode == "in-place" and result.changed:
            F.ensure_not_leaving(file)
            F.atomic_write(file.path, result.output.encode("utf-8"))
        elif mode == "diff" and result.changed:
            typer.echo(_unified_diff(result), nl=False)
        elif mode == "stdout":
            typer.echo(result.output, nl=False)
    except (OSError, F.InputError) as exc:
        result.status = "error"
        result.markers.append(_io_error(file.display, f"could not write the output: {exc}").markers[0])
    return result


def _io_error(path: str, message: str) -> ConversionResult:
    marker = Marker(1, 1, IO_ERROR, "error", message)
    return ConversionResult(path, "", None, status="error", markers=[marker])


def _deliver_to_out(file: F.InputFile, data: bytes, root: Path, out: Path) -> None:
    """Write one file of the mirrored tree under ``out`` (never outside it), keeping its mode."""
    target = F.mirror_path(file, root, out)
    F.ensure_inside(target, out)  # before creating folders: a symlink under out may lead elsewhere
    target.parent.mkdir(parents=True, exist_ok=True)
    F.atomic_write(target, data, mode=F.file_mode(file.path))


def _unified_diff(result: ConversionResult) -> str:
    lines = difflib.unified_diff(
        result.source.splitlines(keepends=True),
        result.output.splitlines(keepends=True),
        fromfile=F.shown("a/" + result.path.lstrip("/")),
        tofile=F.shown("b/" + result.path.lstrip("/")),
    )
    # Like diff(1), mark a last line without a newline so the patch applies cleanly.
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)


def _print_markers(result: ConversionResult, quiet: bool) -> None:
    """Errors always go to stderr; notes and todos too unless --quiet."""
    for marker in result.markers:
        if marker.severity == "error" or not quiet:
            typer.echo(marker.format(F.shown(result.path)), err=True)


def _print_summary(results: list[ConversionResult]) -> None:
    from rich.console import Console

    from flink2spark.transpiler.report import summary_table

    Console(stderr=True, highlight=False).print(summary_table(results))


# --------------------------------------------------------------------------- check


@app.command(
    help="List the Flink constructs still present: Flink imports (F2S900) and unresolved "
    "'# TODO(flink2spark): F2Snnn' comments (F2S901), one 'path:line:col: F2Snnn message' line each "
    "on stdout. Empty files are clean.\n\n"
    "--select/--ignore take marker code prefixes: F2S900, F2S901, or the code of the TODO an F2S901 "
    "finding found (--ignore F2S1 hides the DataSet TODOs); rule ids are accepted and do nothing here. "
    "--baseline FILE reports only the findings FILE does not list (matched by path, code and the text of "
    "their line, not by line number); --write-baseline FILE writes the current findings to FILE. "
    "--output-format json|sarif|github prints the findings as one document on stdout.\n\n"
    "Examples:\n\n"
    "\b\n"
    "  flink2spark check converted/\n"
    "  flink2spark check src/ --write-baseline f2s-baseline.json   # accept what is there now\n"
    "  flink2spark check src/ --baseline f2s-baseline.json         # fail only on new findings\n"
    "  flink2spark check src/ --ignore F2S901 --output-format github\n\n"
    "Exit status: 0 nothing found (or --write-baseline); 1 findings; 2 usage error or a file that "
    "could not be read or parsed."
)
@with_settings
def check(
    paths: List[Path] = typer.Argument(
        ..., metavar="PATH", exists=True, help="Files or directories.", show_default=False
    ),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No summary line."),
    baseline: Optional[Path] = typer.Option(
        None, "--baseline", dir_okay=False, exists=True, metavar="FILE",
        help="Report only findings not in this baseline file.",
    ),
    write_baseline: Optional[Path] = typer.Option(
        None, "--write-baseline", dir_okay=False, metavar="FILE", help="Write the current findings to FILE; exit 0."
    ),
    settings: Settings = None,  # the shared options: see with_settings
) -> None:
    from flink2spark.transpiler import baseline as B

    try:
        known = B.load(baseline) if baseline is not None else None
    except B.BaselineError as exc:
        _usage_error(str(exc))
    inputs = settings.collect(paths)
    entries: list[tuple[str, list[Marker]]] = []
    all_keys: list = []  # every finding's identity, for --write-baseline
    known_count = 0
    checks = P.in_order(
        map(_read_for_check, inputs), _run_check, settings.jobs, _check_crashed, preload=_load_checker,
        worth_a_pool=CHECKS_WORTH_A_POOL,
    )
    with _progress(len(inputs), "checking") as advance, contextlib.closing(checks):
        for job, markers in checks:
            advance()
            file, data, unreadable = job.key
            markers = _reported(unreadable or markers, settings.selection)
            findings = [m for m in markers if m.severity != "error"]
            lines = B.source_lines(data) if findings and (known is not None or write_baseline) else []
            if write_baseline is not None:
                all_keys += B.keys(file.display, findings, lines, write_baseline)
            if known is not None and findings:
                is_new = B.new_findings(B.keys(file.display, findings, lines, baseline), known)
                fresh = {id(m) for m, new in zip(findings, is_new) if new}
                known_count += len(findings) - len(fresh)
                markers = [m for m in markers if m.severity == "error" or id(m) in fresh]
            entries.append((file.display, markers))
            if settings.output_format == "text" and write_baseline is None:
                for marker in markers:
                    typer.echo(marker.format(F.shown(file.display)), err=marker.severity == "error")

    if write_baseline is not None:
        _write_or_exit(write_baseline, B.dump(all_keys), "the baseline")
        for path, markers in entries:  # errors are never part of a baseline: still shown
            for marker in markers:
                if marker.severity == "error":
                    typer.echo(marker.format(F.shown(path)), err=True)
    else:
        from flink2spark.transpiler.formats import check_report

        _write_document(settings, entries, lambda: check_report(entries))

    findings = sum(m.severity != "error" for _, markers in entries for m in markers)
    errors = sum(m.severity == "error" for _, markers in entries for m in markers)
    failed = sum(any(m.severity == "error" for m in markers) for _, markers in entries)
    with_findings = sum(any(m.severity != "error" for m in markers) for _, markers in entries)
    summary = []
    if write_baseline is not None:
        summary.append(f"wrote {len(all_keys)} finding(s) to the baseline {F.shown(str(write_baseline))}")
    elif not quiet:
        summary.append(f"{findings} finding(s) in {with_findings} of {len(inputs)} file(s)")
        if known is not None:
            summary[-1] += f" ({known_count} more in the baseline)"
    if failed:
        summary.append(f"{failed} file(s) could not be checked (exit status {EXIT_ERROR})")
    if summary:
        typer.echo("; ".join(summary), err=True)
    if errors:
        raise typer.Exit(EXIT_ERROR)
    raise typer.Exit(EXIT_FINDINGS if findings and write_baseline is None else EXIT_OK)


def _read_for_check(file: F.InputFile) -> P.Job:
    """Read one file for ``check``: ``job.key`` is (file, its bytes, the error markers if unreadable)."""
    from flink2spark.transpiler.source import may_be_flink

    try:
        data = file.path.read_bytes()
    except OSError as exc:
        return P.Job((file, b"", _io_error(file.display, f"cannot read the file: {exc.strerror or exc}").markers), None)
    shadowed = F.local_flink_modules([file])  # seen from this file's folder
    return P.Job((file, data, None), (data, file.display, shadowed), may_be_flink(data), len(data))


def _run_check(data: bytes, path: str, shadowed: frozenset) -> list[Marker]:
    """``check_bytes`` on one file (in a worker process with --jobs); a crash is an error marker."""
    from flink2spark.transpiler.check import check_bytes

    try:
        return check_bytes(data, path, shadowed)
    except Exception as exc:  # a bug must not stop the other files
        return _engine_error(path, f"{type(exc).__name__}: {exc}").markers


def _load_checker() -> None:
    from flink2spark.transpiler import check, engine  # noqa: F401 - check_source runs in engine.run_deep


def _check_crashed(job: P.Job, how: str) -> list[Marker]:
    return _engine_error(job.key[0].display, f"the worker process checking this file ended: {how}").markers


# --------------------------------------------------------------------------- assess


@app.command(
    help="Assess a migration before doing it: convert in memory, write nothing, and print per file "
    "and in total the API generation (dataset, jython, pyflink, none), the rules that matched, the "
    "constructs left as TODO, how many constructs convert exactly, approximately (NOTE markers to "
    "review) or need a TODO, and an estimate of the manual work (minutes per NOTE, per TODO by code "
    "family and per file in error: the weights are printed with the numbers).\n\n"
    "Example: flink2spark assess jobs/ --output-format html --out assessment.html\n\n"
    "--output-format text (default: a table per file and a totals block), json, or html (a one-page "
    "report with a chart per API generation, no JavaScript). --out FILE writes the report there "
    "instead of stdout. Files that cannot be read or parsed are listed as errors and counted.\n\n"
    "Exit status: 0 the report was printed (also when some files could not be parsed); "
    "2 usage error (bad option, missing path, no Python file found) or --out could not be written."
)
def assess(
    paths: List[Path] = typer.Argument(
        ..., metavar="PATH", exists=True, help="Files or directories.", show_default=False
    ),
    output_format: AssessFormat = typer.Option(
        AssessFormat.text, "--output-format", case_sensitive=False, help="text, json or html."
    ),
    out: Optional[Path] = typer.Option(
        None, "--out", "-o", dir_okay=False, metavar="FILE", help="Write the report to FILE instead of stdout."
    ),
) -> None:
    from flink2spark.transpiler import assess as A

    inputs = _collect(paths)
    root = F.common_root(inputs)
    results: list[ConversionResult] = []
    with _progress(len(inputs), "assessing") as advance:
        for file in inputs:
            result = _convert_file(file, "assess", root, None, False)  # "assess": delivered nowhere
            if result is not None:
                results.append(result)
            advance()
    report = A.render(A.assess(results), output_format)
    if out is None:
        typer.echo(report, nl=False)
        raise typer.Exit(EXIT_OK)
    _write_or_exit(out, report, "the report")
    typer.echo(f"wrote {F.shown(str(out))}", err=True)
    raise typer.Exit(EXIT_OK)


# --------------------------------------------------------------------------- rules, codes


@app.command(
    help="List the conversion rules: id, API generation, what they match, exact or approximate, and "
    "their Spark form: native (Spark's own API only) or shim (some conversions call the runtime shim "
    "flink2spark.runtime, as the rule's examples show). "
    "The ids (and generations) are what convert --select/--ignore take.\n\n"
    "Examples:\n\n"
    "\b\n"
    "  flink2spark rules\n"
    "  flink2spark rules --json"
)
def rules(as_json: bool = typer.Option(False, "--json", help="Print JSON instead of a table.")) -> None:
    try:
        from flink2spark.transpiler.registry import all_rules
    except ImportError as exc:
        typer.echo(f"error: the rule registry is not available ({exc})", err=True)
        raise typer.Exit(EXIT_ERROR)

    rows = [
        {
            "id": rule.id,
            "generation": rule.generation,
            "matches": list(rule.matches),
            "exact": bool(rule.exact),
            "form": rule.form,
            "summary": rule.summary,
        }
        for rule in all_rules()
    ]
    if as_json:
        typer.echo(json.dumps(rows, indent=2))
        return
    _print_table(
        ["id", "generation", "matches", "kind", "form", "summary"],
        [
            [
                r["id"],
                r["generation"],
                ", ".join(r["matches"]),
                "exact" if r["exact"] else "approximate",
                r["form"],
                r["summary"],
            ]
            for r in rows
        ],
    )


@app.command(
    help="List the marker codes: code, severity (note, todo, error) and title. Codes and their prefixes "
    "are what --select/--ignore take to choose the markers and findings reported.\n\n"
    "Examples:\n\n"
    "\b\n"
    "  flink2spark codes\n"
    "  flink2spark codes --json"
)
def codes(as_json: bool = typer.Option(False, "--json", help="Print JSON instead of a table.")) -> None:
    if as_json:
        typer.echo(json.dumps([vars(c) for c in M.CODES.values()], indent=2))
        return
    _print_table(["code", "severity", "title"], [[c.code, c.severity, c.title] for c in M.CODES.values()])


def _print_table(headers: list[str], rows: list[list[str]]) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(show_edge=False, highlight=False)
    for header in headers:
        table.add_column(header, overflow="fold")
    for row in rows:
        table.add_row(*row)
    # On a terminal the table fits the window; piped, each row stays on one line (for grep).
    width = None if sys.stdout.isatty() else 100_000
    Console(width=width, highlight=False, markup=False).print(table)


# --------------------------------------------------------------------------- shim-zip


@app.command(
    "shim-zip",
    help="Write a zip of the runtime shim (flink2spark/__init__.py and flink2spark/runtime/) that "
    "converted programs import, for 'spark-submit --py-files OUT.zip' on a cluster.\n\n"
    "Example:\n\n"
    "\b\n"
    "  flink2spark shim-zip build/f2s.zip\n"
    "  spark-submit --py-files build/f2s.zip build/jobs/word_count.py",
)
def shim_zip(out: Path = typer.Argument(..., metavar="OUT.zip", dir_okay=False)) -> None:
    package = Path(__file__).resolve().parent  # the flink2spark package folder
    members = [package / "__init__.py"] + sorted(
        p for p in (package / "runtime").rglob("*.py") if "__pycache__" not in p.parts
    )
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f".{out.name}.f2s-tmp")
    with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for member in members:
            name = "flink2spark/" + member.relative_to(package).as_posix()
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))  # reproducible archive
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, member.read_bytes())
    os.replace(tmp, out)
    typer.echo(f"wrote {out} ({len(members)} files)", err=True)


# --------------------------------------------------------------------------- helpers


def _usage_error(message: str) -> None:
    """Report a usage error the way typer does for its own (exit status 2)."""
    typer.echo(f"Usage error: {message}\nTry 'flink2spark --help' for help.", err=True)
    raise typer.Exit(EXIT_ERROR)


def _collect(paths: List[Path], exclude: List[Path] = (), settings: Optional[Settings] = None) -> list[F.InputFile]:
    """The .py files to process; a bad path or no file at all is a usage error (exit 2).

    With ``settings``: its exclude globs and .gitignore are applied (see ``files.collect``).
    """
    options = {}
    if settings is not None:
        options = dict(
            excluder=settings.excluder,
            respect_gitignore=settings.respect_gitignore,
            force_exclude=settings.force_exclude,
        )
    try:
        inputs = F.collect(paths, exclude=exclude, **options)
    except F.InputError as exc:
        _usage_error(str(exc))
    if not inputs and options and F.collect(paths, exclude=exclude):
        # pre-commit passing only excluded files (--force-exclude): nothing to do is not an error
        typer.echo("nothing to do: every Python file given is excluded (--exclude, .gitignore)", err=True)
        raise typer.Exit(EXIT_OK)
    if not inputs:
        _usage_error(f"no Python files found in {', '.join(F.shown(str(p)) for p in paths)}")
    return inputs


@contextlib.contextmanager
def _progress(total: int, label: str) -> Iterator[Callable[[], None]]:
    """Yield an ``advance()`` function; draws a progress bar on stderr for long runs on a terminal."""
    if total <= PROGRESS_THRESHOLD or not sys.stderr.isatty():
        yield lambda: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    # Drawn from this thread, not by a refresh thread: --jobs forks worker processes during the
    # run, and a fork must not copy a thread that may hold a lock (transpiler/parallel.py).
    with Progress(*columns, console=Console(stderr=True), transient=True, auto_refresh=False) as progress:
        task = progress.add_task(label, total=total)
        drawn = time.monotonic()

        def advance() -> None:
            nonlocal drawn
            progress.advance(task)
            if time.monotonic() - drawn >= PROGRESS_REFRESH_SECONDS:
                progress.refresh()
                drawn = time.monotonic()

        yield advance


def main() -> None:  # pragma: no cover - `python -m flink2spark.cli`
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
