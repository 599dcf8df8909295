# Sourced by the e2e scripts before they start mpirun: `"${mpi[@]}" -np R ...` on loopback (root
# allowed), and a sanitizer build's view of Open MPI: its own allocations past MPI_Finalize are
# not lbbench's leaks (matched by library, which needs the slow unwinder: Open MPI keeps no frame
# pointers).
mpi=(mpirun --oversubscribe --bind-to none)
[ "$(id -u)" -ne 0 ] || mpi+=(--allow-run-as-root)
export LSAN_OPTIONS="suppressions=$(realpath "$(dirname "${BASH_SOURCE[0]}")")/lsan_openmpi.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0"
