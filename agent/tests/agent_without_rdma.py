#!/usr/bin/env python3
"""The agent on the test stand-in of pyverbs and librdmacm (fake_rdma.py), FOR TESTS ONLY: its control server,
authentication and sessions are the agent's own; there is no RDMA device behind it (hello reports the device
"no-rdma0"). Takes the agent's options. Used by the Java tester's test of the agent (AgentCompanionSessionsTest)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fake_rdma  # noqa: E402

if __name__ == "__main__":
    print("agent_without_rdma: the DUT agent on a test stand-in without RDMA (fake_rdma.py)", file=sys.stderr,
          flush=True)
    fake_rdma.load_agent().main()
