// Run a Python file under Pyodide in node, with host folders mounted, and print what it returns.
//
//   node run.mjs PYODIDE_DIR SCRIPT.py [/emscripten/path=HOST_DIR ...]
//
// PYODIDE_DIR is the npm package's folder (node_modules/pyodide): Pyodide loads from it and
// nothing else, so no network is needed. The script's last expression must be a string; it
// is printed on one line after "PYODIDE-RESULT ". Exit code 1 on a Python error.
//
// With PYODIDE_FETCH_ONLY=PREFIX set, fetch() refuses every URL that does not start with
// PREFIX: each refused URL is printed to stderr after "FETCH-REFUSED ", each other one
// after "FETCHED ".
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideDir, script, ...mounts] = process.argv.slice(2);
if (!pyodideDir || !script) {
  console.error("usage: node run.mjs PYODIDE_DIR SCRIPT.py [/path=HOST_DIR ...]");
  process.exit(2);
}
const only = process.env.PYODIDE_FETCH_ONLY;
if (only) {
  const fetchAnywhere = globalThis.fetch;
  globalThis.fetch = (resource, options) => {
    const url = String(resource?.url ?? resource);
    if (!url.startsWith(only)) {
      console.error("FETCH-REFUSED " + url);
      return Promise.reject(new TypeError("refused by run.mjs: " + url));
    }
    console.error("FETCHED " + url);
    return fetchAnywhere(resource, options);
  };
}
const { loadPyodide } = await import(pathToFileURL(join(resolve(pyodideDir), "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: resolve(pyodideDir) + "/" });
for (const mount of mounts) {
  const [target, host] = mount.split("=");
  pyodide.mountNodeFS(target, resolve(host));
}
try {
  const result = await pyodide.runPythonAsync(readFileSync(script, "utf8"), {
    filename: resolve(script),
  });
  console.log("PYODIDE-RESULT " + result);
} catch (error) {
  console.error(String(error));
  process.exit(1);
}
