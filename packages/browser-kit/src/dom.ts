/** What an element may hold: nodes, text, numbers; null, undefined and false are left out (`cond && el(…)`). */
export type Child = Node | string | number | null | undefined | false;
type Listeners = Partial<Record<keyof HTMLElementEventMap, EventListener>>;
/** Attributes, plus `on`: the element's event listeners. */
export type Props = { [name: string]: string | number | boolean | undefined | Listeners; on?: Listeners };

/**
 * An element with attributes, listeners (`on: {click}`) and children. `true` sets a boolean
 * attribute; `false`/undefined leave it out. Every page builds its DOM with it (no framework).
 */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props = {},
  children: readonly Child[] = [],
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (name === 'on' || value === undefined || value === false || typeof value === 'object') continue;
    element.setAttribute(name, value === true ? '' : String(value));
  }
  for (const [event, listener] of Object.entries(props.on ?? {})) {
    if (listener) element.addEventListener(event, listener);
  }
  element.append(...nodes(children));
  return element;
}

/** Replaces an element's children (the same children `el` takes). */
export function fill(element: Element, children: readonly Child[]): void {
  element.replaceChildren(...nodes(children));
}

function nodes(children: readonly Child[]): Array<Node | string> {
  const kept: Array<Node | string> = [];
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    kept.push(typeof child === 'number' ? String(child) : child);
  }
  return kept;
}

let counter = 0;
/** A page-unique id, for label and description links. */
export const uid = (prefix: string): string => `${prefix}-${++counter}`;

const SVG_NS = 'http://www.w3.org/2000/svg';

/** An SVG element (charts drawn inline) with its attributes (undefined ones left out) and children. */
export function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | number | undefined> = {},
  children: ReadonlyArray<Node | string> = [],
): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== undefined) element.setAttribute(name, String(value));
  }
  element.append(...children);
  return element;
}
