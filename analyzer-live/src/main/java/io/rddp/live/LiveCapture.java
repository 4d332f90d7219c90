package io.rddp.live;

import io.rddp.capture.CaptureReader;
import io.rddp.capture.CaptureWriter;
import io.rddp.capture.Frame;
import org.pcap4j.core.BpfProgram;
import org.pcap4j.core.NotOpenException;
import org.pcap4j.core.PcapHandle;
import org.pcap4j.core.PcapNativeException;
import org.pcap4j.core.PcapNetworkInterface;
import org.pcap4j.core.Pcaps;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeoutException;

/**
 * Frames of a network interface as they arrive, as a {@link CaptureReader}: the decode pipeline and the analyzer
 * run on it exactly as on a file. Built on pcap4j 1.8.2 over the system's libpcap.
 * <p>
 * Measured here with pcap4j 1.8.2 and libpcap 1.10.3 on the loopback interface: in immediate mode the handle lost
 * frames (17 to 33 of the 70 a replayed rping connection sends, where tcpdump saw all 70), and a read on an idle
 * interface never returned after its timeout. So the handle is opened in buffered mode with a {@link #POLL_MILLIS}
 * ms timeout (the kernel hands over a block of frames when it fills or after that time: all 70 frames, at most
 * that much late), and nothing relies on the read timeout: {@link #stop()} and the end of {@code --duration} use
 * {@code pcap_breakloop}, which since libpcap 1.10 wakes a blocked read at once; after it the frames already
 * captured are still read, without blocking. {@link #stop()} may be called from
 * any thread; the thread that reads calls {@link #close()} after {@code next} returned false (the handle is closed
 * only then, never under a read).
 */
public final class LiveCapture implements CaptureReader {
    /** The read timeout asked of libpcap: the longest a captured frame waits in the kernel (see the class comment). */
    public static final int POLL_MILLIS = 100;
    /** Frames are captured whole up to this length. */
    public static final int SNAPLEN = 262144;

    /** What to capture and when to stop (0 for count or duration: no limit). */
    public record Options(String device, String bpf, long maxFrames, long durationMillis) {
    }

    /** A network interface libpcap offers. */
    public record Device(String name, String description, List<String> addresses, boolean loopback, boolean up) {
        @Override
        public String toString() {
            return name + (description != null ? " (" + description + ")" : "")
                    + (addresses.isEmpty() ? "" : " " + String.join(", ", addresses));
        }
    }

    private final PcapHandle handle;
    private final Options options;
    private final int linkType;
    private final long started = System.nanoTime();
    private volatile boolean stopped;
    private boolean draining;
    private int drainEmpty;
    private long count;
    private long bytes;
    private CaptureWriter tee;

    private LiveCapture(PcapHandle handle, Options options) {
        this.handle = handle;
        this.options = options;
        this.linkType = handle.getDlt().value();
        if (options.durationMillis() > 0) {
            Thread timer = new Thread(() -> {
                try {
                    Thread.sleep(options.durationMillis());
                    stop();
                } catch (InterruptedException e) {
                    // closed before the end
                }
            }, "rddp-capture-duration");
            timer.setDaemon(true);
            timer.start();
            this.timer = timer;
        } else {
            this.timer = null;
        }
    }

    private final Thread timer;

    /** Opens the device and applies the BPF filter; the error says in plain words why it could not. */
    public static LiveCapture open(Options options) throws LiveCaptureException {
        PcapHandle handle;
        try {
            handle = new PcapHandle.Builder(options.device())
                    .snaplen(SNAPLEN)
                    .promiscuousMode(PcapNetworkInterface.PromiscuousMode.NONPROMISCUOUS)
                    .timeoutMillis(POLL_MILLIS)
                    .timestampPrecision(PcapHandle.TimestampPrecision.NANO)
                    .build();
        } catch (PcapNativeException e) {
            throw explain(options.device(), e);
        } catch (UnsatisfiedLinkError | NoClassDefFoundError e) {
            throw noLibpcap(e);
        } catch (IllegalArgumentException e) {
            // libpcap without nanosecond timestamps for this device: microseconds then
            try {
                handle = new PcapHandle.Builder(options.device()).snaplen(SNAPLEN)
                        .promiscuousMode(PcapNetworkInterface.PromiscuousMode.NONPROMISCUOUS)
                        .timeoutMillis(POLL_MILLIS).build();
            } catch (PcapNativeException e2) {
                throw explain(options.device(), e2);
            }
        }
        if (options.bpf() != null && !options.bpf().isBlank()) {
            try {
                handle.setFilter(options.bpf(), BpfProgram.BpfCompileMode.OPTIMIZE);
            } catch (PcapNativeException | NotOpenException e) {
                handle.close();
                throw new LiveCaptureException("capture filter '" + options.bpf() + "' is not valid BPF: "
                        + e.getMessage(), e);
            }
        }
        return new LiveCapture(handle, options);
    }

    /** The interfaces libpcap can capture on (what `tcpdump -D` lists). */
    public static List<Device> devices() throws LiveCaptureException {
        List<Device> out = new ArrayList<>();
        try {
            for (PcapNetworkInterface nif : Pcaps.findAllDevs()) {
                List<String> addresses = new ArrayList<>();
                nif.getAddresses().forEach(a -> {
                    if (a.getAddress() != null) addresses.add(a.getAddress().getHostAddress());
                });
                out.add(new Device(nif.getName(), nif.getDescription(), addresses, nif.isLoopBack(), nif.isUp()));
            }
        } catch (PcapNativeException e) {
            throw new LiveCaptureException("cannot list the network interfaces: " + e.getMessage(), e);
        } catch (UnsatisfiedLinkError | NoClassDefFoundError e) {
            throw noLibpcap(e);
        }
        return out;
    }

    /** Also writes every captured frame to {@code writer} (the GUI's temporary file, the CLI's --annotate). */
    public LiveCapture tee(CaptureWriter writer) {
        this.tee = writer;
        return this;
    }

    /** Makes a blocked or later {@link #next} return false (through pcap_breakloop). Any thread. */
    public void stop() {
        stopped = true;
        try {
            handle.breakLoop();
        } catch (NotOpenException e) {
            // already closed: nothing to wake
        }
    }

    public boolean stopped() {
        return stopped;
    }

    public long frames() {
        return count;
    }

    public String device() {
        return options.device();
    }

    @Override
    public boolean next(Frame frame) throws IOException {
        while (true) {
            if (options.maxFrames() > 0 && count >= options.maxFrames()) return end();
            if (stopped && !draining) startDraining();
            byte[] raw;
            try {
                raw = handle.getNextRawPacketEx();
            } catch (TimeoutException e) {
                if (draining) {
                    // nothing more now; the kernel hands over its last, partly filled block after POLL_MILLIS
                    if (drainEmpty++ > 0) return end();
                    sleep(POLL_MILLIS + 50);
                }
                continue; // the read timeout fired: look at the stop flag again
            } catch (EOFException e) {
                // pcap_breakloop (stop, duration): what the kernel buffered before it is still read
                if (!stopped) return end();
                startDraining();
                continue;
            } catch (PcapNativeException | NotOpenException e) {
                if (stopped) return end();
                throw new LiveCaptureException("capture on " + options.device() + " failed: " + e.getMessage(), e);
            }
            Timestamp t = handle.getTimestamp();
            Integer original = handle.getOriginalLength();
            frame.number = ++count;
            frame.timestampNanos = t.getTime() / 1000 * 1_000_000_000L + t.getNanos();
            frame.linkType = linkType;
            frame.originalLength = original == null ? raw.length : Math.max(original, raw.length);
            frame.fileOffset = bytes;
            frame.interfaceId = 0;
            frame.data = ByteBuffer.wrap(raw);
            frame.comment = null;
            bytes += raw.length;
            if (tee != null) tee.writeFrame(frame, null);
            return true;
        }
    }

    /** After stop: read on without blocking until the frames captured before it are all handed out. */
    private void startDraining() throws LiveCaptureException {
        draining = true;
        try {
            handle.setBlockingMode(PcapHandle.BlockingMode.NONBLOCKING);
        } catch (PcapNativeException | NotOpenException e) {
            throw new LiveCaptureException("cannot read the last frames on " + options.device() + ": "
                    + e.getMessage(), e);
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private boolean end() throws IOException {
        if (tee != null) tee.flush();
        return false;
    }

    /** Captured bytes so far. */
    @Override
    public long bytesRead() {
        return bytes;
    }

    @Override
    public long size() {
        return -1;
    }

    @Override
    public String format() {
        return "live";
    }

    @Override
    public void close() {
        stopped = true;
        if (timer != null) timer.interrupt();
        handle.close();
    }

    /** libpcap's words turned into what the user can do about them. */
    static LiveCaptureException explain(String device, PcapNativeException e) {
        String m = String.valueOf(e.getMessage());
        if (m.contains("ermission") || m.contains("Operation not permitted")) {
            return new LiveCaptureException("no permission to capture on " + device + ": capturing needs the"
                    + " CAP_NET_RAW and CAP_NET_ADMIN capabilities. Run rddp as root, or let a small capture program"
                    + " that has them capture and pipe its output in, e.g. 'dumpcap -i " + device
                    + " -w - | rddp analyze -' (Debian: dpkg-reconfigure wireshark-common, then add yourself to"
                    + " the wireshark group; or setcap cap_net_raw,cap_net_admin=eip /usr/bin/dumpcap). Never"
                    + " setcap the java binary: every Java program would then capture. (libpcap: " + m + ")", e);
        }
        if (m.contains("No such device") || m.contains("doesn't exist") || m.contains("No such")) {
            return new LiveCaptureException("no network interface called '" + device + "' (libpcap: " + m
                    + "); 'rddp decode --list-interfaces' lists them", e);
        }
        return new LiveCaptureException("cannot capture on " + device + ": " + m, e);
    }

    private static LiveCaptureException noLibpcap(Throwable e) {
        return new LiveCaptureException("libpcap is not installed (live capture loads it at run time): install it,"
                + " e.g. apt-get install libpcap0.8 (" + e.getMessage() + ")", e);
    }
}
