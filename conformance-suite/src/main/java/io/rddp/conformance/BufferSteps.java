package io.rddp.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rddp.sink.StagRegistration;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.rddp.conformance.StepValues.expected;
import static io.rddp.conformance.StepValues.fail;
import static io.rddp.conformance.StepValues.pattern;
import static io.rddp.conformance.StepValues.snippet;

/**
 * The scenario's memory (RFC 5042): DUT buffers of their own (other protection domains, other rights), the
 * tester's own advertised buffer, the octets the scenario may change, and DUT memory read back through the control
 * channel.
 */
final class BufferSteps {

    /** Octets of memory read back per control call (a response line stays far under 1 MiB of hex). */
    private static final int MEM_CHUNK = 256 * 1024;
    private static final String DEFAULT_FILL = Setup.CANARY;

    private BufferSteps() {
    }

    /**
     * Registers the scenario's {@code buffers:} on the DUT (agent profile): {@code {name, length, access, pd, fill}};
     * {@code pd: 0} (default) is the connection's domain, any other label a domain of its own (alloc_pd), shared by
     * the buffers with the same label.
     */
    static void registerBuffers(ScenarioRun r) throws Exception {
        JsonNode list = r.spec().path("buffers");
        if (list.size() == 0) return;
        AgentDut agent = r.ctx().agent();
        Map<String, Integer> pds = new HashMap<>();
        for (JsonNode b : list) {
            String name = b.path("name").asText();
            if (name.isEmpty() || name.equals("dut") || name.equals("tester") || r.hasBuffer(name)) {
                throw new IllegalArgumentException("buffer name \"" + name + "\" is missing, reserved or repeated");
            }
            String pdLabel = b.path("pd").asText("0");
            int pd = 0;
            if (!pdLabel.equals("0")) {
                Integer known = pds.get(pdLabel);
                if (known == null) {
                    known = agent.control().call("alloc_pd").path("pd").asInt();
                    pds.put(pdLabel, known);
                }
                pd = known;
            }
            String fill = b.path("fill").asText(DEFAULT_FILL);
            ObjectNode reg = ControlClient.request("register").put("length", b.path("length").asInt(4096))
                    .put("fill", fill);
            var access = reg.putArray("access").add("local_write");
            Set<String> rights = new java.util.HashSet<>();
            for (JsonNode x : b.path("access")) {
                access.add(x.asText());
                rights.add(x.asText());
            }
            if (pd != 0) reg.put("pd", pd);
            JsonNode mr = agent.control().call(reg);
            long to = Long.parseUnsignedLong(mr.path("to").asText().substring(2), 16);
            NamedBuffer n = new NamedBuffer(name, mr.path("stag").asLong(), to, mr.path("length").asInt(),
                    mr.path("mr").asInt(), pd != 0, HexFormat.of().parseHex(fill));
            r.addBuffer(n);
            if (n.otherDomain()) r.conn().dutStagOtherDomain(n.stag(), n.to(), n.length(), AgentDut.rights(rights));
            else r.conn().dutStag(n.stag(), n.to(), n.length(), AgentDut.rights(rights));
        }
    }

    private static NamedBuffer buffer(ScenarioRun r, JsonNode a) {
        String name = a.path("buffer").asText("dut");
        NamedBuffer n = r.named(name);
        if (n == null) throw new IllegalArgumentException("no buffer \"" + name + "\" in this scenario");
        return n;
    }

    /** The tester's own buffer, advertised to the DUT's ULP by the scenario: DUT Writes, Reads and Atomics aim at it. */
    static void testerBuffer(ScenarioRun r, JsonNode a) {
        int length = (int) r.value(a, "length", 4096);
        long stag = r.value(a, "stag", 0x7E57_0010L);
        long to = r.value(a, "to", 0x40_0000L);
        byte[] data = a.has("data") ? HexFormat.of().parseHex(a.path("data").asText()) : pattern(length);
        byte[] testerData = Arrays.copyOf(data, length);
        Set<StagRegistration.Access> rights = EnumSet.noneOf(StagRegistration.Access.class);
        if (a.has("access")) {
            for (JsonNode x : a.path("access")) rights.add(StagRegistration.Access.valueOf(x.asText().toUpperCase(
                    java.util.Locale.ROOT).replace("REMOTE_", "")));
        } else {
            rights.addAll(EnumSet.allOf(StagRegistration.Access.class));
        }
        r.testerBuffer(new NamedBuffer("tester", stag, to, length, -1, false, testerData), testerData);
        r.conn().testerStag(stag, to, length, rights);
    }

    /** Octets of the DUT buffer the scenario may change (the canary check). */
    static void allowPlacement(ScenarioRun r, JsonNode a) {
        r.ctx().allowPlacement(r.value(a, "offset", 0), r.value(a, "length", 0));
    }

    /**
     * DUT memory (agent): {@code buffer} (default the scenario's), {@code offset}, and {@code data} (hex),
     * {@code pattern} (n octets of the standard payload), {@code u64} (a 64-bit value in the DUT's atomic byte order),
     * or {@code canary: true} (the whole buffer still holds its fill, except {@code allow: [[offset, length], ...]}).
     */
    static void checkMem(ScenarioRun r, JsonNode a) throws Exception {
        AgentDut agent = r.ctx().agent();
        NamedBuffer b = buffer(r, a);
        if (b.mr() < 0) throw new IllegalArgumentException("check-mem reads DUT buffers only");
        long offset = r.value(a, "offset", 0);
        if (a.path("canary").asBoolean(false)) {
            List<long[]> allow = new ArrayList<>();
            for (JsonNode range : a.path("allow")) allow.add(new long[]{range.get(0).asLong(), range.get(0).asLong()
                    + range.get(1).asLong()});
            byte[] mem = read(agent, b, 0, b.length());
            long bad = 0, first = -1, last = -1;
            for (int i = 0; i < mem.length; i++) {
                boolean allowed = false;
                for (long[] range : allow) allowed |= i >= range[0] && i < range[1];
                if (allowed || mem[i] == b.fill()[i % b.fill().length]) continue;
                bad++;
                if (first < 0) first = i;
                last = i;
            }
            if (bad > 0) {
                fail(bad + " octets of buffer " + b.name() + " changed, offsets " + first + " to " + last
                        + ", where nothing may be placed");
            }
            r.compared("buffer " + b.name() + " read back: its fill intact (" + ScenarioRun.size(b.length())
                    + (allow.isEmpty() ? "" : ", allowed ranges aside") + ")");
            return;
        }
        byte[] want;
        if (a.has("u64")) {
            long v = r.value(a, "u64", 0);
            ByteBuffer bb = ByteBuffer.allocate(8);
            if (!agent.bigEndianAtomics()) bb.order(java.nio.ByteOrder.LITTLE_ENDIAN);
            want = bb.putLong(v).array();
        } else {
            want = expected(r, a);
            if (want == null) throw new IllegalArgumentException("check-mem needs data, pattern, u64 or canary");
        }
        byte[] got = read(agent, b, (int) offset, want.length);
        if (!Arrays.equals(got, want)) {
            int at = 0;
            while (at < want.length && got[at] == want[at]) at++;
            fail("buffer " + b.name() + " holds " + snippet(got, at) + " at offset " + (offset + at) + " where "
                    + snippet(want, at) + " was expected (" + want.length + " octets compared)");
        }
        r.compared("buffer " + b.name() + " at offset " + offset + ": " + ScenarioRun.size(want.length)
                + " read back, equal");
    }

    static byte[] read(AgentDut agent, NamedBuffer b, int offset, int length) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream(length);
        for (int off = 0; off < length; off += MEM_CHUNK) {
            int n = Math.min(MEM_CHUNK, length - off);
            out.writeBytes(HexFormat.of().parseHex(agent.control().call(ControlClient.request("read_mem")
                    .put("mr", b.mr()).put("offset", offset + off).put("length", n)).path("data").asText()));
        }
        return out.toByteArray();
    }
}
