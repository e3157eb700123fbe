/** Success bodies of docs/contract.md §1: `status` is on every one. */
export interface Pagination {
  pageIndex: number;
  pageSize: number;
  totalCount: number;
}

export const ok = <T>(data: T) => ({ status: 'success' as const, data });
export const okMessages = (...messages: string[]) => ({ status: 'success' as const, messages });
export const okStatus = () => ({ status: 'success' as const });
export const okPage = <T, P extends Pagination>(data: T[], pagination: P) => ({
  status: 'success' as const,
  data,
  pagination,
});
