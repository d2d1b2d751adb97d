// GTKWave save files with translate filters (waveforms/gtkw.h). Plain C++ (no elaboration); in
// this executable because the waveforms code is part of the SystemC library. GTKWave itself
// reading them: testbench/tests/waves/test_gtkwave_view.sh.
#include <stdexcept>
#include <string>

#include <catch2/catch_test_macros.hpp>

#include "waveforms/gtkw.h"

namespace drivevp::gtkw {
namespace {

TEST_CASE("sim: A translate filter file lists value-name pairs after its comment", "[sim][gtkw]") {
  CHECK(render_translate_filter({{"0", "Idle"}, {"1", "Seeking"}, {"2", "Transferring"}}, "names of x\nsecond line") ==
        "# names of x\n# second line\n0 Idle\n1 Seeking\n2 Transferring\n");
  CHECK(render_translate_filter({{"0A", "Ten and more"}}, "") == "0A Ten and more\n");
  CHECK_THROWS_AS(render_translate_filter({{"0", "Idle"}, {"0", "Again"}}, ""), std::invalid_argument);
  CHECK_THROWS_AS(render_translate_filter({{"0a", "x"}, {"0A", "y"}}, ""), std::invalid_argument);  // GTKWave: no case
  CHECK_THROWS_AS(render_translate_filter({{"1 2", "x"}}, ""), std::invalid_argument);
  CHECK_THROWS_AS(render_translate_filter({{"#1", "x"}}, ""), std::invalid_argument);
  CHECK_THROWS_AS(render_translate_filter({{"1", ""}}, ""), std::invalid_argument);
  CHECK_THROWS_AS(render_translate_filter({{"1", "a\tb"}}, ""), std::invalid_argument);
}

Signal signal(const std::string& name, unsigned width, Format format, const std::string& filter = "") {
  Signal s;
  s.name = name;
  s.width = width;
  s.format = format;
  s.translate_filter = filter;
  return s;
}

TEST_CASE("sim: A save file applies a translate filter file to a signal with flag 0x2000 and a ^ line", "[sim][gtkw]") {
  SaveFile view;
  view.dumpfile = "waves.vcd";
  view.window = {0, 1000};
  const Signal state = signal("firmware.state", 8, Format::decimal, "waves.firmware.state.txt");
  const Signal other = signal("firmware.mode", 8, Format::hex, "modes.txt");
  Signal again = state;
  again.name = "firmware.previous_state";
  SignalGroup group;
  group.name = "Firmware";
  group.signals = {state, signal("firmware.queue_depth", 32, Format::decimal), other, again};
  view.groups = {group};
  const std::string text = render_save_file(view, "out/waves.gtkw");
  const std::string expected =
      "@800200\n-Firmware\n"
      "@2024\n^1 waves.firmware.state.txt\nSystemC.firmware.state[7:0]\n"
      "@24\nSystemC.firmware.queue_depth[31:0]\n"
      "@2022\n^2 modes.txt\nSystemC.firmware.mode[7:0]\n"
      "@2024\n^1 waves.firmware.state.txt\nSystemC.firmware.previous_state[7:0]\n"
      "@1000200\n-Firmware\n";
  REQUIRE(text.size() >= expected.size());
  CHECK(text.substr(text.size() - expected.size()) == expected);

  view.groups[0].signals[0].format = Format::analog_step;
  view.groups[0].signals[0].analog_rows = 4;
  CHECK_THROWS_AS(render_save_file(view, "waves.gtkw"), std::invalid_argument);
  view.groups[0].signals[0] = state;
  view.groups[0].signals[0].translate_filter = "a\"b.txt";
  CHECK_THROWS_AS(render_save_file(view, "waves.gtkw"), std::invalid_argument);
}

}  // namespace
}  // namespace drivevp::gtkw
