import sys

from bughunt.cli import main

sys.exit(main())
