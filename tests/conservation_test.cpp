// The conservation checks every executor makes where a decision changes who holds what.
#include <gtest/gtest.h>

#include <stdexcept>

#include "harness/exec/conservation.h"

namespace lbb {
namespace {

TEST(Conservation, ListsHoldEveryModuleOnceOnItsOwner) {
  const std::vector<int> owner = {0, 1, 1};
  EXPECT_NO_THROW(check_lists({{0}, {1, 2}}, owner));
  EXPECT_THROW(check_lists({{0, 1}, {1, 2}}, owner), std::logic_error);  // module 1 twice
  EXPECT_THROW(check_lists({{0, 2}, {1}}, owner), std::logic_error);     // 2 off its owner
  EXPECT_THROW(check_lists({{0}, {1}}, owner), std::logic_error);        // 2 on no list
}

TEST(Conservation, AnAssignmentGivesEveryModuleAProcessorInRange) {
  EXPECT_NO_THROW(check_assignment(std::vector<int>{0, 1, 1}, 3, 2));
  EXPECT_THROW(check_assignment(std::vector<int>{0, 1}, 3, 2), std::logic_error);
  EXPECT_THROW(check_assignment(std::vector<int>{0, 2, 1}, 3, 2), std::logic_error);
  EXPECT_THROW(check_assignment(std::vector<int>{0, -1, 1}, 3, 2), std::logic_error);
}

}  // namespace
}  // namespace lbb
