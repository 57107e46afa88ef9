/**
 * Access policy (API.md §1.4, §1.6, §12.2, §13): who the caller is (`accessScopeOf`), the rules
 * (`can`, `authorize`), the loaders that fetch a row and check it in one call, and the same rules as
 * SQL for list queries. Routes and services ask here; none writes an ownership query of its own.
 */
export { accessScopeOf, listedTenantIds, visibleTenantIds, type AccessScope } from './scope.js';
export {
  authorize,
  can,
  isLive,
  permits,
  refusalFor,
  resource,
  type Action,
  type CanvasRef,
  type DialogRef,
  type FileRef,
  type KbRef,
  type Resource,
  type SearchRef,
  type ResourceKind,
} from './rules.js';
export { refusals, type Refusal } from './refusals.js';
export {
  loadChunkDocument,
  loadChunkKb,
  loadDocument,
  loadDocuments,
  loadKb,
  loadKbs,
  loadRetrievalKbs,
  type Answers,
  type DocumentAnswers,
  type DocWithKb,
} from './knowledge.js';
export {
  assertDialogConversations,
  assertDialogsRemovable,
  loadConversationRows,
  loadDialog,
  mayUseSessionDialog,
  type ConversationRow,
  type DialogRow,
  type LoadedConversationRows,
} from './chat.js';
export { authorizeCanvas, linkedKbsOf, loadCanvas, loadFile } from './files.js';
export { loadSearch, type SearchRow } from './search.js';
export {
  ownKbs,
  readableCanvases,
  readableDialogs,
  readableKbs,
  readableSearches,
  visibleKbIds,
  type CanvasFilter,
  type ListFilter,
} from './filters.js';
export { loadMcpServer, loadMcpServers, mcpNotFound } from './mcp.js';
