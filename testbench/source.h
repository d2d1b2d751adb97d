// Workload sources: anything that yields requests in arrival order (synthetic generators, trace
// readers, continuous-stream generators). Plain C++.
#pragma once

#include <cstdint>
#include <string>

#include "tlm_bus/command.h"

namespace drivevp {

/// A request as a source yields it. The host assigns Command::id at submission.
/// `command.arrival` is the arrival time relative to the start of the run.
struct SourceRequest {
  Command command;
  std::uint64_t origin_line = 0;  ///< trace line number (1-based), 0 for generated requests
  /// Closed loop only: the host issues this request no earlier than this long after the
  /// previous completion (DiskSim validate traces' recorded gap, ../shared/drives/README.md).
  /// 0: as soon as a slot frees.
  Time think_time{0};
  /// The service time measured on a real drive for this request (validate traces); < 0: none.
  /// Carried to RequestRecord::measured_service for requests.csv and the demerit.
  Time measured_service{-1};
};

/// Yields requests in non-decreasing arrival order. For closed-loop hosts the arrival times are
/// ignored and each request is submitted when a slot frees.
class WorkloadSource {
 public:
  virtual ~WorkloadSource() = default;
  /// Writes the next request into `out`; returns false at the end of the workload.
  /// Throws TraceError (testbench/trace/trace_reader.h) on malformed input in strict mode.
  virtual bool next(SourceRequest& out) = 0;
  /// One line describing the source, for the run summary.
  virtual std::string describe() const = 0;
};

}  // namespace drivevp
