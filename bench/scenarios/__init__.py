"""The benchmark's scenarios, one module each, in the order a full run takes them. Each module
has `run(bench)` (bench: servers.Bench) and adds its rows and floors to the report."""
from scenarios import browser, churn, deep, delayed, live, newest, postgres, profiles, refresh, static, tls, weight, window
from scenarios import data_import

ALL = {"newest": newest, "deep": deep, "refresh": refresh, "static": static, "delayed": delayed,
       "weight": weight, "browser": browser, "window": window, "live": live, "postgres": postgres,
       "import": data_import, "tls": tls, "profiles": profiles, "churn": churn}
