package io.rddp.cli;

final class Times {
    private Times() {
    }

    /** Nanoseconds as seconds with 6 decimals, like tshark's relative time column. */
    static String seconds(long nanos) {
        long micros = Math.floorDiv(nanos + (nanos >= 0 ? 500 : -500), 1000);
        String frac = Long.toString(Math.abs(micros % 1_000_000) + 1_000_000).substring(1);
        long whole = micros / 1_000_000;
        return (micros < 0 && whole == 0 ? "-" : "") + whole + "." + frac;
    }
}
