// libsystemc.so references sc_main; executables with their own main() (the drivevp command line,
// the Catch2 test runner, the benchmarks) never call it: each builds its platform itself and
// calls sc_core::sc_start() (testbench/sim/platform.h, run_scenario).
#include <systemc>

int sc_main(int, char*[]) { return 0; }
