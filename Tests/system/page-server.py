"""The system rig's test page server, run in the guest: Tests/browser/observer.py on loopback,
serving the browser tests' pages; it writes its port to PORT-FILE and appends every report a
page sends (what its media queries see) to REPORTS-FILE as one JSON line, so the shell checks
can follow the page with grep.

    python3 page-server.py PORT-FILE REPORTS-FILE"""

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "browser"))
from observer import Observer  # noqa: E402

port_file, reports_file = sys.argv[1:3]
observer = Observer()
with open(port_file + ".partial", "w") as file:
    file.write("%d\n" % observer.port)
os.rename(port_file + ".partial", port_file)
written = 0
while True:
    observer.wait(lambda reports: True if len(reports) > written else None, 3600, "a report")
    with observer.condition:
        new = observer.reports[written:]
    with open(reports_file, "a") as file:
        for report in new:
            file.write(json.dumps(report, sort_keys=True) + "\n")
    written += len(new)
