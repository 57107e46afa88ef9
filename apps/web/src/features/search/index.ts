/** What other features use of the search page: its mind-map tree card and the tree helper. */
export { MindMapCard } from './SearchPanels';
export { mindMapTree, type TreeItem } from './search-state';
