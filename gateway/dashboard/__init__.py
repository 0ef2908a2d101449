"""The account dashboard at ``/dashboard``: owners sign in, manage their account's keys and see
its balance and usage, on the same store operations as the admin CLI and API."""
