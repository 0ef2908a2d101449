"""Webhooks: the scheduler that finds a subscription's due events, the delivery that POSTs them
signed, the egress check that keeps a customer's URL outside our network, and the worker process
that runs them (docs/webhooks.md)."""
