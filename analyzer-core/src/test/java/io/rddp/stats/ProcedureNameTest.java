package io.rddp.stats;

import io.rddp.oncrpc.RpcNames;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ProcedureNameTest {

    @Test
    void programsTheAnalyzerNamesKeepItsNames() {
        assertThat(ProcedureName.of(RpcNames.NFS, 3, 6, List.of())).isEqualTo("NFSv3 READ");
        assertThat(ProcedureName.of(RpcNames.NFS, 3, 0, List.of())).isEqualTo("NFSv3 NULL");
        assertThat(ProcedureName.of(RpcNames.MOUNT, 3, 1, List.of())).isEqualTo("MOUNT v3 MNT");
        assertThat(ProcedureName.of(RpcNames.NLM, 4, 2, List.of())).isEqualTo("NLM v4 LOCK");
        assertThat(ProcedureName.of(RpcNames.NFS, 4, 0, List.of())).isEqualTo("NFSv4 NULL");
    }

    @Test
    void anythingElseIsItsProgramVersionAndProcedureNumbers() {
        assertThat(ProcedureName.of(400123, 1, 7, List.of())).isEqualTo("prog 400123 vers 1 proc 7");
        // a program we know with a procedure it does not define
        assertThat(ProcedureName.of(RpcNames.NFS, 3, 99, List.of())).isEqualTo("prog 100003 vers 3 proc 99");
    }

    @Test
    void aCompoundIsNamedByItsFirstOperationPastSequenceAndPutfh() {
        assertThat(ProcedureName.of(RpcNames.NFS, 4, 1, List.of("SEQUENCE", "PUTFH", "READ", "GETATTR")))
                .isEqualTo("NFSv4 COMPOUND READ");
        assertThat(ProcedureName.of(RpcNames.NFS, 4, 1, List.of("PUTFH", "GETATTR"))).isEqualTo("NFSv4 COMPOUND GETATTR");
        assertThat(ProcedureName.of(RpcNames.NFS, 4, 1, List.of("EXCHANGE_ID"))).isEqualTo("NFSv4 COMPOUND EXCHANGE_ID");
        // only SEQUENCE (a lease renewal): then that is what it is for
        assertThat(ProcedureName.of(RpcNames.NFS, 4, 1, List.of("SEQUENCE"))).isEqualTo("NFSv4 COMPOUND SEQUENCE");
        assertThat(ProcedureName.of(RpcNames.NFS, 4, 1, List.of())).isEqualTo("NFSv4 COMPOUND");
    }
}
