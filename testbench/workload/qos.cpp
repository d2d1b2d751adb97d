#include "testbench/workload/qos.h"

#include <stdexcept>

#include <fmt/format.h>

namespace drivevp {

void QosRule::validate() const {
  if (dims > kMaxQosDims)
    throw std::invalid_argument(fmt::format("qos: dims = {} is out of range; allowed: [0, {}]", dims, kMaxQosDims));
  if (levels < 2 || levels > kMaxQosLevels)
    throw std::invalid_argument(
        fmt::format("qos: levels = {} is out of range; allowed: [2, {}]", levels, kMaxQosLevels));
}

std::string QosRule::describe() const {
  if (!enabled()) return "none";
  return fmt::format("{} dimensions x {} levels, uniform", dims, levels);
}

QosAssigner::QosAssigner(QosRule rule) : rule_(rule), engine_(rule.seed) { rule_.validate(); }

void QosAssigner::assign(Command& c) {
  if (!rule_.enabled()) return;
  c.qos = {};
  for (unsigned k = 0; k < rule_.dims; ++k) {
    // Unbiased uniform level in [0, levels) from the raw 64-bit output (same on every platform).
    const std::uint64_t bound = rule_.levels;
    const std::uint64_t limit = ~std::uint64_t{0} - (~std::uint64_t{0} % bound);
    std::uint64_t x = engine_();
    while (x >= limit) x = engine_();
    c.set_qos_level(k, static_cast<std::uint32_t>(x % bound));
  }
}

}  // namespace drivevp
