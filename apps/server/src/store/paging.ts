/** A page of a list: pageIndex starts at 1 (spec: "pageIndex default 1"). */
export interface PageRequest {
  pageIndex: number;
  pageSize: number;
}

export interface Page<T> {
  items: T[];
  totalCount: number;
}
