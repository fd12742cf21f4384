"""Serve CTFd for the corpus: its app factory under Werkzeug, threaded, no debugger, loopback only.

The repository's serve.py always runs with debug=True (the interactive debugger answers errors), and
its production entry point wants gevent's monkey patching; neither is what a tester's copy runs.
"""

import sys

root, port = sys.argv[1], int(sys.argv[2])
sys.path.insert(0, root)

from CTFd import create_app  # noqa: E402  (the checkout is on the path only now)

create_app().run(host="127.0.0.1", port=port, threaded=True, debug=False, use_reloader=False)
