/**
 * How a model id (`<model name>@<factory>`, API.md §5) is shown to a person: "name (factory)". An id
 * without a factory is its name.
 */
export function modelLabel(id: string): string {
  const at = id.lastIndexOf('@');
  if (at <= 0 || at === id.length - 1) return id;
  return `${id.slice(0, at)} (${id.slice(at + 1)})`;
}
