import os
import signal

from hypothesis import HealthCheck, settings

# CI is repeatable: the "ci" profile is derandomized (a fixed seed for hypothesis).
settings.register_profile("ci", derandomize=True, max_examples=25, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow], print_blob=True)
settings.register_profile("dev", max_examples=25, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
# make fuzz: tests/test_fuzz.py at 2,500 examples a test (10,000 in all)
settings.register_profile("fuzz", max_examples=2500, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))

# A shell starts a background job with SIGINT ignored, and its children inherit that: the
# tests that stop cdsim with Ctrl-C (and the fuzz harness's watchdog) need SIGINT as a
# terminal delivers it, whether the suite runs in the foreground or not.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


def core_or_skip() -> None:
    """Skip a test of the compiled core where it was not built; `make test` sets
    CDSIM_REQUIRE_CORE=1, so there a missing core fails instead of skipping."""
    import pytest

    from cdsim import core

    if core.available():
        return
    if os.environ.get("CDSIM_REQUIRE_CORE"):
        pytest.fail("the compiled core cdsim._core is not built (make install needs cargo)")
    pytest.skip("the compiled core cdsim._core is not built")
