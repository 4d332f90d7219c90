package io.rddp.sink;

/** The protocol layer a {@link Check} belongs to. */
public enum Layer {
    /** RFC 5044, RFC 6581 */
    MPA,
    /** RFC 5041 */
    DDP,
    /** RFC 5040, RFC 7306 */
    RDMAP,
    /** RFC 8166: RPC-over-RDMA version 1 */
    RPCRDMA,
    /** RFC 5042 §6: attacks from remote peers, as far as the wire shows them */
    SECURITY
}
