#include "hw_models/disk_drive.h"

#include <cstring>

#include "tlm_bus/sc/time.h"

namespace drivevp {

const DiskParams& DiskDrive::validated(const DiskParams& p) {
  p.validate();
  return p;
}

DiskDrive::DiskDrive(sc_core::sc_module_name name, const DiskParams& params, Tracer* tracer,
                     sc_core::sc_time sample_period)
    : sc_module(name),
      param_socket("param_socket"),
      params_(validated(params)),
      page_(params.parameter_page()),
      spindle("spindle", params_.rotation_period()),
      actuator("actuator", params_),
      channel("channel", params_, spindle, actuator),
      tracer_(tracer),
      sample_period_(sample_period) {
  param_socket.register_b_transport(this, &DiskDrive::param_transport);
  if (tracer_) {
    const std::string p = basename();
    spindle.trace(*tracer_, p + ".spindle");
    actuator.trace(*tracer_, p + ".actuator");
    channel.trace(*tracer_, p + ".channel");
    if (tracer_->enabled(TraceGroup::Mechanics)) {
      SC_HAS_PROCESS(DiskDrive);
      SC_THREAD(sample);
    }
  }
}

void DiskDrive::param_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time&) {
  const std::uint64_t off = trans.get_address();
  const std::uint64_t len = trans.get_data_length();
  if (!trans.is_read() || off + len > sizeof(ParameterPage)) {
    trans.set_response_status(trans.is_read() ? tlm::TLM_ADDRESS_ERROR_RESPONSE : tlm::TLM_COMMAND_ERROR_RESPONSE);
    return;
  }
  std::memcpy(trans.get_data_ptr(), reinterpret_cast<const std::uint8_t*>(&page_) + off, len);
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

void DiskDrive::sample() {
  // Runs only when the mechanics group is traced; updates the sampled signals while the window
  // is open.
  const DiskGeometry& g = channel.geometry();
  for (;;) {
    if (tracer_->live()) {
      const Time now = sim_now();
      const double phase = spindle.phase_at(now);
      spindle.angle_deg = phase * 360.0;
      const std::uint32_t spt = g.sectors_per_track(actuator.cylinder());
      spindle.sector_under_head = static_cast<std::uint32_t>(phase * spt);
      actuator.arm_position = actuator.arm_position_at(now);
    }
    wait(sample_period_);
  }
}

}  // namespace drivevp
