#include "firmware/rounds/wrr_admission.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

namespace drivevp::wrr {

const char* paper_name(Variant v) {
  switch (v) {
    case Variant::R:
      return "WRR-SCAN-R";
    case Variant::C:
      return "WRR-SCAN-C";
    case Variant::CA:
      return "WRR-SCAN-CA";
  }
  return "?";
}

const char* equation(Variant v) {
  switch (v) {
    case Variant::R:
      return "eq. (7)";
    case Variant::C:
      return "eq. (8)";
    case Variant::CA:
      return "eq. (10)";
  }
  return "?";
}

std::optional<Variant> variant_of_policy(const std::string& key) {
  if (key == "wrr_scan_r") return Variant::R;
  if (key == "wrr_scan_c") return Variant::C;
  if (key == "wrr_scan_ca") return Variant::CA;
  return std::nullopt;
}

Plan plan(Variant variant, const std::vector<TaskDemand>& tasks, std::uint32_t aperiodic_blocks,
          const DiskBounds& bounds, double round_ms) {
  if (bounds.block_bytes == 0 || bounds.block_bytes % 512 != 0)
    throw std::invalid_argument(
        fmt::format("WRR-SCAN bounds: C = {} B is not a positive multiple of 512 B", bounds.block_bytes));
  if (!(bounds.t_r_ms > 0) || !(bounds.t_s_ms > 0) || !(bounds.v_bytes_per_s > 0))
    throw std::invalid_argument("WRR-SCAN bounds: t_r, t_s and V must be positive");
  if (tasks.empty() && !(round_ms > 0))
    throw std::invalid_argument("WRR-SCAN admission: no task and no round length: R is undefined");
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    if (!(tasks[i].period_ms > 0) || !std::isfinite(tasks[i].period_ms))
      throw std::invalid_argument(
          fmt::format("WRR-SCAN admission: task {}: period {} ms is not positive", i + 1, tasks[i].period_ms));
    if (tasks[i].blocks == 0)
      throw std::invalid_argument(fmt::format("WRR-SCAN admission: task {}: 0 blocks per period", i + 1));
  }
  Plan p;
  p.variant = variant;
  p.aperiodic_blocks = aperiodic_blocks;
  const bool aligned = variant == Variant::CA;
  // Upper bound: R <= P_i/2 (eq. 6, R and C) or R <= P_i (CA, §3.3), for every task.
  double min_period = std::numeric_limits<double>::infinity();
  std::size_t min_task = 0;
  for (std::size_t i = 0; i < tasks.size(); ++i)
    if (tasks[i].period_ms < min_period) {
      min_period = tasks[i].period_ms;
      min_task = i;
    }
  p.upper_bound_ms = aligned ? min_period : min_period * 0.5;
  p.round_ms = round_ms > 0 ? round_ms : p.upper_bound_ms;
  const char* upper_text = aligned ? "P_i" : "P_i/2";
  if (p.round_ms > p.upper_bound_ms) {
    p.reason = fmt::format("{} upper bound fails: R = {:.6g} ms exceeds {} = {:.6g} ms of task {} by {:.6g} ms",
                           equation(variant), p.round_ms, upper_text, p.upper_bound_ms, min_task + 1,
                           p.round_ms - p.upper_bound_ms);
    return p;
  }
  // Weights: q_i = floor(P_i/R) - 1 (eq. 2) or floor(P_i/R) (CA, §3.3); x_i = ceil(b_i/q_i).
  std::uint64_t sum_x = 0;
  for (const TaskDemand& t : tasks) {
    const auto full_rounds = static_cast<std::uint32_t>(std::floor(t.period_ms / p.round_ms));
    const std::uint32_t q = aligned ? full_rounds : full_rounds - 1;  // >= 1 under the upper bound
    p.services.push_back(q);
    const std::uint32_t x = (t.blocks + q - 1) / q;
    p.weight_blocks.push_back(x);
    sum_x += x;
  }
  const double n = static_cast<double>(tasks.size());
  const double xa = aperiodic_blocks;
  const double blocks = static_cast<double>(sum_x) + xa;
  const double cv = bounds.block_ms();
  std::string lhs_text;
  if (variant == Variant::R) {
    p.lower_bound_ms = bounds.t_s_ms + (bounds.t_r_ms + cv) * blocks;
    lhs_text = fmt::format("t_s + (t_r + C/V)·(Σ⌈b_i/q_i⌉ + x_a) = {:.6g} + {:.6g}·({} + {})", bounds.t_s_ms,
                           bounds.t_r_ms + cv, sum_x, aperiodic_blocks);
  } else {
    p.lower_bound_ms = bounds.t_s_ms + bounds.t_r_ms * (n + xa) + cv * blocks;
    lhs_text =
        fmt::format("t_s + t_r·(n + x_a) + (C/V)·(Σ⌈b_i/{}⌉ + x_a) = {:.6g} + {:.6g}·({} + {}) + {:.6g}·({} + {})",
                    aligned ? "(q_i+1)" : "q_i", bounds.t_s_ms, bounds.t_r_ms, tasks.size(), aperiodic_blocks, cv,
                    sum_x, aperiodic_blocks);
  }
  if (p.lower_bound_ms > p.round_ms) {
    p.reason = fmt::format("{} lower bound fails: {} = {:.6g} ms exceeds R = {:.6g} ms by {:.6g} ms", equation(variant),
                           lhs_text, p.lower_bound_ms, p.round_ms, p.lower_bound_ms - p.round_ms);
    return p;
  }
  p.admitted = true;
  return p;
}

std::vector<std::size_t> admit_online(Variant variant, const std::vector<TaskDemand>& tasks,
                                      std::uint32_t aperiodic_blocks, const DiskBounds& bounds) {
  std::vector<std::size_t> admitted;
  std::vector<TaskDemand> set;
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    set.push_back(tasks[i]);
    if (plan(variant, set, aperiodic_blocks, bounds).admitted) {
      admitted.push_back(i);
    } else {
      set.pop_back();
    }
  }
  return admitted;
}

std::size_t max_admitted_prefix(Variant variant, const std::vector<TaskDemand>& tasks, std::uint32_t aperiodic_blocks,
                                const DiskBounds& bounds) {
  std::vector<TaskDemand> set;
  for (const TaskDemand& t : tasks) {
    set.push_back(t);
    if (!plan(variant, set, aperiodic_blocks, bounds).admitted) return set.size() - 1;
  }
  return set.size();
}

}  // namespace drivevp::wrr
