// The disk drive's hardware: spindle, actuator, read channel with media, and the parameter page.
#pragma once

#include <memory>

#include <tlm_utils/simple_target_socket.h>
#include <systemc>

#include "hw_models/disk/actuator.h"
#include "hw_models/disk/disk_params.h"
#include "hw_models/disk/read_channel.h"
#include "hw_models/disk/spindle.h"
#include "waveforms/tracer.h"

namespace drivevp {

/// Wires the disk's hardware models together and publishes the read-only parameter page
/// (ParameterPage, docs/registers.md) on its own target socket. Only wires: the models are the
/// submodules. When the mechanics group is traced, a process writes the spindle angle and the
/// slot under the head twice per revolution, at the index (0) and 1 ps before the next index (the
/// last value of the ramp), so that GTKWave's interpolated display draws the exact sawtooth
/// with no periodic sampling; it only writes while the trace window is open and does not exist
/// when tracing is off.
class DiskDrive : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<DiskDrive> param_socket;

 private:
  DiskParams params_;  // declared before the submodules, which keep references to it
  ParameterPage page_;

 public:
  /// Throws std::invalid_argument if `params` fails DiskParams::validate().
  DiskDrive(sc_core::sc_module_name name, const DiskParams& params, Tracer* tracer);

  const DiskParams& params() const { return params_; }
  const ParameterPage& parameter_page() const { return page_; }

  Spindle spindle;
  Actuator actuator;
  ReadChannel channel;

 private:
  static const DiskParams& validated(const DiskParams& p);
  void param_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  void ramps();
  Tracer* tracer_;
};

}  // namespace drivevp
