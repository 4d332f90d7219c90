/**
 * Reading and writing capture files: the lowest layer of rddp.
 *
 * <p>{@link io.rddp.capture.CaptureReaders#open(java.nio.file.Path)} tells pcap, pcapng and gzip of either from the
 * content and returns a {@link io.rddp.capture.CaptureReader} that refills one {@link io.rddp.capture.Frame}
 * flyweight per call. Plain files are read in windows that move along the file, so files far larger than RAM are
 * read with constant memory, and frame data are views of the window. Every malformed or truncated spot ends
 * the read with a {@link io.rddp.capture.CaptureException} naming its file offset and frame number, after all frames
 * before it.
 *
 * <p>{@link io.rddp.capture.PcapWriter} and {@link io.rddp.capture.PcapngWriter} write what the encoder generates and
 * copy frames with added comments ({@link io.rddp.capture.CaptureWriter#writeFrame(Frame, String)}).
 *
 * <p>Formats: draft-ietf-opsawg-pcap (pcap) and draft-ietf-opsawg-pcapng (pcapng); where the drafts leave room,
 * the reader does what tshark 4.0 does, so that frame numbers and timestamps match tshark's.
 */
package io.rddp.capture;
