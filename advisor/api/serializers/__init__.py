"""Input serializers (what a request may carry) and output serializers (what the API answers,
declared for the OpenAPI schema), kept apart as the house style asks."""
