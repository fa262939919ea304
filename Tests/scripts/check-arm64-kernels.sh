#!/usr/bin/env bash
# Builds the NEON kernels and `arm64-kernel-check.c` for arm64 and runs the check: on an arm64
# machine directly, elsewhere under QEMU's user-mode emulation with every CPU feature on (`-cpu
# max`, so the dot-product instructions run too).
#
# usage: Tests/scripts/check-arm64-kernels.sh
#   needs Clang (the Swift toolchain's) and, on other machines, an arm64 C library and linker and
#   QEMU (Debian: gcc-aarch64-linux-gnu, libc6-dev-arm64-cross, qemu-user).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
kernels="$root/Sources/GuidedKernels"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# Clang, as the package builds the kernels (GCC spells the target attributes differently).
if [ "$(uname -m)" = aarch64 ] || [ "$(uname -m)" = arm64 ]; then
    compiler=(clang)
    run=()
else
    compiler=(clang --target=aarch64-linux-gnu -static)
    run=(qemu-aarch64 -cpu max)
fi
"${compiler[@]}" -O2 -Wall -Wextra -Werror -I "$kernels/include" -I "$kernels" -o "$work/check" \
    "$root/Tests/scripts/arm64-kernel-check.c" "$kernels/NEONKernels.c" "$kernels/PortableKernels.c" "$kernels/CPUFeatures.c" -lm
"${run[@]}" "$work/check"
