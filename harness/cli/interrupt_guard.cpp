#include "harness/cli/interrupt_guard.h"

#include <pthread.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <utility>

#include "core/text.h"
#include "harness/base/process_world.h"
#include "harness/results/result_writer.h"
#include "harness/run/provenance.h"

namespace lbb {

namespace {

sigset_t interrupt_signals() {
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  return signals;
}

}  // namespace

void block_interrupts() {
  const sigset_t signals = interrupt_signals();
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
}

InterruptGuard::InterruptGuard(ResultWriter* writer, std::string resume)
    : writer_(writer), resume_(std::move(resume)), signals_(interrupt_signals()) {
  pthread_sigmask(SIG_BLOCK, &signals_, nullptr);  // before the OpenMP threads exist
  waiter_ = std::thread([this] { wait(); });
}

InterruptGuard::~InterruptGuard() {
  done_ = true;
  waiter_.join();
  pthread_sigmask(SIG_UNBLOCK, &signals_, nullptr);
}

void InterruptGuard::wait() {
  const timespec tick{0, 100'000'000};
  while (!done_) {
    const int sig = sigtimedwait(&signals_, nullptr, &tick);
    if (sig > 0) interrupted(sig);
  }
}

void InterruptGuard::interrupted(int sig) {
  const std::string name = sig == SIGINT ? "SIGINT" : "SIGTERM";
  std::string note = "lbbench: interrupted (" + name;
  if (!writer_) {
    note += "): nothing written (--no-write)";
  } else {
    try {
      const ResultWriter::Exit ended = writer_->finish_before_exit([&](RunRecord& r) {
        r.status = "failed";
        r.interrupted = 1;
        r.error =
            "interrupted by " + name +
            (process_world().size > 1 ? " (under mpirun: a rank ended, or the job was cancelled)"
                                      : "");
        r.finished = iso_time_now();
        r.load_end = load_average();
      });
      note += "): " + std::to_string(ended.runs) + " runs written to " +
              printable(writer_->path()) +
              (ended.in_flight ? ", the run in flight among them as failed (interrupted = 1)"
                               : " (no run was in flight)") +
              "; `" + resume_ + "` runs the rest";
    } catch (const std::exception& e) {
      note += "): the runs that ended could not be written: " + printable(e.what());
    }
  }
  std::fprintf(stderr, "\n%s\n", note.c_str());
  std::_Exit(128 + sig);
}

}  // namespace lbb
