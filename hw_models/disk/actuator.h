// Actuator (arm) model.
#pragma once

#include <cstdint>

#include <tlm_utils/simple_target_socket.h>
#include <systemc>
#include <tlm>

#include "hw_models/disk/disk_params.h"
#include "tlm_bus/sc/irq.h"
#include "tlm_bus/sc/register_bank.h"
#include "waveforms/tracer.h"

namespace drivevp {

/// The arm and head selector, tickless: a seek command computes its end time from the seek
/// profile (DiskParams::seek_time: the published curve or a table of samples), settle and head
/// switch, by the rule of positioning_seek() (tlm_bus/param_page.h), and schedules seek_done for
/// then; the state (cylinder, head, busy) is derived from time when next accessed, so an untraced
/// seek costs no wake-up of the model.
/// Models: current cylinder and head, seek distance and time. Does not model the arm's
/// trajectory (the waveform arm_position moves one ulp towards the target when a seek starts and
/// reaches it when the seek ends, so that GTKWave's interpolated display draws a linear move),
/// thermal recalibration, or seek errors.
///
/// Registers (docs/registers.md "Actuator"): TARGET_CYLINDER 0x00 RW32, TARGET_HEAD 0x04 RW32,
/// COMMAND 0x08 WO32 (1 = seek), STATUS 0x0C RO32 (bit0 busy, bit1 done pending, bit2 error),
/// CYLINDER 0x10 RO32, HEAD 0x14 RO32, IRQ_ACK 0x18 RW32 (write: acknowledge; read: STATUS,
/// then acknowledge), SEEK_START_PS 0x20 RO64, SEEK_END_PS 0x28 RO64, SEEK_DISTANCE 0x30 RO32.
class Actuator : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<Actuator> socket;
  InterruptLine seek_done_irq{"seek_done_irq"};

  Actuator(sc_core::sc_module_name name, const DiskParams& params);

  /// Current cylinder, head and busy flag at the current simulated time.
  std::uint32_t cylinder();
  std::uint32_t head();
  bool busy();
  /// Brings the state up to time `at`: a seek whose end is due has completed.
  void catch_up(Time at);
  /// The heads end up on (cylinder, head) at time `at` without a seek command: the read channel
  /// announces this when a transfer will cross into later tracks (head switches or one-cylinder
  /// seeks, timed by the channel); applied by catch_up once `at` is reached.
  void follow_transfer(Time at, std::uint32_t cylinder, std::uint32_t head);
  /// Seek time from the current position to (cylinder, head) by the true profile.
  Time seek_time_to(std::uint32_t cylinder, std::uint32_t head) const;
  void trace(Tracer& tracer, const std::string& prefix);

 private:
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  void start_seek(const sc_core::sc_time& delay);
  std::uint64_t status() const;
  void acknowledge();
  void on_seek_done();
  const DiskParams& params_;
  Traced<std::uint32_t> cylinder_{0};
  Traced<std::uint32_t> head_{0};
  Traced<bool> busy_{false};
  Traced<double> arm_position_{0.0};
  struct Follow {
    bool pending = false;
    Time at{0};
    std::uint32_t cylinder = 0;
    std::uint32_t head = 0;
  } follow_;
  std::uint32_t target_cylinder_ = 0;
  std::uint32_t target_head_ = 0;
  std::uint32_t from_cylinder_ = 0;
  bool done_pending_ = false;
  bool error_ = false;
  bool for_write_ = false;  ///< the seek under way was commanded with kCmdSeekWrite
  Time seek_start_{0};
  Time seek_end_{0};
  std::uint32_t seek_distance_ = 0;
  sc_core::sc_event done_event_;
  RegisterBank regs_;
};

}  // namespace drivevp
