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
                 "ranked_by": "modelled" if headline == "makespan" else "wall"}
            for c in ["makespan", "wall"]:
                lo, hi = _ci(gg[c + "_total"].values)
                r[c] = {"median": gg[c + "_total"].median(), "ci_low": lo, "ci_high": hi}
            r["ratio_to_baseline"] = meds[lab] / meds[base]
            r["ratio_ci_low"], r["ratio_ci_high"] = (x / meds[base] for x in _ci(gg[col].values))
            other = g[g["label"] == best][col].values
            p_value = stats.mannwhitneyu(gg[col].values, other).pvalue if len(gg) > 1 else 1
            r["best"] = lab == best
            r["starred"] = lab == best
            r["tied_with_best"] = lab != best and p_value >= 0.05
            r["verified"] = "yes"
            r["baseline"] = lab == base
            r["ranked"] = True
            r["efficiency"] = gg["efficiency"].median()
            out.append(r)
    return out


def compare_from_archives(a, b):
    rows_a = {(r["workload"], r["label"], r["processors"], r["sweep"]): r for r in rows_from_archive(a)}
    rows_b = {(r["workload"], r["label"], r["processors"], r["sweep"]): r for r in rows_from_archive(b)}
    out = []
    for k in list(rows_a) + [k for k in rows_b if k not in rows_a]:
        r = {"workload": k[0], "label": k[1], "processors": k[2], "sweep": k[3],
             "status": "matched" if k in rows_a and k in rows_b else "only_a" if k in rows_a else "only_b"}
        for c in ["makespan", "wall"]:
            if r["status"] == "matched":
                ma, mb = rows_a[k][c]["median"], rows_b[k][c]["median"]
                r[c] = {"median_a": ma, "median_b": mb, "ratio": mb / ma, "ratio_ci_low": None,
                        "ratio_ci_high": None, "p": None, "significant": abs(mb / ma - 1) > 0.1}
            else:
                r[c] = {"ratio": None, "significant": None}
        out.append(r)
    return out
