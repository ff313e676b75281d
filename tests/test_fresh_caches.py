"""The caches a pytest session starts without (conftest.py): every cached analysis function."""

import sympy as sp

from fresh_caches import clear_leanbridge_caches
from leanbridge import analysis, halfline, recession
from leanbridge.families import Z, get_family


def test_the_analysis_caches_are_emptied():
    analysis.analyse(get_family("gelu"))
    halfline.zero_test(sp.sin(Z) ** 2 + sp.cos(Z) ** 2 - 1)
    filled = [f for f in (analysis.analyse, analysis.scalar_facts, halfline.zero_test,
                          halfline.jet_at_0, recession.gate_parity)
              if f.cache_info().currsize]
    assert analysis.analyse in filled and analysis.scalar_facts in filled
    cleared = clear_leanbridge_caches()
    assert {"leanbridge.analysis.analyse", "leanbridge.analysis.scalar_facts",
            "leanbridge.halfline.zero_test", "leanbridge.halfline.jet_at_0",
            "leanbridge.recession.gate_parity"} <= set(cleared)
    assert all(f.cache_info().currsize == 0 for f in filled)
