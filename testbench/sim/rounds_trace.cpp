#include "testbench/sim/rounds_trace.h"

#include <stdexcept>

#include "tlm_bus/sc/time.h"

namespace drivevp {

namespace {
constexpr std::uint8_t kPeriodC = 0, kPeriodD = 1;
constexpr std::uint8_t kIdle = 0, kServingC = 1, kServingD = 2;
}  // namespace

RoundsTrace::RoundsTrace(sc_core::sc_module_name name, const Options& options, Tracer& tracer,
                         const SchedulingPolicy& policy)
    : sc_module(name), options_(options), policy_(policy), tracer_(tracer), apply_event_("apply_event") {
  if (!tracer.enabled(TraceGroup::Rounds)) throw std::invalid_argument("RoundsTrace: the tracer does not trace rounds");
  if (options_.round_length < Time{0}) throw std::invalid_argument("RoundsTrace: negative round length");
  const bool fixed = options_.round_length > Time{0};
  SC_HAS_PROCESS(RoundsTrace);
  SC_METHOD(apply_due);
  sensitive << apply_event_;
  dont_initialize();
  SC_METHOD(end_pulse);
  sensitive << pulse_end_;
  dont_initialize();
  const std::string p = basename();
  const TraceGroup g = TraceGroup::Rounds;
  tracer.add(g, round_, p + ".round", WaveFormat::Decimal, 64);
  tracer.add(g, boundary_, p + ".boundary", WaveFormat::Binary, 1);
  // The policy's own rounds show a period only if the policy plans them (WRR-SCAN).
  const auto* source = dynamic_cast<const RoundStatusSource*>(&policy);
  if (fixed || source) tracer.add(g, period_, p + ".period", WaveFormat::Decimal, 8, {"C", "D"});
  if (!fixed) period_ = kPeriodD;
  tracer.add(g, serving_, p + ".serving", WaveFormat::Decimal, 8,
             options_.periodic ? std::vector<std::string>{"idle", "periodic", "aperiodic"}
                               : std::vector<std::string>{"idle", "C", "D"});
  tracer.add(g, pending_c_, p + ".pending_c", WaveFormat::AnalogStep, 32);
  tracer.add(g, slack_ms_, p + ".slack_ms", WaveFormat::AnalogStep);
  if (fixed) {
    SC_METHOD(on_boundary);
    sensitive << boundary_event_;
    dont_initialize();
    // Round 0 starts at time 0: its C-requests are due, its boundary pulse is the first.
    outstanding_c_ = options_.c_per_round;
    period_ = outstanding_c_ > 0 ? kPeriodC : kPeriodD;
    slack_ms_ = to_ms(options_.round_length);
    if (options_.rounds > 1) boundary_event_.notify(to_sc(options_.round_length));
  }
  boundary_ = true;
  pulse_end_.notify(to_sc(kPulse));
}

void RoundsTrace::pulse() {
  boundary_ = true;
  pulse_end_.notify(to_sc(kPulse));
}

void RoundsTrace::end_pulse() { boundary_ = false; }

void RoundsTrace::on_boundary() {
  round_ = next_boundary_;
  pulse();
  outstanding_c_ += options_.c_per_round;
  period_ = outstanding_c_ > 0 ? kPeriodC : kPeriodD;
  ++next_boundary_;
  if (next_boundary_ < options_.rounds) boundary_event_.notify(to_sc(options_.round_length));
}

void RoundsTrace::dispatched(const Decision& decision, Time dispatch, const SchedulingContext& ctx) {
  Update u;
  (is_c(decision.command) ? u.c : u.d) += 1;
  for (const Command& c : decision.batch) (is_c(c) ? u.c : u.d) += 1;
  // The status costs predictions (003's slack): only while the window records it. The policy's
  // own rounds (WRR-SCAN, a cheap status) are followed throughout, so that a window opening
  // mid-run shows no false boundary.
  if (tracer_.live() || options_.round_length == Time{0}) {
    const auto* source = dynamic_cast<const RoundStatusSource*>(&policy_);
    if (const std::optional<RoundStatus> s = source ? source->round_status(ctx, decision) : std::nullopt) {
      u.has_status = true;
      u.status = *s;
    }
  }
  const Time now = sim_now();
  due_.emplace(dispatch, u);
  apply_event_.notify(to_sc(dispatch > now ? dispatch - now : Time{0}));
}

void RoundsTrace::apply_due() {
  const Time now = sim_now();
  while (!due_.empty() && due_.begin()->first <= now) {
    const Update& u = due_.begin()->second;
    in_service_c_ += u.c;
    in_service_d_ += u.d;
    if (u.has_status) {
      pending_c_ = u.status.pending_c;
      if (u.status.has_slack) slack_ms_ = to_ms(u.status.slack);
      if (u.status.has_c_planned) c_planned_ = u.status.c_planned;
      if (options_.round_length == Time{0} && u.status.round != round_.get()) {
        round_ = u.status.round;
        pulse();
      }
    }
    due_.erase(due_.begin());
  }
  show_serving();
  show_policy_period();
}

void RoundsTrace::completed(const RequestRecord& record) {
  const bool c = is_c(record.command);
  std::uint32_t& n = c ? in_service_c_ : in_service_d_;
  if (n > 0) --n;
  if (options_.round_length > Time{0} && record.command.cls == RequestClass::Continuous && outstanding_c_ > 0) {
    --outstanding_c_;
    if (outstanding_c_ == 0) period_ = kPeriodD;
  }
  show_serving();
  show_policy_period();
}

void RoundsTrace::show_policy_period() {
  if (options_.round_length == Time{0}) period_ = in_service_c_ > 0 || c_planned_ ? kPeriodC : kPeriodD;
}

void RoundsTrace::show_serving() {
  // One media access at a time: at most one kind is in service once a time step's changes are
  // all applied (a completion and the next dispatch at the same instant may come in either order).
  serving_ = in_service_c_ > 0 ? kServingC : in_service_d_ > 0 ? kServingD : kIdle;
}

}  // namespace drivevp
