// The demerit (testbench/metrics/demerit.h): DiskSim's "Trace access time" buckets and the RMS
// horizontal distance between two cumulative distributions (../shared/drives/README.md).
#include <catch2/catch_approx.hpp>
#include <catch2/catch_test_macros.hpp>

#include <cstdint>
#include <random>
#include <stdexcept>

#include "testbench/metrics/demerit.h"

using namespace drivevp;

namespace {
Time us(double v) { return Time{static_cast<std::int64_t>(v * 1e6)}; }
}  // namespace

TEST_CASE("demerit: DiskSim's bucket edges grow by 1 us plus 1 %", "[demerit]") {
  // statdefs "Trace access time": Start 0 step 1 grow 1 -> e_{k+1} = e_k + 1 + floor(e_k / 100).
  CHECK(ServiceTimeDistribution::edge_us(0) == 0);
  CHECK(ServiceTimeDistribution::edge_us(1) == 1);
  CHECK(ServiceTimeDistribution::edge_us(100) == 100);
  CHECK(ServiceTimeDistribution::edge_us(101) == 102);  // 100 + 1 + 1
  CHECK(ServiceTimeDistribution::edge_us(102) == 104);  // 102 + 1 + 1
  std::uint64_t e = 0;
  for (std::size_t k = 0; k < ServiceTimeDistribution::kBuckets; ++k) {
    REQUIRE(ServiceTimeDistribution::edge_us(k) == e);
    e += 1 + e / 100;
  }
  CHECK_THROWS_AS(ServiceTimeDistribution::edge_us(ServiceTimeDistribution::kBuckets), std::out_of_range);
}

TEST_CASE("demerit: the CDF is read at bucket edges, times truncated to whole microseconds", "[demerit]") {
  ServiceTimeDistribution d;
  d.add(us(0.999));  // u = 0: bucket 1 [0, 1)
  d.add(us(1.0));    // u = 1: bucket 2 [1, 2)
  d.add(us(100.5));  // u = 100: bucket 101 [100, 102)
  d.add(us(101.0));  // u = 101: bucket 101
  const auto cdf = d.cdf();
  REQUIRE(cdf.size() == 102);  // points 0 .. 101, the last reaching 1
  CHECK(cdf[0][1] == 0.0);
  CHECK(cdf[1][0] == 0.001);
  CHECK(cdf[1][1] == 0.25);
  CHECK(cdf[2][1] == 0.5);
  CHECK(cdf[100][1] == 0.5);
  CHECK(cdf[101][0] == 0.102);
  CHECK(cdf[101][1] == 1.0);
  CHECK(d.count() == 4);
  CHECK(d.mean_ms() == Catch::Approx((0.999 + 1.0 + 100.5 + 101.0) / 4 / 1000));
  CHECK_THROWS_AS(d.add(Time{-1}), std::invalid_argument);
}

TEST_CASE("demerit: identical distributions give 0, a shifted one its shift", "[demerit]") {
  std::mt19937_64 rng(7);
  std::gamma_distribution<double> service(4.0, 3.0);  // ms, mean 12 ms
  ServiceTimeDistribution a, b, shifted;
  for (int i = 0; i < 20000; ++i) {
    const double ms = service(rng);
    a.add(us(ms * 1000));
    b.add(us(ms * 1000));
    shifted.add(us((ms + 2.0) * 1000));
  }
  CHECK(demerit_ms(a, b) == 0.0);
  // 2 ms to within the bucket resolution: 1 % of times around 2-40 ms, averaged over quantiles.
  CHECK(demerit_ms(shifted, a) == Catch::Approx(2.0).margin(0.05));
  CHECK(demerit_ms(a, shifted) == demerit_ms(shifted, a));
  ServiceTimeDistribution empty;
  CHECK_THROWS_AS(demerit_ms(a, empty), std::invalid_argument);
}

TEST_CASE("demerit: two single values at bucket edges differ by exactly their distance", "[demerit]") {
  // All mass of each in one bucket: the CDFs are ramps over [e_{k-1}, e_k]; read at q = i / 10^4 the
  // distance is the difference of the ramps, exact for buckets of equal width (k <= 100: 1 µs wide).
  ServiceTimeDistribution a, b;
  a.add(us(10));
  b.add(us(50));
  CHECK(demerit_ms(a, b) == Catch::Approx(0.040).epsilon(1e-9));
}
