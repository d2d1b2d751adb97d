// The disk's scenario keys ([device] section with a disk preset), declared beside DiskParams:
// name, type, range, unit and a description with the source of each preset's value. The scenario
// loader reads them generically (hw_models/param_keys.h).
#pragma once

#include <vector>

#include "hw_models/disk/disk_params.h"
#include "hw_models/param_keys.h"

namespace drivevp {

/// Every DiskParams member a scenario may set, as "device.<name>" (the preset itself is
/// device.preset), in the order the loader applies them: device.cylinders before
/// device.sectors_per_track and device.zones, which depend on it. Ranges are those of
/// DiskParams::validate(). Rules the declarations carry beyond a range:
/// - device.cylinders on a single-zone disk keeps one zone over all cylinders;
/// - device.sectors_per_track makes the disk single-zone (one zone over device.cylinders);
/// - device.zones: [first_cylinder, cylinders, sectors_per_track] triples, 1 to 64
///   (ParameterPage::kMaxZones), each starting where the previous ended, together covering
///   exactly device.cylinders (KeyValueError naming the zone or the whole value otherwise);
/// - device.seek_table: [distance, ms] pairs with distances strictly increasing (KeyValueError
///   naming the pair).
/// Conditions across members (skews below the sectors per track, the seek curve's coefficients)
/// are checked by DiskParams::validate() after all keys.
const std::vector<ParamKey<DiskParams>>& disk_param_keys();

}  // namespace drivevp
