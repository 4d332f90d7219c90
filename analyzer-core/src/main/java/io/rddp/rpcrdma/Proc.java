package io.rddp.rpcrdma;

/** rdma_proc (RFC 8166 §4.2.4). */
public enum Proc {
    RDMA_MSG, RDMA_NOMSG, RDMA_MSGP, RDMA_DONE, RDMA_ERROR;

    /** The procedure, or null for a value RFC 8166 does not define. */
    public static Proc of(long value) {
        return value >= 0 && value < values().length ? values()[(int) value] : null;
    }
}
