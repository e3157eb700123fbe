type Child = Node | string | number | null | undefined | false;
type Listeners = Partial<Record<keyof HTMLElementEventMap, EventListener>>;
/** Attributes, plus `on`: the element's event listeners. */
type Props = { [name: string]: string | number | boolean | undefined | Listeners; on?: Listeners };

/**
 * An element with attributes, listeners (`on: {click}`) and children. `true` sets a boolean
 * attribute; `false`/undefined leave it out. The panel builds every view with it (no framework).
 */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props = {},
  children: Child[] = [],
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (name === 'on' || value === undefined || value === false || typeof value === 'object') continue;
    element.setAttribute(name, value === true ? '' : String(value));
  }
  for (const [event, listener] of Object.entries(props.on ?? {})) {
    if (listener) element.addEventListener(event, listener);
  }
  element.append(
    ...children.filter((child) => child !== null && child !== undefined && child !== false).map(asNode),
  );
  return element;
}

function asNode(child: Exclude<Child, null | undefined | false>): Node | string {
  return typeof child === 'number' ? String(child) : child;
}

let counter = 0;
/** A page-unique id, for label and description links. */
export const uid = (prefix: string) => `${prefix}-${++counter}`;

/** A labelled form field: the label, the control, an optional hint linked by aria-describedby. */
export function field(
  label: string,
  control: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement,
  hint?: string,
): HTMLElement {
  control.id ||= uid('field');
  const hintId = hint ? uid('hint') : undefined;
  if (hintId) control.setAttribute('aria-describedby', hintId);
  return el('div', { class: 'field' }, [
    el('label', { for: control.id }, [label]),
    control,
    hint ? el('p', { class: 'hint', id: hintId }, [hint]) : null,
  ]);
}

/** A <select> of [value, text] options. */
export function select(
  name: string,
  options: ReadonlyArray<readonly [string, string]>,
  value = '',
): HTMLSelectElement {
  const control = el(
    'select',
    { name },
    options.map(([optionValue, text]) => el('option', { value: optionValue }, [text])),
  );
  control.value = value;
  // A value that is not among the options leaves nothing selected: show the first one instead.
  if (control.selectedIndex === -1) control.selectedIndex = 0;
  return control;
}

/** A real table: caption, column headers with scope, one row per item. */
export function table<T>(
  caption: string,
  columns: ReadonlyArray<readonly [string, (item: T) => Child]>,
  items: readonly T[],
  empty: string,
): HTMLElement {
  if (items.length === 0) return el('p', { class: 'empty' }, [empty]);
  return el('div', { class: 'table-wrap', tabindex: 0, role: 'region', 'aria-label': caption }, [
    el('table', {}, [
      el('caption', { class: 'visually-hidden' }, [caption]),
      el('thead', {}, [
        el(
          'tr',
          {},
          columns.map(([title]) => el('th', { scope: 'col' }, [title])),
        ),
      ]),
      el(
        'tbody',
        {},
        items.map((item) =>
          el(
            'tr',
            {},
            columns.map(([, cell]) => el('td', {}, [cell(item)])),
          ),
        ),
      ),
    ]),
  ]);
}

/** The values of a form's named controls, trimmed. */
export function formValues(form: HTMLFormElement): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, value] of new FormData(form)) if (typeof value === 'string') values[name] = value.trim();
  return values;
}
