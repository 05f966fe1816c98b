"""The front ends people use: the command line, the terminal game and the web app. Nothing in the
library imports them; the command line starts the other two."""
