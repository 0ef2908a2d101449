"""The test stacks' ports (deploy/local_stack.py): a port whose last connection is in TIME_WAIT
is free for our servers, and one with a listener is not."""

from __future__ import annotations

import socket

from deploy.local_stack import free_port_block, port_block_free


def test_a_port_whose_connection_sits_in_time_wait_counts_as_free():
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    port = listener.getsockname()[1]
    client = socket.create_connection(("127.0.0.1", port))
    accepted, _ = listener.accept()
    accepted.close()  # the server side closes first: its port keeps the connection in TIME_WAIT
    client.close()
    listener.close()
    with socket.socket() as plain:  # what the probe did before: refused while TIME_WAIT lasts
        try:
            plain.bind(("127.0.0.1", port))
            time_wait_blocks_a_plain_bind = False
        except OSError:
            time_wait_blocks_a_plain_bind = True
    assert time_wait_blocks_a_plain_bind
    assert port_block_free(port, 1)


def test_a_port_with_a_listener_is_not_free():
    with socket.socket() as listener:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        assert not port_block_free(listener.getsockname()[1], 1)


def test_a_free_block_is_found():
    base = free_port_block(8)
    assert port_block_free(base, 8)
