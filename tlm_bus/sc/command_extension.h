// The command-descriptor extension: attaches the Command being served to the TLM transactions
// the firmware issues for it (register writes that start media operations, DMA), so that
// devices, monitors and waveforms can tell which request a transaction belongs to. The
// firmware attaches it to the actuator's and the read channel's COMMAND writes and to the data
// DMA; the read channel records the id it carries (waveform drive.channel.command_id).
#pragma once

#include <tlm>

#include "tlm_bus/command.h"

namespace drivevp {

class CommandExtension : public tlm::tlm_extension<CommandExtension> {
 public:
  CommandExtension() = default;
  explicit CommandExtension(const Command& c) : command(c) {}
  tlm::tlm_extension_base* clone() const override { return new CommandExtension(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    command = static_cast<const CommandExtension&>(other).command;
  }
  Command command;
};

}  // namespace drivevp
