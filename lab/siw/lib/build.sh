# `lab build`: downloads Debian packages into $CACHE/debs, builds siw.ko out of tree from linux-source-SERIES and
# assembles the guest (kernel + initramfs) into $CACHE/guest-KEY. Sourced by ../lab after common.sh and kernel.sh.
# The key hashes every package file name (name_version_arch), the guest's own scripts and a kernel of your own, so a
# build is redone exactly when one of them changed; an unchanged key is a no-op. Each kernel keeps its own guest.

conf_words() { sed -n "s/^$1:[[:space:]]*//p" "$LAB_DIR/guest/packages.conf" | tr -s ' \n' '  '; }

check_build_tools() {
  local t missing=()
  for t in apt-get apt-cache dpkg-deb gcc-12 make cpio gzip xz python3 strip sha256sum; do
    command -v "$t" >/dev/null || missing+=("$t")
  done
  [ ${#missing[@]} -eq 0 ] || cannot "missing build tools: ${missing[*]} (apt-get install gcc-12 make cpio xz-utils binutils)"
}

check_space() {  # $1: directory, $2: MiB needed
  local avail
  mkdir -p "$1" 2>/dev/null || cannot "cannot create $1 (set RDDP_LAB_CACHE to a writable folder)"
  avail=$(df -Pm "$1" | awk 'NR==2 {print $4}')
  [ "${avail:-0}" -ge "$2" ] || cannot "not enough disk space in $1: ${avail} MiB free, the build needs about $2 MiB"
}

# Package names of the guest: the closure of the wanted packages' dependencies, less the excluded ones.
guest_package_names() {
  local excl want
  want=$(conf_words full)
  excl="^($(conf_words exclude | sed 's/ *$//; s/ /|/g'))$"
  # shellcheck disable=SC2086
  apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks --no-replaces \
      --no-enhances $want 2>/dev/null | grep -v '^[ <]' | sort -u | grep -Ev "$excl"
}

# Prints "URL FILE SIZE" for every package, without downloading (apt-get download --print-uris).
package_uris() {
  local kernel=()
  [ "$KERNEL_SERIES" = custom ] || kernel=("linux-source-$KERNEL_SERIES=$SRCVER" "$(image_package)=$SRCVER" \
    "linux-headers-$ABI-amd64=$SRCVER" "linux-headers-$ABI-common=$SRCVER" "$(kbuild_package)=$SRCVER")
  # shellcheck disable=SC2046
  apt-get download --print-uris -q "${kernel[@]}" $(guest_package_names) | tr -d "'" | awk '{print $1, $2, $3}'
}

download_debs() {  # $1: file listing "URL FILE SIZE"
  local missing=() file
  mkdir -p "$CACHE/debs"
  while read -r _url file _size; do
    [ -s "$CACHE/debs/$file" ] || missing+=("$(echo "$file" | sed 's/_\([^_]*\)_[^_]*\.deb$/=\1/; s/%3a/:/g')")
  done < "$1"
  [ ${#missing[@]} -eq 0 ] && return 0
  say "downloading ${#missing[@]} Debian packages into $CACHE/debs ..."
  local sandbox=()
  [ "$(id -u)" = 0 ] && sandbox=(-o APT::Sandbox::User=root)  # root's download dir is not _apt's
  if ! (cd "$CACHE/debs" && apt-get download -q "${sandbox[@]}" "${missing[@]}" > "$CACHE/download.log" 2>&1); then
    return 1
  fi
}

# siw.ko for one kernel, cached by kernel ABI and source version (it does not depend on the guest packages).
build_siw() {
  SIW_KO="$CACHE/siw/$ABI-$SRCVER/siw.ko"
  [ -s "$SIW_KO" ] && return 0
  local w="$CACHE/tmp/siw-build" t0=$SECONDS hdr src="linux-source-$KERNEL_SERIES"
  rm -rf "$w" && mkdir -p "$w/root"
  say "building siw.ko for $ABI-amd64 from $src $SRCVER (gcc-12) ..."
  for p in "linux-headers-$ABI-amd64" "linux-headers-$ABI-common" "$(kbuild_package)"; do
    dpkg-deb -x "$(deb_file "$p")" "$w/root"
  done
  hdr="$w/root/usr/src/linux-headers-$ABI-amd64"
  # Debian's header Makefile includes the common tree by absolute path: point it at our unpacked copy.
  sed -i "s#^include /usr/src/#include $w/root/usr/src/#" "$hdr/Makefile"
  # Only drivers/infiniband/sw/siw of the 140 MB source tarball is unpacked, streaming (no full copy on disk).
  dpkg-deb --fsys-tarfile "$(deb_file "$src")" | tar -xO "./usr/src/$src.tar.xz" \
    | tar -xJ -C "$w" "$src/drivers/infiniband/sw/siw"
  # Debian's kernels have CONFIG_RDMA_SIW unset; setting it on the command line builds the module anyway. No BTF
  # for it (6.12 would run pahole, which the host may lack; BTF only serves BPF tracing).
  if ! make -C "$hdr" M="$w/$src/drivers/infiniband/sw/siw" CONFIG_RDMA_SIW=m CONFIG_DEBUG_INFO_BTF_MODULES= -j2 modules \
       > "$w/make.log" 2>&1; then
    tail -n 20 "$w/make.log" >&2
    die "building siw.ko failed (log $w/make.log)"
  fi
  mkdir -p "$(dirname "$SIW_KO")"
  strip --strip-debug -o "$SIW_KO.tmp" "$w/$src/drivers/infiniband/sw/siw/siw.ko"
  mv "$SIW_KO.tmp" "$SIW_KO"
  rm -rf "$w"
  say "siw.ko built in $((SECONDS - t0)) s"
}

deb_file() {  # the cached .deb of package $1 (from the current URI list)
  local f
  f=$(awk -v p="$1" 'index($2, p "_") == 1 {print $2}' "$URIS" | head -n1)
  [ -n "$f" ] && [ -s "$CACHE/debs/$f" ] || die "package $1 missing from $CACHE/debs"
  echo "$CACHE/debs/$f"
}

# Copies the shared libraries every ELF file under $1 needs from sysroot $2 (found with the sysroot's own
# dynamic loader's --list, as ldd does), until nothing new is needed.
copy_libs() {
  local root=$1 sys=$2 ld="$2/lib64/ld-linux-x86-64.so.2" libpath f lib path dest missing=0
  libpath="$sys/usr/lib/x86_64-linux-gnu:$sys/lib/x86_64-linux-gnu:$sys/usr/lib/x86_64-linux-gnu/libibverbs"
  find "$root" -type f \( -perm -u+x -o -name '*.so*' \) -print0 | while IFS= read -r -d '' f; do
      [ "$(head -c4 "$f" | od -An -c | tr -d ' ')" = '177ELF' ] && echo "$f"
    done > "$CACHE/tmp/elves"
  : > "$CACHE/tmp/libs"
  # (the loader refuses, or even crashes, on static binaries such as busybox: nothing to copy for those)
  while read -r f; do
    "$ld" --library-path "$libpath" --list "$f" >> "$CACHE/tmp/libs" || true
  done < "$CACHE/tmp/elves" 2>/dev/null
  while read -r lib _arrow path _rest; do
    case "$path" in
      "$sys"/*) dest="$root$(dirname "${path#"$sys"}")/$(basename "$lib")"   # same place as in the sysroot
                [ -e "$dest" ] || { mkdir -p "$(dirname "$dest")" && cp -L "$path" "$dest"; } ;;
      not) say "library $lib not found in the guest packages"; missing=1 ;;
      /*) say "library $lib would come from the host ($path): add its package"; missing=1 ;;
    esac
  done < <(grep '=>' "$CACHE/tmp/libs" | sort -u)
  [ $missing = 0 ] || die "the guest lacks shared libraries (see above; guest/packages.conf)"
}

# Moves /bin /sbin /lib /lib64 into /usr (Debian 12's merged layout) so every path resolves one way.
merge_usr() {
  local d
  for d in bin sbin lib lib64; do
    if [ -d "$1/$d" ] && [ ! -L "$1/$d" ]; then
      mkdir -p "$1/usr/$d" && cp -a "$1/$d/." "$1/usr/$d/" && rm -rf "${1:?}/$d"
    fi
    mkdir -p "$1/usr/$d" && ln -sfn "usr/$d" "$1/$d"
  done
}

build_guest() {
  local key=$1 out="$CACHE/guest-$1" w="$CACHE/tmp/guest-build" root sys kver moddir vmlinuz t0=$SECONDS p f
  local wanted=()
  rm -rf "$w" && mkdir -p "$w/root" "$w/sys"
  root="$w/root" sys="$w/sys"
  say "assembling the guest $key ..."
  # The sysroot has every package but the kernel build ones (the source alone is 140 MB).
  while read -r _url f _size; do
    case "$f" in linux-source-*|linux-headers-*|linux-kbuild-*) ;; *) dpkg-deb -x "$CACHE/debs/$f" "$sys" ;; esac
  done < "$URIS"
  for p in $(conf_words full); do dpkg-deb -x "$(deb_file "$p")" "$root"; done
  merge_usr "$sys"; merge_usr "$root"
  # Documentation, locales and Python's own test suite are dead weight in RAM.
  rm -rf "$root"/usr/share/{doc,man,info,locale,lintian,bug,bash-completion,bash-completions} \
         "$root"/usr/lib/python3.11/{test,idlelib,tkinter,turtledemo,ensurepip,lib2to3,pydoc_data} "$root/etc/init.d" \
         "$root"/usr/lib/python3.11/lib-dynload/_dbm.* "$root/usr/sbin/arpd" "$root/usr/lib/x86_64-linux-gnu/tc"
  # busybox is the shell and the small tools; real binaries (ip from iproute2, ...) win over its applets.
  "$root/usr/bin/busybox" --list-full | while read -r p; do
    p="usr/${p#usr/}"
    [ -e "$root/$p" ] || [ -L "$root/$p" ] || { mkdir -p "$root/$(dirname "$p")"; ln -s /usr/bin/busybox "$root/$p"; }
  done
  ln -sfn python3.11 "$root/usr/bin/python3"
  for f in $(conf_words dlopen); do mkdir -p "$root$(dirname "$f")" && cp -L "$sys$f" "$root$f"; done
  copy_libs "$root" "$sys"
  # Kernel modules, loaded in dependency order by /init: a Debian kernel's from its image with siw.ko built here;
  # a kernel of your own brings its siw (a module in its tree, or built in).
  # shellcheck disable=SC2046
  if [ "$KERNEL_SERIES" = custom ]; then
    moddir=$(custom_module_dir) vmlinuz=$KERNEL_IMAGE kver=$(basename "$moddir")
    wanted=($(conf_words modules) siw)
  else
    kver="$ABI-amd64" moddir="$sys/lib/modules/$ABI-amd64" vmlinuz="$sys/boot/vmlinuz-$ABI-amd64"
    wanted=($(conf_words modules) "$SIW_KO")
  fi
  mkdir -p "$root/lib/modules/$kver/extra" "$root/etc/lab"
  python3 "$LAB_DIR/lib/kmods.py" "$moddir" "${wanted[@]}" > "$w/modules.order" \
    || die "the kernel's modules lack what the lab needs (above); a kernel of your own needs CONFIG_RDMA_SIW=m or =y"
  : > "$root/etc/lab/modules.order"
  while read -r f; do
    case "$f" in
      "${SIW_KO:-}") p="/lib/modules/$kver/extra/siw.ko" ;;
      *) p="/lib/modules/$kver/${f#"$moddir/"}"; p=${p%.xz}; p=${p%.gz}; p=${p%.zst} ;;
    esac
    mkdir -p "$root/$(dirname "$p")" && copy_module "$f" "$root/$p" && echo "$p" >> "$root/etc/lab/modules.order"
  done < "$w/modules.order"
  # The NFS server and client over RDMA: in the image, loaded only by `lab nfsd start` (modules-nfs.order: those
  # modules.order does not load already). A kernel without them gets an empty list (nfsd start says so).
  : > "$root/etc/lab/modules-nfs.order"
  # shellcheck disable=SC2046
  if python3 "$LAB_DIR/lib/kmods.py" "$moddir" $(conf_words modules-nfs) > "$w/modules-nfs.order"; then
    while read -r f; do
      grep -qxF "$f" "$w/modules.order" && continue
      p="/lib/modules/$kver/${f#"$moddir/"}"; p=${p%.xz}; p=${p%.gz}; p=${p%.zst}
      mkdir -p "$root/$(dirname "$p")" && copy_module "$f" "$root/$p" && echo "$p" >> "$root/etc/lab/modules-nfs.order"
    done < "$w/modules-nfs.order"
  else
    say "warning: the kernel lacks the NFS/RDMA modules ($(conf_words modules-nfs)): lab nfsd will not run"
  fi
  mkdir -p "$root"/{proc,sys,dev,run,tmp,root,mnt}
  cp "$LAB_DIR/guest/init" "$root/init" && chmod 755 "$root/init"
  cp "$LAB_DIR/guest/lab-cmdd.py" "$root/etc/lab/"
  # _rpc: rpcbind drops to it (lab nfsd); nobody/nogroup: nfsd's anonymous user
  printf 'root:x:0:0:root:/root:/bin/sh\ntcpdump:x:104:109::/nonexistent:/bin/false\n_rpc:x:105:65534::/run/rpcbind:/bin/false\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n' > "$root/etc/passwd"
  printf 'root:x:0:\ntcpdump:x:109:\nnogroup:x:65534:\n' > "$root/etc/group"
  printf '127.0.0.1 localhost\n10.0.2.15 guest\n10.0.2.2 gateway\n10.0.2.100 host\n' > "$root/etc/hosts"
  echo guest > "$root/etc/hostname"
  # Bytecode compiled now saves seconds at every boot under TCG (same 3.11 magic; mtimes kept by dpkg-deb -x).
  if command -v python3.11 >/dev/null; then
    python3.11 -m compileall -q -j 2 -s "$root" -p / "$root/usr/lib/python3.11" "$root/usr/lib/python3/dist-packages" \
      "$root/etc/lab" >/dev/null 2>&1 || true
  fi
  mkdir -p "$out.tmp"
  (cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet | gzip -1) > "$out.tmp/initramfs.cpio.gz"
  cp "$vmlinuz" "$out.tmp/vmlinuz"
  {
    echo "key=$key"; echo "series=$KERNEL_SERIES"; echo "kernel=$kver"; echo "source=${SRCVER:-$KERNEL_IMAGE}"
    echo "built=$(date -u +%FT%TZ)"
    echo "build_seconds=$((SECONDS - t0))"; cut -d' ' -f2 "$URIS" | sed 's/^/deb=/'
  } > "$out.tmp/manifest"
  rm -rf "$out" && mv "$out.tmp" "$out"
  rm -rf "$w"
  say "guest assembled in $((SECONDS - t0)) s: $out ($(du -sh "$out/initramfs.cpio.gz" | cut -f1) initramfs)"
}

# Leaves the newest guest of each kernel series: older guests of this series go, with the siw builds and .debs
# that no guest kept names.
prune_cache() {
  local keep_guest=$1 f series
  for f in "$CACHE"/guest-*; do
    [ "$f" = "$CACHE/guest-$keep_guest" ] && continue
    series=$(sed -n 's/^series=//p' "$f/manifest" 2>/dev/null)
    # guests built before the lab knew several kernels are 6.1 ones
    [ "${series:-6.1}" = "$KERNEL_SERIES" ] && rm -rf "$f"
  done
  cat "$CACHE"/guest-*/manifest 2>/dev/null | sed -n 's/^deb=//p' | sort -u > "$CACHE/tmp/kept-debs"
  for f in "$CACHE"/siw/*; do
    [ -d "$f" ] || continue
    grep -qx "kernel=$(basename "$f" | sed 's/-[^-]*-[^-]*$//')-amd64" "$CACHE"/guest-*/manifest 2>/dev/null \
      || [ "$f" = "$(dirname "${SIW_KO:-/none/x}")" ] || rm -rf "$f"
  done
  for f in "$CACHE"/debs/*.deb; do
    grep -qF " $(basename "$f") " "$URIS" || grep -qxF "$(basename "$f")" "$CACHE/tmp/kept-debs" || rm -f "$f"
  done
}

# Runs apt-get update once per build when root and apt cannot resolve or fetch what the guest needs (a fresh
# machine, or package lists that name versions the mirror no longer has); returns 1 when that is not possible.
APT_UPDATED=no
apt_update_once() {
  [ "$APT_UPDATED" = no ] && [ "$(id -u)" = 0 ] || return 1
  APT_UPDATED=yes
  say "refreshing apt's package lists (apt-get update) ..."
  apt-get update -qq >/dev/null 2>&1
}

lab_build() {
  select_kernel
  check_build_tools
  mkdir -p "$CACHE/tmp" || cannot "cannot create the cache $CACHE (set RDDP_LAB_CACHE)"
  exec 9> "$CACHE/build.lock"
  flock -w 900 9 || die "another lab build holds $CACHE/build.lock"
  build_locked "$@"   # a failure ends the process (set -e), and the lock with it
  # closed at once: a process started later (qemu, the tester) would inherit the lock and hold it for its life
  exec 9>&-
}

build_locked() {
  local t0
  resolve_key || { apt_update_once && resolve_key; } || cannot "apt-get could not resolve the guest packages"
  if [ -s "$CACHE/guest-$KEY/initramfs.cpio.gz" ]; then
    GUEST="$CACHE/guest-$KEY"
    [ "${1:-}" = quiet ] || say "guest is up to date: $GUEST"
    return 0
  fi
  check_space "$CACHE" 1500
  t0=$SECONDS
  if ! download_debs "$URIS"; then
    # stale package lists name versions the mirror no longer has: refresh them (the key changes with them)
    apt_update_once && resolve_key && download_debs "$URIS" || {
      tail -n 5 "$CACHE/download.log" >&2
      cannot "downloading Debian packages failed (no mirror reachable, or stale package lists: apt-get update; log $CACHE/download.log)"
    }
  fi
  say "downloads ready in $((SECONDS - t0)) s ($(du -sh "$CACHE/debs" | cut -f1) in $CACHE/debs)"
  [ "$KERNEL_SERIES" = custom ] || build_siw
  build_guest "$KEY"
  GUEST="$CACHE/guest-$KEY"
  prune_cache "$KEY"
  say "build done in $((SECONDS - t0)) s; cache $CACHE is $(du -sh "$CACHE" | cut -f1)"
}

# Sets SRCVER, ABI, URIS (the package list) and KEY (hash of every package file name, the guest's scripts and a
# kernel of your own).
resolve_key() {
  local custom=""
  if [ "$KERNEL_SERIES" = custom ]; then
    SRCVER="" ABI="" custom="custom $(custom_kernel_hash)"
  else
    SRCVER=$(apt-cache policy "linux-source-$KERNEL_SERIES" 2>/dev/null | awk '/Candidate:/ {print $2}')
    [ -n "$SRCVER" ] && [ "$SRCVER" != "(none)" ] \
      || { say "apt knows no linux-source-$KERNEL_SERIES (Debian 12 package lists with bookworm-security?)"; return 1; }
    resolve_abi || return 1
  fi
  URIS="$CACHE/tmp/uris"
  package_uris > "$URIS" 2>/dev/null && [ -s "$URIS" ] || return 1
  KEY=$( { echo "$custom"; cut -d' ' -f2 "$URIS" | sort; cat "$LAB_DIR/guest/init" "$LAB_DIR/guest/lab-cmdd.py" \
           "$LAB_DIR/guest/packages.conf" "$LAB_DIR/lib/build.sh" "$LAB_DIR/lib/kernel.sh" "$LAB_DIR/lib/kmods.py"; } \
         | sha256sum | cut -c1-16)
}
