/**
 * The places of the map, as a list: what each is, its features as they stand, and a button that
 * shows it on the map.
 */
import type { Cell } from "../../engine/grid.js";
import { el } from "./dom.js";
import type { RunModel } from "./run-model.js";

export function placeList(model: RunModel, onShow: (cell: Cell | undefined) => void): HTMLUListElement {
  return el(
    "ul",
    { class: "places" },
    [...model.places.values()].map((place) => {
      // A feature is the place's state now (the description is what never changes).
      const features = Object.entries(place.features).map(
        ([k, v]) => `${k}: ${typeof v === "string" ? v : JSON.stringify(v)}`,
      );
      return el(
        "li",
        { dataset: { place: place.id } },
        el(
          "button",
          { type: "button", onclick: () => onShow(place.cellAt), title: "show on the map" },
          place.name,
        ),
        ` ${place.cell} `,
        el("span", { class: "muted" }, place.description),
        features.length ? el("div", { class: "features" }, features.join(", ")) : null,
      );
    }),
  );
}
