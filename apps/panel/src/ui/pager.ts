import { el } from '@raspa/browser-kit';
import type { Pagination } from '@raspa/server/wire';
import type { Page } from '../api/api-client.ts';
import type { Catalogue } from '../i18n/en.ts';
import type { Feedback } from './feedback.ts';

/** The last page a list can show: the service pages through the newest 10,000 records (docs/contract.md §3). */
const LIST_REACH = 10_000;

export function lastPage(pagination: Pagination): number {
  const pages = Math.max(1, Math.ceil(pagination.totalCount / pagination.pageSize));
  return Math.min(pages, Math.ceil(LIST_REACH / pagination.pageSize));
}

/** Previous and next buttons around "Page X of Y · N in all"; `go` loads another page. */
export function pager(
  t: Catalogue,
  pagination: Pagination,
  go: (pageIndex: number) => void,
  label: string,
): HTMLElement {
  const last = lastPage(pagination);
  const page = pagination.pageIndex;
  return el('nav', { class: 'pager', 'aria-label': label }, [
    el(
      'button',
      { type: 'button', class: 'secondary', disabled: page <= 1, on: { click: () => go(page - 1) } },
      [t.common.previous],
    ),
    el('span', {}, [t.common.pageOf(page, last, pagination.totalCount)]),
    el(
      'button',
      { type: 'button', class: 'secondary', disabled: page >= last, on: { click: () => go(page + 1) } },
      [t.common.next],
    ),
  ]);
}

/**
 * A list that pages: loads a page into `list` (with the region's progress and errors in `feedback`),
 * then shows the items and the pager under them. `first()` goes back to page 1 (new filters).
 */
export function pagedList<T, P extends Pagination>(options: {
  t: Catalogue;
  feedback: Feedback;
  list: HTMLElement;
  label: string;
  button?: HTMLButtonElement;
  pageIndex?: number;
  fetch: (pageIndex: number) => Promise<Page<T, P>>;
  render: (page: Page<T, P>) => Node;
  /** After a page arrived, before it is shown (e.g. to keep the filters in the address). */
  loaded?: (page: Page<T, P>, pageIndex: number) => void;
}) {
  const { t, feedback, list, label, button } = options;
  let pageIndex = options.pageIndex ?? 1;
  async function load(): Promise<void> {
    const page = await feedback.run(t.common.loading, () => options.fetch(pageIndex), {
      region: list,
      ...(button && { button }),
    });
    if (!page) return;
    options.loaded?.(page, pageIndex);
    const go = (next: number) => {
      pageIndex = next;
      void load();
    };
    list.replaceChildren(options.render(page), pager(t, page.pagination, go, label));
  }
  return {
    load,
    first(): Promise<void> {
      pageIndex = 1;
      return load();
    },
  };
}
