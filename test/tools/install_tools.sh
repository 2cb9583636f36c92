#!/bin/sh
# Installs mpishmem into a temporary prefix and checks the tools as users
# meet them: oshcc/oshc++ and oshrun with /usr/bin (where Open MPI puts its
# own oshcc/oshrun) right after our bin directory in PATH, ahead of every
# other directory; the program must read our shmem.h and run on our library;
# MPISHMEM_CC; both libraries (pkg-config); the teaching examples built by
# oshcc; a CMake project using find_package(mpishmem); mpishmem-info; man
# pages with MANPATH=$prefix/share/man.
# Environment from meson: MESON_SOURCE_ROOT, CC, MPI_FLAVOR.
: "${MESON_SOURCE_ROOT:?}" "${CC:?}" "${MPI_FLAVOR:?}"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 SHMEM_SYMMETRIC_SIZE=4M
unset PKG_CONFIG_PATH SHMEM_DEBUG MPISHMEM_CC MPISHMEM_CXX MPISHMEM_LINK MPISHMEM_MPIEXEC
. "$MESON_SOURCE_ROOT/test/install_common.sh"
install_into_prefix
# The SONAME's number: meson.build's major version (README, Compatibility).
version=$(sed -n "s/^  version : '\\(.*\\)',\$/\\1/p" "$MESON_SOURCE_ROOT/meson.build")
so=libmpishmem.so.${version%%.*}
for f in bin/oshcc bin/oshc++ bin/oshrun bin/mpishmem-info include/pshmem.h \
         lib/libmpishmem.a lib/pkgconfig/mpishmem.pc lib/pkgconfig/mpishmem-shared.pc; do
    step "installed $f" test -e "$prefix/$f"
done
step "installed lib/mpishmem/libmpishmem.so with a soname" sh -c \
    "objdump -p '$prefix/lib/mpishmem/libmpishmem.so' | grep -q 'SONAME *$so\$'"
# -L<prefix>/lib -lmpishmem must find the archive (the design card's line).
step "no shared library in lib/ itself" sh -c "! ls '$prefix'/lib/libmpishmem.so* 2>/dev/null"

# The documented PATH order: ours first; /usr/bin moved ahead of the rest.
PATH=$prefix/bin:/usr/bin:$PATH
export PATH
step "oshcc in PATH is ours" test "$(command -v oshcc)" = "$prefix/bin/oshcc"
step "oshrun in PATH is ours" test "$(command -v oshrun)" = "$prefix/bin/oshrun"
case $MPI_FLAVOR in
    openmpi) runflags="--oversubscribe" ;;
    *) runflags= ;;
esac

ring=$MESON_SOURCE_ROOT/examples/02_ring.c
vc=$MESON_SOURCE_ROOT/test/errors/install/vendor_check.c
step "oshcc reads our shmem.h" sh -c "oshcc -M '$vc' | tr ' ' '\n' | grep -x '$prefix/include/shmem.h'"
step "oshcc builds ring.c" oshcc "$ring" -o "$tmp/ring" &&
    step "the program holds our library (pshmem_ names)" sh -c "nm '$tmp/ring' | grep -q ' T pshmem_init$'" &&
    # shellcheck disable=SC2086
    step "oshrun runs it on 2 PEs" sh -c "timeout 120 oshrun $runflags -n 2 '$tmp/ring' | grep -q 'OK: 2 PEs'"
step "oshcc builds vendor_check.c" oshcc -std=c11 "$vc" -o "$tmp/vc" &&
    # shellcheck disable=SC2086
    step "vendor_check reports mpishmem under oshrun" sh -c \
        "timeout 120 oshrun $runflags -n 2 '$tmp/vc' | grep -q 'OK: library \"mpishmem'"
step "oshc++ builds and runs a C++ program" sh -c \
    "oshc++ '$MESON_SOURCE_ROOT/test/errors/install/cxx_typed.cpp' -o '$tmp/cxx' &&
     timeout 120 oshrun $runflags -n 2 '$tmp/cxx' | grep -q 'OK: C++ program'"
step "MPISHMEM_CC picks the compiler" sh -c \
    "MPISHMEM_CC=echo oshcc x.c | grep -q -- '-I$prefix/include x.c $prefix/lib/libmpishmem.a -lm'"
# Programs written for other OpenSHMEMs call libm without -lm (reduction
# checks that use powl): the wrappers link it, static and shared alike.
for l in static shared; do
    step "oshcc links libm ($l): a program calling powl" sh -c \
        "MPISHMEM_LINK=$l oshcc '$MESON_SOURCE_ROOT/test/tools/libm_user.c' -o '$tmp/powl_$l' &&
         timeout 120 oshrun $runflags -n 2 '$tmp/powl_$l' | grep -q 'OK: powl 1024'"
done
step "MPISHMEM_LINK=shared links libmpishmem.so" sh -c \
    "MPISHMEM_LINK=shared oshcc '$ring' -o '$tmp/ring_so' && ldd '$tmp/ring_so' | grep -q '$prefix/lib/mpishmem/$so' &&
     timeout 120 oshrun $runflags -n 2 '$tmp/ring_so' | grep -q 'OK: 2 PEs'"
pc()
{
    PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config "$@"
}
# shellcheck disable=SC2046
step "pkg-config mpishmem (static) builds ring.c" sh -c \
    "$CC \$(PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config --cflags --libs mpishmem) '$ring' -o '$tmp/ring_pc' &&
     ! ldd '$tmp/ring_pc' | grep -q libmpishmem && timeout 120 oshrun $runflags -n 2 '$tmp/ring_pc' | grep -q 'OK: 2 PEs'"
step "pkg-config mpishmem-shared builds ring.c" sh -c \
    "$CC '$ring' \$(PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config --cflags --libs mpishmem-shared) -o '$tmp/ring_pcs' &&
     ldd '$tmp/ring_pcs' | grep -q '$prefix/lib/mpishmem/libmpishmem.so' && timeout 120 oshrun $runflags -n 2 '$tmp/ring_pcs' | grep -q 'OK: 2 PEs'"
step "MPISHMEM_LINK=bogus is refused with a message" sh -c \
    "! MPISHMEM_LINK=bogus oshcc '$ring' -o '$tmp/bogus' 2>'$tmp/bogus.err' &&
     grep -q 'mpishmem: oshcc: MPISHMEM_LINK must be static or shared' '$tmp/bogus.err'"

# --- The teaching path (examples/, docs/tutorial.md) built by oshcc ---------
# Each program must print exactly examples/expected/NAME-np2.txt.
example_ok()
{
    name=$1
    oshcc "$MESON_SOURCE_ROOT/examples/$name.c" -o "$tmp/ex_$name" || return 1
    # shellcheck disable=SC2086
    timeout 120 oshrun $runflags -n 2 "$tmp/ex_$name" >"$tmp/ex.out" || return 1
    diff -u "$MESON_SOURCE_ROOT/examples/expected/$name-np2.txt" "$tmp/ex.out"
}
for f in "$MESON_SOURCE_ROOT"/examples/[0-9][0-9]_*.c; do
    name=$(basename "$f" .c)
    step "oshcc builds examples/$name.c; on 2 PEs it prints the expected output" example_ok "$name"
done

# --- CMake: find_package(mpishmem) from a project compiled with plain cc ---
# (FindMPI must reach our MPI through the config file), static and shared
# targets; another MPI's wrapper as the compiler is refused.
cmake_src=$MESON_SOURCE_ROOT/test/tools/cmake_consumer
inst_src=$MESON_SOURCE_ROOT/test/errors/install
if command -v cmake >/dev/null 2>&1; then
    step "cmake configures a project with find_package(mpishmem) (CC=cc)" \
        env CC=cc cmake -S "$cmake_src" -B "$tmp/cmake" -DCMAKE_PREFIX_PATH="$prefix" \
        -DSOURCES="$inst_src" &&
        step "cmake --build" cmake --build "$tmp/cmake" &&
        # shellcheck disable=SC2086
        step "mpishmem::mpishmem: our shmem.h, runs on 2 PEs" sh -c \
            "timeout 120 oshrun $runflags -n 2 '$tmp/cmake/vendor_check' | grep -q 'OK: library \"mpishmem'" &&
        # shellcheck disable=SC2086
        step "mpishmem::mpishmem: static, globals on 4 PEs" sh -c \
            "! ldd '$tmp/cmake/globals_static' | grep -q libmpishmem &&
             timeout 120 oshrun $runflags -n 4 '$tmp/cmake/globals_static' | grep -q 'OK: 4 PEs'" &&
        # shellcheck disable=SC2086
        step "mpishmem::mpishmem_shared: lib/mpishmem/libmpishmem.so by rpath, 4 PEs" sh -c \
            "ldd '$tmp/cmake/globals_shared' | grep -q '$prefix/lib/mpishmem/$so' &&
             timeout 120 env -u LD_LIBRARY_PATH oshrun $runflags -n 4 '$tmp/cmake/globals_shared' | grep -q 'OK: 4 PEs'"
    case $MPI_FLAVOR in
        mpich) other=mpicc.openmpi ;;
        openmpi) other=mpicc.mpich ;;
        *) other= ;;
    esac
    if [ -n "$other" ] && command -v "$other" >/dev/null 2>&1; then
        step "cmake refuses $other as the C compiler (another MPI)" sh -c \
            "! cmake -S '$cmake_src' -B '$tmp/cmake_other' -DCMAKE_C_COMPILER=$other \
                -DCMAKE_PREFIX_PATH='$prefix' -DSOURCES='$inst_src' >'$tmp/other.log' 2>&1 &&
             tr -s ' \n' ' ' <'$tmp/other.log' | grep -q 'mpishmem was built with $MPI_FLAVOR'"
    fi
else
    step "cmake is installed (test/deps.sh installs it)" false
fi

step "mpishmem-info runs without mpiexec" sh -c "timeout 120 mpishmem-info | grep -q 'OpenSHMEM specification: 1.6'"
for page in oshrun oshcc mpishmem-info shmem_put shmem_long_put shmem_pcontrol shmem_init; do
    step "man $page" sh -c "MANPATH=$prefix/share/man man -P cat $page 2>/dev/null | grep -q 'mpishmem [0-9]'"
done
# The modulefiles, loaded by Lmod (test/tools/modulefile_steps.sh).
. "$MESON_SOURCE_ROOT/test/tools/modulefile_steps.sh"
finish
