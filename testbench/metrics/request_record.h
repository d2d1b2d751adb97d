// The per-request record the monitor produces on every completion: one row of requests.csv.
#pragma once

#include <cstdint>

#include "tlm_bus/command.h"

namespace drivevp {

/// Everything measured about one request, in simulated time. Invariants:
/// arrival <= dispatch <= seek_start <= seek_end <= transfer_start <= transfer_end <= completion;
/// response = completion - arrival; queue_wait = dispatch - arrival;
/// service = completion - dispatch = overhead + seek + rotational latency + transfer + (bus/DMA).
struct RequestRecord {
  Command command;
  Time dispatch{0};  ///< firmware picked the request
  Time seek_start{0};
  Time seek_end{0};                 ///< arm settled on the target track
  Time transfer_start{0};           ///< first target sector under the head (seek_end + rotational latency)
  Time transfer_end{0};             ///< last sector read or written
  Time completion{0};               ///< host saw the completion
  std::uint32_t cylinder = 0;       ///< cylinder of the first block
  std::uint32_t head = 0;           ///< head of the first block
  std::uint32_t seek_distance = 0;  ///< cylinders moved for this request's initial seek
  Time predicted_positioning{-1};   ///< the policy's prediction (seek + rotation), <0 if none
  bool data_ok = true;              ///< data-integrity check result (reads)
  /// The service time a real drive took for this request (validate traces,
  /// SourceRequest::measured_service), < 0 if none.
  Time measured_service{-1};

  Time queue_wait() const { return dispatch - command.arrival; }
  Time seek() const { return seek_end - seek_start; }
  Time rotational_latency() const { return transfer_start - seek_end; }
  Time transfer() const { return transfer_end - transfer_start; }
  Time service() const { return completion - dispatch; }
  Time response() const { return completion - command.arrival; }
};

}  // namespace drivevp
