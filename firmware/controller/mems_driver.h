// The MEMS device's media driver: boot from the MEMS parameter page, then every media access as
// one device command (sled move, then parallel tip access), a batch decision as one kCmdBatch.
// docs/models/firmware.md "MEMS media driver".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <systemc>

#include "firmware/controller/media_driver.h"
#include "firmware/mems_predictor.h"
#include "tlm_bus/sc/irq.h"

namespace drivevp {

/// Drives the MEMS device (register map: tlm_bus/devices/mems_registers.h, docs/registers.md "MEMS
/// device") for the controller, through its ControllerServices:
///  1. boot: reads the parameter page and the sled's state over the bus, times that register read
///     (one bus access: the unit of the firmware's command path) and builds its MemsPredictor with
///     the command path to the device (MemsCommandPath);
///  2. serve (after the controller spent the command overhead), one command: for a write, COUNT and
///     the data DMA into the sector buffer; then one burst LBN, COUNT, COMMAND (read / write);
///     a batch of k > 1 commands: one burst writes the k batch-table entries, one BATCH_COUNT, then
///     COUNT = the blocks of all entries (sizing the sector buffer), each write's data DMA into its
///     slot (offset 512 x the blocks of the entries before it), and COMMAND = kCmdBatch;
///  3. done interrupt: one burst read from IRQ_ACK (status, acknowledge, the access's times), one
///     burst read of the sled's state (where the next positioning starts; when the transactions
///     are not observed, ControllerServices::transactions_observed(), the two are read as one
///     burst and the second read's bus access time is spent on the offset); each read's data DMA
///     from its slot to the host; the access ends (ControllerServices::access_done), every command
///     with the same service log times: seek = ACCESS_START_PS .. POSITIONING_END_PS (startup and
///     first positioning), transfer = POSITIONING_END_PS .. ACCESS_END_PS; log cylinder / head =
///     the first block's X index / physical row. An error status ends every command of the access
///     with amap::kStatusMediaError.
/// A Reposition moves the sled to X index Decision::sweep_coordinate on its current row (kCmdMove
/// with TARGET_*). An interrupt in a state that does not expect it is acknowledged and ignored.
class MemsMediaDriver : public sc_core::sc_module, public MediaDriver {
 public:
  MemsMediaDriver(sc_core::sc_module_name name, ControllerServices& services, InterruptLine& done);

  /// A factory for Controller: the driver bound to the device's done line.
  static MediaDriverFactory factory(InterruptLine& done);

  std::string_view device_kind() const override { return "mems"; }
  std::vector<std::string> state_names() const override;
  void boot() override;
  const Predictor& predictor() const override { return predictor_; }
  const MemsPredictor& mems_predictor() const { return predictor_; }
  MediaPosition position() const override { return MemsPredictor::position_of(sled_); }
  bool busy() const override { return state_ != State::Idle; }
  void serve(std::vector<MediaResult>& batch) override;
  void reposition(const Decision& decision) override;
  void dma_path_changed() override { predictor_.set_command_path(command_path()); }
  /// The driver and the MEMS device time everything from the offset or from absolute times.
  bool serves_doorbell_inline() const override { return true; }

 private:
  enum class State : std::uint8_t { Idle = 0, Accessing = 1, Repositioning = 2 };
  void set_state(State s);
  void on_done();
  /// Reads the sled's position (SLED_X_NM, SLED_Y_NM, SLED_Y_DIRECTION: one 20 B burst) into sled_.
  void read_sled();
  MemsCommandPath command_path() const;

  ControllerServices& services_;
  InterruptLine& done_;
  MemsPredictor predictor_;
  Time bus_access_time_{0};
  State state_ = State::Idle;
  MemsSledView sled_;
  std::vector<MediaResult> batch_;      ///< the access in progress
  std::vector<MediaResult> finished_;   ///< the access just finished, while access_done() posts it
  std::vector<std::uint64_t> offsets_;  ///< sector-buffer byte offset of each command's data
};

}  // namespace drivevp
