package io.rddp.stats;

import io.rddp.oncrpc.RpcMessage;
import io.rddp.oncrpc.RpcNames;

import java.util.List;

/**
 * The name {@code rddp stats} files a call under: the analyzer's name where it has one ("NFSv3 READ", "MOUNT v3
 * MNT", "NLM v4 LOCK"), an NFSv4 COMPOUND (RFC 7530 §16.2, RFC 8881 §18) with its first operation that is not
 * SEQUENCE or PUTFH ("NFSv4 COMPOUND READ": the operation that says what the COMPOUND is for), and otherwise the
 * numbers RFC 5531 §9 puts in the call ("prog 400123 vers 1 proc 7").
 */
final class ProcedureName {
    /** RFC 7530 §16.2 / RFC 8881 §18: NFSv4's second procedure. */
    private static final long COMPOUND = 1;

    private ProcedureName() {
    }

    /** The name of {@code call}'s procedure, or null when it is not a decoded call. */
    static String of(RpcMessage call) {
        if (call == null || !call.call()) return null;
        List<String> ops = call.ulp() == null ? List.of() : call.ulp().operations();
        return of(call.program(), call.version(), call.procedure(), ops);
    }

    static String of(long program, long version, long procedure, List<String> operations) {
        if (RpcNames.program(program) == null || RpcNames.procedure(program, version, procedure) == null) {
            return "prog " + program + " vers " + version + " proc " + procedure;
        }
        String name = RpcNames.describe(program, version, procedure);
        if (program == RpcNames.NFS && version == 4 && procedure == COMPOUND && !operations.isEmpty()) {
            String main = operations.stream().filter(o -> !o.equals("SEQUENCE") && !o.equals("PUTFH")).findFirst()
                    .orElse(operations.get(0));
            name += " " + main;
        }
        return name;
    }
}
