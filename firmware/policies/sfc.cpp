// SFC, the QoS-aware space-filling-curve disk scheduler of paper 001 (Aref, El-Bassyouni, Kamel,
// Mokbel, "Scalable QoS-Aware Disk-Scheduling", §3): each request is a point of a D-dimensional
// QoS space, N levels per dimension, served in the order of its position on a space-filling curve
// (firmware/sfc/curves.h: Sweep, C-Scan, Peano, Hilbert, Gray, Spiral, Diagonal), by a non-,
// fully- or conditionally-preemptive scheduler with the irregularity policies SR / SRP / SS and
// the starvation policies AE / ER (firmware/sfc/scheduler.h has the rules).
//
// The point's dimensions, in this order (the last is the major one, the one Sweep and C-Scan keep
// sorted: 001 §2 "the vertical dimension"):
//   1. qos_dims levels of the request's QoS vector (Command::qos, one byte per dimension, drawn
//      by the workload; testbench/workload/qos.h), dimension 0 first;
//   2. cylinder_dim: the request's cylinder, level = cylinder x N / cylinders;
//   3. access_dim: the firmware's predicted access time (Predictor::estimate(...).access(), as
//      SPTF ranks), level = min(N - 1, access x N / access_span_ms); recomputed for every queued
//      request at each decision from the arm's position then (001 §2's SATF), which makes the
//      decision O(n D) instead of O(log n);
//   4. deadline_dim: the slack deadline - now at arrival, level = min(N - 1, slack x N /
//      deadline_span_ms); a request without a deadline (or past it: slack 0 is level 0) at N - 1.
// D = the number of dimensions selected, in [1, 16] (std::invalid_argument otherwise), N in
// [2, 256]: a curve position is up to 16 x 8 = 128 bits, an sfc::Key (unsigned __int128;
// firmware/sfc/curves.h), so every curve takes D = 16, N = 256. Ties
// between equal curve positions go to the smaller raw value of the major dimension (the level
// itself for a QoS dimension, the cylinder, the access time in ps, the absolute deadline), then
// to the smaller command id: so Sweep over deadline alone is EDF and over access time alone is
// SPTF exactly (001 §2, tested in test_sfc_scheduler.cpp).
#include <algorithm>
#include <memory>
#include <string>

#include "firmware/policies/policies.h"
#include "firmware/sfc/curves.h"
#include "firmware/sfc/scheduler.h"

namespace drivevp {
namespace {

/// The curve names in CurveKind order (the Enum parameter's choices).
std::vector<std::string> curve_choices() {
  std::vector<std::string> v;
  for (sfc::CurveKind k : sfc::all_curve_kinds()) v.emplace_back(sfc::curve_name(k));
  return v;
}

struct SfcSettings {
  sfc::CurveKind curve = sfc::CurveKind::Hilbert;
  unsigned levels = 16;
  unsigned qos_dims = 0;
  bool cylinder_dim = false, access_dim = false, deadline_dim = false;
  Time access_span{0}, deadline_span{0};
  sfc::SchedulerConfig scheduler;
  unsigned dims() const { return qos_dims + cylinder_dim + access_dim + deadline_dim; }
};

class SfcPolicy final : public SchedulingPolicy {
 public:
  explicit SfcPolicy(const SfcSettings& s)
      : s_(s), curve_(s.curve, s.dims(), s.levels), scheduler_(s.scheduler, curve_.last()) {}
  std::string_view name() const override { return "SFC"; }

  void enqueue(const Command& c, const SchedulingContext& ctx) override {
    sfc::Item item;
    item.command = c;
    key(item, ctx);
    scheduler_.insert(item);
  }

  Decision next(const SchedulingContext& ctx) override {
    if (s_.access_dim && scheduler_.size() > 0) {
      std::vector<sfc::Item> q = scheduler_.queued(), w = scheduler_.blocked();
      for (sfc::Item& i : q) key(i, ctx);
      for (sfc::Item& i : w) key(i, ctx);
      scheduler_.rebuild(q, w);
    }
    const std::optional<sfc::Item> item = scheduler_.next();
    if (!item) return Decision::idle();
    return Decision::serve(item->command);
  }
  std::size_t pending() const override { return scheduler_.size(); }

 private:
  /// Level of `value` in [0, span) quantised to N levels, N - 1 at and beyond the span.
  std::uint32_t quantise(Time value, Time span) const {
    if (value <= Time{0}) return 0;
    if (value >= span) return s_.levels - 1;
    return static_cast<std::uint32_t>(static_cast<unsigned __int128>(value.count()) * s_.levels /
                                      static_cast<unsigned __int128>(span.count()));
  }
  /// Sets the item's curve position and tie-break from its command at `ctx`.
  void key(sfc::Item& item, const SchedulingContext& ctx) const {
    const Command& c = item.command;
    std::uint32_t point[sfc::kMaxDims];
    unsigned d = 0;
    std::int64_t major = 0;
    for (unsigned k = 0; k < s_.qos_dims; ++k) {
      // Clamped: a level beyond N - 1 (a host that packed more levels) is the lowest priority.
      point[d++] = std::min(c.qos_level(k), s_.levels - 1);
      major = point[d - 1];
    }
    if (s_.cylinder_dim) {
      const std::uint32_t cyl = ctx.predictor->sweep_coordinate(c.lbn);
      point[d++] = static_cast<std::uint32_t>(std::uint64_t{cyl} * s_.levels / ctx.predictor->sweep_extent());
      major = cyl;
    }
    if (s_.access_dim) {
      const Time access = ctx.predictor->estimate(ctx.position, ctx.now, c.lbn, c.op).access();
      point[d++] = quantise(access, s_.access_span);
      major = access.count();
    }
    if (s_.deadline_dim) {
      point[d++] = c.deadline == kNoDeadline ? s_.levels - 1 : quantise(c.deadline - ctx.now, s_.deadline_span);
      major = c.deadline.count();
    }
    item.position = curve_.encode(point);
    item.tie = major;
  }

  SfcSettings s_;
  sfc::Curve curve_;
  sfc::Scheduler scheduler_;
};

}  // namespace

PolicyInfo describe_sfc() {
  static const std::vector<std::string> curves = curve_choices();
  return {"sfc",
          "SFC",
          "QoS-aware space-filling-curve scheduler: non-, fully- or conditionally-preemptive, SR / SRP / SS, AE / "
          "ER (Aref, El-Bassyouni, Kamel & Mokbel, paper 001 §3)",
          {
              PolicyParameter::one_of("curve", curves, "hilbert", "space-filling curve (001 Fig. 1)"),
              PolicyParameter::integer("levels", 16, 2, 256, "levels",
                                       "levels N per dimension (001 §5.2.1; a scenario defaults it to "
                                       "workload.qos_levels); Hilbert and Gray need a power of two"),
              PolicyParameter::integer("qos_dims", 0, 0, 16, "dimensions",
                                       "dimensions taken from the request's QoS vector, the first ones (a scenario "
                                       "defaults it to workload.qos_dims)"),
              PolicyParameter::boolean("cylinder_dim", false, "add the cylinder as a dimension (after the QoS ones)"),
              PolicyParameter::boolean("access_dim", false,
                                       "add the predicted access time as a dimension, recomputed at each decision "
                                       "(001 §2: SATF is Sweep over it)"),
              PolicyParameter::boolean("deadline_dim", false,
                                       "add the deadline slack at arrival as the last dimension (001 §2: EDF is Sweep "
                                       "over it)"),
              PolicyParameter::number("access_span_ms", 50, 0.001, 1e6, "ms",
                                      "access time quantised over [0, span): level = access x N / span"),
              PolicyParameter::number("deadline_span_ms", 1000, 0.001, 1e9, "ms",
                                      "deadline slack quantised over [0, span): level = slack x N / span"),
              PolicyParameter::one_of("preemption", {"non", "full", "conditional"}, "conditional",
                                      "non-, fully- or conditionally-preemptive (001 §3, §3.1)"),
              PolicyParameter::one_of("inversion", {"sr", "srp", "ss"}, "srp",
                                      "priority-inversion policy: serve and resume, + promote, serve and scan (001 "
                                      "§3.2; SRP is 001 §5's choice)"),
              PolicyParameter::one_of("starvation", {"ae", "er"}, "er",
                                      "starvation policy: always expand, expand and reset (001 §3.3)"),
              PolicyParameter::number("window", 0.5, 0, 1, "fraction of N^D",
                                      "blocking window w0 as a fraction of the curve's N^D points (001 §3.1; §5.2: "
                                      "50 %)"),
              PolicyParameter::number("expansion", 0.05, 0, 1, "fraction of w0",
                                      "expansion factor e per preemption as a fraction of w0 (001 §5: 5 %)"),
          },
          [](const PolicyParams& p, std::string_view) -> std::unique_ptr<SchedulingPolicy> {
            SfcSettings s;
            s.curve = sfc::all_curve_kinds().at(static_cast<std::size_t>(p.at("curve")));
            s.levels = static_cast<unsigned>(p.at("levels"));
            s.qos_dims = static_cast<unsigned>(p.at("qos_dims"));
            s.cylinder_dim = p.at("cylinder_dim") != 0;
            s.access_dim = p.at("access_dim") != 0;
            s.deadline_dim = p.at("deadline_dim") != 0;
            s.access_span = from_ms(p.at("access_span_ms"));
            s.deadline_span = from_ms(p.at("deadline_span_ms"));
            s.scheduler.preemption = static_cast<sfc::Preemption>(static_cast<int>(p.at("preemption")));
            s.scheduler.inversion = static_cast<sfc::Inversion>(static_cast<int>(p.at("inversion")));
            s.scheduler.starvation = static_cast<sfc::Starvation>(static_cast<int>(p.at("starvation")));
            s.scheduler.window = p.at("window");
            s.scheduler.expansion = p.at("expansion");
            if (s.dims() == 0 || s.dims() > sfc::kMaxDims)
              throw std::invalid_argument(
                  "policy 'sfc': expected 1 to 16 dimensions (qos_dims + cylinder_dim + access_dim + deadline_dim), "
                  "found " +
                  std::to_string(s.dims()) + "; set workload.qos_dims or one of the firmware.*_dim keys");
            return std::make_unique<SfcPolicy>(s);
          },
          {"disk", "mems"}};
}

}  // namespace drivevp
