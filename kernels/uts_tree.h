#pragma once
// The trees of the Unbalanced Tree Search benchmark (Olivier et al. 2006, UTS 2.1): every node is
// a 20-byte SHA-1 digest; child i of a node is SHA-1(parent digest || i as 4 big-endian bytes),
// and a node's number of children is drawn from its own digest by the tree's shape rule. The tree
// is therefore the same whatever order, thread or processor expands it, and its node count, depth
// and leaf count can be checked against the published UTS sample trees. No threads, no balancing.
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace lbb::kernels {

inline constexpr int kUtsDigestBytes = 20;
using UtsDigest = std::array<std::uint8_t, kUtsDigestBytes>;

// UTS -t: how many children a node has.
enum class UtsTreeType {
  kBinomial = 0,   // root: floor(b) children; below: m children with probability q, else none
  kGeometric = 1,  // geometric number of children with mean given by the shape function
  kHybrid = 2,     // geometric above depth f * d, binomial below
  kBalanced = 3,   // exactly b children down to depth d
};

// UTS -a: the geometric tree's target branching factor b_i at depth i (b_0 at the root).
enum class UtsShape {
  kLinear = 0,       // b_i = b_0 (1 - i / d)
  kExpDecrease = 1,  // b_i = b_0 i^(-ln b_0 / ln d)
  kCyclic = 2,       // b_i = b_0^sin(2 pi i / d), none below depth 5 d
  kFixed = 3,        // b_i = b_0 above depth d, none below
};

// The UTS parameters under their UTS option letters.
struct UtsParams {
  UtsTreeType type = UtsTreeType::kGeometric;  // -t
  double root_branching = 4.0;                 // -b  b_0
  int root_seed = 0;                           // -r
  int depth = 6;                               // -d  gen_mx (geometric, hybrid, balanced)
  double non_leaf_prob = 15.0 / 64.0;          // -q  (binomial, hybrid)
  int non_leaf_children = 4;                   // -m  (binomial, hybrid)
  UtsShape shape = UtsShape::kLinear;          // -a  (geometric, hybrid)
  double shift_fraction = 0.5;                 // -f  hybrid: geometric above depth f * d
  int granularity = 1;                         // -g  SHA-1 evaluations per child (>= 1)
};

// UTS caps the children of every node but a binomial root at this many.
inline constexpr int kUtsMaxChildren = 100;

// Empty when the parameters describe a finite UTS tree; else what is wrong with them.
std::optional<std::string> uts_params_error(const UtsParams& params);

// True when both describe the same tree: equal in every parameter their tree type reads
// (granularity changes the work per node, never the tree).
bool uts_same_tree(const UtsParams& x, const UtsParams& y);

// "-t 1 -a 3 -d 10 -b 4 -r 19" style description (what UTS's sample_trees.sh lists).
std::string uts_describe(const UtsParams& params);

// SHA-1 of a byte string (libcrypto).
UtsDigest sha1_digest(std::span<const std::uint8_t> bytes);

// The root: SHA-1 of 16 zero bytes followed by the seed as 4 big-endian bytes.
UtsDigest uts_root_digest(int root_seed);

// Child `index` of `parent`, computed `granularity` times: UTS's knob for the work per node.
UtsDigest uts_child_digest(const UtsDigest& parent, int index, int granularity = 1);

// The children of one parent: its SHA-1 block (the spawn message, padded) is built once and
// only the child index changes from child to child. child(i, g) == uts_child_digest(parent, i, g).
class UtsSpawner {
 public:
  explicit UtsSpawner(const UtsDigest& parent);
  UtsDigest child(int index, int granularity = 1);
  // Children first .. first + count - 1 into out (count * 20 bytes, child after child), each as
  // child() computes it; consecutive spawns overlap in the processor's pipeline.
  void children(int first, int count, int granularity, std::span<std::uint8_t> out);

 private:
  std::uint8_t block_[64];
};

// The node's random number in [0, 2^31): its last four digest bytes, big-endian, top bit cleared.
int uts_random(const UtsDigest& digest);

// Geometric and hybrid trees: the target mean number of children at `height` (the shape rule).
double uts_target_branching(const UtsParams& params, int height);

// Number of children of the node with this digest at this height (root: height 0).
int uts_child_count(const UtsParams& params, const UtsDigest& digest, int height);

// The geometric distribution with mean b children at one height: P(n) = p (1-p)^n, p = 1/(1+b).
struct UtsGeometricLevel {
  double log_keep = 0;  // log(1 - p)
  // Below this probability the inverse CDF is certainly under 1 (no children). It sits 1e-6
  // relative below the exact bound, so every u under it gives floor(log(1 - u) / log(1 - p)) =
  // 0 exactly, whatever the rounding of log and the division: the common leaf skips its log.
  double no_children_below = 0;
};

// uts_child_count with the shape rule's per-height constants (UtsGeometricLevel at every
// height) computed once for a tree: the same counts, bit for bit.
class UtsChildRule {
 public:
  explicit UtsChildRule(const UtsParams& params);
  int child_count(const UtsDigest& digest, int height) const;

 private:
  UtsParams params_;
  std::vector<UtsGeometricLevel> levels_;  // by height
};

struct UtsCounts {
  std::uint64_t nodes = 0;
  std::uint64_t leaves = 0;
  int depth = 0;  // largest height of any node; the root has height 0
  bool operator==(const UtsCounts&) const = default;
};

// The serial reference: depth-first traversal of the whole tree.
UtsCounts uts_count_serial(const UtsParams& params);

// A published UTS sample tree with its published statistics.
struct UtsSampleTree {
  std::string_view name;
  std::string_view source;  // where the counts were published
  UtsParams params;
  UtsCounts counts;
};

// The sample trees whose counts this project checks (small ones in tests, T1-T5 in benchmarks).
std::span<const UtsSampleTree> uts_sample_trees();
const UtsSampleTree* find_uts_sample_tree(std::string_view name);

}  // namespace lbb::kernels
