#include "testbench/metrics/metrics.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

namespace drivevp {

namespace {

/// ps -> ms. A division by an exact power of ten is correctly rounded, so whole values print clean.
double ps_to_ms(double ps) { return ps / 1e9; }

nlohmann::json or_null(const std::optional<double>& v) {
  if (!v || !std::isfinite(*v)) return nullptr;
  return *v;
}

nlohmann::json ms_or_null(const std::optional<double>& ps) {
  if (!ps) return nullptr;
  return or_null(ps_to_ms(*ps));
}

}  // namespace

// --- MomentAccumulator ---------------------------------------------------------------------------

void MomentAccumulator::add(double x) {
  ++n_;
  const double delta = x - mean_;
  mean_ += delta / static_cast<double>(n_);
  m2_ += delta * (x - mean_);
  max_ = n_ == 1 ? x : std::max(max_, x);
}

std::optional<double> MomentAccumulator::mean() const {
  if (n_ == 0) return std::nullopt;
  return mean_;
}

std::optional<double> MomentAccumulator::variance() const {
  if (n_ == 0) return std::nullopt;
  return std::max(0.0, m2_ / static_cast<double>(n_));
}

std::optional<double> MomentAccumulator::stddev() const {
  if (n_ == 0) return std::nullopt;
  return std::sqrt(*variance());
}

std::optional<double> MomentAccumulator::max() const {
  if (n_ == 0) return std::nullopt;
  return max_;
}

std::optional<double> MomentAccumulator::scv() const {
  if (n_ == 0 || mean_ == 0.0) return std::nullopt;
  return *variance() / (mean_ * mean_);
}

std::optional<double> MomentAccumulator::jain_fairness() const {
  if (n_ == 0) return std::nullopt;
  const double mean_sq = mean_ * mean_;
  const double denominator = mean_sq + *variance();
  if (denominator == 0.0) return std::nullopt;
  return mean_sq / denominator;
}

// --- RunMetrics ----------------------------------------------------------------------------------

const char* request_class_key(RequestClass cls) {
  switch (cls) {
    case RequestClass::Discrete:
      return "discrete";
    case RequestClass::Continuous:
      return "continuous";
    case RequestClass::RealTime:
      return "real_time";
    case RequestClass::Aperiodic:
      return "aperiodic";
  }
  return "unknown";
}

RunMetrics::RunMetrics(int histogram_precision_bits) : histogram_(histogram_precision_bits) {}

void RunMetrics::add(const RequestRecord& r) {
  const bool first = response_.count() == 0;
  const Time response = r.response();
  const auto response_ps = static_cast<double>(response.count());

  histogram_.record(response.count());
  response_.add(response_ps);
  const auto cls = static_cast<std::size_t>(r.command.cls);
  if (cls < kClasses) by_class_[cls].add(response_ps);

  if (r.command.is_read()) {
    ++reads_;
  } else {
    ++writes_;
  }
  if (!r.data_ok) ++data_errors_;
  bytes_ += std::uint64_t{r.command.blocks} * kBlockBytes;
  seek_distance_total_ += r.seek_distance;

  queue_wait_.add(static_cast<double>(r.queue_wait().count()));
  seek_.add(static_cast<double>(r.seek().count()));
  rotational_latency_.add(static_cast<double>(r.rotational_latency().count()));
  transfer_.add(static_cast<double>(r.transfer().count()));
  service_.add(static_cast<double>(r.service().count()));
  busy_ += r.service();

  if (r.predicted_positioning.count() >= 0) {
    const Time actual = r.seek() + r.rotational_latency();
    const auto error = static_cast<double>((r.predicted_positioning - actual).count());
    prediction_error_.add(error);
    prediction_abs_error_.add(std::abs(error));
  }

  if (first) {
    first_arrival_ = r.command.arrival;
    last_completion_ = r.completion;
  } else {
    first_arrival_ = std::min(first_arrival_, r.command.arrival);
    last_completion_ = std::max(last_completion_, r.completion);
  }
}

const MomentAccumulator* RunMetrics::response_of(RequestClass cls) const {
  const auto i = static_cast<std::size_t>(cls);
  if (i >= kClasses || by_class_[i].count() == 0) return nullptr;
  return &by_class_[i];
}

std::optional<double> RunMetrics::response_quantile_ms(double q) const {
  const auto v = histogram_.value_at_quantile(q);
  if (!v) return std::nullopt;
  return ps_to_ms(*v);
}

std::optional<Time> RunMetrics::span() const {
  if (count() == 0) return std::nullopt;
  return last_completion_ - first_arrival_;
}

std::optional<double> RunMetrics::utilization() const {
  const auto s = span();
  if (!s || s->count() <= 0) return std::nullopt;
  return static_cast<double>(busy_.count()) / static_cast<double>(s->count());
}

std::optional<double> RunMetrics::throughput_requests_per_s() const {
  const auto s = span();
  if (!s || s->count() <= 0) return std::nullopt;
  return static_cast<double>(count()) / to_s(*s);
}

std::optional<double> RunMetrics::throughput_mb_per_s() const {
  const auto s = span();
  if (!s || s->count() <= 0) return std::nullopt;
  return static_cast<double>(bytes_) / 1e6 / to_s(*s);
}

nlohmann::json RunMetrics::to_json() const {
  nlohmann::json j = nlohmann::json::object();
  const std::uint64_t n = count();
  j["requests"] = n;
  j["reads"] = reads_;
  j["writes"] = writes_;
  j["data_errors"] = data_errors_;
  j["bytes"] = bytes_;

  const auto as_double = [](const std::optional<std::int64_t>& v) -> std::optional<double> {
    if (!v) return std::nullopt;
    return static_cast<double>(*v);
  };
  j["response_mean_ms"] = ms_or_null(response_.mean());
  j["response_stddev_ms"] = ms_or_null(response_.stddev());
  j["response_min_ms"] = ms_or_null(as_double(histogram_.min()));
  j["response_p50_ms"] = or_null(response_quantile_ms(0.50));
  j["response_p95_ms"] = or_null(response_quantile_ms(0.95));
  j["response_p99_ms"] = or_null(response_quantile_ms(0.99));
  j["response_max_ms"] = ms_or_null(as_double(histogram_.max()));
  j["response_scv"] = or_null(response_.scv());
  j["response_jain_fairness"] = or_null(response_.jain_fairness());
  j["response_percentile_relative_error"] = histogram_.relative_error_bound();

  nlohmann::json by_class = nlohmann::json::object();
  for (std::size_t i = 0; i < kClasses; ++i) {
    const MomentAccumulator& m = by_class_[i];
    if (m.count() == 0) continue;
    by_class[request_class_key(static_cast<RequestClass>(i))] = {
        {"requests", m.count()},
        {"response_mean_ms", ms_or_null(m.mean())},
        {"response_stddev_ms", ms_or_null(m.stddev())},
        {"response_max_ms", ms_or_null(m.max())},
        {"response_scv", or_null(m.scv())},
        {"response_jain_fairness", or_null(m.jain_fairness())},
    };
  }
  j["by_class"] = std::move(by_class);

  j["seek_distance_total_cylinders"] = seek_distance_total_;
  j["seek_distance_mean_cylinders"] =
      n == 0 ? nlohmann::json(nullptr)
             : nlohmann::json(static_cast<double>(seek_distance_total_) / static_cast<double>(n));

  j["queue_wait_mean_ms"] = ms_or_null(queue_wait_.mean());
  j["seek_mean_ms"] = ms_or_null(seek_.mean());
  j["rotational_latency_mean_ms"] = ms_or_null(rotational_latency_.mean());
  j["transfer_mean_ms"] = ms_or_null(transfer_.mean());
  j["service_mean_ms"] = ms_or_null(service_.mean());

  const auto s = span();
  j["busy_ms"] = n == 0 ? nlohmann::json(nullptr) : nlohmann::json(ps_to_ms(static_cast<double>(busy_.count())));
  j["span_ms"] = s ? nlohmann::json(ps_to_ms(static_cast<double>(s->count()))) : nlohmann::json(nullptr);
  j["utilization"] = or_null(utilization());
  j["throughput_requests_per_s"] = or_null(throughput_requests_per_s());
  j["throughput_mb_per_s"] = or_null(throughput_mb_per_s());

  j["prediction_samples"] = prediction_abs_error_.count();
  j["prediction_mean_abs_error_ms"] = ms_or_null(prediction_abs_error_.mean());
  j["prediction_mean_error_ms"] = ms_or_null(prediction_error_.mean());
  j["prediction_max_abs_error_ms"] = ms_or_null(prediction_abs_error_.max());
  return j;
}

// --- CSV -----------------------------------------------------------------------------------------

void write_histogram_csv(std::ostream& os, const LogLinearHistogram& histogram) {
  os << "lower_ms,upper_ms,count,cumulative_fraction\n";
  const std::uint64_t total = histogram.count();
  std::uint64_t cumulative = 0;
  for (const HistogramBucket& b : histogram.buckets()) {
    cumulative += b.count;
    os << fmt::format("{},{},{},{}\n", ps_to_ms(static_cast<double>(b.lower)), ps_to_ms(static_cast<double>(b.upper)),
                      b.count, static_cast<double>(cumulative) / static_cast<double>(total));
  }
}

void write_response_histogram_csv(std::ostream& os, const RunMetrics& metrics) {
  write_histogram_csv(os, metrics.response_histogram());
}

}  // namespace drivevp
