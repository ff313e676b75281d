"""Every pytest session starts with leanbridge's caches empty.

mutmut runs the clean tests inside its fork server and forks one child per mutant from it:
without this, a child inherits the clean run's cached analyses (``analyse``, ``scalar_facts``,
the half-line jets, …) and a mutant behind a cache is never executed — it "survives" though
the tests would catch it. For a plain ``pytest`` run this clears caches that are still empty."""

import pytest

from fresh_caches import clear_leanbridge_caches


@pytest.fixture(autouse=True, scope="session")
def _empty_leanbridge_caches():
    clear_leanbridge_caches()
