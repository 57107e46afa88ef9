/**
 * File kinds for uploads, from the ingestion's file-type table (API.md §12.3, SPEC §9): the document
 * type of an extension, whether KB uploads accept it, and whether the bytes look like that format.
 */
export { contentMatches, docTypeOf, isAllowedUpload } from '../../ingest/file-types.js';
