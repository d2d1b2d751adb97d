#include "testbench/workload/deadline.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

namespace drivevp {

const char* to_string(DeadlineKind k) {
  switch (k) {
    case DeadlineKind::None:
      return "none";
    case DeadlineKind::Relative:
      return "relative";
    case DeadlineKind::Uniform:
      return "uniform";
    case DeadlineKind::Exponential:
      return "exponential";
  }
  return "?";
}

std::optional<DeadlineKind> parse_deadline_kind(const std::string& s) {
  for (DeadlineKind k : {DeadlineKind::None, DeadlineKind::Relative, DeadlineKind::Uniform, DeadlineKind::Exponential})
    if (s == to_string(k)) return k;
  return std::nullopt;
}

namespace {

void check_ms(const char* member, double v, bool zero_ok) {
  const bool ok = std::isfinite(v) && v <= kMaxRelativeDeadlineMs && (zero_ok ? v >= 0 : v > 0);
  if (!ok)
    throw std::invalid_argument(fmt::format("deadline rule: {} = {} is out of range; allowed: {}{}, {}] ms", member, v,
                                            zero_ok ? "[" : "(", 0, kMaxRelativeDeadlineMs));
}

}  // namespace

void DeadlineRule::validate() const {
  check_ms("relative_ms", relative_ms, false);
  if (read_ms) check_ms("read_ms", *read_ms, false);
  if (write_ms) check_ms("write_ms", *write_ms, false);
  for (std::size_t i = 0; i < streams.size(); ++i) {
    check_ms("streams[].ms", streams[i].second, false);
    for (std::size_t j = 0; j < i; ++j)
      if (streams[j].first == streams[i].first)
        throw std::invalid_argument(fmt::format("deadline rule: stream {} is listed twice", streams[i].first));
  }
  check_ms("min_ms", min_ms, true);
  check_ms("max_ms", max_ms, false);
  if (min_ms > max_ms)
    throw std::invalid_argument(fmt::format("deadline rule: min_ms = {} is above max_ms = {}", min_ms, max_ms));
  check_ms("mean_ms", mean_ms, false);
}

std::string DeadlineRule::describe() const {
  switch (kind) {
    case DeadlineKind::None:
      return "none";
    case DeadlineKind::Relative: {
      std::string s = fmt::format("relative {} ms", relative_ms);
      std::string by;
      if (read_ms) by += fmt::format("reads {} ms", *read_ms);
      if (write_ms) by += fmt::format("{}writes {} ms", by.empty() ? "" : ", ", *write_ms);
      for (const auto& [stream, ms] : streams)
        by += fmt::format("{}stream {} {} ms", by.empty() ? "" : ", ", stream, ms);
      return by.empty() ? s : s + " (" + by + ")";
    }
    case DeadlineKind::Uniform:
      return fmt::format("uniform on [{}, {}] ms", min_ms, max_ms);
    case DeadlineKind::Exponential:
      return fmt::format("exponential, mean {} ms", mean_ms);
  }
  return "?";
}

DeadlineAssigner::DeadlineAssigner(DeadlineRule rule) : rule_(std::move(rule)), engine_(rule_.seed) {
  rule_.validate();
  relative_ = from_ms(rule_.relative_ms);
  read_ = rule_.read_ms ? from_ms(*rule_.read_ms) : relative_;
  write_ = rule_.write_ms ? from_ms(*rule_.write_ms) : relative_;
  for (const auto& [stream, ms] : rule_.streams) streams_.emplace_back(stream, from_ms(ms));
}

Time DeadlineAssigner::relative(const Command& c) {
  switch (rule_.kind) {
    case DeadlineKind::None:
      return kNoDeadline;
    case DeadlineKind::Relative:
      for (const auto& [stream, t] : streams_)
        if (stream == c.stream) return t;
      return c.is_read() ? read_ : write_;
    case DeadlineKind::Uniform:
      return from_ms(rule_.min_ms + (rule_.max_ms - rule_.min_ms) * uniform01());
    case DeadlineKind::Exponential:
      // Capped at kMaxRelativeDeadlineMs (a draw above it has probability exp(-1e9 / mean_ms)).
      return from_ms(std::min(-std::log(1.0 - uniform01()) * rule_.mean_ms, kMaxRelativeDeadlineMs));
  }
  return kNoDeadline;
}

}  // namespace drivevp
