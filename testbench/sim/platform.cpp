#include "testbench/sim/platform.h"
#include "testbench/sim/sanitizer_stack.h"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <optional>
#include <sstream>

#include <fmt/format.h>

#include "firmware/rounds/wrr_scan.h"
#include "source_paths.h"  // generated: DRIVEVP_DATA_DIR, DRIVEVP_SOURCE_DIR
#include "testbench/metrics/rate_task_metrics.h"
#include "testbench/metrics/rounds_checker.h"
#include "testbench/sim/output_dir.h"
#include "testbench/sim/rounds_trace.h"
#include "tlm_bus/sc/address_map.h"
#include "tlm_bus/sc/time.h"
#include "waveforms/gtkw.h"

namespace drivevp {

namespace fs = std::filesystem;

namespace {

std::unique_ptr<DiskDrive> make_disk(const Scenario& sc, Tracer* tracer) {
  return sc.device_kind == "disk" ? std::make_unique<DiskDrive>("drive", sc.device, tracer) : nullptr;
}
std::unique_ptr<MemsDevice> make_mems(const Scenario& sc, Tracer* tracer) {
  return sc.device_kind == "mems" ? std::make_unique<MemsDevice>("mems", sc.mems, sc.mems_seek_method, tracer)
                                  : nullptr;
}
MediaDriverFactory media_driver(const std::unique_ptr<DiskDrive>& disk, const std::unique_ptr<MemsDevice>& mems) {
  if (disk)
    return DiskMediaDriver::factory(disk->actuator.seek_done_irq, disk->channel.transfer_done_irq,
                                    disk->params().features);
  return MemsMediaDriver::factory(mems->done_irq);
}

}  // namespace

Platform::Platform(const Scenario& sc, WorkloadSource& source, RequestSink sink, Tracer* tracer,
                   std::unique_ptr<SchedulingPolicy> policy)
    : bus("bus", RouterParams{}),
      drive(make_disk(sc, tracer)),
      mems(make_mems(sc, tracer)),
      firmware("firmware", sc.controller,
               policy ? std::move(policy) : make_policy(sc.policy, sc.policy_params, sc.device_kind),
               media_driver(drive, mems), tracer),
      host("host", sc.host, sc.controller.queue_depth, source, std::move(sink), firmware.completion_irq, tracer) {
  store().set_mode(sc.store_payload     ? BackingStore::Mode::Payload
                   : sc.host.check_data ? BackingStore::Mode::Compact
                                        : BackingStore::Mode::Discard);
  // Initiators: 0 = host, 1 = firmware.
  host.bus.bind(bus.target_socket);
  firmware.bus.bind(bus.target_socket);
  // Targets, in port order.
  bus.initiator_socket.bind(firmware.host_socket);
  if (tracer) {
    tracer->add(TraceGroup::Bus, bus.accesses, "bus.accesses", WaveFormat::Decimal, 64);
    tracer->add(TraceGroup::Bus, bus.last_address, "bus.last_address", WaveFormat::Hex, 64);
    tracer->add(TraceGroup::Bus, bus.last_was_write, "bus.last_was_write", WaveFormat::Binary, 1);
  }
  if (drive)
    bind_disk(tracer);
  else
    bind_mems(tracer);
  if (tracer)
    tracer->add(TraceGroup::Bus, firmware.completion_irq.level(), "bus.irq.completion", WaveFormat::Binary, 1);
}

void Platform::bind_disk(Tracer* tracer) {
  DiskDrive& d = *drive;
  bus.initiator_socket.bind(d.spindle.socket);
  bus.initiator_socket.bind(d.actuator.socket);
  bus.initiator_socket.bind(d.channel.socket);
  bus.initiator_socket.bind(d.param_socket);
  bus.initiator_socket.bind(d.channel.buffer_socket);
  bus.initiator_socket.bind(host.memory);
  bus.map(amap::kHostIf, amap::kHostIfSize, 0, "firmware.host_if");
  bus.map(amap::kSpindle, amap::kRegWindow, 1, "drive.spindle");
  bus.map(amap::kActuator, amap::kRegWindow, 2, "drive.actuator");
  bus.map(amap::kChannel, amap::kRegWindow, 3, "drive.channel");
  bus.map(amap::kParamPage, amap::kParamPageSize, 4, "drive.param_page");
  bus.map(amap::kChannelBuffer, amap::kChannelBufferSize, 5, "drive.channel.buffer");
  bus.map(amap::kHostMem, amap::kHostMemSize, 6, "host.memory");
  if (tracer) {
    tracer->add(TraceGroup::Bus, d.actuator.seek_done_irq.level(), "bus.irq.seek_done", WaveFormat::Binary, 1);
    tracer->add(TraceGroup::Bus, d.channel.transfer_done_irq.level(), "bus.irq.transfer_done", WaveFormat::Binary, 1);
  }
}

void Platform::bind_mems(Tracer* tracer) {
  MemsDevice& m = *mems;
  bus.initiator_socket.bind(m.socket);
  bus.initiator_socket.bind(m.param_socket);
  bus.initiator_socket.bind(m.buffer_socket);
  bus.initiator_socket.bind(host.memory);
  bus.map(amap::kHostIf, amap::kHostIfSize, 0, "firmware.host_if");
  bus.map(amap::kMems, amap::kRegWindow, 1, "mems");
  bus.map(amap::kParamPage, amap::kParamPageSize, 2, "mems.param_page");
  bus.map(amap::kChannelBuffer, amap::kChannelBufferSize, 3, "mems.buffer");
  bus.map(amap::kHostMem, amap::kHostMemSize, 4, "host.memory");
  if (tracer) tracer->add(TraceGroup::Bus, m.done_irq.level(), "bus.irq.mems_done", WaveFormat::Binary, 1);
}

namespace {

/// Writes `text` to `path` (a staged file); throws OutputError naming `shown` (the file's final
/// path) and the system's reason.
void write_file(const fs::path& path, const std::string& text, const std::string& shown) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) throw OutputError(fmt::format("cannot create {}: {}", shown, std::strerror(errno)));
  int err = 0;
  if (std::fwrite(text.data(), 1, text.size(), f) != text.size()) err = errno ? errno : EIO;
  if (std::fflush(f) != 0 && !err) err = errno ? errno : EIO;
  if (std::fclose(f) != 0 && !err) err = errno ? errno : EIO;
  if (err) throw OutputError(fmt::format("cannot write {}: {}", shown, std::strerror(err)));
}

/// SystemC's VCD writer ignores write errors, but always ends the file with the line "#<close
/// time in ps>": a file that does not end so was cut short (typically a full disk).
void check_vcd_complete(const fs::path& vcd, Time closed_at, const std::string& shown) {
  const std::string want = fmt::format("\n#{}\n", closed_at.count());
  std::error_code ec;
  const std::uintmax_t size = fs::file_size(vcd, ec);
  std::string tail(want.size(), '\0');
  bool ok = false;
  if (!ec && size >= want.size()) {
    if (std::FILE* f = std::fopen(vcd.c_str(), "rb")) {
      ok = std::fseek(f, -static_cast<long>(want.size()), SEEK_END) == 0 &&
           std::fread(tail.data(), 1, tail.size(), f) == tail.size() && tail == want;
      std::fclose(f);
    }
  }
  if (!ok)
    throw OutputError(fmt::format(
        "cannot write {}: the file was cut short (it does not end with the closing timestamp #{}); is the disk full?",
        shown, closed_at.count()));
}

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

/// Stages waves.gtkw for `tracer`'s signals with the view window [start, end], and a translate
/// filter file "waves.<signal>.txt" beside it for every enum signal, which the save file names
/// relative to itself. Returns the names of the filter files.
std::vector<std::string> write_gtkw(const Tracer& tracer, OutputDirectory& out, Time start, Time end) {
  gtkw::SaveFile view;
  view.dumpfile = "waves.vcd";
  view.window = {static_cast<std::uint64_t>(start.count()),
                 static_cast<std::uint64_t>(std::max(end, start + Time{1}).count())};
  std::vector<std::string> filters;
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
      if (!s.enum_names.empty()) {
        if (sig.format != gtkw::Format::decimal)
          throw std::logic_error("write_gtkw: enum signal " + s.name + " must be traced in decimal format");
        std::vector<gtkw::TranslateEntry> entries;
        for (std::size_t v = 0; v < s.enum_names.size(); ++v) entries.push_back({std::to_string(v), s.enum_names[v]});
        const std::string file = "waves." + s.name + ".txt";
        write_file(out.stage(file),
                   gtkw::render_translate_filter(
                       entries, fmt::format("GTKWave translate filter: names of {} (decimal value, name).\n"
                                            "Written by drivevp; waves.gtkw applies it.",
                                            s.name)),
                   (out.dir() / file).string());
        sig.translate_filter = file;
        filters.push_back(file);
      }
      group.signals.push_back(sig);
    }
    if (!group.signals.empty()) view.groups.push_back(std::move(group));
  }
  // Rendered for its final name (waves.gtkw), written under the staged name.
  write_file(out.stage("waves.gtkw"), gtkw::render_save_file(view, "waves.gtkw"), (out.dir() / "waves.gtkw").string());
  return filters;
}

/// A plotting script of reports/ (in DRIVEVP_DATA_DIR, overridable at run time).
std::string plot_script(const char* name = "plot_responses.py") {
  const char* d = std::getenv("DRIVEVP_DATA_DIR");
  return std::string(d && *d ? d : DRIVEVP_DATA_DIR) + "/reports/" + name;
}

nlohmann::json scenario_json(const Scenario& sc, const std::string& workload) {
  nlohmann::json j;
  j["source"] = sc.source;
  if (sc.device_kind == "mems") {
    const mems::MemsLayout layout(sc.mems);
    j["device"] = {{"preset", sc.mems.preset},
                   {"kind", "mems"},
                   {"cylinders", layout.cylinders()},
                   {"rows_per_column", layout.rows_per_column()},
                   {"columns_per_cylinder", layout.columns_per_cylinder()},
                   {"cells_per_row", layout.cells_per_row()},
                   {"sleds", layout.sleds()},
                   {"layout", mems::to_string(sc.mems.layout)},
                   {"seek_method", sc.mems_seek_method == mems::SeekMethod::Exact ? "exact" : "disksim"},
                   {"capacity_blocks", layout.capacity()}};
  } else {
    j["device"] = {{"preset", sc.device.preset},
                   {"cylinders", sc.device.cylinders},
                   {"heads", sc.device.heads},
                   {"rpm", sc.device.rpm},
                   {"capacity_blocks", sc.device.geometry().capacity_blocks()}};
  }
  j["firmware"] = {{"policy", sc.policy}, {"queue_depth", sc.controller.queue_depth}};
  for (const auto& [k, v] : sc.policy_params) j["firmware"][k] = v;
  j["workload"] = workload;
  if (sc.host.deadline.enabled()) j["deadline_rule"] = sc.host.deadline.describe();
  if (sc.host.qos.enabled()) j["qos_rule"] = sc.host.qos.describe();
  if (sc.workload_kind == Scenario::WorkloadKind::RateTasks)
    j["deadline_rule"] = "rate_tasks: job deadline S_i,k + P_i (paper 004 §2)";
  j["loop"] = sc.host.closed_loop ? "closed" : "open";
  j["seed"] = sc.seed;
  j["warmup_requests"] = sc.warmup_requests;
  return j;
}

/// summary.json "energy" of a MEMS run (mems::EnergyMeter up to the end of the simulation).
nlohmann::json mems_energy_json(MemsDevice& device, Time end, std::uint64_t completed) {
  const mems::EnergyMeter m = device.energy_at(end);
  using S = mems::SledPowerState;
  nlohmann::json e;
  e["total_joules"] = m.joules();
  e["per_request_joules"] = completed ? m.joules() / static_cast<double>(completed) : 0.0;
  e["tip_joules"] = m.tip_joules();
  e["sled_joules"] = {
      {"active", m.joules_in(S::Active)}, {"idle", m.joules_in(S::Idle)}, {"inactive", m.joules_in(S::Inactive)}};
  e["time_ms"] = {{"active", to_ms(m.time_in(S::Active))},
                  {"idle", to_ms(m.time_in(S::Idle))},
                  {"inactive", to_ms(m.time_in(S::Inactive))}};
  e["startups"] = m.startups();
  return e;
}

}  // namespace

namespace {

/// The QoS space of a run with QoS vectors (paper 001, issue 11): the sfc policy's curve over the
/// dimensions it reads from the vector, or Sweep over the workload's dimensions for any other
/// policy (testbench/metrics/qos_metrics.h); nothing for a run without QoS vectors.
std::optional<QosSpace> qos_space_of(const Scenario& sc) {
  if (!sc.host.qos.enabled()) return std::nullopt;
  const auto param = [&](const char* name) -> double {
    if (auto it = sc.policy_params.find(name); it != sc.policy_params.end()) return it->second;
    for (const PolicyParameter& p : find_policy(sc.policy)->params)
      if (p.name == name) return p.default_value;
    return 0;
  };
  if (sc.policy == "sfc" && param("qos_dims") > 0)
    return QosSpace(sfc::all_curve_kinds().at(static_cast<std::size_t>(param("curve"))),
                    static_cast<unsigned>(param("qos_dims")), sc.host.qos.levels, sc.host.qos.dims);
  return QosSpace(sfc::CurveKind::Sweep, sc.host.qos.dims, sc.host.qos.levels);
}

/// The rate_tasks run's policy: the scenario's, given the admission test's round plan when it is a
/// WRR-SCAN policy (firmware/rounds/wrr_scan.h); nullptr for other workloads (the platform's own).
std::unique_ptr<SchedulingPolicy> rate_tasks_policy(const Scenario& sc) {
  if (sc.workload_kind != Scenario::WorkloadKind::RateTasks) return nullptr;
  std::unique_ptr<SchedulingPolicy> policy = make_policy(sc.policy, sc.policy_params, sc.device_kind);
  auto* wrr_policy = dynamic_cast<WrrScanPolicy*>(policy.get());
  if (wrr_policy && sc.rate_tasks.plan) {
    const wrr::Plan& p = *sc.rate_tasks.plan;
    WrrRoundPlan plan;
    plan.round = from_ms(p.round_ms);
    plan.block_sectors = sc.rate_tasks.options.block_bytes / kBlockBytes;
    plan.aperiodic_blocks = p.aperiodic_blocks;
    for (std::size_t i = 0; i < sc.rate_tasks.options.tasks.size(); ++i)
      plan.weight_blocks[sc.rate_tasks.options.tasks[i].id] = p.weight_blocks[i];
    wrr_policy->configure(plan);
  }
  return policy;
}

/// summary.json "rate_tasks" "admission": the WRR-SCAN plan (R, q_i, x_i, x_a, bounds) or none.
nlohmann::json rate_tasks_admission_json(const Scenario& sc) {
  const RateTasksScenario& rt = sc.rate_tasks;
  nlohmann::json a = {{"offered", rt.offered},
                      {"admitted", rt.options.tasks.size()},
                      {"mode", rt.online_admission ? "online" : "strict"},
                      {"rejected", rt.rejected}};
  if (rt.plan) {
    a["test"] = wrr::equation(rt.plan->variant);
    a["round_ms"] = rt.plan->round_ms;
    a["aperiodic_weight_blocks"] = rt.plan->aperiodic_blocks;
    a["lower_bound_ms"] = rt.plan->lower_bound_ms;
    a["upper_bound_ms"] = rt.plan->upper_bound_ms;
    a["services"] = rt.plan->services;
    a["weight_blocks"] = rt.plan->weight_blocks;
  } else {
    a["test"] = nullptr;
  }
  return a;
}

/// The part of run_scenario() after the output directory is locked: simulate, write, commit.
/// summary.json "validation": the measured and simulated service-time distributions of a validate
/// trace and their demerit (testbench/metrics/demerit.h).
nlohmann::json validation_json(const RunMonitor& monitor) {
  const ServiceTimeDistribution& simulated = monitor.simulated_times();
  const ServiceTimeDistribution& measured = monitor.measured_times();
  nlohmann::json v = {{"requests", measured.count()},
                      {"measured_mean_ms", measured.mean_ms()},
                      {"simulated_mean_ms", simulated.mean_ms()},
                      {"demerit_ms", nullptr}};
  if (measured.count() > 0) {
    const double d = demerit_ms(simulated, measured);
    v["demerit_ms"] = d;
    v["demerit_percent_of_mean"] = 100.0 * d / measured.mean_ms();
  }
  return v;
}

RunResult run_into(const Scenario& sc, WorkloadSource& source, const TraceStats& trace_stats, std::uint64_t expected,
                   OutputDirectory& out, std::chrono::steady_clock::time_point wall_start) {
  const fs::path& dir = out.dir();
  auto shown = [&](const std::string& name) { return (dir / name).string(); };
  // output.requests_csv = false: no CSV (RunMonitor's empty path); the metrics are the same.
  const fs::path csv = sc.requests_csv ? out.stage("requests.csv") : fs::path();
  std::unique_ptr<RunMonitor> monitor_owner;
  try {
    const std::optional<QosSpace> qos = qos_space_of(sc);
    // Rate-task and round workloads carry deadlines (job deadlines, each C-request's round end):
    // requests.csv shows them.
    monitor_owner = std::make_unique<RunMonitor>(csv.string(), sc.warmup_requests, expected, sc.progress,
                                                 sc.host.deadline.enabled() ||
                                                     sc.workload_kind == Scenario::WorkloadKind::RateTasks ||
                                                     sc.workload_kind == Scenario::WorkloadKind::Rounds,
                                                 qos ? &*qos : nullptr, sc.has_measured_service_times());
  } catch (const std::runtime_error& e) {
    forget_unwound_frames();
    throw OutputError(e.what());
  }
  RunMonitor& monitor = *monitor_owner;

  // Elaborate and run.
  std::unique_ptr<Tracer> tracer;
  fs::path vcd;
  if (sc.tracing) {
    vcd = out.stage("waves.vcd");
    Tracer::Options o;
    o.vcd_path_base = (out.staging() / "waves").string();  // SystemC appends ".vcd"
    o.groups = sc.trace_groups;
    o.start = to_sc(sc.trace_start);
    o.stop = to_sc(sc.trace_stop);
    tracer = std::make_unique<Tracer>("tracer", o);
  }
  // Round workloads: the hiccup checker and rounds.csv (testbench/metrics/rounds_checker.h); the
  // rate_tasks workload under a WRR-SCAN policy with a round plan: rounds.csv of the firmware's
  // rounds (explicit rounds, reported by the dispatch hook below; summary.json unchanged).
  const bool fixed_rounds = sc.workload_kind == Scenario::WorkloadKind::Rounds;
  std::unique_ptr<RoundsChecker> rounds;
  if (fixed_rounds) rounds = std::make_unique<RoundsChecker>(sc.rounds.round_length(), sc.rounds.rounds);
  // Their waveforms (testbench/sim/rounds_trace.h), built after the platform.
  std::unique_ptr<RoundsTrace> rounds_trace;
  bool stopped = false;
  RateTaskMetrics rate_metrics(from_ms(sc.rate_tasks.options.duration_s * 1e3));
  const bool rate_tasks = sc.workload_kind == Scenario::WorkloadKind::RateTasks;
  Platform platform(
      sc, source,
      [&monitor, &stopped, &rate_metrics, rate_tasks, &rounds, &rounds_trace](const RequestRecord& r) {
        if (rounds) rounds->add(r);
        if (rounds_trace) rounds_trace->completed(r);
        monitor.record(r);
        if (rate_tasks) rate_metrics.add(r);
        // A failed requests.csv write (disk full) dooms the run: stop now rather than at the end.
        if (!stopped && monitor.write_failed()) {
          stopped = true;
          sc_core::sc_stop();
        }
      },
      tracer.get(), rate_tasks_policy(sc));
  const auto* wrr_policy = dynamic_cast<const WrrScanPolicy*>(&platform.firmware.policy());
  if (rate_tasks && wrr_policy && sc.rate_tasks.plan)
    rounds = std::make_unique<RoundsChecker>(from_ms(sc.rate_tasks.plan->round_ms), RoundsChecker::explicit_rounds);
  if (tracer && tracer->enabled(TraceGroup::Rounds) && (fixed_rounds || rate_tasks)) {
    RoundsTrace::Options o;
    if (fixed_rounds) {
      o.round_length = sc.rounds.round_length();
      o.rounds = sc.rounds.rounds;
      o.c_per_round = sc.rounds.streams;
    }
    o.periodic = rate_tasks;
    rounds_trace = std::make_unique<RoundsTrace>("rounds", o, *tracer, platform.firmware.policy());
  }
  // The dispatch hook: the round waveforms, and the explicit rounds' round of every decision (the
  // policy's round clock right after it decided).
  const bool explicit_rounds = rounds && rounds->explicit_mode();
  if (rounds_trace || explicit_rounds)
    platform.firmware.set_dispatch_observer([&rounds_trace, &rounds, explicit_rounds, wrr_policy](
                                                const Decision& d, Time dispatch, const SchedulingContext& ctx) {
      if (rounds_trace) rounds_trace->dispatched(d, dispatch, ctx);
      if (explicit_rounds) {
        const RoundManager& clock = wrr_policy->round_clock();
        rounds->dispatched(d, clock.current_round(), clock.current_start());
      }
    });
  sc_core::sc_start();
  const Time end = sim_now();
  if (rounds) rounds->end_run(end);
  // The simulation rate covers trace validation, elaboration and simulation, not the plots.
  const double sim_wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  if (tracer) {
    tracer->close();
    check_vcd_complete(vcd, to_time(tracer->closed_at()), shown("waves.vcd"));
  }
  try {
    monitor.finish();
  } catch (const std::runtime_error&) {
    forget_unwound_frames();
    throw OutputError(fmt::format("cannot write {}: {}", shown("requests.csv"), std::strerror(monitor.write_error())));
  }
  platform.host.finish_checks();
  const ConservationChecker& conservation = platform.host.conservation();
  // A run that simulated nothing has measured nothing: an error, never a pass.
  if (platform.host.completed() == 0)
    throw std::runtime_error(
        fmt::format("the run completed no request ({} submitted); nothing was measured", platform.host.submitted()));

  // Summary.
  RunResult result;
  result.requests = platform.host.completed();
  nlohmann::json& j = result.summary;
  j["drivevp_version"] = DRIVEVP_VERSION;
  j["scenario"] = scenario_json(sc, source.describe());
  j["simulated_time_ms"] = to_ms(end);
  j["requests"] = {{"submitted", platform.host.submitted()},
                   {"completed", platform.host.completed()},
                   {"measured", monitor.metrics().count()}};
  j["metrics"] = monitor.metrics().to_json();
  const SaturationReport saturation = monitor.saturation().report(sc.host.closed_loop);
  j["saturation"] = saturation.to_json();
  result.saturation_warning = saturation.warning(sc.workload_kind == Scenario::WorkloadKind::Trace);
  if (platform.mems) j["energy"] = mems_energy_json(*platform.mems, end, platform.host.completed());
  if (sc.host.deadline.enabled() || rate_tasks) j["deadlines"] = monitor.deadlines().to_json();
  if (monitor.qos() && monitor.qos()->count() > 0) j["sfc"] = monitor.qos()->to_json();
  if (rate_tasks) {
    j["rate_tasks"] = rate_metrics.to_json();
    j["rate_tasks"]["admission"] = rate_tasks_admission_json(sc);
  }
  if (sc.has_measured_service_times()) j["validation"] = validation_json(monitor);
  auto violations = [](const Violations& v) {
    return nlohmann::json{{"violations", v.count()}, {"first", v.messages()}};
  };
  j["checks"] = {{"conservation", violations(conservation.violations())},
                 {"data_integrity", violations(platform.host.integrity().violations())},
                 {"data_checked", sc.host.check_data},
                 {"media_errors", platform.host.media_errors()}};
  result.checks_passed = conservation.violations().count() == 0 &&
                         platform.host.integrity().violations().count() == 0 && platform.host.media_errors() == 0;
  if (rounds && !explicit_rounds) {
    j["rounds"] = rounds->to_json();
    j["checks"]["hiccups"] = rounds->hiccup_count();
    j["checks"]["expect_hiccup_free"] = sc.expect_hiccup_free;
    if (sc.expect_hiccup_free && rounds->hiccup_count() > 0) result.checks_passed = false;
  }
  j["checks"]["passed"] = result.checks_passed;
  const BackingStore& store = platform.store();
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
                  {"selected", trace_stats.selected},
                  {"filtered", trace_stats.filtered},
                  {"dropped",
                   {{"device", trace_stats.dropped_device},
                    {"before_start", trace_stats.dropped_before_start},
                    {"after_stop", trace_stats.dropped_after_stop},
                    {"skip_requests", trace_stats.dropped_skip},
                    {"request_limit", trace_stats.dropped_limit}}},
                  {"device_filter", sc.trace.device ? nlohmann::json(*sc.trace.device) : nlohmann::json("all")},
                  {"requests_per_device", trace_stats.devices},
                  {"requests_on_further_devices", trace_stats.more_devices},
                  {"skipped_malformed", trace_stats.skipped_malformed},
                  {"first_malformed", trace_stats.first_malformed},
                  {"wrapped", trace_stats.wrapped},
                  {"scaled", trace_stats.scaled},
                  {"truncated", trace_stats.truncated},
                  {"trace_extent_blocks", trace_stats.trace_extent_blocks}};
  }
  nlohmann::json files = {{"requests_csv", sc.requests_csv ? nlohmann::json("requests.csv") : nlohmann::json()},
                          {"response_histogram_csv", "response_histogram.csv"}};
  if (rounds) {
    std::ostringstream rc;
    rounds->write_csv(rc);
    write_file(out.stage("rounds.csv"), rc.str(), shown("rounds.csv"));
    files["rounds_csv"] = "rounds.csv";
  }
  // Histogram CSV and plots.
  const fs::path hist = out.stage("response_histogram.csv");
  {
    std::ostringstream h;
    write_response_histogram_csv(h, monitor.metrics());
    write_file(hist, h.str(), shown("response_histogram.csv"));
  }
  files["response_histogram_png"] = nullptr;
  files["response_cdf_png"] = nullptr;
  if (sc.plots && monitor.metrics().count() > 0) {
    // The CDF legend shows summary.json's percentiles: pass them (shortest round-trip decimal).
    std::string percentiles;
    for (const auto& [p, q] : {std::pair{50, 0.50}, std::pair{95, 0.95}, std::pair{99, 0.99}})
      percentiles +=
          fmt::format("{}{}={}", percentiles.empty() ? "" : ",", p, *monitor.metrics().response_quantile_ms(q));
    try {
      // The script writes both PNGs into the staging directory under their final names.
      gtkw::run_program({"/usr/bin/python3", plot_script(), hist.string(), out.staging().string(), "--title",
                         fmt::format("{} on {}", sc.policy, sc.device.preset), "--percentiles", percentiles});
      out.stage("response_histogram.png");
      out.stage("response_cdf.png");
      files["response_histogram_png"] = "response_histogram.png";
      files["response_cdf_png"] = "response_cdf.png";
    } catch (const std::exception& e) {
      forget_unwound_frames();
      j["plot_error"] = e.what();
    }
  }
  if (sc.has_measured_service_times() && monitor.measured_times().count() > 0) {
    // The two distributions behind the demerit, and their overlay.
    const fs::path cdf = out.stage("validation_cdf.csv");
    {
      std::ostringstream c;
      write_cdf_csv(c, monitor.simulated_times(), monitor.measured_times());
      write_file(cdf, c.str(), shown("validation_cdf.csv"));
    }
    files["validation_cdf_csv"] = "validation_cdf.csv";
    files["validation_cdf_png"] = nullptr;
    if (sc.plots) {
      try {
        gtkw::run_program({"/usr/bin/python3", plot_script("plot_validation.py"), cdf.string(), out.staging().string(),
                           "--title", fmt::format("{} on {}", sc.policy, sc.device.preset), "--demerit",
                           fmt::format("{}", j["validation"]["demerit_ms"].get<double>())});
        out.stage("validation_cdf.png");
        files["validation_cdf_png"] = "validation_cdf.png";
      } catch (const std::exception& e) {
        forget_unwound_frames();
        j["plot_error"] = e.what();
      }
    }
  }
  if (tracer) {
    const std::vector<std::string> filters =
        write_gtkw(*tracer, out, sc.trace_start, sc.trace_stop > Time{0} ? std::min(sc.trace_stop, end) : end);
    files["waves_vcd"] = "waves.vcd";
    files["waves_gtkw"] = "waves.gtkw";
    files["waves_translate_filters"] = filters;
    if (sc.trace_fst) {
      const fs::path fst = out.stage("waves.fst");
      try {
        gtkw::convert_vcd_to_fst(vcd.string(), fst.string());
      } catch (const std::runtime_error& e) {
        forget_unwound_frames();
        throw OutputError(fmt::format("cannot write {}: {}", shown("waves.fst"), e.what()));
      }
      files["waves_fst"] = "waves.fst";
    }
  }
  j["files"] = files;
  // Untrusted text (trace lines skipped under --lenient, file names) need not be UTF-8; JSON must
  // be: each invalid byte is written as U+FFFD.
  write_file(out.stage("summary.json"), j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n",
             shown("summary.json"));
  out.commit();
  result.wall_seconds = sim_wall;
  return result;
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
    expected = trace_stats.selected;  // the progress line's total and ETA
  } else if (sc.workload_kind == Scenario::WorkloadKind::RateTasks) {
    source = std::make_unique<RateTasksSource>(sc.rate_tasks.options);
    expected = sc.rate_tasks.options.expected_requests();
  } else if (sc.workload_kind == Scenario::WorkloadKind::Rounds) {
    source = std::make_unique<RoundsSource>(sc.rounds);
    expected =
        static_cast<std::uint64_t>((sc.rounds.streams + sc.rounds.lambda_d) * static_cast<double>(sc.rounds.rounds));
  } else {
    source = std::make_unique<SyntheticSource>(sc.synthetic);
    expected = sc.synthetic.requests;
  }
  // 2. The output directory, locked for the rest of the run (OutputBusyError if another run
  // holds it); nothing is simulated before this succeeds.
  OutputDirectory out(sc.output_dir);
  try {
    return run_into(sc, *source, trace_stats, expected, out, wall_start);
  } catch (const OutputError& e) {
    forget_unwound_frames();
    throw OutputError(fmt::format("{}; this run's outputs were discarded and earlier outputs in '{}' are unchanged",
                                  e.what(), sc.output_dir));
  }
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
  if (j.contains("trace")) {
    const nlohmann::json& t = j["trace"];
    const nlohmann::json& d = t["dropped"];
    s += fmt::format(
        "  trace        {} requests in the trace, {} selected | dropped: device {}, window {}, skip {}, limit {} | "
        "{} malformed lines skipped\n",
        t["trace_requests"].get<std::uint64_t>(), t["selected"].get<std::uint64_t>(), d["device"].get<std::uint64_t>(),
        d["before_start"].get<std::uint64_t>() + d["after_stop"].get<std::uint64_t>(),
        d["skip_requests"].get<std::uint64_t>(), d["request_limit"].get<std::uint64_t>(),
        t["skipped_malformed"].get<std::uint64_t>());
  }
  if (j.contains("deadlines")) {
    const nlohmann::json& d = j["deadlines"];
    s += fmt::format("  deadlines    {} | {} of {} missed (ratio {:.4f}) | tardiness ms mean {} | max {}\n",
                     j["scenario"]["deadline_rule"].get<std::string>(), d["missed"].get<std::uint64_t>(),
                     d["requests"].get<std::uint64_t>(), d["miss_ratio"].get<double>(),
                     d["tardiness_ms"].is_null() ? std::string("n/a") : num(d["tardiness_ms"]["mean"], "{:.3f}"),
                     d["tardiness_ms"].is_null() ? std::string("n/a") : num(d["tardiness_ms"]["max"], "{:.3f}"));
  }
  if (j.contains("validation") && !j["validation"]["demerit_ms"].is_null()) {
    const nlohmann::json& v = j["validation"];
    s += fmt::format(
        "  validation   demerit {:.3f} ms over {} requests | measured mean {:.3f} ms | simulated mean {:.3f} ms\n",
        v["demerit_ms"].get<double>(), v["requests"].get<std::uint64_t>(), v["measured_mean_ms"].get<double>(),
        v["simulated_mean_ms"].get<double>());
  }
  if (j.contains("rounds")) {
    const nlohmann::json& rd = j["rounds"];
    s +=
        fmt::format("  rounds       {} of {} ms | {} C-requests, {} hiccups | D mean response {} ms, fairness {:.4f}\n",
                    rd["rounds"].get<std::uint64_t>(), rd["round_ms"].get<double>(),
                    rd["c_requests"].get<std::uint64_t>(), rd["hiccups"].get<std::uint64_t>(),
                    num(rd["d_response_mean_ms"], "{:.3f}"), rd["d_fairness_index"].get<double>());
    if (j["checks"]["expect_hiccup_free"].get<bool>() && rd["hiccups"].get<std::uint64_t>() > 0) {
      const nlohmann::json& h = rd["first_hiccups"][0];
      s += fmt::format(
          "  FAILED: run.expect_hiccup_free = true but {} C-requests missed their round (first: stream {}, round {}, "
          "{:.6f} ms late)\n",
          rd["hiccups"].get<std::uint64_t>(), h["stream"].get<std::uint32_t>(), h["round"].get<std::uint64_t>(),
          h["lateness_ms"].get<double>());
    }
  }
  s += fmt::format("  checks       {}\n",
                   j["checks"]["passed"].get<bool>() ? "passed (conservation, data integrity)" : "FAILED");
  return s;
}

}  // namespace drivevp
