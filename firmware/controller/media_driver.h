// The seam between the device-independent controller (host interface, command queue, policy,
// dispatch, completion) and the media driver of one device kind (disk: seek, then transfer; MEMS:
// sled move, then parallel tip access). docs/models/firmware.md "Controller and media driver".
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <systemc>
#include <tlm>

#include "firmware/policy.h"
#include "firmware/predictor.h"
#include "tlm_bus/command.h"
#include "tlm_bus/sc/address_map.h"

namespace drivevp {

/// One command of a media access and what became of it: the driver fills the service log's
/// media fields (positioning and transfer times, position) and the status.
struct MediaResult {
  Command command{};
  /// dispatch_ps and predicted_positioning_ps are filled by the controller before the access
  /// (the decision's start; the prediction only for the decision's first command, -1 for the
  /// others); the driver fills the rest.
  amap::ServiceLog log{};
  std::uint32_t status = amap::kStatusOk;  ///< amap::kStatusOk or amap::kStatusMediaError
};

/// What the controller offers its media driver. Every bus access goes through the controller's
/// one initiator socket and annotates the running handler's local time offset (loosely timed),
/// so the order of accesses is the order of calls.
class ControllerServices {
 public:
  /// One bus transaction of `length` bytes at `address`; `command`, when given, travels with it
  /// as a CommandExtension. A response error is reported with SC_REPORT_ERROR.
  virtual void bus_access(tlm::tlm_command cmd, std::uint64_t address, void* data, std::size_t length,
                          const Command* command = nullptr) = 0;
  /// A register read of `width` bytes (1..8), little-endian.
  virtual std::uint64_t read_reg(std::uint64_t address, unsigned width) = 0;
  /// A register write of `width` bytes (1..8).
  virtual void write_reg(std::uint64_t address, std::uint64_t value, unsigned width,
                         const Command* command = nullptr) = 0;
  /// The running handler's local time offset. An interrupt handler of the driver starts with
  /// reset_offset().
  virtual sc_core::sc_time& offset() = 0;
  void reset_offset() { offset() = sc_core::SC_ZERO_TIME; }
  /// Moves `bytes` of `command`'s data between the device's sector buffer (amap::kChannelBuffer +
  /// `buffer_offset`) and the command's host buffer: to the host (a read) or from it (a write).
  /// Through DMI when granted (one transaction), else through a staging buffer (two).
  virtual void dma(const Command& command, bool to_host, std::size_t bytes, std::uint64_t buffer_offset = 0,
                   std::uint64_t host_offset = 0) = 0;
  /// The write latency of the sector buffer's latest DMI grant; none before a grant or after a
  /// refusal (the data DMA then takes two bus transactions).
  virtual std::optional<Time> dmi_write_latency() const = 0;
  /// True when each bus transaction is observed (a traced run: the router's waveform counters
  /// show every one): the driver then issues each access as its own transaction. False lets it
  /// read adjacent registers in one burst when it spends the time of the separate reads.
  virtual bool transactions_observed() const { return true; }
  /// True when the firmware holds exactly `commands` commands (fetched, not yet completed) and no
  /// submission waits to be fetched: once the driver completes those, nothing is left to dispatch
  /// until the host rings the doorbell again (an event). Default: false (unknown).
  virtual bool holds_only(std::size_t commands) const {
    (void)commands;
    return false;
  }
  /// Sets the traced media state ("firmware.state"; values index MediaDriver::state_names()).
  virtual void set_media_state(std::uint8_t state) = 0;
  /// The media access of a Serve decision ended: posts one completion entry per result, in the
  /// order given, each with its own service log and status, then (when every status is OK)
  /// fetches submissions the host posted meanwhile, then asks the policy again. The driver must
  /// be idle (busy() false) when it calls this, or in a background activity it stops on
  /// MediaDriver::yield_background() (a read-ahead).
  virtual void access_done(const std::vector<MediaResult>& results) = 0;
  /// A Reposition ended (no command completes): asks the policy again. The driver must be idle.
  virtual void reposition_done() = 0;

 protected:
  ~ControllerServices() = default;
};

/// The device-specific part of the firmware: boots from the device's parameter page, owns the
/// positioning predictor and the media position, and executes a decision's media access through
/// the device's registers and interrupts. An implementation is an sc_module child of the
/// controller (for its interrupt handlers, SC_METHODs), built in the controller's constructor by a
/// MediaDriverFactory.
class MediaDriver {
 public:
  virtual ~MediaDriver() = default;
  /// The device kind the driver drives, e.g. "disk".
  virtual std::string_view device_kind() const = 0;
  /// Names of the driver's media states, indexed by the value of set_media_state(); [0] is the
  /// idle state (the waveform translate filter of "firmware.state").
  virtual std::vector<std::string> state_names() const = 0;
  /// At start of simulation (the controller's boot, local offset zero): reads the device's
  /// parameter page and whatever else the predictor needs over the bus, builds the predictor.
  virtual void boot() = 0;
  /// The firmware's predictor of the device, valid after boot().
  virtual const Predictor& predictor() const = 0;
  /// Where the media is (what the policy's context reports; read by predictor()).
  virtual MediaPosition position() const = 0;
  /// True while a media access or a reposition is under way.
  virtual bool busy() const = 0;
  /// Starts the media access of one Serve decision: `batch` holds the decision's command first,
  /// then Decision::batch in order (>= 1 entry). The controller has already spent the command
  /// overhead on its offset. The driver reports the end once, with access_done(), one result
  /// per command in the order given. A batch the device cannot serve in one access is a
  /// configuration error (SC_REPORT_ERROR naming the device and the reason). The driver takes the
  /// entries by swapping `batch` with a buffer of its own; `batch` comes back empty (holding that
  /// buffer's capacity, for the caller to reuse: no allocation per access).
  virtual void serve(std::vector<MediaResult>& batch) = 0;
  /// Starts a Decision::Reposition (move to Decision::sweep_coordinate without transfer); reports
  /// reposition_done().
  virtual void reposition(const Decision& decision) = 0;
  /// The sector buffer's DMI grant changed (dmi_write_latency()): the predictor's command path
  /// follows it.
  virtual void dma_path_changed() = 0;
  /// The firmware's overhead before serving a decision whose first command is `first` (the
  /// controller spends it on its offset before serve()). Default: the predictor's one command
  /// overhead; a driver with a cache selects it by hit/miss and the previous command.
  virtual Time command_overhead(const Command& first) {
    (void)first;
    return predictor().command_overhead();
  }
  /// A command is waiting while the driver is busy: a background activity that may stop (a
  /// read-ahead into idle time) stops as soon as it may and, once stopped, reports
  /// reposition_done(). Default: nothing to stop.
  virtual void yield_background() {}
  /// The driver is busy with background work a waiting command stops (a read-ahead) or waits for
  /// (a write-back flush): the command's overhead runs meanwhile, from when the controller first
  /// found the command waiting (DiskSim 4.0 src/disksim_diskctlr.c: disk_read_arrive and
  /// disk_write_arrive set a request's overhead_done from its arrival, disk_activate_read /
  /// disk_activate_write stop the read-ahead through disk_buffer_stopable_access and
  /// disk_buffer_stop_access, and disk_check_hda delays the seek only by what is left of the
  /// overhead). Default: none.
  virtual bool background_stops() const { return false; }
  /// The policy has nothing to serve and the driver is idle: it may start background work (a
  /// write-back flush), reporting reposition_done() when it ends. Default: none.
  virtual void on_idle() {}
  /// True when every time the driver and its device derive during a doorbell's handling comes
  /// from the controller's offset (sim time + offset(), or absolute times), never from the
  /// simulated time alone: the controller may then serve a doorbell inside the host's register
  /// write, at the write's annotated time, instead of one timed event later (Controller::
  /// host_transport). Default: false (the doorbell is always an event).
  virtual bool serves_doorbell_inline() const { return false; }
};

/// Builds the driver as a child of the controller under construction (`services` is that
/// controller). The platform supplies it, binding the device's interrupt lines.
using MediaDriverFactory = std::function<std::unique_ptr<MediaDriver>(ControllerServices& services)>;

}  // namespace drivevp
