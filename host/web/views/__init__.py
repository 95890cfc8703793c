"""The dashboard's blueprints: the table screen, seat pages, live events and setup."""
