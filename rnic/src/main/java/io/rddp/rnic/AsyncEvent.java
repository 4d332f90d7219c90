package io.rddp.rnic;

import io.rddp.sink.ErrorType;

/**
 * Something that happened to a queue pair outside any work request (libibverbs' async events and rdma_cm's
 * connection events, under the DUT control protocol's names).
 *
 * @param type     the event
 * @param qp       queue pair number, or -1
 * @param terminate Layer/EType/Code of a Terminate sent or received, else null
 * @param detail   in words
 */
public record AsyncEvent(Type type, int qp, ErrorType terminate, String detail) {

    public enum Type {
        ESTABLISHED("established"), DISCONNECTED("disconnected"), RESET("reset"), TERMINATE_SENT("terminate_sent"),
        TERMINATE_RECEIVED("terminate_received"), QP_FATAL("qp_fatal"), QP_ACCESS_ERR("qp_access_err"),
        QP_REQ_ERR("qp_req_err"), CONNECT_ERROR("connect_error"), REJECTED("rejected"),
        RESOURCE_LIMIT("resource_limit");

        private final String wireName;

        Type(String wireName) {
            this.wireName = wireName;
        }

        public String wireName() {
            return wireName;
        }
    }

    @Override
    public String toString() {
        return type.wireName() + (qp >= 0 ? " qp " + qp : "") + (terminate != null ? " " + terminate : "") + ": "
                + detail;
    }
}
