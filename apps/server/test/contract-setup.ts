/**
 * Server test setup: a test during which a test server answered outside its route contract fails,
 * naming the route, the path of the bad field and its value (see src/http/contract-check.ts).
 */
import { afterEach } from 'vitest';
import { describeViolations, drainViolations } from './contract-violations.js';

afterEach(() => {
  const violations = drainViolations();
  if (violations.length > 0) throw new Error(describeViolations(violations));
});
