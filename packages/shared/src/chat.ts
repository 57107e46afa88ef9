/**
 * Chat-area types the web client names. The payload shapes themselves live in the contract
 * (`contract/dialog.ts`, `contract/conversation.ts`, `contract/answer.ts`, `contract/api.ts`);
 * this module only adds the request body type of `dialog/set` under the name the client uses.
 */
import type { BodyInput } from './contract/route.js';
import type { dialogContract } from './contract/dialog.js';

/** The body of `POST /v1/dialog/set`. */
export type DialogSetBody = BodyInput<typeof dialogContract.set>;
