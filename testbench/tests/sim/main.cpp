// Test runner of the platform-level suite (drivevp_sim_tests). Catch2 without its own main:
// before any SystemC activity, every SystemC warning and error is made to throw, so that a
// warning anywhere in a run fails the test case that caused it (STYLE.md practice 6). The
// "Simulation stopped by user" info that sc_stop() issues at the normal end of a run is expected,
// so SC_INFO reports stay quiet. SC_COPYRIGHT_MESSAGE=DISABLE keeps the banner out of the output.
//
// ctest runs each TEST_CASE in its own process (catch_discover_tests); a TEST_CASE elaborates the
// platform at most once, as SystemC allows.
#include <cstdlib>

#include <catch2/catch_session.hpp>
#include <systemc>

int main(int argc, char* argv[]) {
  setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 1);
  using sc_core::sc_report_handler;
  sc_report_handler::set_actions(sc_core::SC_WARNING, sc_core::SC_THROW);
  sc_report_handler::set_actions(sc_core::SC_ERROR, sc_core::SC_THROW);
  sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  return Catch::Session().run(argc, argv);
}
