#include <algorithm>
#include <cstring>

#include "harness/archive/archive.h"

namespace lbb {

namespace {

// A dataset larger than this is not one lbbench wrote (2 GiB of doubles); refusing it keeps a
// hostile archive from exhausting memory.
constexpr hsize_t kMaxElements = hsize_t{1} << 28;

// One attribute into `info`, its type checked against the schema.
void add_attribute(RunInfo& info, const std::string& name, const h5::Value& v,
                   const std::string& where) {
  const AttributeSpec* spec = find_run_attribute(name);
  const bool text = std::holds_alternative<std::string>(v);
  if (spec && text != (spec->type == RecordType::kText))
    throw ArchiveError(where + ": attribute " + name + " is " + (text ? "text" : "a number") +
                       ", the schema says " + std::string(record_type_name(spec->type)));
  if (text)
    info.text[name] = std::get<std::string>(v);
  else if (const auto* i = std::get_if<std::int64_t>(&v))
    info.number[name] = static_cast<double>(*i);
  else
    info.number[name] = std::get<double>(v);
}

h5::Handle open_table(hid_t file, const std::string& name, const std::string& where) {
  auto tables = h5::group(H5Gopen2(file, h5::kTablesGroup, H5P_DEFAULT), where);
  h5::require_hard_link(tables.get(), name, H5O_TYPE_GROUP, where);
  return h5::group(H5Gopen2(tables.get(), name.c_str(), H5P_DEFAULT), where + ": cannot open");
}

}  // namespace

ArchiveReader::ArchiveReader(const std::string& path) : path_(path) {
  h5::silence_library_errors();
  file_ = h5::Handle(open_archive_read_only(path), H5Fclose);
}

std::vector<std::string> ArchiveReader::run_groups() const {
  auto runs = h5::group(H5Gopen2(file_.get(), "/runs", H5P_DEFAULT), path_ + ": open /runs");
  return h5::member_names(runs.get(), path_ + ": /runs");
}

std::vector<RunInfo> ArchiveReader::runs() const {
  auto runs = h5::group(H5Gopen2(file_.get(), "/runs", H5P_DEFAULT), path_ + ": open /runs");
  std::vector<RunInfo> out;
  for (const auto& n : run_groups()) {
    const std::string where = path_ + ": run " + n;
    h5::require_hard_link(runs.get(), n, H5O_TYPE_GROUP, path_ + ": /runs");
    auto g = h5::group(H5Gopen2(runs.get(), n.c_str(), H5P_DEFAULT), where + ": cannot open");
    RunInfo info;
    info.id = n;
    for (const auto& name : h5::attribute_names(g.get(), where))
      add_attribute(info, name, h5::read_attribute(g.get(), name, where), where);
    out.push_back(std::move(info));
  }
  std::map<std::string, TableRow> index;  // read_series's index, built in the same pass
  h5::for_each_table(
      file_.get(), true, path_, [&](const std::string& name, hid_t, const h5::TableContents& t) {
        add_to_index(name, t, index);
        for (std::size_t r = 0; r < t.ids.size(); ++r) {
          RunInfo info;
          info.id = t.ids[r];
          for (const auto& [attribute, value] : t.attributes[r])
            add_attribute(info, attribute, value, path_ + ": /tables/" + name + " run " + info.id);
          out.push_back(std::move(info));
        }
      });
  std::sort(out.begin(), out.end(), [](const RunInfo& a, const RunInfo& b) { return a.id < b.id; });
  for (std::size_t k = 1; k < out.size(); ++k)
    if (out[k].id == out[k - 1].id) throw ArchiveError(path_ + ": two runs named " + out[k].id);
  table_rows_ = std::move(index);
  indexed_ = true;
  return out;
}

void ArchiveReader::add_to_index(const std::string& table, const h5::TableContents& t,
                                 std::map<std::string, TableRow>& index) const {
  for (std::size_t r = 0; r < t.ids.size(); ++r) {
    const TableRow row{table, t.first[r], t.first[r + 1] - t.first[r], t.first.back()};
    if (!index.emplace(t.ids[r], row).second)
      throw ArchiveError(path_ + ": two runs named " + t.ids[r]);
  }
}

const ArchiveReader::TableRow* ArchiveReader::table_row(const std::string& run) const {
  if (!indexed_) {
    std::map<std::string, TableRow> index;
    h5::for_each_table(file_.get(), false, path_,
                       [&](const std::string& name, hid_t, const h5::TableContents& t) {
                         add_to_index(name, t, index);
                       });
    table_rows_ = std::move(index);
    indexed_ = true;
  }
  const auto it = table_rows_.find(run);
  return it == table_rows_.end() ? nullptr : &it->second;
}

std::vector<double> ArchiveReader::read_matrix(const std::string& run, const std::string& dataset,
                                               std::size_t& rows, std::size_t& cols) const {
  if (const TableRow* row = table_row(run)) {
    const std::string where = path_ + ": /tables/" + row->table + " run " + run;
    hsize_t width = 0;
    const auto bytes =
        h5::read_table_rows(open_table(file_.get(), row->table, where).get(), dataset,
                            H5T_NATIVE_DOUBLE, row->first, row->rows, row->total, width, where);
    rows = row->rows;
    cols = row_values(width);
    std::vector<double> out(bytes.size() / sizeof(double));
    if (!out.empty()) std::memcpy(out.data(), bytes.data(), bytes.size());  // a run of no steps
    return out;
  }
  const std::string path = "/runs/" + run + "/" + dataset;
  const std::string where = path_ + ": " + path;
  // Every link on the way is checked: a soft or external link could lead anywhere.
  h5::Handle group = h5::group(H5Gopen2(file_.get(), "/runs", H5P_DEFAULT), where);
  std::string rest = run + "/" + dataset;
  for (std::size_t slash; (slash = rest.find('/')) != std::string::npos;) {
    const std::string part = rest.substr(0, slash);
    h5::require_hard_link(group.get(), part, H5O_TYPE_GROUP, where);
    group = h5::group(H5Gopen2(group.get(), part.c_str(), H5P_DEFAULT), where);
    rest = rest.substr(slash + 1);
  }
  h5::require_hard_link(group.get(), rest, H5O_TYPE_DATASET, where);
  auto d = h5::dataset(H5Dopen2(group.get(), rest.c_str(), H5P_DEFAULT), where + ": cannot open");
  auto type = h5::datatype(H5Dget_type(d.get()), where);
  const H5T_class_t cls = H5Tget_class(type.get());
  if (cls != H5T_INTEGER && cls != H5T_FLOAT) throw ArchiveError(where + " is not numeric");
  auto space = h5::dataspace(H5Dget_space(d.get()), where);
  const int rank = H5Sget_simple_extent_ndims(space.get());
  if (rank < 1 || rank > 2) throw ArchiveError(where + ": rank " + std::to_string(rank));
  hsize_t dims[2] = {0, 1};
  H5Sget_simple_extent_dims(space.get(), dims, nullptr);
  if (rank == 1) dims[1] = 1;
  if (dims[1] != 0 && dims[0] > kMaxElements / dims[1])
    throw ArchiveError(where + ": too large to be an lbbench dataset");
  rows = dims[0];
  cols = dims[1];
  std::vector<double> out(rows * cols);
  if (!out.empty())
    h5::check(H5Dread(d.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data()),
              where + ": cannot read");
  return out;
}

std::vector<double> ArchiveReader::read_series(const std::string& run,
                                               const std::string& dataset) const {
  std::size_t rows = 0, cols = 0;
  return read_matrix(run, dataset, rows, cols);
}

}  // namespace lbb

namespace lbb {

namespace {

// A legacy run's step dataset `sub`/`name` whole, in its record type.
h5::RunColumn read_group_column(hid_t sub_group, const std::string& sub, const std::string& name,
                                const std::string& where) {
  const std::string column = sub + "/" + name, what = where + "/" + column;
  const DatasetSpec* spec = find_step_dataset(column);
  if (!spec) throw ArchiveError(what + ": not a step dataset of the schema");
  h5::require_hard_link(sub_group, name, H5O_TYPE_DATASET, where + "/" + sub);
  auto d = h5::dataset(H5Dopen2(sub_group, name.c_str(), H5P_DEFAULT), what + ": cannot open");
  auto type = h5::datatype(H5Dget_type(d.get()), what);
  if (H5Tget_class(type.get()) != (spec->type == RecordType::kFloat64 ? H5T_FLOAT : H5T_INTEGER))
    throw ArchiveError(what + " is not " + std::string(record_type_name(spec->type)));
  auto space = h5::dataspace(H5Dget_space(d.get()), what);
  const int rank = H5Sget_simple_extent_ndims(space.get());
  if (rank != (spec->shape == RecordShape::kSteps ? 1 : 2))
    throw ArchiveError(what + " is not of shape " + std::string(record_shape_name(spec->shape)));
  hsize_t dims[2] = {0, 0};
  H5Sget_simple_extent_dims(space.get(), dims, nullptr);
  const hsize_t cols = rank == 2 ? dims[1] : 0;
  if (rank == 2 && cols == 0) throw ArchiveError(what + ": rows of no values");
  if (dims[0] > kMaxElements / row_values(cols))
    throw ArchiveError(what + ": too large to be an lbbench dataset");
  h5::RunColumn c{column, spec->type, cols, dims[0], {}};
  c.bytes.resize(dims[0] * row_values(cols) * record_type_bytes(spec->type));
  if (!c.bytes.empty())
    h5::check(H5Dread(d.get(), h5::memory_type(spec->type), H5S_ALL, H5S_ALL, H5P_DEFAULT,
                      c.bytes.data()),
              what + ": cannot read");
  return c;
}

}  // namespace

h5::StoredRun ArchiveReader::read_run(const std::string& run) const {
  h5::StoredRun out;
  out.id = run;
  if (const TableRow* row = table_row(run)) {
    const std::string where = path_ + ": /tables/" + row->table;
    auto table = open_table(file_.get(), row->table, where);
    if (cached_table_ != row->table) {  // merge reads a table's runs one after another
      cached_ = h5::read_table(table.get(), true, where);
      cached_table_ = row->table;
    }
    const h5::TableContents& t = cached_;
    const auto at = std::find(t.ids.begin(), t.ids.end(), run) - t.ids.begin();
    out.attributes = t.attributes.at(static_cast<std::size_t>(at));
    for (const std::string sub : {"step", "proc", "metric", "module"}) {
      if (H5Lexists(table.get(), sub.c_str(), H5P_DEFAULT) <= 0) continue;
      h5::require_hard_link(table.get(), sub, H5O_TYPE_GROUP, where);
      auto g = h5::group(H5Gopen2(table.get(), sub.c_str(), H5P_DEFAULT), where + "/" + sub);
      for (const auto& name : h5::member_names(g.get(), where + "/" + sub)) {
        const std::string column = sub + "/" + name;
        const DatasetSpec* spec = find_step_dataset(column);
        if (!spec) throw ArchiveError(where + "/" + column + ": not a step dataset of the schema");
        h5::RunColumn c{column, spec->type, 0, row->rows, {}};
        c.bytes = h5::read_table_rows(table.get(), column, h5::memory_type(spec->type), row->first,
                                      row->rows, row->total, c.cols, where);
        out.columns.push_back(std::move(c));
      }
    }
    return out;
  }
  const std::string where = path_ + ": /runs/" + run;
  auto runs = h5::group(H5Gopen2(file_.get(), "/runs", H5P_DEFAULT), where);
  h5::require_hard_link(runs.get(), run, H5O_TYPE_GROUP, where);
  auto g = h5::group(H5Gopen2(runs.get(), run.c_str(), H5P_DEFAULT), where + ": cannot open");
  for (const auto& name : h5::attribute_names(g.get(), where))
    out.attributes[name] = h5::read_attribute(g.get(), name, where);
  for (const auto& sub : h5::member_names(g.get(), where)) {
    h5::require_hard_link(g.get(), sub, H5O_TYPE_GROUP, where);
    auto s = h5::group(H5Gopen2(g.get(), sub.c_str(), H5P_DEFAULT), where + "/" + sub);
    for (const auto& name : h5::member_names(s.get(), where + "/" + sub))
      out.columns.push_back(read_group_column(s.get(), sub, name, where));
  }
  for (const auto& c : out.columns)
    if (c.rows != out.columns.front().rows)
      throw ArchiveError(where + ": step datasets of different lengths");
  return out;
}

}  // namespace lbb
