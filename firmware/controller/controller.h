// The drive controller firmware as a SystemC module: host interface, command queue, scheduling
// policy, dispatcher.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <systemc>
#include <tlm>

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

/// The controller firmware. It reacts to interrupts with short handlers (SC_METHODs), never
/// waits in a loop, and drives the hardware only through bus transactions:
///  1. boot (start of simulation): reads the parameter page and the spindle's index time over
///     the bus, times that register read (the loosely-timed offset it adds) and builds its
///     PositioningPredictor with its own command path (command_path());
///  2. doorbell: fetches submission entries from host memory by DMA and hands them to the policy;
///     A command whose blocks are not all within the capacity completes at once with
///     kStatusInvalidLba and never reaches the policy;
///  3. when the media is free: asks the policy for a Decision; for Serve it spends the command
///     overhead; for a write it sets the channel's COUNT and DMAs the data from the host into the
///     channel's sector buffer; then one burst programs the actuator (TARGET_CYLINDER,
///     TARGET_HEAD, COMMAND=seek);
///  4. seek-done interrupt: one burst read from IRQ_ACK takes the status, acknowledges (read to
///     clear) and reads the seek log; one burst programs the read channel (LBN, COUNT, COMMAND);
///  5. transfer-done interrupt: one burst read from IRQ_ACK takes the status, acknowledges and
///     reads the transfer times;
///     DMAs read data to the host buffer, posts a completion entry with its service log, raises
///     the completion interrupt, dispatches again.
/// DMA reaches the sector buffer through DMI (granted by the channel through the router, revoked
/// when the buffer is reallocated) so that data moves in one transaction between the buffer and
/// host memory; without DMI it goes through a staging buffer in two.
/// Bus latencies accumulate in a local time offset (loosely timed) that annotates every access,
/// so the hardware sees each command at the time the firmware would issue it.
/// Does not model: firmware CPU time beyond the command overhead, caching, error recovery.
///
/// Host-interface registers: docs/registers.md "Controller host interface".
class Controller : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<Controller> host_socket;  ///< host-interface registers
  tlm_utils::simple_initiator_socket<Controller> bus;       ///< to the router
  InterruptLine completion_irq{"completion_irq"};

  Controller(sc_core::sc_module_name name, const ControllerParams& params, std::unique_ptr<SchedulingPolicy> policy,
             InterruptLine& seek_done, InterruptLine& transfer_done, Tracer* tracer);

  const PositioningPredictor& predictor() const { return predictor_; }
  const SchedulingPolicy& policy() const { return *policy_; }
  std::uint64_t completed() const { return completed_; }
  std::uint64_t media_errors() const { return media_errors_; }

 private:
  enum class State : std::uint8_t { Idle = 0, Seeking = 1, Transferring = 2, Repositioning = 3 };
  void start_of_simulation() override;
  void host_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  void on_doorbell();
  void on_seek_done();
  void on_transfer_done();
  void on_wake();
  void fetch();
  void dispatch();
  /// Completes the command in service with `status` and returns to Idle.
  void finish_current(std::uint32_t status);
  /// Writes a completion entry for `command` to the host's CQ and raises the completion interrupt.
  void post_completion(const Command& command, const amap::ServiceLog& log, std::uint32_t status);
  // Bus helpers: every access annotates offset_ and checks the response.
  void bus_access(tlm::tlm_command cmd, std::uint64_t address, void* data, std::size_t length,
                  const Command* command = nullptr);
  std::uint64_t read_reg(std::uint64_t address, unsigned width);
  void write_reg(std::uint64_t address, std::uint64_t value, unsigned width, const Command* command = nullptr);
  SchedulingContext context(Time at) const;
  /// The firmware's command path around a seek (PositioningPredictor), from the bus access time
  /// measured at boot and the sector buffer's DMI grant.
  CommandPath command_path() const;
  /// Moves the current command's data between the channel's sector buffer and its host buffer.
  void dma(bool to_host, std::size_t bytes);
  /// Pointer to the sector buffer through DMI, covering `bytes`; null when not granted.
  std::uint8_t* channel_buffer(std::size_t bytes);
  void invalidate_dmi(sc_dt::uint64 start, sc_dt::uint64 end);

  ControllerParams params_;
  std::unique_ptr<SchedulingPolicy> policy_;
  InterruptLine& seek_done_;
  InterruptLine& transfer_done_;
  PositioningPredictor predictor_;
  RegisterBank regs_;
  sc_core::sc_time offset_;  ///< local time offset of the running handler
  Time bus_access_time_{0};  ///< one register access on the bus, measured at boot
  sc_core::sc_event doorbell_event_;
  sc_core::sc_event wake_event_;
  std::uint32_t sq_tail_ = 0, sq_head_ = 0, cq_tail_ = 0, cq_head_ = 0;
  std::uint32_t held_ = 0;                   ///< commands fetched and not yet completed
  std::vector<std::uint64_t> data_address_;  ///< by tag
  std::vector<std::uint8_t> staging_;        ///< DMA staging buffer (only without DMI)
  tlm::tlm_dmi dmi_;                         ///< the channel's sector buffer
  bool dmi_valid_ = false;
  std::optional<Time> dmi_write_latency_;  ///< of the latest DMI grant; none before one or after a refusal
  State state_ = State::Idle;
  Command current_{};
  amap::ServiceLog log_{};
  HeadPosition head_;
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
