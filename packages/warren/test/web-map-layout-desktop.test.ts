// The viewer's maps in a desktop window: see helpers/map-layout.ts.
import { mapLayoutSuite } from "./helpers/map-layout.js";

mapLayoutSuite(1400, 900);
