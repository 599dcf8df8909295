#pragma once
// `{ static: prescribed, assignment: FILE }`: the harness reads the mapping a file gives and hands
// it to the prescribed partitioner as its owners (balancers/ knows nothing of files). FILE is a
// vt LBDatafile set (a directory, file or glob of *.json: the nodes of its first phase, tasks in
// ascending id order, as workload kind trace numbers them) or text with one processor per module
// in module order, separated by commas, spaces or line breaks.
#include <string>
#include <vector>

namespace lbb {

// Throws TraceError (std::invalid_argument) naming the file and what is wrong.
std::vector<double> read_assignment(const std::string& path);

// Why `owners` is no assignment of `modules` modules to `processors` processors; "" when it is.
std::string assignment_problem(const std::vector<double>& owners, int modules, int processors);

}  // namespace lbb
