#include "hw_models/disk/disk_drive.h"

#include <cstring>

#include "tlm_bus/sc/time.h"

namespace drivevp {

const DiskParams& DiskDrive::validated(const DiskParams& p) {
  p.validate();
  return p;
}

DiskDrive::DiskDrive(sc_core::sc_module_name name, const DiskParams& params, Tracer* tracer)
    : sc_module(name),
      param_socket("param_socket"),
      params_(validated(params)),
      page_(params.parameter_page()),
      spindle("spindle", params_.rotation_period()),
      actuator("actuator", params_),
      channel("channel", params_, spindle, actuator),
      tracer_(tracer) {
  param_socket.register_b_transport(this, &DiskDrive::param_transport);
  if (tracer_) {
    const std::string p = basename();
    spindle.trace(*tracer_, p + ".spindle");
    actuator.trace(*tracer_, p + ".actuator");
    channel.trace(*tracer_, p + ".channel");
    if (tracer_->enabled(TraceGroup::Mechanics)) {
      SC_HAS_PROCESS(DiskDrive);
      SC_THREAD(ramps);
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

void DiskDrive::ramps() {
  const DiskGeometry& g = channel.geometry();
  const std::int64_t T = spindle.period().count();
  const sc_core::sc_time last = to_sc(Time{T - 1});
  const sc_core::sc_time one_ps = to_sc(Time{1});
  for (;;) {
    const std::int64_t now = sim_now().count();
    if (now % T != 0) wait(to_sc(Time{T - now % T}));  // to the next index
    if (tracer_->live()) {
      spindle.angle_mdeg = 0;
      spindle.sector_under_head = 0;
    }
    wait(last);
    if (tracer_->live()) {
      spindle.angle_mdeg = static_cast<std::uint32_t>(static_cast<__int128>(360'000) * (T - 1) / T);
      spindle.sector_under_head = g.sectors_per_track(actuator.cylinder()) - 1;
    }
    wait(one_ps);
  }
}

}  // namespace drivevp
