#include "kernels/uts_tree.h"

#include <openssl/sha.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace lbb::kernels {

namespace {

void put_big_endian(std::uint32_t value, std::uint8_t* out) {
  out[0] = static_cast<std::uint8_t>(value >> 24);
  out[1] = static_cast<std::uint8_t>(value >> 16);
  out[2] = static_cast<std::uint8_t>(value >> 8);
  out[3] = static_cast<std::uint8_t>(value);
}

// SHA1_Init/Update/Final and SHA1_Transform are deprecated in OpenSSL 3 but are its cheapest
// paths: ~48 ns for the 24-byte spawn message through Init/Update/Final, against ~79 ns for a
// reused EVP_MD_CTX and ~275 ns for the one-shot SHA1() (which fetches the algorithm on every
// call). A spawn message fits one padded block, so the spawn calls the compression function
// alone on a block padded here (FIPS 180-4, section 5.1.1), which skips Update's buffering and
// Final's padding and context clearing. The deprecation is silenced for these uses only.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
void sha1_into(const std::uint8_t* data, std::size_t length, std::uint8_t* out) {
  SHA_CTX ctx;
  SHA1_Init(&ctx);
  SHA1_Update(&ctx, data, length);
  SHA1_Final(out, &ctx);
}

SHA_CTX initial_sha1_state() {
  SHA_CTX ctx;
  SHA1_Init(&ctx);
  return ctx;
}

const SHA_CTX kInitialSha1 = initial_sha1_state();

// One spawn in flight: the SHA-1 chaining state and the padded block it compresses.
struct SpawnSlot {
  SHA_CTX ctx;
  alignas(16) std::uint8_t block[64];
};

// Sets the slot up to compress `block` from SHA-1's initial state. The compression function
// reads and writes only the chaining words h0-h4; they alone are set.
void start_slot(SpawnSlot& slot, const std::uint8_t (&block)[64], std::uint32_t index) {
  slot.ctx.h0 = kInitialSha1.h0, slot.ctx.h1 = kInitialSha1.h1, slot.ctx.h2 = kInitialSha1.h2;
  slot.ctx.h3 = kInitialSha1.h3, slot.ctx.h4 = kInitialSha1.h4;
  std::memcpy(slot.block, block, sizeof slot.block);
  put_big_endian(index, slot.block + kUtsDigestBytes);
}

void compress(SpawnSlot& slot) {
  SHA1_Transform(&slot.ctx, slot.block);
}
#pragma GCC diagnostic pop

// The digest of a compressed slot: its chaining words, big-endian.
void digest_of(const SpawnSlot& slot, std::uint8_t* out) {
  const std::uint32_t big_endian[5] = {
      __builtin_bswap32(slot.ctx.h0), __builtin_bswap32(slot.ctx.h1),
      __builtin_bswap32(slot.ctx.h2), __builtin_bswap32(slot.ctx.h3),
      __builtin_bswap32(slot.ctx.h4)};
  std::memcpy(out, big_endian, sizeof big_endian);
}

// A 31-bit random number as a probability in [0, 1).
double to_probability(int r) {
  return r < 0 ? 0.0 : static_cast<double>(r) / 2147483648.0;
}

int binomial_children(const UtsParams& p, const UtsDigest& digest) {
  return to_probability(uts_random(digest)) < p.non_leaf_prob ? p.non_leaf_children : 0;
}

UtsGeometricLevel geometric_level(double b) {
  const double keep = 1.0 - 1.0 / (1.0 + b);
  return {std::log(keep), (1.0 - keep) * (1.0 - 1e-6)};
}

// Inverse of that distribution's CDF at the node's random number.
int geometric_children(const UtsDigest& digest, const UtsGeometricLevel& level) {
  const double u = to_probability(uts_random(digest));
  if (u < level.no_children_below) return 0;
  const double n = std::floor(std::log(1.0 - u) / level.log_keep);
  // b <= 0 gives -0 or NaN here; UTS's int conversion then yields no children.
  if (!(n > 0)) return 0;
  return n >= 2147483647.0 ? 2147483647 : static_cast<int>(n);
}

bool hybrid_is_geometric(const UtsParams& p, int height) {
  return height < p.shift_fraction * p.depth;
}

}  // namespace

std::optional<std::string> uts_params_error(const UtsParams& p) {
  const int type = static_cast<int>(p.type);
  if (type < 0 || type > 3) return "tree type (-t) must be 0, 1, 2 or 3";
  const int shape = static_cast<int>(p.shape);
  if (shape < 0 || shape > 3) return "shape function (-a) must be 0, 1, 2 or 3";
  if (!(p.root_branching >= 0) || !std::isfinite(p.root_branching))
    return "root branching factor (-b) must be a finite number >= 0";
  if (p.granularity < 1) return "compute granularity (-g) must be at least 1";
  const bool geometric = p.type == UtsTreeType::kGeometric || p.type == UtsTreeType::kHybrid;
  if ((geometric || p.type == UtsTreeType::kBalanced) && p.depth < 1)
    return "tree depth (-d) must be at least 1";
  const bool binomial = p.type == UtsTreeType::kBinomial || p.type == UtsTreeType::kHybrid;
  if (binomial) {
    if (!(p.non_leaf_prob >= 0 && p.non_leaf_prob <= 1))
      return "non-leaf probability (-q) must lie in [0, 1]";
    if (p.non_leaf_children < 0) return "children of a non-leaf node (-m) must be >= 0";
    // Expected subtree size below the root is 1 / (1 - q m): infinite when q m >= 1.
    if (p.non_leaf_prob * p.non_leaf_children >= 1.0)
      return "binomial trees need q * m < 1 (else the expected tree is infinite); got " +
             std::to_string(p.non_leaf_prob * p.non_leaf_children);
  }
  if (p.type == UtsTreeType::kHybrid && !(p.shift_fraction >= 0 && p.shift_fraction <= 1))
    return "hybrid shift fraction (-f) must lie in [0, 1]";
  if (p.type == UtsTreeType::kBalanced && std::pow(p.root_branching, p.depth) > 1e12)
    return "balanced tree of b^d > 1e12 leaves is too large";
  return std::nullopt;
}

bool uts_same_tree(const UtsParams& x, const UtsParams& y) {
  if (x.type != y.type || x.root_branching != y.root_branching || x.root_seed != y.root_seed)
    return false;
  const bool geometric = x.type == UtsTreeType::kGeometric || x.type == UtsTreeType::kHybrid;
  const bool binomial = x.type == UtsTreeType::kBinomial || x.type == UtsTreeType::kHybrid;
  if ((geometric || x.type == UtsTreeType::kBalanced) && x.depth != y.depth) return false;
  if (geometric && x.shape != y.shape) return false;
  if (binomial &&
      (x.non_leaf_prob != y.non_leaf_prob || x.non_leaf_children != y.non_leaf_children))
    return false;
  return x.type != UtsTreeType::kHybrid || x.shift_fraction == y.shift_fraction;
}

std::string uts_describe(const UtsParams& p) {
  auto num = [](double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return std::string(buf);
  };
  std::string s = "-t " + std::to_string(static_cast<int>(p.type));
  const bool geometric = p.type == UtsTreeType::kGeometric || p.type == UtsTreeType::kHybrid;
  const bool binomial = p.type == UtsTreeType::kBinomial || p.type == UtsTreeType::kHybrid;
  if (geometric) s += " -a " + std::to_string(static_cast<int>(p.shape));
  if (geometric || p.type == UtsTreeType::kBalanced) s += " -d " + std::to_string(p.depth);
  s += " -b " + num(p.root_branching) + " -r " + std::to_string(p.root_seed);
  if (binomial) s += " -q " + num(p.non_leaf_prob) + " -m " + std::to_string(p.non_leaf_children);
  if (p.type == UtsTreeType::kHybrid) s += " -f " + num(p.shift_fraction);
  if (p.granularity != 1) s += " -g " + std::to_string(p.granularity);
  return s;
}

UtsDigest sha1_digest(std::span<const std::uint8_t> bytes) {
  UtsDigest out;
  sha1_into(bytes.data(), bytes.size(), out.data());
  return out;
}

UtsDigest uts_root_digest(int root_seed) {
  std::uint8_t message[20] = {};
  put_big_endian(static_cast<std::uint32_t>(root_seed), message + 16);
  UtsDigest out;
  sha1_into(message, sizeof message, out.data());
  return out;
}

UtsSpawner::UtsSpawner(const UtsDigest& parent) {
  constexpr int kMessageBytes = kUtsDigestBytes + 4;
  std::memset(block_, 0, sizeof block_);
  std::memcpy(block_, parent.data(), kUtsDigestBytes);
  block_[kMessageBytes] = 0x80;                        // the padding's one bit
  put_big_endian(8 * kMessageBytes, block_ + 64 - 4);  // the message length in bits
}

UtsDigest UtsSpawner::child(int index, int granularity) {
  UtsDigest out;
  children(index, 1, granularity, out);
  return out;
}

// Two slots take turns: the next spawn's block and state are written before the current one is
// compressed. Written after it, they would be read by the next compression's wide loads from the
// narrower stores that wrote them, which the processor cannot forward: the loads would wait until
// the current compression retired, and the spawns, independent as they are, would run one after
// another (38 ns a spawn against 20 ns overlapped, on the SHA extensions of this project's host).
void UtsSpawner::children(int first, int count, int granularity, std::span<std::uint8_t> out) {
  if (count <= 0) return;
  if (out.size() < std::size_t(count) * kUtsDigestBytes)
    throw std::invalid_argument("UtsSpawner::children: output too small");
  SpawnSlot slot[2];
  // UTS repeats the same spawn to scale the work per node; every repetition is a real SHA-1.
  const std::int64_t spawns = std::int64_t{count} * granularity;
  start_slot(slot[0], block_, static_cast<std::uint32_t>(first));
  for (std::int64_t s = 0; s < spawns; ++s) {
    SpawnSlot& now = slot[s & 1];
    if (s + 1 < spawns)
      start_slot(slot[(s + 1) & 1], block_,
                 static_cast<std::uint32_t>(first + (s + 1) / granularity));
    compress(now);
    if ((s + 1) % granularity == 0)
      digest_of(now, out.data() + (s / granularity) * kUtsDigestBytes);
  }
}

UtsDigest uts_child_digest(const UtsDigest& parent, int index, int granularity) {
  return UtsSpawner(parent).child(index, granularity);
}

int uts_random(const UtsDigest& d) {
  const std::uint32_t b = (static_cast<std::uint32_t>(d[16]) << 24) |
                          (static_cast<std::uint32_t>(d[17]) << 16) |
                          (static_cast<std::uint32_t>(d[18]) << 8) | d[19];
  return static_cast<int>(b & 0x7fffffffu);
}

double uts_target_branching(const UtsParams& p, int height) {
  const double b0 = p.root_branching;
  if (height == 0) return b0;
  const double depth = static_cast<double>(height);
  const double gen_mx = static_cast<double>(p.depth);
  switch (p.shape) {
    case UtsShape::kExpDecrease:
      return b0 * std::pow(depth, -std::log(b0) / std::log(gen_mx));
    case UtsShape::kCyclic:
      if (height > 5 * p.depth) return 0.0;
      return std::pow(b0, std::sin(2.0 * 3.141592653589793 * depth / gen_mx));
    case UtsShape::kFixed:
      return height < p.depth ? b0 : 0.0;
    case UtsShape::kLinear:
      break;
  }
  return b0 * (1.0 - depth / gen_mx);
}

namespace {

// The children of a node whose tree type draws them: geometric (level_at its height),
// binomial, or hybrid (either, by height). Only a binomial root may exceed the cap (UTS 2.1).
template <class LevelAt>  // UtsGeometricLevel(int height)
int drawn_child_count(const UtsParams& p, const UtsDigest& digest, int height, LevelAt level_at) {
  int n = 0;
  switch (p.type) {
    case UtsTreeType::kBinomial:
      if (height == 0) return static_cast<int>(std::floor(p.root_branching));
      n = binomial_children(p, digest);
      break;
    case UtsTreeType::kGeometric:
      n = geometric_children(digest, level_at(height));
      break;
    case UtsTreeType::kHybrid:
      n = hybrid_is_geometric(p, height) ? geometric_children(digest, level_at(height))
                                         : binomial_children(p, digest);
      break;
    case UtsTreeType::kBalanced:
      return height < p.depth ? static_cast<int>(p.root_branching) : 0;
  }
  return n > kUtsMaxChildren ? kUtsMaxChildren : n;
}

UtsGeometricLevel computed_level(const UtsParams& p, int height) {
  return geometric_level(uts_target_branching(p, height));
}

}  // namespace

int uts_child_count(const UtsParams& p, const UtsDigest& digest, int height) {
  return drawn_child_count(p, digest, height, [&p](int h) { return computed_level(p, h); });
}

UtsChildRule::UtsChildRule(const UtsParams& params) : params_(params) {
  // Every height a geometric tree of these shapes can reach below its depth bound; deeper
  // heights (exp-decrease shape only) compute theirs on the fly.
  const auto heights = std::clamp<std::int64_t>(5 * std::int64_t{params.depth} + 2, 1, 1 << 16);
  levels_.resize(heights);
  for (int h = 0; h < heights; ++h) levels_[h] = computed_level(params, h);
}

int UtsChildRule::child_count(const UtsDigest& digest, int height) const {
  const auto cached = [this](int h) {
    return h < static_cast<int>(levels_.size()) ? levels_[h] : computed_level(params_, h);
  };
  return drawn_child_count(params_, digest, height, cached);
}

UtsCounts uts_count_serial(const UtsParams& p) {
  struct Open {
    UtsDigest digest;
    int height;
  };
  UtsCounts counts;
  const UtsChildRule rule(p);
  std::vector<Open> stack{{uts_root_digest(p.root_seed), 0}};
  std::vector<std::uint8_t> spawned;  // one node's children, hashed together
  while (!stack.empty()) {
    const Open node = stack.back();
    stack.pop_back();
    ++counts.nodes;
    if (node.height > counts.depth) counts.depth = node.height;
    const int children = rule.child_count(node.digest, node.height);
    if (children == 0) ++counts.leaves;
    if (children == 0) continue;
    spawned.resize(std::size_t(children) * kUtsDigestBytes);
    UtsSpawner(node.digest).children(0, children, p.granularity, spawned);
    for (int i = 0; i < children; ++i) {
      stack.push_back({{}, node.height + 1});
      std::memcpy(stack.back().digest.data(), &spawned[std::size_t(i) * kUtsDigestBytes],
                  kUtsDigestBytes);
    }
  }
  return counts;
}

namespace {

UtsParams geometric(UtsShape shape, int depth, double b, int seed) {
  UtsParams p;
  p.type = UtsTreeType::kGeometric;
  p.shape = shape;
  p.depth = depth;
  p.root_branching = b;
  p.root_seed = seed;
  return p;
}

UtsParams binomial(double b, double q, int m, int seed) {
  UtsParams p;
  p.type = UtsTreeType::kBinomial;
  p.root_branching = b;
  p.non_leaf_prob = q;
  p.non_leaf_children = m;
  p.root_seed = seed;
  return p;
}

UtsParams hybrid(UtsShape shape, int depth, double b, int seed, double q, int m) {
  UtsParams p = geometric(shape, depth, b, seed);
  p.type = UtsTreeType::kHybrid;
  p.non_leaf_prob = q;
  p.non_leaf_children = m;
  return p;
}

constexpr std::string_view kSampleTrees = "UTS 2.1 sample_trees.sh";
constexpr std::string_view kDefaultTree = "UTS verifyStats table (default tree; depth not given)";
constexpr std::string_view kDatasets = "uts-datasets.cc reference table (T1-T5 cut down)";
constexpr auto kLin = UtsShape::kLinear;
constexpr auto kCyc = UtsShape::kCyclic;
constexpr auto kFix = UtsShape::kFixed;

}  // namespace

std::span<const UtsSampleTree> uts_sample_trees() {
  // depth -1: not published with the tree.
  static const std::vector<UtsSampleTree> trees = {
      {"default", kDefaultTree, UtsParams{}, {1732, 1050, -1}},
      {"test-t1", kDatasets, geometric(kFix, 3, 4, 19), {254, 201, 3}},
      {"tiny-t1", kDatasets, geometric(kFix, 4, 4, 19), {944, 744, 4}},
      {"small-t1", kDatasets, geometric(kFix, 5, 4, 19), {3987, 3232, 5}},
      {"test-t2", kDatasets, geometric(kCyc, 2, 6, 502), {227, 124, 11}},
      {"tiny-t2", kDatasets, geometric(kCyc, 3, 6, 502), {996, 705, 16}},
      {"small-t2", kDatasets, geometric(kCyc, 6, 6, 502), {4988, 3086, 31}},
      {"test-t3", kDatasets, binomial(10, 0.12, 8, 42), {371, 325, 15}},
      {"tiny-t3", kDatasets, binomial(50, 0.12, 8, 42), {723, 638, 17}},
      {"small-t3", kDatasets, binomial(200, 0.12, 8, 42), {4649, 4092, 62}},
      {"test-t4", kDatasets, hybrid(kLin, 4, 6, 1, 0.20, 4), {374, 286, 16}},
      {"tiny-t4", kDatasets, hybrid(kLin, 4, 6, 1, 0.23, 4), {910, 688, 22}},
      {"small-t4", kDatasets, hybrid(kLin, 5, 6, 1, 0.23, 4), {4699, 3530, 72}},
      {"test-t5", kDatasets, geometric(kLin, 6, 4, 34), {320, 192, 6}},
      {"tiny-t5", kDatasets, geometric(kLin, 7, 4, 34), {736, 434, 7}},
      {"small-t5", kDatasets, geometric(kLin, 10, 4, 34), {5577, 3111, 10}},
      {"T1", kSampleTrees, geometric(kFix, 10, 4, 19), {4130071, 3305118, 10}},
      {"T2", kSampleTrees, geometric(kCyc, 16, 6, 502), {4117769, 2342762, 81}},
      {"T3", kSampleTrees, binomial(2000, 0.124875, 8, 42), {4112897, 3599034, 1572}},
      {"T4", kSampleTrees, hybrid(kLin, 16, 6, 1, 0.234375, 4), {4132453, 3108986, 134}},
      {"T5", kSampleTrees, geometric(kLin, 20, 4, 34), {4147582, 2181318, 20}},
  };
  return trees;
}

const UtsSampleTree* find_uts_sample_tree(std::string_view name) {
  for (const auto& t : uts_sample_trees())
    if (t.name == name) return &t;
  return nullptr;
}

}  // namespace lbb::kernels
