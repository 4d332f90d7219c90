package io.rddp.conformance;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The keys of its catalogue entry a Java scenario reads, beyond those every entry has (id, title, requires, needs,
 * profiles, java, negative, expect, catches). Every Java scenario carries it, {@code @ScenarioKeys({})} when it reads
 * none: the loader refuses any other key, as it refuses an unknown key of a declarative scenario.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface ScenarioKeys {

    Key[] value();

    /** One key and the type of its value. */
    @Retention(RetentionPolicy.RUNTIME)
    @Target({})
    @interface Key {
        String name();

        Type type();
    }

    /** The value types a Java scenario's key may have. */
    enum Type { INT, BOOLEAN, TEXT, HEX, INT_LIST, TEXT_LIST }
}
