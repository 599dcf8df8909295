// The environment tests/CMakeLists.txt sets for every test reaches it whole (only the first of
// its three variables used to arrive).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace {

TEST(TestEnvironment, EveryVariableArrives) {
  const char* source = std::getenv("LBB_SOURCE_DIR");
  const char* build = std::getenv("LBB_BUILD_DIR");
  const char* wait = std::getenv("OMP_WAIT_POLICY");
  ASSERT_NE(source, nullptr);
  ASSERT_NE(build, nullptr);
  ASSERT_NE(wait, nullptr);
  EXPECT_TRUE(std::filesystem::exists(std::string(source) + "/CMakeLists.txt")) << source;
  EXPECT_TRUE(std::filesystem::exists(std::string(build) + "/CMakeCache.txt")) << build;
  EXPECT_STREQ(wait, "passive");
}

}  // namespace
