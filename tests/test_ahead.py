"""Work done ahead on a thread: results in order, errors at their item, the thread stopped."""

import threading
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from blockmaze.export.ahead import worked_ahead


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(), max_size=30), st.integers(0, 4))
def test_results_come_in_order(items, depth):
    assert list(worked_ahead(items, lambda n: (n, n * 3), depth)) == [(n, n * 3) for n in items]


@pytest.mark.parametrize("depth", [0, 1, 3])
def test_an_error_is_raised_at_its_item(depth):
    def work(n):
        if n == 4:
            raise ValueError("bad item 4")
        return n

    seen = []
    with pytest.raises(ValueError, match="bad item 4"):
        for value in worked_ahead(range(10), work, depth):
            seen.append(value)
    assert seen == [0, 1, 2, 3]


def test_an_error_in_the_stream_itself_is_raised_in_order():
    def items():
        yield 1
        yield 2
        raise KeyError("stream broke")

    seen = []
    with pytest.raises(KeyError):
        for value in worked_ahead(items(), lambda n: n, 2):
            seen.append(value)
    assert seen == [1, 2]


def test_closing_early_stops_the_thread_and_the_stream():
    made = []

    def items():
        for n in range(1000):
            made.append(n)
            yield n

    before = threading.active_count()
    stream = worked_ahead(items(), lambda n: time.sleep(0.001) or n, 2)
    assert next(stream) == 0
    stream.close()
    assert threading.active_count() == before
    count = len(made)
    time.sleep(0.05)
    assert len(made) == count <= 5  # nothing more was made after the close, and only a few ahead
