import { presentReference, type ReferenceFormat } from '../../chat/reference.js';
import type { ChatMessage } from '../../chat/types.js';
import { rfc1123 } from '../../util/time.js';
import type { ConversationRow } from './service.js';

/** A conversation (API.md §9): messages, references in the requested chunk format, RFC 1123 dates. */
export function presentConversation(
  conv: ConversationRow,
  message: ChatMessage[],
  reference: unknown[],
  extra: { avatar?: string; format?: ReferenceFormat } = {},
) {
  return {
    id: conv.id,
    dialog_id: conv.dialog_id,
    name: conv.name,
    message,
    reference: reference.map((r) => presentReference(r, extra.format ?? 'web')),
    user_id: conv.user_id,
    create_time: conv.create_time,
    create_date: rfc1123(conv.create_time),
    update_time: conv.update_time,
    update_date: rfc1123(conv.update_time),
    ...(extra.avatar !== undefined ? { avatar: extra.avatar } : {}),
  };
}
