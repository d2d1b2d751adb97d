// Platform assembly and the run of one scenario. The platform only wires reusable models.
#pragma once

#include <memory>
#include <string>

#include <nlohmann/json.hpp>
#include <systemc>

#include "firmware/controller/controller.h"
#include "firmware/controller/disk_driver.h"
#include "firmware/controller/mems_driver.h"
#include "hw_models/disk/disk_drive.h"
#include "hw_models/mems/sc/mems_device.h"
#include "testbench/scenario/scenario.h"
#include "testbench/sim/host.h"
#include "testbench/sim/monitor.h"
#include "tlm_bus/sc/router.h"
#include "waveforms/tracer.h"

namespace drivevp {

/// The drive platform: host -> bus -> controller firmware -> bus -> device hardware. The device
/// factory builds the device scenario.device_kind names (device.preset): a disk (DiskDrive, with
/// the firmware's DiskMediaDriver) or a MEMS device (MemsDevice, with MemsMediaDriver), each mapped
/// at its register blocks (docs/registers.md "Address map").
/// Module names give the waveform hierarchy: host, bus, firmware, drive.{spindle,actuator,channel}
/// or mems.
class Platform {
 public:
  /// Elaborates the platform. `tracer` may be null (tracing off). `policy`, when given, replaces
  /// the scenario's policy (tests of the controller with a policy outside the registry).
  Platform(const Scenario& scenario, WorkloadSource& source, RequestSink sink, Tracer* tracer,
           std::unique_ptr<SchedulingPolicy> policy = nullptr);

  Router bus;
  std::unique_ptr<DiskDrive> drive;  ///< the disk, when the device is a disk (else null)
  std::unique_ptr<MemsDevice> mems;  ///< the MEMS device, when the device is MEMS (else null)
  Controller firmware;
  Host host;

  /// The device's media store.
  BackingStore& store() { return drive ? drive->channel.store() : mems->store(); }

 private:
  void bind_disk(Tracer* tracer);
  void bind_mems(Tracer* tracer);

  Traced<bool> seek_irq_, transfer_irq_, completion_irq_;
  Traced<std::uint64_t> bus_accesses_;
};

/// What a run produced.
struct RunResult {
  nlohmann::json summary;      ///< what summary.json holds
  bool checks_passed = false;  ///< conservation and data integrity held, no media error
  double wall_seconds = 0;
  std::uint64_t requests = 0;
  /// Non-empty when the drive was saturated (summary.json "saturation"): the console warning.
  std::string saturation_warning;
};

/// Runs `scenario` once in this process (SystemC allows one elaboration per process) and writes
/// its outputs to scenario.output_dir: summary.json, requests.csv, response_histogram.csv and,
/// when enabled, response_histogram.png / response_cdf.png, waves.vcd + waves.gtkw + the translate
/// filter files (+ waves.fst). The directory is locked for the whole run (OutputDirectory);
/// outputs are staged and committed only when the run succeeded, after which the directory holds
/// exactly this run's outputs (drivevp outputs of earlier runs that this run did not write are
/// removed; other files are left alone). A failed run leaves earlier outputs untouched and no
/// half-written file.
/// Throws TraceError (malformed trace, before anything is simulated or written), ConfigError,
/// OutputBusyError (another run holds the directory; before anything is simulated), OutputError
/// (the directory cannot be created or written, e.g. read-only or disk full),
/// sc_core::sc_report (simulation error).
RunResult run_scenario(const Scenario& scenario);

/// Formats the human-readable summary printed at the end of a run.
std::string format_summary(const RunResult& result);

}  // namespace drivevp
