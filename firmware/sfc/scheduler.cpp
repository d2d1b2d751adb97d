// The SFC schedulers of paper 001 §3; the rules are in scheduler.h.
#include "firmware/sfc/scheduler.h"

#include <stdexcept>
#include <string>

namespace drivevp::sfc {
namespace {

/// fraction x (last + 1) curve points, rounded down, at most last + 1 saturated to last (the
/// count N^D itself overflows Key at D = 16, N = 256; a window of N^D - 1 points already blocks
/// every position).
Key fraction_of_points(double fraction, Key last) {
  const long double points = static_cast<long double>(last) + 1.0L;
  const long double v = points * static_cast<long double>(fraction);
  if (v >= static_cast<long double>(last)) return last;
  return static_cast<Key>(v);
}

}  // namespace

Scheduler::Scheduler(const SchedulerConfig& config, Key last) : config_(config), last_(last) {
  if (!(config.window >= 0 && config.window <= 1))
    throw std::invalid_argument("sfc: window = " + std::to_string(config.window) + " is out of range; allowed: [0, 1]");
  if (!(config.expansion >= 0 && config.expansion <= 1))
    throw std::invalid_argument("sfc: expansion = " + std::to_string(config.expansion) +
                                " is out of range; allowed: [0, 1]");
  window0_ = fraction_of_points(config.window, last);
  window_ = window0_;
  // e = expansion x w0 (001 §5: 5 % of w), at least one point when both are non-zero so that
  // AE and ER expand at all on tiny windows.
  expansion_ = static_cast<Key>(static_cast<long double>(window0_) * static_cast<long double>(config.expansion));
  if (expansion_ == 0 && window0_ > 0 && config.expansion > 0) expansion_ = 1;
}

void Scheduler::preempted() {
  ++preemptions_;
  window_ = last_ - window_ < expansion_ ? last_ : window_ + expansion_;
}

void Scheduler::insert(const Item& item) {
  const Key t = item.position;
  switch (config_.preemption) {
    case Preemption::Full:
      q_.insert(item);
      return;
    case Preemption::Non:
      (t < current_ ? waiting_ : q_).insert(item);
      return;
    case Preemption::Conditional:
      if (t >= current_) {
        q_.insert(item);  // case 1
      } else if (below_window(t, current_)) {
        q_.insert(item);  // case 3: preempts the cycle
        preempted();
        if (config_.inversion == Inversion::SS) {
          // 001 §3.2 SS: the requests of q' are served, in curve order, right after.
          q_.insert(waiting_.begin(), waiting_.end());
          waiting_.clear();
        }
      } else {
        waiting_.insert(item);  // case 2: inside the blocking window
      }
      return;
  }
}

std::optional<Item> Scheduler::next() {
  if (q_.empty()) {
    if (waiting_.empty()) return std::nullopt;
    // The cycle is over: q' becomes the next cycle (001 §3).
    q_.swap(waiting_);
    current_ = 0;
  }
  if (config_.preemption == Preemption::Conditional && config_.inversion == Inversion::SRP && !waiting_.empty()) {
    // 001 §3.2 SRP: promote what lies below the window of the request about to be served.
    const Key next_position = q_.begin()->position;
    if (below_window(waiting_.begin()->position, next_position)) {
      auto end = waiting_.begin();
      while (end != waiting_.end() && below_window(end->position, next_position)) ++end;
      q_.insert(waiting_.begin(), end);
      waiting_.erase(waiting_.begin(), end);
      preempted();
    }
  }
  Item item = *q_.begin();
  q_.erase(q_.begin());
  current_ = item.position;
  if (config_.starvation == Starvation::ER) window_ = window0_;
  return item;
}

void Scheduler::rebuild(const std::vector<Item>& q, const std::vector<Item>& waiting) {
  q_.clear();
  waiting_.clear();
  q_.insert(q.begin(), q.end());
  waiting_.insert(waiting.begin(), waiting.end());
}

std::string_view to_string(Preemption p) {
  switch (p) {
    case Preemption::Non:
      return "non";
    case Preemption::Full:
      return "full";
    case Preemption::Conditional:
      return "conditional";
  }
  return "?";
}
std::string_view to_string(Inversion i) {
  switch (i) {
    case Inversion::SR:
      return "sr";
    case Inversion::SRP:
      return "srp";
    case Inversion::SS:
      return "ss";
  }
  return "?";
}
std::string_view to_string(Starvation s) {
  switch (s) {
    case Starvation::AE:
      return "ae";
    case Starvation::ER:
      return "er";
  }
  return "?";
}

}  // namespace drivevp::sfc
