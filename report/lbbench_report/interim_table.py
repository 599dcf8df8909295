"""TEMPORARY, until `lbbench table --format json` lands on main (issue 9): rows in its shape so
the figures can be developed. Deleted when the table's JSON exists."""
import numpy as np
from scipy import stats


def _ci(v):
    v = np.sort(v)
    n = len(v)
    if n < 2:
        return np.nan, np.nan
    lo = int(stats.binom.ppf(0.025, n, 0.5))
    hi = min(n - 1, n - lo - 1 + 0)
    return v[max(lo - 1, 0)], v[hi]


def rows_from_archive(archive):
    runs = archive.complete()
    out = []
    for (w, p, s), g in runs.groupby(["workload", "processors", "sweep"], sort=False):
        headline = "makespan" if g["oversubscribed"].max() > 0 else "wall"
        col = headline + "_total"
        meds = {lab: gg[col].median() for lab, gg in g.groupby("label", sort=False)}
        base = "none" if "none" in meds else next(iter(meds))
        best = min(meds, key=meds.get)
        for lab, gg in g.groupby("label", sort=False):
            r = {"workload": w, "label": lab, "processors": int(p), "sweep": s, "n": len(gg),
                 "headline": headline}
            for c in ["makespan", "wall"]:
                lo, hi = _ci(gg[c + "_total"].values)
                r[c] = {"median": gg[c + "_total"].median(), "ci_low": lo, "ci_high": hi}
            r["ratio"] = meds[lab] / meds[base]
            r["ratio_ci_low"], r["ratio_ci_high"] = (x / meds[base] for x in _ci(gg[col].values))
            other = g[g["label"] == best][col].values
            p_value = stats.mannwhitneyu(gg[col].values, other).pvalue if len(gg) > 1 else 1
            r["best"] = lab == best
            r["tied"] = lab != best and p_value >= 0.05
            r["baseline"] = lab == base
            r["ranked"] = True
            r["ideal_median"] = gg["ideal_total"].median()
            out.append(r)
    return out
