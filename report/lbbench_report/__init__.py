"""lbbench report: figures and one HTML page of an lbbench archive.

cli.py          arguments, the run of one report
table_stats.py  the statistics: `lbbench table/compare --format json`, never recomputed here
archive_data.py runs and their per-step series, read with h5py (iter_runs: both layouts)
build.py        which figures an archive calls for
figures/        one file per kind of figure, each with its caption
notes.py        warnings, what is missing, provenance
page.py         the self-contained HTML page
"""
