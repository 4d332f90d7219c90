#!/bin/sh
# The kernel NFS server over RDMA in the lab guest (`lab nfsd ...`, lib/nfsd.sh). Copied into the guest at each
# `lab nfsd start` (/run/lab/nfsd/nfsd.sh), not part of the initramfs: editing it needs no guest rebuild.
# Every step is idempotent: a second `start` leaves a running server as it is.
#
#   nfsd.sh prepare      modules (sunrpc, rpcrdma, nfsd, nfs...), /proc/fs/nfsd, the exported tmpfs and its files
#   nfsd.sh exports      (re)export the tree (exportfs -ra); rpc.mountd must run for the kernel to use it
#   nfsd.sh nfsd         rpc.nfsd (TCP 2049) if no nfsd thread runs, and 'rdma 20049' in /proc/fs/nfsd/portlist
#   nfsd.sh stop         nfsd threads to 0 (closes every listener), exports flushed; modules stay loaded
#   nfsd.sh status       threads, port list, exports
set -eu
EXPORT=/srv/nfs            # the exported tmpfs (NFSv3 and NFSv4 alike: mount 10.0.2.15:/srv/nfs)
FSID=1                     # tmpfs has no UUID: nfsd needs an fsid= to make file handles
RDMA_PORT=20049            # RFC 5666 / RFC 8267's well-known NFS/RDMA port
THREADS=${NFSD_THREADS:-4}

log() { echo "nfsd: $*"; }

load_modules() {
  local ko name
  [ -s /etc/lab/modules-nfs.order ] || { log "this guest has no NFS/RDMA modules (built without them?)"; exit 2; }
  while read -r ko; do
    [ -n "$ko" ] || continue
    name=$(basename "$ko" .ko | tr - _)
    [ -d "/sys/module/$name" ] && continue
    insmod "$ko" || { log "insmod $ko failed"; exit 1; }
  done < /etc/lab/modules-nfs.order
}

# Deterministic content, so a tester can check the bytes it reads without reading them twice. The reference
# responder's tree first (rnic's NfsTree, what `rddp peer --app rpcrdma` serves and its requester expects, by name
# and content; the file handles differ: nfsd's, see `lab nfsd fh`):
#   README     one line of text (GETATTR, LOOKUP, an inline READ)
#   big.bin    100000 octets, octet i = (i * 31 + (i >> 8)) mod 256 (a READ through a Write chunk)
#   scratch    empty, writable by all (WRITE through a Read chunk)
#   many/      100 files entry-000 .. entry-099 holding "entry N\n" (READDIR/READDIRPLUS through a Reply chunk)
# then what `lab nfs-capture` uses:
#   hello.txt  a line of text
#   large.bin  1 MiB; the 32-bit big-endian word at byte offset 4n is n
#   dir/       400 empty files with 40-character names (READDIRPLUS replies of 65 and 7 KB: Reply chunks)
#   rw/        an empty directory writable by all (the capture's WRITE and REMOVE)
populate() {
  printf 'rddp reference RPC-over-RDMA responder (RFC 8166, RFC 8267, RFC 1813)\n' > "$EXPORT/README"
  python3 -c '
import os, struct, sys
e = sys.argv[1]
with open(os.path.join(e, "big.bin"), "wb") as f:
    f.write(bytes((i * 31 + (i >> 8)) & 0xFF for i in range(100000)))
os.makedirs(os.path.join(e, "many"), exist_ok=True)
for n in range(100):
    with open(os.path.join(e, "many", "entry-%03d" % n), "w") as f:
        f.write("entry %d\n" % n)
with open(os.path.join(e, "large.bin"), "wb") as f:
    f.write(b"".join(struct.pack(">I", n) for n in range(1 << 18)))
os.makedirs(os.path.join(e, "dir"), exist_ok=True)
for n in range(400):
    open(os.path.join(e, "dir", "entry-%04d-of-a-directory-big-enough.txt" % n), "w").close()
' "$EXPORT"
  : > "$EXPORT/scratch"
  chmod 666 "$EXPORT/scratch"
  echo "hello from the siw lab's nfsd over RDMA" > "$EXPORT/hello.txt"
  mkdir -p "$EXPORT/rw"
  chmod 1777 "$EXPORT/rw"
}

prepare() {
  load_modules
  grep -q ' /proc/fs/nfsd ' /proc/mounts || mount -t nfsd nfsd /proc/fs/nfsd
  mkdir -p /var/lib/nfs/v4recovery /var/lib/nfs/sm /var/lib/nfs/sm.bak /run/rpcbind /etc/exports.d
  [ -e /var/lib/nfs/etab ] || : > /var/lib/nfs/etab
  [ -e /var/lib/nfs/rmtab ] || : > /var/lib/nfs/rmtab
  if ! grep -q " $EXPORT " /proc/mounts; then
    mkdir -p "$EXPORT"
    mount -t tmpfs -o size=64m,mode=0755 nfsexport "$EXPORT"
    populate
  fi
  echo "$EXPORT *(rw,sync,no_root_squash,insecure,no_subtree_check,fsid=$FSID)" > /etc/exports
}

start_nfsd() {
  if [ "$(cat /proc/fs/nfsd/threads 2>/dev/null || echo 0)" = 0 ]; then
    # a 10 s NFSv4 lease and grace period (the least nfsd takes) instead of 90 s: a fresh server refuses OPEN
    # with NFS4ERR_GRACE while it lasts; v2 is gone from Debian's nfsd
    rpc.nfsd --grace-time 10 --lease-time 10 "$THREADS" || { log "rpc.nfsd failed"; exit 1; }
    cut -d. -f1 /proc/uptime > /run/lab/nfsd/started   # the grace period ends 10 s later (lab nfs-capture waits)
  fi
  if ! grep -qx "rdma $RDMA_PORT" /proc/fs/nfsd/portlist; then
    echo "rdma $RDMA_PORT" > /proc/fs/nfsd/portlist || { log "cannot add rdma $RDMA_PORT to the port list"; exit 1; }
  fi
  log "threads $(cat /proc/fs/nfsd/threads), listening on $(tr '\n' ' ' < /proc/fs/nfsd/portlist)"
}

status() {
  if [ ! -e /proc/fs/nfsd/threads ]; then echo "nfsd: not loaded"; return 1; fi
  echo "threads: $(cat /proc/fs/nfsd/threads)"
  echo "portlist: $(tr '\n' ' ' < /proc/fs/nfsd/portlist)"
  echo "versions: $(cat /proc/fs/nfsd/versions)"
  echo "exports:"; exportfs -v 2>/dev/null | sed 's/^/  /'
  [ "$(cat /proc/fs/nfsd/threads)" != 0 ] && grep -qx "rdma $RDMA_PORT" /proc/fs/nfsd/portlist
}

case "${1:-}" in
  prepare) prepare ;;
  exports) exportfs -ra ;;
  nfsd) start_nfsd ;;
  stop)
    # the guest's own NFS mounts of this server first: a hard mount of a stopped server blocks whoever touches it
    awk '$3 ~ /^nfs/ {print $2}' /proc/mounts | while read -r m; do umount -f "$m" 2>/dev/null || umount -l "$m"; done
    if [ -e /proc/fs/nfsd/threads ]; then rpc.nfsd 0 || true; fi
    exportfs -ua 2>/dev/null || true
    log "stopped" ;;
  status) status ;;
  *) echo "usage: nfsd.sh prepare|exports|nfsd|stop|status" >&2; exit 2 ;;
esac
