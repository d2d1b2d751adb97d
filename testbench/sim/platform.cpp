#include "testbench/sim/platform.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "tlm_bus/sc/address_map.h"
#include "tlm_bus/sc/time.h"
#include "waveforms/gtkw.h"

namespace drivevp {

namespace fs = std::filesystem;

Platform::Platform(const Scenario& sc, WorkloadSource& source, RequestSink sink, Tracer* tracer)
    : bus("bus", RouterParams{}),
      drive("drive", sc.device, tracer),
      firmware("firmware", sc.controller, make_policy(sc.policy, sc.policy_params), drive.actuator.seek_done_irq,
               drive.channel.transfer_done_irq, tracer),
      host("host", sc.host, sc.controller.queue_depth, source, std::move(sink), firmware.completion_irq, tracer) {
  drive.channel.store().set_mode(sc.store_payload     ? BackingStore::Mode::Payload
                                 : sc.host.check_data ? BackingStore::Mode::Compact
                                                      : BackingStore::Mode::Discard);
  // Initiators: 0 = host, 1 = firmware.
  host.bus.bind(bus.target_socket);
  firmware.bus.bind(bus.target_socket);
  // Targets, in port order.
  bus.initiator_socket.bind(firmware.host_socket);
  bus.initiator_socket.bind(drive.spindle.socket);
  bus.initiator_socket.bind(drive.actuator.socket);
  bus.initiator_socket.bind(drive.channel.socket);
  bus.initiator_socket.bind(drive.param_socket);
  bus.initiator_socket.bind(drive.channel.buffer_socket);
  bus.initiator_socket.bind(host.memory);
  bus.map(amap::kHostIf, amap::kHostIfSize, 0, "firmware.host_if");
  bus.map(amap::kSpindle, amap::kRegWindow, 1, "drive.spindle");
  bus.map(amap::kActuator, amap::kRegWindow, 2, "drive.actuator");
  bus.map(amap::kChannel, amap::kRegWindow, 3, "drive.channel");
  bus.map(amap::kParamPage, amap::kParamPageSize, 4, "drive.param_page");
  bus.map(amap::kChannelBuffer, amap::kChannelBufferSize, 5, "drive.channel.buffer");
  bus.map(amap::kHostMem, amap::kHostMemSize, 6, "host.memory");
  if (tracer) {
    tracer->add(TraceGroup::Bus, bus.accesses, "bus.accesses", WaveFormat::Decimal, 64);
    tracer->add(TraceGroup::Bus, bus.last_address, "bus.last_address", WaveFormat::Hex, 64);
    tracer->add(TraceGroup::Bus, bus.last_was_write, "bus.last_was_write", WaveFormat::Binary, 1);
    tracer->add(TraceGroup::Bus, drive.actuator.seek_done_irq.level(), "bus.irq.seek_done", WaveFormat::Binary, 1);
    tracer->add(TraceGroup::Bus, drive.channel.transfer_done_irq.level(), "bus.irq.transfer_done", WaveFormat::Binary,
                1);
    tracer->add(TraceGroup::Bus, firmware.completion_irq.level(), "bus.irq.completion", WaveFormat::Binary, 1);
  }
}

namespace {

/// Output files written under temporary names and moved into place together at the end.
class StagedOutputs {
 public:
  explicit StagedOutputs(fs::path dir) : dir_(std::move(dir)) {}
  ~StagedOutputs() {
    if (!committed_)
      for (const auto& [tmp, final_name] : files_) {
        std::error_code ec;
        fs::remove(tmp, ec);
      }
  }
  /// A temporary path for final name `name`.
  fs::path stage(const std::string& name) {
    const fs::path tmp = dir_ / (".partial." + name);
    files_.emplace_back(tmp, dir_ / name);
    return tmp;
  }
  void commit() {
    for (const auto& [tmp, final_name] : files_)
      if (fs::exists(tmp)) fs::rename(tmp, final_name);
    committed_ = true;
  }

 private:
  fs::path dir_;
  std::vector<std::pair<fs::path, fs::path>> files_;
  bool committed_ = false;
};

gtkw::Format gtkw_format(WaveFormat f) {
  switch (f) {
    case WaveFormat::Decimal:
      return gtkw::Format::decimal;
    case WaveFormat::Hex:
      return gtkw::Format::hex;
    case WaveFormat::Binary:
      return gtkw::Format::binary;
    case WaveFormat::AnalogStep:
      return gtkw::Format::analog_step;
    case WaveFormat::AnalogInterpolated:
      return gtkw::Format::analog_interpolated;
  }
  return gtkw::Format::hex;
}

void write_gtkw(const Tracer& tracer, const std::string& path, Time start, Time end) {
  gtkw::SaveFile view;
  view.dumpfile = "waves.vcd";
  view.window = {static_cast<std::uint64_t>(start.count()),
                 static_cast<std::uint64_t>(std::max(end, start + Time{1}).count())};
  for (TraceGroup g : tracer.options().groups) {
    gtkw::SignalGroup group;
    group.name = std::string(1, static_cast<char>(std::toupper(to_string(g)[0]))) + (to_string(g) + 1);
    for (const TracedSignal& s : tracer.signals()) {
      if (s.group != g) continue;
      gtkw::Signal sig;
      sig.name = s.name;
      sig.width = s.is_real ? 1 : s.width;
      sig.format = gtkw_format(s.format);
      if (s.format == WaveFormat::Binary && sig.width > 1) sig.format = gtkw::Format::hex;
      sig.analog_rows =
          (sig.format == gtkw::Format::analog_step || sig.format == gtkw::Format::analog_interpolated) ? 4 : 1;
      group.signals.push_back(sig);
    }
    if (!group.signals.empty()) view.groups.push_back(std::move(group));
  }
  // Rendered for its final name (waves.gtkw), written under the staged name.
  const std::string text = gtkw::render_save_file(view, "waves.gtkw");
  std::ofstream f(path, std::ios::binary);
  f << text;
  if (!f) throw std::runtime_error("write error on " + path);
}

std::string plot_script() {
  const char* d = std::getenv("DRIVEVP_DATA_DIR");
  return std::string(d && *d ? d : DRIVEVP_DATA_DIR) + "/reports/plot_responses.py";
}

nlohmann::json scenario_json(const Scenario& sc, const std::string& workload) {
  nlohmann::json j;
  j["source"] = sc.source;
  j["device"] = {{"preset", sc.device.preset},
                 {"cylinders", sc.device.cylinders},
                 {"heads", sc.device.heads},
                 {"rpm", sc.device.rpm},
                 {"capacity_blocks", sc.device.geometry().capacity_blocks()}};
  j["firmware"] = {{"policy", sc.policy}, {"queue_depth", sc.controller.queue_depth}};
  for (const auto& [k, v] : sc.policy_params) j["firmware"][k] = v;
  j["workload"] = workload;
  j["loop"] = sc.host.closed_loop ? "closed" : "open";
  j["seed"] = sc.seed;
  j["warmup_requests"] = sc.warmup_requests;
  return j;
}

}  // namespace

RunResult run_scenario(const Scenario& sc) {
  const auto wall_start = std::chrono::steady_clock::now();
  // 1. The workload; a trace is validated completely here, before anything is written.
  std::unique_ptr<WorkloadSource> source;
  TraceStats trace_stats;
  std::uint64_t expected = 0;
  if (sc.workload_kind == Scenario::WorkloadKind::Trace) {
    try {
      source = open_trace(sc.trace, &trace_stats);
    } catch (const std::invalid_argument& e) {
      throw ConfigError(fmt::format("{}: workload: {}", sc.source, e.what()));
    }
    expected = trace_stats.requests;
  } else {
    source = std::make_unique<SyntheticSource>(sc.synthetic);
    expected = sc.synthetic.requests;
  }
  // 2. Outputs, staged.
  const fs::path dir(sc.output_dir);
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw std::runtime_error(fmt::format("output.dir: cannot create '{}': {}", sc.output_dir, ec.message()));
  StagedOutputs out(dir);
  const fs::path csv = out.stage("requests.csv");
  RunMonitor monitor(csv.string(), sc.warmup_requests, expected, sc.progress);

  // 3. Elaborate and run.
  std::unique_ptr<Tracer> tracer;
  fs::path vcd;
  if (sc.tracing) {
    vcd = out.stage("waves.vcd");
    Tracer::Options o;
    o.vcd_path_base = (dir / ".partial.waves").string();  // SystemC appends ".vcd"
    o.groups = sc.trace_groups;
    o.start = to_sc(sc.trace_start);
    o.stop = to_sc(sc.trace_stop);
    tracer = std::make_unique<Tracer>("tracer", o);
  }
  Platform platform(
      sc, *source, [&monitor](const RequestRecord& r) { monitor.record(r); }, tracer.get());
  sc_core::sc_start();
  const Time end = sim_now();
  // The simulation rate covers trace validation, elaboration and simulation, not the plots.
  const double sim_wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  if (tracer) tracer->close();
  monitor.finish();
  platform.host.finish_checks();
  const ConservationChecker& conservation = platform.host.conservation();

  // 4. Summary.
  RunResult result;
  result.requests = platform.host.completed();
  nlohmann::json& j = result.summary;
  j["drivevp_version"] = DRIVEVP_VERSION;
  j["scenario"] = scenario_json(sc, source->describe());
  j["simulated_time_ms"] = to_ms(end);
  j["requests"] = {{"submitted", platform.host.submitted()},
                   {"completed", platform.host.completed()},
                   {"measured", monitor.metrics().count()}};
  j["metrics"] = monitor.metrics().to_json();
  auto violations = [](const Violations& v) {
    return nlohmann::json{{"violations", v.count()}, {"first", v.messages()}};
  };
  j["checks"] = {{"conservation", violations(conservation.violations())},
                 {"data_integrity", violations(platform.host.integrity().violations())},
                 {"data_checked", sc.host.check_data},
                 {"media_errors", platform.host.media_errors()}};
  result.checks_passed = conservation.violations().count() == 0 &&
                         platform.host.integrity().violations().count() == 0 && platform.host.media_errors() == 0;
  j["checks"]["passed"] = result.checks_passed;
  const BackingStore& store = platform.drive.channel.store();
  const BackingStore::Footprint fp = store.footprint();
  j["memory"] = {{"media_store",
                  {{"mode", to_string(store.mode())},
                   {"bytes", fp.bytes},
                   {"id_pages", fp.id_pages},
                   {"wide_id_pages", fp.wide_id_pages},
                   {"raw_blocks", fp.raw_blocks},
                   {"payload_pages", fp.payload_pages}}},
                 {"integrity_checker",
                  {{"bytes", platform.host.integrity().bytes()}, {"pages", platform.host.integrity().pages()}}}};
  if (sc.workload_kind == Scenario::WorkloadKind::Trace) {
    j["trace"] = {{"paths", sc.trace.paths},
                  {"format", to_string(sc.trace.format)},
                  {"time_scale", sc.trace.time_scale},
                  {"capacity_policy", to_string(sc.trace.capacity)},
                  {"lines", trace_stats.lines},
                  {"trace_requests", trace_stats.trace_requests},
                  {"ignored", trace_stats.ignored},
                  {"requests", trace_stats.requests},
                  {"filtered", trace_stats.filtered},
                  {"skipped_malformed", trace_stats.skipped_malformed},
                  {"first_malformed", trace_stats.first_malformed},
                  {"wrapped", trace_stats.wrapped},
                  {"scaled", trace_stats.scaled},
                  {"truncated", trace_stats.truncated},
                  {"trace_extent_blocks", trace_stats.trace_extent_blocks}};
  }
  nlohmann::json files = {{"requests_csv", "requests.csv"}, {"response_histogram_csv", "response_histogram.csv"}};
  // Histogram CSV and plots.
  const fs::path hist = out.stage("response_histogram.csv");
  {
    std::ofstream h(hist, std::ios::binary);
    write_response_histogram_csv(h, monitor.metrics());
    if (!h) throw std::runtime_error("write error on " + hist.string());
  }
  files["response_histogram_png"] = nullptr;
  files["response_cdf_png"] = nullptr;
  if (sc.plots && monitor.metrics().count() > 0) {
    const fs::path plots_dir = dir / ".partial.plots";
    fs::create_directories(plots_dir);
    try {
      gtkw::run_program({"/usr/bin/python3", plot_script(), hist.string(), plots_dir.string(), "--title",
                         fmt::format("{} on {}", sc.policy, sc.device.preset)});
      for (const char* png : {"response_histogram.png", "response_cdf.png"}) {
        fs::rename(plots_dir / png, out.stage(png));
      }
      files["response_histogram_png"] = "response_histogram.png";
      files["response_cdf_png"] = "response_cdf.png";
    } catch (const std::exception& e) {
      j["plot_error"] = e.what();
    }
    fs::remove_all(plots_dir, ec);
  }
  if (tracer) {
    fs::rename(dir / ".partial.waves.vcd", vcd);
    write_gtkw(*tracer, out.stage("waves.gtkw").string(), sc.trace_start,
               sc.trace_stop > Time{0} ? std::min(sc.trace_stop, end) : end);
    files["waves_vcd"] = "waves.vcd";
    files["waves_gtkw"] = "waves.gtkw";
    if (sc.trace_fst) {
      const fs::path fst = out.stage("waves.fst");
      gtkw::convert_vcd_to_fst(vcd.string(), fst.string());
      files["waves_fst"] = "waves.fst";
    }
  }
  j["files"] = files;
  const fs::path summary = out.stage("summary.json");
  {
    std::ofstream s(summary, std::ios::binary);
    s << j.dump(2) << '\n';
    if (!s) throw std::runtime_error("write error on " + summary.string());
  }
  out.commit();
  result.wall_seconds = sim_wall;
  return result;
}

std::string format_summary(const RunResult& r) {
  const nlohmann::json& j = r.summary;
  const nlohmann::json& m = j["metrics"];
  auto num = [](const nlohmann::json& v, const char* fmtstr) {
    return v.is_number() ? fmt::format(fmt::runtime(fmtstr), v.get<double>()) : std::string("n/a");
  };
  std::string s;
  s +=
      fmt::format("drivevp {} | {} | policy {} | {}\n", j["drivevp_version"].get<std::string>(),
                  j["scenario"]["device"]["preset"].get<std::string>(),
                  j["scenario"]["firmware"]["policy"].get<std::string>(), j["scenario"]["workload"].get<std::string>());
  s += fmt::format("  requests     {} completed ({} measured), simulated {:.3f} s in {:.2f} s wall ({:.0f} req/s)\n",
                   j["requests"]["completed"].get<std::uint64_t>(), j["requests"]["measured"].get<std::uint64_t>(),
                   j["simulated_time_ms"].get<double>() / 1000.0, r.wall_seconds,
                   r.wall_seconds > 0 ? static_cast<double>(r.requests) / r.wall_seconds : 0.0);
  s += fmt::format("  response ms  mean {} | p50 {} | p95 {} | p99 {} | max {}\n", num(m["response_mean_ms"], "{:.3f}"),
                   num(m["response_p50_ms"], "{:.3f}"), num(m["response_p95_ms"], "{:.3f}"),
                   num(m["response_p99_ms"], "{:.3f}"), num(m["response_max_ms"], "{:.3f}"));
  s += fmt::format("  breakdown ms queue wait {} | seek {} | rotation {} | transfer {} | utilization {}\n",
                   num(m["queue_wait_mean_ms"], "{:.3f}"), num(m["seek_mean_ms"], "{:.3f}"),
                   num(m["rotational_latency_mean_ms"], "{:.3f}"), num(m["transfer_mean_ms"], "{:.3f}"),
                   num(m["utilization"], "{:.3f}"));
  s += fmt::format("  checks       {}\n",
                   j["checks"]["passed"].get<bool>() ? "passed (conservation, data integrity)" : "FAILED");
  return s;
}

}  // namespace drivevp
