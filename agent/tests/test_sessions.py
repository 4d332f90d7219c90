#!/usr/bin/env python3
"""Companion sessions of the agent (docs/dut-control.md, Sessions), over real loopback TCP, on a host without RDMA.

The agent's control server, authentication, tickets, ownership and resets run as they are; pyverbs and librdmacm
are fake_rdma.py's stand-in, so nothing here says anything about RDMA itself (smoke_test.py does, against siw).
Connections exist only as injected MPA Requests (fake_rdma.RDMACM.incoming), enough to give sessions queue pairs
and events of their own.

    python3 -m unittest discover -s agent/tests -v
"""
import os
import socket
import sys
import threading
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, ".."))
import fake_rdma  # noqa: E402
from smoke_test import Client  # noqa: E402

agent_mod = fake_rdma.load_agent()
SECRET = bytes(range(32))


def code(resp):
    return (resp or {}).get("error", {}).get("code")


def closed(c, within=5.0):
    """Whether the agent closed c's connection within the time (what it still sends is read and dropped)."""
    c.sock.settimeout(within)
    try:
        while c.rfile.readline():
            pass
        return True
    except (socket.timeout, TimeoutError):
        return False
    except OSError:
        return True


class Sessions(unittest.TestCase):
    def serve(self, sessions=4, secret=SECRET, takeover=30.0, idle=600.0, permanent=()):
        self.agent = agent_mod.Agent(None, {}, use_kmsg=False, max_memory=64 << 20)
        for port in permanent:
            self.agent.op_listen({"port": port, "host": "0.0.0.0", "accept": "auto"}, None, permanent=True)
        self.server = agent_mod.Server(self.agent, secret, 5.0, idle, takeover, lambda m: None, sessions)
        threading.Thread(target=self.server.serve, args=("127.0.0.1", 0), daemon=True).start()
        self.assertTrue(self.server.ready.wait(5))
        self.addr = f"127.0.0.1:{self.server.srv.getsockname()[1]}"
        self.secret = secret
        self.clients = []

    def tearDown(self):
        for c in getattr(self, "clients", []):
            c.close()
        if hasattr(self, "server"):
            self.server.stop()

    def client(self):
        c = Client("test", self.addr, self.secret)
        self.clients.append(c)
        return c

    def holder(self):
        h = self.client()
        r = h.hello()
        self.assertTrue(r.get("ok"), r)
        h.call("events", max=64)   # the stand-in's start-up notice (no async event file) is nobody's
        return h, r

    def companion(self, ticket):
        c = self.client()
        r = c.hello(join=ticket)
        self.assertTrue(r.get("ok"), r)
        return c, r

    # ---- hello, tickets, refusals

    def test_the_holder_gets_caps_sessions_and_a_ticket_and_a_companion_joins_with_it(self):
        self.serve(sessions=4)
        h, hello = self.holder()
        self.assertEqual(hello["auth"], "hmac-sha256")
        self.assertEqual(hello["caps"]["sessions"], 4)
        self.assertRegex(hello["ticket"], r"^[0-9a-f]{64}$")
        c, joined = self.companion(hello["ticket"])
        self.assertEqual(joined["auth"], "hmac-sha256")
        self.assertEqual(joined["caps"]["sessions"], 4)
        self.assertNotIn("ticket", joined)   # only a holder has one
        self.assertTrue(h.call("events", max=1)["ok"] and c.call("events", max=1)["ok"])

    def test_one_session_at_a_time_gives_no_ticket_and_refuses_any_join(self):
        self.serve(sessions=1)
        h, hello = self.holder()
        self.assertEqual(hello["caps"]["sessions"], 1)
        self.assertNotIn("ticket", hello)
        other = self.client()
        r = other.hello(join="00" * 32)
        self.assertEqual(code(r), "state", r)
        self.assertIn("1 sessions already", r["error"]["message"])
        self.assertTrue(closed(other))
        third = self.client()
        r = third.hello()
        self.assertEqual(code(r), "state", r)
        self.assertIn("one session at a time", r["error"]["message"])

    def test_a_wrong_ticket_or_one_session_too_many_is_refused_with_state_and_closed(self):
        self.serve(sessions=2)
        h, hello = self.holder()
        ticket = hello["ticket"]
        for wrong in ("00" + ticket[2:], ticket.upper(), "", 12345, ticket + "00"):
            c = self.client()
            r = c.hello(join=wrong)
            self.assertEqual(code(r), "state", (wrong, r))
            self.assertEqual(r["error"]["message"], "no session holds that ticket, or it has 2 sessions already")
            self.assertTrue(closed(c), wrong)
        self.companion(ticket)
        extra = self.client()
        r = extra.hello(join=ticket)
        self.assertEqual(code(r), "state", r)
        self.assertTrue(closed(extra))

    def test_a_stale_ticket_is_refused_and_a_new_holder_gets_a_new_one(self):
        self.serve(sessions=4)
        h, hello = self.holder()
        self.assertTrue(h.call("bye")["ok"])
        h2, hello2 = self.holder()
        self.assertNotEqual(hello["ticket"], hello2["ticket"])
        c = self.client()
        self.assertEqual(code(c.hello(join=hello["ticket"])), "state")

    def test_authentication_comes_before_the_ticket(self):
        self.serve(sessions=4)
        h, hello = self.holder()
        c = self.client()
        r = c.call("events", join=hello["ticket"])
        self.assertEqual(code(r), "unauthorized", r)
        r = c.hello(secret=bytes(32), join=hello["ticket"])   # the right ticket, the wrong token
        self.assertEqual(code(r), "unauthorized", r)
        self.assertTrue(closed(c))
        # the right token: in (the refused one took no place)
        self.companion(hello["ticket"])

    def test_without_a_token_the_first_hello_joins(self):
        self.serve(sessions=3, secret=None)
        h, hello = self.holder()
        self.assertEqual(hello["auth"], "none")
        c, joined = self.companion(hello["ticket"])
        self.assertEqual(joined["auth"], "none")

    # ---- ownership and resets

    def listen(self, c, port=0, **kw):
        return c.call("listen", port=port, host="0.0.0.0", recv={"count": 2, "length": 64}, **kw)

    def test_a_companion_resets_only_what_it_made(self):
        self.serve(sessions=4)
        h, hello = self.holder()
        c, _ = self.companion(hello["ticket"])
        hl = self.listen(h)
        hm = h.call("register", length=64, fill="aa")
        hp = h.call("alloc_pd")
        cl = self.listen(c)
        cm = c.call("register", length=64, fill="bb")
        cp = c.call("alloc_pd")
        self.assertTrue(all(x["ok"] for x in (hl, hm, hp, cl, cm, cp)))
        self.assertNotEqual(hp["pd"], cp["pd"])
        # another session's listener and protection domain are not the companion's to use
        r = self.listen(c, hl["port"])
        self.assertEqual(code(r), "state", r)
        self.assertEqual(r["error"]["message"], f"port {hl['port']} is another session's listener")
        self.assertEqual(code(c.call("register", length=64, pd=hp["pd"])), "not-found")
        self.assertEqual(code(self.listen(h, cl["port"])), "state")
        self.assertTrue(c.call("register", length=64, pd=cp["pd"])["ok"])

        self.assertTrue(c.call("reset")["ok"])

        self.assertEqual(h.call("read_mem", mr=hm["mr"], length=4)["data"], "aaaaaaaa")
        self.assertEqual(code(h.call("read_mem", mr=cm["mr"], length=4)), "not-found")
        ports = [l["port"] for l in h.call("hello", version=2)["listeners"]]
        self.assertIn(hl["port"], ports)
        self.assertNotIn(cl["port"], ports)
        self.assertTrue(h.call("register", length=64, pd=hp["pd"])["ok"])
        self.assertEqual(code(c.call("register", length=64, pd=cp["pd"])), "not-found")
        # the companion's port is free again: the holder may listen there now
        self.assertTrue(self.listen(h, cl["port"])["ok"])

        # while the companion is live the holder's reset is as narrow
        cm2 = c.call("register", length=64, fill="cc")
        self.assertTrue(h.call("reset")["ok"])
        self.assertEqual(c.call("read_mem", mr=cm2["mr"], length=4)["data"], "cccccccc")
        self.assertEqual(code(c.call("read_mem", mr=hm["mr"], length=4)), "not-found")

    def test_a_session_alone_resets_everything(self):
        self.serve(sessions=4)
        h, hello = self.holder()
        c, _ = self.companion(hello["ticket"])
        cm = c.call("register", length=64)
        hm = h.call("register", length=64)
        self.assertTrue(c.call("bye")["ok"])   # its own things go with it
        self.assertEqual(code(h.call("read_mem", mr=cm["mr"], length=1)), "not-found")
        self.assertTrue(h.call("read_mem", mr=hm["mr"], length=1)["ok"])
        self.assertTrue(h.call("reset")["ok"])
        self.assertEqual(code(h.call("read_mem", mr=hm["mr"], length=1)), "not-found")
        self.assertEqual(self.agent.regions, {})

    def test_a_listen_listener_taken_by_a_companion_goes_back_to_its_start_settings(self):
        self.serve(sessions=4, permanent=(7791,))
        h, hello = self.holder()
        self.assertEqual([l["port"] for l in hello["listeners"]], [7791])
        c, _ = self.companion(hello["ticket"])
        r = self.listen(c, 7791, accept="manual")
        self.assertTrue(r["ok"], r)
        self.assertEqual(code(self.listen(h, 7791)), "state")
        self.assertTrue(c.call("reset")["ok"])
        ls = h.call("hello", version=2)["listeners"]
        self.assertEqual([(l["port"], l["accept"]) for l in ls], [(7791, "auto")])
        self.assertTrue(self.listen(h, 7791)["ok"])

    def accepted(self, c, listener):
        self.assertTrue(fake_rdma.RDMACM.incoming(listener["port"]))
        r = c.call("accept", listener=listener["listener"], timeout_ms=3000)
        self.assertTrue(r.get("ok"), r)
        self.assertEqual(r["state"], "rts")
        return r["qp"]

    def test_events_and_queue_pairs_are_each_sessions_own(self):
        self.serve(sessions=4)
        h, hello = self.holder()
        c, _ = self.companion(hello["ticket"])
        hq = self.accepted(h, self.listen(h))
        cq = self.accepted(c, self.listen(c))
        hev = h.call("events", max=64, timeout_ms=300)["events"]
        cev = c.call("events", max=64, timeout_ms=300)["events"]
        self.assertEqual([(e["type"], e["qp"]) for e in hev], [("established", hq)])
        self.assertEqual([(e["type"], e["qp"]) for e in cev], [("established", cq)])
        # polling without qp returns at once with the session's own (here: none; no data moves on the stand-in)
        t0 = time.monotonic()
        self.assertEqual(c.call("poll", max=16, min=0, timeout_ms=0)["completions"], [])
        self.assertLess(time.monotonic() - t0, 1)
        # a second connection of the companion whose event nobody took: its reset drops it with the QP
        cq2 = self.accepted(c, self.listen(c))
        self.assertTrue(c.call("reset")["ok"])
        self.assertEqual(code(h.call("qp", qp=cq)), "not-found")
        self.assertEqual(code(h.call("qp", qp=cq2)), "not-found")
        self.assertEqual(h.call("qp", qp=hq)["state"], "rts")
        self.assertTrue(c.call("bye")["ok"])
        left = h.call("events", max=64, timeout_ms=200)["events"]   # alone now: would take anybody's
        self.assertEqual(left, [])

    def test_a_companion_waiting_does_not_hold_up_the_holder(self):
        self.serve(sessions=4)
        h, hello = self.holder()
        c, _ = self.companion(hello["ticket"])
        cl = self.listen(c)
        out = {}
        th = threading.Thread(target=lambda: out.update(r=c.call("accept", listener=cl["listener"],
                                                                 timeout_ms=1500)))
        t0 = time.monotonic()
        th.start()
        time.sleep(0.2)
        self.assertTrue(h.call("register", length=64)["ok"])
        self.assertLess(time.monotonic() - t0, 1.0)
        th.join(5)
        self.assertEqual(code(out["r"]), "timeout")

    # ---- the holder's end, takeover

    def test_the_holders_end_ends_its_companions_and_what_they_made(self):
        for bye in (True, False):
            with self.subTest(bye=bye):
                self.serve(sessions=4)
                h, hello = self.holder()
                c, _ = self.companion(hello["ticket"])
                c2, _ = self.companion(hello["ticket"])
                cl = self.listen(c)
                self.assertTrue(c2.call("register", length=64)["ok"])
                if bye:
                    self.assertTrue(h.call("bye")["ok"])
                else:
                    h.close()
                self.assertTrue(closed(c) and closed(c2))
                deadline = time.monotonic() + 5
                while (self.agent.live or self.server.active is not None) and time.monotonic() < deadline:
                    time.sleep(0.05)
                self.assertEqual(self.agent.live, set())
                self.assertEqual(self.agent.regions, {})
                self.assertEqual(self.agent.listeners, {})
                n, _ = self.holder()   # the next tester gets in at once, and finds the port free
                self.assertTrue(self.listen(n, cl["port"])["ok"])
                self.tearDown()

    def test_a_companion_at_work_keeps_its_holder_from_being_taken_over(self):
        self.serve(sessions=4, takeover=0.6)
        h, hello = self.holder()
        c, _ = self.companion(hello["ticket"])
        out = {}
        th = threading.Thread(target=lambda: out.update(r=c.call("events", max=1, timeout_ms=2000)))
        th.start()
        time.sleep(1.0)   # the holder itself has said nothing for longer than the takeover time
        n = self.client()
        r = n.hello()
        self.assertEqual(code(r), "state", r)
        th.join(5)
        self.assertTrue(out["r"]["ok"])
        time.sleep(0.8)   # now nobody works: idle long enough
        n2 = self.client()
        r = n2.hello()
        self.assertTrue(r.get("ok"), r)
        self.assertTrue(closed(h) and closed(c))

    def test_the_sessions_bound(self):
        agent = agent_mod.Agent(None, {}, use_kmsg=False, max_memory=64 << 20)
        for bad in (0, 65):
            with self.assertRaises(ValueError):
                agent_mod.Server(agent, None, 5, 600, 30, lambda m: None, bad)


if __name__ == "__main__":
    unittest.main()
