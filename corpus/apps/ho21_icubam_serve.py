"""Serve ICUBAM's back office (Tornado) on loopback for the corpus.

The project's own launcher (`scripts/run_server.py` through `icubam.cli`) imports every server,
the analytics one included (matplotlib, seaborn, bokeh), and `app.listen` binds every interface.
This starts the back office alone, on 127.0.0.1, with the config the seed wrote.

Usage: ho21_icubam_serve.py ROOT PORT
"""

import sys
from pathlib import Path

import tornado.ioloop


def main(root: Path, port: int) -> None:
    sys.path.insert(0, str(root))
    from icubam import config
    from icubam.backoffice import server

    data = root / ".corpus-data"
    cfg = config.Config(str(data / "config.toml"), env_path=str(data / "icubam.env"))
    app = server.BackOfficeServer(cfg, port).make_app()
    app.listen(port, address="127.0.0.1")
    tornado.ioloop.IOLoop.current().start()


if __name__ == "__main__":
    main(Path(sys.argv[1]).resolve(), int(sys.argv[2]))
