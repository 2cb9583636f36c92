#!/bin/sh
# Installs mpishmem into a temporary prefix and builds programs against the
# installation exactly as users do: the design card's line (the MPI compiler
# wrapper plus -I/-L -lmpishmem, run on 4 PEs without LD_LIBRARY_PATH), or
# pkg-config; C11, C99, C++ and the OpenSHMEM 1.0 <mpp/shmem.h>.
#   install.sh DIR    (DIR holds the test programs)
# Environment from meson: MESON_SOURCE_ROOT, LAUNCH, CC, MPI_FLAVOR.
src=${1:?usage: install.sh DIR}
: "${MESON_SOURCE_ROOT:?}" "${LAUNCH:?}" "${CC:?}" "${MPI_FLAVOR:?}"
case $MPI_FLAVOR in
    mpich | openmpi) CXX=mpicxx.$MPI_FLAVOR ;;
    *) CXX=mpicxx ;;
esac
export MPISHMEM_TEST_TIMEOUT=60 SHMEM_SYMMETRIC_SIZE=4M
unset PKG_CONFIG_PATH SHMEM_DEBUG

. "$MESON_SOURCE_ROOT/test/install_common.sh"

# runs NAME TEXT: run ./NAME on 2 PEs; stdout must contain TEXT.
runs()
{
    "$LAUNCH" 2 "$tmp/$1" >"$tmp/out" 2>&1
    status=$?
    cat "$tmp/out"
    [ "$status" -eq 0 ] && grep -F -q -e "$2" "$tmp/out"
}

# header_from FILE HEADER: FILE, compiled by the command after the two
# arguments, reads HEADER from the installed prefix.
header_from()
{
    file=$1 header=$2
    shift 2
    "$@" -M "$file" >"$tmp/deps" || return 1
    awk '{ for (i = 1; i <= NF; i++) print $i }' "$tmp/deps" |
        grep -x -F -e "$prefix/include/$header" ||
        { echo "$header did not come from $prefix/include:"; cat "$tmp/deps"; return 1; }
}

# --- Install ---------------------------------------------------------------
install_into_prefix
for f in include/shmem.h include/shmemx.h include/mpishmem/type_tables.h \
         include/mpishmem/generic.h include/mpp/shmem.h include/mpp/shmemx.h \
         lib/pkgconfig/mpishmem.pc; do
    step "installed $f" test -f "$prefix/$f"
done
step "installed lib/libmpishmem.*" sh -c "ls '$prefix'/lib/libmpishmem.* >/dev/null"

inc="-I$prefix/include"
# The design card's link line: -lmpishmem is the archive (the shared
# library is in lib/mpishmem/, out of -L$prefix/lib's way).
lib="-L$prefix/lib -lmpishmem"
pc()
{
    PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config "$@" mpishmem
}
step "pkg-config knows mpishmem" pc --exists
pcflags=$(pc --cflags --libs)

# --- The design card, exactly: no LD_LIBRARY_PATH, 4 PEs -------------------
#   mpicc -I$P/include app.c -L$P/lib -lmpishmem && mpiexec -n 4 ./a.out
# with a program whose globals other PEs write: the archive's load-time
# parts (the constructor that backs globals with shared memory, the exit
# check) must come along although the program calls few routines.
card=$tmp/card
mkdir "$card"
# card_run [ARG]: ./a.out on 4 PEs in $card, without LD_LIBRARY_PATH.
card_run()
{
    (cd "$card" && env -u LD_LIBRARY_PATH "$LAUNCH" 4 ./a.out "$@")
}
card_ok()
{
    card_run | grep -F -x "OK: 4 PEs, globals symmetric; globals by load/store: yes"
}
card_exit()
{
    card_run exit >"$tmp/card.out" 2>&1
    status=$?
    cat "$tmp/card.out"
    [ "$status" -ne 0 ] && grep -q "mpishmem: PE 3 exited without calling shmem_finalize" "$tmp/card.out"
}
step "card: \$CC -I\$P/include app.c -L\$P/lib -lmpishmem" \
    sh -c "cd '$card' && $CC -I'$prefix/include' '$src/card_globals.c' -L'$prefix/lib' -lmpishmem" &&
    step "card: a.out does not load libmpishmem.so" sh -c "! ldd '$card/a.out' | grep libmpishmem" &&
    step "card: mpiexec -n 4 ./a.out runs; other PEs reach its globals by load/store" card_ok &&
    step "card: a PE that skips shmem_finalize stops the job with the message" card_exit

# --- examples/02_ring.c, the compile lines of the README --------------------
ring=$MESON_SOURCE_ROOT/examples/02_ring.c
ringok="OK: 2 PEs passed a message around the ring"
# shellcheck disable=SC2086
step "02_ring.c: \$CC -I... 02_ring.c -L... -lmpishmem" $CC $inc "$ring" $lib -o "$tmp/ring_i" &&
    step "02_ring.c (-I/-L build) runs on 2 PEs" runs ring_i "$ringok"
# shellcheck disable=SC2086
step "02_ring.c: \$CC \$(pkg-config --cflags --libs mpishmem) 02_ring.c" \
    $CC $pcflags "$ring" -o "$tmp/ring_pc" &&
    step "02_ring.c (pkg-config build) runs on 2 PEs" runs ring_pc "$ringok"

# --- Our shmem.h wins over the MPI's own (Open MPI ships one) --------------
vc=$src/vendor_check.c
# shellcheck disable=SC2086
step "shmem.h comes from the prefix (-I)" header_from "$vc" shmem.h $CC $inc
# shellcheck disable=SC2086,SC2046
step "shmem.h comes from the prefix (pkg-config)" header_from "$vc" shmem.h $CC $(pc --cflags)
# shellcheck disable=SC2086
step "shmemx.h comes from the prefix" header_from "$vc" shmemx.h $CC $inc
# shellcheck disable=SC2086
step "vendor_check.c builds (C11, -Wall -Wextra -pedantic -Werror)" \
    $CC -std=c11 -Wall -Wextra -pedantic -Werror $inc "$vc" $lib -o "$tmp/vendor_c11" &&
    step "vendor_check (C11) runs on 2 PEs" runs vendor_c11 "OK: library \"mpishmem"
# shellcheck disable=SC2086
step "vendor_check.c builds (C99: no generic interface)" \
    $CC -std=c99 -Wall -Werror $inc "$vc" $lib -o "$tmp/vendor_c99" &&
    step "vendor_check (C99) runs on 2 PEs" runs vendor_c99 "OK: library \"mpishmem"

# --- C++ ----------------------------------------------------------------------
cxx=$src/cxx_typed.cpp
# shellcheck disable=SC2086
step "shmem.h comes from the prefix ($CXX)" header_from "$cxx" shmem.h $CXX $inc
# shellcheck disable=SC2086
step "cxx_typed.cpp builds with $CXX (-Wall -Wextra -Werror)" \
    $CXX -Wall -Wextra -Werror $inc "$cxx" $lib -o "$tmp/cxx_typed" &&
    step "cxx_typed runs on 2 PEs" runs cxx_typed "OK: C++ program on 2 PEs"

# --- OpenSHMEM 1.0 header location ------------------------------------------
mpp=$src/mpp_legacy.c
# shellcheck disable=SC2086
step "mpp/shmem.h comes from the prefix" header_from "$mpp" mpp/shmem.h $CC $inc
# shellcheck disable=SC2086
step "mpp_legacy.c builds" $CC $inc "$mpp" $lib -o "$tmp/mpp_legacy" &&
    step "mpp_legacy runs on 2 PEs" runs mpp_legacy "OK: mpp/shmem.h program on 2 PEs"

finish
