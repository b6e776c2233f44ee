"""Where matches are kept: the store interface, its SQLite and PostgreSQL backends, the schema
migrations and ``copy-db``. Nothing here knows a game's rules or a front end."""
