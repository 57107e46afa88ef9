/**
 * Where the test servers' contract violations wait until the test that caused them ends
 * (`contract-setup.ts` fails that test). Kept apart from the harness so the setup file stays light.
 */
import type { ContractViolation } from '../src/http/contract-check.js';

const sinks = new Set<ContractViolation[]>();

/** Called by the harness for each server it starts with the contract check on. */
export function watchViolations(list: ContractViolation[]): void {
  sinks.add(list);
}

/** Every violation recorded since the last call, oldest first. */
export function drainViolations(): ContractViolation[] {
  const out: ContractViolation[] = [];
  for (const list of sinks) out.push(...list.splice(0));
  return out;
}

export function describeViolations(violations: ContractViolation[]): string {
  const lines = violations.slice(0, 20).map((v) => {
    let value: string;
    try {
      value = JSON.stringify(v.value) ?? 'undefined';
    } catch {
      value = String(v.value);
    }
    return `- ${v.route} (${v.url}): ${v.path} = ${value.slice(0, 300)} — ${v.message}`;
  });
  const more = violations.length > 20 ? `\n… and ${violations.length - 20} more` : '';
  return `The server answered outside its route contract (packages/shared/src/contract):\n${lines.join('\n')}${more}`;
}
