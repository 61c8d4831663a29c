#!/usr/bin/env node
// The orc-state command of the npm package: it runs the binary of the
// platform package npm installed beside it (an optional dependency, chosen
// by its os and cpu fields) with the same arguments, standard streams and
// exit status. Nothing is downloaded or built here.
"use strict";
const { spawnSync } = require("child_process");
const { version, optionalDependencies } = require("../package.json");

const os = process.platform; // linux, darwin, win32
const pkg = "@orc-state/" + os + "-" + process.arch;
if (!(pkg in (optionalDependencies || {}))) {
  console.error("orc-state: orc-state " + version + " has no binary for " + os + " " + process.arch +
    "; the release has " + Object.keys(optionalDependencies || {}).join(", "));
  process.exit(1);
}
let bin;
try {
  bin = require.resolve(pkg + "/bin/orc-state" + (os === "win32" ? ".exe" : ""));
} catch (e) {
  console.error("orc-state: the package " + pkg + " is not installed (npm leaves optional dependencies out " +
    "with --omit=optional); reinstall with: npm install -g orc-state@" + version);
  process.exit(1);
}
const r = spawnSync(bin, process.argv.slice(2), { stdio: "inherit", windowsHide: true });
if (r.error) {
  console.error("orc-state: cannot run " + bin + ": " + r.error.message);
  process.exit(1);
}
if (r.signal) {
  process.kill(process.pid, r.signal);
}
process.exit(r.status === null ? 1 : r.status);
