"""Shared helpers for the hostile-input tests: a time bound, and the one allowed outcome.

The policy (docs/reliability.md): hostile HLO text gets an HloParseError or HloVerifierError,
never any other exception, never a hang, within TIME_BOUND seconds of CPU time.
"""

from __future__ import annotations

import contextlib
import signal
import time
from pathlib import Path

import hloscope
from hloscope import HloParseError, HloVerifierError

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
CORPUS_FILES = sorted(CORPUS.glob("*.hlo"))  # both the JAX-lowered and XLA-optimized texts
TIME_BOUND = 2.0  # seconds per hostile case


class TooSlow(AssertionError):
    """A hostile case ran past its time bound."""


@contextlib.contextmanager
def time_bound(seconds: float = TIME_BOUND, what: str = "it"):
    """Fail if the body uses more than `seconds` of CPU time, and stop it if it runs past
    5x that in wall-clock time (a hang). CPU time, so a busy CI machine does not fail it."""

    def alarm(signum, frame):
        raise TooSlow(f"{what} was still running after {5 * seconds:.0f} s (a hang?)")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, 5 * seconds)
    start = time.process_time()
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    used = time.process_time() - start
    if used > seconds:
        raise TooSlow(f"{what} took {used:.2f} s of CPU time, over the bound of {seconds} s")


def parse_and_verify(text: str | bytes, **options):
    """The verified module, or the HloParseError/HloVerifierError it raised (returned, not
    raised). Any other exception propagates and fails the test that called this."""
    try:
        return hloscope.parse_hlo(text, **options).verify()
    except (HloParseError, HloVerifierError) as e:
        assert str(e), "an error without a message"
        return e


def refused(text: str | bytes, **options) -> Exception:
    """The clear error `text` must get, within the time bound."""
    with time_bound(what=f"parsing {len(text)} characters"):
        outcome = parse_and_verify(text, **options)
    assert isinstance(outcome, Exception), "expected HloParseError or HloVerifierError, but the text was accepted"
    return outcome
