#include "harness/archive/journal_recovery.h"

#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "harness/archive/archive_file.h"
#include "harness/archive/archive_schema.h"
#include "harness/archive/h5_records.h"
#include "harness/archive/run_tables.h"
#include "harness/archive/step_journal.h"

namespace lbb {

namespace {

bool plain_name(const std::string& s) {
  return !s.empty() && s != "." && s != ".." && s.find('/') == s.npos;
}

// The rows the run's dataset holds, after checking that the column describes that dataset:
// a dataset of the schema's table with the column's type and width.
std::uint64_t dataset_rows(hid_t run, const JournalColumn& c, const std::string& where,
                           bool& fixed) {
  const auto slash = c.name.find('/');
  const DatasetSpec* spec = find_step_dataset(c.name);
  if (!spec || slash == c.name.npos || !plain_name(c.name.substr(slash + 1)) ||
      spec->type != c.type)
    throw h5::Error(where + ": column " + c.name + " is not a dataset of the archive's schema");
  h5::require_hard_link(run, c.name.substr(0, slash), H5O_TYPE_GROUP, where);
  h5::require_hard_link(run, c.name, H5O_TYPE_DATASET, where);
  auto d = h5::dataset(H5Dopen2(run, c.name.c_str(), H5P_DEFAULT), where + ": " + c.name);
  auto type = h5::datatype(H5Dget_type(d.get()), where);
  auto space = h5::dataspace(H5Dget_space(d.get()), where);
  const bool real = c.type == RecordType::kFloat64;
  const int rank = H5Sget_simple_extent_ndims(space.get());
  hsize_t dims[2] = {0, 0}, maxdims[2] = {0, 0};
  if (H5Tget_class(type.get()) != (real ? H5T_FLOAT : H5T_INTEGER) ||
      H5Tget_size(type.get()) != record_type_bytes(c.type) || rank != step_rank(c.width) ||
      H5Sget_simple_extent_dims(space.get(), dims, maxdims) != rank ||
      (rank == 2 && dims[1] != c.width))
    throw h5::Error(where + ": column " + c.name + " does not match the archive's dataset");
  fixed = fixed || maxdims[0] != H5S_UNLIMITED;
  return dims[0];
}

// The datasets under the run's groups (check_archive_structure allows only datasets there).
std::uint64_t dataset_count(hid_t run) {
  std::uint64_t n = 0;
  for (const char* sub : {"step", "proc", "module", "metric"}) {
    if (H5Lexists(run, sub, H5P_DEFAULT) <= 0) continue;
    auto g = h5::group(H5Gopen2(run, sub, H5P_DEFAULT), sub);
    H5G_info_t info;
    h5::check(H5Gget_info(g.get(), &info), sub);
    n += info.nlinks;
  }
  return n;
}

bool is_dataset(const JournalColumn& c) {
  return c.name.find('/') != std::string::npos;
}

// A record's step datasets: all columns of a step record, the '/'-named ones of a header.
std::vector<const JournalColumn*> layout_of(const JournalRecord& r) {
  std::vector<const JournalColumn*> out;
  for (const JournalColumn& c : r.columns)
    if (!r.is_header() || is_dataset(c)) out.push_back(&c);
  return out;
}

bool same_layout(const std::vector<const JournalColumn*>& a, const JournalRecord& b) {
  if (a.size() != b.columns.size()) return false;
  for (std::size_t k = 0; k < a.size(); ++k)
    if (a[k]->name != b.columns[k].name || a[k]->type != b.columns[k].type ||
        a[k]->width != b.columns[k].width)
      return false;
  return true;
}

// A journaled header's or end's attributes, each checked against the archive schema's run
// attributes (a name the table lacks is a workload's figure: float64).
std::vector<std::pair<std::string, h5::Value>> record_attributes(const JournalRecord& r) {
  std::vector<std::pair<std::string, h5::Value>> out;
  for (const JournalColumn& c : r.columns) {
    if (r.is_header() && is_dataset(c)) continue;
    const AttributeSpec* a = find_run_attribute(c.name);
    if (c.name.empty() || is_dataset(c) || c.type != (a ? a->type : RecordType::kFloat64) ||
        (a && a->as_dataset))
      throw h5::Error("its " + std::string(r.is_end() ? "end" : "header") + " record's attribute " +
                      c.name + " is not in the archive's schema");
    if (c.type == RecordType::kText) {
      out.emplace_back(c.name, std::string(c.bytes.begin(), c.bytes.end()));
    } else if (c.type == RecordType::kInt64) {
      std::int64_t v;
      std::memcpy(&v, c.bytes.data(), sizeof v);
      out.emplace_back(c.name, v);
    } else {
      double v;
      std::memcpy(&v, c.bytes.data(), sizeof v);
      out.emplace_back(c.name, v);
    }
  }
  return out;
}

// A run the archive holds as a run table's row (run_tables.h): ended when it was written.
struct TabledRun {
  std::string uuid;
  std::uint64_t rows = 0;
};

std::map<std::string, TabledRun> tabled_runs(hid_t file, const std::string& archive) {
  std::map<std::string, TabledRun> out;
  h5::for_each_table(
      file, true, archive, [&](const std::string&, hid_t, const h5::TableContents& t) {
        for (std::size_t r = 0; r < t.ids.size(); ++r) {
          TabledRun run;
          run.rows = t.first[r + 1] - t.first[r];
          const auto it = t.attributes[r].find("run_uuid");
          if (it != t.attributes[r].end() && std::holds_alternative<std::string>(it->second))
            run.uuid = std::get<std::string>(it->second);
          out[t.ids[r]] = std::move(run);
        }
      });
  return out;
}

// A header's datasets, for a run the archive lacks: the schema's, with its type and rank, each
// once.
void check_new_layout(const std::vector<const JournalColumn*>& layout, const std::string& where) {
  std::set<std::string> names;
  for (const JournalColumn* c : layout) {
    const auto slash = c->name.find('/');
    const DatasetSpec* spec = find_step_dataset(c->name);
    if (!spec || !plain_name(c->name.substr(slash + 1)) || spec->type != c->type ||
        (spec->shape == RecordShape::kSteps) != (c->width == 0) || !names.insert(c->name).second)
      throw h5::Error(where + ": column " + c->name + " is not a dataset of the archive's schema");
  }
}

// The rows the archive's run holds (0 for a run its header creates), after checking it against
// the journal's layout of it; sets run.created, whether steps may be added (partial) and
// whether its datasets cannot grow (fixed: written at their final size, docs "Archive layout").
std::uint64_t archived_rows(hid_t runs, const std::map<std::string, TabledRun>& tabled,
                            const std::string& archive, const JournalScan& scan, JournalRun& run,
                            const std::vector<const JournalColumn*>& layout, bool& partial,
                            bool& fixed) {
  const JournalRecord& first = scan.records[run.first];
  const std::string where = "run " + run.run_id;
  if (const auto it = tabled.find(run.run_id); it != tabled.end()) {
    if (it->second.uuid != first.run_uuid)
      throw h5::Error("it belongs to another archive: " + archive + "'s " + where +
                      " has another run_uuid");
    if (first.is_header()) ++run.committed;  // a kill between a commit and the truncation
    fixed = true;  // its end is in the archive with it: nothing may be added
    return it->second.rows;
  }
  if (H5Lexists(runs, run.run_id.c_str(), H5P_DEFAULT) <= 0) {
    if (!first.is_header())
      throw h5::Error("its steps are of " + where + ", which " + archive + " does not hold");
    check_new_layout(layout, where);
    record_attributes(first);
    run.created = partial = true;
    return 0;
  }
  h5::require_hard_link(runs, run.run_id, H5O_TYPE_GROUP, archive);
  auto group = h5::group(H5Gopen2(runs, run.run_id.c_str(), H5P_DEFAULT), where);
  const auto uuid = h5::read_attribute(group.get(), "run_uuid", where);
  if (!std::holds_alternative<std::string>(uuid) || std::get<std::string>(uuid) != first.run_uuid)
    throw h5::Error("it belongs to another archive: " + archive + "'s " + where +
                    " has another run_uuid");
  std::uint64_t rows = 0;
  if (!first.is_end()) {
    for (std::size_t k = 0; k < layout.size(); ++k) {
      const std::uint64_t n = dataset_rows(group.get(), *layout[k], where, fixed);
      if (k > 0 && n != rows) throw h5::Error(where + "'s datasets differ in length");
      rows = n;
    }
    if (dataset_count(group.get()) != layout.size())
      throw h5::Error("its records lack datasets of " + where);
  }
  if (first.is_header()) ++run.committed;  // a kill between a commit and the truncation
  partial = h5::read_attribute(group.get(), "status", where) == h5::Value(std::string("partial"));
  return rows;
}

// Checks one run's records against the archive (open read-only) and counts them.
void check_run(hid_t runs, const std::map<std::string, TabledRun>& tabled,
               const std::string& archive, const JournalScan& scan, JournalRun& run) {
  const auto& records = scan.records;
  const JournalRecord& first = records[run.first];
  const JournalRecord& last = records[run.first + run.count - 1];
  const std::string where = "run " + run.run_id;
  if (!plain_name(run.run_id)) throw h5::Error("its records name no run");
  for (std::size_t k = run.first; k + 1 < run.first + run.count; ++k)
    if (records[k].is_end()) throw h5::Error("it holds records after its run's end");
  for (std::size_t k = run.first + 1; k < run.first + run.count; ++k)
    if (records[k].is_header()) throw h5::Error("it mixes records of different runs or layouts");
  const std::vector<const JournalColumn*> layout = layout_of(first);
  bool partial = false, fixed = false;
  const std::uint64_t rows =
      archived_rows(runs, tabled, archive, scan, run, layout, partial, fixed);
  std::uint64_t next = rows;
  for (std::size_t k = run.first; k < run.first + run.count; ++k) {
    const JournalRecord& r = records[k];
    if (r.is_header() || r.is_end()) continue;
    if (r.run_uuid != first.run_uuid || !same_layout(layout, r))
      throw h5::Error("it mixes records of different runs or layouts");
    if (r.row < rows && run.pending == 0) {
      // A commit takes a record's rows together: the archive holds all of them or none.
      if (r.rows > rows - r.row)
        throw h5::Error(where + ": its steps " + std::to_string(r.row) + " to " +
                        std::to_string(r.row + r.rows - 1) + " are partly in the archive");
      ++run.committed;
    } else if (r.row != next) {
      throw h5::Error(where + ": its step " + std::to_string(r.row) + " comes where step " +
                      std::to_string(next) + " belongs (steps are missing)");
    } else {
      if (run.pending == 0) run.pending_at = k;
      run.pending += r.rows;
      next += r.rows;
    }
  }
  if (run.pending > 0 && !partial)
    throw h5::Error("it holds new steps of " + where + ", which " + archive +
                    " holds as ended, not partial");
  if (run.pending > 0 && fixed)
    throw h5::Error("it holds new steps of " + where + ", whose datasets in " + archive +
                    " are fixed-size (written complete, with the run's end)");
  if (!last.is_end()) return;
  if (last.run_uuid != first.run_uuid)
    throw h5::Error("it mixes records of different runs or layouts");
  std::string ended = "?";
  for (const auto& [name, value] : record_attributes(last))
    if (name == "status" && std::holds_alternative<std::string>(value))
      ended = std::get<std::string>(value);
  if (partial)
    run.ended = ended;
  else  // a kill between the commit that holds the end and the journal's truncation
    ++run.committed;
}

// Splits the journal into its runs (each run's records together) and checks each.
void check_records(hid_t file, const std::string& archive, const JournalScan& scan,
                   JournalReport& report) {
  check_archive_structure(file, archive);
  std::set<std::string> seen;
  for (std::size_t k = 0; k < scan.records.size(); ++k) {
    const std::string& id = scan.records[k].run_id;
    if (k > 0 && id == scan.records[k - 1].run_id) {
      ++report.runs.back().count;
      continue;
    }
    if (!seen.insert(id).second) throw h5::Error("it mixes records of different runs or layouts");
    report.runs.push_back({});
    report.runs.back().run_id = id;
    report.runs.back().first = k;
    report.runs.back().count = 1;
  }
  auto runs = h5::group(H5Gopen2(file, "runs", H5P_DEFAULT), archive + ": /runs");
  const auto tabled = tabled_runs(file, archive);
  for (JournalRun& run : report.runs) check_run(runs.get(), tabled, archive, scan, run);
}

// Scans the journal and checks it; a refused journal comes back with `problem` set.
JournalReport examine(const std::string& archive, JournalScan& scan) {
  JournalReport report;
  report.journal = journal_path(archive);
  scan = scan_journal(report.journal);
  report.torn_bytes = scan.torn_bytes;
  if (!scan.problem.empty()) {
    report.problem = scan.problem;
  } else if (!scan.records.empty()) {
    try {
      h5::Handle file(open_archive_read_only(archive), H5Fclose);
      check_records(file.get(), archive, scan, report);
    } catch (const h5::Error& e) {
      report.runs.clear();
      report.problem = e.what();
    }
  }
  return report;
}

// Creates the run from its header record: its attributes, `partial`, and its datasets, empty.
h5::Handle create_run(hid_t file, const JournalRecord& header) {
  auto group = h5::create_run_group(file, header.run_id);
  for (const JournalColumn* c : layout_of(header))
    h5::create_step_dataset(group.get(), c->name, c->type, c->width);
  for (const auto& [name, value] : record_attributes(header))
    h5::write_attribute(group.get(), name, value);
  h5::write_attribute(group.get(), "run_uuid", header.run_uuid);
  h5::write_attribute(group.get(), "status", std::string("partial"));
  return group;
}

// A column's pending rows, from the run's records in the journal's order.
std::vector<unsigned char> pending_rows(const JournalScan& scan, const JournalRun& run,
                                        std::size_t column) {
  std::vector<unsigned char> rows;
  for (std::size_t r = run.pending_at; r < run.first + run.count; ++r) {
    if (scan.records[r].is_end()) continue;  // the last; the steps before it are all pending
    const auto& bytes = scan.records[r].columns[column].bytes;
    rows.insert(rows.end(), bytes.begin(), bytes.end());
  }
  return rows;
}

// A run created and ended here, whole, as the writer gives a run whose end is in the commit
// that creates it: a run table's row.
h5::StoredRun whole_run(const JournalScan& scan, const JournalRun& run) {
  const auto& records = scan.records;
  const JournalRecord& header = records[run.first];
  h5::StoredRun out;
  out.id = run.run_id;
  for (const auto& [name, value] : record_attributes(header)) out.attributes[name] = value;
  out.attributes["run_uuid"] = header.run_uuid;
  out.attributes["status"] = std::string("partial");
  for (const auto& [name, value] : record_attributes(records[run.first + run.count - 1]))
    out.attributes[name] = value;
  const auto layout = layout_of(header);
  for (std::size_t k = 0; k < layout.size(); ++k) {
    const JournalColumn& c = *layout[k];
    h5::RunColumn column{c.name, c.type, c.width, run.pending, {}};
    if (run.pending > 0) column.bytes = pending_rows(scan, run, k);
    out.columns.push_back(std::move(column));
  }
  return out;
}

// Adds a run's pending records to `file` that the archive holds as a group, or that stays
// partial: its group when created, its rows column by column, then its end.
void append_run(hid_t file, const JournalScan& scan, const JournalRun& run) {
  const auto& records = scan.records;
  auto group = run.created ? create_run(file, records[run.first])
                           : h5::group(H5Gopen2(file, ("/runs/" + run.run_id).c_str(), H5P_DEFAULT),
                                       "open run " + run.run_id);
  if (!run.ended.empty())
    for (const auto& [name, value] : record_attributes(records[run.first + run.count - 1]))
      h5::write_attribute(group.get(), name, value);
  if (run.pending == 0) return;
  const JournalRecord& first = records[run.pending_at];
  for (std::size_t k = 0; k < first.columns.size(); ++k) {
    const JournalColumn& c = first.columns[k];
    const auto rows = pending_rows(scan, run, k);
    h5::append_rows(group.get(), c.name, c.type, c.width, first.row, run.pending, rows.data());
  }
}

}  // namespace

std::uint64_t JournalReport::pending() const {
  std::uint64_t n = 0;
  for (const JournalRun& r : runs) n += r.pending;
  return n;
}

bool JournalReport::changes() const {
  for (const JournalRun& r : runs)
    if (r.changes()) return true;
  return false;
}

std::string describe_recovery(const JournalReport& report) {
  std::string line;
  const auto add = [&](const std::string& part) { line += (line.empty() ? "" : "; ") + part; };
  for (const JournalRun& r : report.runs) {
    if (r.changes())
      add("recovered " + std::to_string(r.pending) + " finished steps of " + r.run_id +
          (r.created ? " (created from its header)" : "") + " from " + report.journal +
          (r.ended.empty() ? " (the run stays partial; `run --resume` runs it again)"
                           : " and its end (status " + r.ended + ")"));
    if (r.committed > 0)
      add(std::to_string(r.committed) + " records of " + r.run_id + " in " + report.journal +
          " were already in the archive");
  }
  if (report.torn_bytes > 0)
    add("ignored a record torn by a kill (" + std::to_string(report.torn_bytes) +
        " bytes) at the end of " + report.journal);
  return line;
}

JournalReport inspect_journal(const std::string& archive) {
  JournalScan scan;
  return examine(archive, scan);
}

JournalReport fold_journal(const std::string& archive) {
  JournalScan scan;
  JournalReport report = examine(archive, scan);
  if (!report.problem.empty())
    throw h5::Error(report.journal + ": " + report.problem + "; " + archive +
                    " is unchanged. Move the journal beside its own archive and run `lbbench "
                    "recover` there, or remove it to write to " +
                    archive + " without its steps");
  if (report.changes())
    commit_archive(
        archive,
        [&](hid_t file) {
          std::vector<h5::StoredRun> whole;
          for (const JournalRun& run : report.runs) {
            if (run.created && !run.ended.empty())
              whole.push_back(whole_run(scan, run));
            else if (run.changes())
              append_run(file, scan, run);
          }
          h5::write_run_tables(file, whole);
        },
        true);
  if (scan.exists) ::unlink(report.journal.c_str());
  return report;
}

}  // namespace lbb
