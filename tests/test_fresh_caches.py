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


def test_every_cache_in_the_source_is_one_the_session_empties():
    """Each ``@functools.cache``/``@functools.lru_cache`` in leanbridge's source decorates a
    module-level function that :func:`clear_leanbridge_caches` finds (a cached method, or a
    cache under another decorator, would be missed: this test then names it)."""
    import importlib
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    expected = set()
    for path in (root / "leanbridge").rglob("*.py"):
        found = re.findall(r"^([ \t]*)@functools\.(?:lru_cache\([^)]*\)|cache)\s*\n\s*def (\w+)",
                           path.read_text(encoding="utf-8"), re.M)
        module = ".".join(path.relative_to(root).with_suffix("").parts)
        for indent, name in found:
            importlib.import_module(module)
            expected.add(f"{module}.{name}" if not indent else f"{module}.<method {name}>")
    assert len(expected) >= 9
    assert expected <= set(clear_leanbridge_caches())
