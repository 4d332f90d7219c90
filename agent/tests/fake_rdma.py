"""A stand-in for pyverbs and librdmacm, FOR TESTS ONLY: it lets the agent's control server, sessions and
bookkeeping (authentication, tickets, companions, ownership, reset scoping, events) run on a host without an RDMA
device. It moves no data: memory regions are bytearrays, queue pairs accept work requests and never complete them,
and the only connection events are those a test injects (incoming()). What it exercises is the agent's own code;
what RDMA does is tested by smoke_test.py against a real device (the siw lab).

load_agent() returns the agent's module (agent/rddp-dut-agent) wired to this stand-in.
"""
import collections
import ctypes
import errno
import importlib.machinery
import importlib.util
import itertools
import os
import socket
import sys
import threading
import types

AGENT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "rddp-dut-agent")
DEVICE = "no-rdma0"   # what hello reports as the device: plainly not an RNIC


# ---- pyverbs ------------------------------------------------------------------------------------------------

def _enums():
    m = types.ModuleType("pyverbs.enums")
    counter = itertools.count(1)
    values = {"IBV_TRANSPORT_IWARP": 1, "IBV_ATOMIC_NONE": 0}

    def getattr_(name):  # every other IBV_* constant: a distinct number, which is all the agent needs of them
        if not name.startswith("IBV_"):
            raise AttributeError(name)
        if name not in values:
            values[name] = 1000 + next(counter)
        return values[name]
    m.__getattr__ = getattr_
    return m


E = _enums()


class PyverbsError(Exception):
    pass


class PyverbsRDMAError(PyverbsError):
    def __init__(self, msg, error_code=0):
        super().__init__(msg)
        self.error_code = error_code


class DeviceAttr:
    max_qp_wr = 1024
    max_qp_rd_atom = 16
    max_qp_init_rd_atom = 16
    max_mr_size = 1 << 32
    max_qp = 64
    max_mr = 4096
    vendor_id = 0
    vendor_part_id = 0
    atomic_caps = 0  # IBV_ATOMIC_NONE


class Context:
    def __init__(self, name):
        self.name = name

    def query_device(self):
        return DeviceAttr()

    def get_async_event(self):
        raise PyverbsError("the test stand-in has no async events")


class Device:
    name = DEVICE.encode()
    transport_type = 1  # IBV_TRANSPORT_IWARP


def get_device_list():
    return [Device()]


class Closable:
    closed = False

    def close(self):
        self.closed = True


class PD(Closable):
    def __init__(self, ctx):
        self.ctx = ctx


_keys = itertools.count(0x100)
_addrs = itertools.count(1)


class MR(Closable):
    def __init__(self, pd, length, access):
        if pd.closed:
            raise PyverbsError("the protection domain is closed")
        self.pd, self.length, self.access = pd, length, access
        self.mem = bytearray(length)
        self.buf = next(_addrs) << 32   # a made-up address: nothing dereferences it
        self.lkey = self.rkey = next(_keys)

    def write(self, data, n, off):
        self.mem[off:off + n] = data[:n]

    def read(self, n, off):
        return bytes(self.mem[off:off + n])


class CQ(Closable):
    def __init__(self, ctx, n):
        self.n = n

    def poll(self, n):
        return 0, []   # nothing ever completes: no data moves here


class Bag:
    def __init__(self, *args, **kw):
        self.args = args
        self.__dict__.update(kw)


class QPAttr(Bag):
    pass


class QPCap(Bag):
    pass


class QPInitAttr(Bag):
    pass


class SGE(Bag):
    pass


class RecvWR(Bag):
    pass


class SendWR(Bag):
    def set_wr_rdma(self, rkey, addr):
        self.rdma = (rkey, addr)

    def set_wr_atomic(self, rkey, addr, a, b):
        self.atomic = (rkey, addr, a, b)


_qpns = itertools.count(1)


class QP(Closable):
    def __init__(self, pd, init_attr):
        self.pd, self.qp_num = pd, next(_qpns)
        self.posted = []

    def modify(self, attr, mask):
        pass

    def query(self, mask):
        return QPAttr(qp_state=E.IBV_QPS_RTS), None

    def post_recv(self, wr):
        self.posted.append(wr)

    def post_send(self, wr):
        self.posted.append(wr)


def _pyverbs_modules():
    mods = {"pyverbs": types.ModuleType("pyverbs"), "pyverbs.enums": E}
    for name, attrs in {"cq": {"CQ": CQ}, "device": {"Context": Context, "get_device_list": get_device_list},
                        "mr": {"MR": MR}, "pd": {"PD": PD},
                        "pyverbs_error": {"PyverbsError": PyverbsError, "PyverbsRDMAError": PyverbsRDMAError},
                        "qp": {"QP": QP, "QPAttr": QPAttr, "QPCap": QPCap, "QPInitAttr": QPInitAttr},
                        "wr": {"SGE": SGE, "RecvWR": RecvWR, "SendWR": SendWR}}.items():
        m = types.ModuleType(f"pyverbs.{name}")
        m.__dict__.update(attrs)
        mods[f"pyverbs.{name}"] = m
        setattr(mods["pyverbs"], name, m)
    mods["pyverbs"].enums = E
    return mods


# ---- librdmacm ------------------------------------------------------------------------------------------------

class _Channel(ctypes.Structure):
    _fields_ = [("fd", ctypes.c_int)]


class _CmId(ctypes.Structure):  # the agent reads src/dst of struct rdma_cm_id at these offsets
    _fields_ = [("verbs", ctypes.c_void_p), ("channel", ctypes.c_void_p), ("context", ctypes.c_void_p),
                ("qp", ctypes.c_void_p), ("src", ctypes.c_uint8 * 128), ("dst", ctypes.c_uint8 * 128)]


def _put_addr(field, host, port):
    raw = (socket.AF_INET).to_bytes(2, "little") + port.to_bytes(2, "big") + socket.inet_aton(host)
    for i, b in enumerate(raw):
        field[i] = b


def _fail(err):
    ctypes.set_errno(err)
    return -1


class FakeRdmacm:
    """The librdmacm functions the agent calls. Binding checks ports as the kernel would (one listener a port);
    rdma_accept answers with an established event; connecting out fails (no route: there is no device)."""

    EVENTS = {"connect_request": 4, "established": 9}

    def __init__(self):
        self.lock = threading.Lock()
        self.ids = {}             # address -> _CmId (kept alive here)
        self.ports = {}           # bound port -> id address
        self.queue = collections.deque()
        self.keep = []            # events handed out (the agent reads them before it acks)
        self.wake = None
        self.agent_module = None  # set by load_agent: its CmEvent struct
        self.next_port = itertools.count(20000)
        for name in [n for n in dir(type(self)) if n.startswith("rdma_")]:
            # plain functions, as ctypes gives: the agent sets restype/argtypes on them
            def f(*args, _m=getattr(self, name)):
                return _m(*args)
            self.__dict__[name] = f

    @staticmethod
    def _addr(cm_id):
        return cm_id.value if isinstance(cm_id, ctypes.c_void_p) else cm_id

    def rdma_create_event_channel(self):
        r, w = os.pipe()
        os.set_blocking(r, False)
        self.wake = w
        return ctypes.pointer(_Channel(fd=r))

    def rdma_create_id(self, channel, pid, context, ps):
        s = _CmId()
        with self.lock:
            self.ids[ctypes.addressof(s)] = s
        pid._obj.value = ctypes.addressof(s)
        return 0

    def rdma_bind_addr(self, cm_id, psa):
        sa = psa._obj
        port = sa.port[0] << 8 | sa.port[1]
        host = socket.inet_ntoa(bytes(sa.addr))
        with self.lock:
            if port == 0:
                port = next(p for p in self.next_port if p not in self.ports)
            elif port in self.ports:
                return _fail(errno.EADDRINUSE)
            self.ports[port] = self._addr(cm_id)
            _put_addr(self.ids[self._addr(cm_id)].src, host, port)
        return 0

    def rdma_listen(self, cm_id, backlog):
        return 0

    def rdma_destroy_id(self, cm_id):
        a = self._addr(cm_id)
        with self.lock:
            for p in [p for p, v in self.ports.items() if v == a]:
                del self.ports[p]
            self.ids.pop(a, None)
        return 0

    def rdma_resolve_addr(self, cm_id, src, dst, ms):
        return _fail(errno.ENODEV)

    def rdma_resolve_route(self, cm_id, ms):
        return _fail(errno.ENODEV)

    def rdma_connect(self, cm_id, param):
        return _fail(errno.ENODEV)

    def rdma_accept(self, cm_id, param):
        self._post(self._addr(cm_id), None, "established")
        return 0

    def rdma_reject(self, cm_id, data, length):
        return 0

    def rdma_disconnect(self, cm_id):
        return 0

    def rdma_get_cm_event(self, channel, pevp):
        try:
            os.read(channel.contents.fd, 1)
        except BlockingIOError:
            return _fail(errno.EAGAIN)
        with self.lock:
            if not self.queue:
                return _fail(errno.EAGAIN)
            cm_id, listen_id, kind = self.queue.popleft()
            ev = self.agent_module.CmEvent()
            ev.id, ev.listen_id, ev.event, ev.status = cm_id, listen_id, self.EVENTS[kind], 0
            self.keep.append(ev)
            del self.keep[:-64]
        pevp._obj.contents = ev
        return 0

    def rdma_ack_cm_event(self, ev):
        return 0

    def _post(self, cm_id, listen_id, kind):
        with self.lock:
            self.queue.append((cm_id, listen_id, kind))
        os.write(self.wake, b"x")

    def incoming(self, port, peer=("192.0.2.1", 40000)):
        """A peer's MPA Request arrives at the listener bound to port (a connect_request event): the agent's
        listener takes it as it would from the kernel. False when nothing listens there."""
        with self.lock:
            listen_id = self.ports.get(port)
            if listen_id is None:
                return False
            s = _CmId()
            self.ids[ctypes.addressof(s)] = s
            _put_addr(s.src, "127.0.0.1", port)
            _put_addr(s.dst, *peer)
        self._post(ctypes.addressof(s), listen_id, "connect_request")
        return True


RDMACM = FakeRdmacm()


def load_agent():
    """The agent's module, its pyverbs and librdmacm replaced by this stand-in (in this process only)."""
    sys.modules.update(_pyverbs_modules())
    real = ctypes.CDLL

    def cdll(name, *args, **kw):
        return RDMACM if name == "librdmacm.so.1" else real(name, *args, **kw)
    ctypes.CDLL = cdll
    try:
        loader = importlib.machinery.SourceFileLoader("rddp_dut_agent", AGENT)
        spec = importlib.util.spec_from_loader("rddp_dut_agent", loader)
        mod = importlib.util.module_from_spec(spec)
        loader.exec_module(mod)
    finally:
        ctypes.CDLL = real
    RDMACM.agent_module = mod
    return mod
