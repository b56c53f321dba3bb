"""Running the engine on many files in worker processes (``convert``/``check --jobs N``).

The command reads the files, delivers the results and prints, all in its own process and in
input order; only the engine's work on a file that may hold Flink code (``Job.offload``) goes
to a worker. ``in_order`` yields each job's result in the order the jobs came, whatever order
the workers finish them in.

Design:

* **Start method: fork.** A worker is a fork of the command's process, which imports the
  engine, libcst, black and the rules first (``preload``): it starts in milliseconds (a fresh
  interpreter would spend more than a second importing them), so two files are already worth
  a pool. Forking is safe here because no other thread of the command's process is doing
  anything when it forks: the engine's deep-stack thread (``engine.run_deep``) waits for its
  next file on a queue that a forked child never uses (the child starts its own thread:
  ``os.register_at_fork``), workers are forked from the main thread between two files, and the
  progress bar draws from the main thread (``cli._progress``: no refresh thread). The settings the
  command set (the Spark session: ``transpiler/session.py``) are set again in the worker by
  ``setup``, not left to what the fork copied. Where ``fork`` does not exist (Windows), every
  job runs in the command's process.
* **Bounded.** At most ``WINDOW`` jobs (and ``WINDOW_BYTES`` of their input) wait between
  being read and being delivered, and a worker holds one job at a time: memory does not grow
  with the number of files.
* **A pool only when it pays.** The workers are forked once ``worth_a_pool`` jobs worth a
  worker wait at the same time (the caller knows what a job costs: converting a file takes
  0.1 to 1.5 s, checking one tens of milliseconds, forking two workers and their first
  answers about 20 ms); a pre-commit hook on one or two files forks nothing. Jobs not worth
  a worker (files without Flink text, decided at read speed) run in the command's process.
* **Failures.** An exception of the engine is the work function's to turn into a result (as
  without workers). A worker that dies (killed, out of memory, a crash in C code) gives its
  file the result of ``crashed(job, why)`` and is replaced; the other files go on. A worker
  whose command is gone sees its pipe close and ends.
* **Interrupts.** Workers ignore SIGINT; on Ctrl-C (or any exception) the command ends the
  workers it started and the exception goes on (the files written so far are whole:
  ``files.atomic_write``).
"""

from __future__ import annotations

import collections
import multiprocessing
import os
import signal
from dataclasses import dataclass, field
from multiprocessing.connection import wait
from typing import Any, Callable, Iterable, Iterator, Optional

WINDOW = 1024  # jobs read ahead of the one delivered next (with workers): a few Flink files among many others
WINDOW_BYTES = 16 << 20  # input bytes held by the jobs read ahead (their results: a few times more at most)


def default_jobs() -> int:
    """The CPUs this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # not on Linux
        return os.cpu_count() or 1


def can_fork() -> bool:
    return "fork" in multiprocessing.get_all_start_methods()


@dataclass
class Job:
    key: Any  # what the caller needs back with the result
    args: Optional[tuple]  # for the work function; None: nothing to run, the result is None
    offload: bool = False  # worth a worker process
    size: int = 0  # bytes held until delivered
    result: Any = field(default=None, repr=False)
    state: str = "waiting"  # waiting -> running (in a worker) -> done


def in_order(
    jobs: Iterable[Job],
    work: Callable[..., Any],
    processes: int,
    crashed: Callable[[Job, str], Any],
    setup: Callable[[], None] = lambda: None,
    preload: Callable[[], None] = lambda: None,
    worth_a_pool: int = 2,
) -> Iterator[tuple[Job, Any]]:
    """``(job, work(*job.args))`` for each job, in the order of ``jobs``.

    With ``processes`` > 1 (and fork available), offloaded jobs run in up to ``processes``
    worker processes, each running ``setup()`` first; ``preload()`` runs here once before the
    first fork (imports every worker then has). The workers are forked once ``worth_a_pool``
    offloaded jobs wait at the same time (fewer are run here: a pool would not pay for its
    start). The other jobs run here, when their turn to be delivered comes. ``jobs`` is
    consumed lazily, a bounded window ahead, so a file is read when its job is drawn. With
    ``processes`` 1 the jobs are run one by one, each drawn once the one before was delivered.
    """
    parallel = processes > 1 and can_fork()
    window_size, window_bytes = (WINDOW, WINDOW_BYTES) if parallel else (1, 0)
    source = iter(jobs)
    window: collections.deque[Job] = collections.deque()
    waiting: collections.deque[Job] = collections.deque()  # offloaded jobs not sent to a worker yet
    held = 0
    pool: Optional[_Pool] = None
    try:
        while True:
            while source is not None and (not window or (len(window) < window_size and held < window_bytes)):
                job = next(source, None)
                if job is None:
                    source = None
                    break
                window.append(job)
                held += job.size
                if job.offload and parallel and job.args is not None:
                    waiting.append(job)
            if pool is None and len(waiting) >= max(worth_a_pool, 2):
                preload()
                pool = _Pool(processes, work, setup, crashed)
            if pool is not None:
                pool.collect(block=False)
                while waiting and pool.take(waiting[0]):
                    waiting.popleft()
            if not window:
                return
            head = window[0]
            if head.state == "running":
                pool.collect(block=True)
                continue
            if head.state == "waiting":
                if pool is not None and waiting and waiting[0] is head:
                    pool.collect(block=True)  # every worker is busy: wait for one
                    continue
                if waiting and waiting[0] is head:
                    waiting.popleft()  # too few to be worth a pool
                head.result = work(*head.args) if head.args is not None else None
                head.state = "done"
            window.popleft()
            held -= head.size
            yield head, head.result
            head.result = None
    finally:
        if pool is not None:
            pool.close()


class _Worker:
    def __init__(self, context, work, setup, siblings: list) -> None:
        ours, theirs = context.Pipe()
        # The fork also copies the command's ends of the other workers' pipes: the child closes
        # them, so that each worker sees its own pipe close when the command ends.
        self.process = context.Process(
            target=_serve, args=(theirs, work, setup, [ours, *siblings]), name="flink2spark-worker", daemon=True
        )
        self.process.start()
        theirs.close()
        self.connection = ours
        self.job: Optional[Job] = None


def _serve(connection, work, setup, inherited: list) -> None:
    """A worker's loop: a job's arguments in, its result out, until the pipe closes."""
    for other in inherited:
        other.close()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the command, which ends the workers
    setup()
    while True:
        try:
            args = connection.recv()
        except (EOFError, OSError):
            return  # the command is done, or gone
        result = work(*args)
        try:
            connection.send(result)
        except OSError:
            return


class _Pool:
    """Up to ``size`` forked workers, each running one job at a time."""

    def __init__(self, size: int, work, setup, crashed) -> None:
        self.size, self.work, self.setup, self.crashed = size, work, setup, crashed
        self.context = multiprocessing.get_context("fork")
        self.workers: list[_Worker] = []

    def take(self, job: Job) -> bool:
        """Send ``job`` to an idle worker (forking one if fewer than ``size`` run); False: all busy."""
        idle = next((w for w in self.workers if w.job is None), None)
        if idle is None and len(self.workers) < self.size:
            idle = _Worker(self.context, self.work, self.setup, [w.connection for w in self.workers])
            self.workers.append(idle)
        if idle is None:
            return False
        try:
            idle.connection.send(job.args)
        except OSError:  # it died while idle: another takes the job
            self._remove(idle)
            return self.take(job)
        idle.job, job.state = job, "running"
        return True

    def collect(self, block: bool) -> None:
        """Take the results the workers have sent (waiting for one if ``block``)."""
        busy = {w.connection: w for w in self.workers if w.job is not None}
        if not busy:
            return
        for connection in wait(list(busy), timeout=None if block else 0):
            worker = busy[connection]
            job, worker.job = worker.job, None
            try:
                job.result = connection.recv()
            except (EOFError, OSError):  # the worker died on this job
                self._remove(worker)
                job.result = self.crashed(job, _how_it_ended(worker.process))
            job.state = "done"

    def _remove(self, worker: _Worker) -> None:
        self.workers.remove(worker)
        worker.connection.close()
        worker.process.join(timeout=5)

    def close(self) -> None:
        """End the workers: idle ones when their pipe closes, busy ones (an interrupted run) at once."""
        for worker in self.workers:
            worker.connection.close()
            if worker.job is not None:
                worker.process.terminate()
        for worker in self.workers:
            worker.process.join(timeout=5)
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join()
        self.workers = []


def _how_it_ended(process) -> str:
    process.join(timeout=5)
    code = process.exitcode
    if code is None:
        return "it stopped answering"
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return f"killed by {name}" + (" (out of memory?)" if -code == signal.SIGKILL else "")
    return f"exit status {code}"
