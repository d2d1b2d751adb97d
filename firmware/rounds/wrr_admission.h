// WRR-SCAN's weights, round length and admission tests (paper 004 §3.1-3.3, eqs. (2)-(10)).
// Plain C++: no SystemC. Used by the scenario loader (admission control before time zero), by the
// WRR-SCAN policies (their per-round weights) and by `drivevp admission`.
//
// Notation as in 004 Table 1: a task i has period P_i (ms) and buffer b_i blocks of C bytes; R is
// the round length, q_i the number of rounds that serve a job, x_i its weight in blocks per round
// (W_i = x_i·C/V), x_a the aperiodic server's weight in blocks per round (W_a = x_a·C/V), t_s the
// one-way full seek, t_r one rotation plus settle, V the transfer rate.
//  * WRR-SCAN-R (§3.1): q_i = floor(P_i/R) - 1 (eq. 2), x_i = ceil(b_i/q_i) (eq. 3), admitted iff
//    t_s + (t_r + C/V)·(Σ x_i + x_a) <= R <= P_i/2 for every i (eq. 7).
//  * WRR-SCAN-C (§3.2): same q_i, x_i; t_s + t_r·(n + x_a) + (C/V)·(Σ x_i + x_a) <= R <= P_i/2 (eq. 8).
//  * WRR-SCAN-CA (§3.3): q'_i = floor(P_i/R) (release-time alignment), x_i = ceil(b_i/q'_i)
//    (eq. 9); t_s + t_r·(n + x_a) + (C/V)·(Σ x_i + x_a) <= R <= P_i (eq. 10).
// R is "the largest R allowed" (§3.1): min_i P_i/2 (R, C) or min_i P_i (CA), unless given.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace drivevp::wrr {

/// The three WRR-SCAN algorithms of 004 §3.
enum class Variant { R, C, CA };

/// "WRR-SCAN-R", "WRR-SCAN-C", "WRR-SCAN-CA".
const char* paper_name(Variant v);
/// "eq. (7)", "eq. (8)", "eq. (10)".
const char* equation(Variant v);
/// The variant of a policy key ("wrr_scan_r", "wrr_scan_c", "wrr_scan_ca"); nullopt for others.
std::optional<Variant> variant_of_policy(const std::string& policy_key);

/// The disk constants of the bounds (004 Table 2, the HP 97560). Times in ms, V in bytes/s.
struct DiskBounds {
  std::uint32_t block_bytes = 4096;  ///< C (004 Table 2), a multiple of 512
  double t_r_ms = 23.0;              ///< one rotation plus settle (004 Table 2)
  double t_s_ms = 15.7;              ///< one-way full seek without settle (004 Table 2)
  double v_bytes_per_s = 2.8e6;      ///< V = 2.8 MB/s (004 Table 2; MB read as 10^6 B)
  /// C/V in ms: the transfer time of one block (1.463 ms for the defaults).
  double block_ms() const { return static_cast<double>(block_bytes) / v_bytes_per_s * 1e3; }
};

/// A real-time task as the bounds see it.
struct TaskDemand {
  double period_ms = 0;      ///< P_i > 0
  std::uint32_t blocks = 1;  ///< b_i >= 1
};

/// The outcome of the admission test of one task set.
struct Plan {
  Variant variant = Variant::R;
  double round_ms = 0;                       ///< R
  std::uint32_t aperiodic_blocks = 0;        ///< x_a
  std::vector<std::uint32_t> services;       ///< q_i (CA: q'_i = q_i + 1), per task
  std::vector<std::uint32_t> weight_blocks;  ///< x_i, per task
  double lower_bound_ms = 0;                 ///< the left-hand side of the variant's equation
  double upper_bound_ms = 0;                 ///< min_i P_i/2 (R, C) or min_i P_i (CA)
  bool admitted = false;
  /// Empty when admitted; otherwise which inequality fails and by how much, e.g. "eq. (7) lower
  /// bound fails: t_s + (t_r + C/V)·(Σ⌈b_i/q_i⌉ + x_a) = 15.7 + 24.463·(60 + 2) = 1532.4 ms exceeds
  /// R = 1500 ms by 32.4 ms".
  std::string reason;
};

/// Computes R, q_i, x_i and the variant's test for `tasks` with x_a = `aperiodic_blocks`.
/// `round_ms` > 0 fixes R (else the largest R the periods allow). Never throws for a failing set
/// (see Plan::reason); throws std::invalid_argument for an empty set without `round_ms`, a period
/// <= 0 or not finite, a task with 0 blocks, or bounds with C not a positive multiple of 512 or
/// t_r, t_s, V not positive.
Plan plan(Variant variant, const std::vector<TaskDemand>& tasks, std::uint32_t aperiodic_blocks,
          const DiskBounds& bounds = {}, double round_ms = 0);

/// Online admission (004 §3.1: "Eq. (7) is served as an admission control when a new real-time
/// task is issued"): tasks arrive in order; each is admitted if the admitted set with it passes
/// the test (R re-chosen as the largest allowed), else rejected and the next is tried.
/// Returns the indices of the admitted tasks, in order.
std::vector<std::size_t> admit_online(Variant variant, const std::vector<TaskDemand>& tasks,
                                      std::uint32_t aperiodic_blocks, const DiskBounds& bounds = {});

/// The largest n such that the first n tasks pass the test together (0 if the first fails).
std::size_t max_admitted_prefix(Variant variant, const std::vector<TaskDemand>& tasks, std::uint32_t aperiodic_blocks,
                                const DiskBounds& bounds = {});

}  // namespace drivevp::wrr
