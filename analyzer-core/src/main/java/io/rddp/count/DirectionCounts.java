package io.rddp.count;

import io.rddp.rdmap.Opcode;

import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What one side of a stream sent, per RDMAP opcode: the one counter type of the analyzer's stream summary, of
 * {@code rddp stats} and of the GUI's Streams pane. Immutable; counted by a {@link DirectionCounter}.
 *
 * @param opcodes one entry per opcode anything was counted for, in opcode order, {@link OpcodeCounts#UNDECODED}
 *                last
 */
public record DirectionCounts(List<OpcodeCounts> opcodes) {

    public static final DirectionCounts NONE = new DirectionCounts(List.of());

    public DirectionCounts {
        opcodes = List.copyOf(opcodes);
    }

    /** Messages of every opcode. */
    public long messages() {
        return opcodes.stream().mapToLong(OpcodeCounts::messages).sum();
    }

    /** Payload octets of every opcode. */
    public long payloadBytes() {
        return opcodes.stream().mapToLong(OpcodeCounts::payloadBytes).sum();
    }

    /** Messages per defined opcode with at least one, in opcode order (reserved opcodes are left out). */
    public Map<Opcode, Long> messagesByOpcode() {
        Map<Opcode, Long> m = new EnumMap<>(Opcode.class);
        for (OpcodeCounts o : opcodes) if (o.opcode() != null && o.messages() > 0) m.put(o.opcode(), o.messages());
        return Collections.unmodifiableMap(m);
    }

    /** Messages with a reserved opcode. */
    public long reservedMessages() {
        return opcodes.stream().filter(o -> o.code() >= 0 && o.opcode() == null).mapToLong(OpcodeCounts::messages)
                .sum();
    }

    /** "Send 10, Write 10": the messages per defined opcode, as the text report and the GUI show them. */
    public String messagesText() {
        return messagesByOpcode().entrySet().stream().map(e -> e.getKey().shortName() + " " + e.getValue())
                .collect(Collectors.joining(", "));
    }
}
