/**
 * Building page elements from data: text always goes in as text (a text node), never as markup,
 * so what an agent wrote (a name, a message, a summary) is shown and never read as HTML.
 */

/** An attribute's value: left out when absent or false, empty when true. */
type AttributeValue = string | number | boolean | null | undefined;

/** Attributes by name; `on…` ones are event handlers, `dataset` the element's data attributes. */
export type Attributes = Record<
  string,
  AttributeValue | ((event: Event) => void) | Record<string, string | number>
>;

/** A child: a node, or text; absent ones are left out. */
export type Child = Node | string | number | null | undefined | false;

/** el("button", {class: "x", onclick: f}, "label", child…) */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes?: Attributes,
  ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (typeof value === "function") node.addEventListener(name.slice(2), value);
    else if (name === "dataset" && typeof value === "object") Object.assign(node.dataset, value);
    else if (typeof value !== "object") node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}
