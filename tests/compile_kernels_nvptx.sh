#!/usr/bin/env bash
# Compiles every operation plug-in with the skeleton for NVIDIA (clang's nvptx64-nvidia-nvcl
# target, to PTX) in the specialisations PoCL cannot build: half elements (cl_khr_fp16) and
# the warp-shuffle finish (inline PTX), for every state shape. Catches kernel code that only a
# GPU would compile. Usage: compile_kernels_nvptx.sh <clang> <cl_kernels folder>
set -uo pipefail
clang=$1
dir=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
total=0
compile() {  # plug-in, then -D options; with CLREDUCE_MAP=4 a transform goes before the plug-in
    local op=$1
    shift
    cat "$dir/prelude.cl" "$dir/fixed_point.cl" >"$work/k.cl"
    case " $* " in *" -DCLREDUCE_MAP=4 "*)
        printf '%s\n' '#define CLREDUCE_X CLREDUCE_ACC' '#define CLREDUCE_TO_X(v) CLREDUCE_TO_ACC(v)' \
            'inline CLREDUCE_X clreduce_transform(CLREDUCE_X x) { return CLREDUCE_TO_X((x > 0 ? x : 0)); }' >>"$work/k.cl" ;;
    esac
    if [ "$op" = user_combine ]; then  # the host's combine and identity (kernel_spec.cpp)
        case " $* " in *" -DCLREDUCE_MAP=4 "*) ;; *)
            printf '%s\n' '#define CLREDUCE_X CLREDUCE_ACC' '#define CLREDUCE_TO_X(v) CLREDUCE_TO_ACC(v)' >>"$work/k.cl" ;;
        esac
        printf '%s\n' 'inline CLREDUCE_X clreduce_user_combine(CLREDUCE_X a, CLREDUCE_X b) { return CLREDUCE_TO_X((max(a, b) + min(a, b))); }' \
            '#define CLREDUCE_USER_IDENTITY ((CLREDUCE_X)0)' >>"$work/k.cl"
    fi
    cat "$dir/ops/$op.cl" "$dir/reduce.cl" >>"$work/k.cl"
    case " $* " in *" -DCLREDUCE_BK_ROWS="*) cat "$dir/by_key.cl" >>"$work/k.cl" ;; esac  # reduce_by_key's one launch
    total=$((total + 1))
    # asm is spelled __asm__ for clang; NVIDIA's compiler takes asm.
    if ! out=$("$clang" -x cl -cl-std=CL1.2 -Xclang -finclude-default-header -target nvptx64-nvidia-nvcl -O1 -S \
        -o "$work/k.ptx" "$work/k.cl" -I "$dir" -Dasm=__asm__ \
        -Xclang -cl-ext=+cl_khr_fp16,+cl_khr_fp64,+cl_khr_int64_base_atomics,+cl_khr_int64_extended_atomics \
        -DCLREDUCE_NV_SHUFFLE=1 -DCLREDUCE_WAVEFRONT=32 -DCLREDUCE_WG=256 -DCLREDUCE_FP64=1 "$@" 2>&1); then
        echo "FAILED: ops/$op.cl $*"
        echo "$out" | head -8
        fail=$((fail + 1))
    elif ! grep -q "shfl.sync.down.b32" "$work/k.ptx"; then
        echo "FAILED (no warp shuffle in the PTX): ops/$op.cl $*"
        fail=$((fail + 1))
    elif [[ " $* " == *" -DCLREDUCE_DP4A=1 "* ]] && ! grep -q "dp4a" "$work/k.ptx"; then
        echo "FAILED (no dp4a in the PTX): ops/$op.cl $*"
        fail=$((fail + 1))
    elif [[ " $* " == *" -DCLREDUCE_FINISH=3 "* || " $* " == *" -DCLREDUCE_BK_ROWS="* ]] &&
        ! grep -q "membar.gl" "$work/k.ptx"; then
        echo "FAILED (no device-wide fence in the last-group or by-key PTX): ops/$op.cl $*"
        fail=$((fail + 1))
    elif [[ " $* " == *" -DCLREDUCE_FINISH=4 "* ]] && ! grep -Eq "atom.global.add.u64|red.global.add.u64|_Z8atom_addPU3AS1Vll" "$work/k.ptx"; then
        echo "FAILED (no 64-bit atomic add in the exact atomic finish): ops/$op.cl $*"
        fail=$((fail + 1))
    fi
}
# The last-group finish (inline PTX fence) for every state shape, and the asynchronous
# calls' device result (the value converted into the caller's buffer).
last="-DCLREDUCE_FINISH=3 -DCLREDUCE_NVIDIA=1"
compile add -DCLREDUCE_T=float -DCLREDUCE_T_FLOAT=1 -DCLREDUCE_ACC=double -DCLREDUCE_ACC_SIZE=8 -DCLREDUCE_ACC_FLOAT=1 \
    -DCLREDUCE_VEC=4 $last -DCLREDUCE_DEVICE_RESULT=1 -DCLREDUCE_RESULT_T=double
compile add -DCLREDUCE_T=char -DCLREDUCE_T_FLOAT=0 -DCLREDUCE_ACC=long -DCLREDUCE_ACC_SIZE=8 -DCLREDUCE_ACC_FLOAT=0 \
    -DCLREDUCE_VEC=16 $last -DCLREDUCE_DEVICE_RESULT=1 -DCLREDUCE_RESULT_T=long
compile add -DCLREDUCE_T=int -DCLREDUCE_T_FLOAT=0 -DCLREDUCE_ACC=long -DCLREDUCE_ACC_SIZE=8 -DCLREDUCE_ACC_FLOAT=0 \
    -DCLREDUCE_VEC=4 $last
compile add_compensated -DCLREDUCE_T=float -DCLREDUCE_T_FLOAT=1 -DCLREDUCE_ACC=float -DCLREDUCE_ACC_SIZE=4 \
    -DCLREDUCE_ACC_FLOAT=1 -DCLREDUCE_VEC=4 $last -DCLREDUCE_DEVICE_RESULT=1 -DCLREDUCE_RESULT_T=double
compile add_exact -DCLREDUCE_T=double -DCLREDUCE_T_FLOAT=1 -DCLREDUCE_ACC=double -DCLREDUCE_ACC_SIZE=8 \
    -DCLREDUCE_ACC_FLOAT=1 -DCLREDUCE_VEC=2 $last
compile extremum -DCLREDUCE_T=short -DCLREDUCE_T_FLOAT=0 -DCLREDUCE_ACC=short -DCLREDUCE_ACC_SIZE=2 -DCLREDUCE_ACC_FLOAT=0 \
    -DCLREDUCE_ACC_LOWEST=SHRT_MIN -DCLREDUCE_ACC_HIGHEST=SHRT_MAX -DCLREDUCE_VEC=8 $last -DCLREDUCE_DEVICE_RESULT=1 \
    -DCLREDUCE_RESULT_T=short
# reduce_by_key's one launch (by_key.cl: the look-back's inline PTX fence), aligned and not.
for aligned in 0 1; do
    compile add -DCLREDUCE_T=int -DCLREDUCE_T_FLOAT=0 -DCLREDUCE_ACC=long -DCLREDUCE_ACC_SIZE=8 -DCLREDUCE_ACC_FLOAT=0 \
        -DCLREDUCE_VEC=4 -DCLREDUCE_FINISH=2 -DCLREDUCE_NVIDIA=1 -DCLREDUCE_KEY=uint -DCLREDUCE_BK_ROWS=8 \
        -DCLREDUCE_BK_ALIGNED=$aligned
done
compile extremum -DCLREDUCE_T=short -DCLREDUCE_T_FLOAT=0 -DCLREDUCE_ACC=short -DCLREDUCE_ACC_SIZE=2 -DCLREDUCE_ACC_FLOAT=0 \
    -DCLREDUCE_ACC_LOWEST=SHRT_MIN -DCLREDUCE_ACC_HIGHEST=SHRT_MAX -DCLREDUCE_VEC=8 -DCLREDUCE_FINISH=2 -DCLREDUCE_NVIDIA=1 \
    -DCLREDUCE_KEY=ulong -DCLREDUCE_BK_ROWS=8 -DCLREDUCE_BK_ALIGNED=0
# Level 1 of 8/16-bit sums: dp4a (NVIDIA, 8-bit) and 32-bit lanes.
for t in "char 1" "uchar 0"; do
    set -- $t
    for vec in 4 8 16; do
        compile add -DCLREDUCE_T=$1 -DCLREDUCE_T_FLOAT=0 -DCLREDUCE_ACC=long -DCLREDUCE_ACC_SIZE=8 -DCLREDUCE_ACC_FLOAT=0 \
            -DCLREDUCE_VEC=$vec -DCLREDUCE_FINISH=1 -DCLREDUCE_LANE=int -DCLREDUCE_DP4A=1 -DCLREDUCE_DP4A_SIGNED=$2
    done
done
for map in 0 2 3; do
    compile add -DCLREDUCE_T=short -DCLREDUCE_T_FLOAT=0 -DCLREDUCE_ACC=long -DCLREDUCE_ACC_SIZE=8 -DCLREDUCE_ACC_FLOAT=0 \
        -DCLREDUCE_VEC=8 -DCLREDUCE_FINISH=1 -DCLREDUCE_LANE=int -DCLREDUCE_MAP=$map
done
for op in minmax argext; do
    compile $op -DCLREDUCE_T=float -DCLREDUCE_T_FLOAT=1 -DCLREDUCE_ACC=float -DCLREDUCE_ACC_SIZE=4 -DCLREDUCE_ACC_FLOAT=1 \
        -DCLREDUCE_ACC_LOWEST=0 -DCLREDUCE_ACC_HIGHEST=1 -DCLREDUCE_VEC=2 $last
done
# element, is-float, extremum state type and size
for row in "half 1 float 4" "char 0 char 1" "ushort 0 ushort 2" "int 0 int 4" "ulong 0 ulong 8" "float 1 float 4" \
    "double 1 double 8"; do
    set -- $row
    t=$1 tf=$2 e=$3 es=$4
    fp16=0
    [ "$t" = half ] && fp16=1
    if [ "$tf" = 1 ]; then acc=double accf=1; else acc=long accf=0; fi
    for map in 0 1 2 3; do
        a=$acc af=$accf
        [ "$map" = 3 ] && a=ulong af=0
        finish=1
        [ "$af" = 1 ] && finish=0
        compile add -DCLREDUCE_T=$t -DCLREDUCE_T_FLOAT=$tf -DCLREDUCE_FP16=$fp16 -DCLREDUCE_ACC=$a -DCLREDUCE_ACC_SIZE=8 \
            -DCLREDUCE_ACC_FLOAT=$af -DCLREDUCE_MAP=$map -DCLREDUCE_VEC=8 -DCLREDUCE_FINISH=$finish
        compile multiply -DCLREDUCE_T=$t -DCLREDUCE_T_FLOAT=$tf -DCLREDUCE_FP16=$fp16 -DCLREDUCE_ACC=$a -DCLREDUCE_ACC_SIZE=8 \
            -DCLREDUCE_ACC_FLOAT=$af -DCLREDUCE_MAP=$map -DCLREDUCE_VEC=4 -DCLREDUCE_FINISH=0
    done
    # The float atomic finish (compare-and-swap), double and float accumulators.
    if [ "$tf" = 1 ]; then
        for a in "double 8" "float 4"; do
            set -- $a
            compile add -DCLREDUCE_T=$t -DCLREDUCE_T_FLOAT=1 -DCLREDUCE_FP16=$fp16 -DCLREDUCE_ACC=$1 -DCLREDUCE_ACC_SIZE=$2 \
                -DCLREDUCE_ACC_FLOAT=1 -DCLREDUCE_VEC=4 -DCLREDUCE_FINISH=1 -DCLREDUCE_FLOAT_ATOMIC=1
            # The exact atomic finish (fixed-point number, 64-bit integer atomics).
            compile add -DCLREDUCE_T=$t -DCLREDUCE_T_FLOAT=1 -DCLREDUCE_FP16=$fp16 -DCLREDUCE_ACC=$1 -DCLREDUCE_ACC_SIZE=$2 \
                -DCLREDUCE_ACC_FLOAT=1 -DCLREDUCE_VEC=4 -DCLREDUCE_FINISH=4
        done
        compile add_compensated -DCLREDUCE_T=$t -DCLREDUCE_T_FLOAT=1 -DCLREDUCE_FP16=$fp16 -DCLREDUCE_ACC=double \
            -DCLREDUCE_ACC_SIZE=8 -DCLREDUCE_ACC_FLOAT=1 -DCLREDUCE_MAP=1 -DCLREDUCE_VEC=8 -DCLREDUCE_FINISH=0
        x=float xs=4
        [ "$t" = double ] && x=double xs=8
        compile add_exact -DCLREDUCE_T=$t -DCLREDUCE_T_FLOAT=1 -DCLREDUCE_FP16=$fp16 -DCLREDUCE_ACC=$x -DCLREDUCE_ACC_SIZE=$xs \
            -DCLREDUCE_ACC_FLOAT=1 -DCLREDUCE_VEC=4 -DCLREDUCE_FINISH=0
        compile add_exact -DCLREDUCE_T=$x -DCLREDUCE_T_FLOAT=1 -DCLREDUCE_ACC=$x -DCLREDUCE_ACC_SIZE=$xs \
            -DCLREDUCE_ACC_FLOAT=1 -DCLREDUCE_VEC=1 -DCLREDUCE_FINISH=2 -DCLREDUCE_STATES_IN=1
    fi
    for op in extremum minmax argext; do
        for is_max in 0 1; do
            finish=0
            [ "$op" = extremum ] && [ "$tf" = 0 ] && [ "$es" -ge 4 ] && finish=1
            compile $op -DCLREDUCE_T=$t -DCLREDUCE_T_FLOAT=$tf -DCLREDUCE_FP16=$fp16 -DCLREDUCE_ACC=$e -DCLREDUCE_ACC_SIZE=$es \
                -DCLREDUCE_ACC_FLOAT=$tf -DCLREDUCE_ACC_LOWEST=0 -DCLREDUCE_ACC_HIGHEST=1 -DCLREDUCE_IS_MAX=$is_max \
                -DCLREDUCE_VEC=2 -DCLREDUCE_FINISH=$finish -DCLREDUCE_INT64_MIN_MAX=1
            compile $op -DCLREDUCE_T=$e -DCLREDUCE_T_FLOAT=$tf -DCLREDUCE_ACC=$e -DCLREDUCE_ACC_SIZE=$es \
                -DCLREDUCE_ACC_FLOAT=$tf -DCLREDUCE_ACC_LOWEST=0 -DCLREDUCE_ACC_HIGHEST=1 -DCLREDUCE_IS_MAX=$is_max \
                -DCLREDUCE_VEC=1 -DCLREDUCE_FINISH=2 -DCLREDUCE_STATES_IN=1
        done
    done
    # A user transform before each combine.
    compile add -DCLREDUCE_T=$t -DCLREDUCE_T_FLOAT=$tf -DCLREDUCE_FP16=$fp16 -DCLREDUCE_ACC=$acc -DCLREDUCE_ACC_SIZE=8 \
        -DCLREDUCE_ACC_FLOAT=$accf -DCLREDUCE_MAP=4 -DCLREDUCE_VEC=4 -DCLREDUCE_FINISH=0
    compile extremum -DCLREDUCE_T=$t -DCLREDUCE_T_FLOAT=$tf -DCLREDUCE_FP16=$fp16 -DCLREDUCE_ACC=$acc -DCLREDUCE_ACC_SIZE=8 \
        -DCLREDUCE_ACC_FLOAT=$accf -DCLREDUCE_ACC_LOWEST=LONG_MIN -DCLREDUCE_ACC_HIGHEST=LONG_MAX -DCLREDUCE_MAP=4 \
        -DCLREDUCE_VEC=4 -DCLREDUCE_FINISH=0
    # A combine of the user's own (ops/user_combine.cl): the last group's finish, the second pass.
    compile user_combine -DCLREDUCE_T=$t -DCLREDUCE_T_FLOAT=$tf -DCLREDUCE_FP16=$fp16 -DCLREDUCE_ACC=$acc \
        -DCLREDUCE_ACC_SIZE=8 -DCLREDUCE_ACC_FLOAT=$accf -DCLREDUCE_MAP=4 -DCLREDUCE_VEC=4 $last
    compile user_combine -DCLREDUCE_T=$acc -DCLREDUCE_T_FLOAT=$accf -DCLREDUCE_ACC=$acc -DCLREDUCE_ACC_SIZE=8 \
        -DCLREDUCE_ACC_FLOAT=$accf -DCLREDUCE_VEC=1 -DCLREDUCE_FINISH=2 -DCLREDUCE_STATES_IN=1
done
# reduce_by_key's run heads (run_heads.cl, a program of its own), every key size.
for key in uchar ushort uint ulong; do
    total=$((total + 1))
    if ! out=$("$clang" -x cl -cl-std=CL1.2 -Xclang -finclude-default-header -target nvptx64-nvidia-nvcl -O1 -S \
        -o "$work/k.ptx" "$dir/run_heads.cl" -DCLREDUCE_KEY=$key -DCLREDUCE_WG=256 -DCLREDUCE_ROWS=16 -DCLREDUCE_WORDS=4 2>&1); then
        echo "FAILED: run_heads.cl -DCLREDUCE_KEY=$key"
        echo "$out" | head -8
        fail=$((fail + 1))
    fi
done
echo "$((total - fail)) of $total NVIDIA specialisations compiled"
[ "$fail" -eq 0 ]
