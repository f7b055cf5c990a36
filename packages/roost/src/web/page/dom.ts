/**
 * The page's one way to make elements. Children given as strings become text nodes, so what an
 * agent wrote (a name, a summary, a question, a screen line) is shown as text and never read as
 * markup; nothing on the page is made from HTML.
 */
export type Child = Node | string | null | undefined | false;

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: {
    class?: string;
    title?: string;
    data?: Record<string, string>;
    on?: Record<string, (event: Event) => void>;
  } = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (props.class) node.className = props.class;
  if (props.title) node.title = props.title;
  for (const [key, value] of Object.entries(props.data ?? {})) node.dataset[key] = value;
  for (const [name, handler] of Object.entries(props.on ?? {})) node.addEventListener(name, handler);
  return fill(node, ...children);
}

/** Puts these children in place of the node's (the absent ones left out). */
export function fill<N extends Element>(node: N, ...children: Child[]): N {
  node.replaceChildren(
    ...children.filter((child): child is Node | string => typeof child === "string" || child instanceof Node),
  );
  return node;
}

export function button(label: string, onClick: () => void, className = ""): HTMLButtonElement {
  const node = el("button", { class: className, on: { click: onClick } }, label);
  node.type = "button";
  return node;
}
