"""The bundled program's entry point: the same `ofc-desk` command a pip install gives."""

from ofc_desk.cli.main import main

raise SystemExit(main())
