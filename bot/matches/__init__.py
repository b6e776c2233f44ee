"""The match service: one match from lobby to result, split by concern."""
