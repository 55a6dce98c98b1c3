from ofc_desk.cli.main import main

raise SystemExit(main())
