"""``celestial-mcp``: an MCP server whose tools are the Celestial API's operations, called over
HTTP with the user's key (``celestial_mcp/server.py``)."""
