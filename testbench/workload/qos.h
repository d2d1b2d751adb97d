// Request QoS vectors (issue 11; paper 001 §2 and §5.1): the scenario rule that gives every
// submitted request D independent priority parameters, each a level in [0, N). Plain C++.
//
// 001 §5.1: "disk requests with four QoS parameters that arrive exponentially with mean
// interarrival time 25 msec"; §5.2.1 goes to 12 dimensions of 16 levels and to 256 levels in 4-D.
// The paper does not say how the parameters are distributed; here each level is drawn uniformly
// and independently (the "uniform" rule), for synthetic workloads and trace replay alike (a trace
// carries no QoS vector, so the rule draws one per request). Level 0 is the highest priority
// (001 §3: lower curve value, served first).
//
// The vector is Command::qos (tlm_bus/command.h), one byte per dimension: any D <= 16 with any
// N <= 256 fits (16 x 256 levels is 128 bits), and it crosses the bus in the submission entry.
#pragma once

#include <cstdint>
#include <random>
#include <string>

#include "tlm_bus/command.h"

namespace drivevp {

/// A QoS rule (scenario keys workload.qos_dims, workload.qos_levels).
struct QosRule {
  unsigned dims = 0;       ///< D, in [0, 16]; 0: requests carry no QoS vector (the default)
  unsigned levels = 16;    ///< N, in [2, 256]
  std::uint64_t seed = 1;  ///< the draws' seed (run.seed with a salt; scenario.cpp)

  bool enabled() const { return dims > 0; }
  /// Throws std::invalid_argument naming the offending member, its allowed range and the value.
  void validate() const;
  /// e.g. "4 dimensions x 16 levels, uniform".
  std::string describe() const;
};

/// Applies a QosRule to commands in submission order: D uniform draws per command from the rule's
/// own std::mt19937_64, so a scenario and seed give the same vectors whatever the policy does.
/// Not thread-safe (one per host).
class QosAssigner {
 public:
  /// Throws std::invalid_argument if `rule` does not validate.
  explicit QosAssigner(QosRule rule);
  /// Sets c.qos to D fresh levels (no-op when the rule is disabled).
  void assign(Command& c);
  const QosRule& rule() const { return rule_; }

 private:
  QosRule rule_;
  std::mt19937_64 engine_;
};

}  // namespace drivevp
