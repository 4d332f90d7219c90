# Shared settings of the siw lab (sourced by ../lab). Everything here can be overridden from the environment.

LAB_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
REPO_ROOT="$(cd "$LAB_DIR/../.." && pwd)"

# Downloads and built guests live outside the clone so a fresh clone (CI) reuses them.
default_cache() {
  if [ -n "${RDDP_LAB_CACHE:-}" ]; then echo "$RDDP_LAB_CACHE"; return; fi
  if mkdir -p /var/cache/rddp-lab 2>/dev/null && [ -w /var/cache/rddp-lab ]; then echo /var/cache/rddp-lab; return; fi
  echo "${XDG_CACHE_HOME:-$HOME/.cache}/rddp-lab"
}
CACHE="$(default_cache)"
# One running lab per user and machine: pid file, console log, service logs.
STATE="${RDDP_LAB_STATE:-${TMPDIR:-/tmp}/rddp-lab-siw-$(id -u)}"

# Guest memory and timeouts (seconds).
MEM_MB="${RDDP_LAB_MEM_MB:-1024}"
BOOT_TIMEOUT="${RDDP_LAB_BOOT_TIMEOUT:-90}"       # TCG boot to "lab: ready" (about 6-10 s when idle)
KVM_TIMEOUT="${RDDP_LAB_KVM_TIMEOUT:-15}"         # KVM must reach init within this, else TCG
BOOT_TRIES="${RDDP_LAB_BOOT_TRIES:-2}"            # bounded retries of a boot that did not become ready
ACCEL="${RDDP_LAB_ACCEL:-auto}"                   # auto | kvm | tcg

# Fixed slirp addresses of the guest.
GUEST_IP=10.0.2.15
HOST_FROM_GUEST=10.0.2.100   # guestfwd address: guest connections to it reach 127.0.0.1 on the host

# Host 127.0.0.1 ports -> guest ports, as NAME=HOSTPORT:GUESTPORT (hostfwd, host -> guest).
#   cmd      the lab's command channel (guest/lab-cmdd.py)
#   agent    the DUT agent's control port (agent, docs/dut-control.md)
#   agent2   a second agent (lab agent-smoke runs two)
#   iwarp    the DUT's iWARP listener: `lab rping start` or the agent's listen on guest port 7777
#   iwarp2-4 more agent listeners (guest 7778-7780): with iwarp, the lanes of `lab conform --jobs` (up to 4)
#   perftest perftest servers with -R (rdma_cm) on their default port 18515
#   nfsrdma  the kernel's NFS server over RDMA (svcrdma, `lab nfsd start`) on the NFS/RDMA port 20049
CMD_PORT="${RDDP_LAB_CMD_PORT:-7170}"
AGENT_PORT="${RDDP_LAB_AGENT_PORT:-7175}"
IWARP_PORT="${RDDP_LAB_IWARP_PORT:-7177}"
NFS_PORT="${RDDP_LAB_NFS_PORT:-20049}"
HOSTFWD="${RDDP_LAB_HOSTFWD:-cmd=$CMD_PORT:7100 agent=$AGENT_PORT:7175 agent2=7176:7176 iwarp=$IWARP_PORT:7777 iwarp2=7178:7778 iwarp3=7179:7779 iwarp4=7180:7780 perftest=7185:18515 nfsrdma=$NFS_PORT:20049}"
# Guest 10.0.2.100:GUESTPORT -> host 127.0.0.1:HOSTPORT, as NAME=GUESTPORT:HOSTPORT (guestfwd through socat, one
# socat per connection). tester: the host's iWARP listener (rddp peer / rddp conform) for DUT-active tests; lane0-3:
# the tester's listeners of `lab conform --jobs` (7175 onwards is taken by the agent's control port).
GUESTFWD="${RDDP_LAB_GUESTFWD:-tester=7174:7174 tester2=7777:7187 perftest=18515:7186 lane0=7190:7190 lane1=7191:7191 lane2=7192:7192 lane3=7193:7193}"
# Concurrent scenarios of the agent profile (`lab conform --jobs N`, at most 4 lanes of forwarded ports).
MAX_LANES=4

# A running lab keeps the ports and the kernel it was started with (written by `up`): later commands find it, and
# a reboot boots it again, whatever their environment says.
if [ -f "$STATE/ports.env" ] && [ "${LAB_SUBCOMMAND:-}" != up ] && [ "${LAB_SUBCOMMAND:-}" != build ]; then
  # shellcheck disable=SC1091
  . "$STATE/ports.env"
fi

say() { echo "lab: $*" >&2; }
die() { echo "lab: $1" >&2; exit "${2:-1}"; }   # die MESSAGE [EXIT_CODE]
# Exit code 3 means "this machine cannot run the lab" (a caller turns it into a skip with this reason).
cannot() { echo "lab: cannot run: $*" >&2; exit 3; }

# Command channel client.
labcmd() { python3 "$LAB_DIR/lib/labcmd.py" --port "$CMD_PORT" "$@"; }
