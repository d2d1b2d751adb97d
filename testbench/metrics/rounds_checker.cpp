#include "testbench/metrics/rounds_checker.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

namespace drivevp {

namespace {
/// Exact decimal milliseconds of a picosecond time (as requests.csv prints them).
std::string ms(Time t) {
  const std::int64_t ps = t.count();
  const std::uint64_t a = ps < 0 ? 0 - static_cast<std::uint64_t>(ps) : static_cast<std::uint64_t>(ps);
  return fmt::format("{}{}.{:09}", ps < 0 ? "-" : "", a / 1'000'000'000, a % 1'000'000'000);
}
}  // namespace

RoundsChecker::RoundsChecker(Time round_length, std::uint64_t rounds) : length_(round_length) {
  if (round_length <= Time{0} || rounds == 0)
    throw std::invalid_argument("rounds checker: the round length must be > 0 and there must be a round");
  rounds_.resize(rounds);
}

RoundsChecker::RoundsChecker(Time round_length, ExplicitRounds) : length_(round_length), explicit_(true) {
  if (round_length <= Time{0}) throw std::invalid_argument("rounds checker: the round length must be > 0");
}

void RoundsChecker::dispatched(const Decision& decision, std::uint64_t round, Time start) {
  if (!explicit_) throw std::logic_error("rounds checker: dispatched() needs explicit rounds");
  if (!starts_.empty() && round + 1 < starts_.size())
    throw std::logic_error("rounds checker: the firmware's round went back");
  if (round + 1 > starts_.size()) {
    while (starts_.size() < round + 1) starts_.push_back(start);
    rounds_.resize(starts_.size());
    settle_busy();
  }
  round_of_[decision.command.id] = round;
  for (const Command& c : decision.batch) round_of_[c.id] = round;
}

std::size_t RoundsChecker::round_at(Time t) const {
  const auto it = std::upper_bound(starts_.begin(), starts_.end(), t);
  return it == starts_.begin() ? 0 : static_cast<std::size_t>(it - starts_.begin()) - 1;
}

Time RoundsChecker::window_end(std::size_t r) const {
  if (r + 1 < starts_.size()) return starts_[r + 1];
  return std::max(starts_[r], run_end_ >= Time{0} ? run_end_ : last_completion_);
}

namespace {
/// Calls add(round, time) for the parts of [from, to) cut at the round starts `starts`; time
/// before the first start belongs to no round (the first decision's command overhead: the round
/// clock starts when the command is predicted to start, after its dispatch).
template <typename Add>
void cut_busy(const std::vector<Time>& starts, Time from, Time to, Add add) {
  while (from < to) {
    const auto it = std::upper_bound(starts.begin(), starts.end(), from);
    const Time upto = it == starts.end() ? to : std::min(to, *it);
    if (it != starts.begin()) add(static_cast<std::size_t>(it - starts.begin()) - 1, upto - from);
    from = upto;
  }
}
}  // namespace

void RoundsChecker::settle_busy() {
  if (starts_.empty()) return;
  auto keep = unsettled_.begin();
  for (auto& iv : unsettled_) {
    if (iv.second <= starts_.back())
      cut_busy(starts_, iv.first, iv.second, [this](std::size_t r, Time t) { rounds_[r].busy += t; });
    else
      *keep++ = iv;
  }
  unsettled_.erase(keep, unsettled_.end());
}

std::vector<Time> RoundsChecker::busy_by_round() const {
  std::vector<Time> busy(rounds_.size());
  for (std::size_t i = 0; i < rounds_.size(); ++i) busy[i] = rounds_[i].busy;
  for (const auto& [from, to] : unsettled_)
    cut_busy(starts_, from, to, [&busy](std::size_t r, Time t) { busy[r] += t; });
  return busy;
}

void RoundsChecker::add_explicit(const RequestRecord& r) {
  const Command& c = r.command;
  seek_cylinders_ += r.seek_distance;
  seek_ += r.seek();
  rotation_ += r.rotational_latency();
  transfer_ += r.transfer();
  last_completion_ = std::max(last_completion_, r.completion);
  std::uint64_t round = 0;
  if (const auto it = round_of_.find(c.id); it != round_of_.end()) {
    round = it->second;
    round_of_.erase(it);
  } else {
    // Not dispatched by the firmware's scheduler (e.g. served from the cache): the round of its
    // dispatch time.
    if (starts_.empty()) {
      starts_.push_back(r.dispatch);
      rounds_.resize(1);
    }
    round = round_at(r.dispatch);
  }
  // The union of the service intervals: a batch's commands share their dispatch, and the next
  // access may be dispatched before the last completion reached the host.
  const Time from = std::max(r.dispatch, covered_);
  if (r.completion > from) {
    unsettled_.emplace_back(from, r.completion);
    covered_ = r.completion;
    settle_busy();
  }
  Round& rd = rounds_[round];
  if (c.cls == RequestClass::RealTime) {
    ++c_total_;
    ++rd.c_requests;
    rd.last_c = std::max(rd.last_c, r.completion);
    if (c.deadline != kNoDeadline && r.completion > c.deadline) {
      ++rd.hiccups;
      ++hiccup_count_;
      if (hiccups_.size() < kKeptHiccups) hiccups_.push_back({c.id, c.stream, round, r.completion - c.deadline});
    } else {
      ++rd.c_in_round;
    }
  } else {
    ++d_total_;
    const double x = to_ms(r.response());
    d_sum_ms_ += x;
    d_sum_sq_ms_ += x * x;
    ++rd.d_served;
  }
}

void RoundsChecker::add_busy(Time from, Time to) {
  while (from < to) {
    const auto r = static_cast<std::uint64_t>(from.count() / length_.count());
    const Time end{length_.count() * static_cast<std::int64_t>(r + 1)};
    const Time upto = std::min(to, end);
    if (r < rounds_.size()) rounds_[r].busy += upto - from;
    from = upto;
  }
}

void RoundsChecker::add(const RequestRecord& r) {
  if (explicit_) {
    add_explicit(r);
    return;
  }
  const Command& c = r.command;
  add_busy(r.dispatch, r.completion);
  seek_cylinders_ += r.seek_distance;
  seek_ += r.seek();
  rotation_ += r.rotational_latency();
  transfer_ += r.transfer();
  if (c.cls == RequestClass::Continuous && c.deadline != kNoDeadline) {
    ++c_total_;
    const auto round = static_cast<std::uint64_t>((c.deadline.count() - 1) / length_.count());
    if (round >= rounds_.size()) rounds_.resize(round + 1);
    Round& rd = rounds_[round];
    ++rd.c_requests;
    rd.last_c = std::max(rd.last_c, r.completion);
    if (r.completion > c.deadline) {
      ++rd.hiccups;
      ++hiccup_count_;
      if (hiccups_.size() < kKeptHiccups) hiccups_.push_back({c.id, c.stream, round, r.completion - c.deadline});
    } else {
      ++rd.c_in_round;
    }
  } else if (c.cls == RequestClass::Discrete) {
    ++d_total_;
    const double x = to_ms(r.response());
    d_sum_ms_ += x;
    d_sum_sq_ms_ += x * x;
    const auto round = static_cast<std::uint64_t>(r.completion.count() / length_.count());
    if (round < rounds_.size()) ++rounds_[round].d_served;
  }
}

double RoundsChecker::fairness_index() const {
  if (d_total_ == 0 || d_sum_sq_ms_ == 0) return 1.0;
  return d_sum_ms_ * d_sum_ms_ / (static_cast<double>(d_total_) * d_sum_sq_ms_);
}

void RoundsChecker::write_csv(std::ostream& os) const {
  os << "round,start_ms,c_served,c_in_round,d_served,c_period_ms,d_period_ms,idle_ms,slack_ms,hiccups\n";
  if (explicit_) {
    const std::vector<Time> busy = busy_by_round();
    for (std::size_t i = 0; i < rounds_.size(); ++i) {
      const Round& r = rounds_[i];
      const Time start = starts_[i];
      const Time window = window_end(i) - start;
      const Time c_period = r.last_c < Time{0} ? Time{0} : r.last_c - start;
      const Time d_period = std::max(Time{0}, window - c_period);
      const Time slack = r.last_c < Time{0} ? length_ : start + length_ - r.last_c;
      os << fmt::format("{},{},{},{},{},{},{},{},{},{}\n", i, ms(start), r.c_requests, r.c_in_round, r.d_served,
                        ms(c_period), ms(d_period), ms(window - busy[i]), ms(slack), r.hiccups);
    }
    return;
  }
  for (std::size_t i = 0; i < rounds_.size(); ++i) {
    const Round& r = rounds_[i];
    const Time start{length_.count() * static_cast<std::int64_t>(i)};
    const Time c_period = r.last_c < Time{0} ? Time{0} : r.last_c - start;
    const Time d_period = std::max(Time{0}, length_ - c_period);
    const Time slack = r.last_c < Time{0} ? length_ : start + length_ - r.last_c;
    os << fmt::format("{},{},{},{},{},{},{},{},{},{}\n", i, ms(start), r.c_requests, r.c_in_round, r.d_served,
                      ms(c_period), ms(d_period), ms(length_ - r.busy), ms(slack), r.hiccups);
  }
}

nlohmann::json RoundsChecker::to_json() const {
  nlohmann::json j;
  const double total_ms = to_ms(length_) * static_cast<double>(rounds_.size());
  j["round_ms"] = static_cast<double>(length_.count()) / 1e9;  // exact for whole microseconds
  j["rounds"] = rounds_.size();
  j["c_requests"] = c_total_;
  j["hiccups"] = hiccup_count_;
  j["hiccup_free"] = hiccup_count_ == 0;
  nlohmann::json first = nlohmann::json::array();
  for (const Hiccup& h : hiccups_)
    first.push_back({{"stream", h.stream}, {"round", h.round}, {"lateness_ms", to_ms(h.lateness)}, {"id", h.id}});
  j["first_hiccups"] = first;
  j["d_requests"] = d_total_;
  j["d_response_mean_ms"] = d_total_ ? nlohmann::json(d_sum_ms_ / static_cast<double>(d_total_)) : nlohmann::json();
  j["d_fairness_index"] = fairness_index();
  j["total_seek_cylinders"] = seek_cylinders_;
  Time busy{0};
  double slack_sum = 0, slack_min = std::numeric_limits<double>::infinity(), c_period_sum = 0;
  for (std::size_t i = 0; i < rounds_.size(); ++i) {
    const Round& r = rounds_[i];
    busy += r.busy;
    const Time start{length_.count() * static_cast<std::int64_t>(i)};
    const double slack = r.last_c < Time{0} ? to_ms(length_) : to_ms(start + length_ - r.last_c);
    slack_sum += slack;
    slack_min = std::min(slack_min, slack);
    c_period_sum += r.last_c < Time{0} ? 0.0 : to_ms(r.last_c - start);
  }
  const double n = static_cast<double>(rounds_.size());
  j["seek_fraction"] = to_ms(seek_) / total_ms;
  j["rotation_fraction"] = to_ms(rotation_) / total_ms;
  j["transfer_fraction"] = to_ms(transfer_) / total_ms;
  j["idle_fraction"] = 1.0 - to_ms(busy) / total_ms;
  j["utilization"] = to_ms(busy) / total_ms;
  j["slack_ms"] = {{"mean", slack_sum / n}, {"min", slack_min}};
  j["c_period_mean_ms"] = c_period_sum / n;
  return j;
}

}  // namespace drivevp
