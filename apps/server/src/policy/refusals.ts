/**
 * The refusals the contract names for access decisions (API.md §1.6 and the routes' error columns),
 * each exactly as the route answers it today (code, message, and whether `data` is `false` or absent).
 */
import { errors, type ApiError } from '../errors.js';

export type Refusal = () => ApiError;

export const refusals = {
  /** 109 — not allowed to touch the record, or unknown id. */
  noAuthorization: (): ApiError => errors.noAuthorization(),
  /** 103 — KB detail, document list, retrieval test. */
  datasetOwner: (): ApiError => errors.operating('Only owner of dataset authorized for this operation.'),
  dialogOwner: (): ApiError => errors.operating('Only owner of dialog authorized for this operation.', false),
  conversationOwner: (): ApiError =>
    errors.operating('Only owner of conversation authorized for this operation.', false),
  canvasOwner: (): ApiError => errors.operating('Only owner of canvas authorized for this operation.', false),
  /** 102 — KB gone (document create); upload and web crawl answer it with 100. */
  datasetMissing: (): ApiError => errors.data("Can't find this dataset!"),
  datasetMissingException: (): ApiError => errors.exception("Can't find this dataset!"),
  knowledgebaseNotFound: (): ApiError => errors.data('Knowledgebase not found!'),
  documentNotFound: (): ApiError => errors.data('Document not found!'),
  tenantNotFound: (): ApiError => errors.data('Tenant not found!'),
  dialogNotFound: (): ApiError => errors.data('Dialog not found!'),
  /** `conversation/set` (new) spells it without the "!". */
  dialogNotFoundBare: (): ApiError => errors.data('Dialog not found'),
  conversationNotFound: (): ApiError => errors.data('Conversation not found!'),
  canvasNotFound: (): ApiError => errors.data('canvas not found.'),
  /** 103 — `search/detail` of a search app outside the caller's teams (or unknown). */
  searchNoPermission: (): ApiError => errors.operating('Has no permission for this operation.', false),
  fileNotFound: (): ApiError => errors.data('File not found!'),
} satisfies Record<string, Refusal>;
