"""The engine in the app: the meld checker and demo games played by bots."""
