// Unit tests of the run metrics and the log-linear histogram (testbench/metrics/).
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_floating_point.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "testbench/metrics/histogram.h"
#include "testbench/metrics/metrics.h"

using namespace drivevp;
using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;

namespace {

Time us(std::int64_t v) { return Time{v * 1'000'000}; }
Time ms(std::int64_t v) { return Time{v * 1'000'000'000}; }

/// A record arriving at `arrival`, dispatched after `wait`, with the given seek, rotation and
/// transfer, completing right after the transfer.
RequestRecord make_record(Time arrival, Time wait, Time seek, Time rotation, Time transfer,
                          RequestClass cls = RequestClass::Discrete) {
  RequestRecord r;
  r.command.arrival = arrival;
  r.command.cls = cls;
  r.command.blocks = 8;
  r.dispatch = arrival + wait;
  r.seek_start = r.dispatch;
  r.seek_end = r.seek_start + seek;
  r.transfer_start = r.seek_end + rotation;
  r.transfer_end = r.transfer_start + transfer;
  r.completion = r.transfer_end;
  return r;
}

/// A record with the given response time, all of it service (seek).
RequestRecord with_response(Time arrival, Time response, RequestClass cls = RequestClass::Discrete) {
  return make_record(arrival, Time{0}, response, Time{0}, Time{0}, cls);
}

}  // namespace

TEST_CASE("metrics: histogram buckets are exact below 2S and at most 2^-p wide above", "[metrics]") {
  LogLinearHistogram h;  // p = 10
  CHECK(h.precision_bits() == 10);
  CHECK(h.relative_bucket_width() == std::ldexp(1.0, -10));
  CHECK(h.relative_error_bound() == std::ldexp(1.0, -11));
  for (std::int64_t v = 0; v < 2048; ++v) {
    REQUIRE(h.index_of(v) == static_cast<std::size_t>(v));
    REQUIRE(h.bucket_lower(h.index_of(v)) == v);
    REQUIRE(h.bucket_upper(h.index_of(v)) == v + 1);
  }
  // every value lies in its bucket, edges are contiguous, widths bounded, up to 10^15 and beyond
  std::vector<std::int64_t> probes;
  for (std::int64_t v = 2048; v < std::int64_t{1} << 62; v = v + v / 2 + 7) probes.push_back(v);
  probes.push_back(std::numeric_limits<std::int64_t>::max());
  probes.push_back(std::int64_t{1'000'000'000'000'000});
  for (std::int64_t v : probes) {
    CAPTURE(v);
    const std::size_t i = h.index_of(v);
    const std::int64_t lo = h.bucket_lower(i);
    const std::int64_t hi = h.bucket_upper(i);
    REQUIRE(lo <= v);
    REQUIRE((v < hi || hi == std::numeric_limits<std::int64_t>::max()));
    REQUIRE(static_cast<double>(hi - lo) <= static_cast<double>(lo) * std::ldexp(1.0, -10));
    REQUIRE(h.bucket_upper(i - 1) == lo);
  }
  CHECK(h.index_of(-5) == 0);
  CHECK_THROWS_AS(LogLinearHistogram(0), std::invalid_argument);
  CHECK_THROWS_AS(LogLinearHistogram(21), std::invalid_argument);
}

TEST_CASE("metrics: histogram quantiles are within the error bound on 1..100000 us", "[metrics]") {
  LogLinearHistogram h;
  for (std::int64_t i = 1; i <= 100'000; ++i) h.record(us(i).count());
  REQUIRE(h.count() == 100'000);
  CHECK(h.min() == us(1).count());
  CHECK(h.max() == us(100'000).count());
  const double bound = h.relative_error_bound();
  for (double q : {0.001, 0.01, 0.25, 0.5, 0.9, 0.95, 0.99, 0.999}) {
    CAPTURE(q);
    const double exact = static_cast<double>(us(static_cast<std::int64_t>(std::llround(q * 100'000))).count());
    const auto got = h.value_at_quantile(q);
    REQUIRE(got.has_value());
    CHECK(std::abs(*got - exact) <= exact * bound);
  }
  CHECK(h.value_at_quantile(1.0) == static_cast<double>(us(100'000).count()));
  CHECK(h.value_at_quantile(0.0) == static_cast<double>(us(1).count()));

  LogLinearHistogram empty;
  CHECK_FALSE(empty.value_at_quantile(0.5).has_value());
  CHECK_FALSE(empty.min().has_value());
  CHECK(empty.buckets().empty());
}

TEST_CASE("metrics: histogram quantiles are exact for small integers, merge adds counts", "[metrics]") {
  LogLinearHistogram a, b;
  for (std::int64_t v = 1; v <= 10; ++v) a.record(v);
  b.record(100, 10);
  CHECK(a.value_at_quantile(0.5) == 5.0);
  CHECK(a.value_at_quantile(0.51) == 6.0);
  a.merge(b);
  CHECK(a.count() == 20);
  CHECK(a.value_at_quantile(0.5) == 10.0);
  CHECK(a.value_at_quantile(0.55) == 100.0);
  const auto buckets = a.buckets();
  REQUIRE(buckets.size() == 11);
  CHECK(buckets.back().lower == 100);
  CHECK(buckets.back().upper == 101);
  CHECK(buckets.back().count == 10);
  LogLinearHistogram c(8);
  CHECK_THROWS_AS(a.merge(c), std::invalid_argument);
  a.clear();
  CHECK(a.count() == 0);
}

TEST_CASE("metrics: mean, max, SCV and Jain on 1, 2, 3, 4 ms", "[metrics]") {
  RunMetrics m;
  for (std::int64_t i = 1; i <= 4; ++i) m.add(with_response(ms(10 * i), ms(i)));
  REQUIRE(m.count() == 4);
  // mean 2.5 ms, population variance 1.25 ms^2 -> SCV 0.2; Jain = 10^2 / (4 * 30)
  CHECK_THAT(*m.response().mean(), WithinRel(2.5e9, 1e-12));
  CHECK_THAT(*m.response().variance(), WithinRel(1.25e18, 1e-12));
  CHECK_THAT(*m.response().scv(), WithinRel(0.2, 1e-12));
  CHECK_THAT(*m.response().jain_fairness(), WithinRel(100.0 / 120.0, 1e-12));

  const nlohmann::json j = m.to_json();
  CHECK_THAT(j["response_mean_ms"].get<double>(), WithinRel(2.5, 1e-12));
  CHECK(j["response_max_ms"].get<double>() == 4.0);
  CHECK(j["response_min_ms"].get<double>() == 1.0);
  CHECK_THAT(j["response_stddev_ms"].get<double>(), WithinRel(std::sqrt(1.25), 1e-12));
  CHECK_THAT(j["response_scv"].get<double>(), WithinRel(0.2, 1e-12));
  CHECK_THAT(j["response_jain_fairness"].get<double>(), WithinRel(100.0 / 120.0, 1e-12));
  CHECK_THAT(j["response_p50_ms"].get<double>(), WithinRel(2.0, 1.0 / 2048));
  CHECK_THAT(j["response_p99_ms"].get<double>(), WithinRel(4.0, 1.0 / 2048));
}

TEST_CASE("metrics: SCV and Jain of equal samples, and Jain = 1/(1+SCV)", "[metrics]") {
  MomentAccumulator eq;
  for (int i = 0; i < 5; ++i) eq.add(7.0);
  CHECK(*eq.scv() == 0.0);
  CHECK(*eq.jain_fairness() == 1.0);

  MomentAccumulator a;
  const std::vector<double> xs{3, 1, 4, 1, 5, 9, 2, 6};
  double sum = 0, sum_sq = 0;
  for (double x : xs) {
    a.add(x);
    sum += x;
    sum_sq += x * x;
  }
  CHECK_THAT(*a.jain_fairness(), WithinRel(sum * sum / (8 * sum_sq), 1e-12));
  CHECK_THAT(*a.jain_fairness(), WithinRel(1.0 / (1.0 + *a.scv()), 1e-12));

  MomentAccumulator zeros;
  zeros.add(0.0);
  CHECK_FALSE(zeros.scv().has_value());
  CHECK_FALSE(zeros.jain_fairness().has_value());
}

TEST_CASE("metrics: per-class statistics only for classes that occurred", "[metrics]") {
  RunMetrics m;
  m.add(with_response(ms(0), ms(2), RequestClass::Discrete));
  m.add(with_response(ms(1), ms(4), RequestClass::Discrete));
  m.add(with_response(ms(2), ms(10), RequestClass::Continuous));
  REQUIRE(m.response_of(RequestClass::Discrete) != nullptr);
  REQUIRE(m.response_of(RequestClass::Continuous) != nullptr);
  CHECK(m.response_of(RequestClass::RealTime) == nullptr);
  CHECK(m.response_of(RequestClass::Aperiodic) == nullptr);
  CHECK(m.response_of(RequestClass::Discrete)->count() == 2);

  const nlohmann::json j = m.to_json();
  const auto& by_class = j["by_class"];
  CHECK(by_class.size() == 2);
  CHECK(by_class.contains("discrete"));
  CHECK(by_class.contains("continuous"));
  CHECK_FALSE(by_class.contains("real_time"));
  CHECK(by_class["discrete"]["requests"] == 2);
  CHECK_THAT(by_class["discrete"]["response_mean_ms"].get<double>(), WithinRel(3.0, 1e-12));
  // 2, 4 ms: Jain = 36 / (2 * 20) = 0.9, SCV = 1 / 9
  CHECK_THAT(by_class["discrete"]["response_jain_fairness"].get<double>(), WithinRel(0.9, 1e-12));
  CHECK_THAT(by_class["discrete"]["response_scv"].get<double>(), WithinRel(1.0 / 9.0, 1e-12));
  CHECK(by_class["continuous"]["response_jain_fairness"].get<double>() == 1.0);
  CHECK(by_class["continuous"]["response_max_ms"].get<double>() == 10.0);
}

TEST_CASE("metrics: utilization, throughput and breakdown on a hand-built sequence", "[metrics]") {
  RunMetrics m;
  // request 0: arrives 0, waits 0, seek 3 ms, rotation 2 ms, transfer 1 ms -> completes 6 ms
  RequestRecord a = make_record(ms(0), ms(0), ms(3), ms(2), ms(1));
  a.seek_distance = 100;
  a.predicted_positioning = ms(6);  // actual 5 ms: error +1 ms
  // request 1: arrives 2 ms, waits 4 ms (dispatch 6), seek 1, rotation 3, transfer 1 -> completes 11 ms
  RequestRecord b = make_record(ms(2), ms(4), ms(1), ms(3), ms(1));
  b.seek_distance = 50;
  b.predicted_positioning = ms(1);  // actual 4 ms: error -3 ms
  b.command.op = Op::Write;
  b.command.blocks = 2048;  // 1 MiB
  // request 2: arrives 15, no wait, seek 2, rotation 2, transfer 1 -> completes 20 ms; no prediction
  RequestRecord c = make_record(ms(15), ms(0), ms(2), ms(2), ms(1));
  c.seek_distance = 0;
  c.data_ok = false;
  m.add(a);
  m.add(b);
  m.add(c);

  CHECK(m.span() == ms(20));
  CHECK(m.busy() == ms(16));
  CHECK_THAT(*m.utilization(), WithinRel(16.0 / 20.0, 1e-12));
  CHECK_THAT(*m.throughput_requests_per_s(), WithinRel(3.0 / 0.020, 1e-12));
  const double bytes = (8 + 2048 + 8) * 512.0;
  CHECK(m.bytes() == static_cast<std::uint64_t>(bytes));
  CHECK_THAT(*m.throughput_mb_per_s(), WithinRel(bytes / 1e6 / 0.020, 1e-12));

  const nlohmann::json j = m.to_json();
  CHECK(j["requests"] == 3);
  CHECK(j["reads"] == 2);
  CHECK(j["writes"] == 1);
  CHECK(j["data_errors"] == 1);
  CHECK(j["seek_distance_total_cylinders"] == 150);
  CHECK_THAT(j["seek_distance_mean_cylinders"].get<double>(), WithinRel(50.0, 1e-12));
  CHECK_THAT(j["queue_wait_mean_ms"].get<double>(), WithinRel(4.0 / 3.0, 1e-12));
  CHECK_THAT(j["seek_mean_ms"].get<double>(), WithinRel(2.0, 1e-12));
  CHECK_THAT(j["rotational_latency_mean_ms"].get<double>(), WithinRel(7.0 / 3.0, 1e-12));
  CHECK_THAT(j["transfer_mean_ms"].get<double>(), WithinRel(1.0, 1e-12));
  CHECK_THAT(j["service_mean_ms"].get<double>(), WithinRel(16.0 / 3.0, 1e-12));
  CHECK(j["busy_ms"].get<double>() == 16.0);
  CHECK(j["span_ms"].get<double>() == 20.0);
  CHECK_THAT(j["utilization"].get<double>(), WithinRel(0.8, 1e-12));
  CHECK_THAT(j["throughput_requests_per_s"].get<double>(), WithinRel(150.0, 1e-12));
  CHECK(j["prediction_samples"] == 2);
  CHECK_THAT(j["prediction_mean_abs_error_ms"].get<double>(), WithinRel(2.0, 1e-12));
  CHECK_THAT(j["prediction_mean_error_ms"].get<double>(), WithinRel(-1.0, 1e-12));
  CHECK_THAT(j["prediction_max_abs_error_ms"].get<double>(), WithinRel(3.0, 1e-12));
  // response times 6, 9, 5 ms
  CHECK(j["response_max_ms"].get<double>() == 9.0);
  CHECK_THAT(j["response_mean_ms"].get<double>(), WithinRel(20.0 / 3.0, 1e-12));
}

TEST_CASE("metrics: JSON has every key, null when there are no samples, never NaN", "[metrics]") {
  const std::vector<std::string> keys{"requests",
                                      "reads",
                                      "writes",
                                      "data_errors",
                                      "bytes",
                                      "response_mean_ms",
                                      "response_stddev_ms",
                                      "response_min_ms",
                                      "response_p50_ms",
                                      "response_p95_ms",
                                      "response_p99_ms",
                                      "response_max_ms",
                                      "response_scv",
                                      "response_jain_fairness",
                                      "response_percentile_relative_error",
                                      "by_class",
                                      "seek_distance_total_cylinders",
                                      "seek_distance_mean_cylinders",
                                      "queue_wait_mean_ms",
                                      "seek_mean_ms",
                                      "rotational_latency_mean_ms",
                                      "transfer_mean_ms",
                                      "service_mean_ms",
                                      "busy_ms",
                                      "span_ms",
                                      "utilization",
                                      "throughput_requests_per_s",
                                      "throughput_mb_per_s",
                                      "prediction_samples",
                                      "prediction_mean_abs_error_ms",
                                      "prediction_mean_error_ms",
                                      "prediction_max_abs_error_ms"};
  const std::vector<std::string> null_when_empty{"response_mean_ms",
                                                 "response_stddev_ms",
                                                 "response_min_ms",
                                                 "response_p50_ms",
                                                 "response_p95_ms",
                                                 "response_p99_ms",
                                                 "response_max_ms",
                                                 "response_scv",
                                                 "response_jain_fairness",
                                                 "seek_distance_mean_cylinders",
                                                 "queue_wait_mean_ms",
                                                 "seek_mean_ms",
                                                 "rotational_latency_mean_ms",
                                                 "transfer_mean_ms",
                                                 "service_mean_ms",
                                                 "busy_ms",
                                                 "span_ms",
                                                 "utilization",
                                                 "throughput_requests_per_s",
                                                 "throughput_mb_per_s",
                                                 "prediction_mean_abs_error_ms",
                                                 "prediction_mean_error_ms",
                                                 "prediction_max_abs_error_ms"};

  const RunMetrics empty;
  const nlohmann::json j = empty.to_json();
  CHECK(j.size() == keys.size());
  for (const auto& k : keys) {
    CAPTURE(k);
    CHECK(j.contains(k));
  }
  for (const auto& k : null_when_empty) {
    CAPTURE(k);
    CHECK(j[k].is_null());
  }
  CHECK(j["requests"] == 0);
  CHECK(j["by_class"].is_object());
  CHECK(j["by_class"].empty());
  CHECK(j.dump().find("NaN") == std::string::npos);
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string& k = it.key();
    if (k.find("_ms") != std::string::npos) CHECK((it->is_null() || it->is_number_float()));
  }

  // one request with zero response time: SCV, Jain, utilization and throughput have no defined value
  RunMetrics zero;
  zero.add(with_response(ms(5), Time{0}));
  const nlohmann::json z = zero.to_json();
  CHECK(z["response_mean_ms"].get<double>() == 0.0);
  CHECK(z["response_scv"].is_null());
  CHECK(z["response_jain_fairness"].is_null());
  CHECK(z["utilization"].is_null());
  CHECK(z["throughput_requests_per_s"].is_null());
  CHECK(z["prediction_samples"] == 0);
  CHECK(z["prediction_mean_abs_error_ms"].is_null());
  CHECK(z.dump().find("NaN") == std::string::npos);
  CHECK(z.dump() == zero.to_json().dump());  // deterministic
}

TEST_CASE("metrics: response-time histogram CSV", "[metrics]") {
  RunMetrics m;
  m.add(with_response(ms(0), us(1)));  // 10^6 ps: bucket width 2^(19-10) = 512 ps
  m.add(with_response(ms(0), us(1)));
  m.add(with_response(ms(0), ms(3)));
  std::ostringstream os;
  write_response_histogram_csv(os, m);
  std::istringstream in(os.str());
  std::string line;
  std::vector<std::string> lines;
  while (std::getline(in, line)) lines.push_back(line);
  REQUIRE(lines.size() == 3);
  CHECK(lines[0] == "lower_ms,upper_ms,count,cumulative_fraction");
  const auto& h = m.response_histogram();
  const std::size_t i = h.index_of(us(1).count());
  const double lower_ms = static_cast<double>(h.bucket_lower(i)) / 1e9;
  const double upper_ms = static_cast<double>(h.bucket_upper(i)) / 1e9;
  CHECK(lines[1].rfind(fmt::format("{},{},2,", lower_ms, upper_ms), 0) == 0);
  CHECK(lower_ms <= 0.001);
  CHECK(upper_ms > 0.001);
  CHECK(lines[2].substr(lines[2].size() - 2) == ",1");

  std::ostringstream empty_csv;
  write_histogram_csv(empty_csv, LogLinearHistogram{});
  CHECK(empty_csv.str() == "lower_ms,upper_ms,count,cumulative_fraction\n");
}
