"""lbbench report: figures and one HTML page of an lbbench result set.

cli.py          arguments, the run of one report
table_stats.py  the statistics: `lbbench table/compare --format json`, never recomputed here
results.py      the loader: a result set's tables as pandas frames, read with h5py
schema.py       `lbbench schema`: every column's name, type and meaning, as the C++ side has them
strategies.py   a run's strategy label and family (from the set), its parameters, its columns typed
build.py        which figures a set calls for
figures/        one file per kind of figure, each with its caption
notes.py        warnings, what is missing, provenance
platform.py     speeds and external load of each run
tables.py       the page's tables: verdicts in numbers, provenance
page.py         the self-contained HTML page
"""
