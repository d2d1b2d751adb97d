#include "testbench/experiment/results.h"

#include <fcntl.h>
#include <unistd.h>

#include <boost/math/distributions/students_t.hpp>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "source_paths.h"                  // generated: DRIVEVP_DATA_DIR, DRIVEVP_SOURCE_DIR
#include "testbench/experiment/regress.h"  // find_path
#include "testbench/trace/trace_reader.h"  // printable_text

namespace drivevp::experiment {
namespace fs = std::filesystem;
namespace {

/// A CSV field (RFC 4180): quoted when it holds a comma, quote, CR or LF, quotes doubled.
std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::string csv_row(const std::vector<std::string>& cells) {
  std::string row;
  for (std::size_t i = 0; i < cells.size(); ++i) row += (i ? "," : "") + csv_field(cells[i]);
  return row + "\n";
}

/// A summary.json value as a CSV cell: numbers in shortest round-trip form, booleans
/// true/false, strings as they are, null empty.
std::string json_cell(const nlohmann::json& v) {
  if (v.is_number_integer())
    return v.is_number_unsigned() ? fmt::format("{}", v.get<std::uint64_t>())
                                  : fmt::format("{}", v.get<std::int64_t>());
  if (v.is_number_float()) return fmt::format("{}", v.get<double>());
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_string()) return v.get<std::string>();
  if (v.is_null()) return "";
  return v.dump();
}

std::optional<double> json_number(const nlohmann::json& v) {
  if (v.is_number()) return v.get<double>();
  if (v.is_boolean()) return v.get<bool>() ? 1.0 : 0.0;
  return std::nullopt;
}

std::string git_revision(bool& dirty) {
  dirty = false;
  const char* d = std::getenv("DRIVEVP_DATA_DIR");
  const std::string src = d && *d ? d : DRIVEVP_DATA_DIR;
  const auto head = capture_output({"git", "-C", src, "rev-parse", "HEAD"});
  if (!head) return "unknown";
  std::string h = *head;
  while (!h.empty() && (h.back() == '\n' || h.back() == '\r')) h.pop_back();
  if (const auto st = capture_output({"git", "-C", src, "status", "--porcelain", "--untracked-files=no"}))
    dirty = !st->empty();
  return h;
}

[[noreturn]] void bad_plan(const std::string& file, const std::string& what) {
  throw ConfigError(fmt::format("{}: {} (was it written by drivevp sweep?)", printable_text(file, 200), what));
}

}  // namespace

Plan plan_of(const Experiment& ex) {
  Plan plan;
  plan.name = ex.name;
  for (const Axis& a : ex.axes) plan.axis_keys.push_back(a.key);
  plan.metrics = ex.metrics;
  plan.replications = ex.replications;
  plan.has_figures = !ex.figures.empty();
  for (const Point& p : ex.points) {
    PlanPoint pp;
    pp.id = p.id;
    for (std::size_t a = 0; a < ex.axes.size(); ++a) pp.axis_text.push_back(ex.axes[a].values[p.value_of[a]].text);
    pp.scenario_sha256 = p.scenario_sha256;
    for (int k = 0; k < ex.replications; ++k)
      pp.seeds.push_back(derive_seed(ex.base_seed, ex.common_seeds ? std::string() : p.assignment, k));
    plan.points.push_back(std::move(pp));
  }
  return plan;
}

nlohmann::json experiment_record(const Experiment& ex, const Plan& plan) {
  using nlohmann::json;
  bool dirty = false;
  const std::string commit = git_revision(dirty);
  json j = json::object();
  j["experiment"] = {{"file", ex.file_abs}, {"sha256", sha256_hex(ex.text)}, {"text", ex.text}};
  j["name"] = ex.name;
  if (!ex.part.empty()) j["part"] = ex.part;
  j["description"] = ex.description;
  j["drivevp_version"] = DRIVEVP_VERSION;
  j["git_commit"] = commit;
  j["git_dirty"] = dirty;
  j["replications"] = ex.replications;
  j["seeds"] = ex.common_seeds ? "common" : "independent";
  j["base_seed"] = ex.base_seed;
  j["axes"] = json::array();
  // Typed as in the experiment file (the figures plot numbers as numbers); arrays as text.
  const auto typed = [](const AxisValue& v) -> json {
    if (const auto i = v.node->value_exact<std::int64_t>()) return *i;
    if (const auto d = v.node->value_exact<double>()) return *d;
    if (const auto b = v.node->value_exact<bool>()) return *b;
    return v.text;
  };
  for (const Axis& a : ex.axes) {
    json values = json::array();
    for (const AxisValue& v : a.values) values.push_back(typed(v));
    json axis = {{"key", a.key}, {"values", values}};
    if (a.zip >= 0) axis["zip"] = a.zip;
    j["axes"].push_back(axis);
  }
  j["metrics"] = json::array();
  for (const Metric& m : ex.metrics) j["metrics"].push_back({{"name", m.name}, {"path", m.path}});
  j["figures"] = json::array();
  for (const Figure& f : ex.figures) {
    j["figures"].push_back({{"name", f.name},
                            {"x", f.x},
                            {"y", f.y},
                            {"series", f.series ? json(*f.series) : json(nullptr)},
                            {"panels", f.panels ? json(*f.panels) : json(nullptr)},
                            {"title", f.title},
                            {"xlabel", f.xlabel},
                            {"ylabel", f.ylabel},
                            {"logx", f.logx},
                            {"logy", f.logy},
                            {"kind", f.kind},
                            {"sharey", f.sharey}});
    json panel_values = nullptr;
    if (!f.panel_values.empty()) {
      panel_values = json::array();
      for (const Axis& a : ex.axes)
        if (f.panels && a.key == *f.panels)
          for (std::size_t i : f.panel_values) panel_values.push_back(typed(a.values[i]));
    }
    j["figures"].back()["panel_values"] = panel_values;
  }
  j["points"] = plan.points.size();
  j["plan"] = json::array();
  for (const PlanPoint& p : plan.points) {
    json axes = json::object();
    for (std::size_t a = 0; a < plan.axis_keys.size(); ++a) axes[plan.axis_keys[a]] = p.axis_text[a];
    j["plan"].push_back({{"id", p.id}, {"axes", axes}, {"scenario_sha256", p.scenario_sha256}, {"seeds", p.seeds}});
  }
  return j;
}

Plan read_plan(const std::string& dir) {
  const std::string file = dir + "/experiment.json";
  const std::string text = read_file_text(file);
  if (text.empty()) bad_plan(file, "cannot read the sweep's experiment record");
  Plan plan;
  try {
    const nlohmann::json j = nlohmann::json::parse(text);
    plan.name = j.at("name").get<std::string>();
    plan.replications = j.at("replications").get<int>();
    for (const auto& a : j.at("axes")) plan.axis_keys.push_back(a.at("key").get<std::string>());
    for (const auto& m : j.at("metrics")) plan.metrics.push_back({m.at("name"), m.at("path")});
    plan.has_figures = !j.at("figures").empty();
    for (const auto& p : j.at("plan")) {
      PlanPoint pp;
      pp.id = p.at("id").get<std::string>();
      for (const std::string& k : plan.axis_keys) pp.axis_text.push_back(p.at("axes").at(k).get<std::string>());
      pp.scenario_sha256 = p.at("scenario_sha256").get<std::string>();
      pp.seeds = p.at("seeds").get<std::vector<std::uint64_t>>();
      if (pp.seeds.size() != static_cast<std::size_t>(plan.replications))
        bad_plan(file, "a point's seeds do not match the replications");
      plan.points.push_back(std::move(pp));
    }
  } catch (const nlohmann::json::exception& e) {
    bad_plan(file, fmt::format("not a sweep record: {}", e.what()));
  }
  return plan;
}

std::string read_file_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

void write_file_atomic(const std::string& path, const std::string& text, bool durable) {
  const fs::path p(path);
  std::error_code ec;
  if (p.has_parent_path()) {
    fs::create_directories(p.parent_path(), ec);
    if (ec)
      throw std::runtime_error(
          fmt::format("cannot create {}: {}", printable_text(p.parent_path().string(), 200), ec.message()));
  }
  const std::string tmp = fmt::format("{}.tmp-{}", path, ::getpid());
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0)
    throw std::runtime_error(fmt::format("cannot write {}: {}", printable_text(path, 200), std::strerror(errno)));
  std::size_t done = 0;
  int error = 0;
  while (done < text.size()) {
    const ssize_t w = ::write(fd, text.data() + done, text.size() - done);
    if (w < 0) {
      if (errno == EINTR) continue;
      error = errno;
      break;
    }
    done += static_cast<std::size_t>(w);
  }
  if (!error && durable && ::fsync(fd) != 0) error = errno;
  if (::close(fd) != 0 && !error) error = errno;
  if (!error && std::rename(tmp.c_str(), path.c_str()) != 0) error = errno;
  if (error) {
    ::unlink(tmp.c_str());
    throw std::runtime_error(fmt::format("cannot write {}: {}", printable_text(path, 200), std::strerror(error)));
  }
}

std::string run_dir(const std::string& dir, const PlanPoint& p, int rep) {
  return fmt::format("{}/points/{}/rep-{}", dir, p.id, rep);
}
std::string run_log(const std::string& dir, const PlanPoint& p, int rep) { return run_dir(dir, p, rep) + ".log"; }
std::string run_result(const std::string& dir, const PlanPoint& p, int rep) {
  return run_dir(dir, p, rep) + ".result.json";
}

namespace {
std::optional<nlohmann::json> read_result(const std::string& dir, const PlanPoint& p, int rep) {
  const std::string text = read_file_text(run_result(dir, p, rep));
  if (text.empty()) return std::nullopt;
  try {
    nlohmann::json j = nlohmann::json::parse(text);
    if (j.value("scenario_sha256", "") != p.scenario_sha256) return std::nullopt;
    if (!j.contains("seed") || j["seed"] != p.seeds[static_cast<std::size_t>(rep)]) return std::nullopt;
    if (!j.contains("exit_status") || !j["exit_status"].is_number_integer()) return std::nullopt;
    return j;
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
}
}  // namespace

bool run_complete(const std::string& dir, const PlanPoint& p, int rep) {
  const auto r = read_result(dir, p, rep);
  return r && (*r)["exit_status"] == 0 && (*r).value("status", "") == "ok";
}

std::vector<RunRef> incomplete_runs(const Plan& plan, const std::string& dir, std::size_t first, std::size_t last) {
  std::vector<RunRef> out;
  for (std::size_t i = first; i < last && i < plan.points.size(); ++i)
    for (int k = 0; k < plan.replications; ++k)
      if (!run_complete(dir, plan.points[i], k)) out.push_back({i, k});
  return out;
}

std::size_t execute_runs(const Plan& plan, const std::string& dir, const std::vector<RunRef>& runs,
                         std::size_t parallel, const std::string& drivevp_binary, const RunDone& on_done,
                         double timeout_s) {
  std::vector<Job> jobs;
  jobs.reserve(runs.size());
  for (const RunRef& r : runs) {
    const PlanPoint& p = plan.points[r.point];
    // A stale record must not outlive the run that replaces it.
    std::error_code ec;
    fs::remove(run_result(dir, p, r.rep), ec);
    jobs.push_back(
        {{drivevp_binary, "run", fmt::format("{}/points/{}/scenario.toml", dir, p.id), "--set",
          fmt::format("run.seed={}", p.seeds[static_cast<std::size_t>(r.rep)]), "--out", run_dir(dir, p, r.rep)},
         run_log(dir, p, r.rep),
         timeout_s});
  }
  std::size_t failures = 0;
  run_jobs(jobs, parallel, [&](std::size_t i, const JobResult& jr) {
    const RunRef& r = runs[i];
    const PlanPoint& p = plan.points[r.point];
    nlohmann::json rec = {{"point", p.id},
                          {"replication", r.rep},
                          {"seed", p.seeds[static_cast<std::size_t>(r.rep)]},
                          {"scenario_sha256", p.scenario_sha256},
                          {"exit_status", jr.exit_status},
                          {"error", jr.error},
                          {"status", jr.exit_status == 0 ? "ok" : "failed"}};
    nlohmann::json metrics = nlohmann::json::object();
    if (jr.exit_status == 0 || jr.exit_status == 1) {
      try {
        const nlohmann::json summary = nlohmann::json::parse(read_file_text(run_dir(dir, p, r.rep) + "/summary.json"));
        std::vector<std::string> absent;
        for (const Metric& m : plan.metrics) {
          const nlohmann::json* v = find_path(summary, m.path);
          if (!v) absent.push_back(m.path);
          metrics[m.name] = v ? *v : nlohmann::json(nullptr);
        }
        if (jr.exit_status == 1) rec["error"] = "a checker failed (see summary.json checks): " + jr.error;
        if (!absent.empty() && rec["status"] == "ok") {
          rec["status"] = "failed";
          rec["exit_status"] = 0;
          std::string list;
          for (const std::string& a : absent) list += (list.empty() ? "" : ", ") + a;
          rec["error"] = "summary.json has no " + list + " (a metric path of the experiment's [metrics])";
        }
      } catch (const nlohmann::json::exception& e) {
        rec["status"] = "failed";
        rec["error"] = fmt::format("cannot read the run's summary.json: {}", e.what());
      }
    }
    rec["metrics"] = metrics;
    if (rec["status"] != "ok") ++failures;
    write_file_atomic(run_result(dir, p, r.rep), rec.dump(1) + "\n", /*durable=*/false);
    if (on_done) on_done(r, rec, jr);
  });
  return failures;
}

Stats summarize(const std::vector<double>& x) {
  Stats s;
  if (x.empty()) return s;
  const double n = static_cast<double>(x.size());
  double sum = 0;
  for (double v : x) sum += v;
  s.mean = sum / n;
  if (x.size() < 2) return s;
  double ss = 0;
  for (double v : x) ss += (v - *s.mean) * (v - *s.mean);
  s.sd = std::sqrt(ss / (n - 1));
  const boost::math::students_t t(n - 1);
  s.ci95 = boost::math::quantile(boost::math::complement(t, 0.025)) * *s.sd / std::sqrt(n);
  return s;
}

Collected collect(const Plan& plan, const std::string& dir) {
  Collected c;
  auto opt = [](const std::optional<double>& v) { return v ? fmt::format("{}", *v) : std::string(); };
  std::vector<std::string> header = {"point"};
  header.insert(header.end(), plan.axis_keys.begin(), plan.axis_keys.end());
  std::vector<std::string> sheader = header;
  header.insert(header.end(), {"replication", "seed", "status"});
  sheader.push_back("n");
  for (const Metric& m : plan.metrics) {
    header.push_back(m.name);
    for (const char* s : {"_mean", "_sd", "_ci95"}) sheader.push_back(m.name + s);
  }
  std::string results = csv_row(header), summary = csv_row(sheader);
  for (const PlanPoint& p : plan.points) {
    std::vector<std::vector<double>> values(plan.metrics.size());
    std::size_t n = 0;
    for (int k = 0; k < plan.replications; ++k) {
      std::vector<std::string> row = {p.id};
      row.insert(row.end(), p.axis_text.begin(), p.axis_text.end());
      row.push_back(fmt::format("{}", k));
      row.push_back(fmt::format("{}", p.seeds[static_cast<std::size_t>(k)]));
      const auto rec = read_result(dir, p, k);
      const bool ok = rec && (*rec)["exit_status"] == 0 && rec->value("status", "") == "ok";
      if (!rec) {
        c.missing.push_back(fmt::format("{} rep {}", p.id, k));
        row.push_back("missing");
      } else if (!ok) {
        c.failed.push_back(
            fmt::format("{} rep {}: exit {}: {}", p.id, k, (*rec)["exit_status"].get<int>(), rec->value("error", "")));
        row.push_back("failed");
      } else {
        row.push_back("ok");
        ++n;
      }
      for (std::size_t m = 0; m < plan.metrics.size(); ++m) {
        if (!ok) {
          row.emplace_back();
          continue;
        }
        const nlohmann::json& v = (*rec)["metrics"][plan.metrics[m].name];
        row.push_back(json_cell(v));
        if (const auto d = json_number(v)) values[m].push_back(*d);
      }
      results += csv_row(row);
    }
    std::vector<std::string> srow = {p.id};
    srow.insert(srow.end(), p.axis_text.begin(), p.axis_text.end());
    srow.push_back(fmt::format("{}", n));
    for (std::size_t m = 0; m < plan.metrics.size(); ++m) {
      const Stats s = summarize(values[m]);
      srow.insert(srow.end(), {opt(s.mean), opt(s.sd), opt(s.ci95)});
    }
    summary += csv_row(srow);
  }
  write_file_atomic(dir + "/results.csv", results);
  write_file_atomic(dir + "/summary.csv", summary);
  return c;
}

}  // namespace drivevp::experiment
