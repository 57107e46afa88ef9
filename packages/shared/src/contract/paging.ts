/**
 * Query-string paging, ordering and keywords of the list routes (API.md §1.7). The route parses them
 * itself (`page`/`page_size` absent or 0 = all rows, `desc` true unless "false", unknown `orderby` =
 * `create_time`) with its own messages, so validate() only passes them through.
 */
import { routeChecked } from './route.js';

export const listPaging = {
  keywords: routeChecked<string>().optional(),
  page: routeChecked<number | string>().optional(),
  page_size: routeChecked<number | string>().optional(),
  orderby: routeChecked<string>().optional(),
  desc: routeChecked<boolean | 'true' | 'false'>().optional(),
};
