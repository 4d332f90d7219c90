package io.rddp.rnic;

import io.rddp.sink.StagRegistration;

import java.util.EnumSet;
import java.util.Set;

/** Access rights of a memory registration, as libibverbs names them (RFC 5040 §3.2, RFC 7306 §5 for atomics). */
public enum Access {
    LOCAL_WRITE("local_write"),
    REMOTE_READ("remote_read"),
    REMOTE_WRITE("remote_write"),
    REMOTE_ATOMIC("remote_atomic");

    private final String wireName;

    Access(String wireName) {
        this.wireName = wireName;
    }

    /** The name the DUT control protocol uses. */
    public String wireName() {
        return wireName;
    }

    public static Access byWireName(String name) {
        for (Access a : values()) if (a.wireName.equals(name)) return a;
        throw new IllegalArgumentException("unknown access right \"" + name + "\" (known: local_write, remote_read,"
                + " remote_write, remote_atomic)");
    }

    /** The remote rights as the sink model names them. */
    static Set<StagRegistration.Access> remote(Set<Access> rights) {
        Set<StagRegistration.Access> out = EnumSet.noneOf(StagRegistration.Access.class);
        if (rights.contains(REMOTE_READ)) out.add(StagRegistration.Access.READ);
        if (rights.contains(REMOTE_WRITE)) out.add(StagRegistration.Access.WRITE);
        if (rights.contains(REMOTE_ATOMIC)) out.add(StagRegistration.Access.ATOMIC);
        return out;
    }
}
