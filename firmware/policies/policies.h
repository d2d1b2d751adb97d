// Registry descriptors of the policies, one per file in this folder.
#pragma once

#include <vector>

#include "firmware/policy.h"

namespace drivevp {

PolicyInfo describe_fcfs();
PolicyInfo describe_sstf();
PolicyInfo describe_scan();
PolicyInfo describe_look();
PolicyInfo describe_cscan();
PolicyInfo describe_clook();
PolicyInfo describe_sptf();
PolicyInfo describe_aged_sptf();
PolicyInfo describe_noop();
PolicyInfo describe_deadline();
PolicyInfo describe_anticipatory();
PolicyInfo describe_cfq();
PolicyInfo describe_bfq();
PolicyInfo describe_nstep_scan();
PolicyInfo describe_fscan();
PolicyInfo describe_edf();
PolicyInfo describe_scan_edf();
PolicyInfo describe_parallel_deadline();
PolicyInfo describe_sfc();
// WRR-SCAN of paper 004, in firmware/rounds/wrr_scan.cpp.
PolicyInfo describe_wrr_scan_r();
PolicyInfo describe_wrr_scan_c();
PolicyInfo describe_wrr_scan_ca();
/// Paper 003's mixed-media round schedulers (mixed_media.cpp), in the paper's order.
std::vector<PolicyInfo> describe_mixed_media_policies();

}  // namespace drivevp
