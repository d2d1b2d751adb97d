// PositionIndex and the Queue base of the MEMS scheduling policies (queue.h).
#include "firmware/policies/mems/queue.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <tuple>

namespace drivevp::mems_sched {

namespace {

std::string str(std::uint64_t v) { return std::to_string(v); }

void check_geometry(const Geometry& g, std::uint32_t zones_x, std::uint32_t zones_y) {
  if (g.x_positions < 1) throw std::invalid_argument("mems_sched::Geometry: x_positions must be >= 1, got 0");
  if (g.y_positions < 1) throw std::invalid_argument("mems_sched::Geometry: y_positions must be >= 1, got 0");
  if (g.max_regions_per_access < 1)
    throw std::invalid_argument("mems_sched::Geometry: max_regions_per_access must be >= 1, got 0");
  if (zones_x < 1 || zones_x > g.x_positions)
    throw std::invalid_argument("mems_sched::Geometry: zones_x must be in [1, x_positions = " + str(g.x_positions) +
                                "], got " + str(zones_x));
  if (zones_y < 1 || zones_y > g.y_positions)
    throw std::invalid_argument("mems_sched::Geometry: zones_y must be in [1, y_positions = " + str(g.y_positions) +
                                "], got " + str(zones_y));
}

}  // namespace

// --- PositionIndex -----------------------------------------------------------------------------

PositionIndex::PositionIndex(const Geometry& g, std::uint32_t zones_x, std::uint32_t zones_y)
    : g_(g), zones_x_(zones_x), zones_y_(zones_y) {
  check_geometry(g, zones_x, zones_y);
  zone_slots_.resize(std::size_t{zones_x} * zones_y);
  zone_requests_.assign(zone_slots_.size(), 0);
}

std::uint32_t PositionIndex::zone_of(std::uint32_t x, std::uint32_t y) const {
  const auto zx = static_cast<std::uint32_t>(std::uint64_t{x} * zones_x_ / g_.x_positions);
  const auto zy = static_cast<std::uint32_t>(std::uint64_t{y} * zones_y_ / g_.y_positions);
  return zx * zones_y_ + zy;
}

void PositionIndex::add(const Request& r) {
  if (r.x >= g_.x_positions || r.y >= g_.y_positions)
    throw std::invalid_argument("mems_sched: request " + str(r.id) + " at (x " + str(r.x) + ", y " + str(r.y) +
                                ") is outside the grid of " + str(g_.x_positions) + " x " + str(g_.y_positions) +
                                " positions");
  if (entries_.contains(r.id))
    throw std::invalid_argument("mems_sched: request id " + str(r.id) + " is already queued");
  const std::uint64_t k = key(r.x, r.y);
  const std::uint32_t* found = slot_of_.find(k);
  std::uint32_t s;
  if (!found) {
    if (free_slots_.empty()) {
      s = static_cast<std::uint32_t>(slots_.size());
      slots_.emplace_back();
    } else {
      s = free_slots_.back();
      free_slots_.pop_back();
    }
    Slot& slot = slots_[s];
    slot.x = r.x;
    slot.y = r.y;
    slot.zone = zone_of(r.x, r.y);
    slot.arrival_sum = 0;
    slot.ids.clear();
    auto& zs = zone_slots_[slot.zone];
    slot.index_in_zone = static_cast<std::uint32_t>(zs.size());
    zs.push_back(s);
    slot_of_.insert(k, s);
  } else {
    s = *found;
  }
  Slot& slot = slots_[s];
  entries_.insert(r.id, Entry{r, s, static_cast<std::uint32_t>(slot.ids.size())});
  slot.ids.push_back(r.id);
  slot.arrival_sum += r.arrival.count();
  ++zone_requests_[slot.zone];
}

std::optional<Request> PositionIndex::remove(std::uint64_t id) {
  const Entry* found = entries_.find(id);
  if (!found) return std::nullopt;
  const Entry e = *found;
  entries_.erase(id);
  Slot& slot = slots_[e.slot];
  // Unordered removal from the slot: the last id takes the removed one's place.
  const std::uint64_t moved = slot.ids.back();
  slot.ids[e.index_in_slot] = moved;
  slot.ids.pop_back();
  if (moved != id) entries_.at(moved).index_in_slot = e.index_in_slot;
  slot.arrival_sum -= e.request.arrival.count();
  --zone_requests_[slot.zone];
  if (slot.ids.empty()) {
    auto& zs = zone_slots_[slot.zone];
    const std::uint32_t last = zs.back();
    zs[slot.index_in_zone] = last;
    slots_[last].index_in_zone = slot.index_in_zone;
    zs.pop_back();
    slot_of_.erase(key(slot.x, slot.y));
    free_slots_.push_back(e.slot);
  }
  return e.request;
}

std::optional<std::uint32_t> PositionIndex::find(std::uint32_t x, std::uint32_t y) const {
  const std::uint32_t* s = slot_of_.find(key(x, y));
  if (!s) return std::nullopt;
  return *s;
}

std::vector<Request> PositionIndex::gather(std::uint32_t s, std::uint32_t limit) const {
  std::vector<Request> out;
  gather(s, limit, out);
  return out;
}

void PositionIndex::gather(std::uint32_t s, std::uint32_t limit, std::vector<Request>& out) const {
  out.clear();
  const std::vector<std::uint64_t>& ids = slots_[s].ids;
  if (ids.size() == 1 && limit >= 1) {  // the common case: no sort
    out.push_back(entries_.at(ids[0]).request);
    return;
  }
  std::vector<Request> here;
  here.reserve(slots_[s].ids.size());
  for (std::uint64_t id : slots_[s].ids) here.push_back(entries_.at(id).request);
  std::sort(here.begin(), here.end(),
            [](const Request& a, const Request& b) { return std::tie(a.arrival, a.id) < std::tie(b.arrival, b.id); });
  for (const Request& r : here) {
    if (out.size() == limit) break;
    const bool taken = std::any_of(out.begin(), out.end(), [&](const Request& o) { return o.region == r.region; });
    if (!taken) out.push_back(r);
  }
}

// --- Queue -------------------------------------------------------------------------------------

Queue::Queue(const Geometry& g, std::uint32_t zones_x, std::uint32_t zones_y) : g_(g), index_(g, zones_x, zones_y) {}

void Queue::enqueue(const Request& r) {
  index_.add(r);
  latest_arrival_ = std::max(latest_arrival_, r.arrival);
  on_add(r);
}

bool Queue::remove(std::uint64_t id) {
  const auto r = index_.remove(id);
  if (!r) return false;
  on_remove(*r);
  return true;
}

Batch Queue::choose(Time now, const Positioning& positioning, SledPosition sled) {
  Batch b;
  choose(now, positioning, sled, b);
  return b;
}

void Queue::choose(Time now, const Positioning& positioning, SledPosition sled, Batch& b) {
  if (now < latest_arrival_)
    throw std::invalid_argument(
        std::string("mems_sched::") + std::string(name()) + ": choose at now = " + std::to_string(now.count()) +
        " ps precedes the arrival of an enqueued request (" + std::to_string(latest_arrival_.count()) + " ps)");
  b.x = 0;
  b.y = 0;
  b.positioning = Time{-1};
  b.requests.clear();
  if (index_.size() == 0) return;
  const Pick p = pick(now, positioning, sled);
  const PositionIndex::Slot& slot = index_.slot(p.slot);
  b.x = slot.x;
  b.y = slot.y;
  b.positioning = p.positioning;  // -1 when the policy chose without it (FCFS, SSTF): no extra call
  index_.gather(p.slot, g_.max_regions_per_access, b.requests);
  for (const Request& r : b.requests) remove(r.id);
}

std::size_t Queue::count_at(std::uint32_t x, std::uint32_t y) const {
  const auto s = index_.find(x, y);
  return s ? index_.slot(*s).ids.size() : 0;
}

Int128 Queue::arrival_sum_at(std::uint32_t x, std::uint32_t y) const {
  const auto s = index_.find(x, y);
  return s ? index_.slot(*s).arrival_sum : 0;
}

Int128 Queue::waiting_sum_at(std::uint32_t x, std::uint32_t y, Time now) const {
  return static_cast<Int128>(count_at(x, y)) * now.count() - arrival_sum_at(x, y);
}

Time checked_positioning(const Positioning& positioning, std::uint32_t x, std::uint32_t y) {
  constexpr Time kMax{3'600'000'000'000'000};  // 1 h
  const Time t = positioning(x, y);
  if (t < Time{0} || t > kMax)
    throw std::invalid_argument("mems_sched: positioning(x " + str(x) + ", y " + str(y) + ") returned " +
                                std::to_string(t.count()) + " ps; expected a time in [0, 1 h]");
  return t;
}

}  // namespace drivevp::mems_sched
