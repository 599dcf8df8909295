// The notices of an asynchronous run across MPI ranks (harness/mpi/async_notices.h): their
// encoding, and the order a rank applies them in when they arrive out of it.
#include "harness/mpi/async_notices.h"

#include <gtest/gtest.h>

#include <vector>

namespace lbb {
namespace {

Notice step_notice(int module, int step, int from) {
  return {Notice::kStep, module, step, from, from, 0.5 * step, 0.25, {}};
}

Notice take_notice(int module, int step, int from, int to) {
  return {Notice::kTake, module, step, from, to, 1.5, 0, {}};
}

// A chain replica: steps finished and owners per module; applying a notice advances or moves.
struct Replica {
  std::vector<int> step, owner;
  std::vector<int> applied;  // modules, in the order their notices were applied
  void apply(const Notice& n) {
    if (n.kind == Notice::kStep)
      ++step[n.module];
    else
      owner[n.module] = n.to;
    applied.push_back(n.module);
  }
};

TEST(AsyncNotices, EncodeDecodeKeepsEveryField) {
  Notice n = take_notice(7, 3, 1, 2);
  n.bytes = {std::byte{1}, std::byte{2}, std::byte{250}};
  const Notice back = decode(encode(n));
  EXPECT_EQ(back.kind, Notice::kTake);
  EXPECT_EQ(back.module, 7);
  EXPECT_EQ(back.step, 3);
  EXPECT_EQ(back.from, 1);
  EXPECT_EQ(back.to, 2);
  EXPECT_EQ(back.end, 1.5);
  EXPECT_EQ(back.bytes, n.bytes);
  EXPECT_THROW(decode(std::vector<std::byte>(5)), std::runtime_error);
}

// Module 1's step 1 read modules 0 and 2's step 0: it waits for both, whatever the arrival.
TEST(AsyncNotices, AStepWaitsForItsNeighboursPreviousStep) {
  const ModuleGraph chain = ModuleGraph::chain(3);
  Replica r{{1, 1, 0}, {0, 1, 2}, {}};
  NoticeOrder order(chain);
  const auto apply = [&](const Notice& n) { r.apply(n); };
  EXPECT_EQ(order.arrive(step_notice(1, 1, 1), r.step, r.owner, apply), 0);
  EXPECT_EQ(order.held(), 1u);
  EXPECT_EQ(order.arrive(step_notice(2, 0, 2), r.step, r.owner, apply), 2);
  EXPECT_EQ(r.applied, (std::vector<int>{2, 1}));
  EXPECT_EQ(r.step, (std::vector<int>{1, 2, 1}));
  EXPECT_EQ(order.held(), 0u);
}

// A step run by a module's new owner waits for the notice of the take that gave it to it, and
// that take for the module's last step at its old owner.
TEST(AsyncNotices, AStepOfANewOwnerWaitsForTheTake) {
  const ModuleGraph chain = ModuleGraph::chain(2);
  Replica r{{1, 0}, {0, 0}, {}};
  NoticeOrder order(chain);
  const auto apply = [&](const Notice& n) { r.apply(n); };
  EXPECT_EQ(order.arrive(step_notice(1, 1, 1), r.step, r.owner, apply), 0);     // owner 1 ran it
  EXPECT_EQ(order.arrive(take_notice(1, 1, 0, 1), r.step, r.owner, apply), 0);  // step 0 first
  EXPECT_EQ(order.arrive(step_notice(1, 0, 0), r.step, r.owner, apply), 3);
  EXPECT_EQ(r.applied, (std::vector<int>{1, 1, 1}));
  EXPECT_EQ(r.step, (std::vector<int>{1, 2}));
  EXPECT_EQ(r.owner, (std::vector<int>{0, 1}));
}

TEST(AsyncNotices, ANoticeOfNoModuleIsAnError) {
  const ModuleGraph chain = ModuleGraph::chain(2);
  const std::vector<int> step{0, 0}, owner{0, 0};
  EXPECT_THROW(notice_ready(step_notice(5, 0, 0), chain, step, owner), std::runtime_error);
}

}  // namespace
}  // namespace lbb
