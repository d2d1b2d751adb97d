// Irregularity of a service order (paper 001 §4.1, Definition 4.1; Mokbel & Aref, CIKM 2001, the
// paper's ref. [20]): for points P_1 .. P_n served in that order, an irregularity occurs in
// dimension k between P_i and P_j (i before j) iff P_j.u_k < P_i.u_k. The irregularity of
// dimension k is the number of such pairs, i.e. the number of inversions of the sequence of k-th
// coordinates (equal coordinates are not an irregularity). Plain C++, no SystemC.
//
// The order's fairness (001 §5.2.2) is the standard deviation of the per-dimension counts; 001
// §5 reports irregularity as a ratio to the FCFS order's (irregularity_ratio).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace drivevp::sfc {

/// Inversions of `values` in served order: pairs i < j with values[j] < values[i]. O(n log n)
/// time (merge sort), O(n) extra memory. n up to ~6e9 before the count could overflow; any n
/// that fits in memory is fine.
std::uint64_t irregularity(const std::vector<std::uint32_t>& values);

/// Irregularity of each dimension of a service order given as `points`, n points of `dims`
/// coordinates, row-major (point i is points[i*dims .. i*dims + dims - 1]), served in that order.
/// Returns `dims` counts. Throws std::invalid_argument if dims == 0 or points.size() is not a
/// multiple of dims.
std::vector<std::uint64_t> irregularity_per_dimension(const std::vector<std::uint32_t>& points, unsigned dims);

/// Per-dimension irregularity and its summary over the dimensions.
struct IrregularityStats {
  std::vector<std::uint64_t> per_dimension;  ///< pairs, one count per dimension
  double mean = 0;                           ///< mean over the dimensions (001 §5: "mean irregularity")
  double stddev = 0;                         ///< population standard deviation over the dimensions
                                             ///< (001 §5.2.2 fairness: lower is fairer)
};

/// per_dimension, mean and stddev of `points` (as in irregularity_per_dimension; same errors).
IrregularityStats irregularity_stats(const std::vector<std::uint32_t>& points, unsigned dims);
/// mean and stddev of given per-dimension counts (throws std::invalid_argument if empty).
IrregularityStats summarize(std::vector<std::uint64_t> per_dimension);

/// The order's mean irregularity as a ratio to the FCFS order's (001 §5: "presented as a ratio
/// to the irregularity ... caused by FCFS"): order.mean / fcfs.mean. Throws std::invalid_argument
/// when the FCFS mean is 0 (the ratio is undefined; the FCFS order was already sorted).
double irregularity_ratio(const IrregularityStats& order, const IrregularityStats& fcfs);

}  // namespace drivevp::sfc
