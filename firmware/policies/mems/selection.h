// Exact priority comparison shared by the MEMS policies (002 eqs. (2) and (3)), with the
// deterministic tie rule. Internal to firmware/policies/mems/.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "firmware/policies/mems/queue.h"

namespace drivevp::mems_sched {

/// A candidate (a position or a zone) scored as priority = num / max(t, 1 ps).
struct Scored {
  Int128 num = 0;           ///< numerator: N(x, y) (eq. 2), Σ W(x, y) in ps (eq. 3), or 1 (SPTF)
  Time t{0};                ///< positioning time (ps)
  std::uint64_t order = 0;  ///< last tie-break, smaller first: (x << 32 | y) or the zone index
  std::uint32_t slot = 0;   ///< PositionIndex slot (positions) or zone index (zones)
};

/// True when `a` goes before `b`: the larger num / max(t, 1 ps), compared exactly as
/// a.num * max(b.t, 1) > b.num * max(a.t, 1) in 128-bit integers; on equal priority the shorter
/// positioning time; then the smaller `order` (position: smaller x, then smaller y; zone: the
/// smaller index). Throws std::overflow_error if a product does not fit 127 bits.
inline bool goes_first(const Scored& a, const Scored& b) {
  const Int128 da = a.t.count() > 0 ? a.t.count() : 1;
  const Int128 db = b.t.count() > 0 ? b.t.count() : 1;
  Int128 lhs = 0;
  Int128 rhs = 0;
  if (__builtin_mul_overflow(a.num, db, &lhs) || __builtin_mul_overflow(b.num, da, &rhs))
    throw std::overflow_error("mems_sched: priority product exceeds 127 bits (waiting-time sum x positioning time)");
  if (lhs != rhs) return lhs > rhs;
  if (a.t != b.t) return a.t < b.t;
  return a.order < b.order;
}

/// Positions ranked by eq. (2) (P-SPTF: num = N(x, y)).
struct CountNumerator {
  Int128 operator()(const PositionIndex::Slot& s, Time) const { return static_cast<Int128>(s.ids.size()); }
};
/// Positions ranked by eq. (3) (PA-SPTF: num = Σ W(x, y) = N(x, y) * now - Σ arrival).
struct WaitNumerator {
  Int128 operator()(const PositionIndex::Slot& s, Time now) const {
    return static_cast<Int128>(s.ids.size()) * now.count() - s.arrival_sum;
  }
};
/// Positions ranked by positioning time alone (SPTF: num = 1, so the shortest time goes first).
struct UnitNumerator {
  Int128 operator()(const PositionIndex::Slot&, Time) const { return 1; }
};

/// The best of `slots` (non-empty) under goes_first with numerator `num`: one positioning call
/// per slot, no allocation.
template <class Num>
Scored best_position(const PositionIndex& index, const std::vector<std::uint32_t>& slots, Time now,
                     const Positioning& positioning, Num num) {
  Scored best;
  bool first = true;
  for (std::uint32_t s : slots) {
    const PositionIndex::Slot& slot = index.slot(s);
    Scored c;
    c.num = num(slot, now);
    c.t = checked_positioning(positioning, slot.x, slot.y);
    c.order = (std::uint64_t{slot.x} << 32) | slot.y;
    c.slot = s;
    if (first || goes_first(c, best)) best = c;
    first = false;
  }
  return best;
}

}  // namespace drivevp::mems_sched
