/**
 * Lectern's own agent templates (issue 14 item 4): JSON rows in `templates/` in the shape of
 * RAGFlow's `canvas_template` (AGENTS.md §2.2) — localized title/description, `canvas_type`, and a DSL
 * as the editor saves it. The server loads them for `GET /v1/canvas/templates`.
 */
import { templateSchema, type CanvasTemplate } from './dsl/schema.js';
import customerService from '../templates/customer_service.json' with { type: 'json' };
import deepResearch from '../templates/deep_research.json' with { type: 'json' };
import documentTranslation from '../templates/document_translation.json' with { type: 'json' };
import emailDispatcher from '../templates/email_dispatcher.json' with { type: 'json' };
import faqWithFallback from '../templates/faq_with_fallback.json' with { type: 'json' };
import imageAssistant from '../templates/image_assistant.json' with { type: 'json' };
import kbChatbot from '../templates/kb_chatbot.json' with { type: 'json' };
import meetingMinutes from '../templates/meeting_minutes.json' with { type: 'json' };
import multiTurnDocsAssistant from '../templates/multi_turn_docs_assistant.json' with { type: 'json' };
import reviewLoopWriter from '../templates/review_loop_writer.json' with { type: 'json' };
import seoArticleWriter from '../templates/seo_article_writer.json' with { type: 'json' };
import sqlAssistant from '../templates/sql_assistant.json' with { type: 'json' };
import stockResearch from '../templates/stock_research.json' with { type: 'json' };
import titleChunker from '../templates/title_chunker.json' with { type: 'json' };
import tripPlanner from '../templates/trip_planner.json' with { type: 'json' };
import userInteractionForm from '../templates/user_interaction_form.json' with { type: 'json' };
import webSearchAssistant from '../templates/web_search_assistant.json' with { type: 'json' };

/** File names (without .json), in gallery order. */
export const TEMPLATE_FILES = [
  'customer_service',
  'deep_research',
  'document_translation',
  'email_dispatcher',
  'faq_with_fallback',
  'image_assistant',
  'kb_chatbot',
  'meeting_minutes',
  'multi_turn_docs_assistant',
  'review_loop_writer',
  'seo_article_writer',
  'sql_assistant',
  'stock_research',
  'title_chunker',
  'trip_planner',
  'user_interaction_form',
  'web_search_assistant',
] as const;

const RAW: Record<(typeof TEMPLATE_FILES)[number], unknown> = {
  customer_service: customerService,
  deep_research: deepResearch,
  document_translation: documentTranslation,
  email_dispatcher: emailDispatcher,
  faq_with_fallback: faqWithFallback,
  image_assistant: imageAssistant,
  kb_chatbot: kbChatbot,
  meeting_minutes: meetingMinutes,
  multi_turn_docs_assistant: multiTurnDocsAssistant,
  review_loop_writer: reviewLoopWriter,
  seo_article_writer: seoArticleWriter,
  sql_assistant: sqlAssistant,
  stock_research: stockResearch,
  title_chunker: titleChunker,
  trip_planner: tripPlanner,
  user_interaction_form: userInteractionForm,
  web_search_assistant: webSearchAssistant,
};

/** Every template, parsed (a malformed file throws, which the template tests catch). */
export function loadTemplates(): CanvasTemplate[] {
  return TEMPLATE_FILES.map((name) => templateSchema.parse(structuredClone(RAW[name])));
}
