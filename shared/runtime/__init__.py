"""What every service process shares: the gRPC server, validation from the proto options,
message ⇄ kernel conversion, error transport, configuration and logging; and what every
client of the pools shares, kernel-free (the gateway and the webhook worker): the channel
(``pool_channel``), parameters to request messages (``transcoder``, ``json_text``), replies
to JSON (``reply_rendering``) and a stored chart's parameters (``stored_chart_parameters``)."""
