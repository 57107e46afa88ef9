/**
 * What the tool components need from the server: the outbound guard (every request a tool makes on
 * a user's behalf goes through it), the CodeExec sandbox, the environment that holds the services'
 * base URLs (`LECTERN_<TOOL>_BASE_URL`, README "Agent tools") and an optional time-limit override.
 */
import type { OutboundPolicy } from '../net/index.js';
import type { RunCodeRequest, RunCodeResult } from '../sandbox/index.js';

export interface ToolDeps {
  policy: OutboundPolicy;
  runCode(req: RunCodeRequest): Promise<RunCodeResult>;
  /** Where base-URL overrides are read (process.env in the server). */
  env: Readonly<Record<string, string | undefined>>;
  /** Caps every tool's own request time limit (tests use a short one to check time-outs). */
  timeoutMs?: number;
  /** Extra certificate authorities trusted for SMTP TLS (PEM; tests use a self-signed one). */
  smtpCa?: string;
}

/** The base URL of a service: its `LECTERN_<NAME>_BASE_URL` override, else the real service. */
export function baseUrl(deps: ToolDeps, envName: string, fallback: string): string {
  const v = deps.env[envName]?.trim();
  return (v || fallback).replace(/\/+$/, '');
}

/** A tool's request time limit: its own default, capped by the override. */
export function timeLimitMs(deps: ToolDeps, seconds: number): number {
  const own = seconds * 1000;
  return deps.timeoutMs ? Math.min(own, deps.timeoutMs) : own;
}
