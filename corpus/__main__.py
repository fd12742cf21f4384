import sys

from corpus.run import main

sys.exit(main())
