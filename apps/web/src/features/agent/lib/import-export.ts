import { loadDsl, type Dsl } from '@lectern/agent-core/editor';

/**
 * Import/export of a canvas as JSON. Export writes the DSL; import takes a DSL, a template row or a
 * canvas row (anything with a `dsl` key), as RAGFlow's editor exports them, and loads it through
 * agent-core (legacy component names mapped). A file that is not such JSON is refused.
 */
export function parseImport(text: string): { ok: true; dsl: Dsl } | { ok: false } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false };
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return { ok: false };
  const candidate = 'dsl' in parsed ? (parsed as { dsl: unknown }).dsl : parsed;
  if (!candidate || typeof candidate !== 'object' || !('components' in candidate || 'graph' in candidate))
    return { ok: false };
  try {
    return { ok: true, dsl: loadDsl(candidate) };
  } catch {
    return { ok: false };
  }
}

/** A file name from the agent's title. */
export function exportFileName(title: string): string {
  const base = title.trim().replace(/[\\/:*?"<>|]+/g, '_') || 'agent';
  return `${base}.json`;
}

export function downloadJson(fileName: string, value: unknown): void {
  const blob = new Blob([JSON.stringify(value, null, 2)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.click();
  URL.revokeObjectURL(url);
}
