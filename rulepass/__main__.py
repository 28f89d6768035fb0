"""``python -m rulepass ...`` runs the command line (also under ``mpiexec ... -m mpi4py -m rulepass``)."""

import sys

from rulepass.cli import main

sys.exit(main())
