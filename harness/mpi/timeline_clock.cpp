#include "harness/mpi/timeline_clock.h"

#include <mpi.h>

#include "harness/base/clock.h"

namespace lbb {

namespace {

bool one_host() {
  MPI_Comm local;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &local);
  int on_host = 1, ranks = 1;
  MPI_Comm_size(local, &on_host);
  MPI_Comm_free(&local);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  return on_host == ranks;
}

// Rank r's estimate of rank 0's `base` in its own clock: rank 0 answers each rank in turn with
// its clock's reading less its base.
double estimated_base(int rank, int ranks, double base) {
  constexpr int kTag = 7301;
  for (int r = 1; r < ranks; ++r) {
    if (rank == 0) {
      char ask = 0;
      MPI_Recv(&ask, 1, MPI_CHAR, r, kTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      const double since = wall_now() - base;
      MPI_Send(&since, 1, MPI_DOUBLE, r, kTag, MPI_COMM_WORLD);
    } else if (rank == r) {
      const char ask = 0;
      const double t1 = wall_now();
      MPI_Send(&ask, 1, MPI_CHAR, 0, kTag, MPI_COMM_WORLD);
      double since = 0;
      MPI_Recv(&since, 1, MPI_DOUBLE, 0, kTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      base = (t1 + wall_now()) / 2 - since;
    }
  }
  return base;
}

}  // namespace

double aligned_time_base() {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const bool shared = one_host();
  MPI_Barrier(MPI_COMM_WORLD);
  double base = wall_now();
  if (shared) {
    MPI_Bcast(&base, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    return base;
  }
  return estimated_base(rank, ranks, base);
}

}  // namespace lbb
