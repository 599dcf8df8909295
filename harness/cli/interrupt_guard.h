#pragma once
// `lbbench run` stopped by SIGINT or SIGTERM: the runs that ended are written, the one in flight
// is written as failed (with the steps it recorded), one line says how to resume, and the process
// exits 128 + the signal, as a shell expects. Under mpirun a rank that dies has the others sent
// SIGTERM: the leader's set keeps the run as failed.
#include <atomic>
#include <csignal>
#include <string>
#include <thread>

namespace lbb {

class ResultWriter;

// Blocks SIGINT and SIGTERM in the calling thread, and so in every thread it starts after: MPI's
// own threads (MpiSession) must inherit them blocked, so that InterruptGuard's thread takes them.
void block_interrupts();

// Takes the two signals on a thread of its own (blocked in every other thread) while it lives.
// writer: the set the runs go to (null: --no-write); resume: the command that runs the rest.
class InterruptGuard {
 public:
  InterruptGuard(ResultWriter* writer, std::string resume);
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

 private:
  void wait();
  [[noreturn]] void interrupted(int sig);
  ResultWriter* writer_;
  std::string resume_;
  sigset_t signals_;
  std::atomic<bool> done_ = false;
  std::thread waiter_;
};

}  // namespace lbb
