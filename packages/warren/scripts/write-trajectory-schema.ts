// Writes docs/trajectory.schema.json from the protocol's declaration of a trajectory line, for
// readers without warren (`npm run schema` in this package). A test checks the file is current.
import { writeFileSync } from "node:fs";
import { trajectorySchemaDocument } from "../src/protocol/trajectory.js";

const file = new URL("../docs/trajectory.schema.json", import.meta.url);
writeFileSync(file, `${JSON.stringify(trajectorySchemaDocument(), null, 2)}\n`);
