// The drive controller firmware as a SystemC module: host interface, command queue, scheduling
// policy, dispatcher, completion; the media access is its MediaDriver (media_driver.h).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <systemc>
#include <tlm>

#include "firmware/controller/media_driver.h"
#include "firmware/policy.h"
#include "firmware/predictor.h"
#include "tlm_bus/sc/address_map.h"
#include "tlm_bus/sc/command_extension.h"
#include "tlm_bus/sc/irq.h"
#include "tlm_bus/sc/register_bank.h"
#include "waveforms/tracer.h"

namespace drivevp {

/// Controller parameters (scenario keys under [firmware]).
struct ControllerParams {
  /// Commands the firmware accepts at once (submission/completion queue entries, NCQ depth),
  /// in [1, 65536]. Default 64.
  std::uint32_t queue_depth = 64;
};

/// The controller firmware: the device-independent part. It reacts to interrupts with short
/// handlers (SC_METHODs), never waits in a loop, and drives the hardware only through bus
/// transactions. The device-specific part, the media access, is its MediaDriver (an sc_module
/// child named "media", built in the constructor by the platform's MediaDriverFactory; the disk's
/// is DiskMediaDriver), which reaches the bus through this controller (ControllerServices):
///  1. boot (start of simulation): the driver reads the device's parameter page and builds its
///     predictor (MediaDriver::boot);
///  2. doorbell: fetches submission entries from host memory by DMA and hands them to the policy;
///     a command whose blocks are not all within the capacity completes at once with
///     kStatusInvalidLba and never reaches the policy;
///  3. when the media is free: asks the policy for a Decision; for Serve it spends the command
///     overhead once and hands the decision's commands (Decision::command, then Decision::batch)
///     to the driver as one media access, each with a service log holding the dispatch time;
///     for Reposition it hands the decision to the driver;
///  4. when the driver reports the access done: posts one completion entry per command, in the
///     order of the decision, each with its own service log and status, raising the completion
///     interrupt; then, when every command succeeded, fetches submissions posted meanwhile; then
///     dispatches again.
/// DMA reaches the device's sector buffer through DMI (granted by the device through the router,
/// revoked when the buffer is reallocated) so that data moves in one transaction between the
/// buffer and host memory; without DMI it goes through a staging buffer in two.
/// Bus latencies accumulate in a local time offset (loosely timed) that annotates every access,
/// so the hardware sees each command at the time the firmware would issue it.
/// The command overhead is the driver's (MediaDriver::command_overhead: the disk's may select it by
/// cache hit and previous command, docs/models/cache.md); while the driver is busy with background
/// work (a read-ahead) and a command waits, dispatch asks it to stop (yield_background); when the
/// policy has nothing to serve, the driver may start background work (on_idle: a write-back flush).
/// Does not model: firmware CPU time beyond the command overhead, error recovery.
///
/// Host-interface registers: docs/registers.md "Controller host interface".
class Controller : public sc_core::sc_module, private ControllerServices {
 public:
  tlm_utils::simple_target_socket<Controller> host_socket;  ///< host-interface registers
  tlm_utils::simple_initiator_socket<Controller> bus;       ///< to the router
  InterruptLine completion_irq{"completion_irq"};

  /// `policy` must not be null; `make_driver` builds the media driver of the device (a child of
  /// this module). Throws std::invalid_argument for a queue depth outside [1, 65536].
  Controller(sc_core::sc_module_name name, const ControllerParams& params, std::unique_ptr<SchedulingPolicy> policy,
             const MediaDriverFactory& make_driver, Tracer* tracer);

  const Predictor& predictor() const { return driver_->predictor(); }
  const MediaDriver& driver() const { return *driver_; }
  const SchedulingPolicy& policy() const { return *policy_; }
  std::uint64_t completed() const { return completed_; }
  /// Called for every Serve decision from inside the dispatcher: the decision, its dispatch time
  /// (the commands' ServiceLog dispatch time, which may lie after the current simulated time by
  /// the handler's local time offset) and the context the policy decided in. Used by the
  /// testbench's round waveforms (testbench/sim/rounds_trace.h); none by default.
  using DispatchObserver = std::function<void(const Decision&, Time dispatch, const SchedulingContext&)>;
  void set_dispatch_observer(DispatchObserver observer) { dispatch_observer_ = std::move(observer); }
  std::uint64_t media_errors() const { return media_errors_; }

 private:
  void start_of_simulation() override;
  void host_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  void on_doorbell();
  /// A doorbell write whose annotated delay is `delay`: served at once when that cannot change
  /// what happens (doorbell_inline()), else at its time through doorbell_event_.
  void ring(const sc_core::sc_time& delay);
  void on_wake();
  void fetch();
  void dispatch();
  /// Writes a completion entry for `command` to the host's CQ and raises the completion interrupt.
  void post_completion(const Command& command, const amap::ServiceLog& log, std::uint32_t status);
  /// At the end of every handler: raises the completion interrupt held back by post_completion
  /// (completion_due_), served at once when that cannot change what happens.
  void deliver_completion();
  SchedulingContext context(Time at) const;
  /// Pointer to the sector buffer through DMI, covering `bytes`; null when not granted.
  std::uint8_t* channel_buffer(std::size_t bytes);
  /// Pointer to `bytes` of a host queue (submission or completion) at bus address `address`
  /// through DMI `dmi` (requested when not `valid`); null when queue DMI is off or not granted.
  std::uint8_t* host_queue(tlm::tlm_dmi& dmi, bool& valid, std::uint64_t address, std::size_t bytes);
  void invalidate_dmi(sc_dt::uint64 start, sc_dt::uint64 end);
  // ControllerServices (media_driver.h). Bus helpers: every access annotates offset_ and checks
  // the response.
  void bus_access(tlm::tlm_command cmd, std::uint64_t address, void* data, std::size_t length,
                  const Command* command = nullptr) override;
  std::uint64_t read_reg(std::uint64_t address, unsigned width) override;
  void write_reg(std::uint64_t address, std::uint64_t value, unsigned width, const Command* command = nullptr) override;
  sc_core::sc_time& offset() override { return offset_; }
  void dma(const Command& command, bool to_host, std::size_t bytes, std::uint64_t buffer_offset = 0,
           std::uint64_t host_offset = 0) override;
  std::optional<Time> dmi_write_latency() const override { return dmi_write_latency_; }
  bool transactions_observed() const override { return traced_; }
  bool holds_only(std::size_t commands) const override { return held_ == commands && sq_head_ == sq_tail_; }
  void set_media_state(std::uint8_t state) override { state_trace_ = state; }
  void access_done(const std::vector<MediaResult>& results) override;
  void reposition_done() override;

  ControllerParams params_;
  std::unique_ptr<SchedulingPolicy> policy_;
  DispatchObserver dispatch_observer_;
  std::unique_ptr<MediaDriver> driver_;
  RegisterBank regs_;
  sc_core::sc_time offset_;  ///< local time offset of the running handler
  sc_core::sc_event doorbell_event_;
  sc_core::sc_event wake_event_;
  std::uint32_t sq_tail_ = 0, sq_head_ = 0, cq_tail_ = 0, cq_head_ = 0;
  std::uint32_t held_ = 0;                   ///< commands fetched and not yet completed
  std::vector<std::uint64_t> data_address_;  ///< by tag
  std::vector<std::uint8_t> staging_;        ///< DMA staging buffer (only without DMI)
  std::vector<MediaResult> access_;          ///< the decision being handed to the driver
  tlm::tlm_dmi dmi_;                         ///< the channel's sector buffer
  bool dmi_valid_ = false;
  /// Doorbells may be served inside the host's write: untraced run and a driver that allows it
  /// (MediaDriver::serves_doorbell_inline).
  bool inline_doorbell_ = false;
  bool in_handler_ = false;  ///< an inline doorbell is being served (no nesting)
  /// Untraced runs: the submission entries are read and the completion entries written through
  /// DMI to host memory (granted latency = the router's, so the same times; traced runs keep the
  /// bus transactions, which the router's waveform counters show). Off after a refusal.
  bool queue_dmi_ = false;
  bool traced_ = false;           ///< the run writes waveforms (ControllerServices::transactions_observed)
  tlm::tlm_dmi sq_dmi_, cq_dmi_;  ///< host memory of the submission and completion queues
  bool sq_dmi_valid_ = false, cq_dmi_valid_ = false;
  /// The earliest delay at which the running handler raised the completion interrupt, held back
  /// until the handler's end (only with inline doorbells and a host that serves the line directly).
  std::optional<sc_core::sc_time> completion_due_;
  std::optional<Time> dmi_write_latency_;  ///< of the latest DMI grant; none before one or after a refusal
  /// Since when a pending command has waited for a background activity that stops for it
  /// (MediaDriver::background_stops()): its overhead runs from then.
  std::optional<Time> background_wait_;
  std::uint64_t completed_ = 0;
  std::uint64_t media_errors_ = 0;
  tlm::tlm_generic_payload trans_;
  CommandExtension extension_;  ///< attached to trans_ for command-related accesses
  // Traceable state (waveform group "firmware").
  Traced<std::uint32_t> queue_depth_{0};
  Traced<std::uint64_t> current_id_{0};
  Traced<std::uint64_t> current_lbn_{0};
  Traced<std::uint8_t> state_trace_{0};
  Traced<std::uint64_t> decisions_{0};
  Traced<double> predicted_positioning_ms_{0};
};

}  // namespace drivevp
