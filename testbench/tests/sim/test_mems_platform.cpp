// The MEMS device on the whole platform (issue 8): host -> controller (MemsMediaDriver, the 002
// policies) -> MemsDevice. Conservation and data integrity over 100,000 mixed requests on every
// preset, a batch across k regions served in one access at the exact model time, the firmware's
// prediction equal to the device's positioning, determinism, and the configuration errors of a
// policy or key that does not fit the device. One simulation per TEST_CASE.
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <systemc>

#include "hw_models/mems/mems_layout.h"
#include "hw_models/mems/mems_seek.h"
#include "sim_test_util.h"

namespace drivevp {
namespace {

using namespace simtest;
using Catch::Matchers::ContainsSubstring;

/// A synthetic MEMS scenario on `preset` under `policy`.
std::string mems_scenario(const std::string& preset, const std::string& policy, const std::string& workload_keys,
                          const std::string& run_keys, const std::string& device_keys = "") {
  return fmt::format(
      "[device]\npreset = \"{}\"\n{}\n[firmware]\npolicy = \"{}\"\nqueue_depth = 64\n\n[workload]\nkind = "
      "\"synthetic\"\n{}\n[run]\nprogress = false\n{}\n[output]\nplots = false\n",
      preset, device_keys, policy, workload_keys, run_keys);
}

/// 100,000 mixed requests, closed loop with 64 outstanding, every request starting at row 0 of a
/// tip group (alignment = rows per column in 002's layout), so that many queued requests share an
/// (x, y) and P-SPTF serves batches: conservation and data integrity must hold, and batches must
/// have happened (commands completing together in one access).
void check_conservation_and_integrity(const std::string& preset) {
  TempDir dir("mems-" + preset);
  mems::MemsParams p = mems::mems_preset(preset);
  p.layout = mems::LayoutOrder::AlongY;
  const mems::MemsLayout layout(p);
  const RunResult r = run_platform(
      dir,
      mems_scenario(preset, "psptf",
                    fmt::format("loop = \"closed\"\noutstanding = 64\naddress = \"uniform\"\nalignment_blocks = {}\n"
                                "size = \"exponential\"\nsize_mean_blocks = 8\nread_fraction = 0.5\n",
                                layout.rows_per_column()),
                    "seed = 7\nrequests = 100000\ncheck_data = true\n", "layout = \"along_y\"\n"));
  INFO(r.summary.dump(2));
  CHECK(r.checks_passed);
  CHECK(r.requests == 100000);
  CHECK(r.summary["checks"]["conservation"]["violations"] == 0);
  CHECK(r.summary["checks"]["data_integrity"]["violations"] == 0);
  CHECK(r.summary["checks"]["media_errors"] == 0);
  CHECK(r.summary["scenario"]["device"]["capacity_blocks"].get<std::uint64_t>() == layout.capacity());
  // Batches: completions sharing one access (same seek start and transfer end).
  const Csv csv(dir / "out" / "requests.csv");
  REQUIRE(csv.size() == 100000);
  std::map<std::pair<std::int64_t, std::int64_t>, int> accesses;
  for (std::size_t i = 0; i < csv.size(); ++i) ++accesses[{csv.ps(i, "seek_start_ms"), csv.ps(i, "transfer_end_ms")}];
  std::size_t batched = 0;
  for (const auto& [key, n] : accesses)
    if (n > 1) batched += static_cast<std::size_t>(n);
  INFO("requests served in batches: " << batched << ", accesses: " << accesses.size());
  CHECK(batched > 1000);
  CHECK(accesses.size() < 100000);
}

TEST_CASE("sim: MEMS G1: conservation and data integrity over 100,000 mixed requests", "[sim][mems][platform]") {
  check_conservation_and_integrity("mems_g1");
}
TEST_CASE("sim: MEMS G2: conservation and data integrity over 100,000 mixed requests", "[sim][mems][platform]") {
  check_conservation_and_integrity("mems_g2");
}
TEST_CASE("sim: MEMS G3: conservation and data integrity over 100,000 mixed requests", "[sim][mems][platform]") {
  check_conservation_and_integrity("mems_g3");
}

Command at(std::uint64_t id, Time t, Op op, std::uint64_t lbn, std::uint32_t blocks) {
  return command_at(t, op, lbn, blocks, id);
}

TEST_CASE("sim: MEMS: a batch at one (x, y) across k regions completes in one access at the model's time",
          "[sim][mems][platform][batch]") {
  TempDir dir("mems-batch");
  write_text(dir / "scenario.toml",
             mems_scenario("mems_g1", "psptf", "loop = \"open\"\n", "check_data = true\n", "layout = \"along_y\"\n"));
  const Scenario sc = load_scenario((dir / "scenario.toml").string(), {});
  const mems::MemsSeek seek(sc.mems);
  const mems::MemsLayout& L = seek.layout();
  REQUIRE(L.cells_per_row() == 10);
  // Request 0 (far away, a long access) keeps the device busy while k = 6 requests arrive at
  // cylinder 1500, physical row 4, in six different tip groups (regions), of 1..6 blocks; then,
  // after request k + 1 (the same long read), the same six blocks are read back in one more batch.
  // (The host numbers commands in submission order: ids 0 .. 2k + 1.)
  const std::uint32_t k = 6;
  std::vector<std::uint64_t> lbns;
  for (std::uint32_t i = 0; i < k; ++i)
    lbns.push_back(L.lbn(mems::BlockAddress{0, 1500, i % L.columns_per_cylinder(), 4, (3 * i) % L.cells_per_row()}));
  const Time ms{1'000'000'000};
  std::vector<Command> cmds{at(0, Time{0}, Op::Read, L.lbn(mems::BlockAddress{0, 10, 0, 20, 0}), 64)};
  for (std::uint32_t i = 0; i < k; ++i) cmds.push_back(at(1 + i, ms / 10, Op::Write, lbns[i], 1 + i));
  cmds.push_back(at(k + 1, 50 * ms, Op::Read, L.lbn(mems::BlockAddress{0, 10, 0, 20, 0}), 64));
  for (std::uint32_t i = 0; i < k; ++i) cmds.push_back(at(k + 2 + i, 50 * ms + ms / 10, Op::Read, lbns[i], 1 + i));
  ListSource source(cmds);
  std::vector<RequestRecord> done;
  Platform platform(
      sc, source, [&done](const RequestRecord& r) { done.push_back(r); }, nullptr);
  sc_core::sc_start();
  REQUIRE(done.size() == cmds.size());
  CHECK(platform.host.integrity().violations().count() == 0);
  CHECK(platform.host.media_errors() == 0);
  std::map<std::uint64_t, RequestRecord> by_id;
  for (const RequestRecord& r : done) by_id[r.command.id] = r;

  // The device's state when each batch starts: the end of request 0 (or 100), computed by the model.
  std::vector<mems::BatchSpan> spans;
  for (std::uint32_t i = 0; i < k; ++i) spans.push_back({lbns[i], 1 + i});
  REQUIRE_FALSE(seek.batch_conflict(spans));
  for (std::uint64_t base : {std::uint64_t{1}, std::uint64_t{k + 2}}) {
    INFO("batch starting with id " << base);
    const RequestRecord& lead = by_id.at(base - 1);
    const mems::SledState after_lead = seek.access(mems::SledState{}, lead.command.lbn, lead.command.blocks).end;
    // The lead read ran from the sled's initial state only for request 0; request k + 1 follows
    // the first batch: take the state the model gives after it.
    const mems::SledState from =
        base == 1 ? after_lead : seek.access(seek.access_batch(after_lead, spans).end, lead.command.lbn, 64).end;
    const mems::MediaAccess m = seek.access_batch(from, spans);
    const RequestRecord& first = by_id.at(base);
    for (std::uint32_t i = 0; i < k; ++i) {
      const RequestRecord& r = by_id.at(base + i);
      INFO("request " << r.command.id);
      CHECK(r.seek_start == first.seek_start);
      CHECK(r.transfer_end == first.transfer_end);
      CHECK(r.dispatch == first.dispatch);
      CHECK(r.data_ok);
      CHECK(r.seek_start >= lead.transfer_end);
    }
    // One access: positioning + the longest first sweep (6 rows), no startup (busy before).
    CHECK(first.seek_end - first.seek_start == m.positioning);
    CHECK(first.transfer_end - first.seek_start == m.total());
    CHECK(m.rows == 6);
    CHECK(m.runs == 1);
    CHECK(first.predicted_positioning == m.positioning);
  }
}

TEST_CASE("sim: MEMS: the firmware's predicted positioning equals the device's, request by request",
          "[sim][mems][platform][predictor]") {
  TempDir dir("mems-predict");
  // Open loop at 50 requests/s: the sled idles past the 100 ms timeout now and then, so startups
  // are predicted too; reads and writes (a write's longer command path before the device).
  const RunResult r = run_platform(dir, mems_scenario("mems_g2", "sptf",
                                                      "loop = \"open\"\narrival = \"poisson\"\nrate_per_s = 50\n"
                                                      "size = \"exponential\"\nsize_mean_blocks = 8\n"
                                                      "read_fraction = 0.6\n",
                                                      "seed = 3\nrequests = 5000\n"));
  REQUIRE(r.checks_passed);
  const Csv csv(dir / "out" / "requests.csv");
  REQUIRE(csv.size() == 5000);
  std::size_t with_startup = 0;
  const std::int64_t startup = mems::mems_g2().startup_delay().count();
  for (std::size_t i = 0; i < csv.size(); ++i) {
    INFO("row " << i);
    const std::int64_t seek = csv.ps(i, "seek_ms");
    CHECK(csv.ps(i, "predicted_positioning_ms") == seek);
    if (seek >= startup) ++with_startup;
  }
  CHECK(with_startup > 0);
  CHECK(r.summary["energy"]["startups"].get<std::uint64_t>() > 0);
}

TEST_CASE("sim: MEMS: two runs with the same seed write identical outputs", "[sim][mems][determinism]") {
  TempDir dir("mems-determinism");
  const fs::path scenario = dir / "scenario.toml";
  write_text(scenario, mems_scenario("mems_g1", "pasptf",
                                     "loop = \"open\"\narrival = \"poisson\"\nrate_per_s = 380\nsize = "
                                     "\"exponential\"\nsize_mean_blocks = 8\nread_fraction = 0.67\n",
                                     "seed = 11\nrequests = 4000\n", "layout = \"along_y\"\n"));
  for (const char* out : {"a", "b"}) {
    const CommandResult res = run_drivevp(
        dir.path(), {"run", scenario.string(), "--out", (dir / out).string(), "--set", "output.plots=false"});
    INFO(res.err);
    REQUIRE(res.status == 0);
  }
  CHECK(read_text(dir / "a" / "requests.csv") == read_text(dir / "b" / "requests.csv"));
  CHECK(read_text(dir / "a" / "summary.json") == read_text(dir / "b" / "summary.json"));
  const nlohmann::json s = nlohmann::json::parse(read_text(dir / "a" / "summary.json"));
  CHECK(s["scenario"]["device"]["kind"] == "mems");
  CHECK(s["scenario"]["firmware"]["policy"] == "pasptf");
  CHECK(s["energy"].contains("per_request_joules"));
}

TEST_CASE("sim: MEMS: a policy or key that does not fit the device is a configuration error naming both",
          "[sim][mems][config]") {
  TempDir dir("mems-config");
  const fs::path scenario = dir / "scenario.toml";
  write_text(scenario, mems_scenario("mems_g1", "sptf", "loop = \"open\"\n", ""));
  auto error_of = [&](std::vector<std::string> overrides, const fs::path& file) {
    try {
      (void)load_scenario(file.string(), overrides);
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  // A MEMS-only policy on the disk.
  const fs::path disk = dir / "disk.toml";
  write_text(disk, synthetic_scenario("psptf", "loop = \"open\"\n", ""));
  CHECK_THAT(error_of({}, disk), ContainsSubstring("disk.toml:5: firmware.policy: policy 'psptf' (P-SPTF) does not "
                                                   "apply to a disk device (device.preset 'hp97560')"));
  // A disk key on a MEMS device, and a MEMS key on a disk.
  CHECK_THAT(error_of({"device.rpm=7200"}, scenario),
             ContainsSubstring("--set device.rpm=7200: device.rpm applies only to a disk; device.preset 'mems_g1' is a "
                               "MEMS device"));
  CHECK_THAT(error_of({"device.tips_active=1280"}, disk),
             ContainsSubstring("device.tips_active applies only to a MEMS device"));
  // A MEMS key's range, and a cross-member condition checked after every key.
  CHECK_THAT(error_of({"device.spring_constant_factor=1.5"}, scenario),
             ContainsSubstring("device.spring_constant_factor: expected a number in [0, 0.999999], found 1.5"));
  CHECK_THAT(error_of({"device.tips_active=10"}, scenario), ContainsSubstring("tips_active"));
  CHECK_THAT(error_of({"device.layout=\"diagonal\""}, scenario),
             ContainsSubstring("device.layout: expected one of streaming, along_y, found 'diagonal'"));
  // Zones beyond the device's grid.
  CHECK_THAT(error_of({"firmware.policy=\"zsptf\"", "firmware.zones_y=30"}, scenario),
             ContainsSubstring("firmware.zones_y: expected an integer in [1, 22]"));
  // Unknown MEMS key: the MEMS keys are listed.
  CHECK_THAT(error_of({"device.tipz=3"}, scenario),
             ContainsSubstring("unknown key 'device.tipz'; a MEMS device (device.preset 'mems_g1') accepts: "
                               "device.preset, device.seek_method, device.sled_movement_x_nm"));
  // The valid MEMS scenario loads, with its capacity.
  const Scenario sc = load_scenario(scenario.string(), {"device.preset=\"mems_g3\""});
  CHECK(sc.device_kind == "mems");
  CHECK(sc.capacity_blocks() == 11'998'800);
}

}  // namespace
}  // namespace drivevp
