#include "hw_models/disk/actuator.h"

#include <cmath>

#include "tlm_bus/sc/time.h"

#include "tlm_bus/devices/disk_registers.h"

namespace drivevp {

Actuator::Actuator(sc_core::sc_module_name name, const DiskParams& params)
    : sc_module(name), socket("socket"), params_(params) {
  socket.register_b_transport(this, &Actuator::b_transport);
  auto u64 = [](auto v) { return static_cast<std::uint64_t>(v); };
  regs_.add(
      "TARGET_CYLINDER", disk_regs::actuator::kTargetCylinder, 4, [this, u64] { return u64(target_cylinder_); },
      [this](std::uint64_t v, tlm::tlm_generic_payload&) { target_cylinder_ = static_cast<std::uint32_t>(v); });
  regs_.add(
      "TARGET_HEAD", disk_regs::actuator::kTargetHead, 4, [this, u64] { return u64(target_head_); },
      [this](std::uint64_t v, tlm::tlm_generic_payload&) { target_head_ = static_cast<std::uint32_t>(v); });
  regs_.add("COMMAND", disk_regs::actuator::kCommand, 4, nullptr, [this](std::uint64_t v, tlm::tlm_generic_payload&) {
    if (v == disk_regs::actuator::kCmdSeek || v == disk_regs::actuator::kCmdSeekWrite) {
      for_write_ = v == disk_regs::actuator::kCmdSeekWrite;
      start_seek(regs_.access_delay());
    }
  });
  regs_.add("STATUS", disk_regs::actuator::kStatus, 4, [this] { return status(); });
  regs_.add("CYLINDER", disk_regs::actuator::kCylinder, 4, [this, u64] { return u64(cylinder_.get()); });
  regs_.add("HEAD", disk_regs::actuator::kHead, 4, [this, u64] { return u64(head_.get()); });
  // IRQ_ACK: a write acknowledges; a read returns STATUS and acknowledges (read to clear), so
  // that one burst from 0x18 takes the status, the acknowledge and the seek log together.
  regs_.add(
      "IRQ_ACK", disk_regs::actuator::kIrqAck, 4,
      [this] {
        const std::uint64_t s = status();
        acknowledge();
        return s;
      },
      [this](std::uint64_t, tlm::tlm_generic_payload&) { acknowledge(); });
  regs_.add("SEEK_START_PS", disk_regs::actuator::kSeekStartPs, 8, [this, u64] { return u64(seek_start_.count()); });
  regs_.add("SEEK_END_PS", disk_regs::actuator::kSeekEndPs, 8, [this, u64] { return u64(seek_end_.count()); });
  regs_.add("SEEK_DISTANCE", disk_regs::actuator::kSeekDistance, 4, [this, u64] { return u64(seek_distance_); });
  SC_HAS_PROCESS(Actuator);
  SC_METHOD(on_seek_done);
  sensitive << done_event_;
  dont_initialize();
}

std::uint64_t Actuator::status() const {
  return (busy_.get() ? disk_regs::kStatusBusy : 0u) | (done_pending_ ? disk_regs::kStatusDonePending : 0u) |
         (error_ ? disk_regs::kStatusError : 0u);
}

void Actuator::acknowledge() {
  done_pending_ = false;
  seek_done_irq.lower(regs_.access_delay());
}

void Actuator::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  catch_up(sim_now() + to_time(delay));
  regs_.access(trans, trans.get_address(), delay);
}

std::uint32_t Actuator::cylinder() {
  catch_up(sim_now());
  return cylinder_;
}

std::uint32_t Actuator::head() {
  catch_up(sim_now());
  return head_;
}

bool Actuator::busy() {
  catch_up(sim_now());
  return busy_;
}

Time Actuator::seek_time_to(std::uint32_t cylinder, std::uint32_t head) const {
  const std::uint32_t c = cylinder_;
  const std::uint32_t d = c > cylinder ? c - cylinder : cylinder - c;
  return positioning_seek(
      d, head != head_.get(), [this](std::uint32_t x) { return params_.seek_time(x); }, params_.settle(),
      params_.head_switch(), for_write_ ? params_.write_settle() : Time{0});
}

void Actuator::start_seek(const sc_core::sc_time& delay) {
  if (busy_ || target_cylinder_ >= params_.cylinders || target_head_ >= params_.heads) {
    error_ = true;
    done_pending_ = true;
    seek_done_irq.raise(delay);
    return;
  }
  error_ = false;
  const Time start = sim_now() + to_time(delay);
  const Time duration = seek_time_to(target_cylinder_, target_head_);
  from_cylinder_ = cylinder_;
  seek_distance_ = target_cylinder_ > cylinder_ ? target_cylinder_ - cylinder_ : cylinder_ - target_cylinder_;
  seek_start_ = start;
  seek_end_ = start + duration;
  busy_ = true;
  if (seek_distance_ > 0)
    arm_position_ = std::nextafter(static_cast<double>(cylinder_.get()), static_cast<double>(target_cylinder_));
  // Tickless: the interrupt is due at the seek's end and the state catches up when next looked
  // at (catch_up). Only a traced run also wakes the model then, so the waveform changes on time.
  seek_done_irq.raise(delay + to_sc(duration));
  if (busy_.live()) done_event_.notify(delay + to_sc(duration));
}

void Actuator::catch_up(Time at) {
  if (follow_.pending && at >= follow_.at) {  // a transfer crossed tracks and has ended
    follow_.pending = false;
    cylinder_ = follow_.cylinder;
    arm_position_ = static_cast<double>(follow_.cylinder);
    head_ = follow_.head;
  }
  if (!busy_ || at < seek_end_) return;
  cylinder_ = target_cylinder_;
  arm_position_ = static_cast<double>(target_cylinder_);
  head_ = target_head_;
  busy_ = false;
  done_pending_ = true;
}

void Actuator::on_seek_done() { catch_up(sim_now()); }

void Actuator::follow_transfer(Time at, std::uint32_t cylinder, std::uint32_t head) {
  follow_ = {true, at, cylinder, head};
}

void Actuator::trace(Tracer& tracer, const std::string& prefix) {
  tracer.add(TraceGroup::Mechanics, cylinder_, prefix + ".cylinder", WaveFormat::AnalogStep, 32);
  tracer.add(TraceGroup::Mechanics, head_, prefix + ".head", WaveFormat::Decimal, 32);
  tracer.add(TraceGroup::Mechanics, busy_, prefix + ".seeking", WaveFormat::Binary, 1);
  tracer.add(TraceGroup::Mechanics, arm_position_, prefix + ".arm_position", WaveFormat::AnalogInterpolated);
}

}  // namespace drivevp
