"""The page that lets a phone trust the table's own certificate authority (``make run HTTPS=1``)."""
