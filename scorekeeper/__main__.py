import os
import sys

from scorekeeper.cli import main

try:
    sys.exit(main())
except BrokenPipeError:
    # The reader went away (e.g. `| head`): stop quietly, as command-line tools do.
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    sys.exit(1)
