// The suite's own contract (main.cpp): SystemC warnings and errors throw, so that any warning
// raised during a platform run fails the test case; info reports stay quiet.
#include <catch2/catch_test_macros.hpp>

#include <cstdlib>
#include <cstring>

#include <systemc>

namespace {

TEST_CASE("sim: SystemC warnings and errors throw, infos do not", "[sim][harness]") {
  CHECK_THROWS_AS(SC_REPORT_WARNING("drivevp/simtest", "a warning"), sc_core::sc_report);
  CHECK_THROWS_AS(SC_REPORT_ERROR("drivevp/simtest", "an error"), sc_core::sc_report);
  CHECK_NOTHROW(SC_REPORT_INFO("drivevp/simtest", "an info"));
  const char* banner = std::getenv("SC_COPYRIGHT_MESSAGE");
  REQUIRE(banner != nullptr);
  CHECK(std::strcmp(banner, "DISABLE") == 0);
}

}  // namespace
