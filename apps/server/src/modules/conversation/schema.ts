import { z } from 'zod';

export const conversationSetBody = z.object({
  is_new: z.boolean().nullable().optional(),
  conversation_id: z.string().min(1).max(64).nullable().optional(),
  dialog_id: z.string().nullable().optional(),
  name: z.string().nullable().optional(),
});

export const conversationIdQuery = z.object({ conversation_id: z.string() });

export const conversationListQuery = z.object({ dialog_id: z.string() });

export const conversationRmBody = z.object({ conversation_ids: z.array(z.string()) });

export const messageSchema = z.looseObject({
  role: z.enum(['user', 'assistant', 'system']),
  content: z.string(),
  id: z.string().optional(),
  doc_ids: z.array(z.string()).optional(),
});

export const completionBody = z.looseObject({
  conversation_id: z.string(),
  messages: z.array(messageSchema),
  stream: z.boolean().optional(),
  llm_id: z.string().nullable().optional(),
  temperature: z.number().nullable().optional(),
  top_p: z.number().nullable().optional(),
  frequency_penalty: z.number().nullable().optional(),
  presence_penalty: z.number().nullable().optional(),
  max_tokens: z.number().min(0).nullable().optional(),
  quote: z.boolean().optional(),
  doc_ids: z.union([z.string(), z.array(z.string())]).optional(),
});
export type CompletionBody = z.infer<typeof completionBody>;

export const deleteMsgBody = z.object({ conversation_id: z.string(), message_id: z.string() });

export const thumbupBody = z.object({
  conversation_id: z.string(),
  message_id: z.string(),
  thumbup: z.boolean().nullable().optional(),
  feedback: z.string().nullable().optional(),
});

export const ttsBody = z.object({ text: z.string() });

export const askBody = z.object({
  question: z.string(),
  kb_ids: z.array(z.string()),
  search_id: z.string().nullable().optional(),
});

export const relatedQuestionsBody = z.object({
  question: z.string(),
  search_id: z.string().nullable().optional(),
});
