// The viewer's maps on a phone (390×844): see helpers/map-layout.ts.
import { mapLayoutSuite } from "./helpers/map-layout.js";

mapLayoutSuite(390, 844);
