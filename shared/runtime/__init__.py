"""What every service process shares: the gRPC server, validation from the proto options,
message ⇄ kernel conversion, error transport, configuration and logging."""
