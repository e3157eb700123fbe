import { type Child, el, uid } from '@raspa/browser-kit';

// The panel's building blocks over the kit's el: a labelled field, a select, a table, a form's values.

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

/** A description list of label–value pairs (values may be nodes; null shows "—"; a null pair is left out). */
export function facts(
  pairs: ReadonlyArray<readonly [string, Node | string | number | null] | null>,
): HTMLElement {
  return el(
    'dl',
    { class: 'facts' },
    pairs.flatMap((pair) => {
      if (!pair) return [];
      const [label, value] = pair;
      return [el('dt', {}, [label]), el('dd', {}, [value === null ? '—' : value])];
    }),
  );
}

/** A titled card of a details page, named by its title for screen readers. */
export function section(title: string, children: readonly Child[]): HTMLElement {
  return el('section', { class: 'card', 'aria-label': title }, [el('h2', {}, [title]), ...children]);
}
