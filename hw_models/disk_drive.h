// The disk drive's hardware: spindle, actuator, read channel with media, and the parameter page.
#pragma once

#include <memory>

#include <systemc>
#include <tlm_utils/simple_target_socket.h>

#include "hw_models/actuator.h"
#include "hw_models/disk_params.h"
#include "hw_models/read_channel.h"
#include "hw_models/spindle.h"
#include "waveforms/tracer.h"

namespace drivevp {

/// Wires the disk's hardware models together and publishes the read-only parameter page
/// (ParameterPage, docs/registers.md) on its own target socket. Only wires: the models are the
/// submodules. With a Tracer, a sampling process records the spindle angle, the sector under the
/// head and the arm position every `sample_period` while the trace window is open (it does not
/// exist when tracing is off).
class DiskDrive : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<DiskDrive> param_socket;

 private:
  DiskParams params_;  // declared before the submodules, which keep references to it
  ParameterPage page_;

 public:
  /// Throws std::invalid_argument if `params` fails DiskParams::validate().
  DiskDrive(sc_core::sc_module_name name, const DiskParams& params, Tracer* tracer,
            sc_core::sc_time sample_period);

  const DiskParams& params() const { return params_; }
  const ParameterPage& parameter_page() const { return page_; }

  Spindle spindle;
  Actuator actuator;
  ReadChannel channel;

 private:
  static const DiskParams& validated(const DiskParams& p);
  void param_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  void sample();
  Tracer* tracer_;
  sc_core::sc_time sample_period_;
};

}  // namespace drivevp
