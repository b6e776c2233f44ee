"""What a server's players share beyond one match: ratings, statistics and preferences."""
