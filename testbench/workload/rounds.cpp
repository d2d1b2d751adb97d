#include "testbench/workload/rounds.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "testbench/workload/list_file.h"

namespace drivevp {

namespace {

// Salts of the two generators' seeds ("cfrag" and "dreq" in ASCII), so that they do not replay
// each other's sequence.
constexpr std::uint64_t kFragmentSalt = 0x6366726167ULL;
constexpr std::uint64_t kDiscreteSalt = 0x64726571ULL;
constexpr double kMaxBytes = 4.0 * 1024 * 1024;

double to_blocks(double bytes) { return bytes / static_cast<double>(kBlockBytes); }

void check(bool ok, const char* field, const std::string& allowed, double found) {
  if (!ok)
    throw std::invalid_argument(
        fmt::format("rounds workload: {} = {} is out of range; allowed: {}", field, found, allowed));
}

}  // namespace

std::string to_string(FragmentPlacement p) { return p == FragmentPlacement::Random ? "random" : "striped"; }
std::string to_string(FragmentSize s) { return s == FragmentSize::Gamma ? "gamma" : "constant"; }

void RoundsOptions::validate() const {
  check(streams <= 10000, "streams", "[0, 10000]", streams);
  check(round_ms > 0 && round_ms <= 3.6e6, "round_ms", "(0, 3600000] ms", round_ms);
  check(rounds >= 1 && rounds <= 10'000'000, "rounds", "[1, 10000000]", static_cast<double>(rounds));
  check(lambda_d >= 0 && lambda_d <= 1e6, "lambda_d", "[0, 1000000] requests per round", lambda_d);
  check(fragment_mean_bytes >= kBlockBytes && fragment_mean_bytes <= kMaxBytes, "fragment_mean_bytes",
        "[512, 4194304] bytes", fragment_mean_bytes);
  check(fragment_sd_bytes > 0 && fragment_sd_bytes <= kMaxBytes, "fragment_sd_bytes", "(0, 4194304] bytes",
        fragment_sd_bytes);
  check(d_mean_bytes >= kBlockBytes && d_mean_bytes <= kMaxBytes, "d_mean_bytes", "[512, 4194304] bytes", d_mean_bytes);
  check(d_sd_bytes >= 0 && d_sd_bytes <= kMaxBytes, "d_sd_bytes", "[0, 4194304] bytes", d_sd_bytes);
  check(read_fraction >= 0 && read_fraction <= 1, "read_fraction", "[0, 1]", read_fraction);
  check(capacity_blocks > 8192, "capacity_blocks", "> 8192 blocks", static_cast<double>(capacity_blocks));
  if (placement == FragmentPlacement::Striped && streams > 0 && capacity_blocks / streams < 8192)
    throw std::invalid_argument(fmt::format(
        "rounds workload: striped placement needs at least 8192 blocks (4 MiB, the largest fragment) per stream; "
        "{} streams on {} blocks leave {}",
        streams, capacity_blocks, capacity_blocks / streams));
  if (!stream_specs.empty() && stream_specs.size() != streams)
    throw std::invalid_argument(fmt::format("rounds workload: the stream list has {} streams, workload.streams says {}",
                                            stream_specs.size(), streams));
  for (std::size_t i = 0; i < stream_specs.size(); ++i)
    if (stream_specs[i].start_block && *stream_specs[i].start_block >= capacity_blocks)
      throw std::invalid_argument(fmt::format(
          "rounds workload: stream {}: start_block: expected a block below the capacity of {} blocks, found {}", i + 1,
          capacity_blocks, *stream_specs[i].start_block));
  const double last_ps = static_cast<double>(rounds) * round_ms * 1e9;
  check(last_ps <= static_cast<double>(kMaxArrival.count()) / 2, "rounds x round_ms",
        "at most half the simulated-time limit (26.7 days)", static_cast<double>(rounds) * round_ms);
}

std::vector<StreamSpec> read_stream_list(const std::string& path) {
  std::vector<StreamSpec> specs;
  for (const ListEntry& e : read_list_file(path, "stream", {"fragment_bytes", "start_block"}, 10000)) {
    StreamSpec spec;
    if (const ListValue* v = e.get("fragment_bytes")) {
      if (!v->integer || *v->integer < static_cast<std::int64_t>(kBlockBytes) ||
          *v->integer > static_cast<std::int64_t>(kMaxBytes))
        throw_list_value_error(path, "stream", "fragment_bytes", *v, "an integer in [512, 4194304]");
      spec.fragment_bytes = static_cast<std::uint32_t>(*v->integer);
    }
    if (const ListValue* v = e.get("start_block")) {
      if (!v->integer || *v->integer < 0) throw_list_value_error(path, "stream", "start_block", *v, "an integer >= 0");
      spec.start_block = static_cast<std::uint64_t>(*v->integer);
    }
    specs.push_back(spec);
  }
  return specs;
}

namespace {

SyntheticOptions fragment_options(const RoundsOptions& o) {
  SyntheticOptions s;
  s.seed = o.seed ^ kFragmentSalt;
  s.requests = std::uint64_t{o.streams} * o.rounds + 1;
  s.arrival = ArrivalProcess::Fixed;  // arrival times unused: the round sets them
  s.rate_per_s = 1.0;
  s.arrivals_used = false;
  s.address = AddressDistribution::Uniform;
  if (o.fragment_size == FragmentSize::Gamma) {
    s.size = SizeDistribution::Gamma;
    s.size_mean_blocks = to_blocks(o.fragment_mean_bytes);
    s.size_stddev_blocks = to_blocks(o.fragment_sd_bytes);
  } else {
    s.size = SizeDistribution::Constant;
    s.size_blocks = static_cast<std::uint32_t>(std::llround(to_blocks(o.fragment_mean_bytes)));
  }
  s.read_fraction = o.read_fraction;
  s.capacity_blocks = o.capacity_blocks;
  s.request_class = RequestClass::Continuous;
  return s;
}

SyntheticOptions discrete_options(const RoundsOptions& o) {
  SyntheticOptions s;
  s.seed = o.seed ^ kDiscreteSalt;
  // Enough for the Poisson count's tail (mean + 10 sd + 100); the source stops at the last round's end.
  const double mean = o.lambda_d * static_cast<double>(o.rounds);
  s.requests = static_cast<std::uint64_t>(mean + 10.0 * std::sqrt(mean) + 100.0);
  s.arrival = ArrivalProcess::Poisson;
  s.rate_per_s = o.lambda_d * 1000.0 / o.round_ms;
  s.address = AddressDistribution::Uniform;
  s.size = SizeDistribution::Normal;
  s.size_mean_blocks = to_blocks(o.d_mean_bytes);
  s.size_stddev_blocks = to_blocks(o.d_sd_bytes);
  s.read_fraction = o.read_fraction;
  s.capacity_blocks = o.capacity_blocks;
  s.request_class = RequestClass::Discrete;
  return s;
}

RoundsOptions validated(RoundsOptions o) {
  o.validate();
  return o;
}

}  // namespace

RoundsSource::RoundsSource(RoundsOptions options)
    : options_(validated(std::move(options))), fragments_(fragment_options(options_)) {
  if (options_.lambda_d > 0) discrete_.emplace(discrete_options(options_));
  if (options_.placement == FragmentPlacement::Striped || !options_.stream_specs.empty())
    stripe_next_.assign(options_.streams, ~std::uint64_t{0});
}

bool RoundsSource::next_continuous(SourceRequest& out) {
  if (stream_ >= options_.streams || round_ >= options_.rounds) return false;
  if (!fragments_.next(out)) return false;
  const Time t = options_.round_length();
  Command& c = out.command;
  c.arrival = Time{t.count() * static_cast<std::int64_t>(round_)};
  c.deadline = c.arrival + t;
  c.stream = stream_ + 1;
  c.cls = RequestClass::Continuous;
  const StreamSpec* spec = options_.stream_specs.empty() ? nullptr : &options_.stream_specs[stream_];
  if (spec && spec->fragment_bytes > 0)  // the size is still drawn, so the other streams' draws do not move
    c.blocks = static_cast<std::uint32_t>(std::max(1.0, std::round(to_blocks(spec->fragment_bytes))));
  if (spec && spec->start_block) {
    std::uint64_t& next = stripe_next_[stream_];
    if (next == ~std::uint64_t{0}) next = *spec->start_block;
    if (next + c.blocks > options_.capacity_blocks) next = 0;
    c.lbn = next;
    next += c.blocks;
  } else if (options_.placement == FragmentPlacement::Striped) {
    const std::uint64_t region = options_.capacity_blocks / options_.streams;
    const std::uint64_t first = region * stream_;
    std::uint64_t& next = stripe_next_[stream_];
    if (next == ~std::uint64_t{0}) next = c.lbn % region;  // the first fragment: a random offset
    if (next + c.blocks > region) next = 0;
    c.lbn = first + next;
    next += c.blocks;
  }
  if (++stream_ == options_.streams) {
    stream_ = 0;
    ++round_;
  }
  return true;
}

bool RoundsSource::next(SourceRequest& out) {
  const Time end{options_.round_length().count() * static_cast<std::int64_t>(options_.rounds)};
  if (discrete_ && !pending_d_) {
    SourceRequest d;
    if (discrete_->next(d) && d.command.arrival < end)
      pending_d_ = d;
    else
      discrete_.reset();  // the last D-request of the run has been yielded
  }
  const bool c_left = options_.streams > 0 && round_ < options_.rounds;
  const Time c_arrival{options_.round_length().count() * static_cast<std::int64_t>(round_)};
  if (c_left && (!pending_d_ || c_arrival <= pending_d_->command.arrival)) return next_continuous(out);
  if (!pending_d_) return false;
  out = *pending_d_;
  pending_d_.reset();
  return true;
}

std::string RoundsSource::describe() const {
  const RoundsOptions& o = options_;
  const std::string frag =
      o.fragment_size == FragmentSize::Gamma
          ? fmt::format("gamma fragments (mean {} B, sd {} B)", o.fragment_mean_bytes, o.fragment_sd_bytes)
          : fmt::format("constant {} B fragments", o.fragment_mean_bytes);
  return fmt::format(
      "rounds: {} streams x {} rounds of {} ms, {} placed {}, D-requests Poisson {}/round normal (mean {} B, sd {} B), "
      "seed {}",
      o.streams, o.rounds, o.round_ms, frag, to_string(o.placement), o.lambda_d, o.d_mean_bytes, o.d_sd_bytes, o.seed);
}

}  // namespace drivevp
