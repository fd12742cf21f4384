"""Start Jingo on the corpus's port: Jingo reads its port only from its YAML configuration (no flag,
no environment variable once the file names one), so the seed's configuration gets the port of this
run, then this process becomes ``node jingo -c corpus-config.yaml`` (one process group to stop)."""

import os
import re
import sys
from pathlib import Path


def main(root: Path, port: str) -> None:
    config = root / "corpus-config.yaml"
    text = re.sub(r"(?m)^  port: .*$", f"  port: {int(port)}", config.read_text())
    config.write_text(re.sub(r"(?m)^  baseUrl: .*$", f"  baseUrl: 'http://127.0.0.1:{int(port)}'", text))
    os.chdir(root)
    os.execvp("node", ["node", "jingo", "-c", str(config)])


if __name__ == "__main__":
    main(Path(sys.argv[1]), sys.argv[2])
