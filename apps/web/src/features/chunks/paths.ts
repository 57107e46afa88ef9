/** Where a document's chunks are shown (route `/knowledge/:kbId/dataset/:docId/chunks`). */
export function chunksPath(kbId: string, docId: string): string {
  return `/knowledge/${kbId}/dataset/${docId}/chunks`;
}
