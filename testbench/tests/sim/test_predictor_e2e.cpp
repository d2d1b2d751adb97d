// The firmware's positioning-time predictor against the drive through the whole platform: under
// SPTF with requests that cross tracks and cylinders, on a disk whose parameter page samples every
// seek distance (so the predictor's seek table is exact), every request's predicted positioning
// equals its measured seek + rotational latency. This catches the firmware losing track of the
// heads after a multi-track transfer (they end on the last block's track, not the first's) and
// a predictor that ignores the firmware's own command path (docs/models/firmware.md).
#include <catch2/catch_test_macros.hpp>

#include <cstdint>
#include <cstdlib>

#include "sim_test_util.h"

namespace drivevp {
namespace {

using namespace simtest;

TEST_CASE("sim: Under SPTF with track-crossing requests every prediction is the measured positioning",
          "[sim][predictor][sptf]") {
  // HP 97560 timing on 30 cylinders (19 heads x 72 sectors), no skew: the page's 96 samples cover
  // every distance 1..29 exactly. Poisson arrivals at 25/s of 40-200 block requests (a track is
  // 72 blocks), 70 % reads: the queue builds up, so SPTF chooses among several requests.
  TempDir dir("predictor-e2e");
  const RunResult r = run_platform(
      dir,
      synthetic_scenario("sptf",
                         "arrival = \"poisson\"\nrate_per_s = 25\naddress = \"uniform\"\nsize = \"uniform\"\n"
                         "size_min_blocks = 40\nsize_max_blocks = 200\nread_fraction = 0.7\n",
                         "seed = 5\nrequests = 3000\n"),
      {"device.cylinders=30", "device.track_skew=0", "device.cylinder_skew=0"});
  REQUIRE(r.checks_passed);
  const Csv csv(dir / "out" / "requests.csv");
  REQUIRE(csv.size() == 3000);
  constexpr std::int64_t kBusPs = 10'000;  // one bus access (RouterParams)
  constexpr std::uint64_t kTrack = 72;
  constexpr std::uint64_t kCylinder = 19 * kTrack;
  std::size_t mismatches = 0, first_mismatch = 0, after_track_crossing = 0, after_cylinder_crossing = 0;
  std::size_t queued = 0, writes = 0;
  std::int64_t max_abs_error = 0;
  for (std::size_t row = 0; row < csv.size(); ++row) {
    const std::int64_t predicted = csv.ps(row, "predicted_positioning_ms");
    const std::int64_t measured = csv.ps(row, "seek_ms") + csv.ps(row, "rotational_latency_ms");
    const std::int64_t error = std::llabs(predicted - measured);
    if (error > max_abs_error) max_abs_error = error;
    if (error != 0 && mismatches++ == 0) first_mismatch = row;
    if (row > 0) {  // the previous request's transfer decides where the heads start
      const std::uint64_t lbn = csv.u64(row - 1, "lbn");
      const std::uint64_t blocks = csv.u64(row - 1, "blocks");
      if (lbn % kTrack + blocks > kTrack) ++after_track_crossing;
      if (lbn % kCylinder + blocks > kCylinder) ++after_cylinder_crossing;
    }
    if (csv.ps(row, "queue_wait_ms") > 2 * kBusPs) ++queued;
    if (csv.at(row, "op") == "W") ++writes;
  }
  INFO("first mismatch at row " << first_mismatch);
  CHECK(mismatches == 0);
  CHECK(max_abs_error <= kBusPs);  // the bound; exact in fact
  CHECK(r.summary["metrics"]["prediction_max_abs_error_ms"].get<double>() == 0.0);
  // What the run exercised: most requests follow a transfer that crossed tracks, many one that
  // crossed cylinders, most waited in a queue, and writes (with their longer command path) mix in.
  CHECK(after_track_crossing > 2000);
  CHECK(after_cylinder_crossing > 100);
  CHECK(queued > 1000);
  CHECK(writes > 600);
}

}  // namespace
}  // namespace drivevp
