# Sourced by the e2e scripts that start mpirun. Under ASan, LeakSanitizer is told to leave Open
# MPI's own allocations alone (lsan_openmpi.supp); the full unwind makes those suppressions
# match by library, which the fast unwinder's frames through Open MPI's plugins would miss.
export LSAN_OPTIONS="suppressions=$(realpath "${BASH_SOURCE[0]%/*}")/lsan_openmpi.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0"
# The e2e scripts' one mpirun command: loopback ranks on a host with fewer cores than ranks.
mpi=(mpirun --oversubscribe --bind-to none)
[ "$(id -u)" -ne 0 ] || mpi+=(--allow-run-as-root)
