package io.rddp.rnic;

import java.util.Locale;

/** Work completion status, named as libibverbs' {@code ibv_wc_status} without its prefix. */
public enum WcStatus {
    SUCCESS, LOC_LEN_ERR, LOC_QP_OP_ERR, LOC_PROT_ERR, WR_FLUSH_ERR, LOC_ACCESS_ERR, REM_INV_REQ_ERR, REM_ACCESS_ERR,
    REM_OP_ERR, REM_ABORT_ERR, FATAL_ERR, GENERAL_ERR;

    /** "rem_access_err", as the DUT control protocol writes it. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
