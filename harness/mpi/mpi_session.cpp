#include "harness/mpi/mpi_session.h"

#include <cstdlib>
#include <stdexcept>
#include <string>

#include "harness/base/process_world.h"

#if LBB_HAVE_MPI
#include <mpi.h>
#endif

namespace lbb {

namespace {
// Open MPI's mpirun, PMI (MPICH, Slurm's srun --mpi=pmi2) and PMIx (srun --mpi=pmix).
const char* launcher_size() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE"})
    if (const char* v = std::getenv(name)) return v;
  return std::getenv("PMIX_RANK") ? "" : nullptr;
}
}  // namespace

bool launched_by_mpi() {
  return launcher_size() != nullptr;
}

#if LBB_HAVE_MPI

MpiSession::MpiSession() {
  if (!launched_by_mpi()) return;
  int provided = 0;
  // Only the thread outside OpenMP's parallel regions calls MPI (harness/mpi/mpi_executor.cpp).
  MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
  started_ = true;
  MPI_Comm_rank(MPI_COMM_WORLD, &process_world().rank);
  MPI_Comm_size(MPI_COMM_WORLD, &process_world().size);
}

void share_from_leader(std::vector<int>& values) {
  if (process_world().size < 2) return;
  int n = static_cast<int>(values.size());
  MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
  values.resize(n);
  MPI_Bcast(values.data(), n, MPI_INT, 0, MPI_COMM_WORLD);
}

MpiSession::~MpiSession() {
  if (!started_) return;
  process_world() = {};
  MPI_Finalize();
}

#else

MpiSession::MpiSession() {
  const char* size = launcher_size();
  if (size && std::atoi(size) > 1)
    throw std::invalid_argument(
        "this lbbench was built without MPI (Open MPI's libopenmpi-dev "
        "was missing): run it without mpirun");
}

MpiSession::~MpiSession() = default;

void share_from_leader(std::vector<int>&) {}

#endif

}  // namespace lbb
