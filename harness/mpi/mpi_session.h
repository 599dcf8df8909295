#pragma once
// MPI for the length of a `lbbench run` started by an MPI launcher (mpirun, or srun with PMI or
// PMIx): the ranks become the processes of process_world(), and MPI ends with the object. Started
// by no launcher, it does nothing. A build without MPI refuses a launch of more than one process.
#include <vector>

namespace lbb {

class MpiSession {
 public:
  MpiSession();  // throws std::invalid_argument when launched across processes without MPI
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;

 private:
  bool started_ = false;
};

// True when an MPI launcher started this process (its environment says so).
bool launched_by_mpi();

// Rank 0's `values` on every rank, whatever their length elsewhere; in one process, unchanged.
void share_from_leader(std::vector<int>& values);

}  // namespace lbb
