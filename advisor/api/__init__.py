"""REST API v1 for provisioning tools."""
