import { Template } from '@huggingface/jinja';

/** Whether text uses Jinja2 syntax (AGENTS.md §6.8: `{%…%}`, `{{` or `}}`). */
export function hasJinjaMarkers(text: string): boolean {
  return /\{%[\s\S]*?%\}/.test(text) || text.includes('{{') || text.includes('}}');
}

/** Render a Jinja2 template; a template error is thrown with a readable message. */
export function renderJinja(template: string, vars: Record<string, unknown>): string {
  let compiled: Template;
  try {
    compiled = new Template(template);
  } catch (e) {
    throw new Error(`Template syntax error: ${(e as Error).message}`);
  }
  try {
    return compiled.render(vars);
  } catch (e) {
    throw new Error(`Template rendering error: ${(e as Error).message}`);
  }
}

/** The placeholder name a reference is bound to inside a Jinja2 template (`@`, `:` and `.` → `_`). */
export function placeholderName(ref: string): string {
  return ref.replace(/[@:.]/g, '_');
}
