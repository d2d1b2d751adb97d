// The paper-002 MEMS policies (firmware/policies/mems/queue.h) as firmware SchedulingPolicies: a
// command becomes a mems_sched::Request at the (x, y, region) the MEMS predictor locates, and each
// decision is a batch decision (Decision::serve_batch) of the requests the queue serves at one
// (x, y), cut to what the device can serve in one access. docs/models/mems-policies.md.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "firmware/policy.h"

namespace drivevp {

/// Builds the firmware policy over mems_sched queue `key` (mems_sched::queue_keys()) with the
/// policy parameters `params` (zones_x, zones_y for the zone policies). Throws
/// std::invalid_argument for an unknown key.
std::unique_ptr<SchedulingPolicy> make_mems_policy(std::string_view key, const PolicyParams& params);

/// Registry entries of the policies that exist only for MEMS: P-SPTF, PA-SPTF, ZSPTF, ZSCAN-PSPTF,
/// ZPSPTF (002 §2.2, §3). FCFS, SSTF and SPTF are shared keys whose factories build the MEMS
/// queue on a MEMS device (firmware/policies/fcfs.cpp, sstf.cpp, sptf.cpp).
std::vector<PolicyInfo> describe_mems_policies();

}  // namespace drivevp
