"""`lbbench schema`: every table of a result set with its columns (name, type, unit, presence,
meaning), the one description the C++ writer and reader use too. convert writes by it; the
report types the columns it reads by it."""
import functools
import json
import subprocess

from .results import VERSION


class Schema:
    """`lbbench schema`'s tables: {table: (meaning, [column spec, ...])}."""

    def __init__(self, lbbench):
        try:
            out = subprocess.run([lbbench, "schema"], capture_output=True, text=True, check=True)
            doc = json.loads(out.stdout)
            if (doc.get("schema"), doc.get("schema_version")) == ("lbbench-results", VERSION):
                self.tables = {t["name"]: (t["meaning"], t["columns"]) for t in doc["tables"]}
                return
        except (OSError, subprocess.CalledProcessError, ValueError, KeyError, TypeError) as e:
            raise RuntimeError(f"`{lbbench} schema` failed ({e})") from e
        raise RuntimeError(f"`{lbbench} schema` does not describe result sets of schema version "
                           f"{VERSION}")

    @functools.cache
    def column(self, table, name):
        """The spec of column `name` (a family's when a member of one), or None."""
        family = None
        for c in self.tables[table][1]:
            if c["name"] == name:
                return c
            prefix = c["name"][:-1]
            if family is None and c["name"].endswith("*") and name.startswith(prefix) and \
                    len(name) > len(prefix):
                family = c
        return family

    def named_columns(self, table):
        """The columns of `table` the schema names one by one (families, NAME_*, left out)."""
        return [c for c in self.tables[table][1] if not c["name"].endswith("*")]
