"""The reference documents the gateway serves: the OpenAPI document, /docs, the guides, the per-operation Markdown and
/llms.txt, with the recorded examples."""
