import type { CanvasDsl } from '@lectern/shared';

/** A template's text in the reader's language: the exact code, its base language, then English. */
export function localized(texts: Record<string, string>, language: string): string {
  const base = language.split('-')[0];
  return texts[language] ?? texts[base] ?? texts.en ?? Object.values(texts)[0] ?? '';
}

/** A new agent: Begin alone, with the editor's initial form (AGENTS.md §9.3). */
export function blankDsl(): CanvasDsl {
  const form = { mode: 'conversational', prologue: "Hi! I'm your assistant. What can I do for you?" };
  return {
    components: { begin: { obj: { component_name: 'Begin', params: form }, downstream: [], upstream: [] } },
    graph: {
      nodes: [
        {
          id: 'begin',
          type: 'beginNode',
          position: { x: 80, y: 200 },
          data: { label: 'Begin', name: 'begin', form },
        },
      ],
      edges: [],
    },
    history: [],
    path: [],
    retrieval: [],
    globals: {
      'sys.query': '',
      'sys.user_id': '',
      'sys.conversation_turns': 0,
      'sys.files': [],
      'sys.history': [],
    },
  };
}
