"""Emptying every functools cache of the imported leanbridge modules (see conftest.py)."""

import sys


def clear_leanbridge_caches() -> list[str]:
    """Clear each ``functools.cache``/``lru_cache`` function defined in an imported leanbridge
    module; returns their qualified names."""
    cleared = []
    for name, module in list(sys.modules.items()):
        if name != "leanbridge" and not name.startswith("leanbridge."):
            continue
        for value in list(vars(module).values()):
            if (hasattr(value, "cache_clear") and hasattr(value, "cache_info")
                    and getattr(value, "__module__", None) == name):
                value.cache_clear()
                cleared.append(f"{name}.{value.__qualname__}")
    return cleared
