"""The page's tables of numbers: the verdict of each group, as `lbbench table` gave it, with its
platform; and the provenance of each invocation."""
import html

from .figures.common import COMPLETE, group_title, mark
from .notes import whole
from .platform import describe

VERDICT_COLUMNS = ["", "balancer", "n", "median", "interval (its level)", "min-max", "cv",
                   "ratio to baseline [95 %]", "p vs best", "verdict"]


def _e(text):
    return html.escape(str(text))


def _num(value, digits=4):
    return "" if value != value or value is None else f"{value:.{digits}g}"


def verdict(r):
    """The table's mark in words."""
    if r.verified not in COMPLETE:
        return f"verified: {r.verified}; not ranked"
    if not r.ranked:
        return "not ranked on this host"
    return {"winner": "winner: every other row slower or equivalent",
            "equivalent": f"equivalent to the best (within {100 * r.delta:.3g} %)",
            "slower": "slower than the best (significant)",
            "undecided": "undecided: more rounds needed"}.get(r.verdict, "alone in its group")


def _verdict_row(r, clock):
    ratio = "baseline" if r.baseline else _num(r.ratio, 3) + (
        f" [{_num(r.ratio_ci_low, 3)}, {_num(r.ratio_ci_high, 3)}]"
        if r.ratio_ci_low == r.ratio_ci_low else "")
    level = r[f"{clock}_ci_level"]  # 95 % where n allows; order statistics cover less below
    interval = (f"{_num(r[f'{clock}_ci_low'])}-{_num(r[f'{clock}_ci_high'])}"
                + (f" ({100 * level:.0f} %)" if level == level else "")
                if r[f"{clock}_ci_low"] == r[f"{clock}_ci_low"] and level != 0 else "none")
    cells = [mark(r), r.label, whole(float(r.n)), _num(r[f"{clock}_median"]), interval,
             f"{_num(r[f'{clock}_min'])}-{_num(r[f'{clock}_max'])}",
             f"{100 * r[f'{clock}_cv']:.1f} %" if r[f"{clock}_cv"] == r[f"{clock}_cv"] else "",
             ratio, _num(r.p_vs_best, 2), verdict(r)]
    return "<tr>" + "".join(f"<td>{_e(c)}</td>" for c in cells) + "</tr>"


def verdict_tables(table, runs, procs):
    """One table per group (workload, P, sweep point), rows in the ranking clock's order."""
    if table.empty:
        return ""
    out = ['<h2 id="verdicts">Verdicts in numbers</h2><p>As <code>lbbench table</code> gives '
           "them: the median of each strategy's total over its repetitions, its spread, its "
           "ratio to the baseline (over paired rounds, with its interval) and the verdict. A "
           "difference inside the noise is undecided, never a win.</p>"]
    for (w, p, s), rows in table.groupby(["workload", "processors", "sweep"], sort=False):
        clock = rows.headline.iloc[0]
        rows = rows.sort_values(f"{clock}_median")
        group = runs[(runs.workload == w) & (runs.processors == p) & (runs.sweep == s)]
        head = "".join(f"<th>{_e(c)}</th>" for c in VERDICT_COLUMNS)
        head = head.replace("<th>median</th>", f"<th>median {_e(clock)} (s)</th>")
        body = "".join(_verdict_row(r, clock) for _, r in rows.iterrows())
        out.append(f'<h3>{_e(group_title(w, p, s))}</h3><p class="platform">'
                   f"{_e(describe(group, procs))}. Ranked by the {_e(clock)} total.</p>"
                   f'<table class="verdict"><tr>{head}</tr>{body}</table>')
    return "\n".join(out)


def _row(cells, tag="td"):
    return "<tr>" + "".join(f"<{tag}>{_e(c)}</{tag}>" for c in cells) + "</tr>"


def provenance_table(records):
    """One row per invocation with where and when it ran; the rest of its record below it."""
    if not records:
        return ""
    main = ["invocation", "started", "host", "CPU", "cores / threads / free", "P",
            "commit", "load average (start)", "load average (end)", "runs", "config"]
    rows = []
    for r in records:
        rows.append(_row([r.get(k, "") for k in main]))
        rest = "; ".join(f"{k}: {v}" for k, v in r.items() if k not in main and str(v))
        rows.append(f'<tr class="more"><td></td><td colspan="{len(main) - 1}"><small>'
                    f"{_e(rest)}</small></td></tr>")
    return ('<h2 id="provenance">Provenance of every invocation</h2><table class="provenance">'
            + _row(main, "th") + "".join(rows) + "</table>")
