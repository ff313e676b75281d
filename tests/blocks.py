"""Random weight matrices for the numeric tests (imported after ``pytest.importorskip("numpy")``)."""

import numpy as np


def random_block(d, n, seed):
    """(W_down d×n, W_up n×d) with standard normal entries scaled by 1/√n and 1/√d."""
    rng = np.random.default_rng(seed)
    return rng.standard_normal((d, n)) / np.sqrt(n), rng.standard_normal((n, d)) / np.sqrt(d)
