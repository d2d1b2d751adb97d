// The disk's media driver: boot from the disk's parameter page and spindle, then every media
// access as a seek (actuator) followed by a transfer (read channel). docs/models/firmware.md.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <systemc>

#include "firmware/controller/media_driver.h"
#include "firmware/disk_predictor.h"
#include "tlm_bus/sc/irq.h"

namespace drivevp {

/// Drives the disk's actuator and read channel (register map: tlm_bus/devices/disk_registers.h,
/// docs/registers.md) for the controller, through its ControllerServices:
///  1. boot: reads the parameter page and the spindle's index time over the bus, times that
///     register read (the loosely-timed offset it adds: one bus access, the unit of the
///     firmware's own command path) and builds its DiskPredictor with that command path;
///  2. serve (after the controller spent the command overhead): for a write it sets the
///     channel's COUNT and DMAs the data from the host into the sector buffer; then one burst
///     programs the actuator (TARGET_CYLINDER, TARGET_HEAD, COMMAND = seek);
///  3. seek-done interrupt: one burst read from IRQ_ACK takes the status, acknowledges (read to
///     clear) and reads the seek log; one burst programs the read channel (LBN, COUNT, COMMAND);
///  4. transfer-done interrupt: one burst read from IRQ_ACK takes the status, acknowledges and
///     reads the transfer times; for a read it DMAs the data to the host buffer; the access ends
///     (ControllerServices::access_done).
/// An error status from either interrupt ends that command with amap::kStatusMediaError.
/// A batch (several commands in one decision) that is one contiguous run — every command of the
/// same op, each starting at the LBN where the one before it ends (the Linux elevators' merge
/// chains, docs/models/firmware.md "Merging") — is served as the block layer's merged request:
/// one seek to the first LBN and one channel transfer of all the blocks (for a write, COUNT is the
/// total and each command's data is DMAed to its offset in the sector buffer; for a read, each
/// command's data is DMAed from its offset), and every command's log is the merged access's (its
/// own cylinder and head, the shared seek and transfer times). Any other batch is served one
/// command after another, each with its own seek and transfer. Either way the command overhead is
/// spent once for the decision and the commands complete together after the access. A Reposition seeks the arm to
/// Decision::cylinder on the current head and reads back the arm's cylinder. An interrupt that arrives in a state that
/// does not expect it is acknowledged and otherwise ignored.
class DiskMediaDriver : public sc_core::sc_module, public MediaDriver {
 public:
  DiskMediaDriver(sc_core::sc_module_name name, ControllerServices& services, InterruptLine& seek_done,
                  InterruptLine& transfer_done);

  /// A factory for Controller: the driver bound to the disk's seek-done and transfer-done lines.
  static MediaDriverFactory factory(InterruptLine& seek_done, InterruptLine& transfer_done);

  std::string_view device_kind() const override { return "disk"; }
  std::vector<std::string> state_names() const override;
  void boot() override;
  const Predictor& predictor() const override { return predictor_; }
  /// The disk predictor itself (geometry, rotation period, command path).
  const DiskPredictor& disk_predictor() const { return predictor_; }
  MediaPosition position() const override { return DiskPredictor::position_of(head_); }
  bool busy() const override { return state_ != State::Idle; }
  void serve(std::vector<MediaResult>& batch) override;
  void reposition(const Decision& decision) override;
  void dma_path_changed() override { predictor_.set_command_path(command_path()); }

 private:
  enum class State : std::uint8_t { Idle = 0, Seeking = 1, Transferring = 2, Repositioning = 3 };
  void set_state(State s);
  /// Starts the seek of batch_[index_] (and, for a write, moves its data in first).
  void start_command();
  /// batch_[index_] is done: starts the next command of the batch, or ends the access.
  void next_or_finish();
  /// Whether batch_ is one contiguous run of one op of more than one command (served as one
  /// seek and one transfer).
  bool contiguous_run() const;
  /// The device reported an error for batch_[index_] (for a merged run: for all of it).
  void fail();
  void on_seek_done();
  void on_transfer_done();
  /// The firmware's command path around a seek (DiskPredictor), from the bus access time
  /// measured at boot and the sector buffer's DMI grant.
  CommandPath command_path() const;

  ControllerServices& services_;
  InterruptLine& seek_done_;
  InterruptLine& transfer_done_;
  DiskPredictor predictor_;
  Time bus_access_time_{0};  ///< one register access on the bus, measured at boot
  State state_ = State::Idle;
  HeadPosition head_;
  std::vector<MediaResult> batch_;     ///< the access in progress
  std::vector<MediaResult> finished_;  ///< the access just finished, while access_done() posts it
  std::size_t index_ = 0;              ///< the command of batch_ in service
  bool merged_ = false;                ///< batch_ is served as one transfer (contiguous_run())
  std::uint32_t merged_blocks_ = 0;    ///< the blocks of that transfer
};

}  // namespace drivevp
