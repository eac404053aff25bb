// A GTKWave save file (.gtkw) written beside a VCD: opening it shows the useful signals already
// laid out, in one group per unit: the machine's FLOP rate, the first cores (compute busy and its
// FLOP rate, buffer stages full, the DMA's busy, queue, requests and bytes in flight and
// bandwidth, barriers, resident blocks, SRAM ports), trace players, the HBM (its bandwidth and
// each channel's busy) and the shared levels' ports. Busy signals show as bits, counts as decimals,
// rates and bytes in flight as analog steps; the view spans the traced time. The other signals are
// in GTKWave's hierarchy browser.
#pragma once

#include <string>
#include <vector>

#include "sim/waveforms/activity_signals.hpp"
#include "sim/waveforms/waveform_layout.hpp"

namespace ridgeline {

/// The name GTKWave gives a signal of a SystemC VCD: "SystemC.top.core0.dma.in_flight_bytes[31:0]".
std::string gtkwave_name(const Signal& signal);

/// The save file for `vcd_path` (made absolute), showing [start, end].
std::string gtkw_save_file(const std::string& vcd_path, const std::vector<Signal>& signals,
                           const WaveformLayout& layout, Time start, Time end);

/// `vcd_path` with its extension (if .vcd) replaced by .gtkw.
std::string gtkw_path_for(const std::string& vcd_path);

}  // namespace ridgeline
