"""`python -m tutor.bench`: see tutor.bench.measure."""

from tutor.bench.measure import main

raise SystemExit(main())
