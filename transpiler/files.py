"""Input and output files of the command line: finding ``.py`` files, mirroring, atomic writes."""

from __future__ import annotations

import os
import re
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Optional

# Folders never entered while walking a directory (a folder named explicitly is always read).
SKIPPED_DIR_NAMES = frozenset({"__pycache__", "node_modules", "site-packages"})


class InputError(Exception):
    """A command-line path that cannot be used (the CLI exits with status 2)."""


@dataclass(frozen=True)
class InputFile:
    path: Path  # as the user will see it: the argument, or the argument joined with the walked part
    explicit: bool  # named on the command line, not found by walking a directory
    base: Path  # absolute folder the file is mirrored from: the argument folder, or a file's folder

    @property
    def display(self) -> str:
        return str(self.path)


def is_skipped_dir(path: Path) -> bool:
    """Hidden folders, caches, dependency folders and virtualenvs (any folder with ``pyvenv.cfg``)."""
    name = path.name
    return (
        name.startswith(".")
        or name in SKIPPED_DIR_NAMES
        or name.endswith(".egg-info")
        or (path / "pyvenv.cfg").exists()
    )


def collect(
    paths: Iterable[Path],
    exclude: Iterable[Path] = (),
    excluder=None,
    respect_gitignore: bool = False,
    force_exclude: bool = False,
) -> list[InputFile]:
    """The ``.py`` files named by ``paths``, in argument order, each directory walked in sorted order.

    Files named explicitly are taken whatever their extension. While walking, hidden files
    and folders, ``__pycache__``, ``node_modules``, ``site-packages``, ``*.egg-info``,
    virtualenvs and the ``exclude`` folders (for example the ``--out`` folder) are skipped.
    A file reached twice (same real path) is listed once.

    ``excluder`` (``config.Excluder``): files and folders whose path matches its globs are
    skipped while walking. ``respect_gitignore``: files and folders git ignores are skipped
    while walking a folder inside a git work tree. Paths named on the command line are never
    skipped for either reason unless ``force_exclude``.
    """
    excluded = {os.path.realpath(p) for p in exclude}
    named_ignored = git_ignored_names(paths) if respect_gitignore and force_exclude else set()
    seen: set[str] = set()
    found: list[InputFile] = []

    def add(path: Path, explicit: bool, base: Path) -> None:
        real = os.path.realpath(path)
        if real not in seen:
            seen.add(real)
            found.append(InputFile(path, explicit, base))

    for arg in paths:
        arg = Path(arg)
        if (arg.is_file() or arg.is_dir()) and force_exclude:
            if (excluder and excluder.matches(arg, whole=True)) or os.path.abspath(arg) in named_ignored:
                continue
        if arg.is_file():
            add(arg, True, Path(os.path.abspath(arg)).parent)
        elif arg.is_dir():
            base = Path(os.path.abspath(arg))
            ignored = git_ignored_below(arg) if respect_gitignore else set()
            for file in _walk(arg, excluded, excluder, ignored):
                add(file, False, base)
        elif arg.exists() or arg.is_symlink():
            raise InputError(f"{shown(str(arg))}: not a regular file or directory")
        else:
            raise InputError(f"{shown(str(arg))}: no such file or directory")
    return found


def _walk(top: Path, excluded: set[str], excluder=None, ignored: frozenset[str] = frozenset()) -> list[Path]:
    result: list[Path] = []

    def kept(path: Path) -> bool:
        return not (excluder and excluder.matches(path)) and os.path.abspath(path) not in ignored

    for dirpath, dirnames, filenames in os.walk(top):
        here = Path(dirpath)
        dirnames[:] = sorted(
            d
            for d in dirnames
            if not is_skipped_dir(here / d) and os.path.realpath(here / d) not in excluded and kept(here / d)
        )
        for name in sorted(filenames):
            if name.endswith(".py") and not name.startswith(".") and (here / name).is_file() and kept(here / name):
                result.append(here / name)
    return result


def _git(args: list[str], cwd: Path, stdin: Optional[bytes] = None) -> Optional[bytes]:
    """The output of ``git args`` run in ``cwd``; None when git is missing or fails (not a work tree)."""
    import subprocess

    try:
        proc = subprocess.run(["git", *args], cwd=cwd, input=stdin, capture_output=True, timeout=120)
    except (OSError, subprocess.SubprocessError):
        return None
    return proc.stdout if proc.returncode in (0, 1) else None  # check-ignore: 1 = nothing ignored


def git_ignored_below(folder: Path) -> frozenset[str]:
    """Absolute paths of the files and folders git ignores below ``folder`` (empty outside a work tree).

    A folder named on the command line that git ignores as a whole is still read (``./``).
    """
    out = _git(["ls-files", "--others", "--ignored", "--exclude-standard", "--directory", "-z"], Path(folder))
    if not out:
        return frozenset()
    names = [n for n in os.fsdecode(out).split("\0") if n and n != "./"]
    return frozenset(os.path.abspath(Path(folder) / n.rstrip("/")) for n in names)


def git_ignored_names(paths: Iterable[Path]) -> set[str]:
    """Absolute paths among ``paths`` (named on the command line) that git ignores."""
    by_folder: dict[str, list[str]] = {}
    for path in paths:
        absolute = os.path.abspath(path)
        by_folder.setdefault(os.path.dirname(absolute), []).append(os.path.basename(absolute))
    ignored: set[str] = set()
    for folder, names in by_folder.items():
        if not os.path.isdir(folder):
            continue
        out = _git(["check-ignore", "--stdin", "-z"], Path(folder), os.fsencode("\0".join(names) + "\0"))
        if out:
            ignored.update(os.path.join(folder, n.rstrip("/")) for n in os.fsdecode(out).split("\0") if n)
    return ignored


def common_root(files: list[InputFile]) -> Path:
    """The deepest folder containing every input: ``--out`` mirrors the tree below it."""
    if not files:
        return Path(os.getcwd())
    return Path(os.path.commonpath([str(f.base) for f in files]))


def mirror_path(file: InputFile, root: Path, out: Path) -> Path:
    """Where ``file`` goes under ``out``; raises InputError if that would be outside ``out``."""
    absolute = Path(os.path.abspath(file.path))
    relative = absolute.relative_to(root)
    target = Path(os.path.abspath(out / relative))
    out_abs = Path(os.path.abspath(out))
    if target == out_abs or out_abs not in target.parents:
        raise InputError(f"{shown(file.display)}: would be written outside {shown(str(out))}")
    if os.path.realpath(target) == os.path.realpath(absolute):
        raise InputError(f"{shown(file.display)}: --out would overwrite the input file; use --in-place")
    return target


def ensure_inside(target: Path, out: Path) -> None:
    """Check, after symlinks are resolved, that ``target`` is inside ``out``."""
    real_out = Path(os.path.realpath(out))
    real_target = Path(os.path.realpath(target))
    if real_out not in real_target.parents:
        raise InputError(f"{shown(str(target))}: resolves to {shown(str(real_target))}, outside {shown(str(out))}")


def atomic_write(path: Path, data: bytes, mode: Optional[int] = None) -> None:
    """Replace ``path`` with ``data`` atomically: write a temporary file in the same folder, then rename.

    The file keeps its permission bits (or gets ``mode``, or the umask default for a new file).
    If ``path`` is a symlink, the file it points to is replaced and the link kept.
    """
    path = Path(os.path.realpath(path))
    if mode is None:
        try:
            mode = stat.S_IMODE(path.stat().st_mode)
        except FileNotFoundError:
            mode = 0o666 & ~_umask()
    remove_stale_temp_files(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=TEMP_SUFFIX)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


TEMP_SUFFIX = ".f2s-tmp"
# tempfile.mkstemp's random part: 8 characters of this alphabet.
_TEMP_RANDOM = "[a-z0-9_]{8}"


def remove_stale_temp_files(path: Path) -> None:
    """Delete the temporary files a killed run left next to ``path`` (``.NAME.XXXXXXXX.f2s-tmp``).

    Only regular files with exactly the name ``atomic_write`` gives its temporary files for
    ``path`` are removed; anything else, however similar its name, is left alone.
    """
    pattern = re.compile(re.escape(f".{path.name}.") + _TEMP_RANDOM + re.escape(TEMP_SUFFIX))
    try:
        entries = list(os.scandir(path.parent))
    except OSError:
        return
    for entry in entries:
        if pattern.fullmatch(entry.name) and entry.is_file(follow_symlinks=False):
            try:
                os.unlink(entry.path)
            except FileNotFoundError:
                pass


def ensure_not_leaving(file: InputFile) -> None:
    """For ``--in-place``: refuse a file that is, or lies below, a symlink leading out of its tree.

    The tree is the folder given on the command line (or a named file's folder); rewriting
    the target of a link that points elsewhere would change files the user did not name.
    """
    real_base = Path(os.path.realpath(file.base))
    real = Path(os.path.realpath(file.path))
    if real_base not in real.parents:
        raise InputError(
            f"symlink to {shown(str(real))}, outside {shown(str(file.base))}: not rewritten "
            "(--in-place only rewrites files inside the given paths; convert the target itself)"
        )


def shown(name: str) -> str:
    """A file name as printed in output lines: as it is, unless it holds control characters.

    A name with a newline, an ANSI escape or any other non-printable character is printed as a
    Python string literal (``'a\\nb.py'``), so it cannot forge or hide ``path:line:col:`` lines
    nor be silently altered by the terminal. The JSON report keeps the real name.
    """
    return name if name.isprintable() else repr(name)


def file_mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current


# Top-level names of Flink's Python APIs that a project's own module could take.
FLINK_TOP_LEVEL = ("flink", "pyflink")


def local_flink_modules(files: list[InputFile]) -> frozenset[str]:
    """Flink top-level names the converted tree defines itself (``flink.py``, a ``pyflink/`` package).

    Looked for in every folder from an input's own up to the folder it was given from, as
    ``sys.path[0]`` or a project root would find them: there, ``import flink`` is the project's code.
    """
    found: set[str] = set()
    seen: set[Path] = set()
    for file in files:
        folder = Path(os.path.abspath(file.path)).parent
        while folder not in seen:
            seen.add(folder)
            for name in FLINK_TOP_LEVEL:
                if (folder / f"{name}.py").is_file() or (folder / name / "__init__.py").is_file():
                    found.add(name)
            if folder == file.base or folder.parent == folder or file.base not in folder.parents:
                break
            folder = folder.parent
    return frozenset(found)
