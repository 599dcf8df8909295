#pragma once
// The time base of a measured timeline across MPI ranks (execution.timeline): rank 0's wall
// clock (CLOCK_MONOTONIC) when it leaves a barrier at the run's start, in each rank's own clock.
// Ranks of one host read one CLOCK_MONOTONIC, so they take rank 0's reading as it is (MPI_Bcast).
// Ranks of several hosts estimate their clock's offset to rank 0's by one request and reply each
// (Cristian 1989: the reply's clock taken at the round trip's midpoint; error at most half the
// round trip).
namespace lbb {

// Collective: every rank calls it; returns the base in the caller's clock (seconds).
double aligned_time_base();

}  // namespace lbb
