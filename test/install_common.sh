# Sourced by the install tests (test/errors/install.sh,
# test/tools/install_tools.sh): a temporary prefix, a step counter, and the
# library installed there as a user installs it.
# Needs MESON_SOURCE_ROOT and CC; sets tmp, prefix, failures, steps.
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
failures=0
steps=0

# step LABEL COMMAND...: run COMMAND, output to $tmp/log; report.
step()
{
    label=$1
    shift
    steps=$((steps + 1))
    "$@" >"$tmp/log" 2>&1
    status=$?
    if [ "$status" -eq 0 ]; then
        echo "ok:   $label"
        return 0
    fi
    failures=$((failures + 1))
    echo "FAIL: $label (exit status $status): $*"
    head -n 40 "$tmp/log"
    return 1
}

# install_into_prefix: configure, build and install the library and tools
# only; stops the script if any of it fails.  buildtype=plain: the same
# installed files, several times faster to build than the optimized default.
install_into_prefix()
{
    if ! { step "configure a build with --prefix" env CC="$CC" meson setup "$tmp/build" \
               "$MESON_SOURCE_ROOT" --prefix="$prefix" --libdir=lib -Dtests=false \
               -Dbenchmarks=false -Dbuildtype=plain &&
           step "build" ninja -C "$tmp/build" &&
           step "meson install" meson install -C "$tmp/build"; }; then
        echo "cannot install: no further steps"
        exit 1
    fi
}

# finish: the summary line and the exit status.
finish()
{
    echo "$failures of $steps steps failed"
    [ "$failures" -eq 0 ]
}
