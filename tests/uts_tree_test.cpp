#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/uts_tree.h"

namespace lbb::kernels {
namespace {

std::string hex(const UtsDigest& d) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (auto b : d) {
    s += digits[b >> 4];
    s += digits[b & 15];
  }
  return s;
}

TEST(UtsTree, Sha1MatchesFips180Vectors) {
  const std::string abc = "abc";
  EXPECT_EQ(hex(sha1_digest({reinterpret_cast<const std::uint8_t*>(abc.data()), abc.size()})),
            "a9993e364706816aba3e25717850c26c9cd0d89d");
  EXPECT_EQ(hex(sha1_digest({})), "da39a3ee5e6b4b0d3255bfef95601890afd80709");
}

TEST(UtsTree, RootAndChildAreHashesOfTheirMessages) {
  std::uint8_t root_message[20] = {};
  root_message[19] = 19;
  EXPECT_EQ(uts_root_digest(19), sha1_digest(root_message));
  const UtsDigest root = uts_root_digest(19);
  std::uint8_t child_message[24];
  std::memcpy(child_message, root.data(), 20);
  child_message[20] = 0;
  child_message[21] = 0;
  child_message[22] = 1;
  child_message[23] = 2;  // index 258, big-endian
  EXPECT_EQ(uts_child_digest(root, 258), sha1_digest(child_message));
  EXPECT_EQ(uts_child_digest(root, 258, 5), uts_child_digest(root, 258, 1));
  EXPECT_NE(uts_child_digest(root, 257), uts_child_digest(root, 258));
}

TEST(UtsTree, ChildIsHashOfItsMessageForManyParentsAndIndices) {
  UtsDigest parent = uts_root_digest(7);
  for (int index : {0, 1, 99, 65535, 16777216, 2147483647}) {
    std::uint8_t message[24];
    std::memcpy(message, parent.data(), 20);
    for (int k = 0; k < 4; ++k) message[20 + k] = static_cast<std::uint8_t>(index >> (24 - 8 * k));
    const UtsDigest child = uts_child_digest(parent, index);
    EXPECT_EQ(child, sha1_digest(message)) << "index " << index;
    parent = child;
  }
}

// The overlapped spawns of a whole family equal the children hashed one by one from their
// messages, at every position of the family and for repeated spawns (granularity > 1).
TEST(UtsTree, SpawnedFamilyEqualsEachChildsHash) {
  const UtsDigest parent = uts_root_digest(42);
  for (int granularity : {1, 2, 3}) {
    for (int count : {1, 2, 5, 100}) {
      const int first = count == 5 ? 2147483640 : 3;
      std::vector<std::uint8_t> out(std::size_t(count) * 20);
      UtsSpawner(parent).children(first, count, granularity, out);
      for (int i = 0; i < count; ++i) {
        std::uint8_t message[24];
        std::memcpy(message, parent.data(), 20);
        for (int k = 0; k < 4; ++k)
          message[20 + k] = static_cast<std::uint8_t>((first + i) >> (24 - 8 * k));
        const UtsDigest expected = sha1_digest(message);
        ASSERT_TRUE(std::equal(expected.begin(), expected.end(), out.begin() + 20 * i))
            << "child " << i << " of " << count << ", granularity " << granularity;
      }
    }
  }
  std::vector<std::uint8_t> short_out(39);
  EXPECT_THROW(UtsSpawner(parent).children(0, 2, 1, short_out), std::invalid_argument);
}

TEST(UtsTree, ChildRuleCountsAsChildCountOnEverySampleTree) {
  for (const auto& tree : uts_sample_trees()) {
    const UtsChildRule rule(tree.params);
    UtsDigest digest = uts_root_digest(tree.params.root_seed);
    for (int k = 0; k < 2000; ++k) {
      digest = uts_child_digest(digest, k);
      const int height = k % 200;  // also past the cached heights
      ASSERT_EQ(rule.child_count(digest, height), uts_child_count(tree.params, digest, height))
          << tree.name << " height " << height;
    }
  }
}

TEST(UtsTree, RandomIsLastFourBytesWithoutSignBit) {
  UtsDigest d{};
  d[16] = 0xff;
  d[17] = 0x01;
  d[18] = 0x02;
  d[19] = 0x03;
  EXPECT_EQ(uts_random(d), 0x7f010203);
}

TEST(UtsTree, ShapeFunctions) {
  UtsParams p;
  p.root_branching = 4;
  p.depth = 8;
  p.shape = UtsShape::kLinear;
  EXPECT_DOUBLE_EQ(uts_target_branching(p, 0), 4.0);
  EXPECT_DOUBLE_EQ(uts_target_branching(p, 2), 3.0);
  EXPECT_DOUBLE_EQ(uts_target_branching(p, 8), 0.0);
  p.shape = UtsShape::kFixed;
  EXPECT_DOUBLE_EQ(uts_target_branching(p, 7), 4.0);
  EXPECT_DOUBLE_EQ(uts_target_branching(p, 8), 0.0);
  p.shape = UtsShape::kExpDecrease;  // b_i = b_0 i^(-ln b_0 / ln d): 1 at depth d
  EXPECT_NEAR(uts_target_branching(p, 8), 1.0, 1e-12);
  p.shape = UtsShape::kCyclic;  // b_0^sin(2 pi i / d)
  EXPECT_NEAR(uts_target_branching(p, 2), 4.0, 1e-12);
  EXPECT_NEAR(uts_target_branching(p, 6), 0.25, 1e-12);
  EXPECT_DOUBLE_EQ(uts_target_branching(p, 41), 0.0);
}

TEST(UtsTree, BinomialRootHasFloorBChildrenAndOthersMOrNone) {
  UtsParams p;
  p.type = UtsTreeType::kBinomial;
  p.root_branching = 2000;
  p.non_leaf_children = 8;
  p.non_leaf_prob = 0.124875;
  const UtsDigest root = uts_root_digest(42);
  EXPECT_EQ(uts_child_count(p, root, 0), 2000);
  int with_children = 0;
  for (int i = 0; i < 2000; ++i) {
    const int n = uts_child_count(p, uts_child_digest(root, i), 1);
    ASSERT_TRUE(n == 0 || n == 8);
    with_children += n == 8;
  }
  EXPECT_NEAR(with_children / 2000.0, 0.124875, 0.03);  // the draw follows q
}

TEST(UtsTree, BalancedTreeHasClosedFormCounts) {
  UtsParams p;
  p.type = UtsTreeType::kBalanced;
  p.root_branching = 3;
  p.depth = 5;
  const UtsCounts c = uts_count_serial(p);
  EXPECT_EQ(c.nodes, (std::pow(3, 6) - 1) / 2);
  EXPECT_EQ(c.leaves, 243u);
  EXPECT_EQ(c.depth, 5);
}

TEST(UtsTree, RejectsInfiniteOrMalformedTrees) {
  UtsParams p;
  p.type = UtsTreeType::kBinomial;
  p.non_leaf_prob = 0.5;
  p.non_leaf_children = 2;
  EXPECT_TRUE(uts_params_error(p).has_value());
  p.non_leaf_prob = 0.4;
  EXPECT_FALSE(uts_params_error(p).has_value());
  p.granularity = 0;
  EXPECT_TRUE(uts_params_error(p).has_value());
  EXPECT_FALSE(uts_params_error(UtsParams{}).has_value());
}

TEST(UtsTree, DescribesLikeSampleTrees) {
  EXPECT_EQ(uts_describe(find_uts_sample_tree("T1")->params), "-t 1 -a 3 -d 10 -b 4 -r 19");
  EXPECT_EQ(uts_describe(find_uts_sample_tree("T3")->params),
            "-t 0 -b 2000 -r 42 -q 0.124875 -m 8");
}

// The published counts of every small sample tree (under 6000 nodes each); T1-T5 (4 million
// nodes) are checked by the tree_search benchmark.
TEST(UtsTree, SmallSampleTreesHavePublishedCounts) {
  int checked = 0;
  for (const auto& tree : uts_sample_trees()) {
    if (tree.counts.nodes > 10000) continue;
    const UtsCounts c = uts_count_serial(tree.params);
    EXPECT_EQ(c.nodes, tree.counts.nodes) << tree.name << " (" << tree.source << ")";
    EXPECT_EQ(c.leaves, tree.counts.leaves) << tree.name;
    if (tree.counts.depth >= 0) {
      EXPECT_EQ(c.depth, tree.counts.depth) << tree.name;
    }
    ++checked;
  }
  EXPECT_GE(checked, 16);
}

TEST(UtsTree, DefaultTreeIsUtsDefault) {
  // UTS with no options: geometric, linear shape, b 4, depth 6, seed 0.
  const UtsParams p;
  EXPECT_EQ(uts_describe(p), "-t 1 -a 0 -d 6 -b 4 -r 0");
  const UtsCounts c = uts_count_serial(p);
  EXPECT_EQ(c.nodes, 1732u);
  EXPECT_EQ(c.leaves, 1050u);
  EXPECT_LE(c.depth, 6);  // the linear shape leaves no children at depth d
}

}  // namespace
}  // namespace lbb::kernels
