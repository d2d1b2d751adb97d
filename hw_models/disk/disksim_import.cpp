#include "hw_models/disk/disksim_import.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string_view>

#include <fmt/format.h>

namespace drivevp::disksim {

namespace fs = std::filesystem;

namespace {

// Numbers as DiskSim writes them, parsed with std::from_chars over the whole text (no std::regex:
// GCC 12 warns maybe-uninitialized inside <regex> under the sanitizers, and -Werror stops the build).

/// True if `w` is digits only; its value in `v`.
bool whole_unsigned(std::string_view w, long long& v) {
  if (w.empty() || !std::isdigit(static_cast<unsigned char>(w.front()))) return false;
  const auto [end, ec] = std::from_chars(w.data(), w.data() + w.size(), v);
  return ec == std::errc() && end == w.data() + w.size();
}

/// `w` without one leading sign; `negative` says whether it was '-'.
std::string_view unsigned_part(std::string_view w, bool& negative) {
  negative = !w.empty() && w.front() == '-';
  if (!w.empty() && (w.front() == '-' || w.front() == '+')) w.remove_prefix(1);
  return w;
}

/// True if `w` (an optional sign, then digits) is an integer; its value in `v`.
bool whole_integer(std::string_view w, long long& v) {
  bool negative = false;
  if (!whole_unsigned(unsigned_part(w, negative), v)) return false;
  if (negative) v = -v;
  return true;
}

/// True if `w` is a decimal real (optional sign, digits with an optional point or a point and
/// digits, optional exponent; no inf, nan or hex); its value in `v`.
bool whole_real(std::string_view w, double& v) {
  bool negative = false;
  const std::string_view body = unsigned_part(w, negative);
  if (body.empty() || !(std::isdigit(static_cast<unsigned char>(body.front())) || body.front() == '.')) return false;
  const auto [end, ec] = std::from_chars(body.data(), body.data() + body.size(), v, std::chars_format::general);
  if (ec != std::errc() || end != body.data() + body.size()) return false;
  if (negative) v = -v;
  return true;
}

/// `s` without leading and trailing blanks.
std::string_view trim_blanks(std::string_view s) {
  const std::size_t a = s.find_first_not_of(" \t");
  if (a == std::string_view::npos) return {};
  return s.substr(a, s.find_last_not_of(" \t") - a + 1);
}

std::string read_text(const std::string& path, const std::string& from) {
  std::ifstream in(path);
  if (!in) throw ImportError(fmt::format("{}cannot open {}", from.empty() ? "" : from + ": ", path));
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// Recursive-descent reader of one file's text.
class Parser {
 public:
  Parser(std::string path, std::string text, ParamFile& out, int depth)
      : path_(std::move(path)), text_(std::move(text)), out_(out), depth_(depth) {}

  void top_level() {
    for (;;) {
      skip();
      if (at_end()) return;
      const int line = line_;
      const std::string word = token();
      if (word.empty()) fail("a block type, source, instantiate or topology", quote_here());
      if (word == "source") {
        include(token(), line);
      } else if (word == "instantiate") {
        expect('[');
        std::vector<std::string> names = name_list();
        if (token() != "as") fail("'as' after the instance list", quote_here());
        out_.instances.emplace_back(std::move(names), token());
      } else if (word == "topology") {
        out_.topology.push_back(topology_node());
      } else {
        Block b;
        b.type = word;
        b.name = token();
        b.file = path_;
        b.line = line;
        if (b.name.empty()) fail("the block's name after " + word, quote_here());
        expect('{');
        b.params = params();
        out_.blocks.push_back(std::move(b));
      }
    }
  }

  /// The top-level block of an included file used as a value (`Model = source X.model`).
  static Value block_of_file(const std::string& path, const std::string& from, int depth) {
    ParamFile f;
    Parser p(path, read_text(path, from), f, depth + 1);
    p.top_level();
    if (f.blocks.size() != 1)
      throw ImportError(fmt::format("{}: expected one block in {}, found {}", from, path, f.blocks.size()));
    Value v;
    v.kind = Value::Kind::Block;
    v.block = std::make_shared<Block>(std::move(f.blocks[0]));
    v.file = path;
    v.line = v.block->line;
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& expected, const std::string& found) const {
    throw ImportError(fmt::format("{}:{}: expected {}, found {}", path_, line_, expected, found));
  }

  std::string quote_here() const {
    if (at_end()) return "the end of the file";
    std::string s;
    for (std::size_t i = pos_; i < text_.size() && text_[i] != '\n' && s.size() < 30; ++i) s += text_[i];
    return "'" + s + "'";
  }

  bool at_end() const { return pos_ >= text_.size(); }

  void skip() {
    while (!at_end()) {
      const char c = text_[pos_];
      if (c == '#') {
        while (!at_end() && text_[pos_] != '\n') ++pos_;
      } else if (std::isspace(static_cast<unsigned char>(c))) {
        if (c == '\n') ++line_;
        ++pos_;
      } else {
        return;
      }
    }
  }

  static bool word_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-' || c == '/' || c == '+';
  }

  std::string token() {
    skip();
    std::string s;
    while (!at_end() && word_char(text_[pos_])) s += text_[pos_++];
    return s;
  }

  void expect(char c) {
    skip();
    if (at_end() || text_[pos_] != c) fail(std::string("'") + c + "'", quote_here());
    ++pos_;
  }

  bool next_is(char c) {
    skip();
    return !at_end() && text_[pos_] == c;
  }

  std::vector<std::string> name_list() {
    std::vector<std::string> names;
    for (;;) {
      if (next_is(']')) {
        ++pos_;
        return names;
      }
      const std::string n = token();
      if (n.empty()) fail("a name or ']'", quote_here());
      names.push_back(n);
      if (next_is(',')) ++pos_;
    }
  }

  TopologyNode topology_node() {
    TopologyNode n;
    n.type = token();
    n.name = token();
    if (n.type.empty() || n.name.empty()) fail("a topology node 'type name [ ... ]'", quote_here());
    expect('[');
    while (!next_is(']')) {
      if (at_end()) fail("']' closing the topology node " + n.name, "the end of the file");
      n.children.push_back(topology_node());
      if (next_is(',')) ++pos_;
    }
    ++pos_;
    return n;
  }

  void include(const std::string& file, int line) {
    if (file.empty()) fail("a file name after source", quote_here());
    if (depth_ > 16) fail("at most 16 nested includes", "more");
    const std::string p = (fs::path(path_).parent_path() / file).string();
    Parser inner(p, read_text(p, fmt::format("{}:{}", path_, line)), out_, depth_ + 1);
    inner.top_level();
  }

  /// `Key = value, ...` up to the closing '}'.
  std::vector<Param> params() {
    std::vector<Param> ps;
    for (;;) {
      skip();
      if (at_end()) fail("'}' closing the block", "the end of the file");
      if (text_[pos_] == '}') {
        ++pos_;
        return ps;
      }
      Param p;
      p.file = path_;
      p.line = line_;
      std::string key;
      while (!at_end() && text_[pos_] != '=' && text_[pos_] != '\n' && text_[pos_] != '}' && text_[pos_] != '#')
        key += text_[pos_++];
      while (!key.empty() && std::isspace(static_cast<unsigned char>(key.back()))) key.pop_back();
      if (at_end() || text_[pos_] != '=') fail("'=' after the key '" + key + "'", quote_here());
      ++pos_;
      p.key = key;
      p.value = value();
      ps.push_back(std::move(p));
      skip();
      if (!at_end() && text_[pos_] == ',') ++pos_;
    }
  }

  Value value() {
    skip();
    Value v;
    v.file = path_;
    v.line = line_;
    if (at_end()) fail("a value", "the end of the file");
    if (text_[pos_] == '[') {
      ++pos_;
      v.kind = Value::Kind::List;
      for (;;) {
        if (next_is(']')) {
          ++pos_;
          return v;
        }
        if (at_end()) fail("']' closing the list", "the end of the file");
        v.list.push_back(value());
        if (next_is(',')) ++pos_;
      }
    }
    const std::string w = token();
    if (w.empty()) fail("a value", quote_here());
    if (w == "source") {
      const int line = line_;
      const std::string file = token();
      if (file.empty()) fail("a file name after source", quote_here());
      return block_of_file((fs::path(path_).parent_path() / file).string(), fmt::format("{}:{}", path_, line), depth_);
    }
    if (next_is('{')) {  // an anonymous typed block
      ++pos_;
      v.kind = Value::Kind::Block;
      v.block = std::make_shared<Block>();
      v.block->type = w;
      v.block->file = path_;
      v.block->line = v.line;
      v.block->params = params();
      return v;
    }
    long long as_integer = 0;
    double as_real = 0;
    if (whole_integer(w, as_integer)) {
      v.kind = Value::Kind::Integer;
      v.integer = as_integer;
    } else if (whole_real(w, as_real)) {
      v.kind = Value::Kind::Real;
      v.real = as_real;
    } else {
      v.kind = Value::Kind::Word;
      v.word = w;
    }
    return v;
  }

  std::string path_;
  std::string text_;
  ParamFile& out_;
  int depth_ = 0;
  std::size_t pos_ = 0;
  int line_ = 1;
};

std::string where(const Param& p) { return fmt::format("{}:{}", p.file, p.line); }

[[noreturn]] void bad(const Param& p, const std::string& owner, const std::string& expected, const std::string& found) {
  throw ImportError(fmt::format("{}: {} '{}': expected {}, found {}", where(p), owner, p.key, expected, found));
}

std::string describe(const Value& v) {
  switch (v.kind) {
    case Value::Kind::Integer:
      return fmt::format("{}", v.integer);
    case Value::Kind::Real:
      return fmt::format("{}", v.real);
    case Value::Kind::Word:
      return "'" + v.word + "'";
    case Value::Kind::List:
      return "a list";
    case Value::Kind::Block:
      return "a block of type " + v.block->type;
  }
  return "?";
}

/// The params of a block by key, each key once; unknown keys and duplicates are errors.
class Keys {
 public:
  Keys(const Block& b, const std::set<std::string>& known, const std::string& owner) : block_(b), owner_(owner) {
    for (const Param& p : b.params) {
      if (!known.count(p.key)) {
        std::string list;
        for (const std::string& k : known) list += (list.empty() ? "" : "; ") + k;
        throw ImportError(
            fmt::format("{}: {}: unsupported key '{}' (a drive takes: {})", where(p), owner, p.key, list));
      }
      if (!seen_.emplace(p.key, &p).second)
        throw ImportError(fmt::format("{}: {}: key '{}' given twice", where(p), owner, p.key));
    }
  }
  const Param* find(const std::string& key) const {
    auto it = seen_.find(key);
    return it == seen_.end() ? nullptr : it->second;
  }
  const Param& need(const std::string& key) const {
    const Param* p = find(key);
    if (!p)
      throw ImportError(
          fmt::format("{}:{}: {}: expected the key '{}', found nothing", block_.file, block_.line, owner_, key));
    return *p;
  }
  double number(const std::string& key) const {
    const Param& p = need(key);
    if (p.value.kind == Value::Kind::Integer) return static_cast<double>(p.value.integer);
    if (p.value.kind == Value::Kind::Real) return p.value.real;
    bad(p, owner_, "a number", describe(p.value));
  }
  /// A whole number (DiskSim writes some as 75.000000); fractions are not supported.
  std::uint64_t whole(const std::string& key, double max = 4e9) const {
    const double v = number(key);
    if (!(v >= 0 && v <= max && std::floor(v) == v))
      bad(need(key), owner_, "a whole number >= 0", fmt::format("{}", v));
    return static_cast<std::uint64_t>(v);
  }
  const Block& block(const std::string& key, const std::string& type) const {
    const Param& p = need(key);
    if (p.value.kind != Value::Kind::Block || p.value.block->type != type)
      bad(p, owner_, "a " + type + " block", describe(p.value));
    return *p.value.block;
  }
  const std::vector<Value>& list(const std::string& key) const {
    const Param& p = need(key);
    if (p.value.kind != Value::Kind::List) bad(p, owner_, "a list", describe(p.value));
    return p.value.list;
  }
  std::string word(const std::string& key) const {
    const Param& p = need(key);
    if (p.value.kind != Value::Kind::Word) bad(p, owner_, "a word", describe(p.value));
    return p.value.word;
  }

 private:
  const Block& block_;
  std::string owner_;
  std::map<std::string, const Param*> seen_;
};

/// The [cache]/[overheads]/[interface] keys of one DiskSim block (`sub`: "" for the disk's own,
/// "scheduler", "bus" or "controller").
void convert_declared(const Block& b, const std::string& sub, const std::set<std::string>& extra, DriveSpec& d) {
  std::set<std::string> known = extra;
  std::vector<const DriveKeyDecl*> decls;
  for (const DriveKeyDecl& k : drive_key_decls()) {
    const std::string key = k.key;
    const auto dot = key.find('.');
    const std::string ksub = dot == std::string::npos ? "" : key.substr(0, dot);
    if (ksub != sub) continue;
    decls.push_back(&k);
    known.insert(k.disksim);
  }
  const Keys keys(b, known, b.type + (b.name.empty() ? "" : " " + b.name));
  for (const DriveKeyDecl* k : decls) {
    const Param& p = keys.need(k->disksim);
    const double v = keys.number(k->disksim);
    const std::string owner = b.type;
    if (!(v >= k->min && v <= k->max))
      bad(p, owner, fmt::format("a value in [{}, {}]", k->min, k->max), describe(p.value));
    DriveValue out;
    if (k->type == 0) {
      if (v != 0 && v != 1) bad(p, owner, "0 or 1", describe(p.value));
      out = v == 1;
    } else if (k->type == 1) {
      if (p.value.kind != Value::Kind::Integer) bad(p, owner, "an integer", describe(p.value));
      out = p.value.integer;
    } else {
      out = v;
    }
    const std::string section = k->section;
    DriveSection& s = section == "cache" ? d.cache : section == "overheads" ? d.overheads : d.interface;
    s.values.emplace_back(k->key, out);
  }
}

DriveZone convert_zone(const Block& z) {
  const Keys k(z,
               {"First cylinder number", "Last cylinder number", "Blocks per track", "Offset of first block",
                "Empty space at zone front", "Skew for track switch", "Skew for cylinder switch", "Number of spares",
                "slips", "defects", "Skew units"},
               "dm_layout_g1_zone");
  if (const Param* u = k.find("Skew units"))
    if (u->value.kind != Value::Kind::Word || u->value.word != "sectors")
      bad(*u, "dm_layout_g1_zone", "'sectors' (skews in revolutions are not supported)", describe(u->value));
  DriveZone o;
  o.first_cylinder = static_cast<std::uint32_t>(k.whole("First cylinder number"));
  o.last_cylinder = static_cast<std::uint32_t>(k.whole("Last cylinder number"));
  o.blocks_per_track = static_cast<std::uint32_t>(k.whole("Blocks per track"));
  o.first_block_offset = static_cast<std::uint32_t>(k.whole("Offset of first block"));
  o.front_space = static_cast<std::uint32_t>(k.whole("Empty space at zone front"));
  o.track_skew = static_cast<std::uint32_t>(k.whole("Skew for track switch"));
  o.cylinder_skew = static_cast<std::uint32_t>(k.whole("Skew for cylinder switch"));
  o.spares = static_cast<std::uint32_t>(k.whole("Number of spares"));
  auto ints = [&](const std::string& key) {
    std::vector<std::uint32_t> v;
    for (const Value& x : k.list(key)) {
      if (x.kind != Value::Kind::Integer || x.integer < 0)
        throw ImportError(fmt::format("{}:{}: dm_layout_g1_zone '{}': expected non-negative integers, found {}", x.file,
                                      x.line, key, describe(x)));
      v.push_back(static_cast<std::uint32_t>(x.integer));
    }
    return v;
  };
  o.slips = ints("slips");
  const std::vector<std::uint32_t> defects = ints("defects");
  if (defects.size() % 2 != 0)
    bad(k.need("defects"), "dm_layout_g1_zone", "[defect, remap] pairs (an even count)",
        fmt::format("{} values", defects.size()));
  for (std::size_t i = 0; i < defects.size(); i += 2) o.defects.push_back({defects[i], defects[i + 1]});
  return o;
}

DriveMechanics convert_mechanics(const Block& m) {
  const Keys k(m,
               {"Access time type", "Seek type", "Single cylinder seek time", "Average seek time", "Full seek curve",
                "Full strobe seek time", "Add. write settling delay", "HPL seek equation values",
                "First ten seek times", "Head switch time", "Rotation speed (in rpms)", "Percent error in rpms"},
               "dm_mech_g1");
  DriveMechanics o;
  o.access_time_type = k.word("Access time type");
  if (o.access_time_type != "trackSwitchPlusRotation")
    bad(k.need("Access time type"), "dm_mech_g1", "trackSwitchPlusRotation", "'" + o.access_time_type + "'");
  o.rpm = k.number("Rotation speed (in rpms)");
  o.rpm_error_percent = k.number("Percent error in rpms");
  if (o.rpm_error_percent != 0)
    bad(k.need("Percent error in rpms"), "dm_mech_g1", "0 (no spindle speed error model)",
        describe(k.need("Percent error in rpms").value));
  o.head_switch_ms = k.number("Head switch time");
  o.write_settle_ms = k.number("Add. write settling delay");
  o.settle_ms = 0;  // DiskSim's seek curves include settling
  auto optional = [&](const std::string& key) -> std::optional<double> {
    if (!k.find(key)) return std::nullopt;
    return k.number(key);
  };
  o.single_cylinder_seek_ms = optional("Single cylinder seek time");
  o.average_seek_ms = optional("Average seek time");
  o.full_strobe_seek_ms = optional("Full strobe seek time");
  auto numbers = [&](const std::string& key, std::size_t n) {
    std::vector<double> v;
    if (!k.find(key)) return v;
    for (const Value& x : k.list(key)) v.push_back(x.number(key));
    if (v.size() != n) bad(k.need(key), "dm_mech_g1", fmt::format("{} numbers", n), fmt::format("{}", v.size()));
    return v;
  };
  o.hpl_seek = numbers("HPL seek equation values", 6);
  o.first_ten_seeks_ms = numbers("First ten seek times", 10);
  const std::string type = k.word("Seek type");
  if (type == "extracted") {
    o.seek = "table";
    const Param& p = k.need("Full seek curve");
    if (p.value.kind != Value::Kind::Word) bad(p, "dm_mech_g1", "a .seek file name", describe(p.value));
    o.seek_file = fs::path(p.value.word).filename().string();
    o.seek_table = read_seek_file((fs::path(p.file).parent_path() / p.value.word).string());
  } else if (type == "hplplus10") {
    o.seek = "hplplus10";
    if (o.hpl_seek.empty() || o.first_ten_seeks_ms.empty())
      bad(k.need("Seek type"), "dm_mech_g1", "HPL seek equation values and First ten seek times with hplplus10",
          "one missing");
    if (const Param* f = k.find("Full seek curve"))
      bad(*f, "dm_mech_g1", "no seek file with hplplus10", describe(f->value));
  } else {
    bad(k.need("Seek type"), "dm_mech_g1", "extracted or hplplus10", "'" + type + "'");
  }
  return o;
}

/// The chain of topology nodes from the root to the node named `name`, or empty.
bool path_to(const TopologyNode& n, const std::string& name, std::vector<const TopologyNode*>& path) {
  path.push_back(&n);
  if (n.name == name) return true;
  for (const TopologyNode& c : n.children)
    if (path_to(c, name, path)) return true;
  path.pop_back();
  return false;
}

}  // namespace

double Value::number(const std::string& key) const {
  if (kind == Kind::Integer) return static_cast<double>(integer);
  if (kind == Kind::Real) return real;
  throw ImportError(fmt::format("{}:{}: '{}': expected a number, found {}", file, line, key, describe(*this)));
}

ParamFile parse_param_file(const std::string& path) {
  ParamFile f;
  Parser p(path, read_text(path, ""), f, 0);
  p.top_level();
  return f;
}

std::vector<std::pair<std::uint32_t, double>> read_seek_file(const std::string& path) {
  std::istringstream in(read_text(path, ""));
  std::string line;
  int n = 0;
  std::size_t expected = 0;
  bool header = false;
  std::vector<std::pair<std::uint32_t, double>> out;
  constexpr std::string_view kHead = "Seek distances measured:";
  while (std::getline(in, line)) {
    ++n;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    const std::string_view text = trim_blanks(line);
    if (!header) {
      long long count = 0;
      if (text.substr(0, kHead.size()) != kHead || !whole_unsigned(trim_blanks(text.substr(kHead.size())), count))
        throw ImportError(fmt::format("{}:{}: expected 'Seek distances measured: N', found '{}'", path, n, line));
      expected = static_cast<std::size_t>(count);
      header = true;
      continue;
    }
    const std::size_t comma = text.find(',');
    long long distance = 0;
    double ms = 0;
    if (comma == std::string_view::npos || !whole_unsigned(trim_blanks(text.substr(0, comma)), distance) ||
        distance > 0xFFFFFFFFLL || !whole_real(trim_blanks(text.substr(comma + 1)), ms))
      throw ImportError(fmt::format("{}:{}: expected 'distance, milliseconds', found '{}'", path, n, line));
    const auto d = static_cast<std::uint32_t>(distance);
    if (d == 0 || (!out.empty() && d <= out.back().first))
      throw ImportError(
          fmt::format("{}:{}: expected a distance above {}, found {}", path, n, out.empty() ? 0 : out.back().first, d));
    out.emplace_back(d, ms);
  }
  if (!header) throw ImportError(fmt::format("{}: expected 'Seek distances measured: N', found an empty file", path));
  // The header's count must match the samples that follow.
  if (out.size() != expected)
    throw ImportError(fmt::format("{}: expected {} seek samples (its header), found {}", path, expected, out.size()));
  return out;
}

DriveSpec import_drive(const std::string& path) {
  const ParamFile f = parse_param_file(path);
  const Block* disk = nullptr;
  for (const Block& b : f.blocks)
    if (b.type == "disksim_disk") {
      if (disk)
        throw ImportError(
            fmt::format("{}:{}: expected one disksim_disk block, found a second ({})", b.file, b.line, b.name));
      disk = &b;
    }
  if (!disk) throw ImportError(fmt::format("{}: expected a disksim_disk block, found none", path));
  DriveSpec d;
  d.name = disk->name;
  d.source = "DiskSim 4.0 valid/" + fs::path(path).filename().string() + " (CMU; COPYING.DiskSim)";
  convert_declared(*disk, "", {"Model", "Scheduler"}, d);
  const Param* model_param = nullptr;
  const Param* scheduler_param = nullptr;
  for (const Param& p : disk->params) {
    if (p.key == "Model") model_param = &p;
    if (p.key == "Scheduler") scheduler_param = &p;
  }
  if (!scheduler_param || scheduler_param->value.kind != Value::Kind::Block ||
      scheduler_param->value.block->type != "disksim_ioqueue")
    throw ImportError(fmt::format("{}:{}: disksim_disk: expected 'Scheduler = disksim_ioqueue {{ ... }}', found {}",
                                  disk->file, disk->line,
                                  scheduler_param ? describe(scheduler_param->value) : "nothing"));
  convert_declared(*scheduler_param->value.block, "scheduler", {}, d);
  if (!model_param || model_param->value.kind != Value::Kind::Block || model_param->value.block->type != "dm_disk")
    throw ImportError(fmt::format("{}:{}: disksim_disk: expected 'Model = source X.model' (a dm_disk block), found {}",
                                  disk->file, disk->line, model_param ? describe(model_param->value) : "nothing"));
  const Block& model = *model_param->value.block;
  const Keys mk(model,
                {"Number of data surfaces", "Number of cylinders", "Block count", "Layout Model", "Mechanical Model"},
                "dm_disk");
  d.layout.surfaces = static_cast<std::uint32_t>(mk.whole("Number of data surfaces", 1024));
  d.layout.cylinders = static_cast<std::uint32_t>(mk.whole("Number of cylinders", 1e7));
  d.layout.block_count = mk.whole("Block count", 1e15);
  const Block& layout = mk.block("Layout Model", "dm_layout_g1");
  const Keys lk(layout,
                {"LBN-to-PBN mapping scheme", "Sparing scheme used", "Rangesize for sparing", "Zones", "Skew units"},
                "dm_layout_g1");
  if (const Param* u = lk.find("Skew units"))
    if (u->value.kind != Value::Kind::Word || u->value.word != "sectors")
      bad(*u, "dm_layout_g1", "'sectors' (skews in revolutions are not supported)", describe(u->value));
  d.layout.lbn_mapping = static_cast<std::uint32_t>(lk.whole("LBN-to-PBN mapping scheme", 2));
  d.layout.sparing_scheme = static_cast<std::uint32_t>(lk.whole("Sparing scheme used", 10));
  d.layout.sparing_range = static_cast<std::uint32_t>(lk.whole("Rangesize for sparing", 1e7));
  for (const Value& z : lk.list("Zones")) {
    if (z.kind != Value::Kind::Block || z.block->type != "dm_layout_g1_zone")
      throw ImportError(fmt::format("{}:{}: dm_layout_g1 'Zones': expected dm_layout_g1_zone blocks, found {}", z.file,
                                    z.line, describe(z)));
    d.layout.zones.push_back(convert_zone(*z.block));
  }
  d.mechanics = convert_mechanics(mk.block("Mechanical Model", "dm_mech_g1"));
  // From a whole system: the bus the disk hangs on and the controller above it.
  std::string instance;
  for (const auto& [names, block] : f.instances)
    if (block == disk->name && !names.empty()) instance = names[0];
  if (!instance.empty()) {
    std::vector<const TopologyNode*> chain;
    for (const TopologyNode& root : f.topology)
      if (path_to(root, instance, chain)) break;
    auto block_of = [&](const std::string& inst, const std::string& type) -> const Block* {
      for (const auto& [names, name] : f.instances)
        for (const std::string& n : names)
          if (n == inst)
            for (const Block& b : f.blocks)
              if (b.name == name && b.type == type) return &b;
      return nullptr;
    };
    if (chain.size() >= 2 && chain[chain.size() - 2]->type == "disksim_bus")
      if (const Block* bus = block_of(chain[chain.size() - 2]->name, "disksim_bus"))
        convert_declared(*bus, "bus", {}, d);
    if (chain.size() >= 3 && chain[chain.size() - 3]->type == "disksim_ctlr")
      if (const Block* c = block_of(chain[chain.size() - 3]->name, "disksim_ctlr"))
        convert_declared(*c, "controller", {}, d);
  }
  // Reorder the interface keys as declared (scheduler before bus before controller).
  std::vector<std::pair<std::string, DriveValue>> ordered;
  for (const DriveKeyDecl& k : drive_key_decls())
    if (std::string(k.section) == "interface" && d.interface.has(k.key))
      ordered.emplace_back(k.key, d.interface.at(k.key));
  d.interface.values = std::move(ordered);
  try {
    (void)d.disk_params();
  } catch (const DriveSpecError& e) {
    throw ImportError(fmt::format("{}: {}", path, e.what()));
  }
  return d;
}

}  // namespace drivevp::disksim
