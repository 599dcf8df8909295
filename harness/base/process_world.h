#pragma once
// The processes of one invocation: one without MPI. harness/mpi/ sets rank and size when lbbench
// runs under an MPI launcher, so that the layers below it (the runner, the writer) know which
// process writes and prints: rank 0, the leader.
namespace lbb {

struct ProcessWorld {
  int rank = 0;
  int size = 1;
  bool leader() const { return rank == 0; }
};

inline ProcessWorld& process_world() {
  static ProcessWorld world;
  return world;
}

}  // namespace lbb
