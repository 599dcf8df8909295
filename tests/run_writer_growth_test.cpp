#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>

#include "harness/archive/archive.h"
#include "test_support.h"

// Every operator new of this test binary counts its bytes (the archive's own buffers are
// std::vectors); malloc stays the allocator, so sanitizers still see every block.
namespace {
std::atomic<std::size_t> allocated{0};
}  // namespace

void* operator new(std::size_t bytes) {
  allocated += bytes;
  if (void* p = std::malloc(bytes == 0 ? 1 : bytes)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}

namespace lbb {
namespace {

// Steps handed over one at a time grow the run's column buffers geometrically: the bytes
// allocated stay within a small multiple of the rows', where reserving each step's exact size
// (ec408ab) reallocated every column at every step, about steps / 2 times the rows' bytes
// (seed002's 1000 steps of 512 processors: 8.1 s of archive CPU instead of 3.3).
TEST(RunWriterGrowth, StepsOneAtATimeAllocateLinearlyInTheirBytes) {
  testing::TempDir dir;
  setenv("LBB_ARCHIVE_COMMIT_SECONDS", "100000", 1);
  const int processors = 512, steps = 600;
  {
    ArchiveWriter archive(dir.file("a.h5"));
    auto run = archive.begin_run({"wide", processors, processors, false, {}});
    run->set_text("run_uuid", "uuid-wide");
    StepRecord step;  // empty per-processor rows are archived as zeros, full width
    const std::size_t before = allocated;
    for (int s = 0; s < steps; ++s) run->on_step(step);
    // 7 per-processor columns (6 of 8 bytes, 1 of 4) and 11 step values a row.
    const std::size_t row_bytes = processors * (6 * 8 + 4) + 11 * 8;
    EXPECT_LT(allocated - before, 8 * row_bytes * steps)
        << "bytes allocated for " << row_bytes * steps << " bytes of rows";
    run->end();
  }
  unsetenv("LBB_ARCHIVE_COMMIT_SECONDS");
}

}  // namespace
}  // namespace lbb
