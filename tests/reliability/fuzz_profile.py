"""The hypothesis profiles of the reliability tests: bounded in CI, thousands in a campaign.

CI runs are derandomized (the same examples on every run, so a red build is reproducible)
and keep no example database; a campaign is random and saves what it finds in hypothesis'
database (.hypothesis/), so a failure found once is replayed first next time.
"""

from __future__ import annotations

from hypothesis import HealthCheck, settings

_SLOW_OK = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]

settings.register_profile(
    "reliability-ci", max_examples=40, deadline=None, derandomize=True, database=None,
    suppress_health_check=_SLOW_OK, print_blob=True,
)  # fmt: skip
settings.register_profile(
    "reliability-campaign", max_examples=5000, deadline=None, derandomize=False,
    suppress_health_check=_SLOW_OK, print_blob=True,
)  # fmt: skip

_active = ["reliability-ci"]


def choose(campaign: bool) -> None:
    """Called by conftest.py from the --campaign option."""
    _active[0] = "reliability-campaign" if campaign else "reliability-ci"


def active() -> str:
    return _active[0]


def fuzz_settings(scale: float = 1.0, **overrides) -> settings:
    """The active profile, with max_examples scaled (for the slower properties) and overrides."""
    profile = settings.get_profile(active())
    examples = max(1, int(profile.max_examples * scale))
    return settings(profile, max_examples=examples, **overrides)
