"""The application: match service, storage, local console, Discord front end."""
