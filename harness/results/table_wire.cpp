#include "harness/results/table_wire.h"

#include <cstdint>
#include <cstring>

namespace lbb {

namespace {

void put_u64(std::uint64_t v, std::string& out) {
  out.append(reinterpret_cast<const char*>(&v), sizeof v);
}

std::uint64_t take_u64(std::string_view bytes, std::size_t& at, const std::string& where) {
  std::uint64_t v = 0;
  if (bytes.size() - at < sizeof v) throw ResultError(where + ": the child's tables end early");
  std::memcpy(&v, bytes.data() + at, sizeof v);
  at += sizeof v;
  return v;
}

// A count of items of at least `each` bytes that the rest of `bytes` can hold.
std::uint64_t take_count(std::string_view bytes, std::size_t& at, std::size_t each,
                         const std::string& where) {
  const std::uint64_t n = take_u64(bytes, at, where);
  if (n > (bytes.size() - at) / each) throw ResultError(where + ": the child's tables end early");
  return n;
}

template <typename T>
void put_numbers(const std::vector<T>& v, std::string& out) {
  put_u64(v.size(), out);
  if (!v.empty()) out.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
}

template <typename T>
std::vector<T> take_numbers(std::string_view bytes, std::size_t& at, const std::string& where) {
  std::vector<T> v(take_count(bytes, at, sizeof(T), where));
  if (!v.empty()) std::memcpy(v.data(), bytes.data() + at, v.size() * sizeof(T));
  at += v.size() * sizeof(T);
  return v;
}

}  // namespace

void put_text(std::string_view text, std::string& out) {
  put_u64(text.size(), out);
  out.append(text);
}

std::string take_text(std::string_view bytes, std::size_t& at, const std::string& where) {
  const std::uint64_t n = take_count(bytes, at, 1, where);
  std::string s(bytes.substr(at, n));
  at += n;
  return s;
}

void put_table(const ColumnTable& table, std::string& out) {
  put_u64(table.columns.size(), out);
  for (const Column& c : table.columns) {
    put_text(c.name, out);
    put_u64(static_cast<std::uint64_t>(c.type), out);
    if (c.type == ColumnType::kText) {
      put_u64(c.rows(), out);
      for (const std::string& s : c.text) put_text(s, out);
      for (const auto& [s, n] : c.repeated)
        for (std::size_t k = 0; k < n; ++k) put_text(s, out);
    } else if (c.type == ColumnType::kFloat64) {
      put_numbers(c.reals, out);
    } else {
      put_numbers(c.ints, out);
    }
  }
}

ColumnTable take_table(std::string_view bytes, std::size_t& at, const std::string& where) {
  ColumnTable table;
  const std::uint64_t columns = take_count(bytes, at, 16, where);
  for (std::uint64_t k = 0; k < columns; ++k) {
    Column c;
    c.name = take_text(bytes, at, where);
    const std::uint64_t type = take_u64(bytes, at, where);
    if (type > static_cast<std::uint64_t>(ColumnType::kFloat64))
      throw ResultError(where + ": the child's tables hold an unknown type");
    c.type = static_cast<ColumnType>(type);
    if (c.type == ColumnType::kText) {
      c.text.resize(take_count(bytes, at, 8, where));
      for (std::string& s : c.text) s = take_text(bytes, at, where);
    } else if (c.type == ColumnType::kFloat64) {
      c.reals = take_numbers<double>(bytes, at, where);
    } else {
      c.ints = take_numbers<std::int64_t>(bytes, at, where);
    }
    table.columns.push_back(std::move(c));
  }
  return table;
}

}  // namespace lbb
