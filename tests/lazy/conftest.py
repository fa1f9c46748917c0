import gc

import pytest

import hloscope.lazy as lz


@pytest.fixture(autouse=True)
def fresh_lazy_runtime():
    """Each test starts with nothing pending, zeroed metrics and an empty graph cache."""
    gc.collect()
    lz.mark_step()  # whatever an earlier test left pending
    lz.reset_metrics()
    lz.clear_cache()
    yield
    gc.collect()
