/** A problem found in a DSL, named by the component it concerns. */
export interface DslIssue {
  /** component id, or null for a problem of the whole DSL */
  componentId: string | null;
  /** the component's display name (graph `data.name`), its id when it has none */
  componentName: string | null;
  message: string;
}

export function formatIssue(i: DslIssue): string {
  return i.componentName ? `${i.componentName}: ${i.message}` : i.message;
}

/** The DSL cannot be loaded or run; `message` lists every issue, each naming its component. */
export class DslError extends Error {
  readonly issues: DslIssue[];
  constructor(issues: DslIssue[]) {
    super(issues.map(formatIssue).join('\n'));
    this.name = 'DslError';
    this.issues = issues;
  }
}
