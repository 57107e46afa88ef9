import type { JsonValue } from '@lectern/shared';

/** JSON-object text fields of the MCP forms: parse, and the antd rule that checks them. */
export function parseObject(text: string | undefined): Record<string, JsonValue> | null {
  if (!text || !text.trim()) return {};
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, JsonValue>)
      : null;
  } catch {
    return null;
  }
}

export const objectRule = (message: string) => ({
  validator: (_: unknown, value: string | undefined) =>
    parseObject(value) ? Promise.resolve() : Promise.reject(new Error(message)),
});

export const pretty = (value: unknown) =>
  value && typeof value === 'object' && Object.keys(value).length > 0 ? JSON.stringify(value, null, 2) : '';

/** Saves `data` as a JSON file named `name` in the browser. */
export function downloadJson(name: string, data: unknown): void {
  const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
