"""`cmake --install BUILD --prefix PREFIX` puts the courier package under PREFIX/SITE, where the
interpreter imports it from (the installed copy, not the build tree's) and runs an analysis. Only
the python component is installed here (its own manifest: the install tests run beside this one).
Usage: check_installed.py BUILD PREFIX SITE"""
import os
import shutil
import subprocess
import sys

build, prefix, site = sys.argv[1:]
shutil.rmtree(prefix, ignore_errors=True)
subprocess.run(["cmake", "--install", build, "--prefix", prefix, "--component", "python"], check=True,
               stdout=subprocess.DEVNULL)
package = os.path.join(prefix, site)
environment = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
environment["PYTHONPATH"] = package
script = ("import courier; print(courier.__file__); "
          "print(courier.run('cc', 'path:4', engine='seq').values.tolist())")
out = subprocess.run([sys.executable, "-c", script], env=environment, check=True, capture_output=True, text=True)
where, values = out.stdout.splitlines()
assert where.startswith(package), where
assert values == "[0, 0, 0, 0]", values
shutil.rmtree(prefix)
print("installed module: ok")
