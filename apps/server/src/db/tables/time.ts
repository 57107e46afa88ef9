/** The four time columns every table has (API.md §18): epoch ms plus RFC 1123 date strings. */
export interface TimeColumns {
  create_time: number;
  create_date: string;
  update_time: number;
  update_date: string;
}
