#include "harness/archive/run_tables.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

namespace lbb::h5 {

namespace {

Handle open_vector(hid_t group, const std::string& name, H5T_class_t cls, hsize_t& n,
                   bool any_length, const std::string& where);

// An attribute name becomes the last part of a dataset path.
void check_column_name(const std::string& name) {
  if (name.empty() || name == "." || name.find('/') != std::string::npos)
    throw std::logic_error("run attribute '" + name + "' cannot name a run table's column");
}

// A one-dimensional variable-length UTF-8 string dataset.
void write_texts(hid_t group, const std::string& name, const std::vector<const char*>& texts) {
  auto type = file_type(RecordType::kText);
  const hsize_t n = texts.size();
  auto space = dataspace(H5Screate_simple(1, &n, nullptr), name);
  auto lcpl = plist(H5Pcreate(H5P_LINK_CREATE), name);
  H5Pset_create_intermediate_group(lcpl.get(), 1);
  auto d = dataset(H5Dcreate2(group, name.c_str(), type.get(), space.get(), lcpl.get(), H5P_DEFAULT,
                              H5P_DEFAULT),
                   "create " + name);
  if (n > 0)
    check(H5Dwrite(d.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, texts.data()),
          "write " + name);
}

template <typename T>
void write_numbers(hid_t group, const std::string& name, RecordType type,
                   const std::vector<T>& values) {
  write_final_step_dataset(group, name, type, 0, values.size(), values.data());
}

// attr/<name> (and text/<name> or present/<name>) of the table's runs.
void write_attribute_column(hid_t table, const std::string& name,
                            const std::vector<const Value*>& values) {
  check_column_name(name);
  const Value* first = nullptr;
  bool all = true;
  for (const Value* v : values) {
    if (v && !first) first = v;
    if (v && v->index() != first->index())
      throw std::logic_error("run attribute " + name + " has two types in one run table");
    all = all && v;
  }
  const std::string column = "attr/" + name;
  if (std::holds_alternative<std::string>(*first)) {
    std::map<std::string_view, std::int32_t> index;
    std::vector<const char*> distinct;
    std::vector<std::int32_t> codes;
    for (const Value* v : values) {
      if (!v) {
        codes.push_back(-1);
        continue;
      }
      const std::string& s = std::get<std::string>(*v);
      auto [it, fresh] = index.emplace(s, static_cast<std::int32_t>(distinct.size()));
      if (fresh) distinct.push_back(s.c_str());
      codes.push_back(it->second);
    }
    write_numbers(table, column, RecordType::kInt32, codes);
    write_texts(table, "text/" + name, distinct);
    return;
  }
  if (!all) {
    std::vector<std::int32_t> present;
    for (const Value* v : values) present.push_back(v ? 1 : 0);
    write_numbers(table, "present/" + name, RecordType::kInt32, present);
  }
  if (std::holds_alternative<std::int64_t>(*first)) {
    std::vector<std::int64_t> out;
    for (const Value* v : values) out.push_back(v ? std::get<std::int64_t>(*v) : 0);
    write_numbers(table, column, RecordType::kInt64, out);
  } else {
    std::vector<double> out;
    for (const Value* v : values)
      out.push_back(v ? std::get<double>(*v) : std::numeric_limits<double>::quiet_NaN());
    write_numbers(table, column, RecordType::kFloat64, out);
  }
}

hsize_t link_count(hid_t group, const std::string& where) {
  H5G_info_t info;
  check(H5Gget_info(group, &info), where + ": count its members");
  return info.nlinks;
}

}  // namespace

TableRun table_run(const StoredRun& run) {
  TableRun t{run.id, &run.attributes, {}, run.columns.empty() ? 0 : run.columns.front().rows};
  for (const RunColumn& c : run.columns) {
    if (c.rows != t.rows) throw std::logic_error(run.id + ": columns of different lengths");
    t.columns.push_back({c.name, c.type, c.cols, c.bytes.data()});
  }
  return t;
}

RunTable::RunTable(const TableRun& first) {
  for (const auto& c : first.columns) columns_.push_back({std::string(c.name), c.type, c.cols, {}});
}

bool RunTable::fits(const TableRun& run) const {
  if (run.columns.size() != columns_.size()) return false;
  for (std::size_t k = 0; k < columns_.size(); ++k) {
    const Column& x = columns_[k];
    const TableRun::Column& y = run.columns[k];
    if (x.name != y.name || x.type != y.type || x.cols != y.cols) return false;
  }
  return true;
}

void RunTable::add(const TableRun& run) {
  if (!fits(run)) throw std::logic_error(std::string(run.id) + ": not of its run table's layout");
  ids_.emplace_back(run.id);
  rows_.push_back(static_cast<std::int64_t>(run.rows));
  attributes_.push_back(*run.attributes);
  for (std::size_t k = 0; k < columns_.size(); ++k) {
    Column& c = columns_[k];
    const auto* from = run.columns[k].bytes;
    const std::size_t n = run.rows * row_values(c.cols) * record_type_bytes(c.type);
    if (c.bytes.size() + n > c.bytes.capacity())  // by doubling: a table grows a run at a time
      c.bytes.reserve(std::max(c.bytes.size() + n, 2 * c.bytes.capacity()));
    c.bytes.insert(c.bytes.end(), from, from + n);
  }
}

void RunTable::clear() {
  ids_.clear();
  rows_.clear();
  attributes_.clear();
  for (Column& c : columns_) c.bytes.clear();
}

void RunTable::write(hid_t file) const {
  if (H5Lexists(file, kTablesGroup, H5P_DEFAULT) <= 0) create_group(file, kTablesGroup);
  auto tables = group(H5Gopen2(file, kTablesGroup, H5P_DEFAULT), "open /tables");
  char name[32];
  std::snprintf(name, sizeof name, "t-%05llu",
                static_cast<unsigned long long>(link_count(tables.get(), "/tables")));
  auto table = create_group(tables.get(), name, {static_cast<unsigned>(2 + columns_.size()), 12});
  std::vector<const char*> ids;
  for (const auto& id : ids_) ids.push_back(id.c_str());
  write_texts(table.get(), "run_id", ids);
  write_numbers(table.get(), "step_rows", RecordType::kInt64, rows_);
  std::map<std::string_view, std::vector<const Value*>> attributes;  // by name, a value a run
  for (std::size_t r = 0; r < attributes_.size(); ++r)
    for (const auto& [attribute, value] : attributes_[r]) {
      auto& column = attributes[attribute];
      column.resize(attributes_.size(), nullptr);
      column[r] = &value;
    }
  for (auto& [attribute, values] : attributes)
    write_attribute_column(table.get(), std::string(attribute), values);
  hsize_t total = 0;
  for (std::int64_t r : rows_) total += static_cast<hsize_t>(r);
  for (const Column& c : columns_)
    write_final_step_dataset(table.get(), c.name, c.type, c.cols, total, c.bytes.data());
}

void write_run_tables(hid_t file, std::span<const TableRun> runs) {
  std::vector<RunTable> tables;
  for (const TableRun& run : runs) {
    auto it =
        std::find_if(tables.begin(), tables.end(), [&](const RunTable& t) { return t.fits(run); });
    if (it == tables.end()) it = tables.insert(tables.end(), RunTable(run));
    it->add(run);
  }
  for (const RunTable& t : tables) t.write(file);
}

std::size_t count_runs(hid_t file, const std::string& where) {
  auto runs = group(H5Gopen2(file, "runs", H5P_DEFAULT), where + ": open /runs");
  std::size_t n = link_count(runs.get(), where + ": /runs");
  if (H5Lexists(file, kTablesGroup, H5P_DEFAULT) <= 0) return n;
  require_hard_link(file, kTablesGroup, H5O_TYPE_GROUP, where);
  auto tables = group(H5Gopen2(file, kTablesGroup, H5P_DEFAULT), where + ": open /tables");
  for (const auto& name : member_names(tables.get(), where + ": /tables")) {
    const std::string table = where + ": /tables/" + name;
    require_hard_link(tables.get(), name, H5O_TYPE_GROUP, where + ": /tables");
    auto g = group(H5Gopen2(tables.get(), name.c_str(), H5P_DEFAULT), table);
    hsize_t runs = 0;
    open_vector(g.get(), "run_id", H5T_STRING, runs, true, table);
    n += static_cast<std::size_t>(runs);
  }
  return n;
}

namespace {

// A table larger than this is not one lbbench wrote; refusing it bounds memory.
constexpr hsize_t kMaxTableElements = hsize_t{1} << 28;

// The one-dimensional dataset `name` of `group`, checked: a hard link, of HDF5 class `cls`, and
// `n` long (any length up to kMaxTableElements when n is 0 and `any_length`).
Handle open_vector(hid_t group, const std::string& name, H5T_class_t cls, hsize_t& n,
                   bool any_length, const std::string& where) {
  const std::string what = where + "/" + name;
  require_hard_link(group, name, H5O_TYPE_DATASET, where);
  auto d = dataset(H5Dopen2(group, name.c_str(), H5P_DEFAULT), what + ": cannot open");
  auto type = datatype(H5Dget_type(d.get()), what);
  auto space = dataspace(H5Dget_space(d.get()), what);
  if (H5Tget_class(type.get()) != cls) throw Error(what + ": of an unexpected type");
  hsize_t dims = 0;
  if (H5Sget_simple_extent_ndims(space.get()) != 1 ||
      H5Sget_simple_extent_dims(space.get(), &dims, nullptr) != 1)
    throw Error(what + " is not one-dimensional");
  if (dims > kMaxTableElements) throw Error(what + ": too large to be an lbbench table");
  if (any_length)
    n = dims;
  else if (dims != n)
    throw Error(what + " holds " + std::to_string(dims) + " values, the table " +
                std::to_string(n) + " runs");
  return d;
}

std::vector<std::string> read_texts(hid_t group, const std::string& name, hsize_t& n,
                                    bool any_length, const std::string& where) {
  const std::string what = where + "/" + name;
  auto d = open_vector(group, name, H5T_STRING, n, any_length, where);
  auto type = datatype(H5Dget_type(d.get()), what);
  if (H5Tis_variable_str(type.get()) <= 0) throw Error(what + " is not variable-length text");
  std::vector<char*> raw(n, nullptr);
  std::vector<std::string> out;
  if (n == 0) return out;
  // Read with the file's own string type: HDF5 does not convert UTF-8 to ASCII.
  check(H5Dread(d.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, raw.data()),
        what + ": cannot read");
  for (char* c : raw) out.emplace_back(c ? c : "");
  auto space = dataspace(H5Dget_space(d.get()), what);
  H5Dvlen_reclaim(type.get(), space.get(), H5P_DEFAULT, raw.data());
  return out;
}

template <typename T>
std::vector<T> read_numbers(hid_t group, const std::string& name, H5T_class_t cls, hid_t memory,
                            hsize_t n, const std::string& where) {
  auto d = open_vector(group, name, cls, n, false, where);
  std::vector<T> out(n);
  if (n > 0)
    check(H5Dread(d.get(), memory, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data()),
          where + "/" + name + ": cannot read");
  return out;
}

H5T_class_t class_of(hid_t group, const std::string& name, const std::string& where) {
  require_hard_link(group, name, H5O_TYPE_DATASET, where);
  auto d = dataset(H5Dopen2(group, name.c_str(), H5P_DEFAULT), where + "/" + name);
  auto type = datatype(H5Dget_type(d.get()), where + "/" + name);
  return H5Tget_class(type.get());
}

// attr/<name> of every run into `out` (a map a run).
void read_attribute_column(hid_t table, const std::string& name, hsize_t n,
                           std::vector<std::map<std::string, Value>>& out,
                           const std::string& where) {
  const std::string column = "attr/" + name, text = "text/" + name, present = "present/" + name;
  if (H5Lexists(table, "text", H5P_DEFAULT) > 0 &&
      H5Lexists(table, text.c_str(), H5P_DEFAULT) > 0) {
    hsize_t distinct = 0;
    const auto values = read_texts(table, text, distinct, true, where);
    const auto codes =
        read_numbers<std::int32_t>(table, column, H5T_INTEGER, H5T_NATIVE_INT32, n, where);
    for (hsize_t r = 0; r < n; ++r) {
      if (codes[r] < -1 || codes[r] >= static_cast<std::int64_t>(distinct))
        throw Error(where + "/" + column + ": a text index out of range");
      if (codes[r] >= 0) out[r][name] = values[codes[r]];
    }
    return;
  }
  std::vector<std::int32_t> has(n, 1);
  if (H5Lexists(table, "present", H5P_DEFAULT) > 0 &&
      H5Lexists(table, present.c_str(), H5P_DEFAULT) > 0)
    has = read_numbers<std::int32_t>(table, present, H5T_INTEGER, H5T_NATIVE_INT32, n, where);
  const H5T_class_t cls = class_of(table, column, where);
  if (cls == H5T_INTEGER) {
    const auto v = read_numbers<std::int64_t>(table, column, cls, H5T_NATIVE_INT64, n, where);
    for (hsize_t r = 0; r < n; ++r)
      if (has[r]) out[r][name] = v[r];
  } else if (cls == H5T_FLOAT) {
    const auto v = read_numbers<double>(table, column, cls, H5T_NATIVE_DOUBLE, n, where);
    for (hsize_t r = 0; r < n; ++r)
      if (has[r]) out[r][name] = v[r];
  } else {
    throw Error(where + "/" + column + " is neither text nor a number");
  }
}

}  // namespace

// Every step column of the table is `total` rows long.
void check_column_lengths(hid_t table, hsize_t total, const std::string& where) {
  for (const char* sub : {"step", "proc", "metric", "module"}) {
    if (H5Lexists(table, sub, H5P_DEFAULT) <= 0) continue;
    require_hard_link(table, sub, H5O_TYPE_GROUP, where);
    auto g = group(H5Gopen2(table, sub, H5P_DEFAULT), where + "/" + sub);
    for (const auto& name : member_names(g.get(), where + "/" + sub)) {
      const std::string what = where + "/" + sub + "/" + name;
      require_hard_link(table, std::string(sub) + "/" + name, H5O_TYPE_DATASET, where);
      auto d = dataset(H5Dopen2(g.get(), name.c_str(), H5P_DEFAULT), what + ": cannot open");
      auto space = dataspace(H5Dget_space(d.get()), what);
      hsize_t dims[2] = {0, 0};
      const int rank = H5Sget_simple_extent_ndims(space.get());
      if (rank < 1 || rank > 2 || H5Sget_simple_extent_dims(space.get(), dims, nullptr) != rank)
        throw Error(what + " is not a step dataset (rank " + std::to_string(rank) + ")");
      if (dims[0] != total)
        throw Error(what + " holds " + std::to_string(dims[0]) + " rows, its runs " +
                    std::to_string(total));
    }
  }
}

TableContents read_table(hid_t table, bool with_attributes, const std::string& where) {
  TableContents t;
  hsize_t n = 0;
  t.ids = read_texts(table, "run_id", n, true, where);
  const auto rows =
      read_numbers<std::int64_t>(table, "step_rows", H5T_INTEGER, H5T_NATIVE_INT64, n, where);
  t.first.push_back(0);
  for (std::int64_t r : rows) {
    if (r < 0 || static_cast<hsize_t>(r) > kMaxTableElements - t.first.back())
      throw Error(where + "/step_rows: a run's rows out of range");
    t.first.push_back(t.first.back() + static_cast<hsize_t>(r));
  }
  check_column_lengths(table, t.first.back(), where);
  if (!with_attributes) return t;
  t.attributes.resize(n);
  if (H5Lexists(table, "attr", H5P_DEFAULT) <= 0) return t;
  require_hard_link(table, "attr", H5O_TYPE_GROUP, where);
  auto attr = group(H5Gopen2(table, "attr", H5P_DEFAULT), where + "/attr");
  for (const auto& name : member_names(attr.get(), where + "/attr"))
    read_attribute_column(table, name, n, t.attributes, where);
  return t;
}

std::vector<unsigned char> read_table_rows(hid_t table, const std::string& name, hid_t memory,
                                           hsize_t first, hsize_t rows, hsize_t total,
                                           hsize_t& cols, const std::string& where) {
  const std::string what = where + "/" + name;
  const DatasetSpec* spec = find_step_dataset(name);
  const auto slash = name.find('/');
  if (!spec || slash == std::string::npos) throw Error(what + ": no such step dataset");
  const std::string sub = name.substr(0, slash);
  require_hard_link(table, sub, H5O_TYPE_GROUP, where);
  auto g = group(H5Gopen2(table, sub.c_str(), H5P_DEFAULT), where + "/" + sub);
  const std::string leaf = name.substr(slash + 1);
  require_hard_link(g.get(), leaf, H5O_TYPE_DATASET, where + "/" + sub);
  auto d = dataset(H5Dopen2(g.get(), leaf.c_str(), H5P_DEFAULT), what + ": cannot open");
  auto type = datatype(H5Dget_type(d.get()), what);
  const H5T_class_t cls = H5Tget_class(type.get());
  if (cls != (spec->type == RecordType::kFloat64 ? H5T_FLOAT : H5T_INTEGER))
    throw Error(what + " is not " + std::string(record_type_name(spec->type)));
  auto space = dataspace(H5Dget_space(d.get()), what);
  const int rank = H5Sget_simple_extent_ndims(space.get());
  if (rank != (spec->shape == RecordShape::kSteps ? 1 : 2))
    throw Error(what + " is not of shape " + std::string(record_shape_name(spec->shape)));
  hsize_t dims[2] = {0, 0};
  H5Sget_simple_extent_dims(space.get(), dims, nullptr);
  cols = rank == 2 ? dims[1] : 0;
  if (dims[0] != total)
    throw Error(what + " holds " + std::to_string(dims[0]) + " rows, its runs " +
                std::to_string(total));
  if (cols > kMaxTableElements || (cols > 0 && rows > kMaxTableElements / cols))
    throw Error(what + ": too large to be an lbbench dataset");
  const hsize_t width = row_values(cols);
  std::vector<unsigned char> out(rows * width * H5Tget_size(memory));
  if (rows == 0) return out;
  hsize_t start[2] = {first, 0}, count[2] = {rows, width};
  check(H5Sselect_hyperslab(space.get(), H5S_SELECT_SET, start, nullptr, count, nullptr),
        what + ": select rows");
  auto mem = dataspace(H5Screate_simple(rank, count, nullptr), what);
  check(H5Dread(d.get(), memory, mem.get(), space.get(), H5P_DEFAULT, out.data()),
        what + ": cannot read");
  return out;
}

}  // namespace lbb::h5
