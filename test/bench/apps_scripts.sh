#!/bin/sh
# bench/osu.sh, bench/isx.sh and bench/npb_mg.sh end to end with stand-in
# programs that print what OMB, ISx and NPB MG print (PE 0 only), so that
# each script's launching, interleaving, failure handling and summary are
# exercised without the real suites.  Also checks that the scripts run
# only: a compiler, make or a fetch tool called from them fails the test,
# and that a missing program directory is a clear exit 2.
#
# SPDX-License-Identifier: BSD-3-Clause
# shellcheck disable=SC2016 # the stand-ins' bodies expand in the stand-ins
set -eu
src=${MESON_SOURCE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
command -v mpiexec.mpich >/dev/null || { echo "no mpiexec.mpich: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# Tools the scripts must not call: each records its name and fails.
mkdir -p "$tmp/shims"
for t in cc gcc gfortran oshcc oshfort mpicc.mpich mpif90.mpich meson ninja make git curl wget tar; do
    printf '#!/bin/sh\necho %s >>"%s/called"\nexit 1\n' "$t" "$tmp" >"$tmp/shims/$t"
    chmod +x "$tmp/shims/$t"
done

# standin DIR NAME BODY: a program that prints BODY's output on rank 0 only;
# its figures scale with the variant's settings so the ratios are known.
standin() {
    mkdir -p "$1"
    cat >"$1/$2" <<EOS
#!/bin/sh
# Hydra loses a launch (SIGPIPE, rc 141, about 1 in 20) whose processes
# exit within milliseconds; a real MPI program lives through PMI's set-up.
sleep 0.3
[ "\${PMI_RANK:-\${OMPI_COMM_WORLD_RANK:-0}}" = 0 ] || exit 0
k=1
[ "\${MPISHMEM_AMO_AM:-}" = 0 ] && k=2
[ "\${MPISHMEM_SHM:-}" = 0 ] && k=2
[ "\${MPISHMEM_YIELD:-}" = 0 ] && k=10
[ -n "\${SMA_SYMMETRIC_SIZE:-}" ] && k=4
$3
EOS
    chmod +x "$1/$2"
}
atomics='echo "# Operation   Million ops/s   Latency (us)"
echo "shmem_int_fadd   1.00   $((k * 5)).00"
echo "shmem_int_inc    2.00   $((k * 2)).00"
[ $k = 4 ] && { echo "*** stack smashing detected ***"; exit 134; }
echo "shmem_int_cswap  1.00   $((k * 7)).00"'
put_mr='echo "# Size   Messages/s"
for s in 8 4096 1048576; do echo "$s   $((8388608 / s / k)).00"; done'
isx='[ $# = 3 ] && echo ok >"$3" || exit 1
echo "Average total time (per PE): $((k * 12)).0 seconds"
echo "Average all2all time (per PE): $k.0 seconds"
[ $k = 4 ] && case $0 in *.weak) echo "Failed Verification" ;; esac; exit 0'
mg='echo " Time in seconds =      $((k * 3)).00"
echo " VERIFICATION SUCCESSFUL"'
for d in ours oshmem; do
    standin "$tmp/osu_$d" osu_oshm_atomics "$atomics"
    standin "$tmp/osu_$d" osu_oshm_put_mr "$put_mr"
done
for d in ours ours_openmpi oshmem; do
    standin "$tmp/isx_$d" isx.weak_iso "$isx"
    standin "$tmp/isx_$d" isx.weak "$isx"
done
standin "$tmp/npb_ours" mg.A.4 "$mg"
standin "$tmp/npb_mpi" mg.A.4 "$mg"

# summary OUT PATTERN: OUT/summary.csv has a line matching PATTERN.
summary() {
    tr -d '\r' <"$1/summary.csv" | grep -q -e "$2" ||
        { cat "$1/summary.csv" >&2; fail "$1: no line $2"; }
}
have_oshrun=
command -v oshrun >/dev/null && [ -x /usr/bin/oshrun ] && have_oshrun=1
run() {
    PATH=$tmp/shims:$PATH ROUNDS=2 TIMEOUT=60 timeout 300 "$@" >"$tmp/log" 2>&1 ||
        { cat "$tmp/log" >&2; fail "$*"; }
}

osh=''
[ -n "$have_oshrun" ] && osh=$tmp/osu_oshmem
run env NPS=2 OSU_OURS="$tmp/osu_ours" OSU_OSHMEM="$osh" sh "$src/bench/osu.sh" "$tmp/o"
summary "$tmp/o" '^atomics,nodes2,2,shmem_int_fadd,us,5,2,5,2,10,2,.*,1.00,2.00,'
summary "$tmp/o" '^atomics,node,2,shmem_int_cswap,us,7,2,7,2,14,2,'
summary "$tmp/o" '^put_mr,node,2,4096,msg_per_s,2048,2,2048,2,1024,2,'
if [ -n "$have_oshrun" ]; then
    # OSHMEM's atomics stop before cswap, as Open MPI 4.1.4's do: partial.
    summary "$tmp/o" '^atomics,node,2,shmem_int_fadd,us,5,2,5,2,10,2,20,2,1.00,2.00,4.00,0.25,0.25,0.50$'
    grep -q 'oshmem,atomics,1,2,node,shmem_int_inc,us,8.00,[0-9.]*,partial: rc 134' "$tmp/o/raw.csv" ||
        fail "osu.sh: OSHMEM's aborted launch not kept as partial"
fi

osh=''
[ -n "$have_oshrun" ] && osh=$tmp/isx_oshmem
run env ISX_OURS="$tmp/isx_ours" ISX_OSHMEM="$osh" sh "$src/bench/isx.sh" "$tmp/i"
summary "$tmp/i" '^ours_mpich_nothread,weak_iso,nodes2,4,2/2,12.0000,1.0000,'
grep -q ours_openmpi "$tmp/i/summary.csv" && fail "isx.sh: ours_openmpi ran without ISX_OURS_OPENMPI"
if [ -n "$have_oshrun" ]; then
    summary "$tmp/i" '^ours_mpich,weak_iso,node,4,2/2,12.0000,1.0000,[0-9.]*,0.25,0.25,,$'
    summary "$tmp/i" '^oshmem,weak,node,4,0/2,'
fi

run env NPB_OURS="$tmp/npb_ours" NPB_MPI="$tmp/npb_mpi" sh "$src/bench/npb_mg.sh" "$tmp/n"
summary "$tmp/n" '^ours_noshm,A,node,4,2/2,6.0000,[0-9.]*,2.00,2.00$'
summary "$tmp/n" '^ours_spin,A,nodes2,4,2/2,30.0000,[0-9.]*,10.00,10.00$'

[ ! -s "$tmp/called" ] || fail "the scripts called: $(sort -u "$tmp/called" | tr '\n' ' ')"

# A missing or incomplete program directory: exit 2, naming the variable.
for s in osu:OSU_OURS isx:ISX_OURS npb_mg:NPB_OURS; do
    rc=0
    env -u "${s#*:}" sh "$src/bench/${s%%:*}.sh" "$tmp/x" >"$tmp/log" 2>&1 || rc=$?
    if [ "$rc" != 2 ] || ! grep -q "set ${s#*:}" "$tmp/log"; then
        cat "$tmp/log" >&2
        fail "${s%%:*}.sh without ${s#*:}: rc $rc"
    fi
done
rc=0
NP=2 NPB_OURS=$tmp/npb_ours sh "$src/bench/npb_mg.sh" "$tmp/x" >"$tmp/log" 2>&1 || rc=$?
if [ "$rc" != 2 ] || ! grep -q "has no program mg.A.2" "$tmp/log"; then
    cat "$tmp/log" >&2
    fail "npb_mg.sh NP=2: rc $rc"
fi
echo "bench app scripts: ok"
