"""Means with 95% confidence intervals over seeds (Student's t)."""
import math

# Two-sided 95% quantiles of Student's t, degrees of freedom 1..30.
_T95 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
        2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042]


def t95(df):
    return _T95[df - 1] if df <= 30 else 1.96


def mean_ci(values):
    """(mean, half-width of the 95% CI, n) of the values that are not None;
    the half-width is None with fewer than 2 values."""
    v = [x for x in values if x is not None]
    n = len(v)
    if n == 0:
        return None, None, 0
    m = sum(v) / n
    if n < 2 or not math.isfinite(m):
        return m, None, n
    sd = math.sqrt(sum((x - m) ** 2 for x in v) / (n - 1))
    return m, t95(n - 1) * sd / math.sqrt(n), n


def mean_ci_lists(lists):
    """Element-wise mean_ci of equally long lists (time series over seeds)."""
    lists = [l for l in lists if l is not None]
    if not lists:
        return []
    n = min(len(l) for l in lists)
    return [mean_ci([l[i] for l in lists]) for i in range(n)]
