"""engine.run_deep: conversions run in one long-lived thread with a large stack, in this
process and in a forked child."""

from __future__ import annotations

import os
import select
import signal
import threading

import pytest

from flink2spark.transpiler import engine


def test_runs_in_one_thread_that_is_not_the_callers():
    first = engine.run_deep(threading.get_ident)
    assert first != threading.get_ident()
    assert engine.run_deep(threading.get_ident) == first


def test_errors_come_back_to_the_caller():
    with pytest.raises(ZeroDivisionError):
        engine.run_deep(lambda: 1 / 0)
    assert engine.run_deep(lambda: 2) == 2  # and the thread still serves


def test_a_call_from_inside_runs_there():
    assert engine.run_deep(lambda: engine.run_deep(threading.get_ident)) == engine.run_deep(threading.get_ident)


def test_deep_recursion_fits():
    def depth(n: int) -> int:
        return 0 if n == 0 else 1 + depth(n - 1)

    assert engine.run_deep(depth, 50_000) == 50_000


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork only")
def test_a_forked_child_converts_in_a_thread_of_its_own():
    engine.run_deep(lambda: None)  # the parent's thread exists
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: the parent's thread is not there; a new one must serve
        try:
            result = engine.convert_source("from flink.plan.Environment import get_environment\nenv = get_environment()\n", "x.py")
            os.write(write, b"ok" if result.status == "converted" else result.status.encode())
        finally:
            os._exit(0)
    os.close(write)
    ready, _, _ = select.select([read], [], [], 60)
    if not ready:  # the child waits for a thread that is not there
        os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    answer = os.read(read, 100) if ready else b"no answer in 60 s"
    os.close(read)
    assert answer == b"ok"
