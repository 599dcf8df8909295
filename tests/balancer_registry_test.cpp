// The balancer registry declares what each balancer is: its role, its capabilities, and the file
// that registers it (balancers/<role folder>/<name>.cpp). Checked against what the balancer
// objects really do, so a declaration cannot drift from the behaviour.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <stdexcept>
#include <string>

#include "balancers/balancer.h"
#include "balancers/between_steps/parts/transfer_plan.h"

namespace lbb {
namespace {

std::string role_folder(BalancerRole role) {
  switch (role) {
    case BalancerRole::kPartition:
      return "partition";
    case BalancerRole::kBetweenSteps:
      return "between_steps";
    case BalancerRole::kInStep:
      return "in_step";
    case BalancerRole::kLevel:
      return "level";
    case BalancerRole::kAsync:
      return "async";
    case BalancerRole::kChoice:
      return "choice";
  }
  return "?";
}

TEST(BalancerRegistry, EveryNameHasItsOwnFileInItsRoleFolder) {
  const char* source = std::getenv("LBB_SOURCE_DIR");
  ASSERT_NE(source, nullptr) << "LBB_SOURCE_DIR is set by ctest";
  for (const auto& info : balancer_registry()) {
    const auto file =
        std::filesystem::path(source) / "balancers" / role_folder(info.role) / (info.name + ".cpp");
    EXPECT_TRUE(std::filesystem::exists(file)) << info.name << ": no " << file;
  }
}

TEST(BalancerRegistry, DeclaredCapabilitiesMatchTheObjects) {
  std::set<std::string> in_step;
  for (const auto& info : balancer_registry()) {
    if (info.role == BalancerRole::kChoice) continue;  // takes its choice's (checked below)
    if (std::any_of(info.params.begin(), info.params.end(),
                    [](const ParamSpec& p) { return !p.default_value; }))
      continue;  // nothing to make it from (prescribed's owners)
    const auto balancer = info.make(resolve_params(info.params, Params{}));
    ASSERT_NE(balancer, nullptr) << info.name;
    EXPECT_EQ(balancer->redundant(), info.capabilities.redundant) << info.name;
    EXPECT_EQ(balancer->sync_trigger().on_fastest_finish, info.role == BalancerRole::kInStep)
        << info.name;
    if (info.capabilities.contiguous) {
      EXPECT_EQ(info.role, BalancerRole::kPartition) << info.name;
    }
    if (info.has_unit_level()) {
      EXPECT_EQ(info.role, BalancerRole::kBetweenSteps) << info.name;
      EXPECT_NE(info.make_unit_level(resolve_params(info.params, Params{})), nullptr);
    }
    if (info.role == BalancerRole::kInStep) in_step.insert(info.name);
  }
  EXPECT_EQ(in_step, (std::set<std::string>{"gcdlb", "gddlb", "lcdlb", "lddlb"}));
}

TEST(BalancerRegistry, RolesNameTheConfigKey) {
  for (const auto& info : balancer_registry())
    EXPECT_EQ(info.kind() == BalancerKind::kStatic, info.role == BalancerRole::kPartition)
        << info.name;
  EXPECT_EQ(role_name(BalancerRole::kInStep), "in step");
  EXPECT_EQ(find_balancer("tree_mesh")->role, BalancerRole::kLevel);
  EXPECT_EQ(find_balancer("diffusion")->role, BalancerRole::kBetweenSteps);
  EXPECT_EQ(find_balancer("predictive")->role, BalancerRole::kAsync);
}

// `auto` is a balancer like the others (Zaki, Li & Parthasarathy 1997's customized choice): an
// in-step one that synchronises globally and centrally until its first decision chooses.
TEST(BalancerRegistry, TheCustomizedChoiceStartsGlobalAndCentralised) {
  const BalancerInfo* info = find_balancer("auto");
  ASSERT_NE(info, nullptr);
  EXPECT_EQ(info->role, BalancerRole::kChoice);
  EXPECT_EQ(info->kind(), BalancerKind::kDynamic);
  EXPECT_EQ(role_name(info->role), "choice");
  for (const auto& other : balancer_registry()) EXPECT_TRUE(other.make) << other.name;
  const std::unique_ptr<Balancer> b = make_balancer("auto", Params{});
  EXPECT_FALSE(b->redundant());
  EXPECT_TRUE(b->sync_trigger().on_fastest_finish);
  EXPECT_EQ(b->sync_trigger().group_size, 0);
  Params bad;
  bad.set("candidates", std::string("gcdlb,orb"));
  EXPECT_THROW(make_balancer("auto", bad), std::invalid_argument);
}

}  // namespace
}  // namespace lbb
