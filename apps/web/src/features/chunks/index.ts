/** The chunk list of a document (route `/knowledge/:kbId/dataset/:docId/chunks`). */
export { default, default as ChunkListPage } from './ChunkListPage';
export { chunksPath } from './paths';
