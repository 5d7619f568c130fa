"""The debugger bridge: a real bdb debugger running one pytest test inside the sandbox, driven over a JSON protocol
(see bridge.py), plus the pytest plugin that reports each test's outcome to the grader (pytest_report.py)."""
