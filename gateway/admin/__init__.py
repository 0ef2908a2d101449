"""The operator's interfaces: the admin API and the admin CLI, over the operations they share."""
