#!/bin/sh
# One NFS session of the kernel client against the guest's own nfsd over RDMA (siw on eth0, carried by lo), the
# traffic of `lab nfs-capture` (lib/nfsd.sh). Copied into the guest at each run, like nfsd.sh.
#   nfs-workload.sh VERS      VERS: 3, 4.1 or 4.2
# mount (NFSv3: MOUNT over TCP, then NULL/FSINFO/PATHCONF/GETATTR over RDMA; NFSv4.x: EXCHANGE_ID, CREATE_SESSION...),
# GETATTR/LOOKUP of hello.txt and its READ, a 256 KiB WRITE from large.bin into rw/ (Read chunks: 2 WRITEs of the
# 128 KiB wsize), the page cache dropped, the same 256 KiB READ back (Write chunks) and compared, the 400-entry
# dir/ listed with attributes (READDIRPLUS, or READDIR with attributes: Reply chunks), REMOVE, umount.
set -eu
vers=${1:?usage: nfs-workload.sh 3|4.1|4.2}
opts="vers=$vers,proto=rdma,port=20049"
[ "$vers" = 3 ] && opts="$opts,nolock"    # no rpc.statd in the guest: NLM stays out of the capture
mnt=/mnt/nfs
mkdir -p "$mnt"
mount -t nfs -o "$opts" 10.0.2.15:/srv/nfs "$mnt"
trap 'umount "$mnt" 2>/dev/null || umount -f "$mnt"' EXIT
stat -c '%n %s' "$mnt/hello.txt"
cat "$mnt/hello.txt"
f="$mnt/rw/w-$vers.bin"
dd if=/srv/nfs/large.bin of="$f" bs=65536 count=4 conv=fsync 2>/dev/null
sync
echo 3 > /proc/sys/vm/drop_caches
dd if=/srv/nfs/large.bin bs=65536 count=4 2>/dev/null | cmp - "$f"
echo "read back 256 KiB: same bytes"
echo "dir/: $(ls -l "$mnt/dir" | grep -c entry-) entries"
rm "$f"
umount "$mnt"
trap - EXIT
echo "nfs-workload $vers: done"
