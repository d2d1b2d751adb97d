#!/usr/bin/env bash
# Opens a dump and its GTKWave save file in the real GTKWave, headless (Xvfb), and checks that
# the save file shows the expected signals and that GTKWave actually draws waveforms.
#
# Usage: check_gtkwave.sh [--keep DIR] [--time-range MIN MAX] [--value-at TIME SIGNAL TEXT]...
#                         DUMP.vcd|.fst SAVE.gtkw EXPECTED_SIGNAL...
#
#   EXPECTED_SIGNAL  a facility name exactly as GTKWave shows it, e.g.
#                    "SystemC.drive.actuator.cylinder[31:0]" (see waveforms/gtkw.h)
#   --keep DIR       keep the screenshot (DIR/shot.png), GTKWave's signal list
#                    (DIR/displayed.txt) and log (DIR/gtkwave.log) in DIR
#   --time-range MIN MAX
#                    the dump's time range as GTKWave reads it (gtkwave::getMinTime and
#                    getMaxTime, dump time units) must be exactly [MIN, MAX]
#   --value-at TIME SIGNAL TEXT
#                    with the marker at TIME, the signal pane must show TEXT for the displayed
#                    SIGNAL (gtkwave::getTraceValueAtMarkerFromName: the value as displayed, after
#                    the save file's format and translate filter); repeatable
#
# Checks, in this order, each failure naming what was expected and what was found:
#   1. GTKWave loads the dump and the save file and runs the Tcl probe within the time limit;
#   2. every EXPECTED_SIGNAL is among gtkwave::getDisplayedSignals (the signals the save file
#      put on display), and the dump has at least one facility;
#   3. the time range and the values at the marker, when asked for;
#   4. the screenshot's wave pane is not blank: it holds at least MIN_TRACE_PIXELS pixels of
#      trace colour (GTKWave draws traces in green, red or yellow on black; the grey text and
#      the dark-blue grid do not count).
# Exit status: 0 all checks pass; 1 a check failed; 2 usage error or a missing tool.
# Needs: gtkwave, xvfb-run (xvfb), import and convert (imagemagick), timeout (coreutils).
# Environment: CHECK_GTKWAVE_TIMEOUT (seconds, default 60), MIN_TRACE_PIXELS (default 200).
set -euo pipefail

die_usage() {
  echo "check_gtkwave.sh: $*" >&2
  echo "usage: check_gtkwave.sh [--keep DIR] [--time-range MIN MAX] [--value-at TIME SIGNAL TEXT]... DUMP SAVE.gtkw EXPECTED_SIGNAL..." >&2
  exit 2
}
fail() {
  echo "check_gtkwave.sh: FAIL: $*" >&2
  exit 1
}

keep_dir=""
range_min=""
range_max=""
value_times=()
value_signals=()
value_texts=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --keep)
      [[ $# -ge 2 ]] || die_usage "--keep needs a directory"
      keep_dir=$2
      shift 2
      ;;
    --time-range)
      [[ $# -ge 3 && $2 =~ ^[0-9]+$ && $3 =~ ^[0-9]+$ ]] || die_usage "--time-range needs two integers MIN MAX"
      range_min=$2
      range_max=$3
      shift 3
      ;;
    --value-at)
      [[ $# -ge 4 && $2 =~ ^[0-9]+$ && -n $3 && -n $4 ]] || die_usage "--value-at needs TIME (an integer) SIGNAL TEXT"
      value_times+=("$2")
      value_signals+=("$3")
      value_texts+=("$4")
      shift 4
      ;;
    *) break ;;
  esac
done
[[ $# -ge 3 ]] || die_usage "need a dump, a save file and at least one expected signal"
dump=$1
save=$2
shift 2
expected=("$@")
[[ -r $dump ]] || die_usage "cannot read dump file '$dump'"
[[ -r $save ]] || die_usage "cannot read save file '$save'"
for tool in gtkwave xvfb-run import convert timeout; do
  command -v "$tool" > /dev/null || die_usage "'$tool' not found on PATH (apt-get install gtkwave xvfb imagemagick)"
done
time_limit=${CHECK_GTKWAVE_TIMEOUT:-60}
min_trace_pixels=${MIN_TRACE_PIXELS:-200}

work=$(mktemp -d "${TMPDIR:-/tmp}/check_gtkwave.XXXXXX")
trap 'rm -rf "$work"' EXIT
dump_abs=$(realpath "$dump")
# GTKWave rewrites the save file it was given on some menu actions; give it a copy, with the
# translate filter files it names by relative path ("^N FILE" lines), which GTKWave opens from
# the save file's directory.
cp "$save" "$work/view.gtkw"
save_dir=$(dirname "$save")
while read -r filter; do
  [[ $filter == /* ]] && continue
  [[ -r $save_dir/$filter ]] || die_usage "the save file names the translate filter '$filter', which is not readable beside it"
  mkdir -p "$work/$(dirname "$filter")"
  cp "$save_dir/$filter" "$work/$filter"
done < <(sed -n 's/^\^[1-9][0-9]* //p' "$save")

# The Tcl probe: GTKWave runs it once the dump and save file are loaded. It writes the
# displayed signals, the dump's time range, the values asked for at the marker and the geometry
# of the wave pane, screenshots the display, then quits. Markers written last so a partial run is
# detectable. The value probes come from values.txt, one "TIME SIGNAL" per line.
: > "$work/values.txt"
for i in "${!value_times[@]}"; do
  printf '%s %s\n' "${value_times[$i]}" "${value_signals[$i]}" >> "$work/values.txt"
done
cat > "$work/probe.tcl" << 'TCL'
set out [open displayed.txt w]
foreach name [gtkwave::getDisplayedSignals] { puts $out "signal $name" }
puts $out "facilities [gtkwave::getNumFacs]"
puts $out "range [gtkwave::getMinTime] [gtkwave::getMaxTime]"
set vf [open values.txt r]
while {[gets $vf line] >= 0} {
  set t [lindex $line 0]
  set sig [lindex $line 1]
  gtkwave::setMarker $t
  update
  puts $out "value $t $sig => [gtkwave::getTraceValueAtMarkerFromName $sig]"
}
close $vf
puts $out "wave_width [gtkwave::getWaveWidth]"
puts $out "wave_height [gtkwave::getWaveHeight]"
puts $out "window [gtkwave::getWindowStartTime] [gtkwave::getWindowEndTime]"
close $out
# Let GTK draw the window before the screenshot.
update
after 1500
update
if {[catch {exec import -window root shot.png} err]} {
  set f [open shot_error.txt w]; puts $f $err; close $f
}
set f [open done.txt w]; puts $f ok; close $f
gtkwave::/File/Quit
TCL

# -a: pick a free display number; -br: black root window, so the GTKWave window (at the
# top-left, there is no window manager) stands out in the screenshot. GTKWave runs in $work,
# where the probe writes its files. Nothing waits for input; timeout bounds the whole run.
set +e
(cd "$work" && timeout --kill-after=5 "$time_limit" \
  xvfb-run -a -s "-screen 0 1600x1000x24 -br" \
  gtkwave -S probe.tcl "$dump_abs" view.gtkw) > "$work/gtkwave.log" 2>&1
status=$?
set -e
if [[ -n $keep_dir ]]; then
  mkdir -p "$keep_dir"
  cp "$work"/gtkwave.log "$keep_dir"/
  [[ -f $work/displayed.txt ]] && cp "$work/displayed.txt" "$keep_dir"/
  [[ -f $work/shot.png ]] && cp "$work/shot.png" "$keep_dir"/
fi
if [[ $status -eq 124 || $status -eq 137 ]]; then
  fail "GTKWave did not finish within ${time_limit}s (log: $(tail -n 3 "$work/gtkwave.log" | tr '\n' ' '))"
fi
if [[ ! -f $work/done.txt ]]; then
  fail "GTKWave exited with status $status before the probe finished; log tail: $(tail -n 5 "$work/gtkwave.log" | tr '\n' ' ')"
fi
[[ -f $work/shot_error.txt ]] && fail "screenshot failed: $(cat "$work/shot_error.txt")"

# 2. Signals.
mapfile -t displayed < <(sed -n 's/^signal //p' "$work/displayed.txt")
facilities=$(sed -n 's/^facilities //p' "$work/displayed.txt")
[[ ${facilities:-0} -gt 0 ]] || fail "GTKWave found no facilities in '$dump'"
missing=()
for name in "${expected[@]}"; do
  found=0
  for shown in "${displayed[@]}"; do
    if [[ $shown == "$name" ]]; then found=1; break; fi
  done
  [[ $found -eq 1 ]] || missing+=("$name")
done
if [[ ${#missing[@]} -gt 0 ]]; then
  fail "expected signals not displayed: ${missing[*]}; displayed: ${displayed[*]:-(none)}"
fi

# 3. Time range and values at the marker.
if [[ -n $range_min ]]; then
  read -r got_min got_max < <(sed -n 's/^range //p' "$work/displayed.txt")
  [[ ${got_min:-} == "$range_min" && ${got_max:-} == "$range_max" ]] ||
    fail "GTKWave's time range of '$dump' is [${got_min:-?}, ${got_max:-?}], expected [$range_min, $range_max]"
fi
for i in "${!value_times[@]}"; do
  prefix="value ${value_times[$i]} ${value_signals[$i]} => "
  got=$(grep -F -- "$prefix" "$work/displayed.txt" | head -n 1)
  got=${got#"$prefix"}
  [[ $got == "${value_texts[$i]}" ]] ||
    fail "at time ${value_times[$i]} GTKWave shows '${got}' for ${value_signals[$i]}, expected '${value_texts[$i]}'"
done

# 4. Drawn traces. The wave pane is the right-most wave_width x wave_height pixels of the
# GTKWave window; without a window manager the window sits at the top-left of the screen, so
# crop relative to the window's own size found from the screenshot's non-background extent.
read -r wave_w < <(sed -n 's/^wave_width //p' "$work/displayed.txt")
read -r wave_h < <(sed -n 's/^wave_height //p' "$work/displayed.txt")
[[ ${wave_w:-0} -gt 10 && ${wave_h:-0} -gt 10 ]] || fail "GTKWave reports a wave pane of ${wave_w:-?}x${wave_h:-?} pixels"
# Window extent: the bounding box of everything that is not the (black) root window.
read -r win_w win_h < <(convert "$work/shot.png" -fuzz 1% -trim -format '%w %h\n' info: | head -n 1)
read -r off_x off_y < <(convert "$work/shot.png" -fuzz 1% -trim -format '%X %Y\n' info: | head -n 1 | tr -d '+')
[[ ${win_w:-0} -gt $wave_w ]] || fail "screenshot shows no GTKWave window (trimmed size ${win_w:-0}x${win_h:-0})"
# The wave pane ends a scrollbar's width from the right edge and above the horizontal
# scrollbar; crop its inner part, which excludes the time ruler and scrollbars.
crop_x=$((off_x + win_w - wave_w - 20))
crop_y=$((off_y + win_h - wave_h - 20))
convert "$work/shot.png" -crop "${wave_w}x$((wave_h - 30))+${crop_x}+$((crop_y + 30))" +repage "$work/wave.png"
# Trace pixels: strongly coloured pixels, chroma above 40% (GTKWave's default traces are pure
# green, X/Z values red/yellow; the background is black, text and ruler grey with chroma 0, and
# the grid dark blue #202070 with chroma 31%). HCL's second channel is the chroma.
trace_pixels=$(convert "$work/wave.png" -colorspace HCL -channel G -separate +channel \
  -threshold 40% -format '%[fx:round(mean*w*h)]' info:)
colours=$(convert "$work/wave.png" -format '%k' info:)
[[ -n $keep_dir ]] && cp "$work/wave.png" "$keep_dir"/
if [[ $trace_pixels -lt $min_trace_pixels ]]; then
  fail "wave pane looks blank: $trace_pixels trace-coloured pixels (need $min_trace_pixels), $colours distinct colours"
fi

checked=""
[[ -n $range_min ]] && checked+="; time range [$range_min, $range_max]"
[[ ${#value_times[@]} -gt 0 ]] && checked+="; ${#value_times[@]} values at the marker as expected"
echo "check_gtkwave.sh: OK: ${#expected[@]} expected signals displayed (of ${#displayed[@]})$checked; wave pane ${wave_w}x${wave_h} px has $trace_pixels trace pixels, $colours colours"
