package io.rddp.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP server on loopback for tests that play a peer (a flooding, silent or hanging DUT, a relay): each connection is
 * handed to the handler on a daemon thread of its own; closing the server closes every socket it handed out or was
 * told about, so no test leaves a thread blocked in a read.
 */
public final class LoopbackServer implements AutoCloseable {
    /** What the server does with one accepted connection, on that connection's thread. */
    public interface Handler {
        void serve(Socket socket, LoopbackServer server) throws Exception;
    }

    private final ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final String name;
    private final Handler handler;

    public LoopbackServer(String name, Handler handler) throws IOException {
        this.name = name;
        this.handler = handler;
        Thread t = new Thread(this::accept, name + "-accept");
        t.setDaemon(true);
        t.start();
    }

    public InetSocketAddress address() {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort());
    }

    /** A socket the handler opened itself (a relay's backend connection), closed with the server. */
    public Socket track(Socket s) {
        sockets.add(s);
        return s;
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket s = track(server.accept());
                Thread t = new Thread(() -> {
                    try {
                        handler.serve(s, this);
                    } catch (Exception ignored) {
                        // the other side went away or the test closed the server: the connection ends here
                    }
                }, name);
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                return;
            }
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        for (Socket s : sockets) s.close();
    }
}
