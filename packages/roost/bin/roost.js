#!/usr/bin/env node
// CommonJS (bin/package.json): the bundle of the row commands runs without node's ES module loader,
// and hands every other command to dist/cli/main.js.
require("../dist/cli/roost.cjs");
