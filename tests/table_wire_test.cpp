// A table handed from the child that read an older part to the reader (table_wire.h): every
// column type comes back whole, and bytes cut short anywhere are refused, never read past.
#include <gtest/gtest.h>

#include "harness/results/table_wire.h"

namespace lbb {
namespace {

ColumnTable sample() {
  ColumnTable t;
  t.columns.push_back({"run", ColumnType::kText, {"a", "", "c\x1b"}, {}, {}, {}, 0});
  t.columns.push_back({"n", ColumnType::kInt64, {}, {1, -1, 1LL << 40}, {}, {}, 0});
  t.columns.push_back({"p", ColumnType::kInt32, {}, {0, 7, -3}, {}, {}, 0});
  t.columns.push_back({"x", ColumnType::kFloat64, {}, {}, {0.5, -2, 1e300}, {}, 0});
  Column repeated{"id", ColumnType::kText, {}, {}, {}, {{"r1", 2}, {"r2", 1}}, 3};
  t.columns.push_back(repeated);
  return t;
}

TEST(TableWire, EveryColumnTypeComesBackWhole) {
  std::string bytes;
  put_table(sample(), bytes);
  put_text("after", bytes);
  std::size_t at = 0;
  const ColumnTable t = take_table(bytes, at, "p.h5");
  ASSERT_EQ(t.columns.size(), 5u);
  EXPECT_EQ(t.columns[0].text, (std::vector<std::string>{"a", "", "c\x1b"}));
  EXPECT_EQ(t.columns[1].ints, (std::vector<std::int64_t>{1, -1, 1LL << 40}));
  EXPECT_EQ(t.columns[2].type, ColumnType::kInt32);
  EXPECT_EQ(t.columns[3].reals, (std::vector<double>{0.5, -2, 1e300}));
  EXPECT_EQ(t.columns[4].text, (std::vector<std::string>{"r1", "r1", "r2"}));
  EXPECT_EQ(take_text(bytes, at, "p.h5"), "after");
  EXPECT_EQ(at, bytes.size());
}

TEST(TableWire, BytesCutShortAreRefused) {
  std::string bytes;
  put_table(sample(), bytes);
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    std::size_t at = 0;
    EXPECT_THROW(take_table(std::string_view(bytes).substr(0, n), at, "p.h5"), ResultError) << n;
  }
}

TEST(TableWire, ACountLargerThanTheBytesIsRefused) {
  std::string bytes(8, '\xff');  // 2^64 - 1 columns
  std::size_t at = 0;
  EXPECT_THROW(take_table(bytes, at, "p.h5"), ResultError);
}

}  // namespace
}  // namespace lbb
