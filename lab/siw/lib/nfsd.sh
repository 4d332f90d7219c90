# `lab nfsd`: Linux's NFS server over RDMA (svcrdma on siw) in the guest, reached from the host on 127.0.0.1:$NFS_PORT
# (sourced by ../lab). guest/nfsd.sh does the guest's side; every step is idempotent, so `nfsd start` on a running
# server is a no-op that prints the same facts (what `lab conform --profile rpcrdma` will call before its run).

GUEST_NFSD=/run/lab/nfsd
NFS_EXPORT=/srv/nfs

# Copies the guest's side (guest/nfsd.sh, guest/nfs-fh.py) into /run/lab/nfsd: not in the initramfs.
push_nfsd() {
  labcmd put "$LAB_DIR/guest/nfsd.sh" "$GUEST_NFSD/nfsd.sh" --mode 755 >/dev/null
  labcmd put "$LAB_DIR/guest/nfs-fh.py" "$GUEST_NFSD/nfs-fh.py" --mode 755 >/dev/null
}

guest_service_running() {  # $1: service name of the command daemon
  labcmd services | grep -q "^$1: .*running"
}

# Waits up to $2 s until something listens on guest TCP port $1 (0.0.0.0 or 10.0.2.15).
nfsd_wait_listen() {
  local hex
  hex=$(printf '%04X' "$1")
  labcmd exec --timeout "$(($2 + 5))" -- \
    "i=0; while ! awk '\$4 == \"0A\"' /proc/net/tcp /proc/net/tcp6 2>/dev/null | grep -q ':$hex '; do i=\$((i+1)); [ \$i -gt $(($2 * 5)) ] && exit 1; sleep 0.2; done" \
    || die "nothing listens on guest port $1 after $2 s"
}

nfsd_start() {
  push_nfsd
  labcmd exec --timeout 120 -- "$GUEST_NFSD/nfsd.sh" prepare || die "preparing the NFS server failed"
  # rpcbind: nfsd registers NFSv3 (and rpc.mountd MOUNT) with it; -f: in the foreground, as a service; -w: none
  guest_service_running rpcbind || { spawn_service rpcbind rpcbind -f; nfsd_wait_listen 111 20; }
  labcmd exec --timeout 60 -- "$GUEST_NFSD/nfsd.sh" exports || die "exportfs failed"
  # rpc.mountd answers the kernel's export upcalls (NFSv3 and NFSv4 alike) and MOUNT on a fixed port
  guest_service_running mountd || { spawn_service mountd rpc.mountd -F -N 2 -p 20048; nfsd_wait_listen 20048 30; }
  labcmd exec --timeout 120 -- "$GUEST_NFSD/nfsd.sh" nfsd || die "starting nfsd failed"
  say "nfsd up: NFS/RDMA on 127.0.0.1:$NFS_PORT (guest $GUEST_IP:20049, svcrdma on siw0), export $NFS_EXPORT"
}

nfsd_stop() {
  labcmd exec --timeout 60 -- "[ -x $GUEST_NFSD/nfsd.sh ] && $GUEST_NFSD/nfsd.sh stop || true" >/dev/null
  labcmd stop mountd >/dev/null 2>&1 || true
  labcmd stop rpcbind >/dev/null 2>&1 || true
  say "nfsd stopped"
}

nfsd_status() {
  labcmd exec --timeout 30 -- "[ -x $GUEST_NFSD/nfsd.sh ] && $GUEST_NFSD/nfsd.sh status" || { echo "nfsd: not running"; return 1; }
  echo "host: 127.0.0.1:$NFS_PORT -> guest $GUEST_IP:20049 (rdma)"
}

nfsd_fh() {  # NFSv3 file handles: the export's root, then each name given (LOOKUP in the root)
  labcmd exec --timeout 60 -- python3 "$GUEST_NFSD/nfs-fh.py" "$@"
}

lab_nfsd() {
  need_up
  case "${1:-}" in
    start) nfsd_start ;;
    stop) nfsd_stop ;;
    status) nfsd_status ;;
    fh) shift; nfsd_fh "$@" ;;
    *) die "usage: lab nfsd start | stop | status | fh [NAME...]" 2 ;;
  esac
}

# lab nfs-capture [DIR]: the kernel NFS client against the kernel nfsd, both in the guest, over siw (carried by lo),
# once per NFS version (3, 4.1, 4.2), each session captured on its own from the mount to the umount:
# DIR/nfsv3.pcap, DIR/nfsv4.1.pcap, DIR/nfsv4.2.pcap (default DIR: pcaps/nfs-rdma/SERIES of the running kernel).
# What each session does: guest/nfs-workload.sh. The golden files are made by pcaps/nfs-rdma/README.md's commands.
lab_nfs_capture() {
  local dir=${1:-$REPO_ROOT/pcaps/nfs-rdma/$(running_series)} v
  mkdir -p "$dir"
  nfsd_start
  labcmd put "$LAB_DIR/guest/nfs-workload.sh" "$GUEST_NFSD/nfs-workload.sh" --mode 755 >/dev/null
  # an NFSv4 server refuses OPEN during its grace period (10 s after start, nfsd.sh): past it, no NFS4ERR_GRACE
  # retries in the captures
  labcmd exec --timeout 30 -- 'while [ "$(cut -d. -f1 /proc/uptime)" -le $(( $(cat /run/lab/nfsd/started 2>/dev/null || echo 0) + 11 )) ]; do sleep 1; done'
  for v in 3 4.1 4.2; do
    "$LAB_DIR/lab" capture start --iface lo --buffer 65536 -- tcp port 20049
    if ! labcmd exec --timeout 300 -- "$GUEST_NFSD/nfs-workload.sh" "$v"; then
      "$LAB_DIR/lab" capture stop "$dir/nfsv$v.pcap.failed" || true
      die "the NFSv$v session failed (its capture: $dir/nfsv$v.pcap.failed)"
    fi
    "$LAB_DIR/lab" capture stop "$dir/nfsv$v.pcap" 2>&1 | tee "$STATE/nfs-capture.log" >&2
    ! grep -q ' [1-9][0-9]* packets dropped' "$STATE/nfs-capture.log" || die "tcpdump dropped packets of NFSv$v: run again"
  done
  say "captures in $dir: $(cd "$dir" && ls -s --block-size=K nfsv*.pcap | tr '\n' ' ')"
}
