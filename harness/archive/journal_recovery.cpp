#include "harness/archive/journal_recovery.h"

#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <utility>
#include <vector>

#include "harness/archive/archive_file.h"
#include "harness/archive/archive_schema.h"
#include "harness/archive/h5_records.h"
#include "harness/archive/step_journal.h"

namespace lbb {

namespace {

bool same_layout(const JournalRecord& a, const JournalRecord& b) {
  if (a.columns.size() != b.columns.size()) return false;
  for (std::size_t k = 0; k < a.columns.size(); ++k)
    if (a.columns[k].name != b.columns[k].name || a.columns[k].type != b.columns[k].type ||
        a.columns[k].width != b.columns[k].width)
      return false;
  return true;
}

bool plain_name(const std::string& s) {
  return !s.empty() && s != "." && s != ".." && s.find('/') == s.npos;
}

// The rows the run's dataset holds, after checking that the column describes that dataset:
// a dataset of the schema's table with the column's type and width.
std::uint64_t dataset_rows(hid_t run, const JournalColumn& c, const std::string& where) {
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
  hsize_t dims[2] = {0, 0};
  if (H5Tget_class(type.get()) != (real ? H5T_FLOAT : H5T_INTEGER) ||
      H5Tget_size(type.get()) != record_type_bytes(c.type) || rank != (c.width == 0 ? 1 : 2) ||
      H5Sget_simple_extent_dims(space.get(), dims, nullptr) != rank ||
      (rank == 2 && dims[1] != c.width))
    throw h5::Error(where + ": column " + c.name + " does not match the archive's dataset");
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

// A journaled end's attributes, each checked against the archive schema's run attributes (a
// name the table lacks is a workload's figure: float64).
std::vector<std::pair<std::string, h5::Value>> end_attributes(const JournalRecord& end) {
  std::vector<std::pair<std::string, h5::Value>> out;
  for (const JournalColumn& c : end.columns) {
    const AttributeSpec* a = find_run_attribute(c.name);
    if (c.name.empty() || c.type != (a ? a->type : RecordType::kFloat64) || (a && a->as_dataset))
      throw h5::Error("its end record's attribute " + c.name + " is not in the archive's schema");
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

// Checks the journal's records against the archive (open read-only) and counts them.
void check_records(hid_t file, const std::string& archive, const JournalScan& scan,
                   JournalReport& report) {
  check_archive_structure(file, archive);
  const JournalRecord& end = scan.records.back();
  for (std::size_t k = 0; k + 1 < scan.records.size(); ++k)
    if (scan.records[k].is_end()) throw h5::Error("it holds records after its run's end");
  const JournalRecord& first = scan.records.front();
  report.run_id = first.run_id;
  const std::string where = "run " + first.run_id;
  if (!plain_name(first.run_id)) throw h5::Error("its records name no run");
  auto runs = h5::group(H5Gopen2(file, "runs", H5P_DEFAULT), archive + ": /runs");
  if (H5Lexists(runs.get(), first.run_id.c_str(), H5P_DEFAULT) <= 0)
    throw h5::Error("its steps are of " + where + ", which " + archive + " does not hold");
  h5::require_hard_link(runs.get(), first.run_id, H5O_TYPE_GROUP, archive);
  auto run = h5::group(H5Gopen2(runs.get(), first.run_id.c_str(), H5P_DEFAULT), where);
  const auto uuid = h5::read_attribute(run.get(), "run_uuid", where);
  if (!std::holds_alternative<std::string>(uuid) || std::get<std::string>(uuid) != first.run_uuid)
    throw h5::Error("it belongs to another archive: " + archive + "'s " + where +
                    " has another run_uuid");
  std::uint64_t rows = 0;
  if (!first.is_end()) {
    for (std::size_t k = 0; k < first.columns.size(); ++k) {
      const std::uint64_t n = dataset_rows(run.get(), first.columns[k], where);
      if (k > 0 && n != rows) throw h5::Error(where + "'s datasets differ in length");
      rows = n;
    }
    if (dataset_count(run.get()) != first.columns.size())
      throw h5::Error("its records lack datasets of " + where);
  }
  std::uint64_t next = rows;
  for (const JournalRecord& r : scan.records) {
    if (r.run_id != first.run_id || r.run_uuid != first.run_uuid ||
        (!r.is_end() && !same_layout(r, first)))
      throw h5::Error("it mixes records of different runs or layouts");
    if (r.is_end()) break;
    if (r.row < rows && report.pending == 0) {
      ++report.committed;
    } else if (r.row != next) {
      throw h5::Error(where + ": its step " + std::to_string(r.row) + " comes where step " +
                      std::to_string(next) + " belongs (steps are missing)");
    } else {
      ++report.pending;
      ++next;
    }
  }
  const auto status = h5::read_attribute(run.get(), "status", where);
  const bool partial = status == h5::Value(std::string("partial"));
  if (report.pending > 0 && !partial)
    throw h5::Error("it holds new steps of " + where + ", which " + archive +
                    " holds as ended, not partial");
  if (!end.is_end()) return;
  std::string ended = "?";
  for (const auto& [name, value] : end_attributes(end))
    if (name == "status" && std::holds_alternative<std::string>(value))
      ended = std::get<std::string>(value);
  if (partial)
    report.ended = ended;
  else  // a kill between the commit that holds the end and the journal's truncation
    ++report.committed;
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
      report.pending = report.committed = 0;
      report.problem = e.what();
    }
  }
  return report;
}

// Appends the pending records' rows, column by column, to the run in `file`, then its end.
void append_pending(hid_t file, const JournalScan& scan, const JournalReport& report) {
  const std::size_t skip = report.committed;
  auto run = h5::group(H5Gopen2(file, ("/runs/" + report.run_id).c_str(), H5P_DEFAULT),
                       "open run " + report.run_id);
  if (!report.ended.empty())
    for (const auto& [name, value] : end_attributes(scan.records.back()))
      h5::write_attribute(run.get(), name, value);
  if (report.pending == 0) return;
  const JournalRecord& first = scan.records[skip];
  std::vector<unsigned char> rows;
  for (std::size_t k = 0; k < first.columns.size(); ++k) {
    rows.clear();
    for (std::size_t r = skip; r < skip + report.pending; ++r) {
      const auto& bytes = scan.records[r].columns[k].bytes;
      rows.insert(rows.end(), bytes.begin(), bytes.end());
    }
    const JournalColumn& c = first.columns[k];
    h5::append_rows(run.get(), c.name, c.type, c.width, first.row, report.pending, rows.data());
  }
}

}  // namespace

std::string describe_recovery(const JournalReport& r) {
  std::string line;
  if (r.pending > 0 || !r.ended.empty())
    line = "recovered " + std::to_string(r.pending) + " finished steps of " + r.run_id + " from " +
           r.journal +
           (r.ended.empty() ? " (the run stays partial; `run --resume` runs it again)"
                            : " and its end (status " + r.ended + ")");
  if (r.committed > 0)
    line += (line.empty() ? "" : "; ") + std::to_string(r.committed) + " steps of " + r.run_id +
            " in " + r.journal + " were already in the archive";
  if (r.torn_bytes > 0)
    line += (line.empty() ? "" : "; ") + std::string("ignored a record torn by a kill (") +
            std::to_string(r.torn_bytes) + " bytes) at the end of " + r.journal;
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
  if (report.pending > 0 || !report.ended.empty())
    commit_archive(
        archive, [&](hid_t file) { append_pending(file, scan, report); }, true);
  if (scan.exists) ::unlink(report.journal.c_str());
  return report;
}

}  // namespace lbb
