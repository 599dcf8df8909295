#include "harness/results/h5_table.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace lbb {

namespace {

constexpr std::size_t kMaxTextWidth = std::size_t{16} << 20;  // one text value, bytes
constexpr std::size_t kMaxColumns = 4096;
constexpr hsize_t kChunkBytes = hsize_t{16} << 20;
constexpr unsigned kDeflateLevel = 1;  // level 3 cost 10 % more CPU for the same size here

std::size_t value_bytes(ColumnType t) {
  return t == ColumnType::kInt32 ? 4 : 8;
}

hid_t file_type(ColumnType t) {
  return t == ColumnType::kInt32   ? H5T_STD_I32LE
         : t == ColumnType::kInt64 ? H5T_STD_I64LE
                                   : H5T_IEEE_F64LE;
}

H5Id text_type(std::size_t width) {
  H5Id t(H5Tcopy(H5T_C_S1), H5Tclose, "a text type");
  h5_check(H5Tset_size(t.get(), std::max<std::size_t>(width, 1)), "a text type's width");
  h5_check(H5Tset_cset(t.get(), H5T_CSET_UTF8), "a text type's character set");
  h5_check(H5Tset_strpad(t.get(), H5T_STR_NULLPAD), "a text type's padding");
  return t;
}

// Length of the UTF-8 sequence starting at s[i] if valid, else 0.
std::size_t utf8_sequence(std::string_view s, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  if (c != 0 && c < 0x80) return 1;
  const std::size_t n = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 && c < 0xE0 ? 2 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k)
    if ((b(i + k) & 0xC0) != 0x80) return 0;
  if (n == 3 && ((c == 0xE0 && b(i + 1) < 0xA0) || (c == 0xED && b(i + 1) >= 0xA0))) return 0;
  if (n == 4 && ((c == 0xF0 && b(i + 1) < 0x90) || (c == 0xF4 && b(i + 1) >= 0x90))) return 0;
  return n;
}

void write_column(hid_t group, const Column& c, const ColumnSpec* spec) {
  const hsize_t rows = c.rows();
  H5Id space(H5Screate_simple(1, &rows, nullptr), H5Sclose, "a column's dataspace");
  std::size_t width = 1;
  for (const std::string& s : c.text) width = std::max(width, s.size());
  for (const auto& [s, n] : c.repeated) width = std::max(width, s.size());
  const H5Id text = text_type(width);
  const hid_t type = c.type == ColumnType::kText ? text.get() : file_type(c.type);
  const std::size_t bytes = c.type == ColumnType::kText ? width : value_bytes(c.type);
  H5Id dcpl(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, "a column's creation list");
  // One chunk, or as few as fit kChunkBytes: a single-chunk or fixed-array index. No Fletcher-32:
  // the part's seal (part_file.h) checks every byte before HDF5 reads one.
  if (rows > 0) {
    const hsize_t chunk = std::clamp<hsize_t>(kChunkBytes / bytes, 1, rows);
    h5_check(H5Pset_chunk(dcpl.get(), 1, &chunk), "a column's chunk");
    h5_check(H5Pset_shuffle(dcpl.get()),
             "shuffle");  // text too: a run id repeated is runs of bytes
    h5_check(H5Pset_deflate(dcpl.get(), kDeflateLevel), "deflate");
  }
  H5Id set(
      H5Dcreate2(group, c.name.c_str(), type, space.get(), H5P_DEFAULT, dcpl.get(), H5P_DEFAULT),
      H5Dclose, "column " + c.name);
  if (rows > 0) {
    std::vector<char> buffer;
    std::vector<std::int32_t> narrow;
    const void* data = c.reals.data();
    hid_t memory = H5T_NATIVE_DOUBLE;
    if (c.type == ColumnType::kText) {
      buffer.assign(rows * width, '\0');
      for (hsize_t r = 0; r < c.text.size(); ++r)
        std::memcpy(buffer.data() + r * width, c.text[r].data(), c.text[r].size());
      char* at = buffer.data();
      for (const auto& [s, n] : c.repeated)
        for (std::size_t k = 0; k < n; ++k, at += width) std::memcpy(at, s.data(), s.size());
      data = buffer.data();
      memory = text.get();
    } else if (c.type == ColumnType::kInt32) {
      narrow.assign(c.ints.begin(), c.ints.end());
      data = narrow.data();
      memory = H5T_NATIVE_INT32;
    } else if (c.type == ColumnType::kInt64) {
      data = c.ints.data();
      memory = H5T_NATIVE_INT64;
    }
    h5_check(H5Dwrite(set.get(), memory, H5S_ALL, H5S_ALL, H5P_DEFAULT, data),
             "writing column " + c.name);
  }
  write_text_attribute(set.get(), "unit", spec ? spec->unit : "");
  write_text_attribute(set.get(), "meaning", spec ? spec->meaning : "");
}

// The checks read_table makes before reading a dataset; returns its rows.
hsize_t checked_rows(hid_t set, const std::string& where, hsize_t& chunk_rows) {
  H5Id space(H5Dget_space(set), H5Sclose, where + ": no dataspace");
  hsize_t dims[1] = {0};
  if (H5Sget_simple_extent_type(space.get()) != H5S_SIMPLE ||
      H5Sget_simple_extent_ndims(space.get()) != 1 ||
      H5Sget_simple_extent_dims(space.get(), dims, nullptr) != 1)
    throw ResultError(where + ": not a one-dimensional column");
  H5Id dcpl(H5Dget_create_plist(set), H5Pclose, where + ": no creation list");
  const H5D_layout_t layout = H5Pget_layout(dcpl.get());
  if (layout != H5D_COMPACT && layout != H5D_CONTIGUOUS && layout != H5D_CHUNKED)
    throw ResultError(where + ": a layout lbbench does not write (virtual?)");
  if (layout == H5D_CHUNKED && H5Pget_chunk(dcpl.get(), 1, &chunk_rows) != 1)
    throw ResultError(where + ": chunks that are not one-dimensional");
  if (H5Pget_external_count(dcpl.get()) != 0)
    throw ResultError(where + ": stored in an external file: refused");
  const int filters = H5Pget_nfilters(dcpl.get());
  for (int k = 0; k < filters; ++k) {
    unsigned flags = 0;
    std::size_t n = 0;
    const H5Z_filter_t f = H5Pget_filter2(dcpl.get(), static_cast<unsigned>(k), &flags, &n, nullptr,
                                          0, nullptr, nullptr);
    if (f != H5Z_FILTER_DEFLATE && f != H5Z_FILTER_SHUFFLE && f != H5Z_FILTER_FLETCHER32)
      throw ResultError(where + ": a filter lbbench does not write (" + std::to_string(f) + ")");
  }
  if (filters < 0) throw ResultError(where + ": unreadable filters");
  return dims[0];
}

// The column's type from the file's, or throws: text (fixed length), integers, float64.
ColumnType checked_type(hid_t type, const std::string& where, std::size_t& bytes) {
  bytes = H5Tget_size(type);
  switch (H5Tget_class(type)) {
    case H5T_STRING:
      if (H5Tis_variable_str(type) != 0 || bytes == 0 || bytes > kMaxTextWidth)
        throw ResultError(where + ": text that is not fixed-length, or wider than 16 MiB");
      return ColumnType::kText;
    case H5T_INTEGER:
      if (bytes != 4 && bytes != 8) throw ResultError(where + ": an integer of odd size");
      return bytes == 4 ? ColumnType::kInt32 : ColumnType::kInt64;
    case H5T_FLOAT:
      if (bytes != 8) throw ResultError(where + ": a float that is not float64");
      return ColumnType::kFloat64;
    default:
      throw ResultError(where + ": a type lbbench does not write");
  }
}

bool compatible(ColumnType expected, ColumnType found) {
  const auto integer = [](ColumnType t) {
    return t == ColumnType::kInt32 || t == ColumnType::kInt64;
  };
  return expected == found || (integer(expected) && integer(found));
}

Column read_column(hid_t group, const std::string& name, const TableSpec& spec,
                   const std::string& where, hsize_t& rows, std::uint64_t& budget) {
  H5Id set(H5Dopen2(group, name.c_str(), H5P_DEFAULT), H5Dclose, where + ": unreadable");
  hsize_t chunk_rows = 0;
  const hsize_t n = checked_rows(set.get(), where, chunk_rows);
  if (rows != std::numeric_limits<hsize_t>::max() && n != rows)
    throw ResultError(where + ": " + std::to_string(n) + " rows, other columns " +
                      std::to_string(rows));
  rows = n;
  H5Id type(H5Dget_type(set.get()), H5Tclose, where + ": no type");
  std::size_t bytes = 0;
  Column c{name, checked_type(type.get(), where, bytes), {}, {}, {}, {}, 0};
  if (const ColumnSpec* s = find_column(spec.id, name); s && !compatible(s->type, c.type))
    throw ResultError(where + ": " + std::string(column_type_name(c.type)) + ", the schema says " +
                      std::string(column_type_name(s->type)));
  const std::uint64_t per_row = c.type == ColumnType::kText ? bytes + 32 : 8;
  if (n > budget / per_row || chunk_rows * bytes > 4 * kChunkBytes)
    throw ResultError(where + ": " + std::to_string(n) + " rows of " + std::to_string(bytes) +
                      " bytes: more than the file can hold, or chunks larger than lbbench writes");
  budget -= n * per_row;
  if (n == 0) return c;
  if (c.type == ColumnType::kText) {  // read as stored: ASCII (h5py's default) or UTF-8
    const H5Id memory(H5Tcopy(type.get()), H5Tclose, where + ": its type");
    std::vector<char> buffer(n * bytes);
    h5_check(H5Dread(set.get(), memory.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, buffer.data()),
             where + ": unreadable");
    c.text.reserve(n);
    for (hsize_t r = 0; r < n; ++r) {
      const char* s = buffer.data() + r * bytes;
      c.text.emplace_back(s, strnlen(s, bytes));
    }
  } else if (c.type == ColumnType::kFloat64) {
    c.reals.resize(n);
    h5_check(H5Dread(set.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, c.reals.data()),
             where + ": unreadable");
  } else {
    c.ints.resize(n);
    h5_check(H5Dread(set.get(), H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, c.ints.data()),
             where + ": unreadable");
  }
  return c;
}

herr_t collect_name(hid_t, const char* name, const H5L_info_t* info, void* out) {
  auto& names = *static_cast<std::vector<std::pair<std::string, bool>>*>(out);
  names.emplace_back(name, info->type == H5L_TYPE_HARD);
  return names.size() > kMaxColumns ? 1 : 0;
}

}  // namespace

std::size_t Column::rows() const {
  return type == ColumnType::kText      ? text.size() + repeated_rows
         : type == ColumnType::kFloat64 ? reals.size()
                                        : ints.size();
}

void Column::pad_to(std::size_t n) {
  if (type == ColumnType::kText && !repeated.empty()) {
    if (n > repeated_rows) repeated.emplace_back("", n - repeated_rows);
    repeated_rows = std::max(n, repeated_rows);
  } else if (type == ColumnType::kText)
    text.resize(n);
  else if (type == ColumnType::kFloat64)
    reals.resize(n, std::numeric_limits<double>::quiet_NaN());
  else
    ints.resize(n, -1);
}

double Column::number(std::size_t row) const {
  return type == ColumnType::kFloat64 ? reals[row]
         : type == ColumnType::kText  ? std::numeric_limits<double>::quiet_NaN()
                                      : static_cast<double>(ints[row]);
}

std::size_t ColumnTable::rows() const {
  return columns.empty() ? 0 : columns.front().rows();
}

const Column* ColumnTable::find(std::string_view name) const {
  for (const Column& c : columns)
    if (c.name == name) return &c;
  return nullptr;
}

Column& ColumnTable::column(std::string_view name, ColumnType type) {
  for (Column& c : columns)
    if (c.name == name) return c;
  const std::size_t n = rows();
  columns.push_back({std::string(name), type, {}, {}, {}, {}, 0});
  columns.back().pad_to(n);
  return columns.back();
}

void ColumnTable::append(ColumnTable&& more) {
  const std::size_t before = rows(), added = more.rows();
  for (Column& m : more.columns) {
    Column* c = nullptr;
    for (Column& mine : columns)
      if (mine.name == m.name) c = &mine;
    if (!c) {
      columns.push_back({m.name, m.type, {}, {}, {}, {}, 0});
      c = &columns.back();
      c->pad_to(before);
    }
    if (!m.repeated.empty() && c->text.empty()) {
      c->repeated.insert(c->repeated.end(), m.repeated.begin(), m.repeated.end());
      c->repeated_rows += m.repeated_rows;
    } else {
      for (const auto& [s, n] : m.repeated) c->text.insert(c->text.end(), n, s);
    }
    std::move(m.text.begin(), m.text.end(), std::back_inserter(c->text));
    c->reals.insert(c->reals.end(), m.reals.begin(), m.reals.end());
    c->ints.insert(c->ints.end(), m.ints.begin(), m.ints.end());
  }
  for (Column& c : columns) c.pad_to(before + added);
}

std::string as_valid_utf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    if (const std::size_t n = utf8_sequence(text, i); n > 0) {
      out.append(text.substr(i, n));
      i += n;
    } else {
      out.append("\xEF\xBF\xBD");
      ++i;
    }
  }
  return out;
}

H5Id::H5Id(hid_t id, Closer close, const std::string& what) : id_(id), close_(close) {
  if (id < 0) throw ResultError(what);
}

void h5_check(herr_t status, const std::string& what) {
  if (status < 0) throw ResultError(what);
}

void write_text_attribute(hid_t obj, const char* name, std::string_view value) {
  const std::string text = as_valid_utf8(value);
  const H5Id type = text_type(text.size());
  H5Id space(H5Screate(H5S_SCALAR), H5Sclose, "a scalar dataspace");
  H5Id a(H5Acreate2(obj, name, type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose,
         std::string("attribute ") + name);
  std::string padded = text;
  padded.resize(std::max<std::size_t>(text.size(), 1), '\0');
  h5_check(H5Awrite(a.get(), type.get(), padded.data()), std::string("attribute ") + name);
}

void write_int_attribute(hid_t obj, const char* name, std::int64_t value) {
  H5Id space(H5Screate(H5S_SCALAR), H5Sclose, "a scalar dataspace");
  H5Id a(H5Acreate2(obj, name, H5T_STD_I64LE, space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose,
         std::string("attribute ") + name);
  h5_check(H5Awrite(a.get(), H5T_NATIVE_INT64, &value), std::string("attribute ") + name);
}

namespace {

H5Id open_scalar_attribute(hid_t obj, const char* name, const std::string& where) {
  if (H5Aexists(obj, name) <= 0) throw ResultError(where + ": no attribute " + name);
  H5Id a(H5Aopen(obj, name, H5P_DEFAULT), H5Aclose, where + ": attribute " + name);
  H5Id space(H5Aget_space(a.get()), H5Sclose, where + ": attribute " + name);
  if (H5Sget_simple_extent_type(space.get()) != H5S_SCALAR)
    throw ResultError(where + ": attribute " + name + " is not a scalar");
  return a;
}

}  // namespace

std::string read_text_attribute(hid_t obj, const char* name, const std::string& where) {
  const H5Id a = open_scalar_attribute(obj, name, where);
  H5Id type(H5Aget_type(a.get()), H5Tclose, where);
  std::size_t bytes = 0;
  if (checked_type(type.get(), where + ": attribute " + name, bytes) != ColumnType::kText ||
      bytes > 4096)
    throw ResultError(where + ": attribute " + name + " is not a short text");
  const H5Id memory(H5Tcopy(type.get()), H5Tclose, where + ": its type");
  std::string value(bytes, '\0');
  h5_check(H5Aread(a.get(), memory.get(), value.data()), where + ": attribute " + name);
  value.resize(strnlen(value.data(), bytes));
  return value;
}

std::int64_t read_int_attribute(hid_t obj, const char* name, const std::string& where) {
  const H5Id a = open_scalar_attribute(obj, name, where);
  H5Id type(H5Aget_type(a.get()), H5Tclose, where);
  if (H5Tget_class(type.get()) != H5T_INTEGER)
    throw ResultError(where + ": attribute " + name + " is not an integer");
  std::int64_t value = 0;
  h5_check(H5Aread(a.get(), H5T_NATIVE_INT64, &value), where + ": attribute " + name);
  return value;
}

void write_table(hid_t file, const TableSpec& spec, const ColumnTable& table) {
  // Links kept compact in the group's checksummed object header, never in dense storage (a
  // fractal heap whose objects carry no checksum): a byte changed there under a valid seal
  // crashed HDF5 1.10.8's H5Literate (H5G__link_release_table).
  H5Id gcpl(H5Pcreate(H5P_GROUP_CREATE), H5Pclose, "a group creation list");
  h5_check(H5Pset_link_phase_change(gcpl.get(), kMaxColumns + 1, kMaxColumns), "compact links");
  H5Id group(H5Gcreate2(file, std::string(spec.name).c_str(), H5P_DEFAULT, gcpl.get(), H5P_DEFAULT),
             H5Gclose, "table " + std::string(spec.name));
  write_text_attribute(group.get(), "meaning", spec.meaning);
  for (const Column& c : table.columns) write_column(group.get(), c, find_column(spec.id, c.name));
}

ColumnTable read_table(hid_t file, const TableSpec& spec, const std::string& where,
                       std::uint64_t& budget, const std::vector<std::string>& wanted) {
  const std::string name(spec.name), here = where + ":/" + name;
  H5L_info_t link;
  if (H5Lexists(file, name.c_str(), H5P_DEFAULT) <= 0 ||
      H5Lget_info(file, name.c_str(), &link, H5P_DEFAULT) < 0 || link.type != H5L_TYPE_HARD)
    throw ResultError(here + ": missing, or not a group of this file");
  H5Id group(H5Gopen2(file, name.c_str(), H5P_DEFAULT), H5Gclose, here + ": not a group");
  std::vector<std::pair<std::string, bool>> names;
  if (H5Literate(group.get(), H5_INDEX_NAME, H5_ITER_INC, nullptr, collect_name, &names) != 0)
    throw ResultError(here + ": unreadable, or more than 4096 columns");
  ColumnTable table;
  hsize_t rows = std::numeric_limits<hsize_t>::max();
  for (const auto& [column, hard] : names) {
    if (!wanted.empty() && std::find(wanted.begin(), wanted.end(), column) == wanted.end())
      continue;
    if (!hard) throw ResultError(here + "/" + column + ": a link to elsewhere: refused");
    table.columns.push_back(
        read_column(group.get(), column, spec, here + "/" + column, rows, budget));
  }
  for (const std::string& w : wanted)
    if (!table.find(w)) throw ResultError(here + ": no column " + w);
  return table;
}

}  // namespace lbb
