#pragma once
// Per-step values of every module (a residual, a count), written by run_module(m, s) and read by
// finish_step(s). Under the asynchronous executor other modules may already be writing later
// steps while finish_step(s) reads: entries never move once created (pages of steps, allocated
// on first use and published atomically), so no reader sees a reallocation.
#include <atomic>
#include <memory>
#include <stdexcept>
#include <string>

namespace lbb {

class StepTable {
 public:
  explicit StepTable(int modules) : modules_(modules), pages_(new std::atomic<double*>[kPages]) {
    for (int p = 0; p < kPages; ++p) pages_[p].store(nullptr, std::memory_order_relaxed);
  }
  ~StepTable() {
    for (int p = 0; p < kPages; ++p) delete[] pages_[p].load(std::memory_order_relaxed);
  }
  StepTable(const StepTable&) = delete;
  StepTable& operator=(const StepTable&) = delete;

  // The entry of (step, module), zero until written.
  double& at(int step, int module) {
    if (step < 0 || step >= kPages * kStepsPerPage)
      throw std::out_of_range("StepTable: step " + std::to_string(step) + " out of range");
    std::atomic<double*>& slot = pages_[step / kStepsPerPage];
    double* page = slot.load(std::memory_order_acquire);
    if (!page) {
      double* fresh = new double[static_cast<std::size_t>(kStepsPerPage) * modules_]();
      if (slot.compare_exchange_strong(page, fresh, std::memory_order_acq_rel))
        page = fresh;
      else
        delete[] fresh;  // another module created it first: `page` now holds theirs
    }
    return page[static_cast<std::size_t>(step % kStepsPerPage) * modules_ + module];
  }

 private:
  static constexpr int kStepsPerPage = 256;
  static constexpr int kPages = 4096;  // a million steps
  int modules_;
  std::unique_ptr<std::atomic<double*>[]> pages_;
};

}  // namespace lbb
