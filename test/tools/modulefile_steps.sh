# shellcheck shell=sh disable=SC2154  # its variables are install_tools.sh's
# Sourced by install_tools.sh after the install into $prefix: the installed
# modulefiles, loaded by Lmod (Debian's lmod, test/deps.sh), give an
# environment in which oshcc and oshrun build and run a program, pkg-config
# and CMake find the library, and man finds our pages beside the system's;
# unloading restores the environment.  The Lua file is what Lmod picks; the
# Tcl one (environment-modules) is loaded by Lmod from a directory of its own.
# Uses from install_tools.sh: step, prefix, tmp, version, ring, runflags.
# What Debian's login shells source (/etc/profile.d/lmod.sh): it also keeps
# the system's man pages in MANPATH.
lmod_init=/usr/share/lmod/lmod/init/profile
# module_run MODULEDIR SCRIPT: in a fresh sh with our bin out of PATH and no
# module state, load mpishmem/$version from MODULEDIR, then run SCRIPT.
module_run()
{
    env -u LMOD_CMD -u LMOD_DIR -u MODULEPATH -u LOADEDMODULES -u _LMFILES_ -u MANPATH \
        -u CMAKE_PREFIX_PATH -u LD_LIBRARY_PATH PATH=/usr/local/bin:/usr/bin:/bin \
        sh -c ". '$lmod_init' && module use '$1' && module load mpishmem/$version && $2"
}
mods=$prefix/share/modulefiles
module_t0=$(date +%s)
if [ -r "$lmod_init" ]; then
    step "Lmod loads mpishmem/$version: oshcc and oshrun in PATH are ours" module_run "$mods" \
        "test \"\$(command -v oshcc)\" = '$prefix/bin/oshcc' &&
         test \"\$(command -v oshrun)\" = '$prefix/bin/oshrun'"
    # Open MPI's own oshcc/oshrun in /usr/bin would build and run it too:
    # the program must hold our library.
    # shellcheck disable=SC2086
    step "in the loaded environment oshcc builds ring.c on our library and oshrun runs it on 2 PEs" \
        module_run "$mods" \
        "test \"\$(command -v oshrun)\" = '$prefix/bin/oshrun' && cd '$tmp' &&
         oshcc '$ring' -o mod_ring && nm mod_ring | grep -q ' T pshmem_init\$' &&
         timeout 120 oshrun $runflags -n 2 ./mod_ring | grep -q 'OK: 2 PEs'"
    step "pkg-config finds mpishmem $version; CMAKE_PREFIX_PATH and MPISHMEM_ROOT are the prefix" \
        module_run "$mods" \
        "test \"\$(pkg-config --modversion mpishmem)\" = '$version' &&
         test \"\$CMAKE_PREFIX_PATH\" = '$prefix' && test \"\$MPISHMEM_ROOT\" = '$prefix'"
    step "man finds shmem_put in the prefix and still the system's pages" module_run "$mods" \
        "man -w shmem_put | grep -q '^$prefix/share/man/' && man -w man >/dev/null"
    step "module unload mpishmem restores PATH" module_run "$mods" \
        "module unload mpishmem && ! command -v mpishmem-info"
    mkdir -p "$tmp/tclmods/mpishmem" && cp "$mods/mpishmem/$version" "$tmp/tclmods/mpishmem/"
    # shellcheck disable=SC2086
    step "the Tcl modulefile (Lmod reads it): oshcc builds ring.c, oshrun runs it" \
        module_run "$tmp/tclmods" \
        "test \"\$(command -v oshcc)\" = '$prefix/bin/oshcc' && cd '$tmp' &&
         oshcc '$ring' -o tcl_ring && nm tcl_ring | grep -q ' T pshmem_init\$' && timeout 120 oshrun $runflags -n 2 ./tcl_ring | grep -q 'OK: 2 PEs'"
else
    step "Lmod is installed ($lmod_init; test/deps.sh installs lmod)" false
fi
echo "modulefile steps: $(($(date +%s) - module_t0)) s"
