// The MEMS device's scenario keys ([device] section with a mems_* preset), declared beside
// mems::MemsParams: name, type, range, unit, description with the value's source. The scenario
// loader reads them generically (hw_models/param_keys.h).
#pragma once

#include <vector>

#include "hw_models/mems/mems_params.h"
#include "hw_models/param_keys.h"

namespace drivevp::mems {

/// Every MemsParams member a scenario may set, as "device.<name>" (the preset itself is
/// device.preset). Ranges are those of MemsParams::validate(); cross-member conditions (bit length
/// within the travel, active tips within the tips) are checked by validate() after all keys.
const std::vector<ParamKey<MemsParams>>& mems_param_keys();

}  // namespace drivevp::mems
