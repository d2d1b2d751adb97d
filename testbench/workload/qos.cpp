#include "testbench/workload/qos.h"

#include <stdexcept>

#include <fmt/format.h>

namespace drivevp {

void QosRule::validate() const {
  if (dims > kMaxQosDims)
    throw std::invalid_argument(fmt::format("qos: dims = {} is out of range; allowed: [0, {}]", dims, kMaxQosDims));
  if (levels < 2 || levels > 256)
    throw std::invalid_argument(fmt::format("qos: levels = {} is out of range; allowed: [2, 256]", levels));
  if (dims * qos_level_bits(levels) > 64)
    throw std::invalid_argument(
        fmt::format("qos: {} dimensions of {} levels need {} x {} = {} bits; allowed: at most 64 (Command::qos)", dims,
                    levels, dims, qos_level_bits(levels), dims * qos_level_bits(levels)));
}

std::string QosRule::describe() const {
  if (!enabled()) return "none";
  return fmt::format("{} dimensions x {} levels, uniform", dims, levels);
}

QosAssigner::QosAssigner(QosRule rule) : rule_(rule), bits_(qos_level_bits(rule.levels)), engine_(rule.seed) {
  rule_.validate();
}

void QosAssigner::assign(Command& c) {
  if (!rule_.enabled()) return;
  c.qos = 0;
  for (unsigned k = 0; k < rule_.dims; ++k) {
    // Unbiased uniform level in [0, levels) from the raw 64-bit output (same on every platform).
    const std::uint64_t bound = rule_.levels;
    const std::uint64_t limit = ~std::uint64_t{0} - (~std::uint64_t{0} % bound);
    std::uint64_t x = engine_();
    while (x >= limit) x = engine_();
    c.set_qos_level(k, bits_, static_cast<std::uint32_t>(x % bound));
  }
}

}  // namespace drivevp
