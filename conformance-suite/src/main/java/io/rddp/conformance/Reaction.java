package io.rddp.conformance;

import io.rddp.sink.ErrorType;

/**
 * One reaction of the DUT a scenario accepts, with why (h2spec lists every reaction the RFC allows, not one).
 *
 * @param kind   what the DUT does
 * @param layer  Terminate Layer (TERMINATE only)
 * @param etype  Terminate EType (TERMINATE only)
 * @param code   Terminate Error Code, or -1 for any code of that Layer/EType
 * @param grade  STRICT: the RFC's own answer; LENIENT: an alternative the RFC can be read to allow
 * @param reason why it is acceptable, citing the RFC
 */
public record Reaction(Kind kind, int layer, int etype, int code, Grade grade, String reason) {

    public enum Kind {
        /** a Terminate of the given type, then the connection closed */
        TERMINATE,
        /** the connection closed (FIN or RST) without a Terminate */
        CLOSE,
        /**
         * the connection closed and the DUT sent nothing after the tester's MPA start frame: no MPA Reply (DUT
         * passive), no FPDU, no Terminate (RFC 5044 §7.1.2: an improperly formatted startup frame closes the
         * connection)
         */
        SILENT_CLOSE,
        /** an MPA Reply with R = 1 (RFC 5044 §7.1.1), then the connection closed */
        REJECT,
        /** no Terminate and no close: the DUT went on (the scenario's own checks decide the rest) */
        CONTINUE,
        /**
         * an RPC-over-RDMA answer to the tester's message, {@link RpcReaction} number {@code code} (rpcrdma profile):
         * what the scenario saw come back, or that nothing did
         */
        RPC
    }

    public enum Grade { STRICT, LENIENT }

    public static Reaction rpc(RpcReaction r, Grade g, String reason) {
        return new Reaction(Kind.RPC, 0, 0, r.ordinal(), g, reason);
    }

    /** The RPC-over-RDMA answer of an {@link Kind#RPC} reaction, else null. */
    public RpcReaction rpc() {
        return kind == Kind.RPC ? RpcReaction.values()[code] : null;
    }

    public static Reaction terminate(ErrorType t, Grade g, String reason) {
        return new Reaction(Kind.TERMINATE, t.layer(), t.etype(), t.code(), g, reason);
    }

    public boolean matches(ErrorType t) {
        return kind == Kind.TERMINATE && t.layer() == layer && t.etype() == etype
                && (code < 0 || code == t.code() || t.isCatastrophic());
    }

    /** "Terminate 1/2/3 (DDP Untagged Buffer Error: ...)", "close without a Terminate", ... */
    public String describe() {
        return switch (kind) {
            case TERMINATE -> "Terminate " + (code < 0 ? layer + "/" + etype + "/*"
                    : new ErrorType(layer, etype, code).toString());
            case CLOSE -> "close without a Terminate";
            case SILENT_CLOSE -> "close without an MPA Reply or any FPDU";
            case REJECT -> "MPA Reply with R = 1";
            case CONTINUE -> "no Terminate, connection goes on";
            case RPC -> rpc().describe();
        };
    }

    @Override
    public String toString() {
        return describe() + " [" + grade.name().toLowerCase(java.util.Locale.ROOT) + ": " + reason + "]";
    }
}
