"""Which steps pay for the expensive measurements (activation statistics, update ratios,
parameter norms, float16 underflow).

The first steps are always sampled (they discover the model and show initialisation);
after that every ``interval`` steps, where the interval grows until the measured extra
cost of a sampled step, spread over the interval, stays under ``budget`` of step time
(and, early in a run, at most a quarter of the run's age).
Steps right after an anomaly are always sampled.
"""

from __future__ import annotations

import bisect
import math
from collections import deque
from statistics import median


class Sampler:
    def __init__(self, every: int | None = None, budget: float = 0.01, warmup: int = 3,
                 min_interval: int = 10, max_interval: int = 1000) -> None:
        self.fixed = every
        self.budget = budget
        self.warmup = warmup
        self.interval = every or min_interval
        self.min_interval = min_interval
        self.max_interval = max_interval
        self._force_until = -1
        self._last_sampled = -(10**9)
        self._step_times: deque[float] = deque(maxlen=50)
        # the same values kept sorted (insort and one removal: ~1 us), so the median of the
        # window is read, not re-sorted at every step (``statistics.median``: ~10 us in a loop)
        self._sorted_times: list[float] = []
        self._extra: deque[float] = deque(maxlen=10)
        self._extra_median: float | None = None  # changes on sampled steps only

    def want(self, step: int) -> bool:
        if self.fixed is not None:
            return step % self.fixed == 0 or step <= self._force_until
        # Early on the interval is also capped at a quarter of the run's age, so a short run
        # gets about ten sampled steps in its first few hundred (samples ~1.25x apart)
        # instead of one: rules that read activations need more than one look. Once the
        # run is 4 budget intervals old the cap no longer binds (cost: a few extra sampled
        # steps in the first hundreds of steps).
        interval = min(self.interval, max(self.min_interval, step // 4))
        return step < self.warmup or step <= self._force_until or step - self._last_sampled >= interval

    def mark_sampled(self, step: int) -> None:
        self._last_sampled = step

    def force(self, until_step: int) -> None:
        """Sample every step up to ``until_step`` (used around an anomaly)."""
        self._force_until = max(self._force_until, until_step)

    def observe(self, step_time: float, extra: float | None) -> None:
        """Feed the time of an unsampled step, or the extra seconds a sampled step paid."""
        if extra is None:
            st = self._step_times
            if len(st) == st.maxlen:
                del self._sorted_times[bisect.bisect_left(self._sorted_times, st[0])]
            st.append(step_time)
            bisect.insort(self._sorted_times, step_time)
        else:
            self._extra.append(extra)
            self._extra_median = median(self._extra)
        if self.fixed is None and self._step_times and self._extra:
            t = _median_of_sorted(self._sorted_times)
            if t > 0:
                need = math.ceil(self._extra_median / (self.budget * t))
                self.interval = int(min(self.max_interval, max(self.min_interval, need)))


def _median_of_sorted(s: list[float]) -> float:
    """``statistics.median`` of an already sorted list (the same value, mean of the middle two)."""
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2
