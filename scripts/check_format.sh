#!/usr/bin/env bash
# Fails when a C++ source of the project differs from what clang-format makes
# of it (.clang-format); `scripts/check_format.sh --fix` rewrites them.
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files '*.cpp' '*.h')
if [ "${1:-}" = "--fix" ]; then
  clang-format -i "${files[@]}"
else
  clang-format --dry-run --Werror "${files[@]}"
  echo "check_format: ${#files[@]} files formatted"
fi
