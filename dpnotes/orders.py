"""The default grid of Rényi orders used by the accountants."""

import numpy as np

from ._validation import frozen_array

__all__ = ["DEFAULT_ORDERS"]


def _default_orders():
    near_one = [1.01, 1.02, 1.05]                       # KL end: small ε, huge δ budgets
    tf_fine = [1.0 + x / 10.0 for x in range(1, 100)]   # TF Privacy: 1.1, 1.2, …, 10.9
    mid = list(np.arange(11.0, 20.01, 0.5))            # 11, 11.5, …, 20 (fractional to 20)
    ints = list(range(21, 65))                           # TF Privacy covers 11…63 (and 64)
    geometric = [80, 96, 128, 160, 192, 256, 320, 384, 512, 640, 768, 1024,
                 1280, 1536, 2048, 2560, 3072, 4096, 5120, 6144, 8192, 10000]
    grid = np.round(np.array(near_one + tf_fine + mid + ints + geometric, dtype=float), 10)
    return frozen_array(np.unique(grid))


#: Orders α at which RDP curves are tabulated: 1.01, 1.02, 1.05; every tenth
#: from 1.1 to 10.9 (TensorFlow Privacy's fine grid); halves from 11 to 20;
#: integers 21–64; then a roughly geometric ladder (×1.25–1.5) of integers up
#: to 10⁴ that contains TensorFlow Privacy's 128, 256, 512, 1024.  This covers
#: every order of TensorFlow Privacy's ``DEFAULT_RDP_ORDERS`` (1 + x/10 for x =
#: 1…99, 11…63, 128, 256, 512, 1024), adds the KL end (α → 1, where ε is
#: smallest for very large δ or tiny noise) and the high orders needed for
#: small δ with large noise (the best order grows like 1 + σ·√(2 log 1/δ)·…),
#: while keeping the grid at 187 points so a whole curve costs a few ms. Read-only: no caller can
#: change the grid every accountant uses (``DEFAULT_ORDERS[:] = 1.5`` raises ``ValueError``).
DEFAULT_ORDERS = _default_orders()
