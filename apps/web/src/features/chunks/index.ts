/** The chunk list of a document (route `/knowledge/:kbId/dataset/:docId/chunks`). */
export { default, default as ChunkListPage } from './ChunkListPage';
export { chunksPath } from './paths';
export { sanitizeHtml } from './safe-html';
// Chunk text styles travel with the pieces other features render (retrieval hits).
import './chunk-text.css';
