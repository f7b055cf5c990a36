import assert from "node:assert/strict";
import { test } from "node:test";
import { parseOptions } from "../src/cli/parse-options.js";

test("an unknown flag is a usage error in balanced quotes, naming it", () => {
  assert.throws(
    () => parseOptions(["bridge_repair", "--foo"], { seed: { type: "string" } }),
    (error: Error) => {
      assert.equal(error.message, 'unknown flag --foo; a value that starts with "-" goes after --');
      assert.equal((error.message.match(/"/g) ?? []).length % 2, 0);
      return true;
    },
  );
});
