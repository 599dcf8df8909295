#include "harness/results/result_reader.h"

#include <H5PLpublic.h>
#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>

#include "harness/results/child_reader.h"
#include "harness/results/part_file.h"
#include "harness/results/recorded_level.h"

namespace lbb {

namespace {

// A table may expand to this many times its file's size in memory (deflate's largest ratio is
// about 1032), plus a little: a hostile file declaring more is refused, not allocated.
constexpr std::uint64_t kExpansion = 1100;

std::string file_name(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// The part's schema version, when this lbbench reads it.
std::int64_t check_schema(hid_t file, const std::string& where) {
  std::string schema;
  try {
    schema = read_text_attribute(file, "schema", where);
  } catch (const ResultError&) {
    if (H5Aexists(file, "schema_version") > 0)
      throw ResultError(where +
                        ": an archive of an older lbbench: `lbbench convert` turns it "
                        "into a result set");
    throw;
  }
  const std::int64_t version = read_int_attribute(file, "schema_version", where);
  if (schema != kResultSchemaName || version < kOldestResultSchemaVersion ||
      version > kResultSchemaVersion)
    throw ResultError(where + ": schema " + schema + " version " + std::to_string(version) +
                      ", this lbbench reads " + std::string(kResultSchemaName) + " versions " +
                      std::to_string(kOldestResultSchemaVersion) + " to " +
                      std::to_string(kResultSchemaVersion));
  return version;
}

// A table of a part of an older version under the names of this one.
void upgrade(ColumnTable& table, TableId id, std::int64_t version) {
  if (id != TableId::kRuns || version >= 5) return;
  for (Column& c : table.columns)
    if (c.name == "archive_seconds") c.name = "results_seconds";  // renamed in version 5
}

// The rows of `table` that `keep` marks, in order.
ColumnTable rows_where(const ColumnTable& table, const std::vector<bool>& keep) {
  ColumnTable kept;
  for (const Column& c : table.columns) {
    Column& to = kept.columns.emplace_back(Column{c.name, c.type, {}, {}, {}, {}, 0});
    for (std::size_t r = 0; r < keep.size(); ++r) {
      if (!keep[r]) continue;
      if (c.type == ColumnType::kText)
        to.text.push_back(c.text[r]);
      else if (c.type == ColumnType::kFloat64)
        to.reals.push_back(c.reals[r]);
      else
        to.ints.push_back(c.ints[r]);
    }
  }
  return kept;
}

// Appends the rows of `table` whose run is `run`, in order.
void append_rows_of(const ColumnTable& table, const std::string& run, ColumnTable& out) {
  const Column* ids = table.find("run");
  if (!ids || ids->type != ColumnType::kText) return;
  std::vector<bool> keep(ids->text.size());
  for (std::size_t r = 0; r < keep.size(); ++r) keep[r] = ids->text[r] == run;
  out.append(rows_where(table, keep));
}

const Column& numeric(const ColumnTable& t, const std::string& name, const std::string& where) {
  const Column* c = t.find(name);
  if (!c || c->type == ColumnType::kText) throw ResultError(where + ": no numeric column " + name);
  return *c;
}

// Whether any table of `file` keeps its links in dense storage (parts written before the
// compact layout, h5_table.cpp): its link objects carry no checksum, and HDF5 1.10.8 crashes on
// some damaged ones even under a valid seal. Reads only checksummed objects (the groups' headers,
// the heap's and name index's headers), never a link.
bool has_dense_table(hid_t file) {
  for (const TableSpec& t : result_tables()) {
    const std::string name(t.name);
    if (H5Lexists(file, name.c_str(), H5P_DEFAULT) <= 0) continue;
    H5G_info_t info{};
    if (H5Gget_info_by_name(file, name.c_str(), &info, H5P_DEFAULT) < 0 ||
        info.storage_type != H5G_STORAGE_TYPE_COMPACT)
      return true;
  }
  return false;
}

}  // namespace

RunRecord run_record(const ColumnTable& runs, std::size_t row) {
  RunRecord r;
  for (const Column& c : runs.columns) {
    const ColumnSpec* spec = find_column(TableId::kRuns, c.name);
    const bool text = c.type == ColumnType::kText, real = c.type == ColumnType::kFloat64;
    std::visit(
        [&](auto member) {
          using M = decltype(member);
          if constexpr (std::is_same_v<M, std::string RunRecord::*>) {
            if (text) r.*member = c.text[row];
          } else if constexpr (std::is_same_v<M, std::int64_t RunRecord::*>) {
            if (!text && !real) r.*member = c.ints[row];
          } else if constexpr (std::is_same_v<M, double RunRecord::*>) {
            if (!text) r.*member = c.number(row);
          } else if constexpr (std::is_same_v<M, std::monostate>) {
            if (real && !std::isnan(c.reals[row])) r.figures.push_back({c.name, c.reals[row]});
          }
        },
        spec ? spec->field : ColumnField{});
  }
  return r;
}

ResultReader::ResultReader(const std::string& path) : path_(path) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // lbbench reports HDF5's failures itself
  H5PLset_loading_state(0);                     // no filter plugins named by a file are loaded
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) throw ResultError(path + ": no such result set");
  const std::vector<std::string> files =
      S_ISDIR(st.st_mode) ? list_parts(path) : std::vector<std::string>{path};
  for (const std::string& f : files) {
    try {
      add_part(f);
    } catch (const ResultError& e) {
      problems_.push_back(e.what());
    }
  }
  if (!S_ISDIR(st.st_mode) && !problems_.empty()) throw ResultError(problems_.front());
  std::stable_sort(runs_.begin(), runs_.end(), [](const RunRecord& a, const RunRecord& b) {
    return std::tie(a.invocation, a.started, a.run) < std::tie(b.invocation, b.started, b.run);
  });
  for (std::size_t k = 0; k < runs_.size(); ++k) run_index_[runs_[k].run] = k;
}

void ResultReader::add_part(const std::string& path) {
  H5Id file(open_part(path), H5Fclose, path);  // first: it says why a path is no part
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) throw ResultError(path + ": unreadable");
  Part part{path, kExpansion * static_cast<std::uint64_t>(st.st_size) + (1u << 20)};
  part.version = check_schema(file.get(), path);
  if (has_dense_table(file.get()))  // an older layout: its tables are read in a child alone
    part.held = std::make_shared<const std::map<TableId, HeldTable>>(
        read_tables_in_child(path, part.budget));
  ColumnTable runs = part.held
                         ? held_table(part, TableId::kRuns)
                         : read_table(file.get(), table_spec(TableId::kRuns), path, part.budget);
  upgrade(runs, TableId::kRuns, part.version);
  for (const char* required : {"run", "invocation", "started", "status"})
    if (runs.rows() > 0 && (!runs.find(required) || runs.find(required)->type != ColumnType::kText))
      throw ResultError(path + ":/runs: no text column " + std::string(required));
  std::set<std::string> seen;
  for (std::size_t r = 0; r < runs.rows(); ++r) {
    RunRecord info = run_record(runs, r);
    if (!seen.insert(info.run).second || run_index_.count(info.run)) {
      problems_.push_back(path + ": run " + info.run + " again: the first copy is read");
      copies_.insert({parts_.size(), info.run});
      continue;
    }
    run_index_[info.run] = runs_.size();
    run_part_[info.run] = parts_.size();
    runs_.push_back(std::move(info));
  }
  parts_.push_back(part);
}

std::vector<std::string> ResultReader::invocations() const {
  std::set<std::string> ids;
  for (const RunRecord& r : runs_) ids.insert(r.invocation);
  return {ids.begin(), ids.end()};
}

ColumnTable ResultReader::held_table(const Part& part, TableId id) {
  const HeldTable& held = part.held->at(id);
  if (!held.error.empty()) throw ResultError(held.error);
  return held.table;
}

ColumnTable ResultReader::read_part_table(std::size_t k, TableId id) const {
  const Part& part = parts_[k];
  // A table a switch writes, or one added later, is absent from parts written before it
  // existed: no rows there.
  const bool optional = !table_spec(id).switch_key.empty() || table_spec(id).added_later;
  if (part.held) {
    if (optional && !part.held->at(id).error.empty()) return {};
    ColumnTable t = held_table(part, id);
    upgrade(t, id, part.version);
    return t;
  }
  auto cached = cache_.find({k, id});
  if (cached != cache_.end()) return cached->second;
  if (cache_.size() >= 6) cache_.clear();
  std::uint64_t budget = part.budget;  // each table within the part's whole budget
  H5Id file(open_part(part.path), H5Fclose, part.path);
  if (optional && H5Lexists(file.get(), std::string(table_spec(id).name).c_str(), H5P_DEFAULT) <= 0)
    return cache_[{k, id}] = ColumnTable{};
  ColumnTable t = read_table(file.get(), table_spec(id), part.path, budget);
  upgrade(t, id, part.version);
  return cache_[{k, id}] = std::move(t);
}

ColumnTable ResultReader::rows_of(const std::string& run, TableId id) const {
  if (!run_index_.count(run)) throw ResultError(path_ + ": no run " + run);
  if (const std::string why = level_problem(runs_[run_index_.at(run)], id); !why.empty())
    throw ResultError(path_ + ": run " + run + ": " + why);
  // Its writer's parts, named <invocation>.<writer>.<seq>.h5 as its id is <invocation>.<writer>.<n>
  const std::string stem = run.substr(0, run.rfind('.') + 1);
  ColumnTable out;
  for (std::size_t k = 0; k < parts_.size(); ++k)
    if ((file_name(parts_[k].path).starts_with(stem) || run_part_.at(run) == k) &&
        !copies_.count({k, run}))
      append_rows_of(read_part_table(k, id), run, out);
  return out;
}

std::vector<double> ResultReader::read_series(const std::string& run,
                                              const std::string& name) const {
  const std::string column = name.starts_with("metric/") ? "metric_" + name.substr(7)
                             : name.starts_with("step/") ? name.substr(5)
                                                         : name;
  const ColumnTable steps = rows_of(run, TableId::kSteps);
  if (steps.rows() == 0) return {};
  const Column& c = numeric(steps, column, path_ + ": run " + run);
  std::vector<double> out(c.rows());
  for (std::size_t r = 0; r < out.size(); ++r) out[r] = c.number(r);
  return out;
}

std::vector<double> ResultReader::read_matrix(const std::string& run, const std::string& name,
                                              std::size_t& rows, std::size_t& cols) const {
  const std::string where = path_ + ": run " + run;
  if (name.starts_with("step/") || name.starts_with("metric/")) {
    std::vector<double> series = read_series(run, name);
    rows = series.size(), cols = 1;
    return series;
  }
  const bool procs = name.starts_with("proc/");
  const ColumnTable t = rows_of(run, procs ? TableId::kProcs : TableId::kModules);
  rows = cols = 0;
  if (t.rows() == 0) return {};
  const Column& step = numeric(t, "step", where);
  const Column& index = numeric(t, procs ? "proc" : "module", where);
  std::string column = name.substr(name.find('/') + 1);  // proc/busy, module/phase_owner
  if (!procs && column.starts_with("phase_")) column = column.substr(6);
  const Column& value = numeric(t, column, where);
  std::vector<double> phase(t.rows(), 0.0);
  if (!procs)
    phase = [&] {
      const Column& p = numeric(t, "phase", where);
      std::vector<double> v(t.rows());
      for (std::size_t r = 0; r < v.size(); ++r) v[r] = p.number(r);
      return v;
    }();
  double max_step = -1, max_index = -1, max_phase = 0;
  for (std::size_t r = 0; r < t.rows(); ++r) {
    max_step = std::max(max_step, step.number(r));
    max_index = std::max(max_index, index.number(r));
    max_phase = std::max(max_phase, phase[r]);
  }
  const bool phased = name.find("phase_") != std::string::npos;
  if (max_step >= 1e8 || max_index >= 1e9 || max_phase >= 1e4 ||
      (max_step + 1) * (max_index + 1) * (max_phase + 1) > 4e9)
    throw ResultError(where + ": step, index or phase out of range");
  rows = static_cast<std::size_t>(max_step + 1);
  const std::size_t width = static_cast<std::size_t>(max_index + 1);
  cols = phased ? width * static_cast<std::size_t>(max_phase + 1) : width;
  const bool summed = !procs && !phased && column == "cost";
  std::vector<double> out(rows * cols, summed ? 0.0 : std::nan(""));
  for (std::size_t r = 0; r < t.rows(); ++r) {
    const double s = step.number(r), i = index.number(r), f = phase[r];
    if (s < 0 || i < 0 || f < 0) throw ResultError(where + ": a negative step, index or phase");
    if (!phased && !summed && f != 0) continue;  // module/owner: phase 0's
    const std::size_t at = static_cast<std::size_t>(s) * cols +
                           (phased ? static_cast<std::size_t>(f) * width : 0) +
                           static_cast<std::size_t>(i);
    out[at] = summed ? out[at] + value.number(r) : value.number(r);
  }
  return out;
}

ColumnTable ResultReader::table(TableId id) const {
  ColumnTable out;
  std::set<std::string> invocations;
  for (std::size_t k = 0; k < parts_.size(); ++k) {
    ColumnTable part;
    try {
      part = read_part_table(k, id);
    } catch (const ResultError& e) {
      problems_.push_back(e.what());
      continue;
    }
    const Column* key = part.find(id == TableId::kInvocations ? "invocation" : "run");
    if (!key || key->type != ColumnType::kText) {
      if (part.rows() > 0) throw ResultError(parts_[k].path + ": a table without its key column");
      continue;
    }
    std::vector<bool> keep(part.rows());
    for (std::size_t r = 0; r < keep.size(); ++r)
      keep[r] = id == TableId::kInvocations
                    ? invocations.insert(key->text[r]).second
                    : run_index_.count(key->text[r]) > 0 && !copies_.count({k, key->text[r]});
    out.append(rows_where(part, keep));
  }
  return out;
}

}  // namespace lbb
