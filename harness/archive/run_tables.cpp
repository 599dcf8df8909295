#include "harness/archive/run_tables.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <set>
#include <stdexcept>

#include "harness/archive/deflated_chunks.h"

namespace lbb::h5 {

namespace {

Handle open_vector(hid_t group, const std::string& name, H5T_class_t cls, hsize_t& n,
                   bool any_length, const std::string& where);

// A one-dimensional variable-length UTF-8 string dataset.
void write_texts(hid_t group, const std::string& name, const std::vector<const char*>& texts) {
  auto type = file_type(RecordType::kText);
  const hsize_t n = texts.size();
  auto space = dataspace(H5Screate_simple(1, &n, nullptr), name);
  auto d = dataset(H5Dcreate2(group, name.c_str(), type.get(), space.get(), H5P_DEFAULT,
                              H5P_DEFAULT, H5P_DEFAULT),
                   "create " + name);
  if (n == 0) return;
  auto dxpl = conversion_transfer(2 * n * sizeof(char*), name);  // the strings' pointers
  check(H5Dwrite(d.get(), type.get(), H5S_ALL, H5S_ALL, dxpl.get(), texts.data()), "write " + name);
}

template <typename T>
void write_numbers(hid_t group, const std::string& name, RecordType type,
                   const std::vector<T>& values) {
  write_final_step_dataset(group, name, type, 0, values.size(), values.data());
}

// One member of a compound record: its name, type and byte offset.
struct Member {
  std::string name;
  RecordType type;
  std::size_t offset;
};

// The compound dataset `name` [n] of `members` (records of `record` bytes, host layout): compact
// up to kCompactStepBytes, else chunked and deflated by HDF5 (a table's attributes are small).
void write_compound(hid_t table, const std::string& name, const std::vector<Member>& members,
                    std::size_t record, hsize_t n, const std::vector<unsigned char>& rows) {
  auto file = datatype(H5Tcreate(H5T_COMPOUND, record), name);
  auto memory = datatype(H5Tcreate(H5T_COMPOUND, record), name);
  for (const Member& m : members) {
    check(H5Tinsert(file.get(), m.name.c_str(), m.offset, file_type(m.type).get()), name);
    check(H5Tinsert(memory.get(), m.name.c_str(), m.offset, memory_type(m.type)), name);
  }
  auto space = dataspace(H5Screate_simple(1, &n, nullptr), name);
  auto dcpl = plist(H5Pcreate(H5P_DATASET_CREATE), name);
  check(H5Pset_dset_no_attrs_hint(dcpl.get(), 1), name);
  if (n * record <= kCompactStepBytes) {
    check(H5Pset_layout(dcpl.get(), H5D_COMPACT), name);
  } else {
    const hsize_t chunk = std::max<hsize_t>(1, std::min<hsize_t>(n, 65536 / record));
    check(H5Pset_chunk(dcpl.get(), 1, &chunk), name);
    if (H5Zfilter_avail(H5Z_FILTER_DEFLATE) > 0)
      check(H5Pset_deflate(dcpl.get(), kDeflateLevel), name);
  }
  auto d = dataset(H5Dcreate2(table, name.c_str(), file.get(), space.get(), H5P_DEFAULT, dcpl.get(),
                              H5P_DEFAULT),
                   "create " + name);
  if (n > 0)
    check(H5Dwrite(d.get(), memory.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, rows.data()),
          "write " + name);
}

template <typename T>
void put(std::vector<unsigned char>& rows, std::size_t at, T value) {
  std::memcpy(rows.data() + at, &value, sizeof value);
}

// The runs' attributes: attr_numbers, attr_texts with attr_text_values, attr_present
// (run_tables.h).
void write_attributes(hid_t table, const std::vector<std::map<std::string, Value>>& runs) {
  std::map<std::string_view, std::size_t> kinds;  // name -> Value's alternative
  std::map<std::string_view, std::size_t> have;   // name -> runs that have it
  for (const auto& run : runs)
    for (const auto& [name, value] : run) {
      const auto [it, fresh] = kinds.emplace(name, value.index());
      if (!fresh && it->second != value.index())
        throw std::logic_error("run attribute " + name + " has two types in one run table");
      ++have[name];
    }
  std::vector<Member> numbers, texts, present;
  for (const auto& [name, kind] : kinds) {
    if (kind == 0) {
      texts.push_back({std::string(name), RecordType::kInt32, 4 * texts.size()});
      continue;
    }
    numbers.push_back({std::string(name), kind == 1 ? RecordType::kInt64 : RecordType::kFloat64,
                       8 * numbers.size()});
    if (have[name] < runs.size())
      present.push_back({std::string(name), RecordType::kInt32, 4 * present.size()});
  }
  const hsize_t n = runs.size();
  std::vector<unsigned char> rows(n * 8 * numbers.size());
  for (std::size_t r = 0; r < n; ++r)
    for (const Member& m : numbers) {
      const auto it = runs[r].find(m.name);
      const std::size_t at = r * 8 * numbers.size() + m.offset;
      if (m.type == RecordType::kInt64)
        put(rows, at, it == runs[r].end() ? std::int64_t{0} : std::get<std::int64_t>(it->second));
      else
        put(rows, at,
            it == runs[r].end() ? std::numeric_limits<double>::quiet_NaN()
                                : std::get<double>(it->second));
    }
  if (!numbers.empty()) write_compound(table, "attr_numbers", numbers, 8 * numbers.size(), n, rows);
  if (!present.empty()) {
    rows.assign(n * 4 * present.size(), 0);
    for (std::size_t r = 0; r < n; ++r)
      for (const Member& m : present)
        put(rows, r * 4 * present.size() + m.offset,
            std::int32_t{runs[r].count(m.name) > 0 ? 1 : 0});
    write_compound(table, "attr_present", present, 4 * present.size(), n, rows);
  }
  if (texts.empty()) return;
  std::map<std::string_view, std::int32_t> index;  // each distinct text once, whatever its name
  std::vector<const char*> distinct;
  rows.assign(n * 4 * texts.size(), 0);
  for (std::size_t r = 0; r < n; ++r)
    for (const Member& m : texts) {
      const auto it = runs[r].find(m.name);
      std::int32_t code = -1;
      if (it != runs[r].end()) {
        const std::string& text = std::get<std::string>(it->second);
        code = index.emplace(text, static_cast<std::int32_t>(distinct.size())).first->second;
        if (code == static_cast<std::int32_t>(distinct.size())) distinct.push_back(text.c_str());
      }
      put(rows, r * 4 * texts.size() + m.offset, code);
    }
  write_compound(table, "attr_texts", texts, 4 * texts.size(), n, rows);
  write_texts(table, "attr_text_values", distinct);
}

hsize_t link_count(hid_t group, const std::string& where) {
  H5G_info_t info;
  check(H5Gget_info(group, &info), where + ": count its members");
  return info.nlinks;
}

// The run's columns' names, types and widths, its columns checked to be of one length.
std::vector<RunTable::ColumnLayout> layout_of(const StoredRun& run) {
  std::vector<RunTable::ColumnLayout> layout;
  for (const RunColumn& c : run.columns) {
    if (c.rows != run.columns.front().rows)
      throw std::logic_error(run.id + ": columns of different lengths");
    layout.push_back({c.name, c.type, c.cols});
  }
  return layout;
}

}  // namespace

RunTable::RunTable(std::vector<ColumnLayout> layout) {
  for (auto& c : layout) columns_.push_back({std::move(c), {}});
}

bool RunTable::fits(std::span<const ColumnLayout> layout) const {
  if (layout.size() != columns_.size()) return false;
  for (std::size_t k = 0; k < columns_.size(); ++k) {
    const ColumnLayout &x = columns_[k].layout, &y = layout[k];
    if (x.name != y.name || x.type != y.type || x.cols != y.cols) return false;
  }
  return true;
}

std::size_t RunTable::row_bytes(std::size_t k) const {
  return row_values(columns_[k].layout.cols) * record_type_bytes(columns_[k].layout.type);
}

void RunTable::add(const StoredRun& run) {
  if (!fits(layout_of(run))) throw std::logic_error(run.id + ": not of its run table's layout");
  for (std::size_t k = 0; k < columns_.size(); ++k) {
    std::vector<unsigned char>& bytes = columns_[k].bytes;
    if (bytes.size() != rows_total_ * row_bytes(k))
      throw std::logic_error(run.id + ": a run table with an open run's rows");
    bytes.insert(bytes.end(), run.columns[k].bytes.begin(), run.columns[k].bytes.end());
  }
  const hsize_t rows = run.columns.empty() ? 0 : run.columns.front().rows;
  close_run(run.id, std::map<std::string, Value>(run.attributes), rows);
}

hsize_t RunTable::open_run() {
  for (std::size_t k = 0; k < columns_.size(); ++k)
    columns_[k].bytes.resize(rows_total_ * row_bytes(k));
  return rows_total_;
}

void RunTable::close_run(std::string id, std::map<std::string, Value>&& attributes, hsize_t rows) {
  for (std::size_t k = 0; k < columns_.size(); ++k)
    if (columns_[k].bytes.size() != (rows_total_ + rows) * row_bytes(k))
      throw std::logic_error(id + ": its rows are not its run table's open rows");
  ids_.push_back(std::move(id));
  rows_.push_back(static_cast<std::int64_t>(rows));
  attributes_.push_back(std::move(attributes));
  rows_total_ += rows;
}

void RunTable::clear(bool release) {
  ids_.clear();
  rows_.clear();
  attributes_.clear();
  rows_total_ = 0;
  for (Column& c : columns_) {
    c.bytes.clear();
    if (release) c.bytes.shrink_to_fit();
  }
}

void RunTable::write(hid_t file) const {
  if (H5Lexists(file, kTablesGroup, H5P_DEFAULT) <= 0) create_group(file, kTablesGroup);
  auto tables = group(H5Gopen2(file, kTablesGroup, H5P_DEFAULT), "open /tables");
  char name[32];
  std::snprintf(name, sizeof name, "t-%05llu",
                static_cast<unsigned long long>(link_count(tables.get(), "/tables")));
  auto table = create_group(tables.get(), name, {10, 14});  // its members (run_tables.h)
  std::vector<const char*> ids;
  for (const auto& id : ids_) ids.push_back(id.c_str());
  write_texts(table.get(), "run_id", ids);
  write_numbers(table.get(), "step_rows", RecordType::kInt64, rows_);
  write_attributes(table.get(), attributes_);
  for (std::size_t k = 0; k < columns_.size(); ++k) {  // an open run's tail is not the table's
    const Column& c = columns_[k];
    if (const Column* same = earlier_equal(k))
      link_step_dataset(table.get(), same->layout.name, c.layout.name);
    else
      write_final_step_dataset(table.get(), c.layout.name, c.layout.type, c.layout.cols,
                               rows_total_, c.bytes.data());
  }
}

const RunTable::Column* RunTable::earlier_equal(std::size_t k) const {
  const Column& c = columns_[k];
  const std::size_t n = rows_total_ * row_bytes(k);
  for (std::size_t j = 0; j < k; ++j) {
    const Column& e = columns_[j];
    if (e.layout.type == c.layout.type && e.layout.cols == c.layout.cols &&
        std::memcmp(e.bytes.data(), c.bytes.data(), n) == 0)
      return &e;
  }
  return nullptr;
}

void write_run_tables(hid_t file, std::span<const StoredRun> runs) {
  std::vector<RunTable> tables;
  for (const StoredRun& run : runs) {
    auto layout = layout_of(run);
    auto it = std::find_if(tables.begin(), tables.end(),
                           [&](const RunTable& t) { return t.fits(layout); });
    if (it == tables.end()) it = tables.insert(tables.end(), RunTable(std::move(layout)));
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
  auto dxpl = conversion_transfer(2 * n * sizeof(hvl_t), what);
  check(H5Dread(d.get(), type.get(), H5S_ALL, H5S_ALL, dxpl.get(), raw.data()),
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

// The members of the compound dataset `name` [n] and their classes, after checking it.
std::vector<std::pair<std::string, H5T_class_t>> compound_members(hid_t d,
                                                                  const std::string& what) {
  auto type = datatype(H5Dget_type(d), what);
  if (H5Tget_class(type.get()) != H5T_COMPOUND) throw Error(what + " is not a compound dataset");
  const int count = H5Tget_nmembers(type.get());
  if (count < 0) throw Error(what + ": cannot list its members");
  std::vector<std::pair<std::string, H5T_class_t>> out;
  for (int k = 0; k < count; ++k) {
    char* name = H5Tget_member_name(type.get(), static_cast<unsigned>(k));
    if (!name) throw Error(what + ": a member without a name");
    out.emplace_back(name, H5Tget_member_class(type.get(), static_cast<unsigned>(k)));
    H5free_memory(name);
  }
  return out;
}

// The member `member` of every record of the compound dataset d [n], converted to T by HDF5.
template <typename T>
std::vector<T> read_member(hid_t d, const std::string& member, hid_t native, hsize_t n,
                           const std::string& what) {
  auto memory = datatype(H5Tcreate(H5T_COMPOUND, sizeof(T)), what);
  check(H5Tinsert(memory.get(), member.c_str(), 0, native), what + ": member " + member);
  std::vector<T> out(n);
  if (n == 0) return out;
  auto file = datatype(H5Dget_type(d), what);
  const std::size_t record = H5Tget_size(file.get());  // the file's, larger than `memory`
  auto dxpl = conversion_transfer(n * record, what, record);
  check(H5Dread(d, memory.get(), H5S_ALL, H5S_ALL, dxpl.get(), out.data()),
        what + ": cannot read member " + member);
  return out;
}

// attr_numbers, attr_present, attr_texts and attr_text_values into `out` (a map a run).
void read_attributes(hid_t table, hsize_t n, std::vector<std::map<std::string, Value>>& out,
                     const std::string& where) {
  std::map<std::string, std::vector<std::int32_t>> present;
  if (H5Lexists(table, "attr_present", H5P_DEFAULT) > 0) {
    const std::string what = where + "/attr_present";
    auto d = open_vector(table, "attr_present", H5T_COMPOUND, n, false, where);
    for (const auto& [name, cls] : compound_members(d.get(), what)) {
      if (cls != H5T_INTEGER) throw Error(what + ": member " + name + " is not an integer");
      present[name] = read_member<std::int32_t>(d.get(), name, H5T_NATIVE_INT32, n, what);
    }
  }
  std::set<std::string> numbers;
  if (H5Lexists(table, "attr_numbers", H5P_DEFAULT) > 0) {
    const std::string what = where + "/attr_numbers";
    auto d = open_vector(table, "attr_numbers", H5T_COMPOUND, n, false, where);
    for (const auto& [name, cls] : compound_members(d.get(), what)) {
      numbers.insert(name);
      const auto it = present.find(name);
      const auto has = [&](hsize_t r) { return it == present.end() || it->second[r] != 0; };
      if (cls == H5T_INTEGER) {
        const auto v = read_member<std::int64_t>(d.get(), name, H5T_NATIVE_INT64, n, what);
        for (hsize_t r = 0; r < n; ++r)
          if (has(r)) out[r][name] = v[r];
      } else if (cls == H5T_FLOAT) {
        const auto v = read_member<double>(d.get(), name, H5T_NATIVE_DOUBLE, n, what);
        for (hsize_t r = 0; r < n; ++r)
          if (has(r)) out[r][name] = v[r];
      } else {
        throw Error(what + ": member " + name + " is neither an integer nor a real");
      }
    }
  }
  for (const auto& [name, flags] : present)
    if (!numbers.count(name))
      throw Error(where + "/attr_present: " + name + " is not a member of attr_numbers");
  if (H5Lexists(table, "attr_texts", H5P_DEFAULT) <= 0) return;
  const std::string what = where + "/attr_texts";
  hsize_t distinct = 0;
  const auto values = read_texts(table, "attr_text_values", distinct, true, where);
  auto d = open_vector(table, "attr_texts", H5T_COMPOUND, n, false, where);
  for (const auto& [name, cls] : compound_members(d.get(), what)) {
    if (cls != H5T_INTEGER) throw Error(what + ": member " + name + " is not an integer");
    if (numbers.count(name)) throw Error(what + ": " + name + " is a number and a text");
    const auto codes = read_member<std::int32_t>(d.get(), name, H5T_NATIVE_INT32, n, what);
    for (hsize_t r = 0; r < n; ++r) {
      if (codes[r] < -1 || codes[r] >= static_cast<std::int64_t>(distinct))
        throw Error(what + ": " + name + " holds a text index out of range");
      if (codes[r] >= 0) out[r][name] = values[codes[r]];
    }
  }
}

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

}  // namespace

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
  read_attributes(table, n, t.attributes, where);
  return t;
}

void for_each_table(hid_t file, bool with_attributes, const std::string& where,
                    const std::function<void(const std::string& name, hid_t table,
                                             const TableContents& t)>& visit) {
  if (H5Lexists(file, kTablesGroup, H5P_DEFAULT) <= 0) return;
  require_hard_link(file, kTablesGroup, H5O_TYPE_GROUP, where);
  auto tables = group(H5Gopen2(file, kTablesGroup, H5P_DEFAULT), where + ": open /tables");
  for (const auto& name : member_names(tables.get(), where + ": /tables")) {
    const std::string table = where + ": /tables/" + name;
    require_hard_link(tables.get(), name, H5O_TYPE_GROUP, where + ": /tables");
    auto g = group(H5Gopen2(tables.get(), name.c_str(), H5P_DEFAULT), table + ": cannot open");
    visit(name, g.get(), read_table(g.get(), with_attributes, table));
  }
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
