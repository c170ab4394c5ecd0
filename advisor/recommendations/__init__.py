"""One recommendation: the service every face calls, the REST API, the wizard and result pages."""
