"""One self-contained HTML page: figures embedded as data URIs, so it opens offline."""
import base64
import html
from datetime import datetime, timezone

STYLE = """
body { font-family: sans-serif; max-width: 1180px; margin: 1em auto; padding: 0 1em; color: #222; }
figure { margin: 1.5em 0; border-top: 1px solid #ddd; padding-top: 0.8em; }
figure img { max-width: 100%; }
figcaption { font-size: 0.92em; color: #333; max-width: 62em; }
.warn { background: #fff4e0; border-left: 4px solid #e69500; padding: 0.4em 1em; }
.missing { background: #fdecec; border-left: 4px solid #c33; padding: 0.4em 1em; }
table { border-collapse: collapse; font-size: 0.85em; }
td, th { border: 1px solid #ccc; padding: 2px 6px; text-align: left; vertical-align: top; }
table.verdict td:nth-child(n+3):nth-child(-n+9) { text-align: right; white-space: nowrap; }
tr.more td { border-top: none; color: #555; }
.platform { font-size: 0.92em; }
#image-check { color: #c33; font-weight: bold; }
"""

# Tells the reader (and the headless-browser test) when a figure failed to load.
CHECK_SCRIPT = """
window.addEventListener('load', function () {
  var imgs = document.querySelectorAll('figure img'), bad = [];
  imgs.forEach(function (i) { if (!(i.complete && i.naturalWidth > 0)) bad.push(i.id); });
  document.body.setAttribute('data-images', imgs.length);
  document.body.setAttribute('data-images-loaded', imgs.length - bad.length);
  if (bad.length) {
    document.getElementById('image-check').textContent = 'Figures that failed to load: ' + bad.join(', ');
    console.error('lbbench report: figures failed to load: ' + bad.join(', '));
  }
});
"""


def _e(text):
    return html.escape(str(text))


def _figure(f):
    with open(f.path, "rb") as png:
        data = base64.b64encode(png.read()).decode()
    return (f'<figure id="fig-{_e(f.key)}"><img id="{_e(f.key)}" alt="{_e(f.title)}" '
            f'src="data:image/png;base64,{data}">\n<figcaption><b>{_e(f.title)}.</b> '
            f'{_e(f.caption)}' + (f'<br><small>{_e(f.context)}</small>' if f.context else "")
            + '</figcaption></figure>')


def _list(css, title, items):
    if not items:
        return ""
    lis = "".join(f"<li>{_e(i)}</li>" for i in items)
    return f'<div class="{css}"><h2>{_e(title)}</h2><ul>{lis}</ul></div>'


def write_page(path, title, figures, warnings, missing, verdicts, provenance, intro=""):
    """verdicts, provenance: HTML (tables.py), before the figures and after them."""
    sections = list(dict.fromkeys(f.section for f in figures))
    toc = "".join(f'<li><a href="#sec-{i}">{_e(s)}</a></li>' for i, s in enumerate(sections))
    toc = '<li><a href="#verdicts">Verdicts in numbers</a></li>' * bool(verdicts) + toc
    body = []
    for i, s in enumerate(sections):
        body.append(f'<h2 id="sec-{i}">{_e(s)}</h2>')
        body += [_figure(f) for f in figures if f.section == s]
    made = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    page = (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f"<title>{_e(title)}</title><style>{STYLE}</style><script>{CHECK_SCRIPT}</script>"
            f"</head><body><h1>{_e(title)}</h1><p>{_e(intro)}Written {made} by lbbench report."
            f'</p><p id="image-check"></p>'
            + _list("warn", "Warnings", warnings) + _list("missing", "What is missing", missing)
            + f"<ul>{toc}<li><a href=\"#provenance\">Provenance</a></li></ul>"
            + verdicts + "\n".join(body) + provenance + "</body></html>\n")
    with open(path, "w", encoding="utf-8") as out:
        out.write(page)
