"""A stop signal that lands inside a library which wraps it (pydantic's serializer turns
the KeyboardInterrupt raised into a PydanticSerializationError) is still a stop: exit 130
and the resume line, not a traceback (tests/test_stops.py saw one under load)."""

from __future__ import annotations

import importlib

import pytest

from cdsim.cli import stops

# the module, not the Typer app that cdsim.cli hands out under the same name once loaded
app = importlib.import_module("cdsim.cli.app")


def test_a_wrapped_interrupt_is_a_stop(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(app.SIGNALLED, "on", False)
    try:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as inner:
            raise ValueError("Error calling function `_written`: KeyboardInterrupt") from inner
    except ValueError as wrapped:
        assert app._a_stop(wrapped)
    assert not app._a_stop(ValueError("a bug"))


def test_a_signal_noted_makes_any_error_after_it_a_stop(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(app.SIGNALLED, "on", False)
    with pytest.raises(KeyboardInterrupt):
        stops.stop_signal(15, None)
    assert app.SIGNALLED["on"] and app._a_stop(RuntimeError("no chain"))


def test_a_pydantic_serializer_interrupted_is_a_stop(monkeypatch: pytest.MonkeyPatch) -> None:
    """The real wrapping: a serializer interrupted by the stop handler."""
    from pydantic import BaseModel, model_serializer

    class Interrupted(BaseModel):
        @model_serializer(mode="wrap")
        def _written(self, handler: object) -> object:
            stops.stop_signal(15, None)
            return None

    monkeypatch.setitem(app.SIGNALLED, "on", False)
    with pytest.raises(Exception) as caught:
        Interrupted().model_dump()
    monkeypatch.setitem(app.SIGNALLED, "on", False)  # the chain alone must tell
    assert app._a_stop(caught.value) or isinstance(caught.value, KeyboardInterrupt)


def test_ctrl_c_is_noted_too_and_an_ignored_one_stays_ignored(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C raises cdsim's Stop and is noted like SIGTERM and SIGHUP (a Ctrl-C landing in
    a pydantic serializer was a traceback and exit 1 while Python's own handler took it); a
    Ctrl-C ignored when cdsim starts (a shell's background job) is left ignored."""
    import signal

    names = [n for n in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, n)]
    before = {n: signal.getsignal(getattr(signal, n)) for n in names}
    monkeypatch.setitem(stops.SIGNALLED, "on", True)
    try:
        signal.signal(signal.SIGINT, signal.default_int_handler)
        stops.catch_stops()
        assert not stops.SIGNALLED["on"]  # a new command: no stop yet
        assert all(signal.getsignal(getattr(signal, n)) is stops.stop_signal for n in names)
        with pytest.raises(KeyboardInterrupt) as caught:
            stops.stop_signal(signal.SIGINT, None)
        assert type(caught.value) is stops.Stop and stops.SIGNALLED["on"]
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        stops.catch_stops()
        assert signal.getsignal(signal.SIGINT) == signal.SIG_IGN
    finally:
        for name, handler in before.items():
            signal.signal(getattr(signal, name), handler)
