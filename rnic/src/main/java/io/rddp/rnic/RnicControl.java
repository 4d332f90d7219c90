package io.rddp.rnic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rddp.dut.ControlServer;
import io.rddp.dut.DutException;
import io.rddp.dut.Values;
import io.rddp.mpa.MpaStartFrame;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The DUT control protocol (docs/dut-control.md) spoken by the emulated RNIC, so that the conformance
 * tester drives `rddp peer --control` exactly as it drives the DUT agent on a host with a real RNIC. A session alone
 * destroys everything it created when it resets or ends, except the listeners the peer was started with; sessions
 * served at once (one tester's, ControlServer.Options#sessions) each reset, poll and take events of only what they
 * made ({@link ControlLedger}). Every buffer a request makes the RNIC hold counts against its memory cap (RnicConfig.Limits), so a
 * request too big is refused with resource-limit; anything else a request throws is answered as failed.
 */
public final class RnicControl implements ControlServer.Session {

    public static final int VERSION = ControlServer.VERSION;
    private static final int MAX_TIMEOUT_MS = 60_000;
    /** listeners and protection domains a session may make: each listener is a thread and a socket */
    static final int MAX_LISTENERS = 64;
    static final int MAX_PDS = 1024;
    private static final int MAX_READ = 512 * 1024;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Rnic rnic;
    private final String version;
    /** listeners the peer was started with, and their settings and accept mode then */
    private final Map<Integer, ConnectionSettings> startup;
    private final Map<Integer, Boolean> startupManual = new HashMap<>();
    private final Map<Integer, ProtectionDomain> pds = new HashMap<>();
    private final Set<Integer> mrs = new LinkedHashSet<>();
    private final ControlLedger ledger;

    public RnicControl(Rnic rnic, String version) {
        this.rnic = rnic;
        this.version = version;
        this.ledger = rnic.controlLedger;
        ledger.join(this);
        this.startup = new HashMap<>();
        for (RnicListener l : rnic.listeners()) {
            startup.put(l.id(), l.settings());
            startupManual.put(l.id(), l.manual());
        }
        pds.put(0, rnic.defaultPd());
    }

    @Override
    public ObjectNode handle(String op, JsonNode r) throws DutException, InterruptedException {
        try {
            return switch (op) {
                case "hello" -> hello(r);
                case "alloc_pd" -> allocPd();
                case "listen" -> listen(r);
                case "accept" -> accept(r);
                case "connect" -> connect(r);
                case "register" -> register(r);
                case "deregister" -> deregister(r);
                case "post_recv" -> postRecv(r);
                case "post_send" -> postSend(r);
                case "invalidate" -> invalidate(r);
                case "poll" -> poll(r);
                case "events" -> events(r);
                case "read_mem" -> readMem(r);
                case "write_mem" -> writeMem(r);
                case "qp" -> qpInfo(rnic.qp(Values.required(r, "qp", 0, Integer.MAX_VALUE)));
                case "close" -> close(r);
                case "reset" -> {
                    reset();
                    yield JSON.createObjectNode();
                }
                case "bye" -> JSON.createObjectNode();
                default -> throw new DutException("unknown-op", "unknown op \"" + op + "\"");
            };
        } catch (RnicException e) {
            throw new DutException(code(e.kind()), e.getMessage());
        } catch (IllegalArgumentException e) {
            throw new DutException("bad-request", e.getMessage());
        } catch (RuntimeException e) {
            throw new DutException("failed", "internal error of the emulated RNIC answering " + op + ": " + e);
        }
    }

    private static String code(RnicException.Kind k) {
        return k.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }

    // ---------------------------------------------------------------- ops

    private ObjectNode hello(JsonNode r) throws DutException {
        int v = Values.integer(r, "version", VERSION, 0, Integer.MAX_VALUE);
        if (v != VERSION) {
            throw new DutException("not-supported", "this DUT speaks version " + VERSION + ", not " + v);
        }
        RnicConfig c = rnic.config();
        ObjectNode o = JSON.createObjectNode();
        o.put("version", VERSION);
        o.put("server", "rddp peer " + version);
        ObjectNode dev = o.putObject("device");
        dev.put("name", "rddp0");
        dev.put("transport", "iWARP");
        dev.put("vendor", "rddp (emulated RNIC)");
        ObjectNode caps = o.putObject("caps");
        ArrayNode revs = caps.putArray("mpa_revisions");
        c.revisions().stream().sorted().forEach(revs::add);
        caps.put("enhanced", c.revisions().contains(2));
        caps.put("crc", true);
        caps.put("crc_off", !c.crc());
        caps.put("markers", c.acceptMarkers());
        caps.put("mpa_params", true);
        ArrayNode rtr = caps.putArray("rtr");
        for (RnicConfig.Rtr t : c.rtr()) rtr.add(t.wireName());
        caps.put("atomics", true);
        caps.put("immediate", true);
        caps.put("send_invalidate", true);
        caps.put("local_invalidate", true);
        caps.put("manual_accept", true);
        caps.put("max_ird", c.limits().maxIrdOrd());
        caps.put("max_ord", c.limits().maxIrdOrd());
        caps.put("max_private_data", MpaStartFrame.MAX_PRIVATE_DATA - MpaStartFrame.Enhanced.LENGTH);
        caps.put("max_mr_size", c.limits().maxMrSize());
        caps.put("max_memory", c.limits().maxMemory());
        caps.put("max_recv_wr", c.limits().maxRecvWr());
        caps.put("max_send_wr", c.limits().maxSendWr());
        caps.put("max_qp", c.limits().maxQp());
        caps.put("max_mr", c.limits().maxMr());
        caps.put("atomic_byte_order", "big");
        ArrayNode bugs = caps.putArray("bugs");
        for (Bug b : c.bugs()) bugs.add(b.knob());
        ArrayNode ls = o.putArray("listeners");
        for (RnicListener l : rnic.listeners()) ls.add(listenerInfo(l));
        return o;
    }

    private ObjectNode allocPd() throws DutException {
        if (pds.size() >= MAX_PDS) throw new DutException("resource-limit", "a session has at most " + MAX_PDS
                + " protection domains");
        ProtectionDomain pd = rnic.allocPd();
        pds.put(pd.id(), pd);
        ObjectNode o = JSON.createObjectNode();
        o.put("pd", pd.id());
        return o;
    }

    private ObjectNode listen(JsonNode r) throws DutException {
        int port = Values.required(r, "port", 0, 65535);
        String host = r.path("host").asText("0.0.0.0");
        String accept = r.path("accept").asText("auto");
        if (!accept.equals("auto") && !accept.equals("manual")) {
            throw DutException.bad("\"accept\" is auto or manual, got \"" + accept + "\"");
        }
        ConnectionSettings s = settings(r, ConnectionSettings.defaults(rnic));
        for (RnicListener l : rnic.listeners()) {
            if (port != 0 && l.port() == port) {
                Object owner = ledger.listenerOwner(l.id());
                if (owner != null && owner != this) {
                    throw new DutException("state", "port " + port + " is another session's listener");
                }
                l.manual(accept.equals("manual"));
                l.settings(s);
                ledger.ownListener(l.id(), this);
                return listenerInfo(l);
            }
        }
        if (rnic.listeners().size() >= MAX_LISTENERS) {
            throw new DutException("resource-limit", "the DUT has " + MAX_LISTENERS + " listeners already");
        }
        try {
            RnicListener l = rnic.listen(new InetSocketAddress(host, port), accept.equals("manual"), s);
            ledger.ownListener(l.id(), this);
            return listenerInfo(l);
        } catch (IOException e) {
            throw new DutException("failed", "cannot listen on " + host + ":" + port + ": " + e.getMessage());
        }
    }

    private ObjectNode accept(JsonNode r) throws DutException, InterruptedException {
        RnicListener l = rnic.listener(Values.required(r, "listener", 0, Integer.MAX_VALUE));
        int timeout = Values.integer(r, "timeout_ms", 5000, 0, MAX_TIMEOUT_MS);
        ConnectionSettings s = settings(r, l.settings());
        QueuePair qp = l.accept(timeout, s);
        if (qp == null) throw new DutException("timeout", "no connection arrived within " + timeout + " ms");
        if (!qp.awaitEstablished(timeout) && qp.state() != QueuePair.State.RTS) {
            if (qp.failure() != null) throw new DutException("failed", "the connection failed: " + qp.failure());
        }
        return qpInfo(qp);
    }

    private ObjectNode connect(JsonNode r) throws DutException, InterruptedException {
        String host = r.path("host").asText("");
        if (host.isEmpty()) throw DutException.bad("\"host\" is required");
        int port = Values.required(r, "port", 1, 65535);
        int timeout = Values.integer(r, "timeout_ms", 5000, 1, MAX_TIMEOUT_MS);
        ConnectionSettings s = settings(r, ConnectionSettings.defaults(rnic));
        QueuePair qp = rnic.connect(new InetSocketAddress(host, port), s, timeout);
        ledger.ownQp(qp.qpn(), this);
        return qpInfo(qp);
    }

    private ObjectNode register(JsonNode r) throws DutException {
        int length = Values.required(r, "length", 0, Integer.MAX_VALUE);
        Set<Access> access = EnumSet.noneOf(Access.class);
        for (JsonNode a : r.path("access")) access.add(Access.byWireName(a.asText()));
        MemoryRegion mr = rnic.register(pd(r), length, access);
        mrs.add(mr.id());
        byte[] fill = Values.bytes(r, "fill");
        if (fill != null) mr.fill(fill);
        ObjectNode o = JSON.createObjectNode();
        o.put("mr", mr.id());
        o.put("stag", mr.stag());
        o.put("to", Values.hex64(mr.baseTo()));
        o.put("length", mr.length());
        return o;
    }

    private ObjectNode deregister(JsonNode r) throws DutException {
        MemoryRegion mr = mr(r);
        rnic.deregister(mr);
        mrs.remove(mr.id());
        return JSON.createObjectNode();
    }

    private ObjectNode postRecv(JsonNode r) throws DutException {
        QueuePair qp = qp(r);
        int length = Values.required(r, "length", 0, Integer.MAX_VALUE); // over a cap: resource-limit below
        int count = Values.integer(r, "count", 1, 1, rnic.config().limits().maxRecvWr());
        ObjectNode o = JSON.createObjectNode();
        ArrayNode ids = o.putArray("wr_ids");
        if (r.hasNonNull("mr")) {
            MemoryRegion mr = mr(r);
            int offset = Values.integer(r, "offset", 0, 0, Integer.MAX_VALUE);
            for (int i = 0; i < count; i++) {
                long id = rnic.nextWrId();
                qp.postRecv(new RecvRequest(id, mr, offset + i * length, length, false));
                ids.add(id);
            }
        } else {
            for (long id : rnic.postOwnRecv(qp, length, count)) ids.add(id);
        }
        return o;
    }

    private ObjectNode postSend(JsonNode r) throws DutException {
        QueuePair qp = qp(r);
        String opcode = r.path("opcode").asText("");
        long id = rnic.nextWrId();
        boolean solicited = r.path("solicited").asBoolean(false);
        boolean signaled = r.path("signaled").asBoolean(true);
        byte[] data = Values.bytes(r, "data");
        JsonNode local = r.path("local");
        MemoryRegion lmr = local.hasNonNull("mr") ? mr(local) : null;
        int loff = Values.integer(local, "offset", 0, 0, Integer.MAX_VALUE);
        int llen = data != null ? data.length : Values.integer(local, "length", Values.integer(r, "length", 0, 0,
                Integer.MAX_VALUE), 0, Integer.MAX_VALUE);
        JsonNode remote = r.path("remote");
        WorkRequest wr = switch (opcode) {
            case "send" -> data != null ? WorkRequest.sendInline(id, data, solicited)
                    : WorkRequest.send(id, need(lmr, "local"), loff, llen, solicited);
            case "send_inv" -> WorkRequest.sendInvalidate(id, lmr, loff, llen, data,
                    Values.u32(r, "invalidate_stag"), solicited);
            case "write" -> WorkRequest.write(id, lmr, loff, llen, data, Values.u32(remote, "stag"),
                    Values.u64(remote, "to"));
            case "read" -> WorkRequest.read(id, need(lmr, "local"), loff, Values.integer(r, "length", llen, 0,
                    Integer.MAX_VALUE), Values.u32(remote, "stag"), Values.u64(remote, "to"));
            case "fetch_add" -> WorkRequest.fetchAdd(id, need(lmr, "local"), loff, Values.u32(remote, "stag"),
                    Values.u64(remote, "to"), Values.u64(r, "add"));
            case "cmp_swap" -> WorkRequest.cmpSwap(id, need(lmr, "local"), loff, Values.u32(remote, "stag"),
                    Values.u64(remote, "to"), Values.u64(r, "compare"), Values.u64(r, "swap"));
            case "immediate" -> WorkRequest.immediate(id, Values.u64(r, "imm"), solicited);
            case "local_inv" -> WorkRequest.localInvalidate(id, Values.u32(r, "invalidate_stag"));
            default -> throw DutException.bad("unknown opcode \"" + opcode + "\" (send, send_inv, write, read,"
                    + " fetch_add, cmp_swap, immediate, local_inv)");
        };
        // inline data is a buffer of the RNIC's own until the work request is over: it counts against the cap
        if (data != null && data.length > 0) rnic.memory().charge(id, qp.qpn(), data.length);
        try {
            qp.postSend(wr.signaled(signaled));
        } catch (RuntimeException e) {
            rnic.memory().discharge(id);
            throw e;
        }
        ObjectNode o = JSON.createObjectNode();
        o.put("wr_id", id);
        return o;
    }

    private ObjectNode invalidate(JsonNode r) throws DutException, InterruptedException {
        QueuePair qp = qp(r);
        int timeout = Values.integer(r, "timeout_ms", 2000, 0, MAX_TIMEOUT_MS);
        long id = rnic.nextWrId();
        qp.postSend(WorkRequest.localInvalidate(id, Values.u32(r, "stag")));
        WorkCompletion wc = rnic.completions().take(id, timeout);
        if (wc == null) throw new DutException("timeout", "the local invalidation did not complete in " + timeout
                + " ms");
        ObjectNode o = JSON.createObjectNode();
        o.put("status", wc.status().wireName());
        return o;
    }

    private ObjectNode poll(JsonNode r) throws DutException, InterruptedException {
        int qp = r.hasNonNull("qp") ? Values.required(r, "qp", 0, Integer.MAX_VALUE) : -1;
        int max = Values.integer(r, "max", 16, 1, 4096);
        int min = Values.integer(r, "min", 1, 0, 4096);
        int timeout = Values.integer(r, "timeout_ms", 0, 0, MAX_TIMEOUT_MS);
        ObjectNode o = JSON.createObjectNode();
        ArrayNode out = o.putArray("completions");
        List<WorkCompletion> wcs = qp >= 0 || ledger.alone(this) ? rnic.completions().poll(qp, max, min, timeout)
                : rnic.completions().poll(this::mine, max, min, timeout);
        for (WorkCompletion wc : wcs) {
            ObjectNode c = out.addObject();
            c.put("wr_id", wc.wrId());
            c.put("qp", wc.qp());
            c.put("opcode", wc.opcode().wireName());
            c.put("status", wc.status().wireName());
            c.put("byte_len", wc.byteLength());
            if (wc.immediate() != null) c.put("imm", Values.hex64(wc.immediate()));
            if (wc.invalidatedStag() >= 0) c.put("invalidated_stag", wc.invalidatedStag());
            if (wc.solicited()) c.put("solicited", true);
            if (wc.data() != null) c.put("data", Values.hex(wc.data()));
            if (wc.detail() != null) c.put("detail", wc.detail());
        }
        return o;
    }

    private ObjectNode events(JsonNode r) throws DutException, InterruptedException {
        int max = Values.integer(r, "max", 16, 1, 4096);
        int timeout = Values.integer(r, "timeout_ms", 0, 0, MAX_TIMEOUT_MS);
        ObjectNode o = JSON.createObjectNode();
        ArrayNode out = o.putArray("events");
        List<AsyncEvent> evs = ledger.alone(this) ? rnic.events().poll(max, timeout)
                : rnic.events().poll(this::mine, max, timeout);
        for (AsyncEvent e : evs) {
            ObjectNode n = out.addObject();
            n.put("type", e.type().wireName());
            if (e.qp() >= 0) n.put("qp", e.qp());
            if (e.terminate() != null) {
                n.put("layer", e.terminate().layer());
                n.put("etype", e.terminate().etype());
                n.put("code", e.terminate().code());
            }
            n.put("detail", e.detail());
        }
        return o;
    }

    private ObjectNode readMem(JsonNode r) throws DutException {
        MemoryRegion mr = mr(r);
        int off = Values.integer(r, "offset", 0, 0, Integer.MAX_VALUE);
        int len = Values.required(r, "length", 0, MAX_READ);
        ObjectNode o = JSON.createObjectNode();
        o.put("data", Values.hex(mr.copy(off, len)));
        return o;
    }

    private ObjectNode writeMem(JsonNode r) throws DutException {
        MemoryRegion mr = mr(r);
        int off = Values.integer(r, "offset", 0, 0, Integer.MAX_VALUE);
        byte[] data = Values.bytes(r, "data");
        if (data == null) throw DutException.bad("\"data\" is required");
        mr.write(off, data);
        return JSON.createObjectNode();
    }

    private ObjectNode close(JsonNode r) throws DutException {
        QueuePair qp = qp(r);
        if (r.path("abort").asBoolean(false)) qp.abort();
        else qp.close();
        return JSON.createObjectNode();
    }

    // ---------------------------------------------------------------- helpers

    private ConnectionSettings settings(JsonNode r, ConnectionSettings base) throws DutException {
        ConnectionSettings s = base.withPd(pd(r, base.pd()));
        JsonNode recv = r.path("recv");
        if (!recv.isMissingNode()) {
            int length = Values.integer(recv, "length", 0, 0, Integer.MAX_VALUE);
            if (length > rnic.config().limits().maxMrSize()) {
                throw new DutException("resource-limit", "a receive buffer of " + length + " octets exceeds the "
                        + rnic.config().limits().maxMrSize() + "-octet cap");
            }
            s = s.withRecv(Values.integer(recv, "count", 0, 0, rnic.config().limits().maxRecvWr()), length);
        }
        // posted for each connection: at once over the memory cap is refused now rather than at each connection
        if ((long) s.recvCount() * s.recvLength() > rnic.config().limits().maxMemory()) {
            throw new DutException("resource-limit", s.recvCount() + " receives of " + s.recvLength() + " octets"
                    + " exceed the DUT's " + rnic.config().limits().maxMemory() + "-octet memory cap");
        }
        int max = rnic.config().limits().maxIrdOrd();
        s = s.withIrdOrd(Values.integer(r, "ird", s.ird(), 0, max), Values.integer(r, "ord", s.ord(), 0, max));
        byte[] pd = Values.bytes(r, "private_data");
        if (pd != null) {
            if (pd.length > MpaStartFrame.MAX_PRIVATE_DATA - MpaStartFrame.Enhanced.LENGTH) {
                throw new DutException("resource-limit", "private data of " + pd.length + " octets exceeds "
                        + (MpaStartFrame.MAX_PRIVATE_DATA - MpaStartFrame.Enhanced.LENGTH));
            }
            s = s.withPrivateData(pd);
        }
        if (r.has("reject")) s = s.withReject(r.path("reject").asBoolean());
        JsonNode m = r.path("mpa");
        if (m.isObject()) {
            Set<RnicConfig.Rtr> rtr = null;
            if (m.has("rtr")) {
                rtr = EnumSet.noneOf(RnicConfig.Rtr.class);
                for (JsonNode t : m.path("rtr")) rtr.add(RnicConfig.Rtr.byWireName(t.asText()));
            }
            Integer rev = m.has("rev") ? Values.integer(m, "rev", 2, 1, 2) : null;
            s = s.withMpa(new ConnectionSettings.MpaChoices(rev,
                    m.has("crc") ? m.path("crc").asBoolean() : null,
                    m.has("markers") ? m.path("markers").asBoolean() : null,
                    m.has("p2p") ? Boolean.valueOf(m.path("p2p").asBoolean())
                            : rtr != null ? Boolean.valueOf(!rtr.isEmpty()) : null, rtr));
        }
        return s;
    }

    private ProtectionDomain pd(JsonNode r) throws DutException {
        return pd(r, rnic.defaultPd());
    }

    private ProtectionDomain pd(JsonNode r, ProtectionDomain dflt) throws DutException {
        if (!r.hasNonNull("pd")) return dflt;
        ProtectionDomain pd = pds.get(Values.integer(r, "pd", 0, 0, Integer.MAX_VALUE));
        if (pd == null) throw new DutException("not-found", "no protection domain " + r.get("pd"));
        return pd;
    }

    private QueuePair qp(JsonNode r) throws DutException {
        return rnic.qp(Values.required(r, "qp", 0, Integer.MAX_VALUE));
    }

    private MemoryRegion mr(JsonNode r) throws DutException {
        return rnic.memory().byId(Values.required(r, "mr", 0, Integer.MAX_VALUE));
    }

    private static MemoryRegion need(MemoryRegion mr, String what) throws DutException {
        if (mr == null) throw DutException.bad("\"" + what + "\" with an \"mr\" is required");
        return mr;
    }

    private static ObjectNode listenerInfo(RnicListener l) {
        ObjectNode o = JSON.createObjectNode();
        o.put("listener", l.id());
        o.put("host", l.address().getAddress().getHostAddress());
        o.put("port", l.port());
        o.put("accept", l.manual() ? "manual" : "auto");
        return o;
    }

    static ObjectNode qpInfo(QueuePair qp) {
        ObjectNode o = JSON.createObjectNode();
        o.put("qp", qp.qpn());
        o.put("local", addr(qp.link().local()));
        o.put("peer", addr(qp.link().remote()));
        o.put("state", qp.state().wireName());
        if (qp.failure() != null) o.put("detail", qp.failure());
        MpaSetup.Params p = qp.params();
        if (p != null) {
            ObjectNode m = o.putObject("mpa");
            m.put("rev", p.revision());
            m.put("crc", p.crc());
            m.put("markers_rx", p.markersRx());
            m.put("markers_tx", p.markersTx());
            m.put("ird", p.ird());
            m.put("ord", p.ord());
            if (p.rtr() != null) m.put("rtr", p.rtr().wireName());
            MpaStartFrame peer = qp.peerStartFrame();
            if (peer != null) m.put("private_data", Values.hex(peer.ulpPrivateData()));
        }
        return o;
    }

    private static String addr(InetSocketAddress a) {
        return a.getAddress().getHostAddress() + ":" + a.getPort();
    }

    /** Whether queue pair {@code qpn} is this session's (one destroyed is nobody's). */
    private boolean mine(int qpn) {
        try {
            return ledger.owns(this, rnic.qp(qpn));
        } catch (RnicException gone) {
            return false;
        }
    }

    private void reset() {
        if (!ledger.alone(this)) {
            resetOwn();
            return;
        }
        ledger.forget(this);
        rnic.reset(startup.keySet());
        for (Map.Entry<Integer, ConnectionSettings> e : startup.entrySet()) {
            try {
                rnic.listener(e.getKey()).settings(e.getValue());
                rnic.listener(e.getKey()).manual(startupManual.get(e.getKey()));
            } catch (RnicException gone) {
                // a startup listener that failed stays gone
            }
        }
        mrs.clear();
        pds.keySet().retainAll(Set.of(0));
    }

    /** The reset of a session served alongside others: only its listeners, queue pairs and regions. */
    private void resetOwn() {
        Set<Integer> listeners = ledger.listenersOf(this);
        Set<Integer> destroyed = new HashSet<>();
        for (QueuePair qp : rnic.qps()) {
            if (ledger.owns(this, qp)) {
                rnic.destroy(qp);
                destroyed.add(qp.qpn());
            }
        }
        for (RnicListener l : rnic.listeners()) {
            if (!listeners.contains(l.id())) continue;
            if (startup.containsKey(l.id())) {
                l.forgetPending();
                l.settings(startup.get(l.id()));
                l.manual(startupManual.get(l.id()));
            } else {
                rnic.closeListener(l);
            }
        }
        for (int id : mrs) {
            try {
                rnic.deregister(rnic.memory().byId(id));
            } catch (RnicException gone) {
                // deregistered already
            }
        }
        rnic.events().drop(destroyed::contains);
        ledger.forget(this);
        mrs.clear();
        pds.keySet().retainAll(Set.of(0));
    }

    @Override
    public void close() {
        reset();
        ledger.leave(this);
    }

    /** Ids of what the session still holds (for tests). */
    List<Integer> regions() {
        return new ArrayList<>(mrs);
    }

    static Set<Integer> ids(List<RnicListener> ls) {
        Set<Integer> s = new HashSet<>();
        for (RnicListener l : ls) s.add(l.id());
        return s;
    }
}
