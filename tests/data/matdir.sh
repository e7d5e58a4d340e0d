# shellcheck shell=bash disable=SC2034 # MATDIR is used by the sourcing scripts
# The one definition of where the test and benchmark scripts read the Matrix Market test matrices from.
# Sourced (". tests/data/matdir.sh") by tests/run-tests.sh, tests/device/run.sh and examples/benchmarks/device-common.sh
# (the benchmark scripts); sets MATDIR to
#   $SPTRSV_MATDIR                       when set (a relative path is taken relative to the repository root,
#                                        where these scripts run), else
#   <repository>/tests/data/matrices     the matrices shipped with the repository (MANIFEST.tsv there).
# The unit tests get it as -matdir "$MATDIR" from tests/run-tests.sh (their own default: tests/data/matrices).
MATDIR=${SPTRSV_MATDIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/matrices}
