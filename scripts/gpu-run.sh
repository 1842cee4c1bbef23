#!/usr/bin/env bash
# Runs on a GPU machine with the NVIDIA driver but no build tools, from the repository root,
# after scripts/gpu-bundle.sh has built .gpu/ on a machine with the build dependencies:
# registers NVIDIA's OpenCL driver, then runs the example, the test suite, the sweeps and the
# comparisons on the GPU. Every output goes into a results folder that is packed into one
# results.tar.gz in the output folder ($OUT, default ./out), beside a short summary.txt.
set -uo pipefail
source "$(dirname "$0")/gpu-common.sh"
out=${OUT:-$root/out}
# The outputs are written into a scratch folder and packed into the output folder, so that it
# holds two files only, also when a run is stopped part-way.
work=$(mktemp -d)
results=$work/results
mkdir -p "$results" "$out"
# The unit tests read the docs and the fuzz corpora from the source tree: this copy of it.
export CLREDUCE_SOURCE_DIR=$root
summary=$out/summary.txt
# Packed after every step, so that a run stopped part-way still leaves all that was done.
after_step() { tar -czf "$out/results.tar.gz" -C "$work" results; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$summary"
# Parts to run (CLREDUCE_GPU_PARTS): tests huge floor accuracy exact-lanes first-result tune tune-check
# sweeps sweep-plot compare segments by-key opencv. The default, under 10 minutes on an H100 or H200: the test
# suite, the call floor, the sweeps and the comparisons for int32, float32, int8 and float64
# (docs/performance.md). "huge tune tune-check" take longer; run them on their own.
parts=" ${CLREDUCE_GPU_PARTS:-tests floor sweeps compare} "
want() { [[ $parts == *" $1 "* ]]; }
step devices "$bin/clreduce-perf" devices
if want tests; then
step example "$bin/clreduce-example"
step unit-tests "$bin/clreduce-unit-tests"
step tests "$bin/clreduce-tests"
fi
if want huge; then
step tests-huge "$bin/clreduce-tests" "[huge]"
fi
if want first-result; then
step first-result "$bin/clreduce-perf" first-result -r 7
fi
if want floor; then
# What bounds a synchronous call (clreduce-floor, perf/experiments/): raw launch and read
# costs, clreduce's sync and async calls, the device's read bandwidth.
step floor "$bin/clreduce-floor" -r 300 -n 1024 -n 1048576 -n 16777216 --json "$results/floor.json"
fi
if want accuracy; then
# Every float mode on every data set; the plot: kernel time against n for uniform data.
step accuracy "$bin/clreduce-perf" accuracy -n 16777216 -n 67108864 -n 268435456 -r 10 --no-opencv \
  --json "$results/accuracy.json" --svg "$results/accuracy-time-vs-n.svg"
fi
if want exact-lanes; then
# The correctly rounded sum's level 1 paths (untested lanes first, tested) against the
# deterministic sum: what device/vendor.hpp's tries_exact_lanes_untested chooses from.
step exact-lanes "$bin/clreduce-exact-lanes" -n 16777216 -n 268435456 -n 1073741824 -r 9
fi
# From here on the disk caches (tuning file, program binaries) live in one folder that later
# calls on the same machine find again; the steps after the tune use its parameters.
export CLREDUCE_CACHE_DIR=${CLREDUCE_GPU_CACHE:-/tmp/clreduce-gpu-cache}
tune_types=${CLREDUCE_GPU_TUNE_TYPES:-int8 int32 uint32 float32 float64}
if want tune; then
for type in $tune_types; do
  start=$SECONDS
  step "tune-$type" "$bin/clreduce-perf" tune -t "$type"
  echo "tune-$type: $((SECONDS - start)) s wall" | tee -a "$summary"
done
fi
step tune-show "$bin/clreduce-perf" tune --show
cp "$CLREDUCE_CACHE_DIR/tuning.json" "$results/" 2>/dev/null
if want tune-check; then
  # Each tuned times against every times of the sweep, in interleaved rounds (README, Tuning).
  # CLREDUCE_GPU_TUNE_CHECKS=2 runs the check again (tune-check-2): how far two checks of the
  # same entries agree with each other.
  for k in $(seq 1 "${CLREDUCE_GPU_TUNE_CHECKS:-1}"); do
    name=tune-check
    [ "$k" -gt 1 ] && name=tune-check-$k
    start=$SECONDS
    step "$name" "$bin/clreduce-perf" tune --check -t "$(echo $tune_types | tr ' ' ,)" \
      --csv "$results/$name.csv" --json "$results/$name.json"
    grep "buckets within" "$results/$name.txt" >> "$summary"
    echo "$name: $((SECONDS - start)) s wall" | tee -a "$summary"
  done
fi
if want sweeps; then
# Sweeps as type:n pairs, separated by blanks; each writes .txt, .csv, .json and .svg.
for sweep in ${CLREDUCE_GPU_SWEEPS:-int32:16777216 int32:1073741824 float32:1073741824 int8:1073741824 float64:268435456}; do
  type=${sweep%%:*} n=${sweep##*:}
  f=$results/sweep-$type-$n
  step "sweep-$type-$n" "$bin/clreduce-perf" sweep -t "$type" -n "$n" -r 15 --csv "$f.csv" --json "$f.json" --svg "$f.svg"
done
fi
if want sweep-plot; then
# The README's plot: the paper's Figures 7/9/10 at three sizes, one curve per stride and n.
f=$results/sweep-plot
plot_sizes=()
for n in ${CLREDUCE_GPU_PLOT_SIZES:-1048576 16777216 268435456}; do plot_sizes+=(-n "$n"); done
step sweep-plot "$bin/clreduce-perf" sweep -t uint32 "${plot_sizes[@]}" -r 15 \
  --csv "$f.csv" --json "$f.json" --svg "$f.svg"
fi
if want compare; then
# clreduce against the naive kernel, cv::sum (Mat, UMat), CLBlast and CUB (clreduce-cub-sum,
# next to clreduce-perf), n = 2^10 ... 2^30 (CLREDUCE_GPU_COMPARE_ARGS: more options, e.g. "-n 1024").
compare_sizes=()
for n in ${CLREDUCE_GPU_COMPARE_SIZES:-1024 65536 1048576 4194304 16777216 67108864 268435456 1073741824}; do
  compare_sizes+=(-n "$n")
done
for type in ${CLREDUCE_GPU_COMPARE_TYPES:-int32 float32 int8 float64}; do
  f=$results/compare-$type
  # shellcheck disable=SC2086
  step "compare-$type" "$bin/clreduce-perf" compare -t "$type" -r 15 "${compare_sizes[@]}" ${CLREDUCE_GPU_COMPARE_ARGS:-} \
    --csv "$f.csv" --json "$f.json" --svg "$f.svg"
done
fi
if want opencv; then
# clreduce::opencv's functions against OpenCV's own on a cv::UMat (OpenCV's OpenCL device, the
# GPU) and a cv::Mat: 1920x1080 and 7680x4320, CV_8UC3, CV_32FC1, CV_16UC1, with and without mask.
step opencv "$bin/clreduce-perf" opencv -r 15 --json "$results/opencv.json"
fi
if want segments; then
# Segmented sums (2^28 elements in segments of 16 to 2^24, uniform and power-law lengths)
# against CUB's DeviceSegmentedReduce (clreduce-cub-segmented) and a loop of single calls.
for type in ${CLREDUCE_GPU_SEGMENT_TYPES:-int32 float32}; do
  f=$results/segments-$type
  step "segments-$type" "$bin/clreduce-perf" segments -t "$type" -r 15 --json "$f.json" --svg "$f.svg"
done
fi
if want by-key; then
# reduce_by_key's int32 sums (2^24, 2^26, 2^28 keys in 2^4 to 2^20 equal runs) against CUB's
# DeviceReduce::ReduceByKey and Thrust's reduce_by_key (clreduce-cub-by-key) and the read-only kernel.
step by-key "$bin/clreduce-perf" by-key -r 15 --json "$results/by-key.json"
fi
tar -czf "$out/results.tar.gz" -C "$work" results && rm -rf "$work"
ls -l "$out"
exit $status
