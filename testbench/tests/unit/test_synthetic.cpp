// Unit tests of the synthetic workload generator (testbench/workload/synthetic.h).
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_floating_point.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <cmath>
#include <cstdint>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "testbench/workload/synthetic.h"

using namespace drivevp;
using Catch::Matchers::ContainsSubstring;
using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;

namespace {

SyntheticOptions base_options() {
  SyntheticOptions o;
  o.seed = 42;
  o.requests = 1000;
  o.capacity_blocks = 1'000'000;
  return o;
}

std::vector<Command> generate(const SyntheticOptions& o) {
  SyntheticSource src(o);
  std::vector<Command> out;
  SourceRequest r;
  while (src.next(r)) out.push_back(r.command);
  return out;
}

bool same(const Command& a, const Command& b) {
  return a.lbn == b.lbn && a.blocks == b.blocks && a.op == b.op && a.arrival == b.arrival && a.cls == b.cls;
}

struct Moments {
  double mean = 0;
  double stddev = 0;
};

template <class F>
Moments moments(const std::vector<Command>& cmds, F value) {
  double sum = 0;
  for (const auto& c : cmds) sum += value(c);
  const double mean = sum / static_cast<double>(cmds.size());
  double sq = 0;
  for (const auto& c : cmds) sq += (value(c) - mean) * (value(c) - mean);
  return {mean, std::sqrt(sq / static_cast<double>(cmds.size()))};
}

}  // namespace

TEST_CASE("synthetic: same seed gives the same sequence, a different seed a different one", "[synthetic]") {
  SyntheticOptions o = base_options();
  o.address = AddressDistribution::Zipf;
  o.size = SizeDistribution::Gamma;
  o.size_mean_blocks = 390.625;
  o.size_stddev_blocks = 195.3125;
  o.read_fraction = 0.5;
  const auto a = generate(o);
  const auto b = generate(o);
  REQUIRE(a.size() == 1000);
  REQUIRE(b.size() == 1000);
  for (std::size_t i = 0; i < a.size(); ++i) REQUIRE(same(a[i], b[i]));

  o.seed = 43;
  const auto c = generate(o);
  std::size_t differing = 0;
  for (std::size_t i = 0; i < a.size(); ++i) differing += same(a[i], c[i]) ? 0 : 1;
  CHECK(differing > 990);

  // reset() restarts the same sequence
  o.seed = 42;
  SyntheticSource src(o);
  SourceRequest r;
  for (int i = 0; i < 10; ++i) REQUIRE(src.next(r));
  src.reset();
  REQUIRE(src.next(r));
  CHECK(same(r.command, a[0]));
  CHECK(r.origin_line == 0);
}

TEST_CASE("synthetic: generates exactly `requests` requests in non-decreasing arrival order", "[synthetic]") {
  SyntheticOptions o = base_options();
  o.requests = 5000;
  SyntheticSource src(o);
  SourceRequest r;
  Time last{0};
  std::uint64_t n = 0;
  while (src.next(r)) {
    CHECK(r.command.arrival >= last);
    last = r.command.arrival;
    ++n;
  }
  CHECK(n == 5000);
  CHECK(src.generated() == 5000);
  CHECK_FALSE(src.next(r));
}

TEST_CASE("synthetic: Poisson inter-arrivals have mean 1/rate (1%) and CV 1", "[synthetic]") {
  SyntheticOptions o = base_options();
  o.requests = 200'000;
  o.rate_per_s = 250.0;  // mean 4 ms
  const auto cmds = generate(o);
  double sum = 0, sum_sq = 0;
  Time prev{0};
  for (const auto& c : cmds) {
    const double gap = to_ms(c.arrival - prev);
    prev = c.arrival;
    sum += gap;
    sum_sq += gap * gap;
  }
  const double n = static_cast<double>(cmds.size());
  const double mean = sum / n;
  const double cv = std::sqrt(sum_sq / n - mean * mean) / mean;
  CHECK_THAT(mean, WithinRel(4.0, 0.01));
  CHECK_THAT(cv, WithinAbs(1.0, 0.02));
}

TEST_CASE("synthetic: fixed-rate arrivals are exact", "[synthetic]") {
  SyntheticOptions o = base_options();
  o.arrival = ArrivalProcess::Fixed;
  o.rate_per_s = 1000.0;  // 1 ms
  o.requests = 100'000;
  const auto cmds = generate(o);
  for (std::size_t i = 0; i < cmds.size(); ++i) {
    REQUIRE(cmds[i].arrival == Time{static_cast<std::int64_t>(i + 1) * 1'000'000'000});
  }
  // a rate whose interval is not a whole number of ps: rounded per request, no drift
  o.rate_per_s = 3.0;
  o.requests = 3000;
  const auto thirds = generate(o);
  CHECK(thirds[0].arrival == Time{333'333'333'333});
  CHECK(thirds[2].arrival == Time{1'000'000'000'000});
  CHECK(thirds[2999].arrival == Time{1'000'000'000'000'000});
}

TEST_CASE("synthetic: uniform addresses cover [0, capacity - size] with the right mean", "[synthetic]") {
  SyntheticOptions o = base_options();
  o.requests = 200'000;
  o.size_blocks = 8;
  o.alignment_blocks = 8;
  const auto cmds = generate(o);
  std::uint64_t lo = ~std::uint64_t{0}, hi = 0;
  for (const auto& c : cmds) {
    REQUIRE(c.lbn % 8 == 0);
    REQUIRE(c.end_lbn() <= o.capacity_blocks);
    lo = std::min(lo, c.lbn);
    hi = std::max(hi, c.lbn);
  }
  const auto m = moments(cmds, [](const Command& c) { return static_cast<double>(c.lbn); });
  const double expected_mean = (1'000'000.0 - 8.0) / 2.0;  // slots 0..124999 of 8 blocks
  const double expected_sd = 8.0 * std::sqrt((125000.0 * 125000.0 - 1) / 12.0);
  CHECK_THAT(m.mean, WithinRel(expected_mean, 0.01));
  CHECK_THAT(m.stddev, WithinRel(expected_sd, 0.01));
  CHECK(lo < 1000);
  CHECK(hi > 999'000);
}

TEST_CASE("synthetic: Zipf sampler follows 1/k^theta", "[synthetic]") {
  for (double theta : {0.5, 0.99, 1.0, 1.5}) {
    CAPTURE(theta);
    const std::uint64_t n = 100;
    ZipfSampler zipf(n, theta);
    std::mt19937_64 engine(7);
    std::vector<std::uint64_t> counts(n + 1, 0);
    const int draws = 400'000;
    for (int i = 0; i < draws; ++i) {
      const auto k = zipf(engine);
      REQUIRE(k >= 1);
      REQUIRE(k <= n);
      ++counts[k];
    }
    double pmf_sum = 0;
    for (std::uint64_t k = 1; k <= n; ++k) pmf_sum += zipf.pmf(k);
    CHECK_THAT(pmf_sum, WithinAbs(1.0, 1e-12));
    for (std::uint64_t k = 1; k <= 5; ++k) {
      CAPTURE(k);
      CHECK_THAT(static_cast<double>(counts[k]) / draws, WithinRel(zipf.pmf(k), 0.03));
    }
    // ratio of rank 1 to rank 2 is 2^theta
    CHECK_THAT(static_cast<double>(counts[1]) / static_cast<double>(counts[2]), WithinRel(std::pow(2.0, theta), 0.03));
  }
}

TEST_CASE("synthetic: Zipf sampler is O(1) for huge n and stays in range", "[synthetic]") {
  const std::uint64_t n = std::uint64_t{1} << 40;
  ZipfSampler zipf(n, 0.99);
  std::mt19937_64 engine(1);
  std::uint64_t ones = 0;
  for (int i = 0; i < 100'000; ++i) {
    const auto k = zipf(engine);
    REQUIRE(k >= 1);
    REQUIRE(k <= n);
    ones += k == 1 ? 1 : 0;
  }
  // P(1) = 1 / H(2^40, 0.99); H ~ 28.7 (zeta approximation), so about 3.5% of draws
  CHECK(ones > 2500);
  CHECK(ones < 4500);
}

TEST_CASE("synthetic: extent permutation is a bijection that scatters low ranks", "[synthetic]") {
  for (std::uint64_t n : {1ULL, 2ULL, 3ULL, 7ULL, 16ULL, 1000ULL, 4097ULL}) {
    CAPTURE(n);
    ExtentPermutation p(n);
    std::set<std::uint64_t> images;
    for (std::uint64_t x = 0; x < n; ++x) {
      const auto y = p(x);
      REQUIRE(y < n);
      images.insert(y);
    }
    CHECK(images.size() == n);
  }
  ExtentPermutation p(1'000'000);
  int low = 0;
  for (std::uint64_t x = 0; x < 10; ++x) low += p(x) < 1000 ? 1 : 0;
  CHECK(low < 3);  // the ten hottest extents are not packed at LBN 0
}

TEST_CASE("synthetic: Zipf addresses follow the rank pmf through the permutation", "[synthetic]") {
  SyntheticOptions o = base_options();
  o.address = AddressDistribution::Zipf;
  o.zipf_theta = 0.99;
  o.alignment_blocks = 4;
  o.size_blocks = 4;
  o.max_blocks = 4;
  o.size_max_blocks = 4;
  o.capacity_blocks = 200 * 4;  // 200 extents
  o.requests = 300'000;
  const auto cmds = generate(o);
  ExtentPermutation perm(200);
  ZipfSampler zipf(200, 0.99);
  std::map<std::uint64_t, std::uint64_t> by_lbn;
  for (const auto& c : cmds) {
    REQUIRE(c.lbn % 4 == 0);
    REQUIRE(c.end_lbn() <= o.capacity_blocks);
    ++by_lbn[c.lbn];
  }
  for (std::uint64_t rank = 1; rank <= 5; ++rank) {
    CAPTURE(rank);
    const std::uint64_t lbn = perm(rank - 1) * 4;
    CHECK_THAT(static_cast<double>(by_lbn[lbn]) / 300'000.0, WithinRel(zipf.pmf(rank), 0.03));
  }
}

TEST_CASE("synthetic: size distributions have the configured moments", "[synthetic]") {
  SyntheticOptions o = base_options();
  o.requests = 200'000;

  SECTION("constant") {
    o.size = SizeDistribution::Constant;
    o.size_blocks = 16;
    for (const auto& c : generate(o)) REQUIRE(c.blocks == 16);
  }
  SECTION("uniform") {
    o.size = SizeDistribution::Uniform;
    o.size_min_blocks = 4;
    o.size_max_blocks = 36;
    const auto cmds = generate(o);
    std::set<std::uint32_t> seen;
    for (const auto& c : cmds) {
      REQUIRE(c.blocks >= 4);
      REQUIRE(c.blocks <= 36);
      seen.insert(c.blocks);
    }
    CHECK(seen.size() == 33);
    const auto m = moments(cmds, [](const Command& c) { return static_cast<double>(c.blocks); });
    CHECK_THAT(m.mean, WithinRel(20.0, 0.01));
    CHECK_THAT(m.stddev, WithinRel(std::sqrt((33.0 * 33.0 - 1) / 12.0), 0.02));
  }
  SECTION("exponential, paper 002 §4 (mean 4 KB)") {
    o.size = SizeDistribution::Exponential;
    o.size_mean_blocks = 8.0;
    const auto m = moments(generate(o), [](const Command& c) { return static_cast<double>(c.blocks); });
    CHECK_THAT(m.mean, WithinRel(8.0, 0.02));  // rounding to whole blocks and the clamp at 1 add < 1%
    CHECK_THAT(m.stddev, WithinRel(8.0, 0.03));
  }
  SECTION("normal, paper 003 Table 2 D-requests (70,000 B, sd 20,000 B)") {
    o.size = SizeDistribution::Normal;
    o.size_mean_blocks = 70000.0 / 512;
    o.size_stddev_blocks = 20000.0 / 512;
    const auto m = moments(generate(o), [](const Command& c) { return static_cast<double>(c.blocks); });
    CHECK_THAT(m.mean, WithinRel(70000.0 / 512, 0.01));
    CHECK_THAT(m.stddev, WithinRel(20000.0 / 512, 0.02));
  }
  SECTION("normal is truncated at 1 block") {
    o.size = SizeDistribution::Normal;
    o.size_mean_blocks = 2.0;
    o.size_stddev_blocks = 5.0;
    for (const auto& c : generate(o)) REQUIRE(c.blocks >= 1);
  }
  SECTION("gamma, paper 003 Table 2 C-requests (200,000 B, sd 100,000 B)") {
    o.size = SizeDistribution::Gamma;
    o.size_mean_blocks = 200000.0 / 512;
    o.size_stddev_blocks = 100000.0 / 512;
    const auto m = moments(generate(o), [](const Command& c) { return static_cast<double>(c.blocks); });
    CHECK_THAT(m.mean, WithinRel(200000.0 / 512, 0.01));
    CHECK_THAT(m.stddev, WithinRel(100000.0 / 512, 0.02));
  }
  SECTION("gamma with shape < 1") {
    o.size = SizeDistribution::Gamma;
    o.size_mean_blocks = 50.0;
    o.size_stddev_blocks = 100.0;  // shape 0.25
    const auto m = moments(generate(o), [](const Command& c) { return static_cast<double>(c.blocks); });
    CHECK_THAT(m.mean, WithinRel(50.0, 0.03));
    CHECK_THAT(m.stddev, WithinRel(100.0, 0.05));
  }
  SECTION("sizes are clamped to max_blocks") {
    o.size = SizeDistribution::Exponential;
    o.size_mean_blocks = 100.0;
    o.max_blocks = 64;
    std::uint32_t biggest = 0;
    for (const auto& c : generate(o)) biggest = std::max(biggest, c.blocks);
    CHECK(biggest == 64);
  }
}

TEST_CASE("synthetic: read fraction", "[synthetic]") {
  SyntheticOptions o = base_options();
  o.requests = 100'000;
  for (double f : {0.0, 0.3, 1.0}) {
    CAPTURE(f);
    o.read_fraction = f;
    std::uint64_t reads = 0;
    for (const auto& c : generate(o)) reads += c.is_read() ? 1 : 0;
    CHECK_THAT(static_cast<double>(reads) / 100'000.0, WithinAbs(f, 0.01));
  }
}

TEST_CASE("synthetic: request class is stamped on every request", "[synthetic]") {
  SyntheticOptions o = base_options();
  o.request_class = RequestClass::Continuous;
  for (const auto& c : generate(o)) REQUIRE(c.cls == RequestClass::Continuous);
}

TEST_CASE("synthetic: validate() names the field and the allowed range", "[synthetic]") {
  const auto expect_error = [](const SyntheticOptions& o, const std::string& field, const std::string& range) {
    CAPTURE(field);
    try {
      o.validate();
      FAIL("validate() accepted an invalid " << field);
    } catch (const std::invalid_argument& e) {
      CHECK_THAT(e.what(), ContainsSubstring(field + " = ") && ContainsSubstring("allowed: " + range));
    }
    CHECK_THROWS_AS(SyntheticSource(o), std::invalid_argument);
  };
  const SyntheticOptions good = base_options();
  CHECK_NOTHROW(good.validate());

  SyntheticOptions o = good;
  o.requests = 0;
  expect_error(o, "requests", ">= 1");
  o = good;
  o.rate_per_s = 0;
  expect_error(o, "rate_per_s", "> 0 (requests per second)");
  o.rate_per_s = std::nan("");
  expect_error(o, "rate_per_s", "> 0 (requests per second)");
  o = good;
  o.zipf_theta = -1;
  expect_error(o, "zipf_theta", "> 0");
  o = good;
  o.capacity_blocks = 0;
  expect_error(o, "capacity_blocks", ">= 1 (blocks)");
  o = good;
  o.alignment_blocks = 0;
  expect_error(o, "alignment_blocks", "[1, capacity_blocks = 1000000] (blocks)");
  o = good;
  o.max_blocks = 0;
  expect_error(o, "max_blocks", "[1, capacity_blocks = 1000000] (blocks)");
  o.capacity_blocks = 100;
  o.max_blocks = 101;
  expect_error(o, "max_blocks", "[1, capacity_blocks = 100] (blocks)");
  o = good;
  o.size_blocks = 0;
  expect_error(o, "size_blocks", "[1, max_blocks = 8192] (blocks)");
  o.size_blocks = 8193;
  expect_error(o, "size_blocks", "[1, max_blocks = 8192] (blocks)");
  o = good;
  o.size_min_blocks = 0;
  expect_error(o, "size_min_blocks", "[1, max_blocks = 8192] (blocks)");
  o = good;
  o.size_min_blocks = 10;
  o.size_max_blocks = 9;
  expect_error(o, "size_max_blocks", "[size_min_blocks = 10, max_blocks = 8192] (blocks)");
  o = good;
  o.size_mean_blocks = 0;
  expect_error(o, "size_mean_blocks", "> 0 (blocks)");
  o = good;
  o.size_stddev_blocks = -1;
  expect_error(o, "size_stddev_blocks", ">= 0 (blocks)");
  o = good;
  o.size = SizeDistribution::Gamma;
  o.size_stddev_blocks = 0;
  expect_error(o, "size_stddev_blocks", "> 0 (blocks) for size = \"gamma\"");
  o = good;
  o.read_fraction = 1.5;
  expect_error(o, "read_fraction", "[0, 1]");
  o.read_fraction = -0.1;
  expect_error(o, "read_fraction", "[0, 1]");
  o = good;
  o.request_class = static_cast<RequestClass>(9);
  expect_error(o, "request_class", "discrete, continuous, real_time or aperiodic");

  CHECK_THROWS_AS(ZipfSampler(0, 1.0), std::invalid_argument);
  CHECK_THROWS_AS(ZipfSampler(10, 0.0), std::invalid_argument);
  CHECK_THROWS_AS(ExtentPermutation(0), std::invalid_argument);
}

TEST_CASE("synthetic: spellings and describe()", "[synthetic]") {
  CHECK(parse_arrival_process("poisson") == ArrivalProcess::Poisson);
  CHECK(parse_arrival_process("fixed") == ArrivalProcess::Fixed);
  CHECK_FALSE(parse_arrival_process("bursty").has_value());
  CHECK(parse_address_distribution("zipf") == AddressDistribution::Zipf);
  CHECK(parse_address_distribution("uniform") == AddressDistribution::Uniform);
  CHECK_FALSE(parse_address_distribution("normal").has_value());
  for (auto s : {SizeDistribution::Constant, SizeDistribution::Uniform, SizeDistribution::Exponential,
                 SizeDistribution::Normal, SizeDistribution::Gamma}) {
    CHECK(parse_size_distribution(to_string(s)) == s);
  }
  CHECK_FALSE(parse_size_distribution("pareto").has_value());

  SyntheticOptions o = base_options();
  o.address = AddressDistribution::Zipf;
  o.alignment_blocks = 8;
  o.read_fraction = 0.7;
  const std::string d = SyntheticSource(o).describe();
  CHECK(d ==
        "synthetic: 1000 requests, poisson arrivals at 100 req/s, zipf(theta=0.99) addresses over 1000000 blocks "
        "aligned to 8, constant 8-block sizes, 70% reads, seed 42");
  CHECK(d.find('\n') == std::string::npos);
}
