// Reading DiskSim 4.0's parameter files and converting a disk's description into drivevp's drive
// TOML (drivevp import-disksim; docs/models/drives.md "Importing from DiskSim"). The syntax is
// DiskSim's libparam: typed blocks `type Name { Key = value, ... }`, nested blocks as values,
// `[ ... ]` lists, `source FILE` includes (at the top level and as a value), `#` comments,
// `instantiate [ names ] as Name` and `topology type name [ ... ]` statements; the seek curve's
// `.seek` files ("Seek distances measured: N", then N "distance, ms" lines).
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "hw_models/disk/drive_spec.h"

namespace drivevp::disksim {

/// A file that cannot be read or converted: "FILE:LINE: ..." naming the key where there is one.
class ImportError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Block;

/// A parameter value: an integer, a real, a word (identifiers and file names), a list or a block.
struct Value {
  enum class Kind { Integer, Real, Word, List, Block } kind = Kind::Word;
  std::int64_t integer = 0;
  double real = 0;
  std::string word;
  std::vector<Value> list;
  std::shared_ptr<Block> block;
  std::string file;  ///< where the value was read
  int line = 0;
  /// The value as a number (an integer or a real); throws ImportError naming `key` otherwise.
  double number(const std::string& key) const;
};

/// `Key = value` inside a block.
struct Param {
  std::string key;
  Value value;
  std::string file;
  int line = 0;
};

/// A typed block, named at the top level (`disksim_disk HP_C2490A { ... }`) or anonymous as a value.
struct Block {
  std::string type;
  std::string name;
  std::vector<Param> params;
  std::string file;
  int line = 0;
};

/// A node of the `topology` statement: `type name [ children ]`.
struct TopologyNode {
  std::string type;
  std::string name;
  std::vector<TopologyNode> children;
};

/// A whole parameter file with its includes.
struct ParamFile {
  std::vector<Block> blocks;  ///< the top-level blocks, included files' in place
  std::vector<std::pair<std::vector<std::string>, std::string>> instances;  ///< instantiate [names] as Block
  std::vector<TopologyNode> topology;
};

/// Parses a DiskSim parameter file (.parv, .diskspecs, .model), following `source` includes
/// relative to the including file's directory. Throws ImportError "FILE:LINE: expected ..., found ...".
ParamFile parse_param_file(const std::string& path);

/// Reads a `.seek` file: [distance, ms] pairs. Throws ImportError naming the file and line.
std::vector<std::pair<std::uint32_t, double>> read_seek_file(const std::string& path);

/// Converts the disk (the one `disksim_disk` block) of a .parv or .diskspecs file into a drive
/// description: every key of the disk, its model, layout, zones and mechanics, and (from a .parv)
/// the bus the disk hangs on and the controller above it, per the topology. An unknown key, a
/// missing one or an unsupported value (a seek type other than extracted / hplplus10, an access
/// time type other than trackSwitchPlusRotation, skews in revolutions, fractional sectors) is an
/// ImportError naming the file, line and key. Blocks of the rest of the simulated system
/// (driver, stats, logical organisation, workload) are read but are not part of a drive.
DriveSpec import_drive(const std::string& path);

}  // namespace drivevp::disksim
