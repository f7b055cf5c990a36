// Building page elements from data: text always goes in as text, never as markup.
(() => {
  const viewer = (globalThis.WarrenViewer ??= {});

  /** el("button", {class: "x", onclick: f}, "label", child…) */
  viewer.el = (tag, attributes, ...children) => {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes ?? {})) {
      if (value === undefined || value === null || value === false) continue;
      if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
      else if (name === "dataset") Object.assign(node.dataset, value);
      else node.setAttribute(name, value === true ? "" : String(value));
    }
    for (const child of children.flat()) {
      if (child === undefined || child === null || child === false) continue;
      node.append(child instanceof Node ? child : String(child));
    }
    return node;
  };

  /** Sim milliseconds as seconds, the way the engine's texts write them. */
  viewer.seconds = (ms) => `t=${Math.round(ms) / 1000}s`;
})();
