# Which guest kernel the lab boots (sourced by ../lab after common.sh):
#   RDDP_LAB_KERNEL=6.1|6.12   a Debian 12 kernel from the archive (6.1 by default), siw.ko built out of tree
#                              against its headers (neither Debian config enables CONFIG_RDMA_SIW)
#   RDDP_LAB_KERNEL_IMAGE=F    a kernel of your own: bzImage F with its modules, RDDP_LAB_KERNEL_MODULES (a folder
#                              or a tarball of lib/modules/VERSION) holding siw.ko, unless siw is built in
# Sets KERNEL_SERIES (6.1, 6.12 or custom); resolve_kernel (build.sh) sets the rest once apt is asked.

KERNEL_SERIES=${RDDP_LAB_KERNEL:-6.1}
KERNEL_IMAGE=${RDDP_LAB_KERNEL_IMAGE:-}
KERNEL_MODULES=${RDDP_LAB_KERNEL_MODULES:-}

select_kernel() {
  if [ -n "$KERNEL_IMAGE" ]; then
    [ -f "$KERNEL_IMAGE" ] || die "RDDP_LAB_KERNEL_IMAGE: no such file: $KERNEL_IMAGE" 2
    [ -n "$KERNEL_MODULES" ] || die "RDDP_LAB_KERNEL_IMAGE needs RDDP_LAB_KERNEL_MODULES: a folder or tarball of lib/modules/VERSION" 2
    [ -e "$KERNEL_MODULES" ] || die "RDDP_LAB_KERNEL_MODULES: no such file or folder: $KERNEL_MODULES" 2
    KERNEL_IMAGE=$(readlink -f "$KERNEL_IMAGE") KERNEL_MODULES=$(readlink -f "$KERNEL_MODULES")
    KERNEL_SERIES=custom
    return 0
  fi
  case "$KERNEL_SERIES" in
    6.1|6.12) ;;
    *) die "RDDP_LAB_KERNEL is 6.1 or 6.12, not '$KERNEL_SERIES' (a kernel of your own: RDDP_LAB_KERNEL_IMAGE)" 2 ;;
  esac
}

# Debian's package names differ between the series: 6.1 has ABI 6.1.0-N and one kbuild package for the series;
# 6.12 (bookworm-security) has ABI 6.12.N+deb12, a kbuild package per ABI and an unsigned image package.
image_package() {
  case "$KERNEL_SERIES" in 6.1) echo "linux-image-$ABI-amd64" ;; *) echo "linux-image-$ABI-amd64-unsigned" ;; esac
}
kbuild_package() {
  case "$KERNEL_SERIES" in 6.1) echo "linux-kbuild-6.1" ;; *) echo "linux-kbuild-$ABI" ;; esac
}

# The kernel ABI whose image and headers have the same version as linux-source-SERIES ($SRCVER).
resolve_abi() {
  if [ -n "${RDDP_LAB_KERNEL_ABI:-}" ]; then ABI=$RDDP_LAB_KERNEL_ABI; return 0; fi
  case "$KERNEL_SERIES" in
    6.1)
      local dep
      dep=$(apt-cache show "linux-headers-amd64=$SRCVER" 2>/dev/null \
        | sed -n 's/^Depends: *\(linux-headers-6\.1\.0-[0-9]*\)-amd64.*/\1/p' | head -n1)
      ABI=${dep#linux-headers-} ;;
    *)
      ABI="${SRCVER%%-*}+deb12"
      apt-cache show "linux-headers-$ABI-amd64=$SRCVER" >/dev/null 2>&1 || ABI="" ;;
  esac
  [ -n "$ABI" ] || { say "no linux-headers of version $SRCVER for kernel $KERNEL_SERIES (set RDDP_LAB_KERNEL_ABI)"; return 1; }
}

# The module tree of a kernel of your own, unpacked when it is a tarball; prints the lib/modules/VERSION folder.
custom_module_dir() {
  local src=$KERNEL_MODULES dir
  if [ -f "$src" ]; then
    dir="$CACHE/tmp/custom-modules"
    rm -rf "$dir" && mkdir -p "$dir"
    tar -xf "$src" -C "$dir" || die "RDDP_LAB_KERNEL_MODULES: cannot unpack $src"
    src=$dir
  fi
  # lib/modules/VERSION, or VERSION, or the VERSION folder itself: the one holding modules.order or kernel/
  dir=$(find "$src" -maxdepth 4 -type d \( -exec test -e '{}/modules.order' \; -o -exec test -d '{}/kernel' \; \) \
          -print -quit 2>/dev/null)
  [ -n "$dir" ] || die "RDDP_LAB_KERNEL_MODULES: no lib/modules/VERSION (with modules.order or kernel/) in $KERNEL_MODULES"
  echo "$dir"
}

# A fingerprint of the kernel of your own: the image's and every module file's content.
custom_kernel_hash() {
  { sha256sum < "$KERNEL_IMAGE"
    if [ -f "$KERNEL_MODULES" ]; then sha256sum < "$KERNEL_MODULES"
    else (cd "$KERNEL_MODULES" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum); fi
  } | sha256sum | cut -c1-16
}

# Copies kernel module $1 to $2 (a .ko), uncompressing .ko.xz/.ko.gz/.ko.zst: busybox insmod takes plain ELF.
copy_module() {
  case "$1" in
    *.ko.xz) xz -dc "$1" > "$2" ;;
    *.ko.gz) gzip -dc "$1" > "$2" ;;
    *.ko.zst) command -v zstd >/dev/null || die "$1 is zstd-compressed: apt-get install zstd"; zstd -qdc "$1" > "$2" ;;
    *) cp "$1" "$2" ;;
  esac
}

# The kernel series of the running guest (6.1, 6.12 or custom), as `up` recorded it.
running_series() { sed -n 's/^series=//p' "$STATE/boot" 2>/dev/null; }

# The folder of the running kernel's expected verdicts (expected.json of `lab check`, baseline-PROFILE.json of `lab
# conform`): RDDP_LAB_BASELINES when given, else kernels/SERIES; a kernel of your own takes its release's series
# (6.12.58-mine -> kernels/6.12), so a patched siw is held to the verdicts of the kernel it patches.
verdict_dir() {
  if [ -n "${RDDP_LAB_BASELINES:-}" ]; then readlink -f "$RDDP_LAB_BASELINES"; return; fi
  local series
  series=$(running_series)
  if [ "$series" = custom ]; then
    series=$(sed -n 's/^kernel=//p' "$STATE/boot" | grep -oE '^[0-9]+\.[0-9]+')
  fi
  echo "$LAB_DIR/kernels/${series:-6.1}"
}
