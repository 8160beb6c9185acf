"""Imported first by the studio's fork server (:mod:`.workers`), and by nothing else: the jobs it
forks ignore Ctrl-C from their first instant (a Ctrl-C at the terminal reaches every process of
the server's group, and the server answers it by ending the jobs), and the setting that kept the
current folder off the fork server's module path is not handed down to them.

Example
-------
>>> import blockmaze.web.forkserved   # (in the fork server: SIGINT is ignored from here on)
"""

import os
import signal
import threading

if threading.current_thread() is threading.main_thread() and os.environ.get(
        "BLOCKMAZE_FORK_SERVER") == "1":
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    os.environ.pop("PYTHONSAFEPATH", None)
    os.environ.pop("BLOCKMAZE_FORK_SERVER", None)
