"""Serve the corpus's Kallithea on 127.0.0.1:PORT with waitress (what `gearbox serve` would run,
minus the port fixed in the configuration file).

Usage: ho18_kallithea_serve.py ROOT PORT
"""

from __future__ import annotations

import configparser
import logging.config
import sys
from pathlib import Path

import paste.deploy
import waitress


def main(root: Path, port: int) -> None:
    ini = root / ".corpus-kallithea" / "kallithea.ini"
    parser = configparser.ConfigParser(strict=False)
    parser.read(ini)
    logging.config.fileConfig(parser, {"__file__": str(ini), "here": str(ini.parent)})
    app = paste.deploy.loadapp(f"config:{ini}")
    waitress.serve(app, host="127.0.0.1", port=port, threads=4)


if __name__ == "__main__":
    main(Path(sys.argv[1]), int(sys.argv[2]))
