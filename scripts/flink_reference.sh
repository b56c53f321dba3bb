#!/usr/bin/env bash
# Create the reference Flink interpreter used by tests/test_flink_reference.py.
#
# Real Flink (PyPI apache-flink) is the reference engine for the PyFlink
# fixtures. It lives in its OWN virtualenv, .venv-flink/ at the repo root
# (gitignored), and is never a dependency of the tool itself.
#
# Usage: scripts/flink_reference.sh        # prints the interpreter path on stdout
#
# Idempotent: when .venv-flink/bin/python already imports pyflink, nothing is
# installed. Needs python3 (3.9-3.12; 3.11 here) and a Java 11/17 runtime.
# PyFlink finds Java through JAVA_HOME or, when unset, `java` on PATH; this
# script only checks that one of them exists (tests/flink_reference.py also
# sets JAVA_HOME from PATH for its subprocesses when it is unset).
# Jobs start their Python workers as `python` from PATH: run programs with
# .venv-flink/bin first on PATH (tests/flink_reference.py does).
#
# Measured on the 2-core dev machine (fast package mirror, cold pip cache): 34 s,
# 422 MB of wheels downloaded (apache-flink-libraries alone: 314 MB of jars),
# 842 MB on disk.  A slower network mostly adds the download time.
set -euo pipefail

FLINK_VERSION="${FLINK_VERSION:-2.3.0}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv-flink"
PY="$VENV/bin/python"
PYTHON="${PYTHON:-python3}"

log() { echo "flink_reference: $*" >&2; }

# Java: JAVA_HOME, else java from PATH.
if [[ -n "${JAVA_HOME:-}" && -x "${JAVA_HOME}/bin/java" ]]; then
    JAVA_BIN="$JAVA_HOME/bin/java"
elif command -v java >/dev/null 2>&1; then
    JAVA_BIN="$(command -v java)"
    JAVA_HOME="$(dirname "$(dirname "$(readlink -f "$JAVA_BIN")")")"
    export JAVA_HOME
else
    log "no Java found (set JAVA_HOME or put java on PATH); PyFlink needs Java 11 or 17"
    exit 1
fi

installed() {
    [[ -x "$PY" ]] && "$PY" -c "import pyflink, importlib.metadata as m; \
assert m.version('apache-flink') == '$FLINK_VERSION'" >/dev/null 2>&1
}

if installed; then
    log "apache-flink $FLINK_VERSION already in $VENV"
else
    start=$(date +%s)
    if [[ ! -x "$PY" ]]; then
        log "creating $VENV"
        "$PYTHON" -m venv "$VENV"
    fi
    log "installing apache-flink==$FLINK_VERSION (takes a few minutes)"
    # (pip.conf here names local index folders that may not exist: drop those warnings)
    "$PY" -m pip install --quiet "apache-flink==$FLINK_VERSION" 2>&1 \
        | { grep -v "is ignored: it is neither a file nor a directory" || true; } >&2
    if ! installed; then
        log "installed apache-flink but 'import pyflink' still fails"
        exit 1
    fi
    log "done in $(($(date +%s) - start)) s, $(du -sh "$VENV" | cut -f1) on disk"
fi

# A quick check that Java starts (does not run a Flink job).
"$JAVA_BIN" -version >/dev/null 2>&1 || { log "$JAVA_BIN does not run"; exit 1; }

echo "$PY"
