"""Reliability tests: the `--campaign` option and the hypothesis profiles it chooses.

    pytest tests/reliability                 # CI: a bounded, derandomized number of examples
    pytest tests/reliability --campaign      # a long fuzzing campaign (thousands of examples)

The option is registered in tests/conftest.py; it is read here and handed to `fuzz_profile` before any test module is imported, so
the `@settings(fuzz_settings())` decorators see the chosen profile.
"""

from __future__ import annotations

import fuzz_profile


def pytest_configure(config):
    fuzz_profile.choose(campaign=bool(config.getoption("--campaign", default=False)))


def pytest_report_header(config):
    return f"reliability fuzzing profile: {fuzz_profile.active()}"
