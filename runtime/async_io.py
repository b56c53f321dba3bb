"""Async I/O for programs converted from PyFlink's ``AsyncDataStream`` (bounded streams).

PyFlink runs an ``AsyncFunction`` in its Python worker: ``open(runtime_context)``, then
``await async_invoke(value)`` for each element (up to ``capacity`` in flight) on an asyncio
loop, each with a timer of ``timeout``: when it fires first, ``timeout(value)`` gives the
result (by default it raises ``TimeoutError``). With a retry strategy, a result or an
exception that its predicates accept is retried after the strategy's backoff while
``can_retry(attempts)`` and the timeout has not passed. A result must be a list (an
iterable); an exception fails the job. ``close()`` at the end.

``async_wait(rdd, fn, timeout, ...)`` does the same on each Spark partition (its own asyncio
loop, ``capacity`` elements at a time). The results come in the order of the input elements:
what ``ordered_wait`` gives, and one of the orders ``unordered_wait`` may give (completion
order). Only the standard library is imported.
"""

from __future__ import annotations

import asyncio
import time

from flink2spark.runtime.windows import Generic

__all__ = ["AsyncFunction", "AsyncRetryStrategy", "async_retry_predicates", "async_wait"]


class AsyncFunction(Generic):
    """``pyflink.datastream.AsyncFunction``: ``async_invoke(value)`` returns a list."""

    def open(self, runtime_context):
        pass

    def close(self):
        pass

    async def async_invoke(self, value):
        raise NotImplementedError

    def timeout(self, value):
        raise TimeoutError("Async function call has timed out for input: " + str(value))


class _Predicates(object):
    def __init__(self, result_predicate, exception_predicate):
        self._result_predicate = result_predicate
        self._exception_predicate = exception_predicate

    def result_predicate(self):
        return self._result_predicate

    def exception_predicate(self):
        return self._exception_predicate


class AsyncRetryStrategy(Generic):
    """``pyflink.datastream.AsyncRetryStrategy``: ``no_restart()``, ``fixed_delay(...)``,
    ``exponential_backoff(...)`` with PyFlink's arguments and arithmetic."""

    def __init__(self, max_attempts=0, delays=None, result_predicate=None, exception_predicate=None):
        self._max_attempts = max_attempts
        self._delays = delays  # attempts -> backoff in milliseconds
        self._predicates = _Predicates(result_predicate, exception_predicate)

    def can_retry(self, current_attempts):
        return current_attempts <= self._max_attempts

    def get_backoff_time_millis(self, current_attempts):
        return self._delays(current_attempts) if self._delays is not None else -1

    def get_retry_predicate(self):
        return self._predicates

    @staticmethod
    def no_restart():
        return AsyncRetryStrategy()

    @staticmethod
    def fixed_delay(max_attempts, backoff_time_millis, result_predicate, exception_predicate):
        if max_attempts <= 0 or backoff_time_millis <= 0:
            raise AssertionError("max_attempts and backoff_time_millis should be greater than zero.")
        return AsyncRetryStrategy(max_attempts, lambda attempts: backoff_time_millis, result_predicate, exception_predicate)

    @staticmethod
    def exponential_backoff(max_attempts, initial_delay, max_retry_delay, multiplier, result_predicate, exception_predicate):
        if min(max_attempts, initial_delay, max_retry_delay, multiplier) <= 0:
            raise AssertionError("max_attempts, initial_delay, max_retry_delay and multiplier should be greater than zero.")
        last = [initial_delay]

        def delays(attempts):
            if attempts <= 1:
                last[0] = initial_delay
            else:
                last[0] = int(min(last[0] * multiplier, max_retry_delay))
            return last[0]

        return AsyncRetryStrategy(max_attempts, delays, result_predicate, exception_predicate)


class async_retry_predicates(object):  # noqa: N801 - PyFlink's module name
    """``pyflink.datastream.async_retry_predicates``."""

    @staticmethod
    def empty_result_predicate(result):
        return result is None or len(result) == 0

    @staticmethod
    def has_exception_predicate(error):
        return error is not None

    @staticmethod
    def exception_type_predicate(error, expected_error_type):
        return isinstance(error, expected_error_type)


def _checked(function, result):
    if result is None:
        raise RuntimeError(
            "The result of AsyncFunction cannot be none, please check the methods 'async_invoke' and 'timeout' of"
            " class '%s'." % type(function)
        )
    if isinstance(result, (str, bytes)) or not hasattr(result, "__iter__"):
        raise RuntimeError(
            "The result of AsyncFunction should be of list type, please check the methods 'async_invoke' and"
            " 'timeout' of class '%s'." % type(function)
        )
    return list(result)


async def _one(function, value, timeout_seconds, retry):
    """The results for one element: ``async_invoke`` with retries within the timeout."""
    predicates = retry.get_retry_predicate() if retry is not None else _Predicates(None, None)
    on_result = predicates.result_predicate() or (lambda result: False)
    on_error = predicates.exception_predicate() or (lambda error: False)
    start = time.monotonic()
    attempts = 1
    while True:
        left = timeout_seconds - (time.monotonic() - start)
        result, error = None, None
        try:
            result = await asyncio.wait_for(function.async_invoke(value), left if left > 0 else 0)
        except asyncio.TimeoutError:
            return _checked(function, function.timeout(value))
        except Exception as e:  # noqa: BLE001 - the function's own error, retried or raised
            error = e
        wanted = (result is not None and on_result(result)) or (error is not None and on_error(error))
        if retry is not None and wanted and time.monotonic() - start <= timeout_seconds and retry.can_retry(attempts):
            await asyncio.sleep(retry.get_backoff_time_millis(attempts) / 1000)
            attempts += 1
            continue
        if error is not None:
            raise Exception("Error happens inside the class '%s' during handling input '%s'" % (type(function), value)) from error
        return _checked(function, result)


def async_wait(stream, function, timeout, capacity=100, ordered=True, retry=None):
    """``AsyncDataStream.ordered_wait/unordered_wait[_with_retry](stream, function, timeout,
    [retry,] capacity)`` of a bounded stream (an RDD): the results of ``function`` for every
    element, in input order (``ordered`` is kept for the record: unordered_wait may give that
    order too)."""
    from flink2spark.runtime.datastream import RuntimeContext, task_attempt

    timeout_seconds = timeout.to_milliseconds() / 1000 if hasattr(timeout, "to_milliseconds") else float(timeout)
    if capacity <= 0:
        raise ValueError("capacity should be greater than zero")

    def run(index, items):
        if hasattr(function, "open"):
            function.open(RuntimeContext(index, task_attempt(), type(function).__name__))
        async def together(batch):  # up to `capacity` requests in flight
            return await asyncio.gather(*(_one(function, v, timeout_seconds, retry) for v in batch))

        loop = asyncio.new_event_loop()
        try:
            batch = []
            for value in items:
                batch.append(value)
                if len(batch) == capacity:
                    for results in loop.run_until_complete(together(batch)):
                        yield from results
                    batch = []
            if batch:
                for results in loop.run_until_complete(together(batch)):
                    yield from results
        finally:
            loop.close()
            if hasattr(function, "close"):
                function.close()

    return stream.mapPartitionsWithIndex(run)
