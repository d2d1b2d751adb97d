// MemsParams <-> MemsParameterPage (tlm_bus/devices/mems_page.h): the device publishes its page
// with make_mems_page; the firmware rebuilds the parameters with mems_params_from_page and gets
// values equal to the device's, so both compute the same times. Plain C++.
#pragma once

#include "hw_models/mems/mems_params.h"
#include "hw_models/mems/mems_seek.h"
#include "tlm_bus/devices/mems_page.h"

namespace drivevp::mems {

/// The page of a device with `params` (validated first: throws std::invalid_argument as
/// MemsParams::validate) and seek method `method`; header.page_bytes = sizeof(MemsParameterPage).
MemsParameterPage make_mems_page(const MemsParams& params, SeekMethod method = SeekMethod::Exact);

/// The parameters a page describes. Throws std::invalid_argument naming the field, what was
/// expected and what was found, when the magic, the version, the kind (must be DeviceKind::Mems),
/// page_bytes, the seek method, the layout or the bidirectional flag is wrong, when the parameters fail
/// MemsParams::validate, or when the published layout counts differ from the layout of the
/// parameters.
MemsParams mems_params_from_page(const MemsParameterPage& page);
/// The seek method a (checked) page names.
SeekMethod seek_method_from_page(const MemsParameterPage& page);

}  // namespace drivevp::mems
