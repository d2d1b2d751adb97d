#include "hw_models/disk/spindle.h"

#include "tlm_bus/sc/time.h"

#include "tlm_bus/devices/disk_registers.h"

namespace drivevp {

Spindle::Spindle(sc_core::sc_module_name name, Time period) : sc_module(name), socket("socket"), period_(period) {
  socket.register_b_transport(this, &Spindle::b_transport);
  regs_.add("PERIOD_PS", disk_regs::spindle::kPeriodPs, 8,
            [this] { return static_cast<std::uint64_t>(period_.count()); });
  // Time-dependent registers read at the access's time (now + annotated delay).
  regs_.add("INDEX_TIME_PS", disk_regs::spindle::kIndexTimePs, 8, [this] {
    const std::int64_t now = (sim_now() + to_time(regs_.access_delay())).count();
    return static_cast<std::uint64_t>(now - now % period_.count());
  });
  regs_.add("ANGLE", disk_regs::spindle::kAngle, 4, [this] {
    return static_cast<std::uint64_t>(phase_at(sim_now() + to_time(regs_.access_delay())) * 4294967296.0);
  });
  regs_.add(
      "INDEX_IRQ_ENABLE", disk_regs::spindle::kIndexIrqEnable, 4, [this] { return std::uint64_t{index_enabled_}; },
      [this](std::uint64_t v, tlm::tlm_generic_payload&) {
        const bool was = index_enabled_;
        index_enabled_ = v & 1;
        if (index_enabled_ && !was) {
          const std::int64_t now = sim_now().count();
          const std::int64_t at = now + to_time(regs_.access_delay()).count();
          index_event_.notify(to_sc(Time{at - now + period_.count() - at % period_.count()}));
        }
      });
  regs_.add("IRQ_ACK", disk_regs::spindle::kIrqAck, 4, nullptr,
            [this](std::uint64_t, tlm::tlm_generic_payload&) { index_irq.lower(regs_.access_delay()); });
  SC_HAS_PROCESS(Spindle);
  SC_METHOD(on_index);
  sensitive << index_event_;
  dont_initialize();
}

double Spindle::phase_at(Time t) const {
  return static_cast<double>(t.count() % period_.count()) / static_cast<double>(period_.count());
}

void Spindle::on_index() {
  if (!index_enabled_) return;
  index_irq.raise();
  index_event_.notify(to_sc(period_));
}

void Spindle::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  regs_.access(trans, trans.get_address(), delay);
}

void Spindle::trace(Tracer& tracer, const std::string& prefix) {
  tracer.add_plain(TraceGroup::Mechanics, angle_mdeg, prefix + ".angle_mdeg", WaveFormat::AnalogInterpolated, 32);
  tracer.add_plain(TraceGroup::Mechanics, sector_under_head, prefix + ".sector_under_head",
                   WaveFormat::AnalogInterpolated, 32);
}

}  // namespace drivevp
