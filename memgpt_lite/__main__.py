import sys

from memgpt_lite.cli import main

sys.exit(main())
