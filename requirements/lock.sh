#!/usr/bin/env sh
# Writes the hashed lock files from pyproject.toml (and requirements/build.in) with uv:
#   requirements/lock.txt      what the product needs to run and build (deploy/Dockerfile installs it)
#   requirements/dev-lock.txt  that and the [dev] extra (.ci/run installs it), at the same versions as lock.txt
# `sh requirements/lock.sh` keeps every pin that still satisfies pyproject.toml and adds what is new;
# `sh requirements/lock.sh --upgrade` moves every pin to the newest release pyproject.toml allows.
# Run it after changing a dependency in pyproject.toml, then run the tests, and commit both files with the change.
set -eu
cd "$(dirname "$0")/.."
uv=${UV:-uv}
common="--generate-hashes --python-version 3.11 --python-platform x86_64-manylinux_2_28 --no-header --quiet"
# shellcheck disable=SC2086
$uv pip compile pyproject.toml requirements/build.in $common "$@" -o requirements/lock.txt
# shellcheck disable=SC2086
$uv pip compile pyproject.toml requirements/build.in --extra dev --constraint requirements/lock.txt $common "$@" \
  -o requirements/dev-lock.txt
