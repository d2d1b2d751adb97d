// libsystemc.so references sc_main; executables with their own main() (the drivevp command line,
// the Catch2 test runner, the benchmarks) never call it. Each run elaborates its own platform
// through sc_core::sc_elab_and_sim-free calls (see testbench/sim/platform.h).
#include <systemc>

int sc_main(int, char*[]) { return 0; }
